//! The JSON Schema of `schema.toml` (`abi-codegen schema-json`, checked in as
//! `codegen/schema.schema.json`): the checked-in file is the command's output, it is a valid
//! draft 2020-12 schema, every schema the generator accepts (the bridge schema and every
//! fixture that loads), converted from TOML to JSON, passes it, and schemas with a wrong key
//! or a value of the wrong type or shape fail it. The validator is the `jsonschema` crate.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen sits in the workspace")
        .to_path_buf()
}

fn checked_in() -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema.schema.json"))
        .expect("codegen/schema.schema.json")
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&checked_in()).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// A TOML document as JSON, the way an editor's TOML support hands it to the schema.
fn toml_to_json(src: &str) -> Value {
    let table: toml::Table = toml::from_str(src).expect("the fixture is TOML");
    serde_json::to_value(table).expect("TOML converts to JSON")
}

/// Every `.toml` under the fixtures, and the bridge schema.
fn all_schemas() -> Vec<PathBuf> {
    let mut out = vec![workspace().join("schema.toml")];
    let mut dirs = vec![workspace().join("tests/fixtures")];
    while let Some(dir) = dirs.pop() {
        for e in fs::read_dir(&dir).expect("fixture folder").flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "toml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_checked_in_file_is_the_command_output() {
    let out = Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
        .arg("schema-json")
        .output()
        .expect("the codegen binary runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout) == checked_in(),
        "codegen/schema.schema.json is stale: run \
         `cargo run -q -p abi-codegen -- schema-json > codegen/schema.schema.json`"
    );
}

#[test]
fn it_is_a_valid_draft_2020_12_schema() {
    let schema: Value = serde_json::from_str(&checked_in()).expect("JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::meta::validate(&schema).expect("valid against the draft 2020-12 meta-schema");
}

/// Every key the parser knows is in the JSON Schema, and every table of it closes with
/// `additionalProperties: false`, as every table of schema.toml rejects unknown keys.
#[test]
fn every_table_is_closed() {
    let schema: Value = serde_json::from_str(&checked_in()).expect("JSON");
    let mut pending = vec![("".to_string(), &schema)];
    let mut tables = 0;
    while let Some((path, node)) = pending.pop() {
        if node.get("type") == Some(&Value::from("object")) {
            tables += 1;
            assert_eq!(node["additionalProperties"], false, "{path}");
            let properties = node["properties"].as_object().expect("properties");
            for (key, sub) in properties {
                assert!(
                    sub.get("description").is_some(),
                    "{path}/{key} has no description"
                );
                pending.push((format!("{path}/{key}"), sub));
            }
        }
        if let Some(items) = node.get("items") {
            pending.push((format!("{path}[]"), items));
        }
    }
    // The file, [abi], a constant, an enum, its value, a flag set, its value, a struct, a
    // field, a trailer part, a version handshake, a seqlock, a ring, a layout, its row, a
    // [[file]], its record, its encoding, its seek, its total, a [[template]]; a queue, its entry and its part, a
    // broadcast ring, its entry and its part, a mailbox, an exchange, a session, a directory,
    // an event, its stats.
    assert_eq!(tables, 33);
}

#[test]
fn every_schema_the_generator_accepts_is_valid() {
    let validator = validator();
    let mut accepted = 0;
    for path in all_schemas() {
        let src = fs::read_to_string(&path).expect("readable");
        if abi_codegen::load_schema(&src).is_err() {
            continue;
        }
        accepted += 1;
        let errors: Vec<String> = validator
            .iter_errors(&toml_to_json(&src))
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{}:\n{}",
            path.display(),
            errors.join("\n")
        );
    }
    assert!(accepted >= 40, "only {accepted} schemas loaded");
}

/// Error fixtures whose mistake is in the shape of the file, each with the JSON pointer of
/// the value the JSON Schema rejects.
#[test]
fn wrong_keys_types_and_shapes_are_rejected() {
    let validator = validator();
    for (fixture, pointer) in [
        ("unknown_key_struct", "/struct/0"), // `sise = 8`
        ("unknown_key_abi", "/abi"),
        ("unknown_key_field", "/struct/0/fields/1"),
        ("missing_key", "/struct/0/fields/1"),
        ("missing_abi_key", "/abi"),
        ("wrong_value_kind", "/struct/0/size"), // `size = "8"`
        ("single_bracket_item", "/struct"),
        ("byte_order_big", "/abi/byte_order"),
        ("bad_c_prefix", "/abi/c_prefix"),
        ("bad_abi_version", "/abi/version"),
        ("type_name_not_snake_case", "/struct/0/name"),
        ("field_name_not_snake_case", "/struct/0/fields/0/name"),
        ("value_name_not_snake_case", "/enum/0/values/1/name"),
        ("since_not_a_version", "/struct/0/since"),
        ("char_without_length", "/struct/0/fields/1/type"),
        ("array_of_arrays", "/struct/0/fields/0/type"),
        ("empty_struct", "/struct/0/fields"),
        ("enum_without_values", "/enum/0/values"),
        ("flags_signed_repr", "/flags/0/repr"),
        ("const_type_not_integer", "/const/0/type"),
        ("align_not_power_of_two", "/struct/0/align"),
        ("reserved_constant_name", "/const/0/name"),
        ("protocol_missing_key", "/mailbox/0"),
    ] {
        let path = workspace().join(format!("tests/fixtures/errors/{fixture}.toml"));
        let src = fs::read_to_string(&path).expect("fixture");
        assert!(abi_codegen::load_schema(&src).is_err(), "{fixture} loads");
        let instance = toml_to_json(&src);
        let pointers: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| e.instance_path().to_string())
            .collect();
        assert!(
            pointers.iter().any(|p| p == pointer),
            "{fixture}: expected an error at {pointer}, got {pointers:?}"
        );
    }
}
