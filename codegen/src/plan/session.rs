//! What a session's host restores when it frees a row (and so on a reload, which frees every
//! row): in each block the row owns (a `blocks` layout row whose `owner` is the session), the
//! protocols whose state outlives the client. Decided once here; every target prints it.
//!
//! - a mailbox: a request that waits is answered with status 0 and no text (the next
//!   client's first request is not refused as busy, and a client still polling for the old
//!   request learns it was never served);
//! - an exchange: its state word back to the schema's `initial_state` (the next client's
//!   writer starts from it, and the host takes a new reader for the row).
//!
//! A queue keeps what the old client pushed and its positions go on: the entries are the
//! host's to read (a hung client's last log lines are what its author needs), so a host
//! drains a row's queue before it frees the row, and the next client's entries follow. A
//! client killed mid-push never published its entry. Seqlocks need nothing: a writer that finds its counter odd (a client killed mid-write)
//! keeps it odd for its write and then makes it even. Rings need nothing: each reader keeps
//! its own position.

use crate::ir::LayoutId;
use crate::ir::attach::Holds;
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// What a free puts back in one region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restore {
    /// A waiting request answered: status, lengths 0, then `response_seq` = `request_seq`.
    Mailbox,
    /// The state word = this initial state.
    Exchange { initial_state: u32 },
}

/// A region of an owned block and what a free restores in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestoredRegion {
    /// The region's row in the block's layout.
    pub row: usize,
    /// The protocol over it, by index into the schema's protocols.
    pub protocol: crate::ir::ProtocolId,
    pub restore: Restore,
}

/// A `blocks` row whose block i belongs to row i of the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedBlocks {
    /// The layout that holds the blocks row, and the row.
    pub layout: LayoutId,
    pub row: usize,
    /// The blocks' own layout.
    pub block_layout: LayoutId,
    /// What a free restores, by region, in the block layout's row order.
    pub regions: Vec<RestoredRegion>,
    /// The words the session's host alone writes in each block (`plan::host_words`): its side
    /// uses its own image's, and a free stores the restored ones back as that image has them.
    pub words: Vec<crate::plan::host_words::HostWord>,
}

/// The blocks session `session` (an index into the schema's protocols) owns, in layout and
/// row order, each with what a free restores in it (possibly nothing).
pub fn owned_blocks(schema: &Schema, session: crate::ir::ProtocolId) -> Vec<OwnedBlocks> {
    let mut out = Vec::new();
    for (li, l) in LayoutId::enumerate(&schema.attach.layouts) {
        for (ri, r) in l.rows.iter().enumerate() {
            let Holds::Blocks { layout, .. } = r.holds else {
                continue;
            };
            if r.owner != Some(session) {
                continue;
            }
            out.push(OwnedBlocks {
                layout: li,
                row: ri,
                block_layout: layout,
                regions: restored_regions(schema, layout),
                words: crate::plan::host_words::host_words(schema, session, layout),
            });
        }
    }
    out
}

/// Whether any of a session's rows owns blocks.
pub fn owns_blocks(schema: &Schema, session: crate::ir::ProtocolId) -> bool {
    !owned_blocks(schema, session).is_empty()
}

fn restored_regions(schema: &Schema, layout: LayoutId) -> Vec<RestoredRegion> {
    let mut out = Vec::new();
    for (row, r) in schema.attach.layouts[layout].rows.iter().enumerate() {
        let Holds::Struct { struct_index, .. } = r.holds else {
            continue;
        };
        for (protocol, p) in crate::ir::ProtocolId::enumerate(&schema.protocols) {
            if p.kind.header() != struct_index {
                continue;
            }
            let restore = match &p.kind {
                ProtocolKind::Mailbox(_) => Restore::Mailbox,
                ProtocolKind::Exchange(x) => Restore::Exchange {
                    initial_state: x.start.state,
                },
                ProtocolKind::Queue(_) | ProtocolKind::Broadcast(_) | ProtocolKind::Session(_) => {
                    continue;
                }
            };
            out.push(RestoredRegion {
                row,
                protocol,
                restore,
            });
        }
    }
    out
}

/// A session table whose rows' generations a re-layout carries forward: when the mapping holds
/// an image (its generation is not 0), produce writes each row's generation past the one
/// already in the mapping (the image's when greater, else the mapping's + 1, wrapping), as it does the writer's generation, so a claim made on the old
/// image never matches a row of the new one (a stale `activate` or `close` compare-and-swaps
/// the generation it was given). Lowering keeps a session's table in the root layout's header
/// (`protocols::session`), at offsets no geometry moves, so the rows are where they were.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CarriedRows {
    /// The session, by index into the schema's protocols.
    pub session: crate::ir::ProtocolId,
    /// The first row's start, from the mapping's start (the root header's).
    pub at: u64,
    /// The rows.
    pub rows: u64,
    /// From one row's start to the next.
    pub stride: u64,
    /// The word that holds the generation, from the row's start, and its bytes: the 8-byte
    /// word it shares with the state (`Session::shared_word`), else the 4-byte generation.
    /// Produce writes it whole with one store of that size, the size every other access of
    /// that word has, so a stale compare-and-swap racing the write sees the old or the new.
    pub word: u64,
    pub width: u64,
    /// The generation's first byte in the word.
    pub lane: u64,
}

/// Every session table a re-layout carries forward: those of the root layout's header, in
/// protocol order (none without a root layout).
pub fn carried_rows(schema: &Schema) -> Vec<CarriedRows> {
    let Some(root) = schema.attach.root else {
        return Vec::new();
    };
    let header = schema.attach.layouts[root].header;
    let mut out = Vec::new();
    for (session, p) in crate::ir::ProtocolId::enumerate(&schema.protocols) {
        let ProtocolKind::Session(s) = &p.kind else {
            continue;
        };
        if s.table.struct_index != header {
            continue;
        }
        let table = schema.layout.field(s.table);
        let fields = &schema.layout.of(s.row).fields;
        let generation = fields[s.generation].offset;
        let (word, width) = match s.shared_word {
            Some(w) => (w.at, 8),
            None => (generation, 4),
        };
        out.push(CarriedRows {
            session,
            at: table.offset,
            rows: schema.abi.structs[header].fields[s.table.field].ty.count(),
            stride: table.elem_size,
            word,
            width,
            lane: generation - word,
        });
    }
    out
}
