//! The C host's side of a session whose rows own blocks (`plan::session`):
//! `<p>_attached_<name>_free` and `_reload` over the attached handle. A free retires the row
//! (the header-level `_free_begin_`), restores each region the plan names through the
//! handle's accessor for it, then frees the row (`_free_end_`).

use serde::Serialize;

use crate::ir::StructId;
use crate::ir::protocol::ProtocolKind;
use crate::plan::session::{Restore, owned_blocks};
use crate::schema::Schema;

/// One session's host functions over the attached handle.
#[derive(Serialize)]
pub(super) struct SessionHostCtx {
    name: String,
    rows: u64,
    free: u64,
    restores: Vec<RestoreCtx>,
    /// The headers of each owned block the host's handle keeps as it laid them out.
    pub(super) places: Vec<PlaceCtx>,
    /// The first of them in the list of every session's places.
    place_first: usize,
}

/// A header in each block of a blocks row the host's handle keeps a copy of, as it laid it
/// out (`plan::host_words`): the block's own header (`header`, found by the blocks row's
/// accessor) or a region's (its accessor), `size` bytes; block i's copy at `copy_at` +
/// i × `stride` of the handle's `laid_out`. A free stores `words` (the restored host words,
/// as runs: from the header's start, bytes of each, words) back from the copy, each with one
/// store of its width.
#[derive(Serialize, Clone)]
pub(super) struct PlaceCtx {
    accessor: String,
    header: bool,
    size: u64,
    count: u64,
    copy_at: u64,
    stride: u64,
    words: Vec<[u64; 3]>,
}

/// The bytes every place's copies take in the handle's `laid_out` (at least 1: a C array).
pub(super) fn laid_out_size(hosts: &[SessionHostCtx]) -> u64 {
    hosts
        .iter()
        .flat_map(|h| &h.places)
        .map(|p| p.copy_at + p.count * p.stride)
        .max()
        .unwrap_or(0)
        .max(1)
}

/// A region a free restores: the attached accessor that finds it in row `row`'s block, the
/// bytes it needs, and what is stored: `mailbox` (when request_seq `a` is not response_seq
/// `b`: the u32 fields at `zero` 0, then `b` = `a`, release) or `exchange` (state `a` =
/// `initial`, release).
#[derive(Serialize)]
struct RestoreCtx {
    accessor: String,
    need: u64,
    kind: &'static str,
    a: u64,
    b: u64,
    zero: Vec<u64>,
    initial: u32,
}

pub(super) fn session_hosts(schema: &Schema) -> Vec<SessionHostCtx> {
    let mut out = Vec::new();
    let mut copied = 0u64;
    let mut placed = 0usize;
    for (index, p) in schema.protocols.iter().enumerate() {
        let ProtocolKind::Session(s) = &p.kind else {
            continue;
        };
        let owned = owned_blocks(schema, crate::ir::ProtocolId::new(index));
        if owned.is_empty() {
            continue;
        }
        let mut restores = Vec::new();
        let mut places = Vec::new();
        for o in &owned {
            copied = block_places(schema, o, copied, &mut places);
            let blocks = &schema.attach.layouts[o.layout].rows[o.row].name;
            let rows = &schema.attach.layouts[o.block_layout].rows;
            for r in &o.regions {
                let accessor = format!("{blocks}_{}", rows[r.row].name);
                let at = |si: StructId, f: usize| schema.layout.of(si).fields[f].offset;
                let (kind, a, b, zero, initial) =
                    match (&schema.protocols[r.protocol].kind, r.restore) {
                        (ProtocolKind::Mailbox(m), Restore::Mailbox) => (
                            "mailbox",
                            at(m.header, m.request_seq),
                            at(m.header, m.response_seq),
                            [m.status, m.response_len, m.response_total]
                                .map(|f| at(m.header, f))
                                .to_vec(),
                            0,
                        ),
                        (ProtocolKind::Exchange(x), Restore::Exchange { initial_state }) => {
                            let state = at(x.header, x.state);
                            ("exchange", state, state, Vec::new(), initial_state)
                        }
                        _ => continue,
                    };
                let need = zero.iter().chain([&a, &b]).max().copied().unwrap_or(0) + 4;
                restores.push(RestoreCtx {
                    accessor,
                    need,
                    kind,
                    a,
                    b,
                    zero,
                    initial,
                });
            }
        }
        out.push(SessionHostCtx {
            name: p.name.clone(),
            rows: s.table.of(&schema.abi).ty.count(),
            free: s.free,
            restores,
            place_first: placed,
            places,
        });
        placed += out.last().map_or(0, |h: &SessionHostCtx| h.places.len());
    }
    out
}

/// The places of the blocks of `o` (the block's header, then each region's with host words),
/// their copies from `copied` on; returns where the next copies start.
fn block_places(
    schema: &Schema,
    o: &crate::plan::session::OwnedBlocks,
    copied: u64,
    out: &mut Vec<PlaceCtx>,
) -> u64 {
    use crate::ir::attach::Holds;
    let blocks = &schema.attach.layouts[o.layout].rows[o.row].name;
    let Holds::Blocks { count, .. } = schema.attach.layouts[o.layout].rows[o.row].holds else {
        return copied;
    };
    let layout = &schema.attach.layouts[o.block_layout];
    let mut places: Vec<(Option<usize>, String, u64)> =
        vec![(None, blocks.clone(), schema.layout.of(layout.header).size)];
    for (row, r) in layout.rows.iter().enumerate() {
        if let Holds::Struct { struct_index, .. } = r.holds
            && struct_index != layout.header
            && o.words.iter().any(|w| w.region == Some(row))
        {
            places.push((
                Some(row),
                format!("{blocks}_{}", r.name),
                schema.layout.of(struct_index).size,
            ));
        }
    }
    // One block's copies, each place's 8-aligned, back to back.
    let stride: u64 = places
        .iter()
        .map(|(_, _, size)| size.next_multiple_of(8))
        .sum();
    let mut at = copied;
    for (region, accessor, size) in places {
        out.push(PlaceCtx {
            header: region.is_none(),
            accessor,
            size,
            count,
            copy_at: at,
            stride,
            words: crate::plan::host_words::restored_runs(&o.words)
                .iter()
                .filter(|w| w.region == region)
                .map(|w| [w.at, w.width, w.count])
                .collect(),
        });
        at += size.next_multiple_of(8);
    }
    copied + stride * count
}
