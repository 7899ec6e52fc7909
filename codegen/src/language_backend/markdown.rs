//! The markdown reference (`<abi>.md`): every constant, enum, flag set and struct with its
//! doc, values, offsets and types, a byte map of each struct, and the markdown escaping
//! that makes every doc render as the schema wrote it.

use std::sync::LazyLock;

use serde::Serialize;

use super::RenderError;
use super::text::{Compiled, Template};
use crate::Schema;
use crate::ir::{Elem, Struct, Type, Version};
use crate::layout::StructLayout;

const TEMPLATE: Template = Template {
    name: "markdown.md.j2",
    source: include_str!("../../../templates/markdown.md.j2"),
};

/// The template with its escaping filters, compiled on first use.
static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    Compiled::new(&TEMPLATE, |env| {
        env.add_filter("md", |s: String| escape_inline(&s));
        env.add_filter("md_paragraph", |s: String| escape_paragraph(&s));
        env.add_filter("md_code", |s: String| code_span(&s));
    })
});

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
struct MarkdownContext {
    generated: String,
    title: String,
    version: String,
    doc: String,
    constants: Vec<ConstantRow>,
    constants_since: bool,
    enums: Vec<EnumSection>,
    structs: Vec<StructSection>,
}

#[derive(Serialize)]
struct ConstantRow {
    name: String,
    anchor: String,
    /// As the schema wrote it, or the computed value of an expression.
    literal: String,
    /// The expression the value was computed from.
    expr: Option<String>,
    since: Option<String>,
    doc: String,
}

#[derive(Serialize)]
struct EnumSection {
    name: String,
    anchor: String,
    kind: &'static str,
    repr: &'static str,
    doc: String,
    since: Option<String>,
    values_since: bool,
    values: Vec<ValueRow>,
}

#[derive(Serialize)]
struct ValueRow {
    name: String,
    literal: String,
    since: Option<String>,
    doc: String,
}

#[derive(Serialize)]
struct StructSection {
    name: String,
    anchor: String,
    size: u64,
    align: u64,
    doc: String,
    since: Option<String>,
    extensible: bool,
    fields_since: bool,
    fields: Vec<FieldRow>,
    byte_map: Vec<String>,
}

#[derive(Serialize)]
struct FieldRow {
    /// `0x00A4`: four uppercase hex digits, more when needed.
    offset: String,
    /// The whole field, every array element included.
    size: u64,
    name: String,
    padding: bool,
    /// The type as the schema wrote it, as markdown: named types and length constants link
    /// to their sections.
    type_md: String,
    since: Option<String>,
    doc: String,
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

fn build_context(schema: &Schema, source: &str) -> MarkdownContext {
    let abi = &schema.abi;
    let constants: Vec<ConstantRow> = abi
        .consts
        .iter()
        .map(|c| ConstantRow {
            name: c.name.clone(),
            anchor: anchor("const", &c.name),
            literal: c.literal.clone(),
            expr: c.expr.clone(),
            since: since(&c.since),
            doc: c.doc.clone(),
        })
        .collect();
    let enums = abi
        .enums
        .iter()
        .map(|e| EnumSection {
            name: e.name.clone(),
            anchor: anchor(e.kind.keyword(), &e.name),
            kind: e.kind.keyword(),
            repr: e.repr.name(),
            doc: e.doc.clone(),
            since: since(&e.since),
            values_since: e.values.iter().any(|v| v.since.is_some()),
            values: e
                .values
                .iter()
                .map(|v| ValueRow {
                    name: v.name.clone(),
                    literal: v.literal.clone(),
                    since: since(&v.since),
                    doc: v.doc.clone(),
                })
                .collect(),
        })
        .collect();
    let structs = abi
        .structs
        .iter()
        .enumerate()
        .map(|(i, s)| build_struct(schema, s, schema.layout.of(i)))
        .collect();
    MarkdownContext {
        generated: super::generated_line(source),
        title: abi.title.clone(),
        version: abi.version.to_string(),
        doc: abi.doc.clone(),
        constants_since: constants.iter().any(|c| c.since.is_some()),
        constants,
        enums,
        structs,
    }
}

fn build_struct(schema: &Schema, s: &Struct, layout: &StructLayout) -> StructSection {
    let fields = s
        .fields
        .iter()
        .zip(&layout.fields)
        .map(|(f, fl)| FieldRow {
            offset: format!("0x{:04X}", fl.offset),
            size: fl.size,
            name: f.name.clone(),
            padding: f.is_padding(),
            type_md: render_type(schema, &f.ty),
            since: since(&f.since),
            doc: f.doc.clone(),
        })
        .collect();
    StructSection {
        name: s.name.clone(),
        anchor: anchor("struct", &s.name),
        size: layout.size,
        align: layout.align,
        doc: s.doc.clone(),
        since: since(&s.since),
        extensible: s.extensible,
        fields_since: s.fields.iter().any(|f| f.since.is_some()),
        fields,
        byte_map: render_byte_map(s, layout),
    }
}

/// A markdown link to an item's anchor.
fn link(text: &str, anchor: &str) -> String {
    format!("[{}](#{anchor})", escape_inline(text))
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
        Elem::Enum(i) => Some(anchor(abi.enums[i].kind.keyword(), &abi.enums[i].name)),
        Elem::Struct(i) => Some(anchor("struct", &abi.structs[i].name)),
        Elem::Prim(_) | Elem::Char => None,
    };
    let mut out = link_word(base, base_target.as_deref());
    if let Some(inner) = len {
        let len_target = ty
            .len
            .and_then(|l| l.constant)
            .map(|i| anchor("const", &abi.consts[i].name));
        out.push_str("\\[");
        out.push_str(&link_word(inner, len_target.as_deref()));
        out.push_str("\\]");
    }
    out
}

