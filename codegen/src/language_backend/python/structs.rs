//! One struct's class: its `_fields_` with their ctypes types and offsets, the aliases of
//! keyword fields, its entries in the layout table, and a docstring that lists every field
//! with its type, access and version.

use std::fmt::Write as _;

use serde::Serialize;

use super::ctypes::{push_type_description, render_ctype};
use super::docstring::{DocEntry, Docstring, since_note};
use super::literals::{ENTRIES_WIDTH, escape_docstring_line, escape_docstring_lines, fill};
use super::names::{Names, python_field_alias};
use super::repr::{ReprContext, repr_context};
use crate::ir::Elem;
use crate::ir::StructId;
use crate::language_backend::output::doc_after_since;
use crate::language_backend::prose::access as protocols;
use crate::schema::Schema;

#[derive(Serialize)]
pub(super) struct StructContext<'a> {
    pub(super) name: &'a str,
    docstring: Docstring,
    fields: Vec<FieldContext<'a>>,
    aliases: Vec<AliasContext<'a>>,
    size: u64,
    align: u64,
    /// `_align_`, when a target may give the struct less alignment by itself.
    pub(super) stated_align: Option<u64>,
    /// Counts and enums for `__repr__`, and the enum properties.
    repr: ReprContext,
    /// The struct's entries in `_layout_table`, `("name", 0x0028),` each, as many to a line
    /// as fit (`fill`); the same for its `_Counts` and `_Enums` entries.
    layout_lines: Vec<String>,
    counts_lines: Vec<String>,
    enums_lines: Vec<String>,
}

#[derive(Serialize)]
struct FieldContext<'a> {
    name: &'a str,
    ctype: String,
    /// A comment beside the `_fields_` entry: the enum a number belongs to.
    comment: Option<&'a str>,
    offset: String,
}

#[derive(Serialize)]
struct AliasContext<'a> {
    alias: String,
    field: &'a str,
}

pub(super) fn compute_struct_context<'a>(
    schema: &'a Schema,
    names: &'a Names,
    index: StructId,
) -> StructContext<'a> {
    let abi = &schema.abi;
    let s = &abi.structs[index];
    let layout = schema.layout.of(index);
    let mut lines = escape_docstring_lines(doc_after_since(&s.doc, s.since));
    if !lines.is_empty() {
        lines.push(String::new());
    }
    let summary = format!(
        "Schema struct `{}`: {} bytes, alignment {}{}.",
        s.name,
        layout.size,
        layout.align,
        since_note(s.since)
    );
    lines.push(summary);
    if s.extensible {
        lines.push(
            "Extensible: a reader learns its size at run time, and it may grow at its end.".into(),
        );
    }

    let repr = repr_context(abi, names, s);
    let mut fields = Vec::with_capacity(s.fields.len());
    let mut entries = Vec::with_capacity(s.fields.len());
    let mut aliases = Vec::new();
    lines.extend(protocols::shared_note(schema, index));
    for (fi, (f, fl)) in s.fields.iter().zip(&layout.fields).enumerate() {
        let offset = format!("0x{:04x}", fl.offset);
        let alias = python_field_alias(&f.name);
        // `0x0004 name: u32`, `0x0008 class (alias class_): ClientState (u32), since ABI 1.2`.
        let mut head = String::with_capacity(48);
        head.push_str(&offset);
        head.push(' ');
        head.push_str(&f.name);
        // Writing to a String cannot fail.
        if let Some(a) = &alias {
            let _ = write!(head, " (alias {a})");
        }
        head.push_str(": ");
        push_type_description(&mut head, abi, names, &f.ty);
        if let Some(v) = f.since {
            let _ = write!(head, ", since ABI {v}");
        }
        let mut doc = escape_docstring_lines(doc_after_since(&f.doc, f.since));
        if let Some(c) = &f.count {
            doc.push(format!(
                "Entries in use: {}.",
                escape_docstring_line(&c.text)
            ));
        }
        if let Some(i) = f.expect {
            doc.push(format!("Always {}.", names.consts[i]));
        }
        let access = protocols::access_cell(schema, index, fi);
        if !access.is_empty() {
            doc.push(format!("Access: {access}."));
        }
        if let Some(p) = repr.properties.iter().find(|p| p.field == f.name) {
            let what = if p.array { "a list of " } else { "" };
            doc.push(format!("As {what}{}: {}.", p.class, p.name));
        }
        entries.push(DocEntry { head, doc });
        fields.push(FieldContext {
            name: &f.name,
            ctype: render_ctype(abi, names, &f.ty),
            comment: match f.ty.elem {
                Elem::Enum(e) => Some(&names.enums[e]),
                _ => None,
            },
            offset,
        });
        if let Some(alias) = alias {
            aliases.push(AliasContext {
                alias,
                field: &f.name,
            });
        }
    }
    let layout_lines = fill(
        fields
            .iter()
            .map(|f| format!("(\"{}\", {}),", f.name, f.offset)),
        ENTRIES_WIDTH,
    );
    let counts_lines = fill(
        (repr.counts.iter()).map(|(f, path)| format!("\"{f}\": {path},")),
        ENTRIES_WIDTH,
    );
    let enums_lines = fill(
        (repr.enums.iter()).map(|(f, class)| format!("\"{f}\": {class},")),
        ENTRIES_WIDTH,
    );
    StructContext {
        name: &names.structs[index],
        docstring: Docstring::new(lines, "Fields (offset, name, type):", entries),
        fields,
        aliases,
        size: layout.size,
        align: layout.align,
        stated_align: layout.stated_align(),
        repr,
        layout_lines,
        counts_lines,
        enums_lines,
    }
}
