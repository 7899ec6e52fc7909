//! The JSON Schema of `[[file]]`: a file format, its records, totals and ordered fields.

use serde_json::{Value, json};

use super::fragments::{NAME, value_json};

/// `[[file]]`: a file format, its records and where each sits.
pub(super) fn file_json() -> Value {
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
                            "at": { "description": "Where it sits: an offset (an integer, or an expression over constants in which a struct's name stands for its size), end - N from the end, x.field (the offset one copy of x holds) or x[].field (one copy per copy of x).", "anyOf": [value_json(), { "type": "string", "minLength": 1 }] },
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
