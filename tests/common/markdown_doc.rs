//! Reading the markdown target back: a small parser of the GitHub-flavoured markdown it
//! writes (headings, paragraphs, tables, lists, code), and the bridge's markdown read back as
//! the plain-text reference's items plus what only the markdown has (anchors, Since cells,
//! byte maps, the Protocols, Layouts, Handshakes and Files sections).

use std::collections::BTreeMap;

use abi_codegen::Schema;
use abi_codegen::language_backend::markdown::render_markdown;

use super::markdown_table::raw_cells;
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
// A small parser of the markdown the target writes: enough of GitHub-flavoured markdown to
// read its headings, paragraphs, tables and code blocks back as text.

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Heading {
        level: usize,
        raw: String,
    },
    Paragraph {
        raw: String,
    },
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    Code {
        lines: Vec<String>,
    },
    List {
        raw: Vec<String>,
    },
    Comment {
        raw: String,
    },
}

/// A line of an ordered list: `12. text`.
pub fn numbered(line: &str) -> bool {
    line.split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

pub fn parse_blocks(md: &str) -> Vec<Block> {
    let lines: Vec<&str> = md.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.is_empty() {
            i += 1;
        } else if line.starts_with("<!--") {
            assert!(line.ends_with("-->"), "line {}: unclosed comment", i + 1);
            blocks.push(Block::Comment { raw: line.into() });
            i += 1;
        } else if line.starts_with('#') {
            let level = line.chars().take_while(|c| *c == '#').count();
            let raw = line[level..]
                .strip_prefix(' ')
                .unwrap_or_else(|| panic!("line {}: `#` heading without a space", i + 1));
            blocks.push(Block::Heading {
                level,
                raw: raw.into(),
            });
            i += 1;
        } else if let Some(lang) = line.strip_prefix("```") {
            assert_eq!(lang, "text", "line {}: code block language", i + 1);
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == "```")
                .unwrap_or_else(|| panic!("line {}: unclosed code block", i + 1));
            blocks.push(Block::Code {
                lines: lines[i + 1..end].iter().map(|l| l.to_string()).collect(),
            });
            i = end + 1;
        } else if line.starts_with('|') {
            let end = (i..lines.len())
                .find(|&j| !lines[j].starts_with('|'))
                .unwrap_or(lines.len());
            assert!(
                end - i >= 2,
                "line {}: a table needs a delimiter row",
                i + 1
            );
            let header = split_row(lines[i]);
            let delimiter = split_row(lines[i + 1]);
            assert_eq!(
                delimiter.len(),
                header.len(),
                "line {}: delimiter row",
                i + 2
            );
            for d in &delimiter {
                assert!(
                    d == "---" || d == "---:",
                    "line {}: delimiter cell `{d}`",
                    i + 2
                );
            }
            let rows: Vec<Vec<String>> = lines[i + 2..end].iter().map(|l| split_row(l)).collect();
            for (k, row) in rows.iter().enumerate() {
                assert_eq!(
                    row.len(),
                    header.len(),
                    "line {}: {} cells under a header of {}",
                    i + 3 + k,
                    row.len(),
                    header.len()
                );
            }
            blocks.push(Block::Table {
                header: header.iter().map(|h| inline_text(h)).collect(),
                rows,
            });
            i = end;
        } else if line.starts_with("- ") || numbered(line) {
            let end = (i..lines.len())
                .find(|&j| {
                    !(lines[j].starts_with("- ")
                        || lines[j].starts_with("  - ")
                        || numbered(lines[j]))
                })
                .unwrap_or(lines.len());
            blocks.push(Block::List {
                raw: lines[i..end].iter().map(|l| l.to_string()).collect(),
            });
            i = end;
        } else {
            // A paragraph is one line: the target writes a doc's line breaks as `<br>`.
            let next = lines.get(i + 1).copied().unwrap_or("");
            assert!(
                next.is_empty(),
                "line {}: a paragraph continues on the next line",
                i + 1
            );
            blocks.push(Block::Paragraph { raw: line.into() });
            i += 1;
        }
    }
    blocks
}

