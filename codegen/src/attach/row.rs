//! One row of a layout table: what its region holds (a struct and its trailer, a ring,
//! blocks, bytes), its least size and alignment, and which rows it may overlap.

use super::LowerAttach;
use crate::ir::StructId;
use crate::ir::access::RingKind;
use crate::ir::attach::{Holds, Row};
use crate::ir::geometry::Follows;
use crate::parse::{RawRow, RawValue};
use toml::Spanned;

impl LowerAttach<'_> {
    /// Row `r`, the `index`th of its table (added at `since`), whose `blocks` may name any
    /// layout of `names`; `None` after an error, recorded with its span.
    pub(super) fn lower_row(
        &mut self,
        r: &RawRow,
        index: u64,
        since: Option<crate::ir::Version>,
        names: &[&str],
        what: &str,
    ) -> Option<Row> {
        let what = format!("{what}, row `{}`", r.name.get_ref());
        let kind = self.row_kind(r, &what)?;
        let held = match kind {
            "struct" => self.struct_held(r, &what)?,
            "ring" => self.ring_held(r, &what)?,
            "blocks" => self.blocks_held(r, names, &what)?,
            _ => self.bytes_held(r, &what)?,
        };
        Some(Row {
            name: r.name.get_ref().clone(),
            doc: r
                .doc
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            index,
            since,
            optional: r.optional.as_ref().is_some_and(|o| *o.get_ref()),
            holds: held.holds,
            min_size: held.min_size,
            each: held.each,
            align: held.align,
            overlaps: Vec::new(),
            need: None,
            follows: Follows::default(),
            owner: None,
        })
    }

    /// What the row's region holds, by the key it gives (`struct`, `ring`, `blocks`, or
    /// `bytes` alone), once no second kind and no key of another kind is given.
    fn row_kind(&mut self, r: &RawRow, what: &str) -> Option<&'static str> {
        let kinds = [
            r.structure.as_ref().map(|s| ("struct", s.span())),
            r.ring.as_ref().map(|s| ("ring", s.span())),
            r.blocks.as_ref().map(|s| ("blocks", s.span())),
        ];
        let given: Vec<(&'static str, crate::diagnostics::Span)> =
            kinds.into_iter().flatten().collect();
        if given.len() > 1 {
            self.errors.error_help(
                &given[1].1,
                format!("{what}: both `{}` and `{}`", given[0].0, given[1].0),
                "a region holds one thing: `struct` (with `count` and `bytes`), `ring`, `blocks` (with `count` and `stride`), or `bytes` alone",
            );
            return None;
        }
        let stray = |key: &str, v: &Option<Spanned<RawValue>>, allowed: bool| {
            (!allowed).then(|| v.as_ref().map(|v| (key.to_string(), v.span())))
        };
        let kind = given.first().map_or("bytes", |g| g.0);
        let strays = [
            stray("count", &r.count, matches!(kind, "struct" | "blocks")),
            stray("stride", &r.stride, kind == "blocks"),
            stray("bytes", &r.bytes, matches!(kind, "struct" | "bytes")),
        ];
        if let Some((key, span)) = strays.into_iter().flatten().flatten().next() {
            self.errors.error_help(
                &span,
                format!("{what}: `{key}` does not go with `{kind}`"),
                "`struct` takes `count` and `bytes`; `blocks` takes `count` and `stride`; `ring` takes neither",
            );
            return None;
        }
        Some(kind)
    }

    /// A row of `count` structs (with their trailers) and `bytes` more.
    fn struct_held(&mut self, r: &RawRow, what: &str) -> Option<Held> {
        let si = self.find_struct(r.structure.as_ref().expect("given"), what)?;
        let count = match &r.count {
            Some(c) => self.eval(c, &format!("{what}, count"), 1)?,
            None => 1,
        };
        let bytes = match &r.bytes {
            Some(b) => self.eval(b, &format!("{what}, bytes"), 0)?,
            None => 0,
        };
        let (each, align) = self.with_trailer(si);
        Some(Held {
            holds: Holds::Struct {
                struct_index: si,
                count,
                bytes,
            },
            min_size: count * each + bytes,
            each,
            align,
        })
    }

    /// A row holding a `[[ring]]` of slots: its slots, aligned as its slot struct.
    fn ring_held(&mut self, r: &RawRow, what: &str) -> Option<Held> {
        let name = r.ring.as_ref().expect("given");
        let found = (self.access.rings.iter()).position(|g| g.name == *name.get_ref());
        let Some(ring) = found else {
            let help = Self::suggest(
                name.get_ref(),
                self.access.rings.iter().map(|g| g.name.as_str()),
                "name a [[ring]] of kind `slots`",
            );
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: unknown ring `{}`", name.get_ref()),
                help,
            );
            return None;
        };
        let RingKind::Slots {
            slot_count,
            slot_size,
            seqlock,
            ..
        } = self.access.rings[ring].kind
        else {
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: ring `{}` is an event array, not a region of slots",
                    name.get_ref()
                ),
                "name a [[ring]] of kind `slots`",
            );
            return None;
        };
        let slot = self.access.seqlocks[seqlock].struct_index;
        Some(Held {
            holds: Holds::Ring { ring },
            min_size: slot_count * slot_size,
            each: 0,
            align: self.layout.of(slot).align,
        })
    }

    /// A row of `count` blocks `stride` bytes apart, each laid out by the layout it names
    /// (one of `names`). The alignment is the nested layout's, settled once every layout is
    /// lowered.
    fn blocks_held(&mut self, r: &RawRow, names: &[&str], what: &str) -> Option<Held> {
        let name = r.blocks.as_ref().expect("given");
        let Some(layout) = names.iter().position(|n| *n == name.get_ref().as_str()) else {
            let help = Self::suggest(
                name.get_ref(),
                names.iter().copied(),
                "name a [[layout]] that lays out each block",
            );
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: unknown layout `{}`", name.get_ref()),
                help,
            );
            return None;
        };
        let Some(count) = r.count.as_ref() else {
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: blocks need `count`"),
                "add `count = \"...\"`: how many blocks",
            );
            return None;
        };
        let Some(stride) = r.stride.as_ref() else {
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: blocks need `stride`"),
                "add `stride = \"...\"`: bytes from one block's start to the next's",
            );
            return None;
        };
        let count = self.eval(count, &format!("{what}, count"), 1)?;
        let stride = self.eval(stride, &format!("{what}, stride"), 1)?;
        Some(Held {
            holds: Holds::Blocks {
                layout: crate::ir::LayoutId::new(layout),
                count,
                stride,
            },
            min_size: count * stride,
            each: 0,
            align: 1,
        })
    }

    /// A row of `bytes` bytes and nothing the schema types.
    fn bytes_held(&mut self, r: &RawRow, what: &str) -> Option<Held> {
        let Some(bytes) = r.bytes.as_ref() else {
            self.errors.error_help(
                &self.inner(&r.name),
                format!("{what}: the row says nothing about what its region holds"),
                "add `struct = \"...\"`, `ring = \"...\"`, `blocks = \"...\"` or `bytes = ...`",
            );
            return None;
        };
        let bytes = self.eval(bytes, &format!("{what}, bytes"), 1)?;
        Some(Held {
            holds: Holds::Bytes { bytes },
            min_size: bytes,
            each: 0,
            align: 1,
        })
    }

    /// A struct's bytes with its trailer (what follows it in its region), and the alignment
    /// of both.
    pub(super) fn with_trailer(&self, si: StructId) -> (u64, u64) {
        let l = self.layout.of(si);
        let trailer = &self.access.structs[si].trailer;
        let end = trailer
            .iter()
            .map(|t| t.offset + t.size)
            .fold(l.size, u64::max);
        let align = trailer.iter().map(|t| t.align).fold(l.align, u64::max);
        (end.next_multiple_of(align), align)
    }

    pub(super) fn resolve_overlaps(
        &mut self,
        raw_rows: &[Spanned<RawRow>],
        rows: &mut [Row],
        enum_name: &str,
        what: &str,
    ) {
        for r in raw_rows {
            let r = r.get_ref();
            let Some(list) = &r.overlaps else { continue };
            let Some(at) = rows.iter().position(|row| row.name == *r.name.get_ref()) else {
                continue;
            };
            for other in list.get_ref() {
                match rows.iter().position(|row| row.name == *other.get_ref()) {
                    Some(o) if o != at => rows[at].overlaps.push(o),
                    _ => {
                        let help = Self::suggest(
                            other.get_ref(),
                            rows.iter().map(|row| row.name.as_str()),
                            format!("name another row of `{enum_name}`"),
                        );
                        self.errors.error_help(
                            &self.inner(other),
                            format!(
                                "{what}, row `{}`: `overlaps` names `{}`, which is not another row",
                                r.name.get_ref(),
                                other.get_ref()
                            ),
                            help,
                        );
                    }
                }
            }
        }
        // Overlap is mutual.
        for a in 0..rows.len() {
            for b in rows[a].overlaps.clone() {
                if !rows[b].overlaps.contains(&a) {
                    rows[b].overlaps.push(a);
                }
            }
        }
    }
}

/// What a row's region holds, and the numbers that follow from it.
struct Held {
    holds: Holds,
    /// The least bytes the region has.
    min_size: u64,
    /// A struct row's bytes per struct, its trailer included; 0 for other rows.
    each: u64,
    /// The region's alignment (1 for blocks until their layout's is settled, and for bytes).
    align: u64,
}
