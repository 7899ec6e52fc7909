//! The bridge's markdown read back (by `markdown_blocks`, pulldown-cmark) as the plain-text
//! reference's items plus what only the markdown has (anchors, Since cells, byte maps, the
//! Protocols, Layouts, Handshakes and Files sections).

use std::collections::BTreeMap;

use abi_codegen::Schema;
use abi_codegen::testing::language_backend::markdown::render_markdown;

use super::markdown_blocks::parse_blocks;
pub use super::markdown_blocks::{Block, Inline};
use super::reference::{RefConstant, RefEnum, RefField, RefStruct, RefValue, Reference};

pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

pub fn load(path: &str) -> (Schema, String) {
    let full = format!("{ROOT}/{path}");
    let src = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {full}: {e}"));
    let schema =
        abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render(path, &src)));
    (schema, src)
}

pub fn bridge_markdown() -> String {
    let (schema, _) = load("schema.toml");
    render_markdown(&schema, "schema.toml").expect("the markdown renders")
}

// ---------------------------------------------------------------------------------------
// The markdown read back as the reference's structs, plus what only the markdown has.

/// What the markdown says beyond the reference, by item.
#[derive(Debug, Default)]
pub struct Extras {
    /// Item name → the id of its anchor.
    pub anchors: BTreeMap<String, String>,
    /// `struct.field` → whether the Field cell marks it as padding.
    pub padding: BTreeMap<String, bool>,
    /// `item` or `item.member` → the Since cell or note.
    pub since: BTreeMap<String, String>,
    /// Struct → its byte map lines.
    pub byte_maps: BTreeMap<String, Vec<String>>,
    /// Constant → the expression shown beside its value.
    pub exprs: BTreeMap<String, String>,
    /// `struct.field` → the Access cell, for shared structs.
    pub access: BTreeMap<String, String>,
    /// The Protocols section, block by block.
    pub protocols: Vec<Block>,
    /// The Version handshakes, Layouts and Files sections, block by block.
    pub attach: BTreeMap<String, Vec<Block>>,
    pub first_line: String,
}

pub fn column(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h == name)
}

pub fn expect_header(header: &[String], names: &[&str], optional: &[&str]) {
    let without: Vec<&str> = header
        .iter()
        .map(String::as_str)
        .filter(|h| !optional.contains(h))
        .collect();
    assert_eq!(without, names, "table header {header:?}");
}

/// `name (a, b)` → (`name`, `a`, `b`).
pub fn split_heading(text: &str) -> (String, String, String) {
    let (name, rest) = text
        .split_once(" (")
        .unwrap_or_else(|| panic!("heading `{text}`"));
    let inner = rest
        .strip_suffix(')')
        .unwrap_or_else(|| panic!("heading `{text}`"));
    let (a, b) = inner
        .split_once(", ")
        .unwrap_or_else(|| panic!("heading `{text}`"));
    (name.into(), a.into(), b.into())
}

