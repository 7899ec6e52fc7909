//! The JSON Schema of the shared-memory items of `schema.toml` that are not protocols:
//! `[[seqlock]]`, `[[ring]]` and `[[layout]]`.

use serde_json::{Value, json};

use super::fragments::{NAME, doc_json, name_json, parties_json, path_json, value_json};

/// `[[seqlock]]`: seqlocks, each a counter and what it guards.
pub(super) fn seqlock_json() -> Value {
    json!({
        "type": "array",
        "description": "Seqlocks.",
        "items": {
            "type": "object",
            "description": "A [[seqlock]]: a counter that is odd while its writer writes the bytes it guards. A reader copies them and keeps the copy only if the counter was even and unchanged.",
            "additionalProperties": false,
            "required": ["name", "counter", "guards", "writer", "reader"],
            "properties": {
                "name": name_json("seqlock"),
                "counter": path_json(),
                "guards": {
                    "type": "array",
                    "minItems": 1,
                    "items": { "type": "string", "pattern": NAME },
                    "description": "What the counter guards: rest (every other non-atomic field of its struct), fields of its struct by name, or parts of its trailer.",
                },
                "writer": parties_json("writes the guarded bytes"),
                "reader": parties_json("reads the guarded bytes"),
                "doc": doc_json("seqlock"),
            },
        },
    })
}

/// `[[ring]]`: rings of slots or of events.
pub(super) fn ring_json() -> Value {
    json!({
        "type": "array",
        "description": "Rings.",
        "items": {
            "type": "object",
            "description": "A [[ring]]. kind slots: slot_count seqlocked slots of slot_size bytes and a head counter of publications; the newest is (head - 1) % slot_count. kind events: a total counter and an array holding entry i at i % its length.",
            "additionalProperties": false,
            "required": ["name", "kind"],
            "properties": {
                "name": name_json("ring"),
                "kind": { "enum": ["slots", "events"], "description": "slots or events." },
                "doc": doc_json("ring"),
                "head": path_json(),
                "slot_count": { "type": "string", "pattern": NAME, "description": "slots: the constant that counts the slots." },
                "slot_size": { "type": "string", "pattern": NAME, "description": "slots: the constant that gives a slot's size in bytes, its header included." },
                "seqlock": { "type": "string", "pattern": NAME, "description": "slots: the [[seqlock]] whose counter's struct starts each slot and which guards the payload." },
                "publish_seq": { "type": "string", "pattern": NAME, "description": "slots, optional: the field of the slot's struct (guarded by the seqlock, of the head's type) that publish stamps with the head's new value, the slot's publication number." },
                "total": path_json(),
                "entries": path_json(),
            },
        },
    })
}

/// `[[layout]]`: layout tables, each a header, its table of rows and what each row holds.
pub(super) fn layout_json() -> Value {
    json!({
        "type": "array",
        "description": "Layout tables.",
        "items": {
            "type": "object",
            "description": "A [[layout]]: a header struct whose table (an array of rows with unsigned offset and size fields, offsets from the header's start; size 0 means absent) is indexed by an enum, and what each row's region holds. attach checks every row: inside the extent, aligned, large enough, not overlapping another.",
            "additionalProperties": false,
            "required": ["name", "header", "table", "index", "rows"],
            "properties": {
                "name": name_json("layout"),
                "header": { "type": "string", "pattern": NAME, "description": "The struct at the start of the bridge or block." },
                "table": { "type": "string", "pattern": NAME, "description": "The header's array field holding the rows; its count, when declared, says how many rows are in use." },
                "index": { "type": "string", "pattern": NAME, "description": "The enum whose values index the rows; every value needs a row." },
                "extent": { "type": "string", "minLength": 1, "description": "The header's unsigned field holding the bytes the bridge or block spans." },
                "doc": doc_json("layout"),
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
                            "count": value_json(),
                            "bytes": value_json(),
                            "ring": { "type": "string", "pattern": NAME, "description": "The region is this [[ring]] of slots." },
                            "blocks": { "type": "string", "pattern": NAME, "description": "The region is count blocks, stride bytes apart, each laid out by this [[layout]]." },
                            "stride": value_json(),
                            "owner": { "type": "string", "pattern": NAME, "description": "With blocks: the [[session]] whose row i owns block i. The host's free and reload then restore what in the row's blocks would refuse its next client: a mailbox's waiting request is answered with status 0 and no text, an exchange goes back to its initial state; a queue keeps its entries for the host to drain." },
                            "overlaps": { "type": "array", "items": { "type": "string", "pattern": NAME }, "description": "Other rows this region may overlap." },
                            "optional": { "type": "boolean", "description": "Any producer may leave the region out (size 0). A row whose enum value is newer than the producer may always be absent." },
                            "doc": doc_json("row"),
                        },
                    },
                },
            },
        },
    })
}
