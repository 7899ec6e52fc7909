//! The protocols over a region's bytes: a queue, a broadcast ring, a mailbox, a triple-buffer
//! exchange and a claimed row's session, each naming the fields its two sides use and the
//! parties that play them. Offsets come from the layout; nothing here repeats them.

use crate::diagnostics::Span;
use crate::ir::access::{FieldRef, Parties};
use crate::ir::id::StructId;

/// One protocol declaration.
#[derive(Debug, Clone)]
pub struct Protocol {
    pub name: String,
    pub doc: String,
    pub span: Span,
    pub kind: ProtocolKind,
}

impl Protocol {
    /// The types the Rust live module defines for this protocol: its name in CamelCase
    /// followed by each of these (the session's own type has no suffix). Lowering keeps
    /// them apart from every other type of the module; a unit test of the Rust backend holds
    /// this list equal to what it prints.
    pub fn rust_type_suffixes(&self) -> &'static [&'static str] {
        match &self.kind {
            ProtocolKind::Queue(_) => &["Entry", "Writer", "Reader"],
            ProtocolKind::Broadcast(_) => &["Entry", "Read", "Writer", "Reader"],
            ProtocolKind::Mailbox(_) => &["Response", "Client", "Server"],
            ProtocolKind::Exchange(_) => &["List", "Writer", "Reader"],
            ProtocolKind::Session(s) if s.bind.is_some() => {
                &["Standing", "Refused", "", "Host", "Scoped", "PadRefused"]
            }
            ProtocolKind::Session(_) => &["Standing", "Refused", "", "Host", "Scoped"],
        }
    }
}

#[derive(Debug, Clone)]
pub enum ProtocolKind {
    Queue(Queue),
    Broadcast(Broadcast),
    Mailbox(Mailbox),
    Exchange(Exchange),
    Session(Session),
}

impl ProtocolKind {
    /// The table that declares it: `queue`, `broadcast`, ...
    pub fn table(&self) -> &'static str {
        match self {
            ProtocolKind::Queue(_) => "queue",
            ProtocolKind::Broadcast(_) => "broadcast",
            ProtocolKind::Mailbox(_) => "mailbox",
            ProtocolKind::Exchange(_) => "exchange",
            ProtocolKind::Session(_) => "session",
        }
    }

    /// The struct whose bytes it runs over: its header, or a session's row.
    pub fn header(&self) -> StructId {
        match self {
            ProtocolKind::Queue(q) => q.header,
            ProtocolKind::Broadcast(b) => b.header,
            ProtocolKind::Mailbox(m) => m.header,
            ProtocolKind::Exchange(x) => x.header,
            ProtocolKind::Session(s) => s.row,
        }
    }
}

/// How a variable-size entry says what it is.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The struct at the start of each entry.
    pub struct_index: StructId,
    /// Field of that struct holding the whole entry's bytes, a multiple of 8.
    pub size: usize,
    /// Its enum field, and the values of a padding entry and of a record.
    pub kind: usize,
    pub padding: u64,
    pub padding_name: String,
    pub record: u64,
    pub record_name: String,
    /// The byte strings after the struct, in order.
    pub parts: Vec<Part>,
    /// A broadcast ring's `u64` field: entries written before this one.
    pub seq: Option<usize>,
}

/// A byte string after an entry's struct.
#[derive(Debug, Clone)]
pub struct Part {
    pub name: String,
    /// Field of the entry's struct holding its length.
    pub len: usize,
    /// The constant bounding it, and its value.
    pub max_const: usize,
    pub max: u64,
}

impl Entry {
    /// The most bytes an entry takes: its struct, every part at its bound, rounded up to 8.
    pub fn max_size(&self, struct_size: u64) -> u64 {
        (struct_size + self.parts.iter().map(|p| p.max).sum::<u64>()).div_ceil(8) * 8
    }

    /// What makes this entry's format the same as another's: see [`EntryFormat`].
    pub fn format(&self) -> EntryFormat<'_> {
        EntryFormat {
            struct_index: self.struct_index,
            size: self.size,
            kind: self.kind,
            padding: self.padding,
            record: self.record,
            parts: self
                .parts
                .iter()
                .map(|p| PartFormat {
                    len: p.len,
                    max: p.max,
                    name: &p.name,
                })
                .collect(),
        }
    }
}

/// The identity of an entry format: two protocols whose entries have the same struct, the
/// same size and kind fields, padding and record values, and the same parts read and write
/// their entries with the same code (the C header prints one record type and one set of
/// helpers for them). The names of the kind's values, the constants that bound the parts
/// and a broadcast ring's `seq` (a field of the same struct, read by the ring, not by the
/// entry's helpers) are not part of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EntryFormat<'a> {
    pub struct_index: StructId,
    pub size: usize,
    pub kind: usize,
    pub padding: u64,
    pub record: u64,
    pub parts: Vec<PartFormat<'a>>,
}

