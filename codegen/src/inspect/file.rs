//! Decoding a whole file through its `[[file]]` format: each record found where the format
//! says (an offset, the end, a field of an earlier record, right after one, inside the zlib
//! stream after each copy of one), decoded like any record, and checked: offsets inside the
//! file, records that do not overlap, counts that fit, zlib streams whole and of the declared
//! size, ordered fields, totals. A record whose expected values do not hold is shown but not
//! followed; a record that cannot be found is an error that says why. Nothing is skipped or
//! resynchronised silently.

use crate::ir::file::{FieldRef, FileFormat, Place, TotalOf};
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

use super::decode;
use super::model::{Decoded, Issue, Level, Node, NodeKind, exit_code};

/// Random access to an input: a file read at ranges, or bytes in memory.
pub trait ReadAt {
    /// The input's length in bytes.
    fn size(&self) -> u64;
    /// The `n` bytes at `offset`, or `None` when they are not all there.
    fn read_at(&self, offset: u64, n: u64) -> Option<Vec<u8>>;
}

impl ReadAt for &[u8] {
    fn size(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn read_at(&self, offset: u64, n: u64) -> Option<Vec<u8>> {
        let end = offset.checked_add(n)?;
        (end <= self.size()).then(|| self[offset as usize..end as usize].to_vec())
    }
}

impl ReadAt for Vec<u8> {
    fn size(&self) -> u64 {
        self.as_slice().size()
    }

    fn read_at(&self, offset: u64, n: u64) -> Option<Vec<u8>> {
        ReadAt::read_at(&self.as_slice(), offset, n)
    }
}

/// One copy of a record (or one region of an image), decoded.
#[derive(Debug, Clone)]
pub struct Found {
    /// The record (or the image's row) it is a copy of: `chunks`, `client_blocks.pad_input`.
    pub group: String,
    /// `header`, `chunk_index[3]`, `ticks[1][4]`, `client_blocks[2].pad_input`.
    pub path: String,
    /// The struct it is decoded as, and its size; for a bytes region, `bytes`.
    pub type_name: String,
    pub size: u64,
    /// From the file's start, or, with `stream`, from the start of the inflated stream.
    pub offset: u64,
    /// For a record inside a zlib stream: the copy whose stream holds it, `chunks[2]`.
    pub stream: Option<String>,
    /// Bytes after the struct that belong to the record (`data`, or a region's `bytes`).
    pub data: u64,
    /// `None` for a bytes region, which is summarised.
    pub node: Option<Node>,
}

/// The result of decoding a whole file, or a whole image.
#[derive(Debug, Clone)]
pub struct FileInspection {
    /// The `[[file]]` or the root `[[layout]]`.
    pub name: String,
    pub doc: String,
    pub len: u64,
    pub issues: Vec<Issue>,
    /// Every group (record, row) in the format's order, found or not.
    pub groups: Vec<String>,
    /// Group by group, copy by copy.
    pub found: Vec<Found>,
}

impl FileInspection {
    pub fn has(&self, level: Level) -> bool {
        self.issues.iter().any(|i| i.level == level)
    }

