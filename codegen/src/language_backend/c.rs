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

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

use serde::Serialize;

use super::text::{Compiled, Template};
use super::{RenderError, doc_after_since, protocols};
use crate::Schema;
use crate::ir::names::{is_c_reserved_word, upper};
use crate::ir::{Abi, ConstType, Elem, EnumKind, Prim, Type, Version};

const TEMPLATE: Template = Template {
    name: "c_header.h.j2",
    source: include_str!("../../templates/c_header.h.j2"),
};

/// The template, compiled on first use.
pub(super) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// Comment lines are wrapped to this many columns, indentation included.
const WRAP_COLUMNS: usize = 96;

/// The C name of a field: its schema name, with a trailing `_` when it is a reserved word
/// or starts with `<prefix>_` (see the module doc).
pub fn c_field_name(name: &str, prefix: &str) -> String {
    field_name(name, prefix).into_owned()
}

/// [`c_field_name`], borrowing the schema name when it stays.
fn field_name<'a>(name: &'a str, prefix: &str) -> Cow<'a, str> {
    let type_like = name
        .strip_prefix(prefix)
        .is_some_and(|rest| rest.starts_with('_'));
    if is_c_reserved_word(name) || type_like {
        Cow::Owned(format!("{name}_"))
    } else {
        Cow::Borrowed(name)
    }
}

/// The C name of an enum, flag set or struct: `<prefix>_<name>`. Lowering rejects a name
/// that this makes a reserved word (`and` + `eq`).
pub fn c_type_name(name: &str, prefix: &str) -> String {
    format!("{prefix}_{name}")
}

/// The macro of a constant, `IBF_MAX_CLIENTS`.
fn const_macro(prefix: &str, name: &str) -> String {
    let mut m = String::with_capacity(prefix.len() + 1 + name.len());
    m.push_str(prefix);
    m.push('_');
    m.push_str(name);
    m.make_ascii_uppercase();
    m
}

/// The macro of an enum or flag value, `IBF_PHASE_PLAYING`, from the enum's
/// `IBF_PHASE_` ([`value_macro_prefix`]).
fn value_macro(value_prefix: &str, value_name: &str) -> String {
    let mut m = String::with_capacity(value_prefix.len() + value_name.len());
    m.push_str(value_prefix);
    m.extend(value_name.chars().map(|c| c.to_ascii_uppercase()));
    m
}

/// What the macros of an enum's values start with, `IBF_PHASE_`.
fn value_macro_prefix(prefix: &str, enum_name: &str) -> String {
    let mut m = const_macro(prefix, enum_name);
    m.push('_');
    m
}

/// The fixed-width C type of a primitive.
fn prim_type(p: Prim) -> &'static str {
    match p {
        Prim::U8 => "uint8_t",
        Prim::U16 => "uint16_t",
        Prim::U32 => "uint32_t",
        Prim::U64 => "uint64_t",
        Prim::I8 => "int8_t",
        Prim::I16 => "int16_t",
        Prim::I32 => "int32_t",
        Prim::I64 => "int64_t",
        Prim::F32 => "float",
        Prim::F64 => "double",
    }
}

/// The suffix that gives an integer literal a type at least as wide as `p` with its
/// signedness, so that comparing it with a field of type `p` does not warn: `U` up to 32
/// bits, `ULL` for `u64`, none for `int` and `LL` for `i64`.
fn int_suffix(p: Prim) -> &'static str {
    match (p.is_signed(), p.size()) {
        (false, 8) => "ULL",
        (false, _) => "U",
        (true, 8) => "LL",
        (true, _) => "",
    }
}

/// A C integer literal with `value`, in the radix the schema wrote it in (`written`):
/// decimal, hex and octal stay (`0o17` becomes `017`); binary, which C11 lacks, becomes
/// hex; `_` separators go. When `written` does not spell `value` (an expression), the
/// value is written in decimal. A negative value is parenthesised, and the most negative
/// value of a type is written as `(-MAX - 1)`, since `MAX + 1` is not a literal of it.
pub fn render_int_literal(value: i128, written: &str, suffix: &str) -> String {
    let mut out = String::with_capacity(24);
    push_int_literal(&mut out, value, written, suffix);
    out
}

