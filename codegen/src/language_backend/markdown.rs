//! The markdown reference (`<abi>.md`): every constant, enum, flag set and struct with its
//! doc, values, offsets and types, a byte map of each struct, and the markdown escaping
//! that makes every doc render as the schema wrote it.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

use serde::Serialize;

use super::RenderError;
use super::protocols;
use super::text::{Compiled, Template};
use crate::Schema;
use crate::ir::{Elem, Struct, Type, Version};
use crate::layout::StructLayout;

const TEMPLATE: Template = Template {
    name: "markdown.md.j2",
    source: include_str!("../../templates/markdown.md.j2"),
};

/// The template, compiled on first use.
pub(super) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// Bytes in one row of a struct's byte map.
const BYTE_MAP_ROW: u64 = 16;
/// A run of at least this many identical rows of one field is folded into one line.
const BYTE_MAP_FOLD: u64 = 3;
/// The byte map's key lines stay within this width.
const BYTE_MAP_KEY_WIDTH: usize = 78;
/// The letters that stand for the non-padding fields of a byte map, in field order; a
/// struct with more fields starts over.
const BYTE_MAP_LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// What a padding byte looks like in a byte map.
const BYTE_MAP_PADDING: char = '.';

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
        .structs
        .iter()
        .enumerate()
        .map(|(i, s)| build_struct(schema, i, s, schema.layout.of(i)))
        .collect();
    let protocols = protocols::describe_protocols(schema)
        .into_iter()
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
        generated: super::generated_line(source),
        title: escape_inline_cow(&abi.title),
        version: abi.version.to_string(),
        doc: escape_inline_cow(&abi.doc),
        constants_since: constants.iter().any(|c| c.since.is_some()),
        constants,
        enums,
        structs,
        protocols,
    }
}

fn build_struct<'a>(
    schema: &'a Schema,
    index: usize,
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
            access: escape_inline(&protocols::access_cell(schema, index, fi)),
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

/// Escapes text for inline markdown (a table cell, a heading, a list item) so that it renders
/// as written: markdown's and HTML's special characters get a backslash, a `|` too (so a
/// table cell does not split), and each line break becomes `<br>`.
pub fn escape_inline(text: &str) -> String {
    escape_inline_cow(text).into_owned()
}

/// [`escape_inline`], borrowing text that needs no escape (most names and docs). Every
/// character it escapes is ASCII, so it walks bytes: a byte of a multi-byte character is
/// never one of them, nor an ASCII letter or digit.
fn escape_inline_cow(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    // `text[..copied]` is in `out` already.
    let mut copied = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let replacement = match b {
            b'\r' if next == Some(b'\n') => "",
            b'\r' | b'\n' => "<br>",
            b'\\' => "\\\\",
            b'`' => "\\`",
            b'*' => "\\*",
            b'[' => "\\[",
            b']' => "\\]",
            b'<' => "\\<",
            b'|' => "\\|",
            b'~' => "\\~",
            b'$' => "\\$",
            // Only an underscore at the edge of a word can start or end emphasis.
            b'_' if !(i > 0
                && bytes[i - 1].is_ascii_alphanumeric()
                && next.is_some_and(|n| n.is_ascii_alphanumeric())) =>
            {
                "\\_"
            }
            // `&name;` and `&#123;` would be character references.
            b'&' if is_char_reference(&bytes[i + 1..]) => "\\&",
            // A closing `#` run would be dropped from a heading.
            b'#' if next.is_none() => "\\#",
            _ => continue,
        };
        let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 8));
        out.push_str(&text[copied..i]);
        out.push_str(replacement);
        copied = i + 1;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// Whether `rest`, the text after a `&`, makes it a character reference: a name or a `#`
/// number, then `;`.
fn is_char_reference(rest: &[u8]) -> bool {
    let body = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'#')
        .count();
    body > 0 && rest.get(body) == Some(&b';')
}

/// Escapes text that starts a paragraph: [`escape_inline`], and a first character that
/// would make a heading, a quote, a list or a rule gets a backslash too.
pub fn escape_paragraph(text: &str) -> String {
    escape_paragraph_cow(text).into_owned()
}

