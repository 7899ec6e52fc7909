//! The Python target: one standard-library module (`bridge.py`) of ctypes structures,
//! `IntEnum`/`IntFlag` classes and constants, which checks at import that ctypes lays every
//! struct out as the schema's layout says. The shape of the text is `templates/python.py.j2`;
//! this file decides the names, escapes the docs and takes every number from the layout.
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

use std::fmt::Write as _;
use std::sync::LazyLock;

use serde::Serialize;

use super::text::{Compiled, Template};
use super::{RenderError, doc_after_since, generated_line, protocols};
use crate::Schema;
use crate::ir::names::{camel, upper};
use crate::ir::{Abi, Elem, EnumKind, Prim, Struct, Type};

const TEMPLATE: Template = Template {
    name: "python.py.j2",
    source: include_str!("../../templates/python.py.j2"),
};

/// The template, compiled on first use.
pub(super) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// Python's hard keywords (`keyword.kwlist`); soft keywords such as `match` and `type` are
/// valid identifiers. A test checks this list against the installed python3.
pub const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The names in Python's `builtins` that start with an uppercase letter, up to Python 3.13:
/// the only builtins a CamelCase type name can shadow. A test checks that the installed
/// python3 has no other.
pub const PYTHON_CAMEL_BUILTINS: [&str; 75] = [
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "PythonFinalizationError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
];

/// The Python class name of an enum, flag set or struct: CamelCase, with a trailing `_`
/// when that is a keyword or a builtin (`none` → `None_`).
pub fn python_type_name(name: &str) -> String {
    let c = camel(name);
    if PYTHON_KEYWORDS.contains(&c.as_str()) || PYTHON_CAMEL_BUILTINS.contains(&c.as_str()) {
        c + "_"
    } else {
        c
    }
}

/// The property alias of a field named after a Python keyword (`class` → `class_`).
pub fn python_field_alias(name: &str) -> Option<String> {
    PYTHON_KEYWORDS.contains(&name).then(|| format!("{name}_"))
}

/// The Python names of the schema's types and constants, by index, made once per module:
/// every field that refers to a type or a constant reads its name from here.
pub(super) struct Names {
    pub(super) enums: Vec<String>,
    pub(super) structs: Vec<String>,
    pub(super) consts: Vec<String>,
}

impl Names {
    pub(super) fn new(abi: &Abi) -> Names {
        Names {
            enums: abi
                .enums
                .iter()
                .map(|e| python_type_name(&e.name))
                .collect(),
            structs: abi
                .structs
                .iter()
                .map(|s| python_type_name(&s.name))
                .collect(),
            consts: abi.consts.iter().map(|c| upper(&c.name)).collect(),
        }
    }
}

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
    consts: Vec<ConstContext<'a>>,
    enums: Vec<EnumContext<'a>>,
    structs: Vec<StructContext<'a>>,
    /// The live section (`python_live.rs`); none without shared memory.
    live: Option<&'a super::python_live::LiveSection>,
    /// The attach section (`python_attach.rs`); none without handshakes and layouts.
    attach: Option<&'a super::python_attach::AttachSection>,
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

#[derive(Serialize)]
struct StructContext<'a> {
    name: &'a str,
    docstring: Docstring,
    fields: Vec<FieldContext<'a>>,
    aliases: Vec<AliasContext<'a>>,
    size: u64,
    align: u64,
    /// `_align_`, when a target may give the struct less alignment by itself.
    stated_align: Option<u64>,
    /// Counts and enums for `__repr__`, and the enum properties.
    repr: super::python_repr::ReprContext,
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

/// A class docstring: its first line and the lines after it, then a list of entries
/// (`head`, then its doc lines indented below it). Every string is escaped already.
#[derive(Serialize)]
struct Docstring {
    first: String,
    more: Vec<String>,
    list_title: &'static str,
    entries: Vec<DocEntry>,
}

