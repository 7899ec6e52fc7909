//! The raw schema: `schema.toml` read with serde and toml, every value kept with its span.
//! Nothing here checks meaning; that is `lower`'s job.
//!
//! This module has the schema's items and their fields and `parse_schema`; shared.rs has the
//! layout tables, seqlocks and rings, file.rs the `[[file]]` formats, value.rs the
//! values several tables share (an integer or expression, one party or several), errors.rs the wording
//! of toml's errors, toml11.rs the TOML 1.1 syntax check, and by_item.rs the reading of a
//! plain schema one top-level table at a time, which bounds the memory a large one takes.

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostics::{Diagnostic, SchemaErrors};

mod by_item;
mod directory;
mod errors;
mod event;
mod file;
mod protocol;
mod shared;
mod toml11;
mod value;

pub use directory::RawDirectory;
use errors::{
    describe_data_error, describe_toml_error, duplicate_key, enclosing_item, missing_abi,
};
pub use event::{RawEvent, RawEventStats};
pub use file::{RawEncoding, RawFile, RawFileRecord, RawSeek};
pub use protocol::{RawBroadcast, RawEntry, RawExchange, RawMailbox, RawQueue, RawSession};
pub use shared::{RawLayout, RawRing, RawRow, RawSeqlock};
pub use value::{RawParties, RawValue};

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
    #[serde(default, rename = "queue")]
    pub queues: Vec<Spanned<RawQueue>>,
    #[serde(default, rename = "broadcast")]
    pub broadcasts: Vec<Spanned<RawBroadcast>>,
    #[serde(default, rename = "mailbox")]
    pub mailboxes: Vec<Spanned<RawMailbox>>,
    #[serde(default, rename = "exchange")]
    pub exchanges: Vec<Spanned<RawExchange>>,
    #[serde(default, rename = "session")]
    pub sessions: Vec<Spanned<RawSession>>,
    #[serde(default, rename = "directory")]
    pub directories: Vec<Spanned<RawDirectory>>,
    #[serde(default, rename = "event")]
    pub events: Vec<Spanned<RawEvent>>,
    #[serde(default, rename = "layout")]
    pub layouts: Vec<Spanned<RawLayout>>,
    #[serde(default, rename = "file")]
    pub files: Vec<Spanned<RawFile>>,
    #[serde(default, rename = "template")]
    pub templates: Vec<Spanned<RawTemplate>>,
}

impl RawSchema {
    /// `abi` and no item yet.
    fn with_abi(abi: Spanned<RawAbi>) -> Self {
        RawSchema {
            abi,
            consts: Vec::new(),
            enums: Vec::new(),
            flags: Vec::new(),
            structs: Vec::new(),
            seqlocks: Vec::new(),
            rings: Vec::new(),
            queues: Vec::new(),
            broadcasts: Vec::new(),
            mailboxes: Vec::new(),
            exchanges: Vec::new(),
            sessions: Vec::new(),
            directories: Vec::new(),
            events: Vec::new(),
            layouts: Vec::new(),
            files: Vec::new(),
            templates: Vec::new(),
        }
    }
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

// Parallel to `Abi::structs`: lowering keeps the schema's order.
crate::ir::id::index_by_struct!(Spanned<RawStruct>);

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
    /// The field that holds the writer's state (start-up, running, ...): attach reads it
    /// first, with acquire, and goes on only when it holds `running`.
    #[serde(default)]
    pub state: Option<Spanned<String>>,
    /// The value of `state` (an enum value's name, or an integer constant's) that means the
    /// tables are written and published.
    #[serde(default)]
    pub running: Option<Spanned<String>>,
    /// The field the writer changes each time it rewrites the tables (a reload).
    #[serde(default)]
    pub generation: Option<Spanned<String>>,
    /// Who produced the record: its process id (an unsigned integer of at least 4 bytes).
    #[serde(default)]
    pub pid: Option<Spanned<String>>,
    /// Its version string (a `char[N]`).
    #[serde(default)]
    pub producer_version: Option<Spanned<String>>,
    /// A monotonic clock reading at production (`u64`, ns).
    #[serde(default)]
    pub clock_mono_ns: Option<Spanned<String>>,
    /// Unix time at that reading (`i64` or `u64`, ns).
    #[serde(default)]
    pub clock_unix_ns: Option<Spanned<String>>,
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
    /// The number of the schema this field holds as the writer built it (`geometry =
    /// "ring_slots"`): a constant expression, or `*` for an area the writer sizes.
    #[serde(default)]
    pub geometry: Option<Spanned<String>>,
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

/// The schema read item by item (`by_item::items`), or `None` when it is not of the plain
/// shape, an item does not read, or its key is not the schema's: `[abi]` once, then each
/// `[[kind]]` onto the end of its list.
fn parse_by_item(src: &str) -> Option<RawSchema> {
    let mut items = by_item::items(src)?;
    // `[abi]` once, wherever it stands, and no other plain table.
    let tables: Vec<usize> = (items.iter().enumerate())
        .filter_map(|(i, item)| (!item.array).then_some(i))
        .collect();
    let [at] = tables[..] else {
        return None;
    };
    let abi = items.remove(at);
    if abi.key != "abi" {
        return None;
    }
    let mut raw = RawSchema::with_abi(by_item::deserialize(abi.table)?);
    for item in items {
        let t = item.table;
        let pushed = match item.key {
            "const" => push(&mut raw.consts, t),
            "enum" => push(&mut raw.enums, t),
            "flags" => push(&mut raw.flags, t),
            "struct" => push(&mut raw.structs, t),
            "seqlock" => push(&mut raw.seqlocks, t),
            "ring" => push(&mut raw.rings, t),
            "queue" => push(&mut raw.queues, t),
            "broadcast" => push(&mut raw.broadcasts, t),
            "mailbox" => push(&mut raw.mailboxes, t),
            "exchange" => push(&mut raw.exchanges, t),
            "session" => push(&mut raw.sessions, t),
            "directory" => push(&mut raw.directories, t),
            "event" => push(&mut raw.events, t),
            "layout" => push(&mut raw.layouts, t),
            "file" => push(&mut raw.files, t),
            "template" => push(&mut raw.templates, t),
            _ => None,
        };
        pushed?;
    }
    Some(raw)
}

/// Deserializes one `[[kind]]` table onto the end of its list.
fn push<'de, T: serde::Deserialize<'de>>(
    list: &mut Vec<Spanned<T>>,
    table: Spanned<toml::de::DeValue<'de>>,
) -> Option<()> {
    list.push(by_item::deserialize(table)?);
    Some(())
}

/// Reads the schema text. A TOML syntax error, a missing or unknown key or a value of the
/// wrong kind is reported with its position and the item it belongs to. The schema is
/// TOML 1.0, which Python's tomllib reads: the syntax only TOML 1.1 has is an error too.
pub fn parse_schema(src: &str) -> Result<RawSchema, SchemaErrors> {
    // A plain schema that reads without error is read one item at a time (by_item.rs):
    // the whole document's tree is what a large schema's peak memory was.
    if let Some(raw) = parse_by_item(src) {
        return Ok(raw);
    }
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
        // A syntax slip inside an inline table shows on a later line: name the table that
        // does not close on its line, and how to close it.
        if let Some(d) = errors::unclosed_inline_table(src, span.start) {
            return SchemaErrors { list: vec![d] };
        }
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

#[cfg(test)]
mod by_item_tests {
    use super::parse_by_item;

    /// Every schema under tests/fixtures, and the bridge's.
    fn schemas() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut dirs = vec![root.join("tests/fixtures")];
        let mut files = vec![root.join("schema.toml")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("reads the fixtures") {
                let path = entry.expect("lists the fixtures").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "toml") {
                    files.push(path);
                }
            }
        }
        files.sort();
        (files.into_iter())
            .filter_map(|path| Some((path.clone(), std::fs::read_to_string(path).ok()?)))
            .collect()
    }

