//! The markdown target holds the whole reference: the markdown rendered from `schema.toml`
//! is parsed back (headings, paragraphs, tables, byte maps) and compared item by item with
//! the plain-text reference `tests/fixtures/bridge-abi-0.9-reference.txt`. Two small fixtures
//! under `tests/fixtures/markdown/` are snapshot tests of the whole text, one of them full of
//! doc text that markdown, HTML or the template language would take for markup.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use abi_codegen::testing::language_backend::markdown::render_markdown;
use common::markdown_doc::{assert_same_items, bridge_markdown, load, parse_markdown};
use common::reference::{load_reference, with_departures};

#[test]
fn markdown_holds_every_item_of_the_reference() {
    let md = bridge_markdown();
    let (from_md, _) = parse_markdown(&md);
    // The schema's deliberate departures from the reference's text are the markdown's text.
    let reference = with_departures(load_reference());
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
    let abi = schema.abi();
    let mut expected = BTreeMap::new();
    let mut add = |key: String, v: &Option<abi_codegen::testing::ir::Version>| {
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
    let abi = schema.abi();
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
    let first = abi.structs.first().expect("a struct");
    assert_eq!(s.doc, first.doc);
    assert!(s.doc.contains('\n'), "the struct doc has line breaks");
    for (m, f) in s.fields.iter().zip(&first.fields) {
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
