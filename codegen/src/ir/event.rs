//! An event (`[[event]]`): what one party sleeps on and another sets, and its plan: the
//! word a waiter sleeps on (a futex between processes on Linux) and the name of its kernel
//! object on Windows, computed once in lowering so that no backend derives them.

use crate::diagnostics::Span;
use crate::ir::access::{FieldRef, Parties};

#[derive(Debug, Clone)]
pub struct Event {
    pub name: String,
    pub doc: String,
    pub span: Span,
    pub waiter: Parties,
    pub setter: Parties,
    /// One event per row of this table (an array of structs), or one event.
    pub rows: Option<FieldRef>,
    /// The field that holds the word, and whether the word is its low half (an 8-byte
    /// field on a little-endian layout).
    pub word: FieldRef,
    pub low_half: bool,
    /// The word's place: `struct.field`, and `.low` when it is the low half.
    pub word_path: String,
    /// The word's offset from the start of its struct: 4-aligned, 4 bytes.
    pub word_offset: u64,
    /// The Windows event's name under `Local\`, as pieces.
    pub windows_name: Vec<NamePart>,
    /// Where the waiter's generated helper stores its wake statistics, if the schema says.
    pub stats: Option<EventStats>,
}

/// The fields of one struct, written by the event's waiter, that receive its wake
/// statistics: `ticks` and `skipped` (unsigned integers), `p50_us` and `p99_us` (`f32`).
#[derive(Debug, Clone)]
pub struct EventStats {
    pub ticks: FieldRef,
    pub skipped: FieldRef,
    pub p50_us: FieldRef,
    pub p99_us: FieldRef,
}

impl EventStats {
    /// The four fields with the names the schema's `stats` table gives them.
    pub fn fields(&self) -> [(&'static str, FieldRef); 4] {
        [
            ("ticks", self.ticks),
            ("skipped", self.skipped),
            ("p50_us", self.p50_us),
            ("p99_us", self.p99_us),
        ]
    }
}

/// A piece of a Windows event's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamePart {
    Text(String),
    /// The mapping's name (`ibf.bridge`).
    Mapping,
    /// The row, in decimal.
    Row,
    /// The producer's process id (the handshake's `pid`), in decimal.
    Pid,
    /// The producer's generation (the handshake's `generation`), in decimal.
    Generation,
}

impl NamePart {
    /// The placeholder as the schema writes it, or the text.
    pub fn written(&self) -> &str {
        match self {
            NamePart::Text(t) => t,
            NamePart::Mapping => "{mapping}",
            NamePart::Row => "{row}",
            NamePart::Pid => "{pid}",
            NamePart::Generation => "{generation}",
        }
    }
}

impl Event {
    /// The name pattern as the schema wrote it.
    pub fn windows_pattern(&self) -> String {
        self.windows_name.iter().map(NamePart::written).collect()
    }
}
