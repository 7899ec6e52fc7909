//! A `[[file]]`'s records inside zlib streams: each stream inflated with a bound (never
//! more than the size the stream's record declares plus one byte, to tell "more than
//! declared", and never more than [`MAX_INFLATED`], so that a zip bomb cannot exhaust
//! memory), checked (whole, of the declared size and count), and its records decoded.

use flate2::{Decompress, FlushDecompress, Status};

use crate::ir::file::{MAX_INFLATED, Zlib};

use super::chain::{Chain, Link};
use super::decode;
use super::file::{Copies, Copy, FileDecoder, Found, read_scalar};
use super::model::{Issue, Level};

/// What inflating a stream gave: the bytes, and how the stream ended.
struct Inflated {
    pub bytes: Vec<u8>,
    pub end: StreamEnd,
}

#[derive(Debug, PartialEq, Eq)]
enum StreamEnd {
    /// The stream's end marker, after `used` of the input's bytes.
    Complete { used: u64 },
    /// The input ended before the stream did.
    Short,
    /// Not a zlib stream, or a damaged one.
    Corrupt(String),
    /// It inflates to more than `limit` bytes (what was inflated up to it is kept).
    TooLong { limit: u64 },
}

/// Inflates `stored` (a zlib stream with its header), expecting `raw` bytes.
fn inflate(stored: &[u8], raw: u64) -> Inflated {
    let limit = raw.min(MAX_INFLATED);
    let mut out: Vec<u8> = Vec::with_capacity(limit.min(16 << 20) as usize + 1);
    let mut z = Decompress::new(true);
    loop {
        let done_in = z.total_in() as usize;
        if out.len() == out.capacity() {
            let room = (limit + 1 - out.len() as u64).min(16 << 20);
            out.reserve_exact(room as usize);
        }
        let before_out = z.total_out();
        let result = z.decompress_vec(&stored[done_in..], &mut out, FlushDecompress::None);
        if out.len() as u64 > limit {
            out.truncate(limit as usize);
            let end = StreamEnd::TooLong { limit };
            return Inflated { bytes: out, end };
        }
        let end = match result {
            Ok(Status::StreamEnd) => StreamEnd::Complete { used: z.total_in() },
            Err(e) => StreamEnd::Corrupt(e.to_string()),
            Ok(_) if z.total_in() as usize == stored.len() && z.total_out() == before_out => {
                StreamEnd::Short
            }
            Ok(_) if z.total_in() as usize == done_in && z.total_out() == before_out => {
                StreamEnd::Short
            }
            Ok(_) => continue,
        };
        return Inflated { bytes: out, end };
    }
}

