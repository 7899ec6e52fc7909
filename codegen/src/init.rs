//! `abi-codegen init`: a small, commented starter schema with one of each declaration kind
//! asked for (a seqlock, an events ring, a queue, a mailbox, a session, a file format, and a
//! layout that places every region the others need), which loads and generates
//! warning-free outputs in every language.

use std::fmt::Write;

/// A declaration kind the starter schema can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// A `[[seqlock]]` over a state record.
    Seqlock,
    /// An events `[[ring]]`: a total and an array of entries.
    Ring,
    /// A `[[queue]]`: one writer, one reader, entries of a source and a text.
    Queue,
    /// A `[[mailbox]]`: one request at a time, answers matched by number.
    Mailbox,
    /// A `[[session]]`: the lifecycle of a claimed row.
    Session,
    /// A `[[file]]` format of one record.
    File,
    /// A `[[layout]]` with a version handshake, placing the regions of the other kinds.
    Layout,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Seqlock,
        Kind::Ring,
        Kind::Queue,
        Kind::Mailbox,
        Kind::Session,
        Kind::File,
        Kind::Layout,
    ];

    /// The word `--kinds` takes.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Seqlock => "seqlock",
            Kind::Ring => "ring",
            Kind::Queue => "queue",
            Kind::Mailbox => "mailbox",
            Kind::Session => "session",
            Kind::File => "file",
            Kind::Layout => "layout",
        }
    }
}

const HEADER: &str = r#"# A starter schema written by `abi-codegen init`: edit it, then run
# `abi-codegen generate`. Every key is explained in codegen/README.md; `abi-codegen check`
# tells when the generated files are stale, `abi-codegen diff --base main` what a change
# does to readers built at the old version.

[abi]
name = "starter"
title = "A starter ABI"
version = "0.1"
c_prefix = "st"
byte_order = "little"
# The processes that share the memory: every struct and field says which one writes it.
parties = ["host", "client"]
"#;

const SEQLOCK: &str = r#"
# A record the host rewrites while clients copy it: the seqlock's counter is odd while a
# write is under way, so a reader retries instead of taking torn bytes.
[[struct]]
name = "state"
writer = "host"
fields = [
  { name = "seq", type = "u32", access = "atomic", doc = "The seqlock's counter" },
  { name = "mode", type = "u32" },
  { name = "tick", type = "u64" },
]

[[seqlock]]
name = "state_lock"
counter = "state.seq"
guards = ["rest"]               # every field after the counter
writer = "host"
reader = "client"
"#;

const RING: &str = r#"
# An events ring: the host appends entries and bumps the total; readers see the latest.
[[struct]]
name = "events"
writer = "host"
fields = [
  { name = "total", type = "u32", access = "atomic", doc = "Entries ever written" },
  { name = "_pad4", type = "u8[4]" },
  { name = "entries", type = "u64[8]" },
]

[[ring]]
name = "event_ring"
kind = "events"
total = "events.total"
entries = "events.entries"
"#;

const QUEUE_TYPES: &str = r#"
# A log queue: a client writes entries of a source and a text, the host drains them; a
# full queue drops the entry and counts it.
[[const]]
name = "log_source_max"
value = 16

[[const]]
name = "log_text_max"
value = 120

[[const]]
name = "log_queue_capacity"
value = 4096
doc = "Bytes of entries after the queue's header"

[[enum]]
name = "entry_kind"
repr = "u8"
values = [
  { name = "record", value = 0 },
  { name = "padding", value = 1 },
]

[[struct]]
name = "log_entry"
fields = [
  { name = "size", type = "u16" },
  { name = "kind", type = "entry_kind" },
  { name = "source_len", type = "u8" },
  { name = "text_len", type = "u16" },
  { name = "_pad6", type = "u8[2]" },
]
"#;

const QUEUE: &str = r#"
[[queue]]
name = "log_queue"
header = "log_queue_header"     # the struct at the start of the region; the entries follow it
write_pos = "write_pos"
read_pos = "read_pos"
dropped = "dropped"
capacity = "capacity"
entry = { struct = "log_entry", size = "size", kind = "kind", record = "record", padding = "padding", parts = [
  { name = "source", len = "source_len", max = "log_source_max" },
  { name = "text", len = "text_len", max = "log_text_max" },
] }
writer = "client"
reader = "host"
"#;