/// A table row's raw cells, split at each `|` that no backslash escapes, with the `\|` in
/// each cell turned into `|` as GitHub does before it reads the cell's inline markdown.
pub fn split_row(line: &str) -> Vec<String> {
    let inner = line
        .strip_prefix("| ")
        .and_then(|l| l.strip_suffix(" |"))
        .unwrap_or_else(|| panic!("row `{line}` does not start with `| ` and end with ` |`"));
    raw_cells(inner)
        .into_iter()
        .map(|c| c.replace("\\|", "|"))
        .collect()
}

/// The text that inline markdown renders as: backslash escapes resolved, `<br>` as a line
/// break, anchors dropped, links as their text, code spans as their content, emphasis
/// markers dropped. Any other HTML is an error: the target escapes every `<` of a doc.
pub fn inline_text(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let rest: String = chars[i..].iter().collect();
        match c {
            '\\' if chars.get(i + 1).is_some_and(|n| n.is_ascii_punctuation()) => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '<' if rest.starts_with("<br>") => {
                out.push('\n');
                i += 4;
            }
            '<' if rest.starts_with("<a id=\"") || rest.starts_with("</a>") => {
                let end = rest.find('>').expect("a closed tag");
                i += rest[..=end].chars().count();
            }
            '<' => panic!("unexpected HTML in `{raw}`"),
            '[' => {
                let close = find_unescaped(&chars, i + 1, ']')
                    .unwrap_or_else(|| panic!("unclosed `[` in `{raw}`"));
                assert_eq!(chars.get(close + 1), Some(&'('), "a link in `{raw}`");
                let end = find_unescaped(&chars, close + 2, ')')
                    .unwrap_or_else(|| panic!("unclosed link target in `{raw}`"));
                let text: String = chars[i + 1..close].iter().collect();
                out.push_str(&inline_text(&text));
                i = end + 1;
            }
            '`' => {
                let fence = chars[i..].iter().take_while(|c| **c == '`').count();
                let open_end = i + fence;
                let mut j = open_end;
                let close = loop {
                    assert!(j < chars.len(), "unclosed code span in `{raw}`");
                    let run = chars[j..].iter().take_while(|c| **c == '`').count();
                    if run == fence {
                        break j;
                    }
                    j += run.max(1);
                };
                let mut code: String = chars[open_end..close].iter().collect();
                if code.len() >= 2 && code.starts_with(' ') && code.ends_with(' ') {
                    code = code[1..code.len() - 1].to_string();
                }
                out.push_str(&code);
                i = close + fence;
            }
            '*' => i += 1,
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

pub fn find_unescaped(chars: &[char], from: usize, target: char) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == target => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// The id of the `<a id="...">` that starts `raw`, if any.
pub fn leading_anchor(raw: &str) -> Option<&str> {
    let rest = raw.strip_prefix("<a id=\"")?;
    let (id, _) = rest.split_once("\"></a>")?;
    Some(id)
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
        Some(Block::Heading { level: 1, raw }) => reference.title = inline_text(&raw),
        other => panic!("expected the title, found {other:?}"),
    }
    match it.next() {
        Some(Block::Paragraph { raw }) => reference.opening = inline_text(&raw),
        other => panic!("expected the opening paragraph, found {other:?}"),
    }

    let mut section = String::new();
    // The item whose blocks come next: (kind, index into its list).
    let mut item: Option<(&str, usize)> = None;
    while let Some(block) = it.next() {
        match block {
            Block::Heading { level: 2, raw } if raw == "Protocols" => {
                // The last section: read on its own.
                extras.protocols = it.by_ref().collect();
            }
            Block::Heading { level: 2, raw }
                if matches!(raw.as_str(), "Version handshakes" | "Layouts" | "Files") =>
            {
                // Read on their own, up to the next section.
                let mut blocks = Vec::new();
                while let Some(b) = it.next_if(|b| !matches!(b, Block::Heading { level: 2, .. })) {
                    blocks.push(b);
                }
                extras.attach.insert(raw, blocks);
            }
            Block::Heading { level: 2, raw } => {
                section = raw;
                item = None;
            }
            Block::Heading { level: 3, raw } => {
                let id = leading_anchor(&raw)
                    .unwrap_or_else(|| panic!("heading `{raw}` has no anchor"))
                    .to_string();
                let (name, a, b) = split_heading(&inline_text(&raw));
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
            Block::Heading { level, raw } => panic!("unexpected heading level {level}: {raw}"),
            Block::List { raw } => {
                assert_eq!(section, "Contents", "a list outside the contents: {raw:?}")
            }
            Block::Comment { raw } => panic!("unexpected comment {raw}"),
            Block::Paragraph { raw } => {
                let Some((kind, index)) = item else {
                    // The Structs section explains its byte maps before the first struct.
                    assert_eq!(section, "Structs", "a paragraph outside any item: {raw}");
                    continue;
                };
                let name = match kind {
                    "enum" => reference.enums[index].name.clone(),
                    _ => reference.structs[index].name.clone(),
                };
                if raw.starts_with('*') {
                    // The notes line: since and extensible. Docs escape their stars.
                    let note = inline_text(&raw);
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
                *doc = inline_text(&raw);
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
                        let id = leading_anchor(&row[0])
                            .unwrap_or_else(|| panic!("constant row {row:?} has no anchor"))
                            .to_string();
                        let name = inline_text(&row[0]);
                        let value = inline_text(&row[1]);
                        let value = match value.split_once(" = ") {
                            Some((v, expr)) => {
                                extras.exprs.insert(name.clone(), expr.to_string());
                                v.to_string()
                            }
                            None => value,
                        };
                        if let Some(s) = since
                            .map(|c| inline_text(&row[c]))
                            .filter(|s| !s.is_empty())
                        {
                            extras.since.insert(name.clone(), s);
                        }
                        extras.anchors.insert(name.clone(), id);
                        reference.constants.push(RefConstant {
                            name,
                            value,
                            meaning: inline_text(&row[header.len() - 1]),
                        });
                    }
                }
                ("Enums and flags", Some(("enum", index))) => {
                    expect_header(&header, &["Name", "Value", "Meaning"], &["Since"]);
                    let since = column(&header, "Since");
                    let e = &mut reference.enums[index];
                    assert!(e.values.is_empty(), "`{}` has two tables", e.name);
                    for row in rows {
                        let name = inline_text(&row[0]);
                        if let Some(s) = since
                            .map(|c| inline_text(&row[c]))
                            .filter(|s| !s.is_empty())
                        {
                            extras.since.insert(format!("{}.{name}", e.name), s);
                        }
                        e.values.push(RefValue {
                            name,
                            value: inline_text(&row[1]),
                            meaning: inline_text(&row[header.len() - 1]),
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
                        let offset = inline_text(&row[0]);
                        let digits = offset
                            .strip_prefix("0x")
                            .filter(|d| {
                                d.len() >= 4
                                    && d.bytes()
                                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                            })
                            .unwrap_or_else(|| panic!("`{}`: offset `{offset}`", s.name));
                        let (field_raw, padding) = match row[2].strip_suffix(" *(padding)*") {
                            Some(f) => (f, true),
                            None => (row[2].as_str(), false),
                        };
                        let name = inline_text(field_raw);
                        let key = format!("{}.{name}", s.name);
                        extras.padding.insert(key.clone(), padding);
                        if let Some(c) = access {
                            extras.access.insert(key.clone(), inline_text(&row[c]));
                        }
                        if let Some(v) = since
                            .map(|c| inline_text(&row[c]))
                            .filter(|v| !v.is_empty())
                        {
                            extras.since.insert(key, v);
                        }
                        s.fields.push(RefField {
                            offset: u64::from_str_radix(digits, 16).unwrap(),
                            name,
                            ty: inline_text(&row[3]),
                            meaning: inline_text(&row[header.len() - 1]),
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

pub fn text_of(blocks: &[Block]) -> String {
    format!("{blocks:?}")
}

/// The blocks of one item (a level-3 heading) of an attach section: heading text → blocks.
pub fn items_of(blocks: &[Block]) -> Vec<(String, Vec<Block>)> {
    let mut items: Vec<(String, Vec<Block>)> = Vec::new();
    for b in blocks {
        match b {
            Block::Heading { level: 3, raw } => items.push((inline_text(raw), Vec::new())),
            Block::Heading { level, raw } => panic!("heading level {level}: {raw}"),
            other => {
                if let Some((_, item)) = items.last_mut() {
                    item.push(other.clone());
                }
            }
        }
    }
    items
}

pub fn only_table(blocks: &[Block]) -> (&[String], &[Vec<String>]) {
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
            Block::Paragraph { raw } => Some(inline_text(raw)),
            Block::List { raw } => Some(
                raw.iter()
                    .map(|l| inline_text(l))
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
