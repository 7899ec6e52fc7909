//! The JSON Schema of the value items of `schema.toml`: `[abi]`, `[[const]]`, `[[enum]]`,
//! `[[flags]]` and `[[struct]]` with its fields, trailer and version handshake.

use serde_json::{Value, json};

use super::fragments::{
    IDENT, INTEGER_TYPES, LITERAL, NAME, VERSION, doc_json, name_json, parties_json, since_json,
    value_json,
};

/// `[abi]`: the ABI's name, version, C prefix and byte order.
pub(super) fn abi_json() -> Value {
    json!({
        "type": "object",
        "description": "The ABI: its name, version, C prefix and byte order.",
        "additionalProperties": false,
        "required": ["name", "version", "c_prefix", "byte_order"],
        "properties": {
            "name": {
                "type": "string",
                "pattern": NAME,
                "description": "snake_case; names the output files (bridge.rs, bridge.h, ...).",
            },
            "version": {
                "type": "string",
                "pattern": VERSION,
                "description": "MAJOR.MINOR, no leading zeros.",
            },
            "version_policy": {
                "enum": ["strict", "cargo"],
                "description": "Optional; the version step abi-codegen diff asks of each change. \"strict\" (the default): a breaking change needs a major bump, any other change but a cosmetic one a minor bump. \"cargo\": while the major version is 0, a minor bump may break; from 1.0 on, as strict.",
            },
            "c_prefix": {
                "type": "string",
                "pattern": "^[a-z][a-z0-9]*$",
                "description": "Lowercase letters and digits, starting with a letter: C types are <prefix>_<name>, macros <PREFIX>_<NAME>.",
            },
            "title": {
                "type": "string",
                "description": "Optional; default \"<name> schema reference\".",
            },
            "doc": doc_json("ABI"),
            "byte_order": {
                "const": "little",
                "description": "Required; \"little\" is the only byte order supported.",
            },
            "parties": {
                "type": "array",
                "items": { "type": "string", "pattern": NAME },
                "description": "Who shares the memory, such as [\"host\", \"client\"]: the names writer and reader take.",
            },
        },
    })
}

/// `[[const]]`: constants, each a name and a value.
pub(super) fn const_json() -> Value {
    json!({
        "type": "array",
        "description": "Constants.",
        "items": {
            "type": "object",
            "description": "A [[const]] item: a name and a value, optionally a type, doc and since.",
            "additionalProperties": false,
            "required": ["name", "value"],
            "properties": {
                "name": {
                    "type": "string",
                    "pattern": NAME,
                    "not": { "enum": ["abi_version", "abi_version_major", "abi_version_minor"] },
                    "description": "The constant's name, snake_case. Constants, enums, flag sets and structs share one namespace; abi_version, abi_version_major and abi_version_minor are reserved.",
                },
                "value": value_json(),
                "type": {
                    "enum": INTEGER_TYPES,
                    "description": "Optional: the constant's type, which the value must fit. A constant used as an array length must not declare one (it is usize in Rust).",
                },
                "doc": doc_json("constant"),
                "since": since_json("constant"),
            },
        },
    })
}

/// An `[[enum]]` or `[[flags]]` item (`kind`): its name, `repr` (one of `reprs`) and values;
/// `rule` says what the values must obey.
pub(super) fn enum_item_json(kind: &str, reprs: &[&str], rule: &str) -> Value {
    let mut item = json!({
        "type": "object",
        "description": format!("An [[{kind}]] item. {rule}"),
        "additionalProperties": false,
        "required": ["name", "repr", "values"],
        "properties": {
            "name": name_json(kind),
            "repr": {
                "enum": reprs,
                "description": format!("The width the {kind} has in a struct: {}.", reprs.join(" ")),
            },
            "doc": doc_json(kind),
            "since": since_json(kind),
            "values": {
                "type": "array",
                "minItems": 1,
                "items": enum_value_json(),
                "description": "An array of inline tables, one per line by convention; they keep that order.",
            },
        },
    });
    if kind == "enum" {
        item["properties"]["ordered"] = json!({
            "type": "boolean",
            "default": false,
            "description": "Whether the values rank lowest first, in declaration order (each above the one before): then comparing two values compares their numbers, and the Rust type derives PartialOrd and Ord.",
        });
    }
    item
}