impl Docstring {
    /// The docstring of `lines` (at least one) and `entries`.
    fn new(mut lines: Vec<String>, list_title: &'static str, entries: Vec<DocEntry>) -> Self {
        let first = std::mem::take(&mut lines[0]);
        lines.remove(0);
        Docstring {
            first,
            more: lines,
            list_title,
            entries,
        }
    }
}

#[derive(Serialize)]
struct DocEntry {
    head: String,
    doc: Vec<String>,
}

/// Renders the Python module of `schema`. `source` is the schema's file name for the
/// generated-file line.
pub fn render_python(schema: &Schema, source: &str) -> Result<String, RenderError> {
    let names = Names::new(&schema.abi);
    let live = super::python_live::render_live(schema, &names)?;
    let attach = super::python_attach::render_attach(schema, &names, live.as_ref())?;
    let mut context = compute_module_context(schema, &names, source);
    if let Some(live) = &live {
        context.all.extend(live.exports.iter().map(String::as_str));
        context.live = Some(live);
    }
    if let Some(attach) = &attach {
        context
            .all
            .extend(attach.exports.iter().map(String::as_str));
        context.attach = Some(attach);
    }
    COMPILED.render(context)
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
    let enums: Vec<EnumContext> = abi
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
            EnumContext {
                name,
                base,
                docstring: Docstring::new(lines, "Values:", entries),
                members,
            }
        })
        .collect();
    let structs: Vec<StructContext> = schema
        .layout
        .order
        .iter()
        .map(|&i| compute_struct_context(schema, names, i))
        .collect();

    let has_text = abi
        .structs
        .iter()
        .any(|s| s.fields.iter().any(|f| f.ty.elem == Elem::Char));
    let has_open_enums = abi.enums.iter().any(|e| e.kind == EnumKind::Enum);
    let mut all: Vec<&str> = Vec::with_capacity(consts.len() + enums.len() + structs.len() + 4);
    all.extend(consts.iter().map(|c| c.name));
    all.extend(["ABI_VERSION_MAJOR", "ABI_VERSION_MINOR"]);
    if has_text {
        all.extend(["text", "set_text"]);
    }
    all.extend(enums.iter().map(|e| e.name));
    all.extend(structs.iter().map(|s| s.name));

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
        any_stated_align: structs.iter().any(|s| s.stated_align.is_some()),
        all,
        consts,
        enums,
        structs,
        live: None,
        attach: None,
    }
}

fn compute_struct_context<'a>(
    schema: &'a Schema,
    names: &'a Names,
    index: usize,
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

    let repr = super::python_repr::repr_context(abi, names, s);
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
    StructContext {
        name: &names.structs[index],
        docstring: Docstring::new(lines, "Fields (offset, name, type):", entries),
        fields,
        aliases,
        size: layout.size,
        align: layout.align,
        stated_align: layout.stated_align(),
        repr,
    }
}

fn compute_examples(schema: &Schema, names: &Names) -> Examples {
    let abi = &schema.abi;
    // The largest struct, the first of equals: the record a reader maps.
    let record = (0..abi.structs.len())
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
        enum_property: enumerated.map(|(s, f, _)| {
            format!(
                "{}.{}{}",
                variable(s),
                f.name,
                super::python_repr::ENUM_PROPERTY_SUFFIX
            )
        }),
    }
}

fn prim_ctype(p: Prim) -> &'static str {
    match p {
        Prim::U8 => "ctypes.c_uint8",
        Prim::U16 => "ctypes.c_uint16",
        Prim::U32 => "ctypes.c_uint32",
        Prim::U64 => "ctypes.c_uint64",
        Prim::I8 => "ctypes.c_int8",
        Prim::I16 => "ctypes.c_int16",
        Prim::I32 => "ctypes.c_int32",
        Prim::I64 => "ctypes.c_int64",
        Prim::F32 => "ctypes.c_float",
        Prim::F64 => "ctypes.c_double",
    }
}

