//! The C header target (`bridge.h`): one header that is valid C11 and C++17, with every
//! constant, enum, flag set and struct of the ABI, and a static assert of every struct's
//! size, alignment and field offsets, all numbers taken from the layout.
//!
//! Names. Types are `<prefix>_<name>` (`ibf_client_entry`); macros are `<PREFIX>_<NAME>`
//! (`IBF_MAX_CLIENTS`, `IBF_PHASE_PLAYING`). A field keeps its schema name, except that a
//! name C or C++ would not take as a member gets a trailing `_` (`class` → `class_`): C11,
//! C23, C++17 and C++20 keywords, the C++ alternative tokens (`and`, `or`, `not`, ...), the
//! lowercase object-like macros of standard headers a program may include first (`bool`
//! from `<stdbool.h>`, `errno`, `complex`, ...) and GCC's `linux`/`unix` of the GNU modes,
//! the type names of `<stdint.h>` and `<stddef.h>`, and any name that starts with
//! `<prefix>_`, which could name a type of the header (a C++ member named like a type used
//! in its class changes that name's meaning there). A schema name cannot end in `_`, so an
//! escaped name meets no other, and no type name ends in `_`. (The reserved words are
//! `ir::names::C_RESERVED_WORDS`; lowering rejects a prefix and type name that join into
//! one, such as `and` + `eq`, and an enum value whose macro would be an ABI version macro.)
//! Field names are lowercase and every macro is uppercase and prefixed, so no field can
//! meet a macro of this header; its private macros and the include guard end in `_`, which
//! no schema name can.
//!
//! This file builds the header's context; the names (`names.rs`), integer literals
//! (`literals.rs`) and comment lines (`comments.rs`) have files of their own, used by every
//! part of the header, and so do its sections: the live access helpers (`live/`) and the
//! attach helpers (`attach.rs`).

mod attach;
mod attach_accessors;
mod comments;
mod directory;
mod literals;
mod live;
mod names;
mod relayout;
mod result_codes;
mod service;
mod session_host;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

use serde::Serialize;

use super::backend::whole_file_target;
use super::output::{RenderError, doc_after_since, generated_line};
use super::prose::access as protocols;
use super::text::{Compiled, Template};
use crate::ir::names::upper;
use crate::ir::result_codes::Family;
use crate::ir::{Abi, ConstType, Elem, EnumKind, Prim, Version};
use crate::schema::Schema;
use comments::push_comment_lines;
use literals::{int_suffix, push_int_literal};
use names::{const_macro, field_name, prim_type, value_macro, value_macro_prefix};

use crate::ir::StructId;
pub use comments::render_comment_lines;
pub use literals::render_int_literal;
use names::{array_len, field_type};
pub use names::{c_field_name, c_type_name};

const TEMPLATE: Template = Template {
    name: "c_header.h.j2",
    source: include_str!("../../../templates/c_header.h.j2"),
};

/// The template, compiled on first use.
pub(super) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// Comment lines are wrapped to this many columns, indentation included.
const WRAP_COLUMNS: usize = 96;

/// The header's context: every name, number and comment line, decided here; the template
/// only arranges them.
#[derive(Serialize)]
struct HeaderContext<'a> {
    // The template looks a key up by comparing it with each key in turn, in this order: the
    // keys it looks up most often come first, here and in the structs below.
    static_assert_macro: String,
    structs: Vec<StructContext<'a>>,
    alignof_macro: String,
    alignas_macro: String,
    /// `<PREFIX>_VALUE_(type, literal)`: an enum value as its type (`enum_contexts`).
    value_macro: String,
    /// Whether some member states its alignment: then the header says why.
    alignas_used: bool,
    generated_line: String,
    guard: String,
    /// The `#error` of a big-endian target.
    byte_order_error: String,
    prefix: String,
    prefix_upper: String,
    doc: Vec<String>,
    version_major: u32,
    version_minor: u32,
    consts: Vec<ConstContext>,
    enums: Vec<EnumContext>,
    /// The live access helpers (`live/`), when the schema declares shared access.
    live: Option<live::LiveText>,
    /// The attach helpers (`attach.rs`), when the schema has a root layout; after `live`,
    /// whose loads they read with.
    attach: Option<String>,
    /// The directories' helpers (`directory.rs`), after the attach ones.
    directories: Option<String>,
    /// The host's service turn (`service.rs`), after the directories' process probe.
    service: Option<String>,
    /// The re-layout (`relayout.rs`), after the attach helpers' produce.
    relayout: Option<String>,
    /// The cases of `<prefix>_result_name`: every code of every family this header has, one
    /// per number (`result_codes.rs`); empty when it has none.
    result_cases: Vec<result_codes::CodeCtx>,
}

#[derive(Serialize)]
struct ConstContext {
    doc: Vec<String>,
    name: String,
    value: String,
}

#[derive(Serialize)]
struct EnumContext {
    doc: Vec<String>,
    name: String,
    repr: &'static str,
    values: Vec<ConstContext>,
}