/// One value of an enum or a flag set: its name, its number and optionally doc and since.
pub(super) fn enum_value_json() -> Value {
    json!({
        "type": "object",
        "description": "A value: its name, its number and optionally doc and since.",
        "additionalProperties": false,
        "required": ["name", "value"],
        "properties": {
            "name": name_json("value"),
            "value": value_json(),
            "doc": doc_json("value"),
            "since": since_json("value"),
        },
    })
}

/// `[[struct]]`: structs, each a name and its fields, optionally a trailer and a version
/// handshake.
pub(super) fn struct_json() -> Value {
    let powers_of_two: Vec<u64> = (0..32).map(|b| 1u64 << b).collect();
    json!({
        "type": "array",
        "description": "Structs.",
        "items": {
            "type": "object",
            "description": "A [[struct]] item: a name and its fields, laid out by the C rules for naturally aligned structs with every padding byte declared.",
            "additionalProperties": false,
            "required": ["name", "fields"],
            "properties": {
                "name": name_json("struct"),
                "doc": doc_json("struct"),
                "since": since_json("struct"),
                "size": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 4_294_967_295u64,
                    "description": "Optional: checked against the computed size.",
                },
                "align": {
                    "enum": powers_of_two,
                    "description": "Optional: checked against the computed alignment; a power of two.",
                },
                "extensible": {
                    "type": "boolean",
                    "description": "A top-level record whose readers learn its size at run time, so later ABI versions may add fields at its end. No struct may embed an extensible struct.",
                },
                "writer": parties_json("writes the struct's fields; declaring it makes the struct shared, and the structs it holds too"),
                "fields": {
                    "type": "array",
                    "minItems": 1,
                    "items": field_json(),
                    "description": "An array of inline tables, one field per line.",
                },
                "trailer": {
                    "type": "array",
                    "minItems": 1,
                    "items": trailer_part_json(),
                    "description": "What follows the struct in its region, in order (the records after a header); a seqlock may guard its parts.",
                },
                "version": handshake_json(),
            },
        },
    })
}

/// A struct's field: its name, its type and optionally doc, since, count, expect, geometry,
/// access and writer.
pub(super) fn field_json() -> Value {
    json!({
        "type": "object",
        "description": "A field: its name, its type and optionally doc, since, count, expect and geometry.",
        "additionalProperties": false,
        "required": ["name", "type"],
        "properties": {
            "name": {
                "type": "string",
                "pattern": NAME,
                "description": "The field's name, snake_case, unique within the struct. Every padding byte is a field whose name starts with _ (_pad33, _reserved).",
            },
            "type": field_type_json(),
            "count": {
                "type": "string",
                "pattern": format!("^_?{IDENT}(\\._?{IDENT})*$"),
                "description": "On an array field: the integer field that says how many of its entries are in use, as a path from the struct that holds the array (ship_count, match.pickup_spawn_count).",
            },
            "expect": {
                "type": "string",
                "pattern": NAME,
                "description": "The constant an integer field always holds, such as a magic number; it must fit the field's type.",
            },
            "geometry": {
                "type": "string",
                "minLength": 1,
                "description": "On an unsigned integer field of a [[layout]]'s header, or of a struct a layout row holds: the number of the schema this field holds as the writer built it, as a constant expression in which a struct's name stands for its size (ring_slots, client_entry, draw_list_header + draw_max_commands * draw_cmd), or * for an area the writer sizes that no constant names. attach checks it: a number that a ring's slot_count or slot_size, a blocks row's stride or a struct row's bytes names is followed (not 0, a multiple of the alignment, at least what the types need, and the region holds what it asks for); any other must equal the schema's value.",
            },
            "access": {
                "enum": ["plain", "atomic", "cas"],
                "description": "How the field is accessed in shared memory. atomic: one naturally aligned word of 1, 2, 4 or 8 bytes (an integer, enum or flag set), loaded with acquire and stored with release. cas: atomic, and claimed by compare-and-swap; a word of 4 or 8 bytes, which may be an array (u8[4]) that is claimed as one word and read out of it. plain (the default): written before it is published, or under a seqlock.",
            },
            "writer": parties_json("writes the field, when not its struct's writer"),
            "doc": doc_json("field"),
            "since": since_json("field"),
        },
    })
}

