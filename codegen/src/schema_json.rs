//! The JSON Schema (draft 2020-12) of `schema.toml` itself: every key of every table, its
//! type, which keys are required, no other keys, and patterns for names, versions and field
//! types, with descriptions in the words of codegen/README.md. Editors that read TOML
//! through a JSON Schema (taplo, Even Better TOML) complete and check a schema with it.
//! `abi-codegen schema-json` prints it; `codegen/schema.schema.json` is that output, checked in.
//!
//! It describes the shape of the file, which is what an editor can check as one types; the
//! generator checks the rest (names that resolve, values that fit, the layout).

mod protocols;

use serde_json::{Value, json};

/// A snake_case name, as the generator checks it: lowercase ASCII letters and digits in
/// words joined by single underscores, starting with a letter; padding fields start with
/// one `_`.
const NAME: &str = "^_?[a-z][a-z0-9]*(_[a-z0-9]+)*$";

/// `MAJOR.MINOR`, without leading zeros.
const VERSION: &str = "^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$";

/// The integer types a constant, an enum or a flag set may take.
const INTEGER_TYPES: [&str; 8] = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];

/// The JSON Schema of `schema.toml`, as a JSON value.
pub fn schema_json() -> Value {
    let name = |what: &str| {
        json!({
            "type": "string",
            "pattern": NAME,
            "description": format!("The {what}'s name, snake_case: lowercase ASCII letters and digits, words joined by single underscores, starting with a letter."),
        })
    };
    let doc = |what: &str| {
        json!({
            "type": "string",
            "description": format!("Documentation of the {what}, carried into every target."),
        })
    };
    let since = |what: &str| {
        json!({
            "type": "string",
            "pattern": VERSION,
            "description": format!("The ABI version that added the {what}, MAJOR.MINOR without leading zeros; not later than [abi] version."),
        })
    };
    let value = json!({
        "description": "An integer, in any radix TOML allows (64, 0x10000, 0o17, 0b101, with _ separators), or a string holding an integer expression: literals, the names of constants declared earlier, * / % + - << >> & ^ |, unary - and parentheses.",
        "anyOf": [
            { "type": "integer" },
            { "type": "string", "minLength": 1 },
        ],
    });
    let parties = |what: &str| {
        json!({
            "description": format!("Who {what}: a party of [abi] parties, or an array of them."),
            "anyOf": [
                { "type": "string", "pattern": NAME },
                { "type": "array", "minItems": 1, "items": { "type": "string", "pattern": NAME } },
            ],
        })
    };
    let path = json!({
        "type": "string",
        "pattern": "^[a-z][a-z0-9]*(_[a-z0-9]+)*\\.[a-z][a-z0-9]*(_[a-z0-9]+)*$",
        "description": "struct.field, such as bridge_header.snapshot_seq.",
    });
    let literal = "[0-9][0-9_]*|0[xX][0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+";
    let ident = "[a-z][a-z0-9]*(_[a-z0-9]+)*";
    let field_type = json!({
        "type": "string",
        "pattern": format!("^{ident}(\\[({literal}|{ident})\\])?$"),
        "not": { "const": "char" },
        "description": "u8 u16 u32 u64 i8 i16 i32 i64 f32 f64; char[N] (N bytes of NUL-terminated text); the name of an [[enum]], [[flags]] or [[struct]]; or T[N], an array of any of these. N is a positive integer literal or the name of a constant, not an expression. Arrays of arrays are not supported.",
    });
    let field = json!({
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
            "type": field_type,
            "count": {
                "type": "string",
                "pattern": format!("^_?{ident}(\\._?{ident})*$"),
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
            "writer": parties("writes the field, when not its struct's writer"),
            "doc": doc("field"),
            "since": since("field"),
        },
    });
    let trailer_part = json!({
        "type": "object",
        "description": "What follows the struct in its region: a name, a type and optionally the field holding its length in bytes, and doc.",
        "additionalProperties": false,
        "required": ["name", "type"],
        "properties": {
            "name": name("trailer part"),
            "type": {
                "type": "string",
                "pattern": format!("^{ident}(\\[({literal}|{ident})\\])?$"),
                "description": "A primitive, enum or struct, or an array of one (param_def[max_params]). It starts where the previous part ends, naturally aligned.",
            },
            "size": {
                "type": "string",
                "pattern": NAME,
                "description": "The struct's unsigned integer field that holds the part's length in bytes at run time, when it varies (a ring slot's payload).",
            },
            "doc": doc("trailer part"),
        },
    });
    let enum_value = json!({
        "type": "object",
        "description": "A value: its name, its number and optionally doc and since.",
        "additionalProperties": false,
        "required": ["name", "value"],
        "properties": {
            "name": name("value"),
            "value": value,
            "doc": doc("value"),
            "since": since("value"),
        },
    });
    let enum_item = |kind: &str, reprs: &[&str], rule: &str| {
        let mut item = json!({
            "type": "object",
            "description": format!("An [[{kind}]] item. {rule}"),
            "additionalProperties": false,
            "required": ["name", "repr", "values"],
            "properties": {
                "name": name(kind),
                "repr": {
                    "enum": reprs,
                    "description": format!("The width the {kind} has in a struct: {}.", reprs.join(" ")),
                },
                "doc": doc(kind),
                "since": since(kind),
                "values": {
                    "type": "array",
                    "minItems": 1,
                    "items": enum_value,
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
    };
    let handshake = json!({
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
    });
    let layout = json!({
        "type": "array",
        "description": "Layout tables.",
        "items": {
            "type": "object",
            "description": "A [[layout]]: a header struct whose table (an array of rows with unsigned offset and size fields, offsets from the header's start; size 0 means absent) is indexed by an enum, and what each row's region holds. attach checks every row: inside the extent, aligned, large enough, not overlapping another.",
            "additionalProperties": false,
            "required": ["name", "header", "table", "index", "rows"],
            "properties": {
                "name": name("layout"),
                "header": { "type": "string", "pattern": NAME, "description": "The struct at the start of the bridge or block." },
                "table": { "type": "string", "pattern": NAME, "description": "The header's array field holding the rows; its count, when declared, says how many rows are in use." },
                "index": { "type": "string", "pattern": NAME, "description": "The enum whose values index the rows; every value needs a row." },
                "extent": { "type": "string", "minLength": 1, "description": "The header's unsigned field holding the bytes the bridge or block spans." },
                "doc": doc("layout"),
                "rows": {
                    "type": "array",
                    "minItems": 1,
                    "description": "One inline table per region.",
                    "items": {
                        "type": "object",
                        "description": "A region: struct (with count and bytes), ring, blocks (with count and stride), or bytes alone.",
                        "additionalProperties": false,
                        "required": ["name"],
                        "properties": {
                            "name": { "type": "string", "pattern": NAME, "description": "The index enum's value naming the row." },
                            "struct": { "type": "string", "pattern": NAME, "description": "The region starts with this struct and its trailer." },
                            "count": value.clone(),
                            "bytes": value.clone(),
                            "ring": { "type": "string", "pattern": NAME, "description": "The region is this [[ring]] of slots." },
                            "blocks": { "type": "string", "pattern": NAME, "description": "The region is count blocks, stride bytes apart, each laid out by this [[layout]]." },
                            "stride": value.clone(),
                            "owner": { "type": "string", "pattern": NAME, "description": "With blocks: the [[session]] whose row i owns block i. The host's free and reload then restore what in the row's blocks would refuse its next client: a mailbox's waiting request is answered with status 0 and no text, an exchange goes back to its initial state; a queue keeps its entries for the host to drain." },
                            "overlaps": { "type": "array", "items": { "type": "string", "pattern": NAME }, "description": "Other rows this region may overlap." },
                            "optional": { "type": "boolean", "description": "Any producer may leave the region out (size 0). A row whose enum value is newer than the producer may always be absent." },
                            "doc": doc("row"),
                        },
                    },
                },
            },
        },
    });
    let file = file_json(&value);
    let powers_of_two: Vec<u64> = (0..32).map(|b| 1u64 << b).collect();
    let protocols = protocols::protocol_tables(NAME, &parties);
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "codegen ABI schema (schema.toml)",
        "description": "An ABI schema: one [abi] table and any number of [[const]], [[enum]], [[flags]], [[struct]], [[seqlock]], [[ring]], [[queue]], [[broadcast]], [[mailbox]], [[exchange]], [[session]], [[directory]], [[layout]], [[file]] and [[template]] items, in any order. Every table rejects keys it does not know. See codegen/README.md.",
        "type": "object",
        "additionalProperties": false,
        "required": ["abi"],
        "properties": {
            "abi": {
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
                    "doc": doc("ABI"),
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
            },
            "const": {
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
                        "value": value,
                        "type": {
                            "enum": INTEGER_TYPES,
                            "description": "Optional: the constant's type, which the value must fit. A constant used as an array length must not declare one (it is usize in Rust).",
                        },
                        "doc": doc("constant"),
                        "since": since("constant"),
                    },
                },
            },
            "enum": {
                "type": "array",
                "description": "Enums.",
                "items": enum_item("enum", &INTEGER_TYPES, "Its value names are unique within it and every value fits repr; two names may share a number."),
            },
            "flags": {
                "type": "array",
                "description": "Flag sets.",
                "items": enum_item("flags", &INTEGER_TYPES[..4], "Its values are single bits (0x1, 0x2, 0x4, ...), and no two flags share a bit."),
            },
            "struct": {
                "type": "array",
                "description": "Structs.",
                "items": {
                    "type": "object",
                    "description": "A [[struct]] item: a name and its fields, laid out by the C rules for naturally aligned structs with every padding byte declared.",
                    "additionalProperties": false,
                    "required": ["name", "fields"],
                    "properties": {
                        "name": name("struct"),
                        "doc": doc("struct"),
                        "since": since("struct"),
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
                        "writer": parties("writes the struct's fields; declaring it makes the struct shared, and the structs it holds too"),
                        "fields": {
                            "type": "array",
                            "minItems": 1,
                            "items": field,
                            "description": "An array of inline tables, one field per line.",
                        },
                        "trailer": {
                            "type": "array",
                            "minItems": 1,
                            "items": trailer_part,
                            "description": "What follows the struct in its region, in order (the records after a header); a seqlock may guard its parts.",
                        },
                        "version": handshake,
                    },
                },
            },
            "seqlock": {
                "type": "array",
                "description": "Seqlocks.",
                "items": {
                    "type": "object",
                    "description": "A [[seqlock]]: a counter that is odd while its writer writes the bytes it guards. A reader copies them and keeps the copy only if the counter was even and unchanged.",
                    "additionalProperties": false,
                    "required": ["name", "counter", "guards", "writer", "reader"],
                    "properties": {
                        "name": name("seqlock"),
                        "counter": path.clone(),
                        "guards": {
                            "type": "array",
                            "minItems": 1,
                            "items": { "type": "string", "pattern": NAME },
                            "description": "What the counter guards: rest (every other non-atomic field of its struct), fields of its struct by name, or parts of its trailer.",
                        },
                        "writer": parties("writes the guarded bytes"),
                        "reader": parties("reads the guarded bytes"),
                        "doc": doc("seqlock"),
                    },
                },
            },
            "ring": {
                "type": "array",
                "description": "Rings.",
                "items": {
                    "type": "object",
                    "description": "A [[ring]]. kind slots: slot_count seqlocked slots of slot_size bytes and a head counter of publications; the newest is (head - 1) % slot_count. kind events: a total counter and an array holding entry i at i % its length.",
                    "additionalProperties": false,
                    "required": ["name", "kind"],
                    "properties": {
                        "name": name("ring"),
                        "kind": { "enum": ["slots", "events"], "description": "slots or events." },
                        "doc": doc("ring"),
                        "head": path.clone(),
                        "slot_count": { "type": "string", "pattern": NAME, "description": "slots: the constant that counts the slots." },
                        "slot_size": { "type": "string", "pattern": NAME, "description": "slots: the constant that gives a slot's size in bytes, its header included." },
                        "seqlock": { "type": "string", "pattern": NAME, "description": "slots: the [[seqlock]] whose counter's struct starts each slot and which guards the payload." },
                        "publish_seq": { "type": "string", "pattern": NAME, "description": "slots, optional: the field of the slot's struct (guarded by the seqlock, of the head's type) that publish stamps with the head's new value, the slot's publication number." },
                        "total": path.clone(),
                        "entries": path,
                    },
                },
            },
            "layout": layout,
            "file": file,
            "template": {
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
            },
        },
    });
    schema["properties"]
        .as_object_mut()
        .expect("the schema's properties are an object")
        .extend(protocols);
    schema
}