/// `word`, surrounding spaces kept, as a link to `target` when there is one.
fn link_word(word: &str, target: Option<&str>) -> String {
    let trimmed = word.trim();
    match target {
        Some(target) if !trimmed.is_empty() => {
            let start = word.find(trimmed).unwrap_or(0);
            format!(
                "{}{}{}",
                &word[..start],
                link(trimmed, target),
                &word[start + trimmed.len()..]
            )
        }
        _ => escape_inline(word),
    }
}

/// Escapes text for inline markdown (a table cell, a heading, a list item) so that it renders
/// as written: markdown's and HTML's special characters get a backslash, a `|` too (so a
/// table cell does not split), and each line break becomes `<br>`.
pub fn escape_inline(text: &str) -> String {
    // Text without any character this escapes, most names and docs, stays as it is.
    if !text.contains([
        '\r', '\n', '\\', '`', '*', '[', ']', '<', '|', '~', '$', '_', '&', '#',
    ]) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        match c {
            '\r' if next == Some('\n') => {}
            '\r' | '\n' => out.push_str("<br>"),
            '\\' | '`' | '*' | '[' | ']' | '<' | '|' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            // Only an underscore at the edge of a word can start or end emphasis.
            '_' if !(prev.is_some_and(|p| p.is_ascii_alphanumeric())
                && next.is_some_and(|n| n.is_ascii_alphanumeric())) =>
            {
                out.push_str("\\_");
            }
            // `&name;` and `&#123;` would be character references.
            '&' if is_char_reference(&chars[i + 1..]) => out.push_str("\\&"),
            // A closing `#` run would be dropped from a heading.
            '#' if next.is_none() => out.push_str("\\#"),
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// Whether `rest`, the text after a `&`, makes it a character reference: a name or a `#`
/// number, then `;`.
fn is_char_reference(rest: &[char]) -> bool {
    let body = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '#')
        .count();
    body > 0 && rest.get(body) == Some(&';')
}

/// Escapes text that starts a paragraph: [`escape_inline`], and a first character that
/// would make a heading, a quote, a list or a rule gets a backslash too.
pub fn escape_paragraph(text: &str) -> String {
    let escaped = escape_inline(text);
    let first = escaped.chars().next();
    match first {
        Some('#' | '>' | '-' | '+' | '=') => format!("\\{escaped}"),
        Some(d) if d.is_ascii_digit() => {
            // `1. ` and `1) ` start an ordered list.
            let digits = escaped.chars().take_while(|c| c.is_ascii_digit()).count();
            match escaped[digits..].chars().next() {
                Some(m @ ('.' | ')')) => {
                    format!("{}\\{m}{}", &escaped[..digits], &escaped[digits + 1..])
                }
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
    let owner = |b: u64| -> usize {
        layout
            .fields
            .partition_point(|fl| fl.offset + fl.size <= b)
            .min(layout.fields.len() - 1)
    };
    let show = |i: usize| letters[i].unwrap_or(BYTE_MAP_PADDING);
    let offset_width = format!("{:X}", layout.size.saturating_sub(1)).len().max(4);
    let mut lines = Vec::new();
    let mut start = 0;
    while start < layout.size {
        let end = (start + BYTE_MAP_ROW).min(layout.size);
        let mut text = String::new();
        for b in start..end {
            if b > start && (b - start) % 8 == 0 {
                text.push(' ');
            }
            text.push(show(owner(b)));
        }
        let mut line = format!("0x{start:0offset_width$X}  {text}");
        let first = owner(start);
        let fl = &layout.fields[first];
        // Whole rows from `start` that lie inside the one field.
        let run = if end - start == BYTE_MAP_ROW && owner(end - 1) == first {
            (fl.offset + fl.size - start) / BYTE_MAP_ROW
        } else {
            1
        };
        if run >= BYTE_MAP_FOLD {
            let last = start + run * BYTE_MAP_ROW - 1;
            line.push_str(&format!(
                "  ×{run} rows, to 0x{last:0offset_width$X}: {}",
                s.fields[first].name
            ));
            start += run * BYTE_MAP_ROW;
        } else {
            start = end;
        }
        lines.push(line);
    }
    lines.push(String::new());
    let mut key: Vec<String> = s
        .fields
        .iter()
        .zip(&letters)
        .filter_map(|(f, l)| l.map(|l| format!("{l} {}", f.name)))
        .collect();
    if letters.iter().any(Option::is_none) {
        key.push(format!("{BYTE_MAP_PADDING} padding"));
    }
    let width = key.iter().map(|k| k.chars().count()).max().unwrap_or(0) + 2;
    let per_line = (BYTE_MAP_KEY_WIDTH / width).max(1);
    for chunk in key.chunks(per_line) {
        let line: String = chunk
            .iter()
            .map(|k| format!("{k:width$}"))
            .collect::<String>();
        lines.push(line.trim_end().to_string());
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
                "0x00000010  bbbbbbbb bbbbbbbb  ×249999999 rows, to 0xEE6B27FF: data",
                "0xEE6B2800  bbbbbbbb",
                "",
                "a len      b data     . padding",
            ]
        );
    }
}