const MAILBOX_TYPES: &str = r#"
# A mailbox: a client sends one request at a time, the host answers it.
[[enum]]
name = "status"
repr = "u32"
values = [
  { name = "ok", value = 0 },
  { name = "failed", value = 1 },
]
"#;

/// The mailbox's header; `{request}` and `{response}` are its capacities' `geometry` (in a
/// layout, where `lay_out` writes them) or nothing.
const MAILBOX_HEADER: &str = r#"
[[struct]]
name = "mailbox_header"
writer = "host"
fields = [
  { name = "request_seq", type = "u32", access = "atomic", writer = "client" },
  { name = "request_len", type = "u32", writer = "client" },
  { name = "response_seq", type = "u32", access = "atomic" },
  { name = "status", type = "status" },
  { name = "response_len", type = "u32" },
  { name = "response_total", type = "u32" },
  { name = "request_capacity", type = "u32"{request} },
  { name = "response_capacity", type = "u32"{response} },
]
"#;

const MAILBOX_CAPACITIES: &str = r#"
# The mailbox's areas: the request follows the header, the response follows the request.
# In the layout, the host's lay_out writes these sizes into the header and readers check
# the region holds them.
[[const]]
name = "mailbox_request_capacity"
value = 224

[[const]]
name = "mailbox_response_capacity"
value = 256
"#;

const MAILBOX: &str = r#"
[[mailbox]]
name = "commands"
header = "mailbox_header"
request_seq = "request_seq"
request_len = "request_len"
response_seq = "response_seq"
status = "status"
response_len = "response_len"
response_total = "response_total"
request_capacity = "request_capacity"
response_capacity = "response_capacity"
client = "client"
server = "host"
"#;

const SESSION: &str = r#"
# A session: a client claims a free row, keeps it alive with heartbeats, and closes it;
# the host frees the rows of clients that hang.
[[const]]
name = "max_clients"
value = 4

[[enum]]
name = "row_state"
repr = "u32"
values = [
  { name = "free", value = 0 },
  { name = "claimed", value = 1 },
  { name = "active", value = 2 },
  { name = "closing", value = 3 },
]

[[enum]]
name = "host_state"
repr = "u32"
values = [
  { name = "running", value = 0 },
  { name = "exiting", value = 1 },
]

[[struct]]
name = "client_row"
writer = ["host", "client"]
fields = [
  { name = "state", type = "row_state", access = "cas" },
  { name = "generation", type = "u32", access = "atomic", writer = "client" },
  { name = "heartbeat_ns", type = "u64", access = "atomic", writer = "client" },
  { name = "waiting", type = "u32", access = "atomic", writer = "client" },
  { name = "_pad20", type = "u8[4]" },
]

[[struct]]
name = "sessions"
writer = "host"
fields = [
  { name = "host_generation", type = "u32", access = "atomic" },
  { name = "host_state", type = "host_state", access = "atomic" },
  { name = "rows", type = "client_row[max_clients]", writer = ["host", "client"] },
]

[[session]]
name = "client"
table = "sessions.rows"
state = "state"
free = "free"
claimed = "claimed"
active = "active"
closing = "closing"
generation = "generation"
heartbeat = "heartbeat_ns"
heartbeat_ms = 100
hung_ms = 1000
waiting = "waiting"
host_generation = "sessions.host_generation"
host_state = "sessions.host_state"
exiting = "exiting"
client = "client"
host = "host"
"#;

const FILE: &str = r#"
# A file format: a recording of samples, read back by the generated readers.
[[struct]]
name = "sample"
fields = [
  { name = "stamp", type = "u64", doc = "Nanoseconds" },
  { name = "value", type = "u32" },
  { name = "_pad12", type = "u8[4]" },
]

[[file]]
name = "recording"
records = [
  { name = "sample", struct = "sample", at = 0 },
]
"#;