    /// As [`super::Inspection::exit_code`].
    pub fn exit_code(&self, strict: bool) -> u8 {
        exit_code(&self.issues, strict)
    }
}

/// The most copies of one record decoded from a count: 1 Mi (a 1 GB file of 24-byte entries
/// would otherwise be 40 M trees of nodes).
const MAX_COPIES: u64 = 1 << 20;

/// A copy as the decoder keeps it: where, its bytes (to read fields), whether its expected
/// values hold (a copy whose do not is shown, never followed).
pub(super) struct Copy {
    pub(super) offset: u64,
    pub(super) bytes: Vec<u8>,
    pub(super) valid: bool,
}

/// The index of the `[[file]]` named `name`.
pub fn find_file(schema: &Schema, name: &str) -> Option<usize> {
    schema.attach.files.iter().position(|f| f.name == name)
}

/// Decodes the whole of `input` as file format `format`.
pub fn inspect_file(schema: &Schema, format: usize, input: &dyn ReadAt) -> FileInspection {
    let f = &schema.attach.files[format];
    let mut cx = FileDecoder::new(schema, f, input);
    for ri in 0..f.records.len() {
        let copies = cx.place(ri);
        cx.copies.push(copies);
    }
    cx.check_ordered();
    cx.check_totals();
    cx.check_overlaps();
    FileInspection {
        name: f.name.clone(),
        doc: f.doc.clone(),
        groups: f.records.iter().map(|r| r.name.clone()).collect(),
        len: cx.len,
        issues: cx.issues,
        found: cx.found,
    }
}

/// A record's copies, or why it has none.
pub(super) type Copies = Result<Vec<Copy>, String>;

pub(super) struct FileDecoder<'a> {
    pub(super) schema: &'a Schema,
    pub(super) f: &'a FileFormat,
    pub(super) input: &'a dyn ReadAt,
    pub(super) len: u64,
    pub(super) copies: Vec<Copies>,
    pub(super) issues: Vec<Issue>,
    pub(super) found: Vec<Found>,
    /// What each valid copy and zlib stream spans in the file: start, end, path.
    pub(super) spans: Vec<(u64, u64, String)>,
    /// The keys (`seek.key`, inclusive) whose records go to `sink`, decoded.
    pub(super) select: Option<(u64, u64)>,
    pub(super) sink: Option<&'a mut dyn FnMut(Decoded)>,
}

/// The unsigned little-endian integer `s` of a record's bytes.
pub(super) fn read_scalar(bytes: &[u8], s: &Scalar) -> u64 {
    let mut buf = [0u8; 8];
    let at = s.offset as usize;
    buf[..s.width as usize].copy_from_slice(&bytes[at..at + s.width as usize]);
    u64::from_le_bytes(buf)
}

/// Whether every field that expects a constant holds it.
fn holds_expected(schema: &Schema, node: &Node) -> bool {
    match &node.kind {
        NodeKind::Expected(_, v, i) => *v == schema.abi.consts[*i].value,
        NodeKind::Struct(_, fields) => fields.iter().all(|(_, n)| holds_expected(schema, n)),
        _ => true,
    }
}

impl<'a> FileDecoder<'a> {
    pub(super) fn new(schema: &'a Schema, f: &'a FileFormat, input: &'a dyn ReadAt) -> Self {
        FileDecoder {
            schema,
            f,
            input,
            len: input.size(),
            copies: Vec::new(),
            issues: Vec::new(),
            found: Vec::new(),
            spans: Vec::new(),
            select: None,
            sink: None,
        }
    }

    /// The key of a record of `ri` (its `seek.key`), 0 without one.
    pub(super) fn key_of(&self, ri: usize, head: &[u8]) -> u64 {
        self.f.records[ri]
            .seek
            .as_ref()
            .map_or(0, |s| read_scalar(head, &s.key))
    }

    /// Whether a record of `ri` goes to the sink.
    pub(super) fn selects(&self, ri: usize, head: &[u8]) -> bool {
        let key = self.key_of(ri, head);
        self.f.records[ri].seek.is_some()
            && self.select.is_some_and(|(a, b)| (a..=b).contains(&key))
    }

    pub(super) fn error(&mut self, offset: u64, path: &str, message: String) {
        self.issues.push(Issue {
            level: Level::Error,
            offset,
            path: path.to_string(),
            message,
        });
    }

    pub(super) fn name(&self, ri: usize) -> &str {
        &self.f.records[ri].name
    }

    /// A field of the first copy of an earlier record, or why it cannot be read.
    fn field(&self, r: &FieldRef) -> Result<u64, String> {
        let name = self.name(r.record);
        match &self.copies[r.record] {
            Err(_) => Err(format!("`{name}` is missing")),
            Ok(c) if c.is_empty() => Err(format!("`{name}` is missing")),
            Ok(c) if !c[0].valid => Err(format!(
                "`{name}` does not hold its expected values, so `{name}.{}` is not followed \
                 (a file cut short?)",
                r.field.path
            )),
            Ok(c) => Ok(read_scalar(&c[0].bytes, &r.field)),
        }
    }