/// Appends the array length as Python writes it, the constant's name when the schema
/// named one, after `before`; nothing when the field is not an array.
fn push_len(out: &mut String, names: &Names, ty: &Type, before: &str, after: &str) {
    if let Some(l) = ty.len {
        out.push_str(before);
        match l.constant {
            Some(c) => out.push_str(&names.consts[c]),
            // Writing to a String cannot fail.
            None => {
                let _ = write!(out, "{}", l.count);
            }
        }
        out.push_str(after);
    }
}

/// The ctypes type of a field: enums are their fixed-width integer.
pub(super) fn render_ctype(abi: &Abi, names: &Names, ty: &Type) -> String {
    let elem = match ty.elem {
        Elem::Prim(p) => prim_ctype(p),
        Elem::Char => "ctypes.c_char",
        Elem::Enum(e) => prim_ctype(abi.enums[e].repr),
        Elem::Struct(s) => &names.structs[s],
    };
    let mut out = String::with_capacity(elem.len() + 24);
    out.push_str(elem);
    push_len(&mut out, names, ty, " * ", "");
    out
}

/// Appends a field's type for the docstring: `u32`, `ClientState (u32)`,
/// `Ship[MAX_SHIPS]`, or `char[CLIENT_NAME_LEN] (text)`.
fn push_type_description(out: &mut String, abi: &Abi, names: &Names, ty: &Type) {
    // Writing to a String cannot fail.
    match ty.elem {
        Elem::Prim(p) => {
            let _ = write!(out, "{p}");
            push_len(out, names, ty, "[", "]");
        }
        Elem::Char => {
            out.push_str("char");
            push_len(out, names, ty, "[", "]");
            out.push_str(" (text)");
        }
        Elem::Enum(e) => {
            out.push_str(&names.enums[e]);
            push_len(out, names, ty, "[", "]");
            let _ = write!(out, " ({})", abi.enums[e].repr);
        }
        Elem::Struct(s) => {
            out.push_str(&names.structs[s]);
            push_len(out, names, ty, "[", "]");
        }
    }
}

fn since_note(since: Option<crate::ir::Version>) -> String {
    since
        .map(|v| format!(", since ABI {v}"))
        .unwrap_or_default()
}

/// An integer literal Python accepts, keeping the schema's spelling (`0x10000`) when Python
/// reads it the same way; otherwise the value in the same radix (`007` → `7`).
pub fn python_int_literal(literal: &str, value: i128) -> String {
    let lit = literal.trim();
    if is_python_int_literal(lit) {
        return lit.to_string();
    }
    let lower = lit.to_ascii_lowercase();
    let (sign, magnitude) = if value < 0 {
        ("-", value.unsigned_abs())
    } else {
        ("", value.unsigned_abs())
    };
    if lower.starts_with("0x") {
        format!("{sign}0x{magnitude:x}")
    } else if lower.starts_with("0o") {
        format!("{sign}0o{magnitude:o}")
    } else if lower.starts_with("0b") {
        format!("{sign}0b{magnitude:b}")
    } else {
        value.to_string()
    }
}

/// Whether `s` is an integer literal by Python's grammar, with an optional sign: digits
/// joined by single underscores, and no leading zero on a nonzero decimal.
fn is_python_int_literal(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let prefixed = |p: [&str; 2]| p.iter().find_map(|p| s.strip_prefix(p));
    let (body, radix, underscore_first) = if let Some(b) = prefixed(["0x", "0X"]) {
        (b, 16, true)
    } else if let Some(b) = prefixed(["0o", "0O"]) {
        (b, 8, true)
    } else if let Some(b) = prefixed(["0b", "0B"]) {
        (b, 2, true)
    } else {
        (s, 10, false)
    };
    let body = if underscore_first {
        body.strip_prefix('_').unwrap_or(body)
    } else {
        body
    };
    let digits_ok = !body.is_empty()
        && !body.ends_with('_')
        && !body.contains("__")
        && !body.starts_with('_')
        && body.chars().all(|c| c == '_' || c.is_digit(radix));
    if !digits_ok {
        return false;
    }
    radix != 10 || !body.starts_with('0') || body.chars().all(|c| c == '0' || c == '_')
}

