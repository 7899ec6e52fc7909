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
    pub protocol: usize,
    pub restore: Restore,
}

/// A `blocks` row whose block i belongs to row i of the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedBlocks {
    /// The layout that holds the blocks row, and the row.
    pub layout: usize,
    pub row: usize,
    /// The blocks' own layout.
    pub block_layout: usize,
    /// What a free restores, by region, in the block layout's row order.
    pub regions: Vec<RestoredRegion>,
}

/// The blocks session `session` (an index into the schema's protocols) owns, in layout and
/// row order, each with what a free restores in it (possibly nothing).
pub fn owned_blocks(schema: &Schema, session: usize) -> Vec<OwnedBlocks> {
    let mut out = Vec::new();
    for (li, l) in schema.attach.layouts.iter().enumerate() {
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
            });
        }
    }
    out
}

/// Whether any of a session's rows owns blocks.
pub fn owns_blocks(schema: &Schema, session: usize) -> bool {
    !owned_blocks(schema, session).is_empty()
}

fn restored_regions(schema: &Schema, layout: usize) -> Vec<RestoredRegion> {
    let mut out = Vec::new();
    for (row, r) in schema.attach.layouts[layout].rows.iter().enumerate() {
        let Holds::Struct { struct_index, .. } = r.holds else {
            continue;
        };
        for (protocol, p) in schema.protocols.iter().enumerate() {
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