    /// Finds the copies of record `ri`.
    pub(super) fn place(&mut self, ri: usize) -> Copies {
        let rec = &self.f.records[ri];
        let start = match &rec.place {
            Place::At(o) => Ok(*o),
            Place::FromEnd(back) => self.len.checked_sub(*back).ok_or_else(|| {
                format!("the file ({} bytes) is shorter than {back} bytes", self.len)
            }),
            Place::Field(r) => self.field(r),
            Place::After(a) => match &self.copies[*a] {
                Ok(c) => Ok(self.end_of(*a, c)),
                Err(_) => Err(format!("`{}` is missing", self.name(*a))),
            },
            Place::Each(r) => return self.place_each(ri, r),
            Place::Zlib(z) => return self.place_zlib(ri, z),
        };
        let count = match &rec.count {
            None => Ok(1),
            Some(c) => self.field(c),
        };
        let (start, count) = match (start, count) {
            (Ok(s), Ok(c)) => (s, c),
            (Err(why), _) | (_, Err(why)) => return self.missing(ri, why),
        };
        let size = rec.size;
        let room = self.len.saturating_sub(start) / size;
        let mut fits = count;
        if let Some(c) = rec.count.as_ref().filter(|_| count > room) {
            let message = format!(
                "{}.{} = {count}: {count} × {} ({size} bytes) from {start:#x} need {} bytes, \
                 the file has {} there ({room} whole records, decoded)",
                self.name(c.record),
                c.field.path,
                self.schema.abi.structs[rec.struct_index].name,
                u128::from(count) * u128::from(size),
                self.len.saturating_sub(start),
            );
            self.error(start, &rec.name, message);
            fits = room;
        }
        if fits > MAX_COPIES {
            let message = format!(
                "{fits} copies: only the first {MAX_COPIES} are decoded (a bound on memory)"
            );
            self.issues.push(Issue {
                level: Level::Warn,
                offset: start,
                path: rec.name.clone(),
                message,
            });
            fits = MAX_COPIES;
        }
        let mut copies = Vec::new();
        for i in 0..fits {
            let path = if rec.count.is_some() {
                format!("{}[{i}]", rec.name)
            } else {
                rec.name.clone()
            };
            if let Some(c) = self.copy_at(ri, start + i * size, &path) {
                copies.push(c);
            }
        }
        if copies.is_empty() && rec.count.is_none() {
            return Err(format!("`{}` is out of bounds", rec.name));
        }
        Ok(copies)
    }

    pub(super) fn missing(&mut self, ri: usize, why: String) -> Copies {
        let name = self.name(ri).to_string();
        self.error(0, &name, format!("not found: {why}"));
        Err(why)
    }

    /// Where the copies of record `ri` end (its place, with none).
    fn end_of(&self, ri: usize, copies: &[Copy]) -> u64 {
        match copies.last() {
            Some(c) => c.offset + self.f.records[ri].size,
            None => 0,
        }
    }

    /// Reads and decodes one copy of record `ri` at `offset` of the file.
    fn copy_at(&mut self, ri: usize, offset: u64, path: &str) -> Option<Copy> {
        let rec = &self.f.records[ri];
        let Some(bytes) = self.input.read_at(offset, rec.size) else {
            let message = format!(
                "{} ({} bytes) at {offset:#x} lies past the end of the file ({} bytes)",
                self.schema.abi.structs[rec.struct_index].name, rec.size, self.len
            );
            self.error(offset, path, message);
            return None;
        };
        let node = decode::record(
            self.schema,
            rec.struct_index,
            &bytes,
            offset,
            path,
            &mut self.issues,
        );
        let valid = holds_expected(self.schema, &node);
        if valid {
            self.spans
                .push((offset, offset + rec.size, path.to_string()));
        }
        self.found.push(Found {
            group: rec.name.clone(),
            path: path.to_string(),
            type_name: self.schema.abi.structs[rec.struct_index].name.clone(),
            size: rec.size,
            offset,
            stream: None,
            data: 0,
            node: Some(node),
        });
        Some(Copy {
            offset,
            bytes,
            valid,
        })
    }

