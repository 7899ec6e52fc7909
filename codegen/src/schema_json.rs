//! The JSON Schema (draft 2020-12) of `schema.toml` itself: every key of every table, its
//! type, which keys are required, no other keys, and patterns for names, versions and field
//! types, with descriptions in the words of codegen/README.md. Editors that read TOML
//! through a JSON Schema (taplo, Even Better TOML) complete and check a schema with it.
//! `abi-codegen schema-json` prints it; `codegen/schema.schema.json` is that output, checked in.
//!
//! It describes the shape of the file, which is what an editor can check as one types; the
//! generator checks the rest (names that resolve, values that fit, the layout).

mod file;
mod items;
mod protocols;
mod regions;

use serde_json::{Value, json};

/// A snake_case name, as the generator checks it: lowercase ASCII letters and digits in
/// words joined by single underscores, starting with a letter; padding fields start with
/// one `_`.
const NAME: &str = "^_?[a-z][a-z0-9]*(_[a-z0-9]+)*$";

/// `MAJOR.MINOR`, without leading zeros.
const VERSION: &str = "^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$";

/// The integer types a constant, an enum or a flag set may take.
const INTEGER_TYPES: [&str; 8] = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];

/// An integer literal of a field type's array length, in any radix TOML allows.
const LITERAL: &str = "[0-9][0-9_]*|0[xX][0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+";

/// A snake_case identifier, without the padding field's leading `_`.
const IDENT: &str = "[a-z][a-z0-9]*(_[a-z0-9]+)*";

/// The JSON Schema of `schema.toml`, as a JSON value: the `[abi]` table and one array of
/// tables per item kind, each built by the function named after it.
pub fn schema_json() -> Value {
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "codegen ABI schema (schema.toml)",
        "description": "An ABI schema: one [abi] table and any number of [[const]], [[enum]], [[flags]], [[struct]], [[seqlock]], [[ring]], [[queue]], [[broadcast]], [[mailbox]], [[exchange]], [[session]], [[directory]], [[layout]], [[file]] and [[template]] items, in any order. Every table rejects keys it does not know. See codegen/README.md.",
        "type": "object",
        "additionalProperties": false,
        "required": ["abi"],
        "properties": {
            "abi": items::abi_json(),
            "const": items::const_json(),
            "enum": {
                "type": "array",
                "description": "Enums.",
                "items": items::enum_item_json("enum", &INTEGER_TYPES, "Its value names are unique within it and every value fits repr; two names may share a number."),
            },
            "flags": {
                "type": "array",
                "description": "Flag sets.",
                "items": items::enum_item_json("flags", &INTEGER_TYPES[..4], "Its values are single bits (0x1, 0x2, 0x4, ...), and no two flags share a bit."),
            },
            "struct": items::struct_json(),
            "seqlock": regions::seqlock_json(),
            "ring": regions::ring_json(),
            "layout": regions::layout_json(),
            "file": file::file_json(),
            "template": template_json(),
        },
    });
    schema["properties"]
        .as_object_mut()
        .expect("the schema's properties are an object")
        .extend(protocols::protocol_tables(NAME, &parties_json));
    schema
}

/// `[[template]]`: targets of the user's own, each a template and the file it renders to.
fn template_json() -> Value {
    json!({
        "type": "array",
        "description": "Targets of your own: minijinja templates over the layout context (codegen/TEMPLATES.md), rendered by abi-codegen generate and checked by abi-codegen check.",
        "items": {
            "type": "object",
            "description": "A [[template]]: a template and the file it renders to.",
            "additionalProperties": false,
            "required": ["path", "output"],
            "properties": {
                "path": { "type": "string", "minLength": 1, "description": "The template, relative to the schema's folder, such as templates/bridge.mjs.j2." },
                "output": { "type": "string", "minLength": 1, "description": "The file it renders to, relative to the output folder (--out, default generated), with / separators; not a file a built-in target writes." },
                "doc": { "type": "string", "description": "What the target is." },
            },
        },
    })
}

/// An item's `name`: `what` says which item.
fn name_json(what: &str) -> Value {
    json!({
        "type": "string",
        "pattern": NAME,
        "description": format!("The {what}'s name, snake_case: lowercase ASCII letters and digits, words joined by single underscores, starting with a letter."),
    })
}

/// An item's `doc`: `what` says which item.
fn doc_json(what: &str) -> Value {
    json!({
        "type": "string",
        "description": format!("Documentation of the {what}, carried into every target."),
    })
}

/// An item's `since`: `what` says which item.
fn since_json(what: &str) -> Value {
    json!({
        "type": "string",
        "pattern": VERSION,
        "description": format!("The ABI version that added the {what}, MAJOR.MINOR without leading zeros; not later than [abi] version."),
    })
}

/// An integer or an integer expression.
fn value_json() -> Value {
    json!({
        "description": "An integer, in any radix TOML allows (64, 0x10000, 0o17, 0b101, with _ separators), or a string holding an integer expression: literals, the names of constants declared earlier, * / % + - << >> & ^ |, unary - and parentheses.",
        "anyOf": [
            { "type": "integer" },
            { "type": "string", "minLength": 1 },
        ],
    })
}

/// A `writer` or `reader`: one party or several; `what` says what they do.
fn parties_json(what: &str) -> Value {
    json!({
        "description": format!("Who {what}: a party of [abi] parties, or an array of them."),
        "anyOf": [
            { "type": "string", "pattern": NAME },
            { "type": "array", "minItems": 1, "items": { "type": "string", "pattern": NAME } },
        ],
    })
}

/// A `struct.field` path.
fn path_json() -> Value {
    json!({
        "type": "string",
        "pattern": "^[a-z][a-z0-9]*(_[a-z0-9]+)*\\.[a-z][a-z0-9]*(_[a-z0-9]+)*$",
        "description": "struct.field, such as bridge_header.snapshot_seq.",
    })
}

/// [`schema_json`] as pretty-printed JSON with a final line break: the text of
/// `codegen/schema.schema.json`.
pub fn render_schema_json() -> String {
    let mut text = serde_json::to_string_pretty(&schema_json()).expect("JSON values serialize");
    text.push('\n');
    text
}
