//! The raw schema's shared-memory declarations: `[[layout]]` tables and their rows,
//! `[[seqlock]]` counters and `[[ring]]`s.

use serde::Deserialize;
use toml::Spanned;

use super::value::{RawParties, RawValue};

/// `[[layout]]`: a layout table, a header's array of `{ offset, size }` rows indexed by an
/// enum, and what each row's region holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLayout {
    pub name: Spanned<String>,
    /// The struct at the start of the bridge or block.
    pub header: Spanned<String>,
    /// The header's array field that holds the rows.
    pub table: Spanned<String>,
    /// The enum whose values index the rows.
    pub index: Spanned<String>,
    /// The header's field that holds the bytes the bridge or block spans.
    #[serde(default)]
    pub extent: Option<Spanned<String>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    pub rows: Spanned<Vec<Spanned<RawRow>>>,
}

/// One region of a layout table: exactly one of `struct`, `ring`, `blocks`, or `bytes` on
/// its own.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    /// The index enum's value naming the row.
    pub name: Spanned<String>,
    /// The region starts with this struct (and its trailer).
    #[serde(default, rename = "struct")]
    pub structure: Option<Spanned<String>>,
    /// With `struct`: how many of them, back to back. With `blocks`: how many blocks.
    #[serde(default)]
    pub count: Option<Spanned<RawValue>>,
    /// Bytes that follow (or, alone, the whole region's least size): an expression over
    /// constants, where a struct's name stands for its size.
    #[serde(default)]
    pub bytes: Option<Spanned<RawValue>>,
    /// The region is this `[[ring]]` of slots.
    #[serde(default)]
    pub ring: Option<Spanned<String>>,
    /// The region is `count` blocks, `stride` bytes apart, each laid out by this layout.
    #[serde(default)]
    pub blocks: Option<Spanned<String>>,
    #[serde(default)]
    pub stride: Option<Spanned<RawValue>>,
    /// With `blocks`: the `[[session]]` whose row i owns block i, so that a free, a reload or
    /// a re-layout restores the protocols in it.
    #[serde(default)]
    pub owner: Option<Spanned<String>>,
    /// Other rows this region may overlap.
    #[serde(default)]
    pub overlaps: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether a producer may leave the region out (size 0). A row whose enum value is
    /// newer than the producer may always be absent.
    #[serde(default)]
    pub optional: Option<Spanned<bool>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}
/// `[[seqlock]]`: a counter that guards bytes, odd while its writer writes them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSeqlock {
    pub name: Spanned<String>,
    /// `struct.field`: an atomic unsigned integer.
    pub counter: Spanned<String>,
    /// Fields of the counter's struct, `rest` for all the others, or trailer parts.
    pub guards: Spanned<Vec<Spanned<String>>>,
    pub writer: Spanned<RawParties>,
    pub reader: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[ring]]`: a ring of seqlocked slots, or an event array indexed modulo its capacity.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRing {
    pub name: Spanned<String>,
    /// `slots` or `events`.
    pub kind: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    /// slots: the `struct.field` counting publications.
    #[serde(default)]
    pub head: Option<Spanned<String>>,
    /// slots: the constant that counts the slots.
    #[serde(default)]
    pub slot_count: Option<Spanned<String>>,
    /// slots: the constant that gives each slot's size in bytes, its header included.
    #[serde(default)]
    pub slot_size: Option<Spanned<String>>,
    /// slots: the seqlock whose counter's struct starts each slot.
    #[serde(default)]
    pub seqlock: Option<Spanned<String>>,
    /// slots, optional: the field of the slot's struct that publish stamps with the head it
    /// publishes (the head's value once the slot is published).
    #[serde(default)]
    pub publish_seq: Option<Spanned<String>>,
    /// events: the `struct.field` counting entries ever written.
    #[serde(default)]
    pub total: Option<Spanned<String>>,
    /// events: the `struct.field` array that holds entry i at i % its length.
    #[serde(default)]
    pub entries: Option<Spanned<String>>,
}