pub fn parse_markdown(md: &str) -> (Reference, Extras) {
    let blocks = parse_blocks(md);
    let mut extras = Extras::default();
    let mut reference = Reference {
        title: String::new(),
        opening: String::new(),
        constants: Vec::new(),
        enums: Vec::new(),
        structs: Vec::new(),
    };
    let mut it = blocks.into_iter().peekable();
    match it.next() {
        Some(Block::Comment { raw }) => extras.first_line = raw,
        other => panic!("the markdown starts with {other:?}, not a comment"),
    }
    match it.next() {
        Some(Block::Heading { level: 1, inline }) => reference.title = inline.text,
        other => panic!("expected the title, found {other:?}"),
    }
    match it.next() {
        Some(Block::Paragraph { inline }) => reference.opening = inline.text,
        other => panic!("expected the opening paragraph, found {other:?}"),
    }

    let mut section = String::new();
    // The item whose blocks come next: (kind, index into its list).
    let mut item: Option<(&str, usize)> = None;
    while let Some(block) = it.next() {
        match block {
            Block::Heading { level: 2, inline } if inline.text == "Protocols" => {
                // The last section: read on its own.
                extras.protocols = it.by_ref().collect();
            }
            Block::Heading { level: 2, inline }
                if matches!(
                    inline.text.as_str(),
                    "Version handshakes" | "Layouts" | "Files"
                ) =>
            {
                // Read on their own, up to the next section.
                let mut blocks = Vec::new();
                while let Some(b) = it.next_if(|b| !matches!(b, Block::Heading { level: 2, .. })) {
                    blocks.push(b);
                }
                extras.attach.insert(inline.text, blocks);
            }
            Block::Heading { level: 2, inline } => {
                section = inline.text;
                item = None;
            }
            Block::Heading { level: 3, inline } => {
                let id = inline
                    .anchor
                    .unwrap_or_else(|| panic!("heading `{}` has no anchor", inline.raw));
                let (name, a, b) = split_heading(&inline.text);
                extras.anchors.insert(name.clone(), id);
                match section.as_str() {
                    "Enums and flags" => {
                        reference.enums.push(RefEnum {
                            name,
                            kind: a,
                            repr: b,
                            doc: String::new(),
                            values: Vec::new(),
                        });
                        item = Some(("enum", reference.enums.len() - 1));
                    }
                    "Structs" => {
                        let size = a
                            .strip_suffix(" bytes")
                            .and_then(|s| s.parse().ok())
                            .unwrap_or_else(|| panic!("struct heading size `{a}`"));
                        let align = b
                            .strip_prefix("align ")
                            .and_then(|s| s.parse().ok())
                            .unwrap_or_else(|| panic!("struct heading align `{b}`"));
                        reference.structs.push(RefStruct {
                            name,
                            size,
                            align,
                            doc: String::new(),
                            fields: Vec::new(),
                        });
                        item = Some(("struct", reference.structs.len() - 1));
                    }
                    other => panic!("an item heading in section `{other}`"),
                }
            }
            Block::Heading { level, inline } => {
                panic!("unexpected heading level {level}: {}", inline.raw)
            }
            Block::List { items } => {
                assert_eq!(
                    section, "Contents",
                    "a list outside the contents: {items:?}"
                )
            }
            Block::Comment { raw } => panic!("unexpected comment {raw}"),
            Block::Paragraph { inline } => {
                let Some((kind, index)) = item else {
                    // The Structs section explains its byte maps before the first struct.
                    assert_eq!(
                        section, "Structs",
                        "a paragraph outside any item: {}",
                        inline.raw
                    );
                    continue;
                };
                let name = match kind {
                    "enum" => reference.enums[index].name.clone(),
                    _ => reference.structs[index].name.clone(),
                };
                if inline.raw.starts_with('*') {
                    // The notes line, emphasized: since and extensible. Docs escape their stars.
                    assert!(!inline.emphasis.is_empty(), "`{}`", inline.raw);
                    let note = inline.text;
                    if let Some(rest) = note.strip_prefix("Since ABI ") {
                        let version = rest.split_once('.').map(|(maj, r)| {
                            let minor: String =
                                r.chars().take_while(|c| c.is_ascii_digit()).collect();
                            format!("{maj}.{minor}")
                        });
                        extras.since.insert(name, version.unwrap_or_default());
                    }
                    continue;
                }
                let doc = match kind {
                    "enum" => &mut reference.enums[index].doc,
                    _ => &mut reference.structs[index].doc,
                };
                assert!(doc.is_empty(), "`{name}` has two doc paragraphs");
                *doc = inline.text;
            }
            Block::Code { lines } => {
                let Some(("struct", index)) = item else {
                    panic!("a code block outside a struct: {lines:?}");
                };
                let name = reference.structs[index].name.clone();
                assert!(
                    extras.byte_maps.insert(name.clone(), lines).is_none(),
                    "`{name}` has two byte maps"
                );
            }
            Block::Table { header, rows } => match (section.as_str(), item) {
                ("Constants", None) => {
                    expect_header(&header, &["Name", "Value", "Meaning"], &["Since"]);
                    let since = column(&header, "Since");
                    for row in rows {
                        let id = row[0]
                            .anchor
                            .clone()
                            .unwrap_or_else(|| panic!("constant row {row:?} has no anchor"));
                        let name = row[0].text.clone();
                        let value = row[1].text.clone();
                        let value = match value.split_once(" = ") {
                            Some((v, expr)) => {
                                extras.exprs.insert(name.clone(), expr.to_string());
                                v.to_string()
                            }
                            None => value,
                        };
                        if let Some(s) =
                            since.map(|c| row[c].text.clone()).filter(|s| !s.is_empty())
                        {
                            extras.since.insert(name.clone(), s);
                        }
                        extras.anchors.insert(name.clone(), id);
                        reference.constants.push(RefConstant {
                            name,
                            value,
                            meaning: row[header.len() - 1].text.clone(),
                        });
                    }
                }
                ("Enums and flags", Some(("enum", index))) => {
                    expect_header(&header, &["Name", "Value", "Meaning"], &["Since"]);
                    let since = column(&header, "Since");
                    let e = &mut reference.enums[index];
                    assert!(e.values.is_empty(), "`{}` has two tables", e.name);
                    for row in rows {
                        let name = row[0].text.clone();
                        if let Some(s) =
                            since.map(|c| row[c].text.clone()).filter(|s| !s.is_empty())
                        {
                            extras.since.insert(format!("{}.{name}", e.name), s);
                        }
                        e.values.push(RefValue {
                            name,
                            value: row[1].text.clone(),
                            meaning: row[header.len() - 1].text.clone(),
                        });
                    }
                }
                ("Structs", Some(("struct", index))) => {
                    expect_header(
                        &header,
                        &["Offset", "Size", "Field", "Type", "Meaning"],
                        &["Since", "Access"],
                    );
                    let since = column(&header, "Since");
                    let access = column(&header, "Access");
                    let s = &mut reference.structs[index];
                    assert!(s.fields.is_empty(), "`{}` has two tables", s.name);
                    for row in rows {
                        let offset = row[0].text.clone();
                        let digits = offset
                            .strip_prefix("0x")
                            .filter(|d| {
                                d.len() >= 4
                                    && d.bytes()
                                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                            })
                            .unwrap_or_else(|| panic!("`{}`: offset `{offset}`", s.name));
                        // ` *(padding)*` after the name: emphasized, as written.
                        let padding = row[2].raw.ends_with(" *(padding)*")
                            && row[2].emphasis == ["(padding)"];
                        let name = match row[2].text.strip_suffix(" (padding)") {
                            Some(name) if padding => name.to_string(),
                            _ => row[2].text.clone(),
                        };
                        let key = format!("{}.{name}", s.name);
                        extras.padding.insert(key.clone(), padding);
                        if let Some(c) = access {
                            extras.access.insert(key.clone(), row[c].text.clone());
                        }
                        if let Some(v) =
                            since.map(|c| row[c].text.clone()).filter(|v| !v.is_empty())
                        {
                            extras.since.insert(key, v);
                        }
                        s.fields.push(RefField {
                            offset: u64::from_str_radix(digits, 16).unwrap(),
                            name,
                            ty: row[3].text.clone(),
                            meaning: row[header.len() - 1].text.clone(),
                        });
                    }
                }
                (section, item) => panic!("a table in section `{section}` at {item:?}"),
            },
        }
    }
    (reference, extras)
}

