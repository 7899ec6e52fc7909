//! The schema language's acceptance test: `schema.toml`, loaded by the generator, has the
//! layout and the text of the plain-text reference. Every struct's size and alignment and
//! every field's name, order, offset and type come from the generator's layout and IR; the
//! expected ones are parsed from `tests/fixtures/bridge-abi-0.9-reference.txt`. Constants,
//! enum and flag values and every doc sentence are compared verbatim too.

use crate::common;

use abi_codegen::Schema;
use common::reference::{DEPARTURES, Departure, Reference, load_reference};

const SCHEMA_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml");

fn read_schema_text() -> String {
    std::fs::read_to_string(SCHEMA_PATH)
        .unwrap_or_else(|e| panic!("cannot read {SCHEMA_PATH}: {e}"))
}

fn load(src: &str) -> Schema {
    abi_codegen::load_schema(src).unwrap_or_else(|e| panic!("{}", e.render("schema.toml", src)))
}

/// An integer as the reference writes it: decimal, or `0x` and hex digits.
fn reference_int(text: &str) -> Option<i128> {
    match text.strip_prefix("0x") {
        Some(hex) => i128::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The names of `items`, in order.
fn names<T>(items: &[T], name: impl Fn(&T) -> &String) -> Vec<&str> {
    items.iter().map(|i| name(i).as_str()).collect()
}

fn hex(offset: u64) -> String {
    format!("0x{offset:04X} ({offset})")
}

/// How many items and fields a comparison looked at, so that a test can tell that it
/// compared everything.
#[derive(Debug, Default, PartialEq, Eq)]
struct Compared {
    constants: usize,
    values: usize,
    structs: usize,
    fields: usize,
}

/// Reports two name sequences that differ: the first position where they part, and the
/// names only one side has.
fn compare_order(what: &str, reference: &[&str], schema: &[&str], out: &mut Vec<String>) {
    if reference == schema {
        return;
    }
    let at = reference
        .iter()
        .zip(schema)
        .position(|(r, s)| r != s)
        .unwrap_or(reference.len().min(schema.len()));
    out.push(format!(
        "{what}: order differs at #{at}: reference has {:?}, schema has {:?}",
        reference.get(at),
        schema.get(at)
    ));
    let missing: Vec<&&str> = reference.iter().filter(|r| !schema.contains(r)).collect();
    if !missing.is_empty() {
        out.push(format!("{what}: missing from the schema: {missing:?}"));
    }
    let extra: Vec<&&str> = schema.iter().filter(|s| !reference.contains(s)).collect();
    if !extra.is_empty() {
        out.push(format!("{what}: not in the reference: {extra:?}"));
    }
}

fn compare_text(what: &str, reference: &str, schema: &str, out: &mut Vec<String>) {
    let departs = |d: &&Departure| {
        what == format!("struct `{}`, field `{}`: meaning", d.item, d.field)
            && (d.reference, d.schema) == (reference, schema)
    };
    if DEPARTURES.iter().any(|d| departs(&d)) {
        return;
    }
    if reference != schema {
        out.push(format!(
            "{what}:\n    reference: {reference:?}\n    schema:    {schema:?}"
        ));
    }
}

/// Every difference between the schema (its IR and computed layout) and the reference, one
/// readable entry each, naming the item and both values.
fn differences(schema: &Schema, reference: &Reference) -> (Vec<String>, Compared) {
    let abi = schema.abi();
    let mut out = Vec::new();
    let mut compared = Compared::default();

    compare_text("title", &reference.title, &abi.title, &mut out);
    compare_text(
        "opening paragraph",
        &reference.opening,
        &format!("ABI version {}. {}", abi.version, abi.doc),
        &mut out,
    );

    compare_order(
        "constants",
        &names(&reference.constants, |c| &c.name),
        &names(&abi.consts, |c| &c.name),
        &mut out,
    );
    for rc in &reference.constants {
        let Some(c) = abi.consts.iter().find(|c| c.name == rc.name) else {
            continue;
        };
        compared.constants += 1;
        let what = format!("constant `{}`", rc.name);
        compare_text(
            &format!("{what}: value as written"),
            &rc.value,
            &c.literal,
            &mut out,
        );
        match reference_int(&rc.value) {
            Some(v) if v == c.value => {}
            Some(v) => out.push(format!("{what}: value: reference {v}, schema {}", c.value)),
            None => out.push(format!(
                "{what}: reference value `{}` is not an integer",
                rc.value
            )),
        }
        compare_text(&format!("{what}: meaning"), &rc.meaning, &c.doc, &mut out);
    }

    compare_order(
        "enums and flag sets",
        &names(&reference.enums, |e| &e.name),
        &names(&abi.enums, |e| &e.name),
        &mut out,
    );
    for re in &reference.enums {
        let Some(e) = abi.enums.iter().find(|e| e.name == re.name) else {
            continue;
        };
        let what = format!("{} `{}`", re.kind, re.name);
        compare_text(
            &format!("{what}: kind"),
            &re.kind,
            e.kind.keyword(),
            &mut out,
        );
        compare_text(&format!("{what}: repr"), &re.repr, e.repr.name(), &mut out);
        compare_text(&format!("{what}: doc"), &re.doc, &e.doc, &mut out);
        compare_order(
            &format!("{what}: values"),
            &names(&re.values, |v| &v.name),
            &names(&e.values, |v| &v.name),
            &mut out,
        );
        for rv in &re.values {
            let Some(v) = e.values.iter().find(|v| v.name == rv.name) else {
                continue;
            };
            compared.values += 1;
            let what = format!("{what}, value `{}`", rv.name);
            compare_text(
                &format!("{what}: value as written"),
                &rv.value,
                &v.literal,
                &mut out,
            );
            match reference_int(&rv.value) {
                Some(n) if n == v.value => {}
                Some(n) => out.push(format!("{what}: value: reference {n}, schema {}", v.value)),
                None => out.push(format!(
                    "{what}: reference value `{}` is not an integer",
                    rv.value
                )),
            }
            compare_text(&format!("{what}: meaning"), &rv.meaning, &v.doc, &mut out);
        }
    }

    compare_order(
        "structs",
        &names(&reference.structs, |s| &s.name),
        &names(&abi.structs, |s| &s.name),
        &mut out,
    );
    for rs in &reference.structs {
        let Some(index) = abi.find_struct(&rs.name) else {
            continue;
        };
        compared.structs += 1;
        let s = &abi.structs[index];
        let layout = schema.layout().of(index);
        let what = format!("struct `{}`", rs.name);
        if rs.size != layout.size {
            out.push(format!(
                "{what}: size: reference {} bytes, schema {} bytes",
                rs.size, layout.size
            ));
        }
        if rs.align != layout.align {
            out.push(format!(
                "{what}: align: reference {}, schema {}",
                rs.align, layout.align
            ));
        }
        compare_text(&format!("{what}: doc"), &rs.doc, &s.doc, &mut out);
        compare_order(
            &format!("{what}: fields"),
            &names(&rs.fields, |f| &f.name),
            &names(&s.fields, |f| &f.name),
            &mut out,
        );
        for rf in &rs.fields {
            let Some(fi) = s.fields.iter().position(|f| f.name == rf.name) else {
                continue;
            };
            compared.fields += 1;
            let (f, fl) = (&s.fields[fi], &layout.fields[fi]);
            let what = format!("{what}, field `{}`", rf.name);
            if rf.offset != fl.offset {
                out.push(format!(
                    "{what}: offset: reference {}, schema {}",
                    hex(rf.offset),
                    hex(fl.offset)
                ));
            }
            compare_text(&format!("{what}: type"), &rf.ty, &f.ty.text, &mut out);
            compare_text(&format!("{what}: meaning"), &rf.meaning, &f.doc, &mut out);
        }
    }
    (out, compared)
}

fn assert_no_differences(schema: &Schema, reference: &Reference) -> Compared {
    let (diffs, compared) = differences(schema, reference);
    for Departure {
        item: name,
        field,
        reference: from,
        schema: to,
        why,
    } in DEPARTURES
    {
        // Still a departure: the reference says `from` and the schema `to`.
        let said = |fields: Option<(&str, &str)>| fields == Some((*from, *to));
        let reference_field = reference
            .structs
            .iter()
            .find(|s| s.name == *name)
            .and_then(|s| s.fields.iter().find(|f| f.name == *field));
        let schema_field = schema
            .abi()
            .structs
            .iter()
            .find(|s| s.name == *name)
            .and_then(|s| s.fields.iter().find(|f| f.name == *field));
        assert!(
            said(
                reference_field
                    .zip(schema_field)
                    .map(|(r, f)| (r.meaning.as_str(), f.doc.as_str()))
            ),
            "the departure from the reference at {name}.{field} ({why}) no longer holds"
        );
    }
    assert!(
        diffs.is_empty(),
        "schema.toml differs from the reference in {} places:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
    compared
}

#[test]
fn schema_has_the_layout_and_text_of_the_reference() {
    let schema = load(&read_schema_text());
    let reference = load_reference();
    let compared = assert_no_differences(&schema, &reference);
    assert_eq!(
        compared,
        Compared {
            constants: 48,
            values: 207,
            structs: 46,
            fields: 374,
        },
        "every item of the reference was compared"
    );
}

/// `text` with `from` replaced by `to`, where `from` occurs exactly once.
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "`{from}` occurs once in schema.toml"
    );
    text.replacen(from, to, 1)
}

/// The comparison fails, and says where, for a schema that still loads but no longer
/// matches the reference: moved offsets, a changed size, a reordered field, a reworded doc
/// and a value written in another radix.
#[test]
fn a_schema_that_drifts_from_the_reference_is_reported() {
    let reference = load_reference();
    let original = read_schema_text();

    // connected_ns grows by 8 bytes and _reserved shrinks by 8: same size, moved offsets.
    let moved = replace_once(
        &original,
        r#"{ name = "connected_ns", type = "u64","#,
        r#"{ name = "connected_ns", type = "u64[2]","#,
    );
    let moved = replace_once(
        &moved,
        r#"{ name = "_reserved", type = "u8[56]" },"#,
        r#"{ name = "_reserved", type = "u8[48]" },"#,
    );
    let (diffs, _) = differences(&load(&moved), &reference);
    assert_eq!(
        diffs,
        [
            "struct `client_entry`, field `connected_ns`: type:\n    reference: \"u64\"\n    schema:    \"u64[2]\"",
            "struct `client_entry`, field `pad`: offset: reference 0x0020 (32), schema 0x0028 (40)",
            "struct `client_entry`, field `_pad33`: offset: reference 0x0021 (33), schema 0x0029 (41)",
            "struct `client_entry`, field `waiting`: offset: reference 0x0024 (36), schema 0x002C (44)",
            "struct `client_entry`, field `name`: offset: reference 0x0028 (40), schema 0x0030 (48)",
            "struct `client_entry`, field `_reserved`: offset: reference 0x0048 (72), schema 0x0050 (80)",
            "struct `client_entry`, field `_reserved`: type:\n    reference: \"u8[56]\"\n    schema:    \"u8[48]\"",
        ]
    );

    // A bigger reserved area makes a bigger struct, and the structs that embed it.
    let grown = replace_once(
        &original,
        r#"{ name = "_reserved", type = "u8[56]" },"#,
        r#"{ name = "_reserved", type = "u8[64]" },"#,
    );
    let grown = grown.replacen("size = 128\n", "size = 136\n", 1);
    let grown = grown.replace("size = 1304\n", "size = 1368\n");
    let (diffs, _) = differences(&load(&grown), &reference);
    assert!(
        diffs.contains(
            &"struct `client_entry`: size: reference 128 bytes, schema 136 bytes".to_string()
        ),
        "{diffs:#?}"
    );
    assert!(
        diffs.contains(
            &"struct `bridge_header`: size: reference 1304 bytes, schema 1368 bytes".to_string()
        ),
        "{diffs:#?}"
    );
    assert!(
        diffs.contains(&"struct `bridge_header`, field `controls`: offset: reference 0x0500 (1280), schema 0x0540 (1344)".to_string()),
        "{diffs:#?}"
    );

    // Two fields of the same type swapped: each is reported at the other's offset.
    let swapped = replace_once(
        &original,
        "{ name = \"shoot_up\", type = \"pad_buttons\" },\n  { name = \"shoot_down\", type = \"pad_buttons\" },",
        "{ name = \"shoot_down\", type = \"pad_buttons\" },\n  { name = \"shoot_up\", type = \"pad_buttons\" },",
    );
    let (diffs, _) = differences(&load(&swapped), &reference);
    assert_eq!(
        diffs,
        [
            "struct `controls`: fields: order differs at #2: reference has Some(\"shoot_up\"), schema has Some(\"shoot_down\")",
            "struct `controls`, field `shoot_up`: offset: reference 0x0002 (2), schema 0x0004 (4)",
            "struct `controls`, field `shoot_down`: offset: reference 0x0004 (4), schema 0x0002 (2)",
        ]
    );

    // A reworded doc and a value written in decimal instead of hex.
    let reworded = replace_once(
        &original,
        "doc = \"Bytes per client block\"",
        "doc = \"Bytes per client block.\"",
    );
    let reworded = replace_once(
        &reworded,
        "name = \"client_block_size\"\nvalue = 0x10000",
        "name = \"client_block_size\"\nvalue = 65536",
    );
    let (diffs, _) = differences(&load(&reworded), &reference);
    assert_eq!(
        diffs,
        [
            "constant `client_block_size`: value as written:\n    reference: \"0x10000\"\n    schema:    \"65536\"",
            "constant `client_block_size`: meaning:\n    reference: \"Bytes per client block\"\n    schema:    \"Bytes per client block.\"",
        ]
    );
}
