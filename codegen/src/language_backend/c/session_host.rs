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
    for (index, p) in schema.protocols.iter().enumerate() {
        let ProtocolKind::Session(s) = &p.kind else {
            continue;
        };
        let owned = owned_blocks(schema, index);
        if owned.is_empty() {
            continue;
        }
        let mut restores = Vec::new();
        for o in &owned {
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
        });
    }
    out
}
