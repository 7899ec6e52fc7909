//! The Python target: one standard-library module (`bridge.py`) of ctypes structures,
//! `IntEnum`/`IntFlag` classes and constants, which checks at import that ctypes lays every
//! struct out as the schema's layout says. The shape of the text is `templates/python.py.j2`;
//! this module decides the names, escapes the docs and takes every number from the layout.
//! This file builds the module's context (constants, enums, the docstring's examples) and
//! runs the module's and the stub's parts; the names (`names.rs`), literals and escapes
//! (`literals.rs`), ctypes types (`ctypes.rs`), class docstrings (`docstring.rs`), struct
//! classes (`structs.rs`) and their `__repr__` tables (`repr.rs`) have files of their own,
//! and so do the module's live section (`live/`) and attach section (`attach.rs`), and the
//! type stub (`stub/`), which types those sections from the contexts built here.
//!
//! Naming rule (the module docstring repeats it for its readers):
//! - Types are CamelCase (`client_entry` → `ClientEntry`); constants and enum members are
//!   UPPER_CASE (`MAX_CLIENTS`, `Phase.PLAYING`). UPPER names can never be Python keywords.
//! - A CamelCase type name that is a Python keyword (`None`, `True`, `False`) or a builtin
//!   (`Exception`, `ImportError`, ...) gets a trailing `_` (`None_`), so that the module can
//!   be imported and `from bridge import *` shadows nothing. Schema names never end in `_`,
//!   so the result cannot clash with another generated name.
//! - Fields keep their schema names in `_fields_` (ctypes takes any string, so
//!   `getattr(s, "class")` works). A field named after a Python keyword also gets a property
//!   alias with a trailing `_` (`s.class_`). Builtin names (`type`, `id`) and soft keywords
//!   (`match`) are valid attribute names and need nothing.
//! - The module's own helpers are lowercase (`text`, `set_text`) or start with `_` and hold
//!   a lowercase letter (`_OpenIntEnum`, `_layout_table`), which no generated name can be.
//!   `lower` rejects a constant and a type that would both be `AB` (`ab`, `a_b`).

mod attach;
mod ctypes;
mod directory;
mod docstring;
mod literals;
mod live;
mod names;
mod recording;
mod relayout;
mod repr;
mod service;
mod structs;
mod stub;

use std::sync::LazyLock;

use minijinja::Value;
use serde::Serialize;

use super::backend::whole_file_target;
use super::output::{RenderError, doc_after_since, generated_line};
use super::text::{Compiled, Template, template};
use crate::ir::names::upper;
use crate::ir::{Elem, EnumKind, Struct, Type};
use crate::schema::Schema;
use attach::{AttachSection, render_attach};
use docstring::{DocEntry, Docstring, since_note};
use literals::{
    ENTRIES_WIDTH, escape_comment_lines, escape_docstring_line, escape_docstring_lines, fill,
};
use live::{LiveSection, render_live};
use names::Names;
use recording::{RecordingSection, render_recording};
use repr::ENUM_PROPERTY_SUFFIX;
use structs::compute_struct_context;

pub use literals::python_int_literal;
pub use names::{PYTHON_CAMEL_BUILTINS, PYTHON_KEYWORDS, python_field_alias, python_type_name};

const TEMPLATE: Template = Template {
    name: "python.py.j2",
    source: include_str!("../../../templates/python.py.j2"),
};

/// The template, compiled on first use.
/// The part `python.py.j2` includes: the atomics every live view uses.
const PARTS: [Template; 1] = [template!("python_atomics.py.j2")];

pub(super) static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