/// One part of an [`EntryFormat`]: its length field, bound and name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PartFormat<'a> {
    pub len: usize,
    pub max: u64,
    pub name: &'a str,
}

/// Fields of one header struct, by index into its fields.
#[derive(Debug, Clone)]
pub struct Queue {
    pub header: StructId,
    pub write_pos: usize,
    pub read_pos: usize,
    pub dropped: usize,
    pub capacity: usize,
    pub entry: Entry,
    pub writer: Parties,
    pub reader: Parties,
}

#[derive(Debug, Clone)]
pub struct Broadcast {
    pub header: StructId,
    pub write_pos: usize,
    pub tail_pos: usize,
    pub entries: usize,
    pub capacity: usize,
    pub entry: Entry,
    pub writer: Parties,
    pub reader: Parties,
}

#[derive(Debug, Clone)]
pub struct Mailbox {
    pub header: StructId,
    pub request_seq: usize,
    pub request_len: usize,
    pub response_seq: usize,
    pub status: usize,
    pub response_len: usize,
    pub response_total: usize,
    pub request_capacity: usize,
    pub response_capacity: usize,
    pub client: Parties,
    pub server: Parties,
}

/// An exchange's lists before its first publication, decided once in lowering from the
/// schema's `initial_state` (the shared list, never fresh): the writer starts with the
/// lowest list the state does not share, the reader with the other. Every backend and the
/// prose print these numbers; `abi_runtime::triple_buffer::starting_buffers` computes the
/// same at run time (tests/it checks that they agree for every valid state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExchangeStart {
    /// The state word's value: the shared list's index, the fresh bit clear.
    pub state: u32,
    pub writer: u32,
    pub reader: u32,
}

impl ExchangeStart {
    /// The start for `initial_state`, if it is a list index (0, 1 or 2).
    pub fn of(initial_state: u32) -> Option<ExchangeStart> {
        if initial_state > 2 {
            return None;
        }
        let mut own = (0..3).filter(|&i| i != initial_state);
        let (writer, reader) = (own.next()?, own.next()?);
        Some(ExchangeStart {
            state: initial_state,
            writer,
            reader,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Exchange {
    pub header: StructId,
    pub state: usize,
    /// The state word and each side's list before the first publication.
    pub start: ExchangeStart,
    pub buffers: usize,
    pub buffer_size: usize,
    pub published: usize,
    /// The list's struct and its fields.
    pub list: StructId,
    pub count: usize,
    pub payload_len: usize,
    pub dropped: usize,
    /// The list's flags field, and the overflow flag's value and name.
    pub overflow_field: usize,
    pub overflow: u64,
    pub overflow_name: String,
    /// The item's struct.
    pub item: StructId,
    /// The header's capacities.
    pub max_items: usize,
    pub max_payload: usize,
    pub writer: Parties,
    pub reader: Parties,
    /// Publications of the reader's own list one reader absorbs (never shown, the writer's
    /// next one taken giving back the list nobody owns) before it refuses the state as a
    /// broken writer's: the one stale publication a free may be overtaken by (issue 46 item
    /// 3). Every language's reader prints this number; the runtime's `TripleReader` and the
    /// C and Python readers implement the one rule (`prose::regions`' reader steps say it).
    pub stale_grace: u32,
}

/// Stale publications a renewed reader absorbs: one, the one write a writer of the row's
/// last session may still make after the host's free (its check of its standing, then its
/// publication; ATTACH.md, "What a client does when its row is freed").
pub const EXCHANGE_STALE_GRACE: u32 = 1;

/// The 8-byte word a session's row state and generation share, when they are its two halves
/// and every row's copy of it is 8-aligned: claim, standing, moves and frees then use only
/// that word, in one access size (one compare-and-swap checks both halves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedWord {
    /// Its offset in the row.
    pub at: u64,
    /// Whether the state is its low half (at `at`) and the generation its high half.
    pub state_low: bool,
}

#[derive(Debug, Clone)]
pub struct Session {
    /// The array of rows; its element struct is the row.
    pub table: FieldRef,
    /// The word the state and the generation share, decided once here for every backend.
    pub shared_word: Option<SharedWord>,
    pub row: StructId,
    pub state: usize,
    pub free: u64,
    pub claimed: u64,
    pub active: u64,
    pub closing: u64,
    pub generation: usize,
    pub heartbeat: usize,
    pub heartbeat_ms: u64,
    pub hung_ms: u64,
    pub waiting: usize,
    pub host_generation: FieldRef,
    pub host_state: FieldRef,
    pub exiting: u64,
    /// A byte per pad holding the row that owns it, and the value of an unbound one.
    pub bind: Option<(FieldRef, u64)>,
    pub client: Parties,
    pub host: Parties,
}

crate::ir::id::index_by!(crate::ir::id::ProtocolId => Protocol);
