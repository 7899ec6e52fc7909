//! The JSON Schema of the protocol tables: `[[queue]]`, `[[broadcast]]`, `[[mailbox]]`,
//! `[[exchange]]`, `[[session]]`, `[[directory]]` and `[[event]]`, each key with the words of codegen/README.md.

use serde_json::{Map, Value, json};

/// Each table's name, its description, and its keys (`?` marks an optional one).
type Table = (
    &'static str,
    &'static str,
    &'static [(&'static str, Key, &'static str)],
);

/// What a key holds.
#[derive(Clone, Copy)]
enum Key {
    /// A field of the table's header struct (or of its list or row).
    Field,
    /// A `struct.field` path.
    Path,
    /// A struct's name, a constant's, or an enum value's.
    Name,
    /// A positive integer.
    Int,
    /// One party or several.
    Parties,
}

/// The seven tables.
const TABLES: &[Table] = &[
    (
        "queue",
        "A [[queue]]: one writer, one reader, variable-size entries in the area after the header; the writer never overwrites what the reader has not consumed, and drops and counts an entry that does not fit.",
        &[
            (
                "header",
                Key::Name,
                "The struct at the start of the region; the area follows it.",
            ),
            (
                "write_pos",
                Key::Field,
                "The header's atomic u64: bytes ever written (the writer's).",
            ),
            (
                "read_pos",
                Key::Field,
                "The header's atomic u64: bytes ever consumed (the reader's).",
            ),
            (
                "dropped",
                Key::Field,
                "The header's atomic u64: entries that did not fit.",
            ),
            (
                "capacity",
                Key::Field,
                "The header's u32 or u64: the area's bytes, as the host built it.",
            ),
            ("writer", Key::Parties, "Who writes entries."),
            ("reader", Key::Parties, "Who consumes them."),
        ],
    ),
    (
        "broadcast",
        "A [[broadcast]] ring: one writer, any number of readers, the oldest entries overwritten; a reader the writer overtook is told how many entries it missed.",
        &[
            (
                "header",
                Key::Name,
                "The struct at the start of the region; the area follows it.",
            ),
            (
                "write_pos",
                Key::Field,
                "The header's atomic u64: bytes ever written.",
            ),
            (
                "tail_pos",
                Key::Field,
                "The header's atomic u64: the position of the oldest whole entry.",
            ),
            (
                "entries",
                Key::Field,
                "The header's atomic u64: entries written.",
            ),
            (
                "capacity",
                Key::Field,
                "The header's u32 or u64: the area's bytes, as the host built it.",
            ),
            ("writer", Key::Parties, "Who writes entries."),
            ("reader", Key::Parties, "Who reads them."),
        ],
    ),
    (
        "mailbox",
        "A [[mailbox]]: one request at a time from a client, answered by a server, each answer matched to its request by number. The request area follows the header, then the response area.",
        &[
            (
                "header",
                Key::Name,
                "The struct at the start of the region.",
            ),
            (
                "request_seq",
                Key::Field,
                "The header's atomic u32, bumped (release) by the client after each request.",
            ),
            (
                "request_len",
                Key::Field,
                "The header's u32: bytes of the request.",
            ),
            (
                "response_seq",
                Key::Field,
                "The header's atomic u32: the request_seq answered, stored (release) by the server after the rest.",
            ),
            (
                "status",
                Key::Field,
                "The header's 4-byte enum: how the server answered.",
            ),
            (
                "response_len",
                Key::Field,
                "The header's u32: bytes of the answer in the response area.",
            ),
            (
                "response_total",
                Key::Field,
                "The header's u32: bytes of the whole answer, more than response_len when it was cut.",
            ),
            (
                "request_capacity",
                Key::Field,
                "The header's u32: bytes of the request area.",
            ),
            (
                "response_capacity",
                Key::Field,
                "The header's u32: bytes of the response area.",
            ),
            ("client", Key::Parties, "Who sends requests."),
            ("server", Key::Parties, "Who answers them."),
        ],
    ),
    (
        "exchange",
        "An [[exchange]]: a triple buffer of whole lists between one writer and one reader; the state word holds the shared list's index (bits 0-1) and a fresh bit (bit 2), swapped whole by both sides.",
        &[
            (
                "header",
                Key::Name,
                "The struct at the start of the region; the lists follow it.",
            ),
            (
                "state",
                Key::Field,
                "The header's cas u32: bits 0-1 the shared list's index, bit 2 fresh.",
            ),
            (
                "initial_state",
                Key::Int,
                "The state before the first publication, 0 to 2: the writer starts with the lowest other list, the reader with the last.",
            ),
            (
                "buffers",
                Key::Field,
                "The header's u32: how many lists (3).",
            ),
            (
                "buffer_size",
                Key::Field,
                "The header's u32: bytes from one list's header to the next's.",
            ),
            (
                "published",
                Key::Field,
                "The header's atomic u32: lists published.",
            ),
            ("list", Key::Name, "The struct at the start of each list."),
            ("count", Key::Field, "The list's u32: items in it."),
            (
                "payload_len",
                Key::Field,
                "The list's u32: payload bytes in use.",
            ),
            (
                "dropped",
                Key::Field,
                "The list's u32: items that did not fit.",
            ),
            (
                "overflow",
                Key::Path,
                "field.flag: the list's flag-set field and its flag set when something did not fit.",
            ),
            (
                "item",
                Key::Name,
                "The struct of each item after the list's header.",
            ),
            (
                "max_items",
                Key::Field,
                "The header's u32: items a list holds.",
            ),
            (
                "max_payload",
                Key::Field,
                "The header's u32: payload bytes a list holds, after its items.",
            ),
            ("writer", Key::Parties, "Who publishes lists."),
            ("reader", Key::Parties, "Who takes them."),
        ],
    ),
    (
        "session",
        "A [[session]]: the lifecycle of a row clients claim by compare-and-swap and a host frees: claim with a generation bump, fill in, active; heartbeats; a disconnect, a host reload or exit noticed; closing to say goodbye.",
        &[
            ("table", Key::Path, "struct.field: the array of rows."),
            ("state", Key::Field, "The row's cas enum field."),
            ("free", Key::Name, "The state's value of a free row."),
            (
                "claimed",
                Key::Name,
                "The state's value of a row its client is filling in.",
            ),
            ("active", Key::Name, "The state's value of a row in use."),
            (
                "closing",
                Key::Name,
                "The state's value of a row whose client said goodbye.",
            ),
            (
                "generation",
                Key::Field,
                "The row's atomic u32, bumped by each claim.",
            ),
            (
                "heartbeat",
                Key::Field,
                "The row's atomic u64 the client refreshes.",
            ),
            (
                "heartbeat_ms",
                Key::Int,
                "How often the client refreshes it, at least.",
            ),
            (
                "hung_ms",
                Key::Int,
                "A heartbeat older than this counts as hung; longer than heartbeat_ms.",
            ),
            (
                "waiting",
                Key::Field,
                "The row's atomic u32: 1 while the client sleeps on its tick event.",
            ),
            (
                "host_generation",
                Key::Path,
                "struct.field: the atomic u32 that changes when the host reloads.",
            ),
            (
                "host_state",
                Key::Path,
                "struct.field: the host's atomic enum state.",
            ),
            (
                "exiting",
                Key::Name,
                "The host state's value when it is exiting.",
            ),
            (
                "bind?",
                Key::Path,
                "Optional, struct.field: a cas u8[N], a byte per pad naming the row that owns it.",
            ),
            (
                "unbound?",
                Key::Name,
                "With bind: the constant a free pad holds.",
            ),
            ("client", Key::Parties, "Who claims rows."),
            ("host", Key::Parties, "Who frees them."),
        ],
    ),
    (
        "directory",
        "A [[directory]]: the running instances in a mapping of their own: a row claimed by compare-and-swap of its state and pid, filled in, then live; listed newest first; a row whose process is gone, or was created at another time (a reused pid), freed by the next instance.",
        &[
            (
                "mapping",
                Key::Path,
                "The mapping's plain name: Local\\NAME on Windows, /dev/shm/NAME on Linux.",
            ),
            ("header", Key::Name, "The directory's header struct."),
            ("magic", Key::Field, "The header's u32 field with `expect`."),
            ("entry_count", Key::Field, "The header's u32: rows."),
            ("entry_size", Key::Field, "The header's u32: bytes per row."),
            ("entries", Key::Field, "The header's array of rows."),
            ("state", Key::Field, "The row's cas u32 enum field."),
            ("free", Key::Name, "The state's value of a free row: 0."),
            (
                "claimed",
                Key::Name,
                "The state's value of a row being filled in.",
            ),
            ("live", Key::Name, "The state's value of a listed row."),
            (
                "pid",
                Key::Field,
                "The row's u32 process id: with the state, one 8-aligned word.",
            ),
            (
                "process_time",
                Key::Field,
                "The row's u64 process creation time.",
            ),
            ("abi_major", Key::Field, "The row's u16 ABI major version."),
            ("abi_minor", Key::Field, "The row's u16 ABI minor version."),
            (
                "version",
                Key::Field,
                "The row's char[N] version string of the instance.",
            ),
            ("owner", Key::Parties, "Who registers."),
            ("reader", Key::Parties, "Who lists."),
        ],
    ),
    (
        "event",
        "An [[event]]: what one party sleeps on and another sets: a futex on a 32-bit word of the layout on Linux, a named auto-reset event on Windows. Every wait has a deadline, and a wake only means: look again.",
        &[
            ("waiter", Key::Parties, "Who sleeps on it."),
            ("setter", Key::Parties, "Who sets it: the word's writer."),
            (
                "rows?",
                Key::Path,
                "Optional, struct.field: one event per row of this array of structs; without it, one event.",
            ),
            (
                "word",
                Key::Path,
                "struct.field: the atomic, 4-aligned u32 a waiter sleeps on, written by the setter.",
            ),
            (
                "half?",
                Key::Name,
                "Optional, \"low\": the word is the first 4 bytes of the 8-byte `word` (little-endian).",
            ),
            (
                "windows_name",
                Key::Path,
                "The Windows event's name under Local\\: text with {mapping}, {row} (exactly when per row), {pid} and {generation}.",
            ),
        ],
    ),
];