/// [`escape_paragraph`], borrowing text that needs no escape.
fn escape_paragraph_cow(text: &str) -> Cow<'_, str> {
    let escaped = escape_inline_cow(text);
    let first = escaped.chars().next();
    match first {
        Some('#' | '>' | '-' | '+' | '=') => Cow::Owned(format!("\\{escaped}")),
        Some(d) if d.is_ascii_digit() => {
            // `1. ` and `1) ` start an ordered list.
            let digits = escaped.chars().take_while(|c| c.is_ascii_digit()).count();
            match escaped[digits..].chars().next() {
                Some(m @ ('.' | ')')) => Cow::Owned(format!(
                    "{}\\{m}{}",
                    &escaped[..digits],
                    &escaped[digits + 1..]
                )),
                _ => escaped,
            }
        }
        _ => escaped,
    }
}

/// `text` as an inline code span, which shows it as written: a backtick fence longer than
/// any backtick run inside, and `|` escaped for tables (GitHub removes that backslash).
pub fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let body = text.replace('|', "\\|").replace(['\r', '\n'], " ");
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// A struct's byte map, as the lines of a code block: one row of [`BYTE_MAP_ROW`] bytes a
/// line, each byte the letter of its field and padding as [`BYTE_MAP_PADDING`]; a run of
/// identical rows of one field (an array, a reserved area) folds into one line that says how
/// many rows it stands for. A key of letters to field names follows. Offsets and sizes are
/// the layout's.
pub fn render_byte_map(s: &Struct, layout: &StructLayout) -> Vec<String> {
    let mut letters: Vec<Option<char>> = Vec::with_capacity(s.fields.len());
    let mut next_letter = 0;
    for f in &s.fields {
        if f.is_padding() {
            letters.push(None);
        } else {
            letters.push(Some(
                BYTE_MAP_LETTERS[next_letter % BYTE_MAP_LETTERS.len()] as char,
            ));
            next_letter += 1;
        }
    }
    // The field that holds byte `b`: fields are in offset order and leave no gap. The map
    // walks rows and whole runs of rows, never single bytes of a large field, so that a
    // struct of gigabytes costs no more than its fields.
    let last_field = layout.fields.len() - 1;
    let owner = |b: u64| -> usize {
        layout
            .fields
            .partition_point(|fl| fl.offset + fl.size <= b)
            .min(last_field)
    };
    let show = |i: usize| letters[i].unwrap_or(BYTE_MAP_PADDING);
    let offset_width = format!("{:x}", layout.size.saturating_sub(1)).len().max(4);
    let mut lines = Vec::new();
    let mut start = 0;
    while start < layout.size {
        let end = (start + BYTE_MAP_ROW).min(layout.size);
        let first = owner(start);
        let mut line = String::with_capacity(2 + offset_width + 2 + 17 + 48);
        // Writing to a String cannot fail.
        let _ = write!(line, "0x{start:0offset_width$x}  ");
        // The owner of each byte of the row, found by walking on from the row's first:
        // `owner` is monotone in the byte.
        let mut held_by = first;
        for b in start..end {
            if b > start && (b - start) % 8 == 0 {
                line.push(' ');
            }
            while held_by < last_field
                && layout.fields[held_by].offset + layout.fields[held_by].size <= b
            {
                held_by += 1;
            }
            line.push(show(held_by));
        }
        let fl = &layout.fields[first];
        // Whole rows from `start` that lie inside the one field.
        let run = if end - start == BYTE_MAP_ROW && held_by == first {
            (fl.offset + fl.size - start) / BYTE_MAP_ROW
        } else {
            1
        };
        if run >= BYTE_MAP_FOLD {
            let last = start + run * BYTE_MAP_ROW - 1;
            let _ = write!(
                line,
                "  ×{run} rows, to 0x{last:0offset_width$x}: {}",
                s.fields[first].name
            );
            start += run * BYTE_MAP_ROW;
        } else {
            start = end;
        }
        lines.push(line);
    }
    lines.push(String::new());
    // The key: `<letter> <field>` for each field that has a letter, and the padding's.
    let mut key: Vec<(char, &str)> = s
        .fields
        .iter()
        .zip(&letters)
        .filter_map(|(f, l)| l.map(|l| (l, f.name.as_str())))
        .collect();
    if letters.iter().any(Option::is_none) {
        key.push((BYTE_MAP_PADDING, "padding"));
    }
    // Each entry is padded to `width` characters, and a line ends trimmed.
    let entry_chars = |name: &str| 2 + name.chars().count();
    let width = key.iter().map(|(_, n)| entry_chars(n)).max().unwrap_or(0) + 2;
    let per_line = (BYTE_MAP_KEY_WIDTH / width).max(1);
    for chunk in key.chunks(per_line) {
        let mut line = String::with_capacity(chunk.len() * width);
        for (i, &(letter, name)) in chunk.iter().enumerate() {
            line.push(letter);
            line.push(' ');
            line.push_str(name);
            if i + 1 < chunk.len() {
                line.extend(std::iter::repeat_n(' ', width - entry_chars(name)));
            }
        }
        let trimmed = line.trim_end().len();
        line.truncate(trimmed);
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_escaping_keeps_the_text() {
        assert_eq!(escape_inline("a | b"), "a \\| b");
        assert_eq!(escape_inline("*/ `x` \\"), "\\*/ \\`x\\` \\\\");
        assert_eq!(escape_inline("<b>{{ x }}</b>"), "\\<b>{{ x }}\\</b>");
        assert_eq!(escape_inline("client_name_len"), "client_name_len");
        assert_eq!(escape_inline("_pad33 x_ _y"), "\\_pad33 x\\_ \\_y");
        assert_eq!(
            escape_inline("ibf.toml's [controls]"),
            "ibf.toml's \\[controls\\]"
        );
        assert_eq!(
            escape_inline("R&D &amp; &#1; &amp"),
            "R&D \\&amp; \\&#1; &amp"
        );
        assert_eq!(escape_inline("one\ntwo\r\nthree"), "one<br>two<br>three");
        assert_eq!(escape_inline("issue #"), "issue \\#");
        assert_eq!(escape_inline("a > b, ~x~, $5"), "a > b, \\~x\\~, \\$5");
        assert_eq!(escape_inline("déjà vu"), "déjà vu");
    }

    #[test]
    fn paragraph_escaping_stops_block_starts() {
        assert_eq!(escape_paragraph("# not a heading"), "\\# not a heading");
        assert_eq!(escape_paragraph("> not a quote"), "\\> not a quote");
        assert_eq!(escape_paragraph("- not a list"), "\\- not a list");
        assert_eq!(escape_paragraph("1. not a list"), "1\\. not a list");
        assert_eq!(escape_paragraph("12) not a list"), "12\\) not a list");
        assert_eq!(escape_paragraph("100 ms"), "100 ms");
        assert_eq!(escape_paragraph("Plain."), "Plain.");
    }

    #[test]
    fn code_spans_fence_backticks_and_escape_pipes() {
        assert_eq!(code_span("a * b"), "`a * b`");
        assert_eq!(code_span("a | b"), "`a \\| b`");
        assert_eq!(code_span("x ` y"), "``x ` y``");
        assert_eq!(code_span("`x`"), "`` `x` ``");
    }

    #[test]
    fn byte_map_of_a_huge_struct_folds_and_stays_short() {
        let schema = crate::load_schema(
            r#"
[abi]
name = "big"
version = "1.0"
c_prefix = "big"
byte_order = "little"

[[struct]]
name = "blob"
fields = [
  { name = "len", type = "u32" },
  { name = "_pad4", type = "u8[4]" },
  { name = "data", type = "u8[4000000000]" },
]
"#,
        )
        .expect("the schema loads");
        let map = render_byte_map(&schema.abi.structs[0], schema.layout.of(0));
        assert_eq!(
            map,
            [
                "0x00000000  aaaa.... bbbbbbbb",
                "0x00000010  bbbbbbbb bbbbbbbb  ×249999999 rows, to 0xee6b27ff: data",
                "0xee6b2800  bbbbbbbb",
                "",
                "a len      b data     . padding",
            ]
        );
    }
}