    /// One copy per copy of an earlier record, at the offset each holds; or, when that record
    /// is missing and the format says `walk`, found one after another.
    fn place_each(&mut self, ri: usize, r: &FieldRef) -> Copies {
        let rec = &self.f.records[ri];
        let index = match &self.copies[r.record] {
            Ok(c) if !c.is_empty() || rec.walk.is_none() => Some(
                c.iter()
                    .map(|c| (c.valid, read_scalar(&c.bytes, &r.field), c.bytes.clone()))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        };
        let Some(index) = index else {
            let why = format!("`{}` is missing", self.name(r.record));
            return match rec.walk {
                Some(w) => self.walk(ri, w, why),
                None => self.missing(ri, why),
            };
        };
        let mut copies = Vec::new();
        for (i, (valid, offset, entry)) in index.into_iter().enumerate() {
            let path = format!("{}[{i}]", rec.name);
            if !valid {
                self.error(
                    0,
                    &path,
                    format!(
                        "not found: `{}[{i}]` does not hold its expected values",
                        self.name(r.record)
                    ),
                );
                continue;
            }
            if let Some(c) = self.copy_at(ri, offset, &path) {
                self.check_indexed(ri, r.record, i, &entry, &c);
                copies.push(c);
            }
        }
        Ok(copies)
    }

    /// `indexed`: each field of index copy `i` (`entry`) that repeats a field of the copy
    /// `c` of record `ri` it places.
    fn check_indexed(&mut self, ri: usize, index: usize, i: usize, entry: &[u8], c: &Copy) {
        let rec = &self.f.records[ri];
        let mut out = Vec::new();
        for x in &rec.indexed {
            let (e, v) = (
                read_scalar(entry, &x.entry),
                read_scalar(&c.bytes, &x.record),
            );
            if e != v {
                out.push((
                    format!("{}[{i}].{}", self.name(index), x.entry.path),
                    format!("holds {e}, but {}[{i}].{} is {v}", rec.name, x.record.path),
                ));
            }
        }
        for (path, message) in out {
            self.error(c.offset, &path, message);
        }
    }

    /// The bytes of the zlib stream that follows a copy of record `ri`, if one does.
    fn stream_after(&self, ri: usize, copy: &Copy) -> u64 {
        self.f
            .records
            .iter()
            .find_map(|r| match &r.place {
                Place::Zlib(z) if z.source == ri => Some(read_scalar(&copy.bytes, &z.stored)),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// Finds the copies of record `ri` from the end of record `from` forward, each right
    /// after the one before and its zlib stream, up to the end of the file or the first
    /// bytes that are not one: those are an error, never skipped.
    fn walk(&mut self, ri: usize, from: usize, why: String) -> Copies {
        let rec = &self.f.records[ri];
        let (name, size) = (rec.name.clone(), rec.size);
        let from_name = self.name(from).to_string();
        let mut pos = match &self.copies[from] {
            Ok(c) if !c.is_empty() && c[0].valid => self.end_of(from, c),
            _ => return self.missing(ri, format!("{why}, and `{from_name}` to walk from too")),
        };
        let type_name = &self.schema.abi.structs[rec.struct_index].name;
        self.issues.push(Issue {
            level: Level::Warn,
            offset: pos,
            path: name.clone(),
            message: format!("{why}: {name} found by walking from the end of `{from_name}`"),
        });
        let mut copies: Vec<Copy> = Vec::new();
        while pos < self.len {
            let path = format!("{name}[{}]", copies.len());
            if self.len - pos < size {
                let message = format!(
                    "the walk stops: the file ends {} bytes into a {type_name} ({size} bytes)",
                    self.len - pos
                );
                self.error(pos, &path, message);
                break;
            }
            let Some(c) = self.copy_at(ri, pos, &path) else {
                break;
            };
            if !c.valid {
                let message = format!(
                    "the walk stops: the bytes at {pos:#x} are not a {type_name} (its expected \
                     values do not hold); the {} bytes from there are not decoded",
                    self.len - pos
                );
                self.error(pos, &path, message);
                break;
            }
            pos = pos
                .saturating_add(size)
                .saturating_add(self.stream_after(ri, &c));
            copies.push(c);
        }
        Ok(copies)
    }

    fn check_ordered(&mut self) {
        for o in &self.f.ordered {
            let Ok(copies) = &self.copies[o.record] else {
                continue;
            };
            let group = &self.f.records[o.record].name;
            let paths: Vec<&Found> = self.found.iter().filter(|f| f.group == *group).collect();
            let mut prev: Option<u64> = None;
            let mut out = Vec::new();
            for (c, f) in copies.iter().zip(paths) {
                let v = read_scalar(&c.bytes, &o.field);
                if let Some(p) = prev.filter(|p| v <= *p) {
                    let field = o.field.path.as_str();
                    out.push((
                        c.offset + o.field.offset,
                        format!("{}.{field}", f.path),
                        format!("{field} {v} follows {field} {p}: out of order"),
                    ));
                }
                prev = Some(v);
            }
            for (at, path, m) in out {
                self.error(at, &path, m);
            }
        }
    }

    pub(super) fn check_totals(&mut self) {
        for t in &self.f.totals {
            let Ok(total) = self.field(&t.total) else {
                continue;
            };
            let (actual, what) = match &t.of {
                TotalOf::Sum(r) => match &self.copies[r.record] {
                    Ok(c) => (
                        c.iter()
                            .map(|c| read_scalar(&c.bytes, &r.field))
                            .sum::<u64>(),
                        "sums to",
                    ),
                    Err(_) => continue,
                },
                TotalOf::Count(r) => match &self.copies[*r] {
                    Ok(c) => (c.len() as u64, "counts"),
                    Err(_) => continue,
                },
                TotalOf::First(r) | TotalOf::Last(r) => match &self.copies[r.record] {
                    Ok(c) => {
                        let (copy, what) = match &t.of {
                            TotalOf::First(_) => (c.first(), "starts with"),
                            _ => (c.last(), "ends with"),
                        };
                        (copy.map_or(0, |c| read_scalar(&c.bytes, &r.field)), what)
                    }
                    Err(_) => continue,
                },
            };
            if actual != total {
                let owner = &self.f.records[t.total.record].name;
                let at = match &self.copies[t.total.record] {
                    Ok(c) => c[0].offset + t.total.field.offset,
                    Err(_) => 0,
                };
                let message = format!("holds {total}, but {} {what} {actual}", t.text);
                self.error(at, &format!("{owner}.{}", t.total.field.path), message);
            }
        }
    }

    /// Every two valid copies or streams that share bytes.
    fn check_overlaps(&mut self) {
        let mut spans = std::mem::take(&mut self.spans);
        spans.retain(|(s, e, _)| s < e);
        spans.sort();
        let mut reach: Option<(u64, u64, String)> = None;
        let mut out = Vec::new();
        for (s, e, path) in spans {
            if let Some((rs, re, rpath)) = &reach
                && s < *re
            {
                out.push((
                    s,
                    path.clone(),
                    format!("{s:#x}..{e:#x} overlaps {rpath} ({rs:#x}..{re:#x})"),
                ));
            }
            if reach.as_ref().is_none_or(|r| e > r.1) {
                reach = Some((s, e, path));
            }
        }
        for (at, path, m) in out {
            self.error(at, &path, m);
        }
    }
}