/// [`render_int_literal`], appended to `out`.
fn push_int_literal(out: &mut String, value: i128, written: &str, suffix: &str) {
    let magnitude = value.unsigned_abs();
    let max_positive: u128 = match suffix {
        "LL" => i64::MAX as u128,
        _ => i32::MAX as u128,
    };
    // Writing to a String cannot fail.
    if value < 0 && magnitude > max_positive {
        let _ = write!(out, "(-{max_positive}{suffix} - 1)");
        return;
    }
    if value < 0 {
        out.push_str("(-");
    }
    if !push_in_radix(out, value, written) {
        let _ = write!(out, "{magnitude}");
    }
    out.push_str(suffix);
    if value < 0 {
        out.push(')');
    }
}

/// Appends the digits of `|value|` as `written` spells them, with a C prefix, and returns
/// true; appends nothing and returns false when `written` is not a plain literal of `value`.
fn push_in_radix(out: &mut String, value: i128, written: &str) -> bool {
    let written = written.trim();
    let text: Cow<str> = if written.contains('_') {
        Cow::Owned(written.replace('_', ""))
    } else {
        Cow::Borrowed(written)
    };
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(&text)),
    };
    let (prefix, digits, radix) = if let Some(d) = text.strip_prefix("0x") {
        ("0x", d, 16)
    } else if let Some(d) = text.strip_prefix("0X") {
        ("0X", d, 16)
    } else if let Some(d) = text.strip_prefix("0o") {
        ("0", d, 8)
    } else if let Some(d) = text.strip_prefix("0b") {
        ("0b", d, 2)
    } else {
        ("", text, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    let Ok(parsed) = u128::from_str_radix(digits, radix) else {
        return false;
    };
    if parsed != value.unsigned_abs() || negative != (value < 0) {
        return false;
    }
    // Writing to a String cannot fail.
    match radix {
        2 => {
            let _ = write!(out, "0x{parsed:x}");
        }
        10 => {
            let _ = write!(out, "{parsed}");
        }
        8 if parsed == 0 => out.push('0'),
        _ => {
            out.push_str(prefix);
            out.push_str(digits);
        }
    }
    true
}

/// Doc text as the lines of a C comment: line breaks kept (`\r\n` and a lone `\r` are line
/// breaks too, as the C compiler reads them), long lines wrapped at `width` columns, and
/// every line made harmless inside a comment by [`escape_comment_line`]. Empty text gives
/// no lines.
pub fn render_comment_lines(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    push_comment_lines(&mut lines, text, width);
    lines
}

/// [`render_comment_lines`], appended to `lines`. Text with no `\r`, lines with nothing
/// invisible and lines that fit skip their steps, which would leave such text as it is; a
/// line of printable ASCII, most docs, skips the splitting too.
fn push_comment_lines(lines: &mut Vec<String>, text: &str, width: usize) {
    let (may_hide, may_need_escape) = scan_line(text);
    if !may_hide {
        // Printable ASCII and tabs, most docs: one line, nothing to show, as many
        // characters as bytes.
        let line = text.trim_end();
        if line.trim_start().is_empty() {
            return;
        }
        if line.len() <= width {
            lines.push(if may_need_escape {
                escape_comment_line(line)
            } else {
                end_comment_line(line)
            });
        } else {
            lines.extend(
                wrap_line(line, width)
                    .iter()
                    .map(|l| escape_comment_line(l)),
            );
        }
        return;
    }
    let normalized;
    let text = if text.contains('\r') {
        normalized = text.replace("\r\n", "\n").replace('\r', "\n");
        normalized.as_str()
    } else {
        text
    };
    let text = text.trim_matches('\n');
    if text.trim().is_empty() {
        return;
    }
    for line in text.split('\n') {
        let (may_hide, may_need_escape) = scan_line(line);
        let shown;
        let line = if may_hide {
            shown = super::show_invisible_chars(line);
            shown.as_str()
        } else {
            line
        };
        let line = line.trim_end();
        if fits(line, width) {
            if may_hide || may_need_escape {
                lines.push(escape_comment_line(line));
            } else {
                lines.push(end_comment_line(line));
            }
        } else {
            lines.extend(
                wrap_line(line, width)
                    .iter()
                    .map(|l| escape_comment_line(l)),
            );
        }
    }
}

/// One pass over the bytes of `line`: whether it may hold a character that
/// [`super::show_invisible_chars`] writes out (an ASCII control other than tab, or any
/// non-ASCII character: a bidi control is one), and whether it has a `*`, `/` or `?` that
/// [`escape_comment_line`] may have to break up. A line with neither comes out of both
/// unchanged. No early exit, so that the loop runs on whole vectors of bytes.
fn scan_line(line: &str) -> (bool, bool) {
    let (mut hide, mut escape) = (false, false);
    for &b in line.as_bytes() {
        hide |= ((b < 0x20) & (b != b'\t')) | (b >= 0x7f);
        escape |= (b == b'*') | (b == b'/') | (b == b'?');
    }
    (hide, escape)
}

/// A comment line with no `*`, `/` or `?` made harmless: trailing whitespace goes, and a
/// backslash at its end is followed by a `.` (see [`escape_comment_line`]).
fn end_comment_line(line: &str) -> String {
    let line = line.trim_end();
    let mut out = String::with_capacity(line.len() + 1);
    out.push_str(line);
    if out.ends_with('\\') {
        out.push('.');
    }
    out
}

/// Whether `line` has at most `width` characters; its length in bytes settles most lines.
fn fits(line: &str, width: usize) -> bool {
    line.len() <= width || line.chars().count() <= width
}

/// Splits `line` at spaces into lines of at most `width` characters; a longer word keeps
/// a line of its own. A line that fits comes back as it is.
fn wrap_line(line: &str, width: usize) -> Vec<String> {
    let line = line.trim_end();
    if fits(line, width) {
        return vec![line.to_string()];
    }
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    // `current`'s length in characters, kept rather than counted again for every word.
    let mut current_chars = 0;
    for word in line.split_whitespace() {
        let word_chars = word.chars().count();
        if !current.is_empty() && current_chars + 1 + word_chars > width {
            out.push(std::mem::take(&mut current));
            current_chars = 0;
        }
        if !current.is_empty() {
            current.push(' ');
            current_chars += 1;
        }
        current.push_str(word);
        current_chars += word_chars;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// One comment line made harmless in a `/* */` comment of C11 and C++17: a space goes
/// between the characters of `*/` and `/*` (which would end or nest the comment) and
/// before the third character of a trigraph (`??/` is a backslash in C11), trailing
/// whitespace goes, and a backslash at the end of the line, which would splice the next
/// line onto it, is followed by a `.`.
pub fn escape_comment_line(line: &str) -> String {
    // Without `*`, `/` or `?` there is no delimiter or trigraph to break up.
    if !line.bytes().any(|b| matches!(b, b'*' | b'/' | b'?')) {
        return end_comment_line(line);
    }
    let mut out = String::with_capacity(line.len() + 4);
    for c in line.chars() {
        let last = out.chars().last();
        let delimiter = matches!((last, c), (Some('*'), '/') | (Some('/'), '*'));
        let trigraph = out.ends_with("??") && "=/'()!<>-".contains(c);
        if delimiter || trigraph {
            out.push(' ');
        }
        out.push(c);
    }
    let mut out = out.trim_end().to_string();
    if out.ends_with('\\') {
        out.push('.');
    }
    out
}

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
    /// The live access helpers (`c_live.rs`), when the schema declares shared access.
    live: Option<super::c_live::LiveText>,
    /// The attach helpers (`c_attach.rs`), when the schema has a root layout; after `live`,
    /// whose loads they read with.
    attach: Option<String>,
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
    context.live = super::c_live::render_c_live(schema)?;
    context.attach = super::c_attach::render_c_attach(schema)?;
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
        generated_line: render_comment_lines(&super::generated_line(source), usize::MAX).join(" "),
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
        alignas_used: structs
            .iter()
            .any(|s| s.fields.iter().any(|f| f.align.is_some())),
        consts: const_contexts(abi),
        enums: enum_contexts(abi),
        live: None,
        attach: None,
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

/// The enums and flag sets: a typedef of the representation, and a macro per value that
/// casts its literal to that typedef.
fn enum_contexts(abi: &Abi) -> Vec<EnumContext> {
    let prefix = abi.c_prefix.as_str();
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
                    // `((ibf_phase)2U)`: the literal cast to the enum's type.
                    let mut value = String::with_capacity(name.len() + 24);
                    value.push_str("((");
                    value.push_str(&name);
                    value.push(')');
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
fn struct_context(schema: &Schema, index: usize) -> StructContext<'_> {
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

/// The C type of one element of a field.
pub(super) fn field_type(abi: &Abi, ty: &Type) -> Cow<'static, str> {
    let prefix = abi.c_prefix.as_str();
    match ty.elem {
        Elem::Prim(p) => Cow::Borrowed(prim_type(p)),
        Elem::Char => Cow::Borrowed("char"),
        Elem::Enum(i) => Cow::Owned(c_type_name(&abi.enums[i].name, prefix)),
        Elem::Struct(i) => Cow::Owned(c_type_name(&abi.structs[i].name, prefix)),
    }
}

/// The array length of a field: the constant's macro when the schema named one, else the
/// literal as the schema wrote it; empty when the field is not an array.
pub(super) fn array_len(abi: &Abi, ty: &Type) -> String {
    let Some(len) = ty.len else {
        return String::new();
    };
    if let Some(c) = len.constant {
        return const_macro(&abi.c_prefix, &abi.consts[c].name);
    }
    let written = ty
        .text
        .split_once('[')
        .and_then(|(_, rest)| rest.strip_suffix(']'))
        .unwrap_or("");
    render_int_literal(i128::from(len.count), written, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names() {
        for (name, c) in [
            ("class", "class_"),
            ("and_eq", "and_eq_"),
            ("bool", "bool_"),
            ("uint8_t", "uint8_t_"),
            ("ibf_phase", "ibf_phase_"),
            ("type", "type"),
            ("ibfx", "ibfx"),
            ("ibf", "ibf"),
            ("_pad3", "_pad3"),
        ] {
            assert_eq!(c_field_name(name, "ibf"), c, "{name}");
        }
        assert_eq!(c_type_name("match", "ibf"), "ibf_match");
    }

    #[test]
    fn int_literals() {
        assert_eq!(render_int_literal(0x42, "0x42", "U"), "0x42U");
        assert_eq!(render_int_literal(0x10000, "0x1_0000", "U"), "0x10000U");
        assert_eq!(render_int_literal(15, "0o17", "U"), "017U");
        assert_eq!(render_int_literal(0, "0o0", ""), "0");
        assert_eq!(render_int_literal(5, "0b101", "U"), "0x5U");
        assert_eq!(render_int_literal(10, "010", ""), "10");
        assert_eq!(render_int_literal(7, "+7", ""), "7");
        assert_eq!(render_int_literal(-5, "-5", ""), "(-5)");
        assert_eq!(render_int_literal(4096, "4096", "U"), "4096U");
        assert_eq!(render_int_literal(4096, "64 * 64", "U"), "4096U");
        assert_eq!(render_int_literal(3, "4", "U"), "3U");
        assert_eq!(
            render_int_literal(i128::from(i32::MIN), "-2147483648", ""),
            "(-2147483647 - 1)"
        );
        assert_eq!(
            render_int_literal(i128::from(i64::MIN), "-9223372036854775808", "LL"),
            "(-9223372036854775807LL - 1)"
        );
        assert_eq!(
            render_int_literal(i128::from(u64::MAX), "0xFFFF_FFFF_FFFF_FFFF", "ULL"),
            "0xFFFFFFFFFFFFFFFFULL"
        );
    }

    #[test]
    fn comment_escapes() {
        assert_eq!(escape_comment_line("a */ b /* c"), "a * / b / * c");
        assert_eq!(escape_comment_line("/*/"), "/ * /");
        assert_eq!(escape_comment_line("what??/"), "what?? /");
        assert_eq!(escape_comment_line("???="), "??? =");
        assert_eq!(escape_comment_line("path\\  "), "path\\.");
        assert_eq!(
            render_comment_lines("a\r\nb\rc\u{0}\u{202E}", 80),
            ["a", "b", "c<U+0000><U+202E>"]
        );
        assert!(render_comment_lines(" \n ", 80).is_empty());
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap_line("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap_line("aaaaaaa b", 5), ["aaaaaaa", "b"]);
        assert_eq!(wrap_line("short", 5), ["short"]);
    }
}
