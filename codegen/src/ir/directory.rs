//! A directory of running instances (`[[directory]]`, the bridge's host directory): the
//! fields its parties use, and its plan: every offset, width and value a backend prints,
//! computed once in lowering so that no backend derives one.

use crate::diagnostics::Span;
use crate::ir::access::Parties;
use crate::ir::id::StructId;

#[derive(Debug, Clone)]
pub struct Directory {
    pub name: String,
    pub doc: String,
    pub span: Span,
    /// The mapping's name (`Local\NAME` on Windows, `/dev/shm/NAME` on Linux).
    pub mapping: String,
    /// The header struct and the row struct.
    pub header: StructId,
    pub row: StructId,
    /// Fields of the header, by index.
    pub magic: usize,
    pub entry_count: usize,
    pub entry_size: usize,
    pub entries: usize,
    /// Fields of the row, by index.
    pub state: usize,
    pub pid: usize,
    pub process_time: usize,
    pub abi_major: usize,
    pub abi_minor: usize,
    pub version: usize,
    /// The state enum, and the names of its three values.
    pub state_enum: usize,
    pub value_names: [String; 3],
    pub owner: Parties,
    pub reader: Parties,
    pub plan: DirectoryPlan,
}

/// The numbers every backend prints: byte offsets (header fields from the header's start,
/// row fields from the row's), sizes and values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectoryPlan {
    pub magic_at: u64,
    pub magic: u32,
    pub entry_count_at: u64,
    pub entry_size_at: u64,
    pub entries_at: u64,
    /// The rows a new directory gets, and each row's bytes as this ABI knows them.
    pub max_entries: u32,
    pub entry_size: u32,
    /// The 8-aligned word holding the state and the pid, and whether the state is its low
    /// half.
    pub word_at: u64,
    pub state_low: bool,
    pub process_time_at: u64,
    pub abi_major_at: u64,
    pub abi_minor_at: u64,
    pub version_at: u64,
    pub version_len: u64,
    pub free: u32,
    pub claimed: u32,
    pub live: u32,
    /// The ABI version an instance of this schema registers.
    pub abi_major: u16,
    pub abi_minor: u16,
}

impl DirectoryPlan {
    /// The bytes a new directory takes: its header and its rows.
    pub fn new_len(&self) -> u64 {
        self.entries_at + u64::from(self.max_entries) * u64::from(self.entry_size)
    }
}