    /// Read item by item, a schema gives what the whole document gives, values and spans
    /// (the `Debug` text shows both); a document that does not read gives `None`.
    #[test]
    fn items_read_alone_are_the_whole_document() {
        let (mut read, mut fell_back) = (0, 0);
        for (path, src) in schemas() {
            let whole = toml::from_str::<super::RawSchema>(&src);
            match parse_by_item(&src) {
                Some(raw) => {
                    let whole = whole.unwrap_or_else(|e| {
                        panic!("{}: read by item, but the whole fails: {e}", path.display())
                    });
                    assert_eq!(
                        format!("{raw:#?}"),
                        format!("{whole:#?}"),
                        "{}",
                        path.display()
                    );
                    read += 1;
                }
                None => fell_back += 1,
            }
        }
        assert!(read > 100, "{read} read by item, {fell_back} not");
        // The bridge's schema, which has every kind of item, reads by item.
        let bridge = include_str!("../../schema.toml");
        assert!(parse_by_item(bridge).is_some());
    }

    /// Shapes that are left to the whole document.
    #[test]
    fn other_shapes_are_left_to_the_whole_document() {
        let abi =
            "[abi]\nname = \"a\"\nversion = \"1.0\"\nc_prefix = \"a\"\nbyte_order = \"little\"\n";
        assert!(parse_by_item(abi).is_some());
        for src in [
            format!("x = 1\n{abi}"),
            format!("{abi}[abi]\n"),
            format!("{abi}[abi.more]\nx = 1\n"),
            format!("{abi}[[struct]]\nname = \"s\"\nfields = []\n[struct.version]\n"),
            format!("{abi}[[\"struct\"]]\nname = \"s\"\nfields = []\n"),
            format!("{abi}[[unknown]]\n"),
            format!("{abi}[[const]]\nname = \"c\"\nvalue = 1\nvalue = 2\n"),
            format!("{abi}[[const]]\nname = \"c\"\nvalue = {{ a = 1, }}\n"),
            "[[const]]\nname = \"c\"\nvalue = 1\n".to_string(),
        ] {
            assert!(parse_by_item(&src).is_none(), "{src}");
        }
        // A `[` first on a line inside an array is not a header.
        let src = format!("{abi}[[struct]]\nname = \"s\"\nfields = [\n[\n]]\n");
        assert!(parse_by_item(&src).is_none() && toml::from_str::<super::RawSchema>(&src).is_err());
    }
}