impl FileDecoder<'_> {
    /// The records inside the zlib stream after each copy of `z.source`.
    pub(super) fn place_zlib(&mut self, ri: usize, z: &Zlib) -> Copies {
        let sources: Vec<(u64, Vec<u8>, bool)> = match &self.copies[z.source] {
            Ok(c) => c
                .iter()
                .map(|c| (c.offset, c.bytes.clone(), c.valid))
                .collect(),
            Err(_) => {
                let why = format!("`{}` is missing", self.name(z.source));
                return self.missing(ri, why);
            }
        };
        let mut copies = Vec::new();
        for (k, (offset, bytes, valid)) in sources.into_iter().enumerate() {
            if valid {
                self.inflate_one(ri, z, k, offset, &bytes, &mut copies);
            }
        }
        Ok(copies)
    }

    pub(super) fn inflate_one(
        &mut self,
        ri: usize,
        z: &Zlib,
        k: usize,
        at: u64,
        src: &[u8],
        copies: &mut Vec<Copy>,
    ) {
        let source = format!("{}[{k}]", self.name(z.source));
        let stored = read_scalar(src, &z.stored);
        let raw = read_scalar(src, &z.raw);
        let start = at + self.f.records[z.source].size;
        let present = self.len.saturating_sub(start).min(stored);
        if present < stored {
            let message = format!(
                "its zlib stream ({} = {stored} bytes at {start:#x}) runs past the end of the \
                 file ({} bytes): {present} bytes are there",
                z.stored.path, self.len
            );
            self.error(start, &source, message);
        }
        self.spans
            .push((start, start + present, format!("{source}'s zlib stream")));
        if raw > MAX_INFLATED {
            let message = format!(
                "{} = {raw}: more than inspect inflates ({MAX_INFLATED} bytes); the first {MAX_INFLATED} are decoded",
                z.raw.path
            );
            self.error(start, &source, message);
        }
        // Deflate adds at most 5 bytes per 16 KiB stored block, and zlib 6 bytes: a stream
        // longer than that for `raw` is not read further (a bound on memory too).
        let bound = raw.min(MAX_INFLATED) + raw.min(MAX_INFLATED) / 1024 + 64;
        if present > bound {
            let message = format!(
                "{} = {stored}: more than a zlib stream of {} = {raw} bytes can take; the first \
                 {bound} bytes are inflated",
                z.stored.path, z.raw.path
            );
            self.error(start, &source, message);
        }
        let Some(stream) = self.input.read_at(start, present.min(bound)) else {
            return;
        };
        let inflated = inflate(&stream, raw);
        let whole = match inflated.end {
            StreamEnd::Complete { used } => {
                if used < present {
                    let message =
                        format!("{} bytes follow the end of its zlib stream", present - used);
                    self.issues.push(Issue {
                        level: Level::Warn,
                        offset: start + used,
                        path: source.clone(),
                        message,
                    });
                }
                if (inflated.bytes.len() as u64) < raw {
                    let message = format!(
                        "{} = {raw}, but its zlib stream inflates to {} bytes",
                        z.raw.path,
                        inflated.bytes.len()
                    );
                    self.error(start, &source, message);
                }
                true
            }
            StreamEnd::Short => {
                let message = format!(
                    "its zlib stream is short: it ends after {present} bytes, {} inflated, before its end",
                    inflated.bytes.len()
                );
                self.error(start, &source, message);
                false
            }
            StreamEnd::Corrupt(e) => {
                let message = format!(
                    "its zlib stream is corrupt ({e}) after {} inflated bytes",
                    inflated.bytes.len()
                );
                self.error(start, &source, message);
                false
            }
            StreamEnd::TooLong { limit } => {
                let message = if limit == raw {
                    format!(
                        "{} = {raw}, but its zlib stream inflates to more",
                        z.raw.path
                    )
                } else {
                    format!("its zlib stream inflates to more than {limit} bytes")
                };
                self.error(start, &source, message);
                false
            }
        };
        let held = self.stream_records(ri, z, k, &inflated.bytes, copies);
        if let (Some(count), Some(held)) = (&z.count, held) {
            let declared = read_scalar(src, count);
            if whole && declared != held {
                let message = format!(
                    "{} = {declared}, but its zlib stream holds {held} {}",
                    count.path,
                    self.name(ri)
                );
                self.error(at + count.offset, &source, message);
            }
        }
    }

    /// Decodes the records of one inflated stream; how many whole ones it holds, or `None`
    /// when one is damaged (an error says so).
    fn stream_records(
        &mut self,
        ri: usize,
        z: &Zlib,
        k: usize,
        bytes: &[u8],
        copies: &mut Vec<Copy>,
    ) -> Option<u64> {
        let rec = &self.f.records[ri];
        let (size, len) = (rec.size, bytes.len() as u64);
        let type_name = &self.schema.abi.structs[rec.struct_index].name;
        let mut pos = 0u64;
        let mut n = 0u64;
        let mut chain = Chain::default();
        let stream_name = format!("{}[{k}]", self.name(z.source));
        while pos < len {
            let path = format!("{}[{k}][{n}]", rec.name);
            let stream = format!(" in the stream of {}[{k}]", self.name(z.source));
            if len - pos < size {
                let message = format!(
                    "the inflated stream ({len} bytes) ends {} bytes into a {type_name} ({size} bytes){stream}",
                    len - pos
                );
                self.error(pos, &path, message);
                return None;
            }
            let head = &bytes[pos as usize..(pos + size) as usize];
            let data = z.data.as_ref().map(|d| read_scalar(head, d));
            let total = match (z.size.as_ref().map(|s| read_scalar(head, s)), data) {
                (Some(t), Some(d)) if t != size.saturating_add(d) => {
                    let message = format!(
                        "{} = {t}, but {type_name} ({size} bytes) and {} = {d} make {}{stream}",
                        z.size.as_ref().expect("some").path,
                        z.data.as_ref().expect("some").path,
                        size + d
                    );
                    self.error(pos, &path, message);
                    t
                }
                (Some(t), _) => t,
                (None, Some(d)) => size.saturating_add(d),
                (None, None) => size,
            };
            let node = decode::record(
                self.schema,
                rec.struct_index,
                head,
                pos,
                &path,
                &mut self.issues,
            );
            self.found.push(Found {
                group: rec.name.clone(),
                path: path.clone(),
                type_name: type_name.clone(),
                size,
                offset: pos,
                stream: Some(format!("{}[{k}]", self.name(z.source))),
                data: total.saturating_sub(size),
                node: Some(node),
            });
            copies.push(Copy {
                offset: pos,
                bytes: head.to_vec(),
                valid: true,
            });
            if total < size || total > len - pos {
                let message = if total < size {
                    format!("holds {total} bytes, less than {type_name} ({size} bytes){stream}")
                } else {
                    format!(
                        "its {total} bytes run past the end of the inflated stream ({len} bytes){stream}"
                    )
                };
                self.error(pos, &path, message);
                return None;
            }
            let link = Link {
                ri,
                path: &path,
                stream: &stream_name,
                pos,
                head,
                data: &bytes[(pos + size) as usize..(pos + total) as usize],
            };
            self.decode_data(&mut chain, &link);
            pos += total;
            n += 1;
        }
        Some(n)
    }
}
