//! The JSON Schema (draft 2020-12) of `schema.toml` itself: every key of every table, its
//! type, which keys are required, no other keys, and patterns for names, versions and field
//! types, with descriptions in the words of codegen/README.md. Editors that read TOML
//! through a JSON Schema (taplo, Even Better TOML) complete and check a schema with it.
//! `abi-codegen schema-json` prints it; `codegen/schema.schema.json` is that output, checked in.
//!
//! It describes the shape of the file, which is what an editor can check as one types; the
//! generator checks the rest (names that resolve, values that fit, the layout).

mod file;
mod fragments;
mod items;
mod protocols;
mod regions;

use serde_json::{Value, json};

use fragments::{INTEGER_TYPES, NAME, parties_json};

/// The JSON Schema of `schema.toml`, as a JSON value: the `[abi]` table and one array of
/// tables per item kind, each built by the function named after it.
pub fn schema_json() -> Value {
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "codegen ABI schema (schema.toml)",
        "description": "An ABI schema: one [abi] table and any number of [[const]], [[enum]], [[flags]], [[struct]], [[seqlock]], [[ring]], [[queue]], [[broadcast]], [[mailbox]], [[exchange]], [[session]], [[directory]], [[event]], [[layout]], [[file]] and [[template]] items, in any order. Every table rejects keys it does not know. See codegen/README.md.",
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

/// [`schema_json`] as pretty-printed JSON with a final line break: the text of
/// `codegen/schema.schema.json`.
pub fn render_schema_json() -> String {
    let mut text = serde_json::to_string_pretty(&schema_json()).expect("JSON values serialize");
    text.push('\n');
    text
}
