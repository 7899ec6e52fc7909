//! The markdown reference (`<abi>.md`): every constant, enum, flag set and struct with its
//! doc, values, offsets and types, a byte map of each struct, and the markdown escaping
//! that makes every doc render as the schema wrote it. This module builds the template's
//! context; escape.rs has the markdown escaping, byte_map.rs the struct byte maps and
//! attach_sections.rs the layouts, version handshakes and file formats.

use std::borrow::Cow;
use std::sync::LazyLock;

use serde::Serialize;

use super::backend::whole_file_target;
use super::output::{RenderError, generated_line};
use super::prose::{access, directory, regions};
use super::text::{Compiled, Template};
use crate::ir::{Elem, Struct, Type, Version};
use crate::layout::StructLayout;
use crate::schema::Schema;

mod attach_sections;
mod byte_map;
mod escape;

use crate::ir::StructId;
pub use byte_map::render_byte_map;
pub use escape::{code_span, escape_inline, escape_paragraph};
use escape::{escape_inline_cow, escape_paragraph_cow};

const TEMPLATE: Template = Template {
    name: "markdown.md.j2",
    source: include_str!("../../../templates/markdown.md.j2"),
};

/// The template, compiled on first use.
pub(super) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct MarkdownContext<'a> {
    generated: String,
    title: Cow<'a, str>,
    version: String,
    doc: Cow<'a, str>,
    constants: Vec<ConstantRow<'a>>,
    constants_since: bool,
    enums: Vec<EnumSection<'a>>,
    structs: Vec<StructSection<'a>>,
    protocols: Vec<ProtocolSection>,
    layouts: Vec<attach_sections::LayoutSection>,
    handshakes: Vec<attach_sections::HandshakeSection>,
    files: Vec<attach_sections::FileSection>,
}

/// A seqlock, ring or claim, as the steps of each side.
#[derive(Serialize)]
struct ProtocolSection {
    kind: &'static str,
    /// Inline markdown.
    name: String,
    anchor: String,
    summary: String,
    /// A paragraph of its own, escaped.
    doc: String,
    roles: Vec<ProtocolRole>,
}

#[derive(Serialize)]
struct ProtocolRole {
    who: String,
    steps: Vec<String>,
}

#[derive(Serialize)]
struct ConstantRow<'a> {
    name: Cow<'a, str>,
    anchor: String,
    /// As the schema wrote it, or the computed value of an expression.
    literal: Cow<'a, str>,
    /// The expression the value was computed from, as a code span.
    expr: Option<String>,
    since: Option<String>,
    doc: Cow<'a, str>,
}

#[derive(Serialize)]
struct EnumSection<'a> {
    name: Cow<'a, str>,
    anchor: String,
    kind: &'static str,
    repr: &'static str,
    /// A paragraph of its own.
    doc: Cow<'a, str>,
    since: Option<String>,
    values_since: bool,
    values: Vec<ValueRow<'a>>,
}

#[derive(Serialize)]
struct ValueRow<'a> {
    name: Cow<'a, str>,
    literal: Cow<'a, str>,
    since: Option<String>,
    doc: Cow<'a, str>,
}

#[derive(Serialize)]
struct StructSection<'a> {
    name: Cow<'a, str>,
    anchor: String,
    size: u64,
    align: u64,
    /// A paragraph of its own.
    doc: Cow<'a, str>,
    since: Option<String>,
    extensible: bool,
    fields_since: bool,
    /// Whether the struct lives in shared memory: its table has an Access column.
    shared: bool,
    /// `Shared memory, written by the host.`, or empty.
    shared_note: String,
    /// What follows the struct in its region, or empty.
    trailer_note: String,
    fields: Vec<FieldRow<'a>>,
    byte_map: Vec<String>,
}