#[derive(Serialize)]
struct ModuleContext<'a> {
    generated_line: String,
    /// The ABI title, escaped for the docstring.
    title: String,
    abi_name: &'a str,
    version: String,
    version_major: u32,
    version_minor: u32,
    /// The ABI doc, one escaped docstring line each.
    abi_doc: Vec<String>,
    examples: Examples,
    /// Whether some field is text: then `text` and `set_text` are emitted.
    has_text: bool,
    /// Whether some enum is not a flag set: then `_OpenIntEnum` is emitted.
    has_open_enums: bool,
    /// Whether some struct sets `_align_`: then the module docstring says why.
    any_stated_align: bool,
    all: Vec<&'a str>,
    /// `__all__`'s entries, as many to a line as fit.
    all_lines: Vec<String>,
    consts: Vec<ConstContext<'a>>,
    /// Each enum's and struct's context (`EnumContext`, `StructContext`) as the template
    /// reads it, converted one at a time: the Rust contexts of a large schema's structs and
    /// their converted values are not alive all at once (bench/README.md, issue 49).
    enums: Vec<Value>,
    structs: Vec<Value>,
    /// The live section (`live/`); none without shared memory.
    live: Option<&'a LiveSection>,
    /// The attach section (`attach.rs`); none without handshakes and layouts.
    attach: Option<&'a AttachSection>,
    /// The recordings section (`recording.rs`); none without encoded file formats.
    recording: Option<&'a RecordingSection>,
}

/// Names for the usage examples of the module docstring, taken from this schema.
#[derive(Serialize)]
struct Examples {
    /// The largest struct, for `from_buffer`.
    record: Option<String>,
    /// `client_entry.name`, `client_entry` and `name`: the first text field, its struct
    /// as a variable, and its name as `set_text` takes it.
    text_read: Option<String>,
    text_var: Option<String>,
    text_field: Option<String>,
    /// `ClientState`, `client_entry.state`: the first field of enum type.
    enum_type: Option<String>,
    enum_read: Option<String>,
    /// `client_entry.state_enum`: the property that reads that field as its class.
    enum_property: Option<String>,
}

#[derive(Serialize)]
struct ConstContext<'a> {
    name: &'a str,
    value: String,
    /// Comment lines (escaped) above the constant: its doc and, when it was computed, the
    /// expression.
    comments: Vec<String>,
}

#[derive(Serialize)]
struct EnumContext<'a> {
    name: &'a str,
    base: &'static str,
    docstring: Docstring,
    members: Vec<MemberContext>,
}

#[derive(Serialize)]
struct MemberContext {
    name: String,
    value: String,
}

/// Renders the Python module of `schema`. `source` is the schema's file name for the
/// generated-file line.
pub fn render_python(schema: &Schema, source: &str) -> Result<String, RenderError> {
    let (names, live, attach, recording) = sections(schema)?;
    let mut context = compute_module_context(schema, &names, source);
    context.all.extend(section_exports(
        live.as_ref(),
        attach.as_ref(),
        recording.as_ref(),
    ));
    // `__all__` sits at the module's top level: 4 columns of indent, not 8.
    context.all_lines = fill(
        (context.all.iter()).map(|name| format!("\"{name}\",")),
        ENTRIES_WIDTH + 4,
    );
    context.live = live.as_ref();
    context.attach = attach.as_ref();
    context.recording = recording.as_ref();
    // The sections and their contexts are freed before the text is rendered: the template
    // reads the converted copy.
    let context = to_value(context);
    drop((live, attach, recording));
    COMPILED.render(context)
}

/// The names the live, attach and recordings sections add to the module's `__all__`, in
/// that order.
fn section_exports<'a>(
    live: Option<&'a LiveSection>,
    attach: Option<&'a AttachSection>,
    recording: Option<&'a RecordingSection>,
) -> impl Iterator<Item = &'a str> {
    (live.into_iter().flat_map(|l| l.exports.iter()))
        .chain(attach.into_iter().flat_map(|a| a.exports.iter()))
        .chain(recording.into_iter().flat_map(|r| r.exports.iter()))
        .map(String::as_str)
}

