//! The raw schema's protocol declarations: `[[queue]]`, `[[broadcast]]`, `[[mailbox]]`,
//! `[[exchange]]` and `[[session]]`, each naming the fields of a header struct that a
//! protocol's two sides use, as written. Meaning is checked in `protocols/`.

use serde::Deserialize;
use toml::Spanned;

use super::value::RawParties;

/// `entry = { ... }` of a queue or a broadcast ring: how each variable-size entry says
/// what it is.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEntry {
    /// The struct at the start of each entry.
    #[serde(rename = "struct")]
    pub structure: Spanned<String>,
    /// Its unsigned field holding the whole entry's bytes, a multiple of 8.
    pub size: Spanned<String>,
    /// Its enum field saying what the entry is.
    pub kind: Spanned<String>,
    /// The kind's value of the entry that fills the area to its end.
    pub padding: Spanned<String>,
    /// The kind's value of an entry that holds data.
    pub record: Spanned<String>,
    /// The byte strings after the entry's struct, in order.
    #[serde(default)]
    pub parts: Vec<Spanned<RawPart>>,
    /// broadcast: its `u64` field holding the entries written before it.
    #[serde(default)]
    pub seq: Option<Spanned<String>>,
}

/// One byte string after an entry's struct: the field holding its length, and the
/// constant that bounds it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPart {
    pub name: Spanned<String>,
    pub len: Spanned<String>,
    pub max: Spanned<String>,
}

/// `[[queue]]`: one writer, one reader, variable-size entries in a byte area after the
/// header; the writer never overwrites what the reader has not consumed, and drops and
/// counts an entry that does not fit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawQueue {
    pub name: Spanned<String>,
    pub header: Spanned<String>,
    pub write_pos: Spanned<String>,
    pub read_pos: Spanned<String>,
    pub dropped: Spanned<String>,
    pub capacity: Spanned<String>,
    pub entry: Spanned<RawEntry>,
    pub writer: Spanned<RawParties>,
    pub reader: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[broadcast]]`: one writer, any number of readers, the oldest entries overwritten.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBroadcast {
    pub name: Spanned<String>,
    pub header: Spanned<String>,
    pub write_pos: Spanned<String>,
    pub tail_pos: Spanned<String>,
    pub entries: Spanned<String>,
    pub capacity: Spanned<String>,
    pub entry: Spanned<RawEntry>,
    pub writer: Spanned<RawParties>,
    pub reader: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[mailbox]]`: one request at a time from a client, answered by a server, each answer
/// matched to its request by number.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMailbox {
    pub name: Spanned<String>,
    pub header: Spanned<String>,
    pub request_seq: Spanned<String>,
    pub request_len: Spanned<String>,
    pub response_seq: Spanned<String>,
    pub status: Spanned<String>,
    pub response_len: Spanned<String>,
    pub response_total: Spanned<String>,
    pub request_capacity: Spanned<String>,
    pub response_capacity: Spanned<String>,
    pub client: Spanned<RawParties>,
    pub server: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[exchange]]`: a triple buffer of whole lists between one writer and one reader.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExchange {
    pub name: Spanned<String>,
    pub header: Spanned<String>,
    /// The `u32` word: bits 0-1 the shared list's index, bit 2 fresh.
    pub state: Spanned<String>,
    /// The state before the first publication; the writer starts with list 0 and the
    /// reader with the list neither holds.
    pub initial_state: Spanned<i64>,
    pub buffers: Spanned<String>,
    pub buffer_size: Spanned<String>,
    /// The header's count of lists published.
    pub published: Spanned<String>,
    /// The struct at the start of each list.
    pub list: Spanned<String>,
    /// The struct of each item after it.
    pub item: Spanned<String>,
    /// The list's field counting its items.
    pub count: Spanned<String>,
    /// The header's field holding the items a list holds.
    pub max_items: Spanned<String>,
    /// The list's field holding the payload bytes in use.
    pub payload_len: Spanned<String>,
    /// The header's field holding the payload bytes a list holds.
    pub max_payload: Spanned<String>,
    /// `field.flag`: the list's flag set when something did not fit.
    pub overflow: Spanned<String>,
    /// The list's count of items dropped.
    pub dropped: Spanned<String>,
    pub writer: Spanned<RawParties>,
    pub reader: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[session]]`: the lifecycle of a row of a table that clients claim and a host frees.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSession {
    pub name: Spanned<String>,
    /// `struct.field`: the array of rows.
    pub table: Spanned<String>,
    /// The row's compare-and-swap enum field, and its values.
    pub state: Spanned<String>,
    pub free: Spanned<String>,
    pub claimed: Spanned<String>,
    pub active: Spanned<String>,
    pub closing: Spanned<String>,
    /// The row's atomic `u32` bumped by each claim.
    pub generation: Spanned<String>,
    /// The row's atomic `u64` the client refreshes, and how often.
    pub heartbeat: Spanned<String>,
    pub heartbeat_ms: Spanned<i64>,
    /// A heartbeat older than this counts as hung.
    pub hung_ms: Spanned<i64>,
    /// The row's atomic `u32`, 1 while the client sleeps on its tick event.
    pub waiting: Spanned<String>,
    /// `struct.field`: the atomic word that changes when the host reloads.
    pub host_generation: Spanned<String>,
    /// `struct.field`: the host's atomic state, and its value when it is exiting.
    pub host_state: Spanned<String>,
    pub exiting: Spanned<String>,
    /// `struct.field`: a byte per pad holding the row that owns it, bound by
    /// compare-and-swap; and the value of a free one.
    #[serde(default)]
    pub bind: Option<Spanned<String>>,
    #[serde(default)]
    pub unbound: Option<Spanned<String>>,
    pub client: Spanned<RawParties>,
    pub host: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}
