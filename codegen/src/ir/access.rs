//! Shared-memory access: the parties, who writes each struct and field, which fields are
//! atomic words or compare-and-swap words, what follows a header in its region (its
//! trailer), the seqlocks that guard bytes, and the rings. Lowered after the layout, since
//! alignment and fit are facts of offsets.

use crate::diagnostics::Span;
use crate::ir::id::{PerStruct, StructId};
use crate::ir::{Abi, Field, Type};

/// Everything the schema says about how its shared memory is accessed.
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// `[abi] parties`, such as `host` and `client`.
    pub parties: Vec<String>,
    /// Indexed like `Abi::structs`.
    pub structs: PerStruct<StructAccess>,
    pub seqlocks: Vec<Seqlock>,
    pub rings: Vec<Ring>,
}

/// A set of parties, by index into [`Access::parties`], in the order declared there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parties(pub Vec<usize>);

impl Parties {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// "host", "host and client", "host, client and tool".
    pub fn describe(&self, names: &[String]) -> String {
        let names: Vec<&str> = self.0.iter().map(|&i| names[i].as_str()).collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct StructAccess {
    /// Whether the struct lives in shared memory: it declares a writer, or a shared struct
    /// holds it.
    pub shared: bool,
    /// The struct's own `writer`, or the writer of the field that holds it.
    pub writers: Parties,
    /// Indexed like `Struct::fields`.
    pub fields: Vec<FieldAccess>,
    pub trailer: Vec<TrailerPart>,
    /// The seqlocks whose counter is a field of this struct, by index into
    /// [`Access::seqlocks`].
    pub seqlocks: Vec<usize>,
    /// Whether a seqlock guards this struct as a trailer part (the snapshot in a ring
    /// slot): it is then read and written whole, by copy, and never field by field.
    pub guarded_whole: bool,
    /// Whether it needs a live view when another struct holds it: shared, not copied
    /// whole, and it has an atomic field or a seqlock, or holds a struct that does.
    /// Otherwise it is read and written as a value, by copy.
    pub needs_view: bool,
    /// Whether it gets a live view: shared, not copied whole, and either needs one or is
    /// held by no shared struct (a header).
    pub has_view: bool,
}

#[derive(Debug, Clone, Default)]
pub struct FieldAccess {
    pub kind: AccessKind,
    /// Who writes the field: its own `writer`, else its struct's.
    pub writers: Parties,
    /// The seqlock that guards it, by index into [`Access::seqlocks`].
    pub guarded_by: Option<usize>,
}

/// How a field is read and written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AccessKind {
    /// Written while no one reads it (before publication), or under a seqlock.
    #[default]
    Plain,
    /// One atomic word of `width` bytes: readers load it with acquire, writers store it
    /// with release.
    Atomic { width: u64 },
    /// Atomic, and claimed by compare-and-swap. An array (`u8[4]`) is one word of `width`
    /// bytes; its elements are read out of that word, never by narrower atomics.
    Cas { width: u64 },
}

impl AccessKind {
    pub fn is_atomic(self) -> bool {
        !matches!(self, AccessKind::Plain)
    }

    pub fn width(self) -> Option<u64> {
        match self {
            AccessKind::Plain => None,
            AccessKind::Atomic { width } | AccessKind::Cas { width } => Some(width),
        }
    }

    /// The schema's spelling.
    pub fn keyword(self) -> &'static str {
        match self {
            AccessKind::Plain => "plain",
            AccessKind::Atomic { .. } => "atomic",
            AccessKind::Cas { .. } => "cas",
        }
    }
}

/// A part of a struct's trailer: what follows the struct in its region.
#[derive(Debug, Clone)]
pub struct TrailerPart {
    pub name: String,
    pub ty: Type,
    pub doc: String,
    /// From the start of the struct.
    pub offset: u64,
    /// Bytes, every element included: the most it holds when `size_field` varies it.
    pub size: u64,
    pub align: u64,
    pub elem_size: u64,
    /// The struct's field that holds the part's length in bytes at run time.
    pub size_field: Option<usize>,
    pub span: Span,
}

/// A seqlock: a counter that is odd while its writer writes the bytes it guards.
#[derive(Debug, Clone)]
pub struct Seqlock {
    pub name: String,
    pub doc: String,
    /// The struct that holds the counter, by index into `Abi::structs`.
    pub struct_index: StructId,
    /// The counter's field index in that struct.
    pub counter: usize,
    /// The counter's width in bytes: 4 or 8.
    pub counter_width: u64,
    pub guards: Vec<Guard>,
    pub writers: Parties,
    pub readers: Parties,
    pub span: Span,
}

/// What a seqlock guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// A field of the counter's struct, by index.
    Field(usize),
    /// A part of the counter's struct's trailer, by index.
    Trailer(usize),
}

#[derive(Debug, Clone)]
pub struct Ring {
    pub name: String,
    pub doc: String,
    pub kind: RingKind,
    pub span: Span,
}

/// A field named through a struct: `bridge_header.snapshot_seq`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldRef {
    pub struct_index: StructId,
    /// By index into the struct's `fields`.
    pub field: usize,
}

impl FieldRef {
    /// The field it names.
    pub fn of(self, abi: &Abi) -> &Field {
        &abi.structs[self.struct_index].fields[self.field]
    }

    /// How the field is accessed, from `Access::structs` (or the table lowering fills).
    pub fn access(self, structs: &PerStruct<StructAccess>) -> &FieldAccess {
        &structs[self.struct_index].fields[self.field]
    }
}

#[derive(Debug, Clone)]
pub enum RingKind {
    /// `slot_count` slots of `slot_size` bytes, each a seqlocked header and its payload
    /// (the seqlock's one trailer part). `head` counts publications: the newest slot is
    /// `(head - 1) % slot_count`, and a head of 0 means nothing was published yet.
    Slots {
        head: FieldRef,
        slot_count: u64,
        slot_count_const: usize,
        slot_size: u64,
        slot_size_const: usize,
        seqlock: usize,
        /// The seqlock's trailer part that is the payload.
        payload: usize,
        /// The field of the slot's struct (guarded, of the head's type) that publish
        /// stamps with the head's new value: the slot's publication number.
        publish_seq: Option<usize>,
    },
    /// `total` counts entries ever written; entry `i` is at `entries[i % capacity]`.
    Events {
        total: FieldRef,
        entries: FieldRef,
        capacity: u64,
    },
}

impl Seqlock {
    /// Whether it guards every plain field of its struct but the counter, and nothing else:
    /// its value is then the struct itself, and it needs no type of its own. Every target
    /// and the name checks decide with this one rule.
    pub fn guards_whole_struct(&self, structs: &PerStruct<StructAccess>) -> bool {
        let plain = structs[self.struct_index]
            .fields
            .iter()
            .enumerate()
            .filter(|(i, f)| *i != self.counter && !f.kind.is_atomic())
            .count();
        self.guards.iter().all(|g| matches!(g, Guard::Field(_))) && self.guards.len() == plain
    }
}
