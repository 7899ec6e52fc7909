//! The raw schema's `[[event]]`: an object one party sleeps on and another sets, with the
//! 32-bit word of the layout it waits on, as written. Meaning is checked in
//! `protocols/event.rs`.

use serde::Deserialize;
use toml::Spanned;

use super::value::RawParties;

/// `[[event]]`: who waits and who sets it, one event or one per row of a table, the word a
/// waiter sleeps on (a futex on Linux), and the name of its kernel object on Windows.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub name: Spanned<String>,
    /// Who sleeps on it.
    pub waiter: Spanned<RawParties>,
    /// Who sets it: the word's writer.
    pub setter: Spanned<RawParties>,
    /// One event per row of this table (`bridge_header.clients`); without it, one event.
    #[serde(default)]
    pub rows: Option<Spanned<String>>,
    /// The `struct.field` a waiter sleeps on: 4 bytes and 4-aligned, or with `half =
    /// "low"`, an 8-byte field whose low half (its first 4 bytes, little-endian) is the word.
    pub word: Spanned<String>,
    #[serde(default)]
    pub half: Option<Spanned<String>>,
    /// The Windows event's name under `Local\`: `{mapping}`, `{row}`, `{pid}` and
    /// `{generation}` are replaced by the mapping's name, the row, and the producer's pid and
    /// generation.
    pub windows_name: Spanned<String>,
    /// The fields the waiter's generated helper stores its wake statistics in (the ticks it
    /// waited for and got, the publications it missed, and publish-to-wake's median and 99th
    /// percentile in microseconds), as `struct.field` paths of one struct the waiter writes.
    #[serde(default)]
    pub stats: Option<Spanned<RawEventStats>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `stats = { ticks = "...", skipped = "...", p50_us = "...", p99_us = "..." }`: where an
/// event's waiter stores its wake statistics.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEventStats {
    pub ticks: Spanned<String>,
    pub skipped: Spanned<String>,
    pub p50_us: Spanned<String>,
    pub p99_us: Spanned<String>,
}