/// Renders the type stub (`.pyi`) of the Python module of `schema`, typed from the same
/// sections the module is rendered from. `source` is the schema's file name for the
/// generated-file line.
pub fn render_python_stub(schema: &Schema, source: &str) -> Result<String, RenderError> {
    let (names, live, attach, recording) = sections(schema)?;
    // The stub says the module's `__all__`, so that stubtest finds them equal.
    let all: Vec<String> = compute_module_context(schema, &names, source)
        .all
        .into_iter()
        .chain(section_exports(
            live.as_ref(),
            attach.as_ref(),
            recording.as_ref(),
        ))
        .map(String::from)
        .collect();
    stub::render_stub(schema, source, &names, &all, (live, attach, recording))
}

/// The module's sections.
type Sections = (
    Names,
    Option<LiveSection>,
    Option<AttachSection>,
    Option<RecordingSection>,
);

/// The module's names, and its live, attach and recordings sections (rendered, with the
/// contexts they were rendered from): what the module and its stub are both made of.
fn sections(schema: &Schema) -> Result<Sections, RenderError> {
    let names = Names::new(&schema.abi);
    let mut live = render_live(schema, &names)?;
    if let (Some(live), Some((text, exports))) =
        (live.as_mut(), directory::render_directories(schema)?)
    {
        live.text.push_str(&text);
        live.exports.extend(exports);
    }
    if let (Some(live), Some((text, exports))) = (live.as_mut(), service::render_service(schema)?) {
        live.text.push_str(&text);
        live.exports.extend(exports);
    }
    if let (Some(live), Some((text, exports))) = (live.as_mut(), relayout::render_relayout(schema)?)
    {
        live.text.push_str(&text);
        live.exports.extend(exports);
    }
    let attach = render_attach(schema, &names, live.as_ref())?;
    let taken: Vec<String> = (live.iter().flat_map(|l| l.exports.iter()))
        .chain(attach.iter().flat_map(|a| a.exports.iter()))
        .cloned()
        .collect();
    let recording = render_recording(schema, &names, &taken)?;
    Ok((names, live, attach, recording))
}

/// `context` as the template reads it (a value converted once is not copied again when it
/// sits in a larger context).
fn to_value(context: impl Serialize) -> Value {
    Value::from(minijinja::value::Serde(context))
}

fn compute_module_context<'a>(
    schema: &'a Schema,
    names: &'a Names,
    source: &str,
) -> ModuleContext<'a> {
    let abi = &schema.abi;
    let consts: Vec<ConstContext> = abi
        .consts
        .iter()
        .zip(&names.consts)
        .map(|(c, name)| {
            let mut comments = escape_comment_lines(&c.doc);
            if let Some(expr) = &c.expr {
                comments.extend(escape_comment_lines(&format!("= {expr}")));
            }
            ConstContext {
                name,
                value: python_int_literal(&c.literal, c.value),
                comments,
            }
        })
        .collect();
    let mut enum_names = Vec::with_capacity(abi.enums.len());
    let enums: Vec<Value> = abi
        .enums
        .iter()
        .zip(&names.enums)
        .map(|(e, name)| {
            let (base, kind, note) = match e.kind {
                EnumKind::Enum => (
                    "_OpenIntEnum",
                    "enum",
                    "Other values convert to pseudo-members (name None).",
                ),
                EnumKind::Flags => ("enum.IntFlag", "flag set", "Undeclared bits are kept."),
            };
            let mut lines = escape_docstring_lines(doc_after_since(&e.doc, e.since));
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(format!(
                "Schema {kind} `{}`, stored as {}{}. {note}",
                e.name,
                e.repr,
                since_note(e.since)
            ));
            let members: Vec<MemberContext> = e
                .values
                .iter()
                .map(|v| MemberContext {
                    name: upper(&v.name),
                    value: python_int_literal(&v.literal, v.value),
                })
                .collect();
            let entries = e
                .values
                .iter()
                .zip(&members)
                .map(|(v, m)| DocEntry {
                    head: format!("{} = {}{}", m.name, m.value, since_note(v.since)),
                    doc: escape_docstring_lines(doc_after_since(&v.doc, v.since)),
                })
                .collect();
            enum_names.push(name.as_str());
            to_value(EnumContext {
                name,
                base,
                docstring: Docstring::new(lines, "Values:", entries),
                members,
            })
        })
        .collect();
    let (mut struct_names, mut any_stated_align) = (Vec::new(), false);
    let structs: Vec<Value> = (schema.layout.order.iter())
        .map(|&i| {
            let context = compute_struct_context(schema, names, i);
            struct_names.push(context.name);
            any_stated_align |= context.stated_align.is_some();
            to_value(context)
        })
        .collect();

    let has_text = abi
        .structs
        .iter()
        .any(|s| s.fields.iter().any(|f| f.ty.elem == Elem::Char));
    let has_open_enums = abi.enums.iter().any(|e| e.kind == EnumKind::Enum);
    let mut all: Vec<&str> =
        Vec::with_capacity(consts.len() + enum_names.len() + struct_names.len() + 5);
    all.extend(consts.iter().map(|c| c.name));
    all.extend(["ABI_VERSION_MAJOR", "ABI_VERSION_MINOR", "ABI_VERSION"]);
    if has_text {
        all.extend(["text", "set_text"]);
    }
    all.extend(enum_names);
    all.extend(struct_names);

    ModuleContext {
        generated_line: generated_line(source),
        title: escape_docstring_line(&abi.title),
        abi_name: &abi.name,
        version: abi.version.to_string(),
        version_major: abi.version.major,
        version_minor: abi.version.minor,
        abi_doc: escape_docstring_lines(&abi.doc),
        examples: compute_examples(schema, names),
        has_text,
        has_open_enums,
        any_stated_align,
        all,
        all_lines: Vec::new(),
        consts,
        enums,
        structs,
        live: None,
        attach: None,
        recording: None,
    }
}

