//! Decoding a whole image through its `[[layout]]` tables (the bridge): the header, then every
//! row of its table, blocks through their own tables, each region's struct decoded, a ring's
//! slot headers, a bytes region summarised. Which rows and regions are valid is the runtime's
//! attach engine's verdict (`abi_runtime::attach::report`, the checks generated bindings
//! attach with, `codegen/ATTACH.md`), given the specs [`AttachSpecs`] converts from the attach plan: a
//! bad magic or major version stops there; a row missing, out of bounds, misaligned, too
//! small, or overlapping another is an error, and its region is not decoded. Here each
//! problem is placed (the offset of the field or region it concerns, its path) and worded.

use abi_runtime::attach::{AttachError, Report, RowReport, Source, TableReport, report};

use crate::ir::attach::Holds;
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

use super::decode;
use super::file::{FileInspection, Found, ReadAt};
use super::model::{Issue, Level};
use super::specs::AttachSpecs;
use crate::ir::StructId;

use super::entries;

/// The `[[layout]]` named `name`.
pub fn find_layout(schema: &Schema, name: &str) -> Option<crate::ir::LayoutId> {
    schema.attach.layout_id(name)
}

/// The input as the attach engine reads it: the few bytes of each field it checks.
struct Input<'a>(&'a dyn ReadAt);

impl Source for Input<'_> {
    fn size(&self) -> usize {
        usize::try_from(self.0.size()).unwrap_or(usize::MAX)
    }

    fn read_uint(&self, at: usize, width: usize) -> Option<u64> {
        let bytes = self.0.read_at(at as u64, width as u64)?;
        bytes.as_slice().read_uint(0, width)
    }
}