#[derive(Serialize)]
struct StructContext<'a> {
    name: String,
    fields: Vec<FieldContext<'a>>,
    size: u64,
    align: u64,
    doc: Vec<String>,
}

#[derive(Serialize)]
struct FieldContext<'a> {
    name: Cow<'a, str>,
    offset: u64,
    doc: Vec<String>,
    /// The alignment the member states (`_Alignas(8) uint64_t`), when a target may give it
    /// less by itself.
    align: Option<u64>,
    ty: Cow<'static, str>,
    /// The array length as written between the brackets, or empty.
    len: String,
}

/// Renders the C header of `schema`. `source` is the schema's file name for the
/// generated-file line.
pub fn render_c_header(schema: &Schema, source: &str) -> Result<String, RenderError> {
    let mut context = header_context(schema, source);
    context.live = live::render_c_live(schema)?;
    context.attach = attach::render_c_attach(schema)?;
    context.directories = directory::render_c_directories(schema)?;
    if context.attach.is_some() {
        context.service = service::render_c_service(schema, context.directories.is_some())?;
        context.relayout = relayout::render_c_relayout(schema)?;
    }
    let mut families = Vec::new();
    if context.live.is_some() {
        families.push(Family::Live);
    }
    if !schema.protocols.is_empty() {
        families.push(Family::Protocol);
    }
    if context.attach.is_some() {
        families.extend([Family::Attach, Family::Produce]);
    }
    if context.directories.is_some() {
        families.extend([Family::Directory, Family::Process]);
    }
    context.result_cases = result_codes::name_cases(&families, &upper(&schema.abi.c_prefix));
    COMPILED.render(context)
}

/// Everything the template prints, from the IR and the layout.
fn header_context<'a>(schema: &'a Schema, source: &str) -> HeaderContext<'a> {
    let abi = &schema.abi;
    let prefix = abi.c_prefix.as_str();
    let p = upper(prefix);
    let mut doc = render_comment_lines(&abi.title, WRAP_COLUMNS - 3);
    if !doc.is_empty() {
        doc.push(String::new());
    }
    doc.extend(item_doc(
        &abi.doc,
        &[format!("ABI version {}.", abi.version)],
        0,
    ));
    let structs: Vec<StructContext> = schema
        .layout
        .order
        .iter()
        .map(|&i| struct_context(schema, i))
        .collect();
    HeaderContext {
        generated_line: render_comment_lines(&generated_line(source), usize::MAX).join(" "),
        guard: format!("{p}_{}_H_", upper(&abi.name)),
        // A snake_case name needs no escape in a string literal.
        byte_order_error: format!(
            "{name}.h: the {name} ABI is little-endian and this header holds its fields in the \
             target's byte order: a big-endian target is not supported",
            name = abi.name
        ),
        prefix: prefix.to_string(),
        prefix_upper: p.clone(),
        doc,
        version_major: abi.version.major,
        version_minor: abi.version.minor,
        static_assert_macro: format!("{p}_STATIC_ASSERT_"),
        alignof_macro: format!("{p}_ALIGNOF_"),
        alignas_macro: format!("{p}_ALIGNAS_"),
        value_macro: value_macro_of(prefix),
        alignas_used: structs
            .iter()
            .any(|s| s.fields.iter().any(|f| f.align.is_some())),
        consts: const_contexts(abi),
        enums: enum_contexts(abi),
        live: None,
        attach: None,
        directories: None,
        service: None,
        relayout: None,
        result_cases: Vec::new(),
        structs,
    }
}

/// The comment lines of an item at `indent` columns: its doc, then a paragraph of the
/// generator's notes (its kind, size, the version that added it, ...).
fn item_doc(doc: &str, notes: &[String], indent: usize) -> Vec<String> {
    let width = WRAP_COLUMNS.saturating_sub(indent + 3).max(20);
    let mut lines = Vec::new();
    push_comment_lines(&mut lines, doc, width);
    let doc_lines = lines.len();
    match notes {
        [] => {}
        [note] => push_comment_lines(&mut lines, note, width),
        _ => push_comment_lines(&mut lines, &notes.join(" "), width),
    }
    if doc_lines > 0 && lines.len() > doc_lines {
        lines.insert(doc_lines, String::new());
    }
    lines
}

fn since_note(since: Option<Version>) -> Vec<String> {
    since
        .map(|v| vec![format!("Since ABI {v}.")])
        .unwrap_or_default()
}

/// The constants as macros, with the suffix of their type.
fn const_contexts(abi: &Abi) -> Vec<ConstContext> {
    abi.consts
        .iter()
        .map(|c| {
            let prim = match c.ty {
                ConstType::Usize => Prim::U32,
                ConstType::Prim(p) => p,
            };
            let mut notes = Vec::new();
            if let Some(e) = &c.expr {
                notes.push(format!("Computed as {e}."));
            }
            notes.extend(since_note(c.since));
            ConstContext {
                doc: item_doc(doc_after_since(&c.doc, c.since), &notes, 0),
                name: const_macro(&abi.c_prefix, &c.name),
                value: render_int_literal(c.value, &c.literal, int_suffix(prim)),
            }
        })
        .collect()
}

