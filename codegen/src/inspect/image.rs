//! Decoding a whole image through its `[[layout]]` tables (the bridge): the header, then every
//! row of its table, blocks through their own tables, each region's struct decoded, a ring's
//! slot headers, a bytes region summarised. The same rows and checks as `attach`
//! (`codegen/ATTACH.md`), read from the same IR: a bad magic or major version stops there; a
//! row missing, out of bounds, misaligned, too small, or overlapping another is an error, and
//! its region is not decoded.

use crate::ir::attach::{Holds, LayoutTable};
use crate::schema::Schema;

use super::decode;
use super::file::{FileInspection, Found, ReadAt, read_scalar};
use super::model::{Issue, Level};

/// The index of the `[[layout]]` named `name`.
pub fn find_layout(schema: &Schema, name: &str) -> Option<usize> {
    schema.attach.layouts.iter().position(|l| l.name == name)
}

/// Decodes the whole of `input` as an image laid out by layout `layout`, from offset 0.
pub fn inspect_image(schema: &Schema, layout: usize, input: &dyn ReadAt) -> FileInspection {
    let t = &schema.attach.layouts[layout];
    let mut cx = ImageDecoder {
        schema,
        input,
        len: input.size(),
        issues: Vec::new(),
        found: Vec::new(),
        groups: Vec::new(),
    };
    cx.layout_at(layout, 0, "", "", cx.len);
    FileInspection {
        name: t.name.clone(),
        doc: t.doc.clone(),
        len: cx.len,
        issues: cx.issues,
        groups: cx.groups,
        found: cx.found,
    }
}

struct ImageDecoder<'a> {
    schema: &'a Schema,
    input: &'a dyn ReadAt,
    len: u64,
    issues: Vec<Issue>,
    found: Vec<Found>,
    groups: Vec<String>,
}

