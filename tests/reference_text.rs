//! The parser of the plain-text reference (`tests/common/reference.rs`) reads the whole
//! reference, restores the one lost heading, and rejects text it does not understand.

use crate::common;

use common::reference::{LOST_HEADING, load_reference, parse_reference};

#[test]
fn reads_every_item_of_the_reference() {
    let r = load_reference();
    assert_eq!(r.title, "Bridge schema reference");
    assert_eq!(
        r.opening,
        "ABI version 0.9. All structs are little-endian and naturally aligned, with every padding byte declared."
    );

    assert_eq!(r.constants.len(), 48, "constants");
    let enums = r.enums.iter().filter(|e| e.kind == "enum").count();
    let flags = r.enums.iter().filter(|e| e.kind == "flags").count();
    assert_eq!((enums, flags), (34, 10), "enums and flag sets");
    let values: usize = r.enums.iter().map(|e| e.values.len()).sum();
    assert_eq!(values, 207, "enum and flag values");
    assert_eq!(r.structs.len(), 46, "structs");
    let fields: usize = r.structs.iter().map(|s| s.fields.len()).sum();
    assert_eq!(fields, 374, "struct fields");

    let first = &r.constants[0];
    assert_eq!(
        (
            first.name.as_str(),
            first.value.as_str(),
            first.meaning.as_str()
        ),
        (
            "bridge_magic",
            "0x42464249",
            "'IBFB' read as a little-endian u32"
        )
    );
    let last = r.constants.last().unwrap();
    assert_eq!(
        (last.name.as_str(), last.value.as_str()),
        ("rec_chunk_ticks", "300")
    );
}

#[test]
fn keeps_empty_meanings_and_missing_docs_empty() {
    let r = load_reference();
    let region = &r.enums[0];
    assert_eq!(
        (
            region.name.as_str(),
            region.kind.as_str(),
            region.repr.as_str()
        ),
        ("bridge_region", "enum", "u32")
    );
    assert_eq!(region.doc, "Rows of the bridge header's layout table");
    assert_eq!(region.values[0].name, "header");
    assert_eq!(region.values[0].value, "0");
    assert_eq!(region.values[0].meaning, "");

    let stat_kind = r.enums.iter().find(|e| e.name == "stat_kind").unwrap();
    assert_eq!(stat_kind.doc, "", "stat_kind has no doc paragraph");
    let pad_buttons = r.enums.iter().find(|e| e.name == "pad_buttons").unwrap();
    assert_eq!(
        (pad_buttons.kind.as_str(), pad_buttons.repr.as_str()),
        ("flags", "u16")
    );
    assert_eq!(pad_buttons.values.last().unwrap().value, "0x8000");

    let header = r
        .structs
        .iter()
        .find(|s| s.name == "snapshot_header")
        .unwrap();
    assert_eq!(
        (header.size, header.align, header.doc.as_str()),
        (48, 8, "")
    );
}

#[test]
fn reads_hex_offsets_types_and_meanings() {
    let r = load_reference();
    let bridge = r
        .structs
        .iter()
        .find(|s| s.name == "bridge_header")
        .unwrap();
    assert_eq!((bridge.size, bridge.align), (1304, 8));
    let pad_owner = bridge
        .fields
        .iter()
        .find(|f| f.name == "pad_owner")
        .unwrap();
    assert_eq!(pad_owner.offset, 0xA4);
    assert_eq!(pad_owner.ty, "u8[max_players]");
    assert!(
        pad_owner
            .meaning
            .starts_with("Per pad: the client row that owns it")
    );
    let clients = bridge.fields.iter().find(|f| f.name == "clients").unwrap();
    assert_eq!(
        (
            clients.offset,
            clients.ty.as_str(),
            clients.meaning.as_str()
        ),
        (0x100, "client_entry[max_clients]", "")
    );
    let last = r.structs.last().unwrap();
    assert_eq!((last.name.as_str(), last.size), ("extras_header", 2312));
    assert_eq!(last.fields.last().unwrap().ty, "extra_entry[max_extras]");
}

#[test]
fn restores_the_lost_rec_footer_heading() {
    let r = load_reference();
    let at = r
        .structs
        .iter()
        .position(|s| s.name == LOST_HEADING.name)
        .expect("rec_footer is restored");
    assert_eq!(r.structs[at - 1].name, "rec_mark");
    assert_eq!(r.structs[at + 1].name, "rec_trailer");
    let footer = &r.structs[at];
    assert_eq!((footer.size, footer.align), (48, 8));
    assert_eq!(footer.doc, LOST_HEADING.doc);
    assert_eq!(footer.fields.len(), 8);
    assert_eq!(footer.fields[0].name, "magic");
    assert_eq!(footer.fields[7].offset, 0x28);
}

const SMALL: &str = "Title\n\nOpening.\n\nConstants\n\nName Value Meaning\na 1 One\n\nEnums\n\n\
e (enum, u8)\n\nName Value Meaning\nx 0\n\nStructs\n\ns (4 bytes, align 4)\n\nDoc.\n\n\
Offset Field Type Meaning\n0x0000 f u32 The f\n";

#[test]
fn parses_a_small_reference() {
    let r = parse_reference(SMALL).unwrap();
    assert_eq!(r.constants.len(), 1);
    assert_eq!(r.enums[0].values[0].meaning, "");
    assert_eq!(r.structs[0].doc, "Doc.");
    assert_eq!(r.structs[0].fields[0].meaning, "The f");
}

#[test]
fn rejects_any_other_missing_heading() {
    let text = SMALL.replace("s (4 bytes, align 4)\n\nDoc.\n\n", "Doc.\n\n");
    let err = parse_reference(&text).unwrap_err();
    assert!(
        err.starts_with("19: expected a struct heading `name (N bytes, align A)`, found `Doc.`"),
        "{err}"
    );
}

#[test]
fn rejects_malformed_rows() {
    let err = parse_reference(&SMALL.replace("0x0000 f", "0x00 f")).unwrap_err();
    assert_eq!(err, "24: `0x00` is not an offset like 0x00A4");
    let err = parse_reference(&SMALL.replace("0x0000 f u32", "0x000a f u32")).unwrap_err();
    assert_eq!(err, "24: `0x000a` is not an offset like 0x00A4");
    let err = parse_reference(&SMALL.replace("a 1 One", "a")).unwrap_err();
    assert_eq!(err, "8: expected `name value meaning`, found `a`");
    let err = parse_reference(&SMALL.replace("e (enum, u8)", "e (union, u8)")).unwrap_err();
    assert!(err.starts_with("12: expected an enum heading"), "{err}");
    let err = parse_reference(&SMALL.replace("\n\nStructs", "")).unwrap_err();
    assert_eq!(err, "end of file: expected the Structs section");
}
