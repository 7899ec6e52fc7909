//! The raw schema: `schema.toml` read with serde and toml, every value kept with its span.
//! Nothing here checks meaning; that is `lower`'s job.

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{Diagnostic, SchemaErrors, Span};

mod toml11;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSchema {
    pub abi: Spanned<RawAbi>,
    #[serde(default, rename = "const")]
    pub consts: Vec<Spanned<RawConst>>,
    #[serde(default, rename = "enum")]
    pub enums: Vec<Spanned<RawEnum>>,
    #[serde(default)]
    pub flags: Vec<Spanned<RawEnum>>,
    #[serde(default, rename = "struct")]
    pub structs: Vec<Spanned<RawStruct>>,
    #[serde(default, rename = "seqlock")]
    pub seqlocks: Vec<Spanned<RawSeqlock>>,
    #[serde(default, rename = "ring")]
    pub rings: Vec<Spanned<RawRing>>,
    #[serde(default, rename = "layout")]
    pub layouts: Vec<Spanned<RawLayout>>,
    #[serde(default, rename = "file")]
    pub files: Vec<Spanned<RawFile>>,
    #[serde(default, rename = "template")]
    pub templates: Vec<Spanned<RawTemplate>>,
}

/// `[[template]]`: a target of the user's own, a minijinja template over the layout context
/// (codegen/TEMPLATES.md), and the file it renders to.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTemplate {
    /// The template, relative to the schema's folder.
    pub path: Spanned<String>,
    /// The file it renders to, relative to the output folder (`generated/`).
    pub output: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAbi {
    pub name: Spanned<String>,
    pub version: Spanned<String>,
    /// `"strict"` (the default) or `"cargo"`: see `ir::VersionPolicy`.
    #[serde(default)]
    pub version_policy: Option<Spanned<String>>,
    pub c_prefix: Spanned<String>,
    #[serde(default)]
    pub title: Option<Spanned<String>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    pub byte_order: Spanned<String>,
    /// Who shares the memory, such as `["host", "client"]`: the names `writer` and `reader`
    /// may use.
    #[serde(default)]
    pub parties: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `writer = "host"` or `writer = ["host", "client"]`: one party or several.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawParties {
    One(String),
    Many(Vec<String>),
}

impl RawParties {
    pub fn names(&self) -> Vec<&str> {
        match self {
            RawParties::One(s) => vec![s.as_str()],
            RawParties::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// An integer as written, or a string holding an integer expression.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawValue {
    Int(i64),
    Expr(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConst {
    pub name: Spanned<String>,
    pub value: Spanned<RawValue>,
    #[serde(default, rename = "type")]
    pub ty: Option<Spanned<String>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    #[serde(default)]
    pub since: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEnum {
    pub name: Spanned<String>,
    pub repr: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    #[serde(default)]
    pub since: Option<Spanned<String>>,
    /// Whether the values are ordered (enums only): `ordered = true`.
    #[serde(default)]
    pub ordered: Option<Spanned<bool>>,
    pub values: Spanned<Vec<Spanned<RawEnumValue>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEnumValue {
    pub name: Spanned<String>,
    pub value: Spanned<RawValue>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    #[serde(default)]
    pub since: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStruct {
    pub name: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    #[serde(default)]
    pub since: Option<Spanned<String>>,
    #[serde(default)]
    pub size: Option<Spanned<i64>>,
    #[serde(default)]
    pub align: Option<Spanned<i64>>,
    #[serde(default)]
    pub extensible: Option<Spanned<bool>>,
    /// Who writes the struct's fields in shared memory; declaring it makes the struct shared.
    #[serde(default)]
    pub writer: Option<Spanned<RawParties>>,
    pub fields: Spanned<Vec<Spanned<RawField>>>,
    /// What follows the struct in its region, in order: arrays or records after a header.
    #[serde(default)]
    pub trailer: Option<Spanned<Vec<Spanned<RawTrailerPart>>>>,
    /// An extensible record's version handshake: the fields that say who produced it.
    #[serde(default)]
    pub version: Option<Spanned<RawHandshake>>,
}

/// `version = { magic = "magic", major = "abi_major", minor = "abi_minor", size = "header_size" }`:
/// paths to integer fields of the struct (`header.schema_minor` through a nested struct).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHandshake {
    #[serde(default)]
    pub magic: Option<Spanned<String>>,
    pub major: Spanned<String>,
    pub minor: Spanned<String>,
    /// The producer's record size in bytes; without it, the size follows from the minor
    /// version.
    #[serde(default)]
    pub size: Option<Spanned<String>>,
}

/// `[[layout]]`: a layout table, a header's array of `{ offset, size }` rows indexed by an
/// enum, and what each row's region holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLayout {
    pub name: Spanned<String>,
    /// The struct at the start of the bridge or block.
    pub header: Spanned<String>,
    /// The header's array field that holds the rows.
    pub table: Spanned<String>,
    /// The enum whose values index the rows.
    pub index: Spanned<String>,
    /// The header's field that holds the bytes the bridge or block spans.
    #[serde(default)]
    pub extent: Option<Spanned<String>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    pub rows: Spanned<Vec<Spanned<RawRow>>>,
}

/// One region of a layout table: exactly one of `struct`, `ring`, `blocks`, or `bytes` on
/// its own.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    /// The index enum's value naming the row.
    pub name: Spanned<String>,
    /// The region starts with this struct (and its trailer).
    #[serde(default, rename = "struct")]
    pub structure: Option<Spanned<String>>,
    /// With `struct`: how many of them, back to back. With `blocks`: how many blocks.
    #[serde(default)]
    pub count: Option<Spanned<RawValue>>,
    /// Bytes that follow (or, alone, the whole region's least size): an expression over
    /// constants, where a struct's name stands for its size.
    #[serde(default)]
    pub bytes: Option<Spanned<RawValue>>,
    /// The region is this `[[ring]]` of slots.
    #[serde(default)]
    pub ring: Option<Spanned<String>>,
    /// The region is `count` blocks, `stride` bytes apart, each laid out by this layout.
    #[serde(default)]
    pub blocks: Option<Spanned<String>>,
    #[serde(default)]
    pub stride: Option<Spanned<RawValue>>,
    /// Other rows this region may overlap.
    #[serde(default)]
    pub overlaps: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether a producer may leave the region out (size 0). A row whose enum value is
    /// newer than the producer may always be absent.
    #[serde(default)]
    pub optional: Option<Spanned<bool>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[file]]`: a file format, the records it holds and where each sits (`abi-codegen inspect`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    pub name: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    pub records: Spanned<Vec<Spanned<RawFileRecord>>>,
    /// Fields that must equal a sum or a count over other records.
    #[serde(default)]
    pub totals: Option<Spanned<Vec<Spanned<RawTotal>>>>,
    /// `record.field` paths whose values must increase from one record to the next.
    #[serde(default)]
    pub ordered: Option<Spanned<Vec<Spanned<String>>>>,
}

/// One record of a `[[file]]`: a struct, and exactly one of `at`, `after` or `zlib`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFileRecord {
    pub name: Spanned<String>,
    #[serde(rename = "struct")]
    pub structure: Spanned<String>,
    /// `0`, `end - 16`, `trailer.footer_offset` or `chunk_index[].offset`.
    #[serde(default)]
    pub at: Option<Spanned<RawValue>>,
    /// Right after this record (all of its copies).
    #[serde(default)]
    pub after: Option<Spanned<String>>,
    /// With `at` or `after`: `record.field`, how many back to back. With `zlib`: a field of
    /// the stream's record that counts the records inside.
    #[serde(default)]
    pub count: Option<Spanned<String>>,
    /// With `at = "x[].field"`: when `x` is missing, find the records from the end of this
    /// record forward, each right after the one before (and its zlib stream).
    #[serde(default)]
    pub walk: Option<Spanned<String>>,
    /// The records sit in the zlib stream that follows each copy of this record.
    #[serde(default)]
    pub zlib: Option<Spanned<String>>,
    /// With `zlib`: the stream record's fields for the stream's bytes, and its inflated bytes.
    #[serde(default)]
    pub stored: Option<Spanned<String>>,
    #[serde(default)]
    pub raw: Option<Spanned<String>>,
    /// With `zlib`: this struct's field holding the whole record's bytes, or the bytes that
    /// follow the struct.
    #[serde(default)]
    pub size: Option<Spanned<String>>,
    #[serde(default)]
    pub data: Option<Spanned<String>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `{ total = "footer.ticks", sum = "chunks.tick_count" }` or `{ total = ..., count = "chunks" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTotal {
    pub total: Spanned<String>,
    #[serde(default)]
    pub sum: Option<Spanned<String>>,
    #[serde(default)]
    pub count: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTrailerPart {
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    pub ty: Spanned<String>,
    /// The struct's field that holds the part's length in bytes at run time, when it varies.
    #[serde(default)]
    pub size: Option<Spanned<String>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[seqlock]]`: a counter that guards bytes, odd while its writer writes them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSeqlock {
    pub name: Spanned<String>,
    /// `struct.field`: an atomic unsigned integer.
    pub counter: Spanned<String>,
    /// Fields of the counter's struct, `rest` for all the others, or trailer parts.
    pub guards: Spanned<Vec<Spanned<String>>>,
    pub writer: Spanned<RawParties>,
    pub reader: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[ring]]`: a ring of seqlocked slots, or an event array indexed modulo its capacity.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRing {
    pub name: Spanned<String>,
    /// `slots` or `events`.
    pub kind: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    /// slots: the `struct.field` counting publications.
    #[serde(default)]
    pub head: Option<Spanned<String>>,
    /// slots: the constant that counts the slots.
    #[serde(default)]
    pub slot_count: Option<Spanned<String>>,
    /// slots: the constant that gives each slot's size in bytes, its header included.
    #[serde(default)]
    pub slot_size: Option<Spanned<String>>,
    /// slots: the seqlock whose counter's struct starts each slot.
    #[serde(default)]
    pub seqlock: Option<Spanned<String>>,
    /// events: the `struct.field` counting entries ever written.
    #[serde(default)]
    pub total: Option<Spanned<String>>,
    /// events: the `struct.field` array that holds entry i at i % its length.
    #[serde(default)]
    pub entries: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawField {
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    pub ty: Spanned<String>,
    /// For an array: the integer field that says how many entries are used, as a path from
    /// this struct (`ship_count`, `match.pickup_spawn_count`).
    #[serde(default)]
    pub count: Option<Spanned<String>>,
    /// The constant this field always holds, such as a magic number.
    #[serde(default)]
    pub expect: Option<Spanned<String>>,
    /// How it is accessed in shared memory: `atomic` or `cas`.
    #[serde(default)]
    pub access: Option<Spanned<String>>,
    /// Who writes it, when not the struct's writer.
    #[serde(default)]
    pub writer: Option<Spanned<RawParties>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    #[serde(default)]
    pub since: Option<Spanned<String>>,
}

/// Reads the schema text. A TOML syntax error, a missing or unknown key or a value of the
/// wrong kind is reported with its position and the item it belongs to. The schema is
/// TOML 1.0, which Python's tomllib reads: the syntax only TOML 1.1 has is an error too.
pub fn parse_schema(src: &str) -> Result<RawSchema, SchemaErrors> {
    let parsed = toml::from_str::<RawSchema>(src);
    // A TOML syntax error comes first; TOML 1.1 syntax is looked for in a document that
    // parses, before its keys and values are checked.
    if parsed.is_ok() || toml::de::DeTable::parse(src).is_ok() {
        let list: Vec<Diagnostic> = toml11::toml11_syntax(src)
            .into_iter()
            .map(|d| Diagnostic {
                message: match enclosing_item(src, d.span.start) {
                    Some(item) => format!("{item}: {}", d.message),
                    None => d.message,
                },
                ..d
            })
            .collect();
        if !list.is_empty() {
            return Err(SchemaErrors { list });
        }
    }
    parsed.map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = describe_toml_error(e.message());
        let diagnostic = match message.as_str() {
            "duplicate key" => duplicate_key(src, span),
            "missing key `abi`" => missing_abi(src),
            _ => describe_data_error(src, span, message),
        };
        SchemaErrors {
            list: vec![diagnostic],
        }
    })
}

/// A missing key, an unknown key or a value of the wrong kind, with its hint.
fn describe_data_error(src: &str, span: Span, message: String) -> Diagnostic {
    let help = suggest_key(&message).or_else(|| {
        let key = message.strip_prefix("missing key `")?.split('`').next()?;
        Some(format!("add `{key} = ...`"))
    });
    let help = help.or_else(|| {
        (message == "expected an array, found a table").then(|| {
            "items are arrays of tables: write a double-bracket header, such as `[[struct]]`"
                .to_string()
        })
    });
    let message = match enclosing_item(src, span.start) {
        Some(item) => format!("{item}: {message}"),
        None => message,
    };
    Diagnostic {
        span,
        message,
        help,
    }
}

/// No `[abi]` table: the schema is empty (blank lines and comments), or lacks its header.
fn missing_abi(src: &str) -> Diagnostic {
    let empty = src.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    });
    let message = if empty {
        "the schema is empty: it has no `[abi]` table"
    } else {
        "the schema has no `[abi]` table"
    };
    Diagnostic {
        span: 0..0,
        message: message.into(),
        help: Some(
            "a schema starts with `[abi]` and its `name = \"...\"`, `version = \"0.1\"`, \
             `c_prefix = \"...\"` and `byte_order = \"little\"`"
                .into(),
        ),
    }
}

/// toml's "duplicate key": a table header written twice, `[struct]` beside `[[struct]]`
/// (pointed at the single-bracket header, the likely mistake, wherever it is), or a key set
/// twice in one table.
fn duplicate_key(src: &str, span: Span) -> Diagnostic {
    let key = src.get(span.clone()).unwrap_or("").trim().trim_matches('"');
    // Every `[key]` and `[[key]]` header: its span and line.
    let mut singles: Vec<(Span, usize)> = Vec::new();
    let mut arrays: Vec<(Span, usize)> = Vec::new();
    let mut offset = 0;
    for (i, line) in src.split_inclusive('\n').enumerate() {
        let text = line.trim_start();
        let start = offset + (line.len() - text.len());
        offset += line.len();
        let (list, open, close) = if text.starts_with("[[") {
            (&mut arrays, "[[", "]]")
        } else {
            (&mut singles, "[", "]")
        };
        let Some(rest) = text.strip_prefix(open) else {
            continue;
        };
        if let Some(end) = rest.find(close).filter(|&e| rest[..e].trim() == key) {
            list.push((start..start + 2 * open.len() + end, i + 1));
        }
    }
    let (message, help, span) = match (singles.as_slice(), arrays.as_slice()) {
        ([(single, _), ..], [(_, line), ..]) => (
            format!(
                "`[{key}]` is a single table, but `{key}` is an array of tables: `[[{key}]]` is on line {line}"
            ),
            format!("items are arrays of tables: write `[[{key}]]` here too"),
            single.clone(),
        ),
        ([(_, line), (second, _), ..], []) => (
            format!("table `[{key}]` is declared twice: it is already declared on line {line}"),
            format!("merge the two `[{key}]` tables into one"),
            second.clone(),
        ),
        _ => (
            format!("duplicate key `{key}`"),
            "a key is set once in its table: remove one of them".to_string(),
            span,
        ),
    };
    Diagnostic {
        span,
        message,
        help: Some(help),
    }
}

/// For "unknown key `sise`, expected one of `name`, `size`, ...": the closest expected key.
fn suggest_key(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown key ")?;
    let mut quoted = rest.split('`').skip(1).step_by(2);
    let unknown = quoted.next()?;
    crate::diagnostics::closest(unknown, quoted).map(|k| format!("did you mean `{k}`?"))
}

/// Makes toml's and serde's messages read like ours: lowercase, one line, keys in
/// backticks, the schema's words (integer, array, table) instead of Rust's.
fn describe_toml_error(message: &str) -> String {
    let message = message.trim().replace('\n', " ");
    let message = if let Some(rest) = message.strip_prefix("unknown field") {
        format!("unknown key{rest}")
    } else if let Some(rest) = message.strip_prefix("missing field") {
        format!("missing key{rest}")
    } else if message.starts_with("data did not match any variant of untagged enum RawValue") {
        "expected an integer, or a string holding an integer expression".to_string()
    } else if message.starts_with("data did not match any variant of untagged enum RawParties") {
        "expected a party's name, or an array of party names".to_string()
    } else if let Some(rest) = message.strip_prefix("invalid type: ") {
        match rest.rsplit_once(", expected ") {
            Some((found, _)) if found.ends_with(" as i128") => {
                let literal = found.trim_end_matches(" as i128");
                let literal = literal.strip_prefix("integer ").unwrap_or(literal);
                format!(
                    "the integer {literal} does not fit a TOML integer (64-bit signed); \
                     write it as a string, such as \"0xFFFF_FFFF_FFFF_FFFF\""
                )
            }
            Some((found, expected)) => {
                let words = |t: &str| match t {
                    "i64" | "u64" | "i32" | "u32" => "an integer".to_string(),
                    "a sequence" => "an array".to_string(),
                    "map" | "a map" => "a table".to_string(),
                    "sequence" => "an array".to_string(),
                    other => other.to_string(),
                };
                format!("expected {}, found {}", words(expected), words(found))
            }
            None => message,
        }
    } else {
        message
    };
    let mut chars = message.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => message,
    }
}

/// Names the item (and field or value) whose table holds `offset`, such as
/// "struct `client_entry`, field `waiting`", by reading the document's spans.
fn enclosing_item(src: &str, offset: usize) -> Option<String> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(src).ok()?.into_inner();
    let name_of = |t: &DeTable| -> Option<String> {
        t.iter()
            .find(|(k, _)| k.get_ref().as_ref() == "name")
            .and_then(|(_, v)| match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                _ => None,
            })
    };
    let contains = |span: &Span| span.start <= offset && offset < span.end.max(span.start + 1);
    for (key, value) in doc.iter() {
        let kind = match key.get_ref().as_ref() {
            "const" => "constant",
            "enum" => "enum",
            "flags" => "flags",
            "struct" => "struct",
            "seqlock" => "seqlock",
            "ring" => "ring",
            "layout" => "layout",
            "file" => "file",
            "abi" => {
                // The `[abi]` header's span covers only the header, so look at its keys too.
                let within = contains(&value.span())
                    || matches!(value.get_ref(), DeValue::Table(t)
                        if t.iter().any(|(k, v)| contains(&k.span()) || contains(&v.span())));
                if within {
                    return Some("[abi]".to_string());
                }
                continue;
            }
            _ => continue,
        };
        let DeValue::Array(items) = value.get_ref() else {
            continue;
        };
        for item in items.iter() {
            let DeValue::Table(table) = item.get_ref() else {
                continue;
            };
            let within_item = contains(&item.span())
                || table
                    .iter()
                    .any(|(k, v)| contains(&k.span()) || contains(&v.span()));
            if !within_item {
                continue;
            }
            let name = name_of(table).unwrap_or_else(|| "?".into());
            let mut what = format!("{kind} `{name}`");
            for (k, v) in table.iter() {
                let member = match k.get_ref().as_ref() {
                    "fields" => "field",
                    "trailer" => "trailer part",
                    "rows" => "row",
                    "records" => "record",
                    "values" => "value",
                    _ => continue,
                };
                let DeValue::Array(members) = v.get_ref() else {
                    continue;
                };
                for m in members.iter() {
                    if let (true, DeValue::Table(mt)) = (contains(&m.span()), m.get_ref()) {
                        let mname = name_of(mt).unwrap_or_else(|| "?".into());
                        what.push_str(&format!(", {member} `{mname}`"));
                    }
                }
            }
            return Some(what);
        }
    }
    None
}