/// Decodes the whole of `input` as an image laid out by layout `layout`, from offset 0.
pub fn inspect_image(
    schema: &Schema,
    layout: crate::ir::LayoutId,
    input: &dyn ReadAt,
) -> FileInspection {
    let t = &schema.attach.layouts[layout];
    let plan = &schema.attach_plan;
    let specs = AttachSpecs::new(plan);
    let handshake = specs.handshake(t.header);
    let report = report(
        &Input(input),
        handshake.as_ref(),
        specs.table(layout.index()),
    );
    let mut cx = ImageDecoder {
        schema,
        input,
        len: input.size(),
        issues: Vec::new(),
        found: Vec::new(),
        groups: Vec::new(),
    };
    cx.image(layout.index(), &report);
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

    /// Decodes struct `si` at `offset`; `data` bytes of the region follow it. An error says
    /// so when the input ends first.
    fn record(&mut self, si: StructId, offset: u64, group: &str, path: &str, data: u64) {
        self.group(group);
        let s = &self.schema.abi.structs[si];
        let size = self.schema.layout.of(si).size;
        let Some(bytes) = self.input.read_at(offset, size) else {
            let message = format!(
                "{} ({size} bytes) at {offset:#x} lies past the end of the file ({} bytes)",
                s.name, self.len
            );
            self.error(offset, path, message);
            return;
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
    }

    /// The root layout `li`: its header (unless the input is shorter than every producer
    /// writes, which the engine says), the image's problems, then its table.
    fn image(&mut self, li: usize, report: &Report) {
        let short = matches!(
            report.problems.first(),
            Some(AttachError::MappingTooShort { .. })
        );
        if short {
            self.group("header");
        } else {
            let header = self.schema.attach.layouts[li].header;
            self.record(header, 0, "header", "header", 0);
        }
        for e in &report.problems {
            self.table_problem(li, 0, "", e);
        }
        if let Some(table) = &report.table {
            self.table(crate::ir::LayoutId::new(li), table, "", "");
        }
    }

    /// The table of layout `li` as the engine checked it: its problems, then each row, its
    /// region decoded when it passed.
    fn table(&mut self, li: crate::ir::LayoutId, report: &TableReport, group: &str, path: &str) {
        for e in &report.problems {
            self.table_problem(li.index(), report.base as u64, path, e);
        }
        let rows = &self.schema.attach.layouts[li].rows;
        for (ri, (row, r)) in rows.iter().zip(&report.rows).enumerate() {
            match r {
                RowReport::Absent => {}
                RowReport::Refused {
                    offset,
                    size,
                    error,
                } => self.row_problem((li.index(), ri), report, (*offset, *size), path, error),
                RowReport::Placed {
                    offset,
                    size,
                    blocks,
                } => {
                    let rgroup = format!("{group}{}", row.name);
                    let rpath = format!("{path}{}", row.name);
                    let start = report.base as u64 + offset;
                    self.region((li.index(), ri), start, *size, (&rgroup, &rpath), blocks);
                }
            }
        }
    }

    /// A problem of the image or of a table (layout `li`'s, at `base`), at the header field
    /// it concerns.
    fn table_problem(&mut self, li: usize, base: u64, path: &str, e: &AttachError) {
        let schema = self.schema;
        let t = &schema.attach.layouts[li];
        let h = schema
            .attach
            .handshakes
            .iter()
            .find(|h| h.struct_index == t.header);
        let header = &schema.abi.structs[t.header].name;
        let magic = h.and_then(|h| h.magic.as_ref());
        // The header field the check read.
        let field: Option<&Scalar> = match e {
            AttachError::BadMagic { .. } => magic.map(|(m, _)| m),
            AttachError::MajorMismatch { .. } => h.map(|h| &h.major),
            AttachError::HeaderTooSmall { .. } | AttachError::HeaderBeyondMapping { .. } => {
                h.and_then(|h| h.size.as_ref())
            }
            AttachError::ExtentBeyondMapping { .. }
            | AttachError::ExtentBeyondBlock { .. }
            | AttachError::ExtentTooSmall { .. } => t.extent.as_ref(),
            AttachError::TooManyRows { .. } => t.row_count.as_ref(),
            _ => None,
        };
        let offset = base + field.map_or(0, |s| s.offset);
        let name = field.map_or("its field", |s| s.path.as_str());
        let message = match e {
            AttachError::MappingTooShort { expected, found } => format!(
                "{header} ({expected} bytes{}) at {base:#x} lies past the end of the file \
                 ({found} bytes)",
                if h.is_some() {
                    " every producer writes"
                } else {
                    ""
                }
            ),
            AttachError::BadMagic { found, .. } => match magic {
                Some((_, c)) => {
                    let c = &schema.abi.consts[*c];
                    format!(
                        "bad magic {found:#x}: not a {} ({} = {})",
                        t.name, c.name, c.literal
                    )
                }
                None => e.to_string(),
            },
            AttachError::MajorMismatch { expected, found } => {
                format!(
                    "major version {found}; this schema is {expected}.x: the regions are not read"
                )
            }
            AttachError::HeaderTooSmall { expected, found } => format!(
                "header too small: {name} = {found}, less than the {expected} bytes every {}.x \
                 producer writes",
                schema.abi.version.major
            ),
            AttachError::HeaderBeyondMapping { expected, found } => {
                format!("header beyond the mapping: {name} = {found} runs past {expected:#x}")
            }
            AttachError::ExtentBeyondMapping { expected, found } => format!(
                "{name} = {found}: {} spans past the end of the file ({expected:#x})",
                t.name
            ),
            AttachError::ExtentBeyondBlock {
                expected, found, ..
            } => format!(
                "{name} = {found}: {} spans past the end of its block ({:#x})",
                t.name,
                base + expected
            ),
            AttachError::ExtentTooSmall {
                expected, found, ..
            } => format!(
                "extent too small: {name} = {found}, less than its header's {expected} bytes"
            ),
            AttachError::TooManyRows {
                expected, found, ..
            } => format!("{name} = {found}, past the table's {expected} rows"),
            _ => e.to_string(),
        };
        self.error(offset, &format!("{path}header"), message);
    }

    /// Row `ri` of layout `li` (whose regions are named from `path`) failed `e`; `(offset,
    /// size)` is what its row says.
    fn row_problem(
        &mut self,
        (li, ri): (usize, usize),
        table: &TableReport,
        (offset, size): (u64, u64),
        path: &str,
        e: &AttachError,
    ) {
        let t = &self.schema.attach.layouts[li];
        let row = &t.rows[ri];
        let rpath = format!("{path}{}", row.name);
        let base = table.base as u64;
        let start = base.saturating_add(offset);
        let end = offset.saturating_add(size);
        let (at, message) = match e {
            AttachError::RegionMissing { .. } => (
                base,
                format!("region missing: {} has no row (size 0)", row.name),
            ),
            AttachError::RegionOutOfBounds { limit, .. } => (
                start,
                format!(
                    "region out of bounds: {offset:#x}..{end:#x} runs past the end of {} \
                     ({limit:#x} bytes)",
                    t.name
                ),
            ),
            AttachError::RegionMisaligned { align, .. } => (
                start,
                format!("region misaligned: offset {offset:#x} is not a multiple of {align}"),
            ),
            AttachError::RegionTooSmall { expected, .. } => (
                start,
                format!(
                    "region too small: {size} bytes, {} needs {expected}",
                    row.holds.keyword()
                ),
            ),
            AttachError::RegionsOverlap { other, .. } => {
                // The engine names the other region (a row, or the header) from `path` too.
                let name = other.strip_prefix(path).unwrap_or(other);
                let placed = t.rows.iter().zip(&table.rows).find_map(|(r, p)| match p {
                    RowReport::Placed { offset, size, .. } if r.name == name => {
                        Some((*offset, *size))
                    }
                    _ => None,
                });
                let (o, n) = placed.unwrap_or((0, table.header_len));
                let message = format!(
                    "regions overlap: {offset:#x}..{end:#x} and {name} ({o:#x}..{:#x})",
                    o + n
                );
                (start, message)
            }
            _ => (start, e.to_string()),
        };
        self.error(at, &rpath, message);
    }

    /// Decodes the region of row `ri` of layout `li`, placed at `start` with `size` bytes;
    /// `blocks` are the engine's checks of its blocks, for a blocks row.
    /// The entries of the queue or log ring whose header `si` starts the region at
    /// `start` (`size` bytes): each entry's struct decoded as `PATH.entries[N]`, in the order
    /// they were written, its parts' bytes as data after it.
    fn entries(&mut self, si: StructId, start: u64, size: u64, (group, path): (&str, &str)) {
        let schema = self.schema;
        let Some((entry, oldest, write, capacity)) = entries::protocol_over(schema, si) else {
            return;
        };
        let header_size = schema.layout.of(si).size;
        let Some(header) = self.input.read_at(start, header_size) else {
            return;
        };
        let read = |fi| entries::field(schema, si, fi, &header).unwrap_or(0);
        let positions = (read(oldest), read(write), read(capacity));
        let area = start + header_size.next_multiple_of(8);
        let head_size = schema.layout.of(entry.struct_index).size;
        let input = self.input;
        let (steps, problem) = entries::walk(schema, entry, positions, |at| {
            (area - start + at + head_size <= size)
                .then(|| input.read_at(area + at, head_size))
                .flatten()
        });
        for (n, step) in steps.iter().filter(|s| !s.padding).enumerate() {
            let p = format!("{path}.entries[{n}]");
            self.record(
                entry.struct_index,
                area + step.at,
                group,
                &p,
                step.size - head_size.min(step.size),
            );
        }
        if let Some(message) = problem {
            self.error(start, &format!("{path}.entries"), message);
        }
    }

    /// The payload of the ring slot at `at` (`slot_size` bytes), whose header the seqlock
    /// `seqlock` guards: the trailer part `payload`'s struct decoded as `PATH.payload`, the
    /// rest of its `size` bytes as data after it. Not decoded when the slot was never
    /// written (a size of 0) or is being written (an odd counter, a warning: the bytes are
    /// half old, half new); an error when its size does not fit the slot or the struct.
    fn slot_payload(
        &mut self,
        (seqlock, payload): (usize, usize),
        (at, slot_size): (u64, u64),
        group: &str,
        path: &str,
    ) {
        let schema = self.schema;
        let lock = &schema.access.seqlocks[seqlock];
        let si = lock.struct_index;
        let Some(part) = schema.access.structs[si].trailer.get(payload) else {
            return;
        };
        let crate::ir::Elem::Struct(ps) = part.ty.elem else {
            return;
        };
        let Some(header) = self.input.read_at(at, schema.layout.of(si).size) else {
            return;
        };
        let read = |fi| entries::field(schema, si, fi, &header);
        let size = part.size_field.map_or(Some(part.size), read).unwrap_or(0);
        if size == 0 {
            return;
        }
        let p = format!("{path}.payload");
        if read(lock.counter).is_some_and(|seq| seq % 2 == 1) {
            self.issues.push(Issue {
                level: Level::Warn,
                offset: at,
                path: p,
                message: "the slot is being written (its seq is odd): its payload is not decoded"
                    .into(),
            });
            return;
        }
        let least = schema.layout.of(ps).size;
        let room = slot_size.saturating_sub(part.offset);
        if size < least || size > room {
            let message = format!(
                "size {size} does not fit: the payload is a {} ({least} bytes) and its extras, in the {room} bytes the slot has after its header",
                schema.abi.structs[ps].name
            );
            self.error(at, &p, message);
            return;
        }
        self.record(
            ps,
            at + part.offset,
            &format!("{group}.payload"),
            &p,
            size - least,
        );
    }

    fn region(
        &mut self,
        (li, ri): (usize, usize),
        start: u64,
        size: u64,
        (group, path): (&str, &str),
        blocks: &[TableReport],
    ) {
        let holds = &self.schema.attach.layouts[li].rows[ri].holds;
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
                let each = t.rows[ri].each;
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
                if count == 1 {
                    self.entries(struct_index, start, size, (group, path));
                }
            }
            Holds::Ring { ring } => {
                let crate::ir::access::RingKind::Slots {
                    slot_count,
                    slot_size,
                    seqlock,
                    payload,
                    ..
                } = schema.access.rings[ring].kind
                else {
                    return;
                };
                let si = schema.access.seqlocks[seqlock].struct_index;
                let data = slot_size - schema.layout.of(si).size;
                for s in 0..slot_count {
                    let (at, p) = (start + s * slot_size, format!("{path}[{s}]"));
                    self.record(si, at, group, &p, data);
                    self.slot_payload((seqlock, payload), (at, slot_size), group, &p);
                }
            }
            Holds::Blocks { layout, .. } => {
                for (b, block) in blocks.iter().enumerate() {
                    let header_path = format!("{path}[{b}].header");
                    self.record(
                        schema.attach.layouts[layout].header,
                        block.base as u64,
                        &format!("{group}.header"),
                        &header_path,
                        0,
                    );
                    self.table(
                        layout,
                        block,
                        &format!("{group}."),
                        &format!("{path}[{b}]."),
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