/// `[[file]]`: a file format, its records and where each sits.
fn file_json(value: &Value) -> Value {
    let path = |what: &str| json!({ "type": "string", "minLength": 1, "description": what });
    json!({
        "type": "array",
        "description": "File formats, decoded whole by abi-codegen inspect NAME FILE.",
        "items": {
            "type": "object",
            "description": "A [[file]]: the records a file holds, found in the order declared, each placed by the records before it; totals and ordered fields that tie them together.",
            "additionalProperties": false,
            "required": ["name", "records"],
            "properties": {
                "name": { "type": "string", "pattern": NAME, "description": "The format's name, distinct from every struct and layout: abi-codegen inspect NAME FILE." },
                "doc": { "type": "string", "description": "What the file is." },
                "records": {
                    "type": "array",
                    "minItems": 1,
                    "description": "One inline table per record: a struct and exactly one of at, after or zlib.",
                    "items": {
                        "type": "object",
                        "description": "A record: one copy, count copies back to back, one copy per copy of another record (x[].field), or records packed in zlib streams.",
                        "additionalProperties": false,
                        "required": ["name", "struct"],
                        "properties": {
                            "name": { "type": "string", "pattern": NAME, "description": "The record's name, for paths such as footer.chunk_count." },
                            "struct": { "type": "string", "pattern": NAME, "description": "The struct each copy is decoded as." },
                            "at": { "description": "Where it sits: an offset (an integer, or an expression over constants in which a struct's name stands for its size), end - N from the end, x.field (the offset one copy of x holds) or x[].field (one copy per copy of x).", "anyOf": [value.clone(), { "type": "string", "minLength": 1 }] },
                            "after": { "type": "string", "pattern": NAME, "description": "Right after the last copy of this record." },
                            "count": path("With at or after: x.field, how many copies back to back. With zlib: the stream record's field counting the records inside."),
                            "walk": { "type": "string", "pattern": NAME, "description": "With at = x[].field: when x is missing or broken, find the copies from the end of this record forward, each right after the one before and its zlib stream." },
                            "indexed": { "type": "array", "description": "With at = x[].field: index_field = field, a field of the copy of x that places each copy of this record that repeats a field of that copy (a reader trusts the index; a writer fills it).", "items": { "type": "string", "minLength": 3 } },
                            "zlib": { "type": "string", "pattern": NAME, "description": "The records sit in the zlib stream that follows each copy of this record." },
                            "stored": path("With zlib: the stream record's field holding the stream's bytes."),
                            "raw": path("With zlib: the stream record's field holding the bytes the stream inflates to."),
                            "size": path("With zlib: this struct's field holding the whole record's bytes."),
                            "data": path("With zlib: this struct's field holding the bytes that follow the struct."),
                            "encoding": encoding_json(),
                            "seek": seek_json(),
                            "doc": { "type": "string", "description": "What the record is." },
                        },
                    },
                },
                "totals": {
                    "type": "array",
                    "description": "Fields that must equal a sum or a count over other records, or a field of a record's first or last copy.",
                    "items": {
                        "type": "object",
                        "description": "total and exactly one of sum, count, first and last.",
                        "additionalProperties": false,
                        "required": ["total"],
                        "properties": {
                            "total": path("record.field of a record with one copy."),
                            "sum": path("record.field: the sum over every copy of the record."),
                            "count": { "type": "string", "pattern": NAME, "description": "A record: how many copies the file holds." },
                            "first": path("record.field: the field of the record's first copy in the file (0 without one)."),
                            "last": path("record.field: the field of the record's last copy in the file (0 without one)."),
                        },
                    },
                },
                "ordered": {
                    "type": "array",
                    "description": "record.field paths whose values increase strictly from one copy to the next.",
                    "items": { "type": "string", "minLength": 1 },
                },
            },
        },
    })
}

