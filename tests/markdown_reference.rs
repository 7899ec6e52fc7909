//! The markdown target holds the whole reference: the markdown rendered from `schema.toml`
//! is parsed back (headings, paragraphs, tables, byte maps) and compared item by item with
//! the plain-text reference `tests/fixtures/bridge-abi-0.9-reference.txt`. Two small fixtures
//! under `tests/fixtures/markdown/` are snapshot tests of the whole text, one of them full of
//! doc text that markdown, HTML or the template language would take for markup.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use abi_codegen::Schema;
use abi_codegen::language_backend::markdown::render_markdown;
use common::reference::{
    RefConstant, RefEnum, RefField, RefStruct, RefValue, Reference, load_reference,
};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn load(path: &str) -> (Schema, String) {
    let full = format!("{ROOT}/{path}");
    let src = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {full}: {e}"));
    let schema =
        abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render(path, &src)));
    (schema, src)
}

fn bridge_markdown() -> String {
    let (schema, _) = load("schema.toml");
    render_markdown(&schema, "schema.toml").expect("the markdown renders")
}

// ---------------------------------------------------------------------------------------
// A small parser of the markdown the target writes: enough of GitHub-flavoured markdown to
// read its headings, paragraphs, tables and code blocks back as text.

#[derive(Debug, Clone, PartialEq)]
enum Block {
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
fn numbered(line: &str) -> bool {
    line.split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_blocks(md: &str) -> Vec<Block> {
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
fn split_row(line: &str) -> Vec<String> {
    let inner = line
        .strip_prefix("| ")
        .and_then(|l| l.strip_suffix(" |"))
        .unwrap_or_else(|| panic!("row `{line}` does not start with `| ` and end with ` |`"));
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cell.push(c);
                if let Some(n) = chars.next() {
                    cell.push(n);
                }
            }
            '|' => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    cells.push(cell);
    cells
        .into_iter()
        .map(|c| c.trim().replace("\\|", "|"))
        .collect()
}

/// The text that inline markdown renders as: backslash escapes resolved, `<br>` as a line
/// break, anchors dropped, links as their text, code spans as their content, emphasis
/// markers dropped. Any other HTML is an error: the target escapes every `<` of a doc.
fn inline_text(raw: &str) -> String {
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

fn find_unescaped(chars: &[char], from: usize, target: char) -> Option<usize> {
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
fn leading_anchor(raw: &str) -> Option<&str> {
    let rest = raw.strip_prefix("<a id=\"")?;
    let (id, _) = rest.split_once("\"></a>")?;
    Some(id)
}

// ---------------------------------------------------------------------------------------
// The markdown read back as the reference's structs, plus what only the markdown has.

/// What the markdown says beyond the reference, by item.
#[derive(Debug, Default)]
struct Extras {
    /// Item name → the id of its anchor.
    anchors: BTreeMap<String, String>,
    /// `struct.field` → whether the Field cell marks it as padding.
    padding: BTreeMap<String, bool>,
    /// `item` or `item.member` → the Since cell or note.
    since: BTreeMap<String, String>,
    /// Struct → its byte map lines.
    byte_maps: BTreeMap<String, Vec<String>>,
    /// Constant → the expression shown beside its value.
    exprs: BTreeMap<String, String>,
    /// `struct.field` → the Access cell, for shared structs.
    access: BTreeMap<String, String>,
    /// The Protocols section, block by block.
    protocols: Vec<Block>,
    /// The Version handshakes, Layouts and Files sections, block by block.
    attach: BTreeMap<String, Vec<Block>>,
    first_line: String,
}

fn column(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h == name)
}

fn expect_header(header: &[String], names: &[&str], optional: &[&str]) {
    let without: Vec<&str> = header
        .iter()
        .map(String::as_str)
        .filter(|h| !optional.contains(h))
        .collect();
    assert_eq!(without, names, "table header {header:?}");
}

/// `name (a, b)` → (`name`, `a`, `b`).
fn split_heading(text: &str) -> (String, String, String) {
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

fn parse_markdown(md: &str) -> (Reference, Extras) {
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

fn assert_same_items<T: std::fmt::Debug + PartialEq>(
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

#[test]
fn markdown_holds_every_item_of_the_reference() {
    let md = bridge_markdown();
    let (from_md, _) = parse_markdown(&md);
    let reference = load_reference();
    assert_eq!(from_md.title, reference.title);
    assert_eq!(from_md.opening, reference.opening);
    assert_same_items("constant", &from_md.constants, &reference.constants, |c| {
        &c.name
    });
    assert_same_items("enum", &from_md.enums, &reference.enums, |e| &e.name);
    assert_same_items("struct", &from_md.structs, &reference.structs, |s| &s.name);
    // The counts the reference parser's own test pins, so that nothing above was vacuous.
    assert_eq!(from_md.constants.len(), 48);
    assert_eq!(
        from_md.enums.iter().map(|e| e.values.len()).sum::<usize>(),
        207
    );
    assert_eq!(
        from_md
            .structs
            .iter()
            .map(|s| s.fields.len())
            .sum::<usize>(),
        374
    );
}

#[test]
fn markdown_starts_with_the_generated_line_and_gives_rec_footer_its_heading() {
    let md = bridge_markdown();
    assert_eq!(
        md.lines().next(),
        Some("<!-- generated from schema.toml; do not edit -->")
    );
    let (_, extras) = parse_markdown(&md);
    assert_eq!(
        extras.first_line,
        "<!-- generated from schema.toml; do not edit -->"
    );
    assert!(md.contains(
        "\n### <a id=\"struct-rec_footer\"></a>rec_footer (48 bytes, align 8)\n\n\
         The footer: chunk_count rec_chunk_entry and mark_count rec_mark follow it\n"
    ));
    assert!(md.contains(
        "| <a id=\"const-board_max_tiles\"></a>board_max_tiles | 4096 = `board_max_dim * board_max_dim` |"
    ));
    assert_eq!(md, bridge_markdown(), "the same schema gives the same text");
}

#[test]
fn padding_fields_are_marked_and_since_is_shown() {
    let (schema, _) = load("schema.toml");
    let md = render_markdown(&schema, "schema.toml").unwrap();
    let (from_md, extras) = parse_markdown(&md);
    for s in &from_md.structs {
        for f in &s.fields {
            let key = format!("{}.{}", s.name, f.name);
            assert_eq!(
                extras.padding[&key],
                f.name.starts_with('_'),
                "`{key}`: padding mark"
            );
        }
    }
    // Every `since` of the schema, and no other, shows in the markdown.
    let abi = &schema.abi;
    let mut expected = BTreeMap::new();
    let mut add = |key: String, v: &Option<abi_codegen::ir::Version>| {
        if let Some(v) = v {
            expected.insert(key, v.to_string());
        }
    };
    for c in &abi.consts {
        add(c.name.clone(), &c.since);
    }
    for e in &abi.enums {
        add(e.name.clone(), &e.since);
        for v in &e.values {
            add(format!("{}.{}", e.name, v.name), &v.since);
        }
    }
    for s in &abi.structs {
        add(s.name.clone(), &s.since);
        for f in &s.fields {
            add(format!("{}.{}", s.name, f.name), &f.since);
        }
    }
    assert!(expected.len() > 20, "the bridge schema has many `since`");
    assert_eq!(extras.since, expected);
    assert_eq!(
        extras.exprs,
        BTreeMap::from([(
            "board_max_tiles".to_string(),
            "board_max_dim * board_max_dim".to_string()
        )])
    );
}

#[test]
fn every_link_has_a_target_and_every_item_an_anchor() {
    let md = bridge_markdown();
    let (from_md, extras) = parse_markdown(&md);
    let mut targets: BTreeSet<String> = [
        "constants",
        "enums-and-flags",
        "structs",
        "version-handshakes",
        "layouts",
        "files",
        "protocols",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    for line in md.lines() {
        for (i, _) in line.match_indices("<a id=\"") {
            let id = &line[i + 7..];
            let id = &id[..id.find('"').unwrap()];
            assert!(
                targets.insert(id.to_string()),
                "anchor `{id}` is not unique"
            );
        }
    }
    let mut links = 0;
    for line in md.lines() {
        for (i, _) in line.match_indices("](#") {
            let target = &line[i + 3..];
            let target = &target[..target.find(')').unwrap()];
            assert!(
                targets.contains(target),
                "link to `#{target}` has no target: {line}"
            );
            links += 1;
        }
    }
    // Each constant, enum and struct is in the contents, and each named type and length
    // constant in a Type cell links to its section.
    let expected_anchors: BTreeMap<String, String> = from_md
        .constants
        .iter()
        .map(|c| (c.name.clone(), format!("const-{}", c.name)))
        .chain(
            from_md
                .enums
                .iter()
                .map(|e| (e.name.clone(), format!("{}-{}", e.kind, e.name))),
        )
        .chain(
            from_md
                .structs
                .iter()
                .map(|s| (s.name.clone(), format!("struct-{}", s.name))),
        )
        .collect();
    assert_eq!(extras.anchors, expected_anchors);
    for (name, id) in &expected_anchors {
        assert!(
            md.contains(&format!("  - [{name}](#{id})")),
            "`{name}` is not in the contents"
        );
    }
    assert!(md.contains(
        "| 0x0040 | 64 | regions | [region_entry](#struct-region_entry)\\[[max_regions](#const-max_regions)\\] |"
    ));
    assert!(links > 3 + 48 + 44 + 46, "only {links} links");
}

/// Expands a byte map back into one character per byte, and reads its key.
fn read_byte_map(lines: &[String]) -> (Vec<char>, BTreeMap<char, String>) {
    let blank = lines
        .iter()
        .position(String::is_empty)
        .expect("a blank line before the key");
    let mut bytes = Vec::new();
    for line in &lines[..blank] {
        let (offset, rest) = line
            .split_once("  ")
            .expect("an offset, two spaces, the row");
        let offset = usize::from_str_radix(offset.strip_prefix("0x").unwrap(), 16).unwrap();
        assert_eq!(
            offset,
            bytes.len(),
            "row `{line}` starts where the last ended"
        );
        let (row, fold) = match rest.split_once("  ×") {
            Some((row, fold)) => (row, Some(fold)),
            None => (rest, None),
        };
        let row: Vec<char> = row.chars().filter(|c| *c != ' ').collect();
        let times = match fold {
            None => 1,
            Some(fold) => {
                let (count, rest) = fold.split_once(" rows, to 0x").expect("a fold");
                let count: usize = count.parse().unwrap();
                let (last, _field) = rest.split_once(": ").expect("a fold's field");
                let last = usize::from_str_radix(last, 16).unwrap();
                assert_eq!(last + 1, offset + count * row.len(), "fold `{line}`");
                count
            }
        };
        for _ in 0..times {
            bytes.extend(&row);
        }
    }
    let mut key = BTreeMap::new();
    for line in &lines[blank + 1..] {
        for entry in line.split("  ").map(str::trim).filter(|e| !e.is_empty()) {
            let (letter, name) = entry.split_once(' ').expect("`letter name`");
            let letter = letter.chars().next().unwrap();
            assert!(
                key.insert(letter, name.to_string()).is_none(),
                "letter {letter} twice"
            );
        }
    }
    (bytes, key)
}

/// Each struct's byte map shows, for each byte, the field that the reference's offsets say
/// holds it, and padding as `.`.
#[test]
fn byte_maps_agree_with_the_reference_offsets() {
    let md = bridge_markdown();
    let (_, extras) = parse_markdown(&md);
    let reference = load_reference();
    for s in &reference.structs {
        let lines = &extras.byte_maps[&s.name];
        let (bytes, key) = read_byte_map(lines);
        assert_eq!(bytes.len() as u64, s.size, "`{}`: bytes in the map", s.name);
        for (i, f) in s.fields.iter().enumerate() {
            let end = s.fields.get(i + 1).map_or(s.size, |n| n.offset);
            for b in f.offset..end {
                let c = bytes[b as usize];
                let shown = if c == '.' {
                    "padding"
                } else {
                    key[&c].as_str()
                };
                let expected = if f.name.starts_with('_') {
                    "padding"
                } else {
                    &f.name
                };
                assert_eq!(
                    shown, expected,
                    "`{}`: byte {b:#06x} is shown as `{c}`",
                    s.name
                );
            }
        }
    }
    // The 12104-byte snapshot stays short: its arrays fold.
    assert!(extras.byte_maps["snapshot"].len() < 40);
}

#[test]
fn snapshot_of_an_ordinary_schema() {
    let (schema, _) = load("tests/fixtures/markdown/ordinary.toml");
    insta::assert_snapshot!(
        "ordinary",
        render_markdown(&schema, "ordinary.toml").unwrap()
    );
}

/// Doc text that is markup elsewhere (`|`, `*/`, `"""`, backslashes, backticks, template
/// tags, HTML, a trailing backslash, line breaks, non-ASCII) reads back exactly.
/// A small schema of another shape with a handshake and layout tables (the attach demo):
/// its version handshakes and layouts sections, whole.
#[test]
fn snapshot_of_the_attach_demo_s_handshakes_and_layouts() {
    let (schema, _) = load("tests/fixtures/attach/demo.toml");
    let md = render_markdown(&schema, "demo.toml").unwrap();
    let start = md
        .find("## Version handshakes")
        .expect("a handshakes section");
    let end = md.find("## Protocols").unwrap_or(md.len());
    insta::assert_snapshot!("attach_demo_sections", &md[start..end]);
}

#[test]
fn hostile_docs_read_back_verbatim() {
    let (schema, _) = load("tests/fixtures/markdown/hostile.toml");
    let md = render_markdown(&schema, "hostile.toml").unwrap();
    let (from_md, _) = parse_markdown(&md);
    let abi = &schema.abi;
    assert_eq!(from_md.title, abi.title);
    assert_eq!(
        from_md.opening,
        format!("ABI version {}. {}", abi.version, abi.doc)
    );
    for (m, c) in from_md.constants.iter().zip(&abi.consts) {
        assert_eq!(m.meaning, c.doc);
    }
    let quirk = &from_md.enums[0];
    assert_eq!(quirk.doc, abi.enums[0].doc);
    for (m, v) in quirk.values.iter().zip(&abi.enums[0].values) {
        assert_eq!(m.meaning, v.doc, "value `{}`", v.name);
    }
    assert_eq!(quirk.values.len(), 7);
    let s = &from_md.structs[0];
    assert_eq!(s.doc, abi.structs[0].doc);
    assert!(s.doc.contains('\n'), "the struct doc has line breaks");
    for (m, f) in s.fields.iter().zip(&abi.structs[0].fields) {
        assert_eq!(m.meaning, f.doc, "field `{}`", f.name);
    }
    insta::assert_snapshot!("hostile", md);
}

/// The Access column of each shared struct says what the reference's sentences say about
/// the field: "Clients bind by compare-and-swap of the four bytes as one u32", "seq is odd
/// while the client writes", and so on. Structs outside shared memory have no such column.
#[test]
fn the_access_column_states_the_reference_protocols() {
    let (_, extras) = parse_markdown(&bridge_markdown());
    let expected = [
        ("bridge_header.snapshot_seq", "atomic (host)"),
        (
            "bridge_header.pad_owner",
            "cas, one u32 word (host and client)",
        ),
        ("bridge_header.host_state", "atomic (host)"),
        ("bridge_header.magic", "plain (host)"),
        ("client_entry.state", "cas (host and client)"),
        ("client_entry.heartbeat_ns", "atomic (client)"),
        ("client_entry.waiting", "atomic (client)"),
        ("pad_input.seq", "atomic (client)"),
        ("pad_input.lx", "seqlock pad_input (client)"),
        ("ring_slot_header.seq", "atomic (host)"),
        ("ring_slot_header.tick", "seqlock ring_slot (host)"),
        ("params_header.defs_seq", "atomic (client)"),
        ("params_header.def_count", "seqlock param_defs (client)"),
        ("params_header.values_seq", "atomic (host)"),
        ("params_header.changes", "atomic (host)"),
        ("stats_header.seq", "atomic (client)"),
        ("stats_header.count", "seqlock stats (client)"),
        ("mailbox_header.request_seq", "atomic (client)"),
        ("mailbox_header.response_seq", "atomic (host)"),
        ("log_ring_header.write_pos", "atomic (host)"),
        ("log_queue_header.write_pos", "atomic (client)"),
        ("log_queue_header.read_pos", "atomic (host)"),
        ("draw_header.state", "cas (host and client)"),
        ("directory_entry.state", "cas (host)"),
        ("snapshot.event_total", "atomic (host)"),
    ];
    for (field, access) in expected {
        assert_eq!(
            extras.access.get(field).map(String::as_str),
            Some(access),
            "the Access cell of {field}"
        );
    }
    assert_eq!(
        extras.access.get("pad_input._pad28").map(String::as_str),
        Some("")
    );
    for unshared in [
        "rec_file_header.magic",
        "rec_chunk_header.magic",
        "log_entry.size",
    ] {
        assert!(
            !extras.access.contains_key(unshared),
            "{unshared} is not in shared memory, yet has an Access cell"
        );
    }
}

fn text_of(blocks: &[Block]) -> String {
    format!("{blocks:?}")
}

/// The Protocols section names every seqlock, ring, claim and update of schema.toml, each
/// with the steps of its sides.
#[test]
fn the_protocols_section_states_each_side_s_steps() {
    let (_, extras) = parse_markdown(&bridge_markdown());
    let mut headings = Vec::new();
    let mut sides = Vec::new();
    for block in &extras.protocols {
        match block {
            Block::Heading { level: 3, raw } => headings.push(inline_text(raw)),
            Block::Heading { level, raw } => panic!("heading level {level} in Protocols: {raw}"),
            Block::Paragraph { raw } if raw.ends_with(':') => {
                sides.push((headings.len(), inline_text(raw)))
            }
            _ => {}
        }
    }
    let expected = [
        "seqlock ring_slot",
        "seqlock pad_input",
        "seqlock param_defs",
        "seqlock param_values",
        "seqlock stats",
        "ring snapshot_ring",
        "ring events",
        "claim client_entry.state",
        "claim bridge_header.pad_owner",
        "update draw_header.state",
        "claim directory_entry.state",
        "queue log_queue",
        "broadcast log_ring",
        "mailbox mailbox",
        "exchange draw",
        "session client",
    ];
    assert_eq!(headings, expected);
    for (i, h) in expected.iter().enumerate() {
        let of_this: Vec<&str> = sides
            .iter()
            .filter(|(n, _)| *n == i + 1)
            .map(|(_, s)| s.as_str())
            .collect();
        assert!(!of_this.is_empty(), "{h} states no side's steps");
        if h.starts_with("seqlock") {
            assert!(of_this[0].starts_with("Writer (the "), "{h}: {of_this:?}");
            assert!(of_this[1].starts_with("Reader (the "), "{h}: {of_this:?}");
        }
        if h.starts_with("update") {
            assert!(of_this[0].starts_with("Writers (the "), "{h}: {of_this:?}");
        }
        // The region protocols: each side as the schema names it, with whom it is.
        let sides_of = |a: &str, b: &str| {
            assert_eq!(of_this.len(), 2, "{h}: {of_this:?}");
            assert!(of_this[0].starts_with(a), "{h}: {of_this:?}");
            assert!(of_this[1].starts_with(b), "{h}: {of_this:?}");
        };
        match *h {
            "queue log_queue" => sides_of("Writer (the client; one)", "Reader (the host; one)"),
            "broadcast log_ring" => {
                sides_of("Writer (the host; one)", "Readers (the client; any number)")
            }
            "mailbox mailbox" => sides_of("Client (the client)", "Server (the host)"),
            "exchange draw" => sides_of("Writer (the client)", "Reader (the host)"),
            "session client" => sides_of("Client (the client)", "Host (the host)"),
            _ => {}
        }
    }
    // Where the reference is silent, the schema's conventions are stated: the exchange's
    // first state, the padding entry, the lapped reader, the heartbeat.
    let text = text_of(&extras.protocols);
    assert!(text.contains("`draw_header.state` is 1 (list 1 shared, not fresh): the writer starts with list 0, the reader with list 2"), "{text}");
    assert!(text.contains(
        "A `padding` entry fills the area to its end, and the next entry starts at offset 0."
    ));
    assert!(text.contains("report `Lapped { missed }`"));
    assert!(text.contains("at least every 100 ms"));
    assert!(text.contains("older than 1000 ms"));
    // "Swapped whole by both sides" (the reference) is no claim from a free value; an enum
    // state is, and names its values; claimed bytes are filled with relaxed atomic stores.
    assert!(
        text_of(&extras.protocols)
            .contains("`draw_header.state` (`u32`, 32 bits) changes only as a whole word")
    );
    let text = text_of(&extras.protocols);
    assert!(text.contains("Its values: `free` (0), `claimed` (1), `active` (2), `closing` (3)."));
    assert!(
        !text.contains("plain stores"),
        "shared bytes are never stored plainly"
    );
    assert!(text.contains("(snapshot_seq - 1) % ring_slots"));
    assert!(text.contains("Fence (acquire)"));
}

/// The blocks of one item (a level-3 heading) of an attach section: heading text → blocks.
fn items_of(blocks: &[Block]) -> Vec<(String, Vec<Block>)> {
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

fn only_table(blocks: &[Block]) -> (&[String], &[Vec<String>]) {
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

fn paragraphs(blocks: &[Block]) -> Vec<String> {
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

fn reference_const(reference: &Reference, name: &str) -> u64 {
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

/// Each layout's rows are its index enum's values in the reference, in order, and the blocks
/// regions are the reference's block sizes apart.
#[test]
fn the_layouts_section_has_each_table_s_rows_as_the_reference_numbers_them() {
    let (_, extras) = parse_markdown(&bridge_markdown());
    let reference = load_reference();
    let items = items_of(&extras.attach["Layouts"]);
    let names: Vec<&str> = items.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(
        names,
        ["layout bridge", "layout client_block", "layout bot_block"]
    );
    for (heading, blocks) in &items {
        let summary = paragraphs(blocks)
            .into_iter()
            .find(|p| p.starts_with("Its header is "))
            .unwrap_or_else(|| panic!("{heading}: no summary"));
        let index = summary
            .split("indexed by ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .unwrap_or_else(|| panic!("{heading}: {summary}"));
        let e = reference
            .enums
            .iter()
            .find(|e| e.name == index)
            .unwrap_or_else(|| panic!("{heading}: index enum {index} not in the reference"));
        let (header, rows) = only_table(blocks);
        assert_eq!(
            header,
            [
                "Index",
                "Region",
                "Holds",
                "Least size",
                "Align",
                "Presence",
                "Meaning"
            ]
        );
        let got: Vec<(String, String)> = rows
            .iter()
            .map(|r| (inline_text(&r[0]), inline_text(&r[1])))
            .collect();
        let want: Vec<(String, String)> = e
            .values
            .iter()
            .map(|v| (v.value.clone(), v.name.clone()))
            .collect();
        assert_eq!(got, want, "{heading}");
        // A row the reference dates (`(ABI 0.5)`) is one an older producer leaves out.
        for (row, v) in rows.iter().zip(&e.values) {
            let presence = inline_text(&row[5]);
            match v.meaning.split("(ABI ").nth(1) {
                Some(rest) => assert_eq!(
                    presence,
                    format!("since {}", rest.trim_end_matches(')')),
                    "{heading} {}",
                    v.name
                ),
                None => assert_eq!(presence, "required", "{heading} {}", v.name),
            }
        }
    }
    let bridge = &items[0].1;
    let (_, rows) = only_table(bridge);
    let holds = |name: &str| {
        rows.iter()
            .find(|r| inline_text(&r[1]) == name)
            .map(|r| inline_text(&r[2]))
            .unwrap()
    };
    let max_clients = reference_const(&reference, "max_clients");
    assert_eq!(
        holds("client_blocks"),
        format!(
            "{max_clients} blocks {} bytes apart, each laid out by client_block",
            reference_const(&reference, "client_block_size")
        )
    );
    assert_eq!(
        holds("bot_blocks"),
        format!(
            "{max_clients} blocks {} bytes apart, each laid out by bot_block",
            reference_const(&reference, "bot_block_size")
        )
    );
    assert_eq!(
        holds("log_ring"),
        format!(
            "log_ring_header, then {} bytes",
            reference_const(&reference, "log_ring_capacity")
        )
    );
}

/// Each handshake names the fields later versions added at the reference's offsets, each
/// with the version the reference dates it by.
#[test]
fn the_handshakes_section_dates_the_added_fields_as_the_reference_does() {
    let (_, extras) = parse_markdown(&bridge_markdown());
    let reference = load_reference();
    let items = items_of(&extras.attach["Version handshakes"]);
    let names: Vec<&str> = items.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(names, ["bridge_header", "snapshot"]);
    let mut dated = 0;
    for (name, blocks) in &items {
        let s = reference.structs.iter().find(|s| &s.name == name).unwrap();
        let steps = paragraphs(blocks).join("\n");
        let magic = s
            .fields
            .iter()
            .find(|f| f.name == "magic" || f.name == "header");
        assert!(magic.is_some(), "{name}");
        let (header, rows) = only_table(blocks);
        assert_eq!(header, ["Field", "Since", "Offset", "End"]);
        for row in rows {
            let field = inline_text(&row[0]);
            let f = s
                .fields
                .iter()
                .find(|f| f.name == field)
                .unwrap_or_else(|| panic!("{name}.{field} not in the reference"));
            assert_eq!(
                inline_text(&row[2]),
                format!("0x{:04x}", f.offset),
                "{name}.{field}"
            );
            // The reference dates a field as `(ABI 0.4)` or `ABI 0.9: ...`, or dates the
            // struct it holds.
            if let Some(v) = f.meaning.split("ABI ").nth(1) {
                let v: String = v
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                assert_eq!(
                    inline_text(&row[1]),
                    v.trim_end_matches('.'),
                    "{name}.{field}"
                );
                dated += 1;
            }
        }
        assert!(
            steps.contains("must equal the reader's major version"),
            "{steps}"
        );
    }
    assert!(
        dated >= 3,
        "only {dated} added fields were dated by the reference"
    );
}

/// The file section places each record where the reference's fields say, and states the
/// encoding with the reference's record kinds.
#[test]
fn the_files_section_places_each_record_as_the_reference_says() {
    let (_, extras) = parse_markdown(&bridge_markdown());
    let reference = load_reference();
    let items = items_of(&extras.attach["Files"]);
    assert_eq!(items.len(), 1);
    let (heading, blocks) = &items[0];
    assert_eq!(heading, "file ibfrec");
    let (header, rows) = only_table(blocks);
    assert_eq!(header, ["Record", "Struct", "Where", "Copies", "Meaning"]);
    let structs: BTreeMap<String, String> = rows
        .iter()
        .map(|r| (inline_text(&r[0]), inline_text(&r[1])))
        .collect();
    let field_meaning = |strukt: &str, field: &str| {
        reference
            .structs
            .iter()
            .find(|s| s.name == strukt)
            .and_then(|s| s.fields.iter().find(|f| f.name == field))
            .map(|f| f.meaning.clone())
            .unwrap_or_else(|| panic!("{strukt}.{field} not in the reference"))
    };
    let mut placed_by_field = 0;
    for row in rows {
        let record = inline_text(&row[0]);
        let strukt = inline_text(&row[1]);
        let place = inline_text(&row[2]);
        let s = reference.structs.iter().find(|s| s.name == strukt).unwrap();
        // A record found at an offset another record holds: the reference's doc of that
        // field names the record's struct.
        if let Some(at) = place
            .strip_prefix("at the offset ")
            .or_else(|| place.strip_prefix("one at each offset "))
        {
            let path = at.split(" holds").next().unwrap().replace("[]", "");
            let (holder, field) = path.split_once('.').unwrap();
            let meaning = field_meaning(&structs[holder], field);
            let named = meaning.contains(&strukt)
                || (meaning.contains("header") && strukt.ends_with("_header"));
            assert!(named, "{record} at {path}: the reference says `{meaning}`");
            placed_by_field += 1;
        }
        if let Some(n) = place.strip_suffix(" bytes before the file's end") {
            assert_eq!(n.parse::<u64>().unwrap(), s.size, "{record}");
            assert!(s.doc.contains("last"), "{record}: {}", s.doc);
        }
    }
    assert_eq!(placed_by_field, 2);
    let text = paragraphs(blocks).join("\n");
    let kinds = reference
        .enums
        .iter()
        .find(|e| e.name == "rec_record_kind")
        .unwrap();
    for v in &kinds.values {
        let meaning = v.meaning.to_lowercase();
        let step = if meaning.contains("xor") {
            "XORed byte for byte with the previous record's decoded data"
        } else {
            "the decoded data as is"
        };
        assert!(text.contains(&format!("{} means {step}", v.name)), "{text}");
    }
    assert!(
        text.contains("The decoded data starts with snapshot"),
        "{text}"
    );
    assert!(
        text.contains("footer.chunk_count = the number of chunks"),
        "{text}"
    );
}