// ---------------------------------------------------------------------------------------

pub fn assert_same_items<T: std::fmt::Debug + PartialEq>(
    what: &str,
    markdown: &[T],
    reference: &[T],
    name: impl Fn(&T) -> &str,
) {
    let md_names: Vec<&str> = markdown.iter().map(&name).collect();
    let ref_names: Vec<&str> = reference.iter().map(&name).collect();
    assert_eq!(
        md_names, ref_names,
        "{what}: names and order (markdown, then reference)"
    );
    for (m, r) in markdown.iter().zip(reference) {
        assert_eq!(m, r, "{what} `{}` (markdown, then reference)", name(r));
    }
}

/// The markdown of `blocks` as written, a line per paragraph, heading, list item, table row
/// and code line: for sentences that quote names in code spans.
pub fn text_of(blocks: &[Block]) -> String {
    let mut out = Vec::new();
    for b in blocks {
        match b {
            Block::Heading { inline, .. } | Block::Paragraph { inline } => {
                out.push(inline.raw.clone())
            }
            Block::List { items } => out.extend(items.iter().map(|i| i.raw.clone())),
            Block::Table { header, rows } => {
                out.push(header.join(" | "));
                for row in rows {
                    let cells: Vec<&str> = row.iter().map(|c| c.raw.as_str()).collect();
                    out.push(cells.join(" | "));
                }
            }
            Block::Code { lines } => out.extend(lines.iter().cloned()),
            Block::Comment { raw } => out.push(raw.clone()),
        }
    }
    out.join("\n")
}

/// The blocks of one item (a level-3 heading) of an attach section: heading text → blocks.
pub fn items_of(blocks: &[Block]) -> Vec<(String, Vec<Block>)> {
    let mut items: Vec<(String, Vec<Block>)> = Vec::new();
    for b in blocks {
        match b {
            Block::Heading { level: 3, inline } => items.push((inline.text.clone(), Vec::new())),
            Block::Heading { level, inline } => panic!("heading level {level}: {}", inline.raw),
            other => {
                if let Some((_, item)) = items.last_mut() {
                    item.push(other.clone());
                }
            }
        }
    }
    items
}

pub fn only_table(blocks: &[Block]) -> (&[String], &[Vec<Inline>]) {
    let tables: Vec<_> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table { header, rows } => Some((header.as_slice(), rows.as_slice())),
            _ => None,
        })
        .collect();
    assert_eq!(tables.len(), 1, "{blocks:?}");
    tables[0]
}

pub fn paragraphs(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph { inline } => Some(inline.text.clone()),
            Block::List { items } => Some(
                items
                    .iter()
                    .map(|l| l.text.clone())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            _ => None,
        })
        .collect()
}

pub fn reference_const(reference: &Reference, name: &str) -> u64 {
    let c = reference
        .constants
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no constant {name} in the reference"));
    match c.value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).unwrap(),
        None => c.value.parse().unwrap(),
    }
}