/// The lines of a doc as they go inside a `"""` docstring; no lines for an empty doc.
fn escape_docstring_lines(doc: &str) -> Vec<String> {
    if doc.is_empty() {
        return Vec::new();
    }
    doc.split('\n').map(escape_docstring_line).collect()
}

/// One line of text for the inside of a `"""` docstring: backslashes doubled; a `"`
/// escaped when another `"` or the end of the line follows it (so no `"""` forms and no
/// quote touches the closing one); control characters other than tab as escapes. The
/// docstring then holds the original text. Non-ASCII stays as it is (the module is UTF-8).
pub(super) fn escape_docstring_line(line: &str) -> String {
    // No backslash, quote or control character: nothing to escape. A line of printable
    // ASCII and tabs without those two settles it in one pass over the bytes (no early
    // exit, so that it runs on whole vectors of bytes).
    let mut other = false;
    for &b in line.as_bytes() {
        other |= ((b < 0x20) & (b != b'\t')) | (b >= 0x7f) | (b == b'\\') | (b == b'"');
    }
    if !other || (!line.contains(['\\', '"']) && !line.chars().any(|c| c.is_control() && c != '\t'))
    {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' if matches!(chars.peek(), None | Some('"')) => out.push_str("\\\""),
            '\t' => out.push('\t'),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The lines of a doc for `#` comments: each line whole, control characters shown as
/// escapes so that none can end the comment. No lines for an empty doc.
fn escape_comment_lines(doc: &str) -> Vec<String> {
    if doc.is_empty() {
        return Vec::new();
    }
    doc.split('\n')
        .map(|line| {
            if !line.chars().any(|c| c.is_control() && c != '\t') {
                return line.to_string();
            }
            line.chars()
                .map(|c| match c {
                    '\t' => "\t".to_string(),
                    c if c.is_control() => format!("\\u{:04x}", c as u32),
                    c => c.to_string(),
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_that_are_keywords_or_builtins_get_an_underscore() {
        assert_eq!(python_type_name("client_entry"), "ClientEntry");
        assert_eq!(python_type_name("match"), "Match");
        assert_eq!(python_type_name("none"), "None_");
        assert_eq!(python_type_name("true"), "True_");
        assert_eq!(python_type_name("false"), "False_");
        assert_eq!(python_type_name("exception"), "Exception_");
        assert_eq!(python_type_name("import_error"), "ImportError_");
    }

    #[test]
    fn keyword_fields_get_an_alias() {
        assert_eq!(python_field_alias("class").as_deref(), Some("class_"));
        assert_eq!(python_field_alias("lambda").as_deref(), Some("lambda_"));
        for ok in ["type", "match", "self", "none", "id", "name"] {
            assert_eq!(python_field_alias(ok), None, "{ok}");
        }
    }

    #[test]
    fn int_literals_keep_their_radix_when_python_reads_them() {
        for (lit, value) in [
            ("0x10000", 0x10000),
            ("8", 8),
            ("-5", -5),
            ("0", 0),
            ("0x_FF", 0xFF),
            ("1_000", 1000),
            ("0b1010", 10),
            ("0o17", 15),
        ] {
            assert_eq!(python_int_literal(lit, value), lit);
        }
        for (lit, value, want) in [
            ("007", 7, "7"),
            ("_10", 10, "10"),
            ("1__0", 10, "10"),
            ("10_", 10, "10"),
            ("0x__ff", 255, "0xff"),
            ("0b_", 0, "0b0"),
        ] {
            assert_eq!(python_int_literal(lit, value), want, "{lit}");
        }
    }

    #[test]
    fn docstring_escapes() {
        assert_eq!(escape_docstring_line(r#"a """ b"#), r#"a \"\"" b"#);
        assert_eq!(escape_docstring_line(r#"ends with ""#), r#"ends with \""#);
        assert_eq!(escape_docstring_line(r"C:\dir\"), r"C:\\dir\\");
        assert_eq!(escape_docstring_line("'''"), "'''");
        assert_eq!(escape_docstring_line("nul\0 cr\r é"), r"nul\x00 cr\r é");
    }
}