#[derive(Serialize)]
struct FieldRow<'a> {
    /// `0x00a4`: four lowercase hex digits, more when needed.
    offset: String,
    /// The whole field, every array element included.
    size: u64,
    name: Cow<'a, str>,
    padding: bool,
    /// The type as the schema wrote it, as markdown: named types and length constants link
    /// to their sections.
    type_md: String,
    since: Option<String>,
    /// How the field is accessed and who writes it, in a shared struct.
    access: String,
    doc: Cow<'a, str>,
}

/// The markdown reference of `schema`. `source` names the schema in the first line.
pub fn render_markdown(schema: &Schema, source: &str) -> Result<String, RenderError> {
    COMPILED.render(build_context(schema, source))
}

fn since(v: &Option<Version>) -> Option<String> {
    v.map(|v| v.to_string())
}

/// The id of an item's anchor: `const-max_clients`, `enum-phase`, `flags-pad_buttons`,
/// `struct-snapshot`. Names are snake_case, so these never meet a section's heading id.
fn anchor(kind: &str, name: &str) -> String {
    format!("{kind}-{name}")
}

fn build_context<'a>(schema: &'a Schema, source: &str) -> MarkdownContext<'a> {
    let abi = &schema.abi;
    let constants: Vec<ConstantRow> = abi
        .consts
        .iter()
        .map(|c| ConstantRow {
            name: escape_inline_cow(&c.name),
            anchor: anchor("const", &c.name),
            literal: escape_inline_cow(&c.literal),
            expr: c.expr.as_deref().map(code_span),
            since: since(&c.since),
            doc: escape_inline_cow(&c.doc),
        })
        .collect();
    let enums = abi
        .enums
        .iter()
        .map(|e| EnumSection {
            name: escape_inline_cow(&e.name),
            anchor: anchor(e.kind.keyword(), &e.name),
            kind: e.kind.keyword(),
            repr: e.repr.name(),
            doc: escape_paragraph_cow(&e.doc),
            since: since(&e.since),
            values_since: e.values.iter().any(|v| v.since.is_some()),
            values: e
                .values
                .iter()
                .map(|v| ValueRow {
                    name: escape_inline_cow(&v.name),
                    literal: escape_inline_cow(&v.literal),
                    since: since(&v.since),
                    doc: escape_inline_cow(&v.doc),
                })
                .collect(),
        })
        .collect();
    let structs = abi
        .structs_with_ids()
        .map(|(i, s)| build_struct(schema, i, s, schema.layout.of(i)))
        .collect();
    let directories = (schema.directories.iter()).map(|d| directory::describe(schema, d));
    let protocols = regions::describe_all(schema)
        .into_iter()
        .chain(directories)
        .map(|p| ProtocolSection {
            kind: p.kind,
            anchor: anchor(p.kind, &p.name),
            name: escape_inline(&p.name),
            summary: p.summary,
            doc: escape_paragraph(&p.doc),
            roles: p
                .roles
                .into_iter()
                .map(|r| ProtocolRole {
                    who: r.who,
                    steps: r.steps,
                })
                .collect(),
        })
        .collect();
    MarkdownContext {
        generated: generated_line(source),
        title: escape_inline_cow(&abi.title),
        version: abi.version.to_string(),
        doc: escape_inline_cow(&abi.doc),
        constants_since: constants.iter().any(|c| c.since.is_some()),
        constants,
        enums,
        structs,
        protocols,
        layouts: attach_sections::build_layouts(schema),
        handshakes: attach_sections::build_handshakes(schema),
        files: attach_sections::build_files(schema),
    }
}