/// The event's optional `stats` table: the fields its waiter stores its wake statistics in.
fn event_stats() -> Value {
    let path = |d: &str| json!({ "type": "string", "minLength": 3, "description": d });
    json!({
        "type": "object",
        "description": "Optional: where the waiter's generated helper stores its wake statistics, `struct.field` paths of one struct the waiter writes, guarded by no seqlock.",
        "additionalProperties": false,
        "required": ["ticks", "skipped", "p50_us", "p99_us"],
        "properties": {
            "ticks": path("A u64: the publications waited for and got."),
            "skipped": path("A u64: the publications missed, the latest winning."),
            "p50_us": path("An f32: publish-to-wake's median over the last waits, in microseconds."),
            "p99_us": path("An f32: publish-to-wake's 99th percentile, in microseconds."),
        },
    })
}

/// The queue's and broadcast ring's `entry` table.
fn entry(broadcast: bool, pattern: &str) -> Value {
    let name = |d: &str| json!({ "type": "string", "pattern": pattern, "description": d });
    let mut props = Map::new();
    props.insert(
        "struct".into(),
        name("The struct at the start of each entry."),
    );
    props.insert("size".into(), name("Its unsigned field holding the whole entry's bytes, a multiple of 8, in its first 8 bytes."));
    props.insert(
        "kind".into(),
        name("Its enum field saying what the entry is, in its first 8 bytes."),
    );
    props.insert(
        "record".into(),
        name("The kind's value of an entry that holds data."),
    );
    props.insert("padding".into(), name("The kind's value of the entry that fills the area to its end; the next entry starts at offset 0."));
    props.insert(
        "parts".into(),
        json!({
            "type": "array",
            "description": "The byte strings after the entry's struct, in order.",
            "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["name", "len", "max"],
                "properties": {
                    "name": name("The part's name, which the generated push takes as an argument."),
                    "len": name("The entry struct's unsigned field holding the part's length."),
                    "max": name("The constant bounding it."),
                },
            },
        }),
    );
    let mut required = vec!["struct", "size", "kind", "record", "padding"];
    if broadcast {
        props.insert(
            "seq".into(),
            name("The entry struct's u64 field holding the entries written before it."),
        );
        required.push("seq");
    }
    json!({
        "type": "object",
        "description": "How each variable-size entry says what it is.",
        "additionalProperties": false,
        "required": required,
        "properties": props,
    })
}

