//! The markdown reference's Protocols, Layouts, Version handshakes and Files sections, read
//! back from the bridge's markdown and checked against the plain-text reference: each
//! protocol's steps, each layout's rows and regions, each handshake's dated fields, and
//! where each record of a file sits.

use crate::common;

use std::collections::BTreeMap;

use common::markdown_doc::{
    Block, bridge_markdown, items_of, only_table, paragraphs, parse_markdown, reference_const,
    text_of,
};
use common::reference::load_reference;

/// The Protocols section names every seqlock, ring, claim and update of schema.toml, each
/// with the steps of its sides.
#[test]
fn the_protocols_section_states_each_side_s_steps() {
    let (_, extras) = parse_markdown(&bridge_markdown());
    let mut headings = Vec::new();
    let mut sides = Vec::new();
    for block in &extras.protocols {
        match block {
            Block::Heading { level: 3, inline } => headings.push(inline.text.clone()),
            Block::Heading { level, inline } => {
                panic!("heading level {level} in Protocols: {}", inline.raw)
            }
            Block::Paragraph { inline } if inline.text.ends_with(':') => {
                sides.push((headings.len(), inline.text.clone()))
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
        "directory hosts",
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
            "directory hosts" => assert_eq!(
                of_this,
                [
                    "Registering (the host):",
                    "Listing (the client):",
                    "Cleaning up after a dead instance (the host):"
                ]
            ),
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
    assert!(
        text.contains("have not changed for more than 1000 ms is hung"),
        "{text}"
    );
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
            .map(|r| (r[0].text.clone(), r[1].text.clone()))
            .collect();
        let want: Vec<(String, String)> = e
            .values
            .iter()
            .map(|v| (v.value.clone(), v.name.clone()))
            .collect();
        assert_eq!(got, want, "{heading}");
        // A row the reference dates (`(ABI 0.5)`) is one an older producer leaves out.
        for (row, v) in rows.iter().zip(&e.values) {
            let presence = row[5].text.clone();
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
            .find(|r| r[1].text.clone() == name)
            .map(|r| r[2].text.clone())
            .unwrap()
    };
    let max_clients = reference_const(&reference, "max_clients");
    assert_eq!(
        holds("client_blocks"),
        format!(
            // The reference: "Client block i belongs to client row i".
            "{max_clients} blocks {} bytes apart, each laid out by client_block; block i is row i's of session client, restored by a free",
            reference_const(&reference, "client_block_size")
        )
    );
    assert_eq!(
        holds("bot_blocks"),
        format!(
            // The reference: "Bot block i belongs to client row i".
            "{max_clients} blocks {} bytes apart, each laid out by bot_block; block i is row i's of session client, restored by a free",
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
            let field = row[0].text.clone();
            let f = s
                .fields
                .iter()
                .find(|f| f.name == field)
                .unwrap_or_else(|| panic!("{name}.{field} not in the reference"));
            assert_eq!(
                row[2].text.clone(),
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
                    row[1].text.clone(),
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
        .map(|r| (r[0].text.clone(), r[1].text.clone()))
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
        let record = row[0].text.clone();
        let strukt = row[1].text.clone();
        let place = row[2].text.clone();
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