/// A `[[file]]` record's `encoding`: how its data decodes, record after record.
fn encoding_json() -> Value {
    let path = |what: &str| json!({ "type": "string", "minLength": 1, "description": what });
    json!({
        "type": "object",
        "description": "With zlib and data: how each record's data decodes, record after record. Its kind field says whether the data is as is (plain) or XORed with the previous record's decoded data (xor); the chain restarts with each zlib stream.",
        "additionalProperties": false,
        "required": ["kind", "plain", "restart", "decoded"],
        "properties": {
            "kind": path("This struct's enum field that says how the record's data is encoded."),
            "plain": { "type": "array", "minItems": 1, "description": "The kinds whose data is the decoded data as is: a chain (re)starts with one.", "items": { "type": "string", "pattern": NAME } },
            "xor": { "type": "array", "description": "The kinds whose data is XORed with the previous record's decoded data, of the same length.", "items": { "type": "string", "pattern": NAME } },
            "restart": { "type": "string", "pattern": NAME, "description": "The record the zlib streams follow: each of its copies starts a chain." },
            "decoded": { "type": "string", "pattern": NAME, "description": "The struct the decoded data starts with; extras follow it up to data." },
            "same": { "type": "array", "description": "decoded.field = field: a field of the decoded struct that must equal a field of the record.", "items": { "type": "string", "minLength": 3 } },
        },
    })
}

/// A `[[file]]` record's `seek`: the key `--tick` selects by.
fn seek_json() -> Value {
    let path = |what: &str| json!({ "type": "string", "minLength": 1, "description": what });
    json!({
        "type": "object",
        "description": "With zlib: the field abi-codegen inspect --tick selects a record by, and the stream record's fields that bound the keys its stream holds.",
        "additionalProperties": false,
        "required": ["key"],
        "properties": {
            "key": path("This struct's field that --tick and --ticks select by."),
            "first": path("The stream record's field holding the first key in its stream (with last)."),
            "last": path("The stream record's field holding the last key in its stream (with first)."),
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