/// A field's type: a primitive, `char[N]`, a declared item, or an array of one.
pub(super) fn field_type_json() -> Value {
    json!({
        "type": "string",
        "pattern": format!("^{IDENT}(\\[({LITERAL}|{IDENT})\\])?$"),
        "not": { "const": "char" },
        "description": "u8 u16 u32 u64 i8 i16 i32 i64 f32 f64; char[N] (N bytes of NUL-terminated text); the name of an [[enum]], [[flags]] or [[struct]]; or T[N], an array of any of these. N is a positive integer literal or the name of a constant, not an expression. Arrays of arrays are not supported.",
    })
}

/// A part of a struct's trailer: its name, its type and optionally its size field and doc.
pub(super) fn trailer_part_json() -> Value {
    json!({
        "type": "object",
        "description": "What follows the struct in its region: a name, a type and optionally the field holding its length in bytes, and doc.",
        "additionalProperties": false,
        "required": ["name", "type"],
        "properties": {
            "name": name_json("trailer part"),
            "type": {
                "type": "string",
                "pattern": format!("^{IDENT}(\\[({LITERAL}|{IDENT})\\])?$"),
                "description": "A primitive, enum or struct, or an array of one (param_def[max_params]). It starts where the previous part ends, naturally aligned.",
            },
            "size": {
                "type": "string",
                "pattern": NAME,
                "description": "The struct's unsigned integer field that holds the part's length in bytes at run time, when it varies (a ring slot's payload).",
            },
            "doc": doc_json("trailer part"),
        },
    })
}

/// An extensible struct's `version` handshake: the paths to its magic, versions and identity
/// fields.
pub(super) fn handshake_json() -> Value {
    json!({
        "type": "object",
        "description": "An extensible struct's version handshake: paths to its unsigned integer fields (through nested structs, such as header.schema_minor) that hold the magic (a field with expect), the major and minor version and, optionally, the producer's record size. Without size, the size follows from the minor version: fields with a later since are absent.",
        "additionalProperties": false,
        "required": ["major", "minor"],
        "properties": {
            "magic": { "type": "string", "minLength": 1, "description": "The field that holds the magic number; it must declare expect." },
            "major": { "type": "string", "minLength": 1, "description": "The field that holds the producer's major version: attach requires ours." },
            "minor": { "type": "string", "minLength": 1, "description": "The field that holds the producer's minor version: older and newer are accepted." },
            "size": { "type": "string", "minLength": 1, "description": "The field that holds the producer's record size in bytes." },
            "state": { "type": "string", "minLength": 1, "description": "The field that holds the writer's state (an unsigned integer, or an enum with an unsigned repr): attach reads it first, with acquire, and refuses (retryably) a state other than running." },
            "running": { "type": "string", "minLength": 1, "description": "With state: the value (an enum value's name, or a constant) that means the writer has written its tables; it stores it with release, after them." },
            "generation": { "type": "string", "minLength": 1, "description": "With state: the unsigned integer field the writer changes each time it rewrites its tables (a reload); a handle remembers it, and reloaded() compares." },
            "pid": { "type": "string", "minLength": 1, "description": "Who produced the record: the u32 or u64 field the producer's stamp_identity writes its process id into." },
            "producer_version": { "type": "string", "minLength": 1, "description": "The char[N] field stamp_identity writes the producer's version string into, NUL-padded." },
            "clock_mono_ns": { "type": "string", "minLength": 1, "description": "The u64 field of a monotonic clock reading in ns at production (CLOCK_MONOTONIC on Linux, QueryPerformanceCounter on Windows)." },
            "clock_unix_ns": { "type": "string", "minLength": 1, "description": "The i64 or u64 field of Unix time in ns at that reading: unix = clock_unix_ns + (t - clock_mono_ns)." },
        },
    })
}