/// The five protocol tables, keyed by table name, for the schema's top-level properties;
/// `pattern` is the one names match.
pub(super) fn protocol_tables(
    pattern: &str,
    parties: &dyn Fn(&str) -> Value,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (table, description, keys) in TABLES {
        let mut props = Map::new();
        let mut required = vec![json!("name")];
        props.insert(
            "name".into(),
            json!({ "type": "string", "pattern": pattern, "description": format!("The {table}'s name, snake_case, unique among protocols.") }),
        );
        props.insert(
            "doc".into(),
            json!({ "type": "string", "description": format!("Documentation of the {table}, carried into every target.") }),
        );
        for (key, kind, what) in *keys {
            let (key, optional) = match key.strip_suffix('?') {
                Some(k) => (k, true),
                None => (*key, false),
            };
            let value = match kind {
                Key::Field | Key::Name => {
                    json!({ "type": "string", "pattern": pattern, "description": what })
                }
                Key::Path => json!({ "type": "string", "minLength": 3, "description": what }),
                Key::Int => json!({ "type": "integer", "minimum": 0, "description": what }),
                Key::Parties => parties(&what.to_lowercase()),
            };
            props.insert(key.into(), value);
            if !optional {
                required.push(json!(key));
            }
        }
        if matches!(*table, "queue" | "broadcast") {
            props.insert("entry".into(), entry(*table == "broadcast", pattern));
            required.push(json!("entry"));
        }
        if *table == "event" {
            props.insert("stats".into(), event_stats());
        }
        out.insert(
            (*table).into(),
            json!({
                "type": "array",
                "description": description,
                "items": {
                    "type": "object",
                    "description": description,
                    "additionalProperties": false,
                    "required": required,
                    "properties": props,
                },
            }),
        );
    }
    out
}