/// The starter schema with one of each kind in `kinds` (all of them when empty).
pub fn starter_schema(kinds: &[Kind]) -> String {
    let mut kinds: Vec<Kind> = if kinds.is_empty() {
        Kind::ALL.to_vec()
    } else {
        kinds.to_vec()
    };
    kinds.sort_unstable();
    kinds.dedup();
    let has = |k: Kind| kinds.contains(&k);
    let layout = has(Kind::Layout);
    let mut out = String::from(HEADER);
    if layout {
        out.push_str(
            r#"
[[const]]
name = "starter_magic"
value = 0x52415453
doc = "'STAR' read as a little-endian u32: the first bytes of an image"

[[const]]
name = "max_regions"
value = 8
"#,
        );
    }
    for (kind, text) in [
        (Kind::Seqlock, SEQLOCK),
        (Kind::Ring, RING),
        (Kind::Session, SESSION),
        (Kind::File, FILE),
    ] {
        if has(kind) {
            out.push_str(text);
        }
    }
    if has(Kind::Mailbox) {
        out.push_str(MAILBOX_TYPES);
        // In a layout, lay_out writes the capacities the areas after the header have.
        let (request, response) = if layout {
            out.push_str(MAILBOX_CAPACITIES);
            (
                ", geometry = \"mailbox_request_capacity\"",
                ", geometry = \"mailbox_response_capacity\"",
            )
        } else {
            ("", "")
        };
        out.push_str(
            &MAILBOX_HEADER
                .replace("{request}", request)
                .replace("{response}", response),
        );
        out.push_str(MAILBOX);
    }
    if has(Kind::Queue) {
        out.push_str(QUEUE_TYPES);
        // In a layout, the host writes the queue's capacity and readers follow it.
        let geometry = if layout {
            ", geometry = \"log_queue_capacity\""
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"
[[struct]]
name = "log_queue_header"
writer = "client"
fields = [
  {{ name = "write_pos", type = "u64", access = "atomic" }},
  {{ name = "dropped", type = "u64", access = "atomic" }},
  {{ name = "read_pos", type = "u64", access = "atomic", writer = "host" }},
  {{ name = "capacity", type = "u32", writer = "host"{geometry} }},
  {{ name = "_pad28", type = "u8[4]" }},
]
"#
        );
        out.push_str(QUEUE);
    }
    if layout {
        out.push_str(&layout_text(&kinds));
    }
    out
}

/// The layout: a header with a version handshake and a table of regions, and a row for the
/// struct of each other kind.
fn layout_text(kinds: &[Kind]) -> String {
    let rows: Vec<(&str, String)> = kinds
        .iter()
        .filter_map(|k| match k {
            Kind::Seqlock => Some(("state", "struct = \"state\"".to_string())),
            Kind::Ring => Some(("events", "struct = \"events\"".to_string())),
            Kind::Queue => Some((
                "log_queue",
                "struct = \"log_queue_header\", bytes = \"log_queue_capacity\"".to_string(),
            )),
            Kind::Mailbox => Some((
                "mailbox",
                "struct = \"mailbox_header\", bytes = \"mailbox_request_capacity + mailbox_response_capacity\"".to_string(),
            )),
            Kind::Session => Some(("sessions", "struct = \"sessions\"".to_string())),
            Kind::File | Kind::Layout => None,
        })
        .collect();
    let mut out = String::from(
        r#"
# The layout of an image: a header the host writes first (magic, version, sizes), then a
# table of regions; a reader attaches by checking the header and finding each region.
[[enum]]
name = "region"
repr = "u32"
values = [
  { name = "header", value = 0 },
"#,
    );
    for (i, (name, _)) in rows.iter().enumerate() {
        let _ = writeln!(out, "  {{ name = \"{name}\", value = {} }},", i + 1);
    }
    out.push_str(
        r#"]

[[struct]]
name = "region_entry"
fields = [
  { name = "offset", type = "u32" },
  { name = "size", type = "u32" },
]

[[struct]]
name = "header"
writer = "host"
extensible = true
version = { magic = "magic", major = "major", minor = "minor", size = "header_size" }
fields = [
  { name = "magic", type = "u32", expect = "starter_magic" },
  { name = "major", type = "u16" },
  { name = "minor", type = "u16" },
  { name = "header_size", type = "u32" },
  { name = "total_size", type = "u32" },
  { name = "region_count", type = "u32" },
  { name = "_pad20", type = "u8[4]" },
  { name = "regions", type = "region_entry[max_regions]", count = "region_count" },
]

[[layout]]
name = "image"
header = "header"
table = "regions"
index = "region"
extent = "total_size"
rows = [
  { name = "header", struct = "header" },
"#,
    );
    for (name, holds) in &rows {
        let _ = writeln!(out, "  {{ name = \"{name}\", {holds} }},");
    }
    out.push_str("]\n");
    out
}
