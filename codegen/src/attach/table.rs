//! `[[layout]]` tables: a header's array of `{ offset, size }` rows indexed by an enum, each
//! row matched to its enum value. What a row holds is `row.rs`; how layouts nest is `links.rs`.

use super::LowerAttach;
use crate::diagnostics::closest;
use crate::ir::StructId;
use crate::ir::attach::{LayoutTable, MAX_LAYOUT_ROWS, Row};
use crate::ir::names::is_snake_case;
use crate::ir::scalar::Scalar;
use crate::ir::{Elem, EnumKind};
use crate::parse::{RawLayout, RawSchema};
use toml::Spanned;

impl LowerAttach<'_> {
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
        let layouts: Vec<LayoutTable> = layouts.into_iter().flatten().collect();
        self.check_nesting(&layouts);
        layouts
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
        if rows.len() > MAX_LAYOUT_ROWS {
            self.errors.error_help(
                &l.rows.span(),
                format!(
                    "{what} lays out {} rows, more than the {MAX_LAYOUT_ROWS} a layout may hold",
                    rows.len()
                ),
                "group regions into blocks laid out by a layout of their own (a `blocks` row)",
            );
            return None;
        }
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
            geometry: Vec::new(),
            span: self.inner(&l.name),
        })
    }

    /// The row struct's `offset` or `size` field.
    fn row_field(
        &mut self,
        row_struct: StructId,
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
                // The close name, if any; then every value, and how to add this one.
                let values: Vec<String> =
                    e.values.iter().map(|v| format!("`{}`", v.name)).collect();
                let next = e
                    .values
                    .iter()
                    .map(|v| v.value)
                    .max()
                    .map_or(0, |m| m.saturating_add(1));
                let listed = format!(
                    "values of `{}` are {}; a new row needs its value there first: `{{ name = \"{}\", value = {next} }}`",
                    e.name,
                    values.join(", "),
                    r.name.get_ref()
                );
                let help = match closest(r.name.get_ref(), e.values.iter().map(|v| v.name.as_str()))
                {
                    Some(c) => format!("did you mean `{c}`? The {listed}"),
                    None => format!("the {listed}"),
                };
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
}
