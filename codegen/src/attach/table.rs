//! `[[layout]]` tables: a header's array of `{ offset, size }` rows indexed by an enum, what
//! each row's region holds, its least size and alignment, and which layout a mapping
//! starts with.

use toml::Spanned;

use super::LowerAttach;
use crate::ir::access::RingKind;
use crate::ir::attach::{Attach, Holds, LayoutTable, Row, Scalar};
use crate::ir::names::{camel, is_snake_case};
use crate::ir::{Elem, EnumKind};
use crate::parse::{RawLayout, RawRow, RawSchema, RawValue};

impl LowerAttach<'_> {
    /// A layout's handle type must not take a name the live module already uses, and a
    /// row's accessors must not take one of the handle's own methods.
    pub(super) fn check_handle_names(&mut self, raw: &RawSchema) {
        let access = self.access;
        let mut taken: Vec<(String, String)> = Vec::new();
        for (i, s) in self.abi.structs.iter().enumerate() {
            let a = &access.structs[i];
            if a.shared && !a.guarded_whole {
                taken.push((camel(&s.name), format!("struct `{}`", s.name)));
            }
            if raw.structs[i].get_ref().version.is_some() {
                taken.push((
                    format!("Versioned{}", camel(&s.name)),
                    format!("the reader of struct `{}`", s.name),
                ));
            }
        }
        for l in &access.seqlocks {
            taken.push((camel(&l.name), format!("seqlock `{}`", l.name)));
        }
        for r in &access.rings {
            taken.push((camel(&r.name), format!("ring `{}`", r.name)));
        }
        const METHODS: [&str; 7] = [
            "attach",
            "producer",
            "header_size",
            "extent",
            "region",
            "table",
            "header",
        ];
        for l in &raw.layouts {
            let l = l.get_ref();
            let shown = camel(l.name.get_ref());
            if let Some((_, other)) = taken.iter().find(|(t, _)| *t == shown) {
                self.errors.error_help(
                    &self.inner(&l.name),
                    format!(
                        "layout `{}` and {other} both become `{shown}` in the Rust live module",
                        l.name.get_ref()
                    ),
                    "rename the layout",
                );
            }
            let rows: Vec<&str> = l
                .rows
                .get_ref()
                .iter()
                .map(|r| r.get_ref().name.get_ref().as_str())
                .collect();
            for r in l.rows.get_ref() {
                let name = r.get_ref().name.get_ref().as_str();
                let region_of = name
                    .strip_suffix("_region")
                    .filter(|base| rows.contains(base));
                let clash = if METHODS.contains(&name)
                    && !(name == "header"
                        && r.get_ref()
                            .structure
                            .as_ref()
                            .is_some_and(|s| *s.get_ref() == *l.header.get_ref()))
                {
                    Some(format!("the handle's own `{name}()`"))
                } else {
                    region_of.map(|base| format!("row `{base}`'s `{name}()`"))
                };
                if let Some(clash) = clash {
                    self.errors.error_help(
                        &self.inner(&r.get_ref().name),
                        format!("layout `{}`, row `{name}`: its accessor `{name}()` clashes with {clash}", l.name.get_ref()),
                        "rename the enum value, or hold it in another layout",
                    );
                }
            }
        }
    }

    pub(super) fn lower_layouts(&mut self, raw: &RawSchema) -> Vec<LayoutTable> {
        let names: Vec<&str> = raw
            .layouts
            .iter()
            .map(|l| l.get_ref().name.get_ref().as_str())
            .collect();
        for (i, l) in raw.layouts.iter().enumerate() {
            let name = &l.get_ref().name;
            if !is_snake_case(name.get_ref()) {
                self.errors.error_help(
                    &self.inner(name),
                    format!("layout `{}`: a layout's name is snake_case", name.get_ref()),
                    "write lowercase words joined by single underscores, such as `client_block`",
                );
            }
            if names[..i].contains(&name.get_ref().as_str()) {
                self.errors.error(
                    &self.inner(name),
                    format!("layout `{}` is declared twice", name.get_ref()),
                );
            }
        }
        let mut layouts: Vec<Option<LayoutTable>> = raw
            .layouts
            .iter()
            .map(|l| self.lower_layout(l, &names))
            .collect();
        if layouts.iter().any(Option::is_none) {
            return Vec::new();
        }
        self.settle_blocks(raw, &mut layouts);
        layouts.into_iter().flatten().collect()
    }

    fn lower_layout(&mut self, raw: &Spanned<RawLayout>, names: &[&str]) -> Option<LayoutTable> {
        let l = raw.get_ref();
        let name = l.name.get_ref().clone();
        let what = format!("layout `{name}`");
        let header = self.find_struct(&l.header, &what)?;
        let hs = &self.abi.structs[header];
        let Some(table_field) = hs.fields.iter().position(|f| f.name == *l.table.get_ref()) else {
            let help = Self::suggest(
                l.table.get_ref(),
                hs.fields.iter().map(|f| f.name.as_str()),
                format!("name an array field of `{}`", hs.name),
            );
            self.errors.error_help(
                &self.inner(&l.table),
                format!(
                    "{what}: struct `{}` has no field `{}`",
                    hs.name,
                    l.table.get_ref()
                ),
                help,
            );
            return None;
        };
        let tf = &hs.fields[table_field];
        let (Elem::Struct(row_struct), Some(len)) = (tf.ty.elem, tf.ty.len) else {
            self.errors.error_help(
                &self.inner(&l.table),
                format!(
                    "{what}: table `{}` is `{}`; a layout table is an array of rows",
                    tf.name, tf.ty.text
                ),
                "name an array of a struct with `offset` and `size` fields, such as `region_entry[max_regions]`",
            );
            return None;
        };
        let row_what = format!("{what}, row struct `{}`", self.abi.structs[row_struct].name);
        let row_offset = self.row_field(row_struct, "offset", &l.table, &row_what);
        let row_size_field = self.row_field(row_struct, "size", &l.table, &row_what);
        let row_count = match &tf.count {
            Some(c) => {
                let path = Spanned::new(self.inner(&l.table), c.text.clone());
                Some(self.resolve_unsigned(header, &path, &what)?)
            }
            None => None,
        };
        let extent = match &l.extent {
            Some(p) => Some(self.resolve_unsigned(header, p, &format!("{what}, extent"))?),
            None => None,
        };
        let index_enum = self.index_enum(&l.index, &what)?;
        let (row_offset, row_size_field) = (row_offset?, row_size_field?);
        let table_offset = self.layout.of(header).fields[table_field].offset;
        let row_size = self.layout.of(row_struct).size;
        let rows = self.lower_rows(l, index_enum, len.count, names, &what)?;
        let align = rows
            .iter()
            .map(|r| r.align)
            .fold(self.layout.of(header).align, u64::max);
        Some(LayoutTable {
            name,
            doc: l
                .doc
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            header,
            table_field,
            table_offset,
            max_rows: len.count,
            row_size,
            row_offset,
            row_size_field,
            row_count,
            extent,
            index_enum,
            rows,
            align,
            span: self.inner(&l.name),
        })
    }

    /// The row struct's `offset` or `size` field.
    fn row_field(
        &mut self,
        row_struct: usize,
        name: &str,
        at: &Spanned<String>,
        what: &str,
    ) -> Option<Scalar> {
        let path = Spanned::new(self.inner(at), name.to_string());
        if !self.abi.structs[row_struct]
            .fields
            .iter()
            .any(|f| f.name == name)
        {
            self.errors.error_help(
                &self.inner(at),
                format!("{what} has no field `{name}`"),
                "a layout table's rows have an unsigned `offset` and `size`, such as `region_entry`",
            );
            return None;
        }
        self.resolve_unsigned(row_struct, &path, what)
    }

    fn index_enum(&mut self, index: &Spanned<String>, what: &str) -> Option<usize> {
        let found = self
            .abi
            .enums
            .iter()
            .position(|e| e.name == *index.get_ref() && e.kind == EnumKind::Enum);
        if found.is_none() {
            let help = Self::suggest(
                index.get_ref(),
                self.abi
                    .enums
                    .iter()
                    .filter(|e| e.kind == EnumKind::Enum)
                    .map(|e| e.name.as_str()),
                "name the enum whose values index the rows",
            );
            self.errors.error_help(
                &self.inner(index),
                format!("{what}: unknown enum `{}`", index.get_ref()),
                help,
            );
        }
        found
    }

    fn lower_rows(
        &mut self,
        l: &RawLayout,
        index_enum: usize,
        max_rows: u64,
        names: &[&str],
        what: &str,
    ) -> Option<Vec<Row>> {
        let e = &self.abi.enums[index_enum];
        let raw_rows = l.rows.get_ref();
        let mut rows: Vec<Option<Row>> = vec![None; e.values.len()];
        let mut ok = true;
        for r in raw_rows {
            let r = r.get_ref();
            let Some(vi) = e.values.iter().position(|v| v.name == *r.name.get_ref()) else {
                let help = Self::suggest(
                    r.name.get_ref(),
                    e.values.iter().map(|v| v.name.as_str()),
                    format!("name a value of `{}`", e.name),
                );
                self.errors.error_help(
                    &self.inner(&r.name),
                    format!(
                        "{what}: `{}` is not a value of enum `{}`",
                        r.name.get_ref(),
                        e.name
                    ),
                    help,
                );
                ok = false;
                continue;
            };
            if rows[vi].is_some() {
                self.errors.error(
                    &self.inner(&r.name),
                    format!("{what}: row `{}` is declared twice", r.name.get_ref()),
                );
                ok = false;
                continue;
            }
            let v = &e.values[vi];
            if v.value < 0 || v.value as u64 >= max_rows {
                self.errors.error(
                    &self.inner(&r.name),
                    format!(
                        "{what}: row `{}` is {} in `{}`, past the table's {max_rows} rows",
                        v.name, v.value, e.name
                    ),
                );
                ok = false;
                continue;
            }
            match self.lower_row(r, v.value as u64, v.since, names, what) {
                Some(row) => rows[vi] = Some(row),
                None => ok = false,
            }
        }
        let missing: Vec<&str> = e
            .values
            .iter()
            .zip(&rows)
            .filter(|(_, r)| r.is_none())
            .map(|(v, _)| v.name.as_str())
            .collect();
        if ok && !missing.is_empty() {
            self.errors.error_help(
                &self.inner(&l.name),
                format!(
                    "{what}: no row for {} of enum `{}`",
                    missing
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    e.name
                ),
                "declare every region: add `{ name = \"...\", struct = \"...\" }` (or `ring`, `blocks`, `bytes`) to `rows`",
            );
            return None;
        }
        if !ok {
            return None;
        }
        let mut rows: Vec<Row> = rows.into_iter().flatten().collect();
        self.resolve_overlaps(raw_rows, &mut rows, e.name.as_str(), what);
        Some(rows)
    }

    fn lower_row(
        &mut self,
        r: &RawRow,
        index: u64,
        since: Option<crate::ir::Version>,
        names: &[&str],
        what: &str,
    ) -> Option<Row> {
        let what = format!("{what}, row `{}`", r.name.get_ref());
        let kinds = [
            r.structure.as_ref().map(|s| ("struct", s.span())),
            r.ring.as_ref().map(|s| ("ring", s.span())),
            r.blocks.as_ref().map(|s| ("blocks", s.span())),
        ];
        let given: Vec<(&str, crate::diagnostics::Span)> = kinds.into_iter().flatten().collect();
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
        let (holds, min_size, align) = match kind {
            "struct" => {
                let si = self.find_struct(r.structure.as_ref().expect("given"), &what)?;
                let count = match &r.count {
                    Some(c) => self.eval(c, &format!("{what}, count"), 1)?,
                    None => 1,
                };
                let bytes = match &r.bytes {
                    Some(b) => self.eval(b, &format!("{what}, bytes"), 0)?,
                    None => 0,
                };
                let (each, align) = self.with_trailer(si);
                (
                    Holds::Struct {
                        struct_index: si,
                        count,
                        bytes,
                    },
                    count * each + bytes,
                    align,
                )
            }
            "ring" => {
                let name = r.ring.as_ref().expect("given");
                let found = self
                    .access
                    .rings
                    .iter()
                    .position(|g| g.name == *name.get_ref());
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
                (
                    Holds::Ring { ring },
                    slot_count * slot_size,
                    self.layout.of(slot).align,
                )
            }
            "blocks" => {
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
                // The alignment is the nested layout's, settled once every layout is lowered.
                (
                    Holds::Blocks {
                        layout,
                        count,
                        stride,
                    },
                    count * stride,
                    1,
                )
            }
            _ => {
                let Some(bytes) = r.bytes.as_ref() else {
                    self.errors.error_help(
                        &self.inner(&r.name),
                        format!("{what}: the row says nothing about what its region holds"),
                        "add `struct = \"...\"`, `ring = \"...\"`, `blocks = \"...\"` or `bytes = ...`",
                    );
                    return None;
                };
                let bytes = self.eval(bytes, &format!("{what}, bytes"), 1)?;
                (Holds::Bytes { bytes }, bytes, 1)
            }
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
            holds,
            min_size,
            align,
            overlaps: Vec::new(),
        })
    }

    /// A struct's bytes with its trailer (what follows it in its region), and the alignment
    /// of both.
    fn with_trailer(&self, si: usize) -> (u64, u64) {
        let l = self.layout.of(si);
        let trailer = &self.access.structs[si].trailer;
        let end = trailer
            .iter()
            .map(|t| t.offset + t.size)
            .fold(l.size, u64::max);
        let align = trailer.iter().map(|t| t.align).fold(l.align, u64::max);
        (end.next_multiple_of(align), align)
    }

    fn resolve_overlaps(
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

    /// Gives blocks their nested layout's alignment, innermost first; refuses a layout that
    /// nests itself, and a stride that breaks the alignment or cannot hold the block's
    /// header.
    fn settle_blocks(&mut self, raw: &RawSchema, layouts: &mut [Option<LayoutTable>]) {
        let n = layouts.len();
        // Each pass settles the layouts whose blocks are all settled; n passes at most.
        let mut settled = vec![false; n];
        for _ in 0..=n {
            for i in 0..n {
                if settled[i] {
                    continue;
                }
                let l = layouts[i].as_ref().expect("all lowered");
                let nested: Vec<usize> = l
                    .rows
                    .iter()
                    .filter_map(|r| match r.holds {
                        Holds::Blocks { layout, .. } => Some(layout),
                        _ => None,
                    })
                    .collect();
                if nested.iter().any(|&j| !settled[j]) {
                    continue;
                }
                let aligns: Vec<(u64, u64)> = nested
                    .iter()
                    .map(|&j| {
                        let t = layouts[j].as_ref().expect("all lowered");
                        (t.align, self.layout.of(t.header).size)
                    })
                    .collect();
                let l = layouts[i].as_mut().expect("all lowered");
                let mut k = 0;
                for (ri, row) in l.rows.iter_mut().enumerate() {
                    let Holds::Blocks { stride, .. } = row.holds else {
                        continue;
                    };
                    let (align, header) = aligns[k];
                    k += 1;
                    row.align = align;
                    let bad = if stride % align != 0 {
                        Some(format!(
                            "stride {stride} is not a multiple of the block's alignment, {align}"
                        ))
                    } else if stride < header {
                        Some(format!(
                            "stride {stride} cannot hold the block's {header}-byte header"
                        ))
                    } else {
                        None
                    };
                    if let Some(bad) = bad {
                        let raw_row = raw.layouts[i]
                            .get_ref()
                            .rows
                            .get_ref()
                            .iter()
                            .find(|r| r.get_ref().name.get_ref() == &row.name);
                        let span = raw_row
                            .and_then(|r| r.get_ref().stride.as_ref().map(|s| s.span()))
                            .unwrap_or_else(|| l.span.clone());
                        self.errors.error(
                            &span,
                            format!("layout `{}`, row `{}`: {bad}", l.name, row.name),
                        );
                    }
                    let _ = ri;
                }
                l.align = l.rows.iter().map(|r| r.align).fold(l.align, u64::max);
                settled[i] = true;
            }
        }
        let holds = |i: usize| -> Vec<usize> {
            let l = layouts[i].as_ref().expect("all lowered");
            l.rows
                .iter()
                .filter_map(|r| match r.holds {
                    Holds::Blocks { layout, .. } => Some(layout),
                    _ => None,
                })
                .collect()
        };
        for (i, done) in settled.iter().enumerate() {
            // Only the layouts on a cycle: the others merely wait on one.
            let mut seen = vec![false; n];
            let mut stack = holds(i);
            let mut on_cycle = false;
            while let Some(j) = stack.pop() {
                on_cycle |= j == i;
                if !std::mem::replace(&mut seen[j], true) {
                    stack.extend(holds(j));
                }
            }
            if !done && on_cycle {
                let l = layouts[i].as_ref().expect("all lowered");
                self.errors.error_help(
                    &l.span,
                    format!(
                        "layout `{}` holds itself as blocks, directly or through another layout",
                        l.name
                    ),
                    "a block is laid out by a layout that does not contain it",
                );
            }
        }
    }

    /// The layout a mapping starts with: its header has a version handshake, and no other
    /// layout holds it as blocks. At most one.
    pub(super) fn find_root(&mut self, raw: &RawSchema, attach: &mut Attach) {
        let nested: Vec<usize> = attach
            .layouts
            .iter()
            .flat_map(|l| l.rows.iter())
            .filter_map(|r| match r.holds {
                Holds::Blocks { layout, .. } => Some(layout),
                _ => None,
            })
            .collect();
        let roots: Vec<usize> = (0..attach.layouts.len())
            .filter(|i| !nested.contains(i))
            .collect();
        for &i in &roots {
            let l = &attach.layouts[i];
            if !attach.handshakes.iter().any(|h| h.struct_index == l.header) {
                self.errors.error_help(
                    &self.inner(&raw.layouts[i].get_ref().header),
                    format!(
                        "layout `{}`: a mapping starts with header `{}`, which has no version handshake",
                        l.name, self.abi.structs[l.header].name
                    ),
                    "give the header struct `version = { magic = ..., major = ..., minor = ..., size = ... }`, or hold this layout as `blocks` in another",
                );
            }
        }
        if let [_, second, ..] = roots[..] {
            self.errors.error_help(
                &self.inner(&raw.layouts[second].get_ref().name),
                format!(
                    "layout `{}`: a second layout that no other holds; `attach` starts from one",
                    attach.layouts[second].name
                ),
                format!(
                    "hold it as `blocks` in layout `{}`, or remove it",
                    attach.layouts[roots[0]].name
                ),
            );
        }
        attach.root = roots.first().copied();
    }
}