fn compute_examples(schema: &Schema, names: &Names) -> Examples {
    let abi = &schema.abi;
    // The largest struct, the first of equals: the record a reader maps.
    let record = (abi.struct_ids())
        .rev()
        .max_by_key(|&i| schema.layout.of(i).size)
        .map(|i| names.structs[i].clone());
    let first_field = |want: &dyn Fn(&Type) -> bool| -> Option<(&Struct, String)> {
        abi.structs.iter().find_map(|s| {
            s.fields
                .iter()
                .find(|f| want(&f.ty))
                .map(|f| (s, f.name.clone()))
        })
    };
    let variable = |s: &Struct| match python_field_alias(&s.name) {
        Some(alias) => alias,
        None => s.name.clone(),
    };
    let read = |var: &str, field: &str| match python_field_alias(field) {
        Some(alias) => format!("{var}.{alias}"),
        None => format!("{var}.{field}"),
    };
    let text = first_field(&|t| t.elem == Elem::Char);
    let enumerated = abi.structs.iter().find_map(|s| {
        s.fields.iter().find_map(|f| match (f.ty.elem, f.ty.len) {
            (Elem::Enum(e), None) if abi.enums[e].kind == EnumKind::Enum => Some((s, f, e)),
            _ => None,
        })
    });
    Examples {
        record,
        text_read: text.as_ref().map(|(s, f)| read(&variable(s), f)),
        text_var: text.as_ref().map(|(s, _)| variable(s)),
        text_field: text.as_ref().map(|(_, f)| f.clone()),
        enum_type: enumerated.map(|(_, _, e)| names.enums[e].clone()),
        enum_read: enumerated.map(|(s, f, _)| read(&variable(s), &f.name)),
        enum_property: enumerated
            .map(|(s, f, _)| format!("{}.{}{}", variable(s), f.name, ENUM_PROPERTY_SUFFIX)),
    }
}

whole_file_target!(
    /// The Python module, `<name>.py`: registered in `language_backend/mod.rs`.
    PythonModule,
    "py",
    render_python
);

whole_file_target!(
    /// The Python module's type stub, `<name>.pyi`: registered in `language_backend/mod.rs`.
    PythonStub,
    "pyi",
    render_python_stub
);