fn build_struct<'a>(
    schema: &'a Schema,
    index: StructId,
    s: &'a Struct,
    layout: &StructLayout,
) -> StructSection<'a> {
    let access = &schema.access.structs[index];
    let fields = s
        .fields
        .iter()
        .zip(&layout.fields)
        .enumerate()
        .map(|(fi, (f, fl))| FieldRow {
            offset: format!("0x{:04x}", fl.offset),
            size: fl.size,
            name: escape_inline_cow(&f.name),
            padding: f.is_padding(),
            type_md: render_type(schema, &f.ty),
            since: since(&f.since),
            access: escape_inline(&access::access_cell(schema, index, fi)),
            doc: escape_inline_cow(&f.doc),
        })
        .collect();
    let writers = access.writers.describe(&schema.access.parties);
    let shared_note = match (access.shared, writers.is_empty()) {
        (false, _) => String::new(),
        (true, true) => "Shared memory.".to_string(),
        (true, false) => format!("Shared memory, written by the {writers}."),
    };
    let trailer_note = if access.trailer.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = access
            .trailer
            .iter()
            .map(|t| {
                let size = match t.size_field {
                    Some(f) => format!("`{}` bytes, at most {}", s.fields[f].name, t.size),
                    None => format!("{} bytes", t.size),
                };
                format!(
                    "`{}`: {} at 0x{:04x}, {size}",
                    t.name,
                    render_type(schema, &t.ty),
                    t.offset
                )
            })
            .collect();
        format!("Followed in its region by {}.", parts.join("; then "))
    };
    StructSection {
        name: escape_inline_cow(&s.name),
        anchor: anchor("struct", &s.name),
        size: layout.size,
        align: layout.align,
        doc: escape_paragraph_cow(&s.doc),
        since: since(&s.since),
        extensible: s.extensible,
        fields_since: s.fields.iter().any(|f| f.since.is_some()),
        shared: access.shared,
        shared_note,
        trailer_note,
        fields,
        byte_map: render_byte_map(s, layout),
    }
}

/// Appends a markdown link to the anchor `<kind>-<name>` (see [`anchor`]).
fn push_link(out: &mut String, text: &str, (kind, name): (&str, &str)) {
    out.push('[');
    out.push_str(&escape_inline_cow(text));
    out.push_str("](#");
    out.push_str(kind);
    out.push('-');
    out.push_str(name);
    out.push(')');
}

/// A field's type as the schema wrote it (`char[client_name_len]`), as markdown whose
/// rendered text is exactly that: the enum, flag set or struct and the length constant
/// link to their sections, everything else is escaped text.
fn render_type(schema: &Schema, ty: &Type) -> String {
    let abi = &schema.abi;
    let text = ty.text.as_str();
    let (base, len) = match text.split_once('[') {
        Some((base, rest)) if rest.ends_with(']') => (base, Some(&rest[..rest.len() - 1])),
        _ => (text, None),
    };
    let base_target = match ty.elem {
        Elem::Enum(i) => Some((abi.enums[i].kind.keyword(), abi.enums[i].name.as_str())),
        Elem::Struct(i) => Some(("struct", abi.structs[i].name.as_str())),
        Elem::Prim(_) | Elem::Char => None,
    };
    let mut out = String::with_capacity(2 * text.len() + 32);
    push_link_word(&mut out, base, base_target);
    if let Some(inner) = len {
        let len_target = ty
            .len
            .and_then(|l| l.constant)
            .map(|i| ("const", abi.consts[i].name.as_str()));
        out.push_str("\\[");
        push_link_word(&mut out, inner, len_target);
        out.push_str("\\]");
    }
    out
}

/// Appends `word`, surrounding spaces kept, as a link to the anchor `target` names when
/// there is one.
fn push_link_word(out: &mut String, word: &str, target: Option<(&str, &str)>) {
    let trimmed = word.trim();
    match target {
        Some(target) if !trimmed.is_empty() => {
            // Where `trimmed` starts in `word`: after its leading spaces.
            let start = word.len() - word.trim_start().len();
            out.push_str(&word[..start]);
            push_link(out, trimmed, target);
            out.push_str(&word[start + trimmed.len()..]);
        }
        _ => out.push_str(&escape_inline_cow(word)),
    }
}

whole_file_target!(
    /// The markdown reference, `<name>.md`: registered in `language_backend/mod.rs`.
    Markdown,
    "md",
    render_markdown
);