impl ImageDecoder<'_> {
    fn error(&mut self, offset: u64, path: &str, message: String) {
        self.issues.push(Issue {
            level: Level::Error,
            offset,
            path: path.to_string(),
            message,
        });
    }

    fn group(&mut self, group: &str) {
        if !self.groups.iter().any(|g| g == group) {
            self.groups.push(group.to_string());
        }
    }

    /// Decodes struct `si` at `offset`; `data` bytes of the region follow it. Returns its
    /// bytes, or `None` (an error says so) when the input ends first.
    fn record(
        &mut self,
        si: usize,
        offset: u64,
        group: &str,
        path: &str,
        data: u64,
    ) -> Option<Vec<u8>> {
        self.group(group);
        let s = &self.schema.abi.structs[si];
        let size = self.schema.layout.of(si).size;
        let Some(bytes) = self.input.read_at(offset, size) else {
            let message = format!(
                "{} ({size} bytes) at {offset:#x} lies past the end of the file ({} bytes)",
                s.name, self.len
            );
            self.error(offset, path, message);
            return None;
        };
        let node = decode::record(self.schema, si, &bytes, offset, path, &mut self.issues);
        self.found.push(Found {
            group: group.to_string(),
            path: path.to_string(),
            type_name: s.name.clone(),
            size,
            offset,
            stream: None,
            data,
            node: Some(node),
        });
        Some(bytes)
    }

    /// Layout `li`'s header at `base`, then each row of its table; `limit` is where the
    /// bridge or block ends at most (the file, or the block's stride).
    fn layout_at(&mut self, li: usize, base: u64, group: &str, path: &str, limit: u64) {
        let t: &LayoutTable = &self.schema.attach.layouts[li];
        let header_group = format!("{group}header");
        let header_path = format!("{path}header");
        let Some(header) = self.record(t.header, base, &header_group, &header_path, 0) else {
            return;
        };
        let Some(header_size) = self.handshake(t, &header, base, &header_path, limit) else {
            return;
        };
        let mut end = limit;
        if let Some(extent) = &t.extent {
            let e = read_scalar(&header, extent);
            if e < header_size {
                let message = format!(
                    "extent too small: {} = {e}, less than its header's {header_size} bytes",
                    extent.path
                );
                self.error(base + extent.offset, &header_path, message);
                return;
            }
            if base.saturating_add(e) > limit {
                let message = format!(
                    "{} = {e}: {} spans past the end of {} ({:#x})",
                    extent.path,
                    t.name,
                    if path.is_empty() {
                        "the file"
                    } else {
                        "its block"
                    },
                    limit
                );
                self.error(base + extent.offset, &header_path, message);
            } else {
                end = base + e;
            }
        }
        let in_use = match &t.row_count {
            Some(c) => {
                let n = read_scalar(&header, c);
                if n > t.max_rows {
                    let message = format!("{} = {n}, past the table's {} rows", c.path, t.max_rows);
                    self.error(base + c.offset, &header_path, message);
                }
                n.min(t.max_rows)
            }
            None => t.max_rows,
        };
        let mut placed: Vec<(u64, u64, usize)> = Vec::new();
        for (ri, row) in t.rows.iter().enumerate() {
            let rpath = format!("{path}{}", row.name);
            let rgroup = format!("{group}{}", row.name);
            let at = t.table_offset + row.index * t.row_size;
            let (offset, size) = if row.index < in_use {
                (
                    read_scalar(&header[at as usize..], &t.row_offset),
                    read_scalar(&header[at as usize..], &t.row_size_field),
                )
            } else {
                (0, 0)
            };
            if size == 0 {
                if !row.optional && row.since.is_none() {
                    self.error(
                        base,
                        &rpath,
                        format!("region missing: {} has no row (size 0)", row.name),
                    );
                }
                continue;
            }
            let start = base.saturating_add(offset);
            if start.saturating_add(size) > end {
                let message = format!(
                    "region out of bounds: {offset:#x}..{:#x} runs past the end of {} ({:#x} bytes)",
                    offset.saturating_add(size),
                    t.name,
                    end - base
                );
                self.error(start, &rpath, message);
                continue;
            }
            if offset % row.align != 0 {
                self.error(
                    start,
                    &rpath,
                    format!(
                        "region misaligned: offset {offset:#x} is not a multiple of {}",
                        row.align
                    ),
                );
                continue;
            }
            if size < row.min_size {
                self.error(
                    start,
                    &rpath,
                    format!(
                        "region too small: {size} bytes, {} needs {}",
                        row.holds.keyword(),
                        row.min_size
                    ),
                );
                continue;
            }
            if let Some((o, e, other)) = placed.iter().find(|(o, e, k)| {
                offset < *e
                    && *o < offset + size
                    && !row.overlaps.contains(k)
                    && !t.rows[*k].overlaps.contains(&ri)
            }) {
                let message = format!(
                    "regions overlap: {offset:#x}..{:#x} and {} ({o:#x}..{e:#x})",
                    offset + size,
                    t.rows[*other].name
                );
                self.error(start, &rpath, message);
                continue;
            }
            placed.push((offset, offset + size, ri));
            self.region(&row.holds, start, size, (&rgroup, &rpath), li, ri);
        }
    }

    /// The header's size, when its magic, major version and size let the table be read.
    fn handshake(
        &mut self,
        t: &LayoutTable,
        header: &[u8],
        base: u64,
        path: &str,
        limit: u64,
    ) -> Option<u64> {
        let full = self.schema.layout.of(t.header).size;
        let handshakes = &self.schema.attach.handshakes;
        let Some(h) = handshakes.iter().find(|h| h.struct_index == t.header) else {
            return Some(full);
        };
        if let Some((magic, c)) = &h.magic {
            let v = read_scalar(header, magic);
            let c = &self.schema.abi.consts[*c];
            if i128::from(v) != c.value {
                let message = format!(
                    "bad magic {v:#x}: not a {} ({} = {})",
                    t.name, c.name, c.literal
                );
                self.error(base + magic.offset, path, message);
                return None;
            }
        }
        let major = read_scalar(header, &h.major);
        let ours = u64::from(self.schema.abi.version.major);
        if major != ours {
            let message =
                format!("major version {major}; this schema is {ours}.x: the regions are not read");
            self.error(base + h.major.offset, path, message);
            return None;
        }
        let Some(size) = &h.size else {
            return Some(full);
        };
        let v = read_scalar(header, size);
        if v < h.base_size {
            let message = format!(
                "header too small: {} = {v}, less than the {} bytes every {ours}.x producer writes",
                size.path, h.base_size
            );
            self.error(base + size.offset, path, message);
            return None;
        }
        if base.saturating_add(v) > limit {
            let message = format!(
                "header beyond the mapping: {} = {v} runs past {limit:#x}",
                size.path
            );
            self.error(base + size.offset, path, message);
            return None;
        }
        Some(v)
    }

    fn region(
        &mut self,
        holds: &Holds,
        start: u64,
        size: u64,
        (group, path): (&str, &str),
        li: usize,
        ri: usize,
    ) {
        let schema = self.schema;
        match *holds {
            Holds::Struct {
                struct_index,
                count,
                ..
            } => {
                let t = &schema.attach.layouts[li];
                if struct_index == t.header && start == 0 {
                    return; // the header, decoded already
                }
                let each = (t.rows[ri].min_size
                    - match holds {
                        Holds::Struct { bytes, .. } => *bytes,
                        _ => 0,
                    })
                    / count.max(1);
                for i in 0..count {
                    let p = if count == 1 {
                        path.to_string()
                    } else {
                        format!("{path}[{i}]")
                    };
                    let data = if i + 1 == count {
                        size - count * each
                    } else {
                        0
                    };
                    self.record(struct_index, start + i * each, group, &p, data);
                }
            }
            Holds::Ring { ring } => {
                let crate::ir::access::RingKind::Slots {
                    slot_count,
                    slot_size,
                    seqlock,
                    ..
                } = schema.access.rings[ring].kind
                else {
                    return;
                };
                let si = schema.access.seqlocks[seqlock].struct_index;
                let data = slot_size - schema.layout.of(si).size;
                for s in 0..slot_count {
                    self.record(
                        si,
                        start + s * slot_size,
                        group,
                        &format!("{path}[{s}]"),
                        data,
                    );
                }
            }
            Holds::Blocks {
                layout,
                count,
                stride,
            } => {
                for b in 0..count {
                    let at = start + b * stride;
                    self.layout_at(
                        layout,
                        at,
                        &format!("{group}."),
                        &format!("{path}[{b}]."),
                        at + stride,
                    );
                }
            }
            Holds::Bytes { .. } => {
                self.group(group);
                self.found.push(Found {
                    group: group.to_string(),
                    path: path.to_string(),
                    type_name: "bytes".into(),
                    size: 0,
                    offset: start,
                    stream: None,
                    data: size,
                    node: None,
                });
            }
        }
    }
}
