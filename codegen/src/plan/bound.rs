//! Which writers are bound to a claim (issue 46, item 3): the protocol endpoints a session's
//! client writes, in the blocks its row owns. Decided once here; every target prints it.
//!
//! A block a session's row owns (a `blocks` layout row whose `owner` is the session) is the
//! row's for as long as the claim stands, and the next claim's after the host frees the row.
//! So each endpoint by which the session's client party writes into such a block (a queue's
//! writer, a mailbox's client, an exchange's writer, when the protocol names one of the
//! session's `client` parties on that side) is **bound** under its default name: each write
//! first loads the claim's standing (the row's state and generation still the claim's, the
//! host's generation still the claim's, the host not exiting) and refuses with it, storing
//! nothing, once the row is no longer the claim's. The writer without a claim (for a host, a
//! test or a tool that writes a block with no claim) exists only under an explicit name
//! (`UNSCOPED`): Rust `<row>_writer_unscoped()`, C `<prefix>_<protocol>_<op>_unscoped`,
//! Python `<Protocol>.unscoped(view)`. Readers, servers and the host's side are never bound.

use crate::ir::StructId;
use crate::ir::attach::Holds;
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// The suffix of the explicit name of a writer that checks no claim.
pub const UNSCOPED: &str = "unscoped";

/// What a bound writer writes into its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientWrite {
    /// A queue's entries (push).
    Push,
    /// A mailbox's requests (request).
    Request,
    /// An exchange's lists (begin, add, publish).
    Publish,
}

/// One writer bound to a session's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundWriter {
    /// The session whose claim it is bound to, by index into the schema's protocols.
    pub session: crate::ir::ProtocolId,
    /// The protocol it writes, by index into the schema's protocols.
    pub protocol: crate::ir::ProtocolId,
    /// The block layout that holds the protocol's header, and its row there.
    pub block_layout: crate::ir::LayoutId,
    pub row: usize,
    pub write: ClientWrite,
}

/// A struct a session's owned block holds: (session, its client parties, block layout, row,
/// struct), in session, owned block and row order.
fn owned_struct_rows(
    schema: &Schema,
) -> Vec<(
    crate::ir::ProtocolId,
    &[usize],
    crate::ir::LayoutId,
    usize,
    StructId,
)> {
    let mut out = Vec::new();
    for (session, s) in crate::ir::ProtocolId::enumerate(&schema.protocols) {
        let ProtocolKind::Session(s) = &s.kind else {
            continue;
        };
        for owned in super::session::owned_blocks(schema, session) {
            let layout = &schema.attach.layouts[owned.block_layout];
            for (row, r) in layout.rows.iter().enumerate() {
                if let Holds::Struct { struct_index, .. } = r.holds {
                    let clients = s.client.0.as_slice();
                    out.push((session, clients, owned.block_layout, row, struct_index));
                }
            }
        }
    }
    out
}

/// Every bound writer, in session, owned block, row and protocol order.
pub fn bound_writers(schema: &Schema) -> Vec<BoundWriter> {
    let mut out = Vec::new();
    for (session, clients, block_layout, row, struct_index) in owned_struct_rows(schema) {
        for (protocol, p) in crate::ir::ProtocolId::enumerate(&schema.protocols) {
            let (header, writers, write) = match &p.kind {
                ProtocolKind::Queue(q) => (q.header, &q.writer, ClientWrite::Push),
                ProtocolKind::Mailbox(m) => (m.header, &m.client, ClientWrite::Request),
                ProtocolKind::Exchange(x) => (x.header, &x.writer, ClientWrite::Publish),
                ProtocolKind::Broadcast(_) | ProtocolKind::Session(_) => continue,
            };
            let client_writes = writers.0.iter().any(|w| clients.contains(w));
            let bound = BoundWriter {
                session,
                protocol,
                block_layout,
                row,
                write,
            };
            if header == struct_index && client_writes && !out.contains(&bound) {
                out.push(bound);
            }
        }
    }
    out
}

/// One client-written seqlock bound to a session's claim: its counter's struct is held by a
/// row of a block the session's row owns, and its writers name one of the session's `client`
/// parties. Its default write checks the claim's standing first (Rust `write_<lock>(&client,
/// value)`, C `<prefix>_<lock>_write(map, map_len, &session, shared, &value)`, Python
/// `view.write_<lock>(session, value)`); the write without a claim is `..._unscoped`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundSeqlock {
    /// The session whose claim it is bound to, by index into the schema's protocols.
    pub session: crate::ir::ProtocolId,
    /// The seqlock, by index into the access layer's seqlocks.
    pub seqlock: usize,
}

/// Every bound seqlock, in session and seqlock order (each once per session).
pub fn bound_seqlocks(schema: &Schema) -> Vec<BoundSeqlock> {
    let mut out = Vec::new();
    for (session, clients, _, _, struct_index) in owned_struct_rows(schema) {
        for (seqlock, lock) in schema.access.seqlocks.iter().enumerate() {
            let client_writes = lock.writers.0.iter().any(|w| clients.contains(w));
            let bound = BoundSeqlock { session, seqlock };
            if lock.struct_index == struct_index && client_writes && !out.contains(&bound) {
                out.push(bound);
            }
        }
    }
    out
}

/// The session that binds seqlock `seqlock`'s client write (the first), if any.
pub fn seqlock_binding(schema: &Schema, seqlock: usize) -> Option<crate::ir::ProtocolId> {
    bound_seqlocks(schema)
        .into_iter()
        .find(|b| b.seqlock == seqlock)
        .map(|b| b.session)
}

/// The session that binds protocol `protocol`'s writer in block layout `block_layout`, if any.
pub fn binding(
    schema: &Schema,
    block_layout: crate::ir::LayoutId,
    protocol: crate::ir::ProtocolId,
) -> Option<crate::ir::ProtocolId> {
    bound_writers(schema)
        .into_iter()
        .find(|b| b.block_layout == block_layout && b.protocol == protocol)
        .map(|b| b.session)
}

/// The session that binds protocol `protocol`'s writer wherever it is placed (the first), for
/// the targets whose writers are named by protocol rather than by block (C, Python).
pub fn binding_of(
    schema: &Schema,
    protocol: crate::ir::ProtocolId,
) -> Option<crate::ir::ProtocolId> {
    bound_writers(schema)
        .into_iter()
        .find(|b| b.protocol == protocol)
        .map(|b| b.session)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bridge() -> Schema {
        crate::plan::bridge_for_tests()
    }

    #[test]
    fn the_bridge_binds_its_clients_three_writers() {
        let schema = bridge();
        let named: Vec<(String, ClientWrite)> = bound_writers(&schema)
            .iter()
            .map(|b| (schema.protocols[b.protocol].name.clone(), b.write))
            .collect();
        assert_eq!(
            named,
            [
                ("log_queue".to_string(), ClientWrite::Push),
                ("mailbox".to_string(), ClientWrite::Request),
                ("draw".to_string(), ClientWrite::Publish),
            ]
        );
    }

    #[test]
    fn the_bridge_binds_its_clients_seqlocks_in_its_blocks() {
        let schema = bridge();
        let named: Vec<&str> = bound_seqlocks(&schema)
            .iter()
            .map(|b| schema.access.seqlocks[b.seqlock].name.as_str())
            .collect();
        // ring_slot and param_values are the host's; every client-written one is in bot_blocks.
        assert_eq!(named, ["pad_input", "param_defs", "stats"]);
    }
}