/// `<PREFIX>_VALUE_`, the macro that makes an enum value's literal its type.
fn value_macro_of(prefix: &str) -> String {
    format!("{}_VALUE_", upper(prefix))
}

/// The enums and flag sets: a typedef of the representation, and a macro per value that
/// makes its literal that typedef (`<PREFIX>_VALUE_`).
fn enum_contexts(abi: &Abi) -> Vec<EnumContext> {
    let prefix = abi.c_prefix.as_str();
    let value_macro_name = value_macro_of(prefix);
    abi.enums
        .iter()
        .map(|e| {
            let name = c_type_name(&e.name, prefix);
            let value_prefix = value_macro_prefix(prefix, &e.name);
            let pattern = format!("{value_prefix}*");
            let what = match e.kind {
                EnumKind::Enum => format!(
                    "Enum ({}): one of the {pattern} values, or a number this header does not \
                     know.",
                    e.repr
                ),
                EnumKind::Flags => format!("Flags ({}): an OR of the {pattern} bits.", e.repr),
            };
            let mut notes = vec![what];
            notes.extend(since_note(e.since));
            let values = e
                .values
                .iter()
                .map(|v| {
                    // `IBF_VALUE_(ibf_phase, 2U)`: the literal as the enum's type, a C cast
                    // in C and a braced conversion in C++ (no old-style or useless cast).
                    let mut value = String::with_capacity(name.len() + 32);
                    value.push_str(&value_macro_name);
                    value.push('(');
                    value.push_str(&name);
                    value.push_str(", ");
                    push_int_literal(&mut value, v.value, &v.literal, int_suffix(e.repr));
                    value.push(')');
                    ConstContext {
                        doc: item_doc(doc_after_since(&v.doc, v.since), &since_note(v.since), 0),
                        name: value_macro(&value_prefix, &v.name),
                        value,
                    }
                })
                .collect();
            EnumContext {
                doc: item_doc(doc_after_since(&e.doc, e.since), &notes, 0),
                name,
                repr: prim_type(e.repr),
                values,
            }
        })
        .collect()
}

/// One struct: its fields with their C names and types, and the numbers of the layout.
fn struct_context(schema: &Schema, index: StructId) -> StructContext<'_> {
    let abi = &schema.abi;
    let prefix = abi.c_prefix.as_str();
    let s = &abi.structs[index];
    let layout = schema.layout.of(index);
    let mut notes = vec![format!(
        "Size {} ({:#x}), align {}.",
        layout.size, layout.size, layout.align
    )];
    if s.extensible {
        notes.push(
            "Extensible: it may grow at its end in a later ABI version, so readers take its \
             size from the data, not from sizeof."
                .to_string(),
        );
    }
    notes.extend(since_note(s.since));
    notes.extend(protocols::shared_note(schema, index));
    let fields = s
        .fields
        .iter()
        .zip(&layout.fields)
        .enumerate()
        .map(|(fi, (f, fl))| {
            let f_doc = doc_after_since(&f.doc, f.since);
            let mut doc = String::with_capacity(48 + f_doc.len());
            // Writing to a String cannot fail.
            let _ = write!(
                doc,
                "offset 0x{:04x} ({}), size {}",
                fl.offset, fl.offset, fl.size
            );
            if f.is_padding() {
                doc.push_str(", padding");
            }
            if let Some(v) = f.since {
                let _ = write!(doc, ", since ABI {v}");
            }
            if !f_doc.trim().is_empty() {
                doc.push_str(": ");
                doc.push_str(f_doc);
            }
            let mut field_notes = Vec::new();
            let access = protocols::access_cell(schema, index, fi);
            if !access.is_empty() {
                field_notes.push(format!("Access: {access}."));
            }
            if let Some(c) = &f.count {
                field_notes.push(format!("Entries in use: {}.", c.text));
            }
            if let Some(i) = f.expect {
                field_notes.push(format!(
                    "Always {}.",
                    const_macro(prefix, &abi.consts[i].name)
                ));
            }
            FieldContext {
                doc: item_doc(&doc, &field_notes, 4),
                name: field_name(&f.name, prefix),
                // A struct member takes its alignment from that struct's own members.
                align: match f.ty.elem {
                    Elem::Struct(_) => None,
                    _ => fl.stated_align(),
                },
                ty: field_type(abi, &f.ty),
                len: array_len(abi, &f.ty),
                offset: fl.offset,
            }
        })
        .collect();
    StructContext {
        doc: item_doc(doc_after_since(&s.doc, s.since), &notes, 0),
        name: c_type_name(&s.name, prefix),
        size: layout.size,
        align: layout.align,
        fields,
    }
}

whole_file_target!(
    /// The C header, `<name>.h`: registered in `language_backend/mod.rs`.
    CHeader,
    "h",
    render_c_header
);
