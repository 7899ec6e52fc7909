//! The commands' event (issue 47), decided once here for every target: which event a client
//! sets after each request it writes in its mailbox, which words say a row has a request its
//! host has not answered, and the host's waiting rule. Every backend prints this plan and
//! decides nothing of it.
//!
//! The reference: `bridge_header`, "written by the host, except the client table rows and the
//! commands' event". It names no word of the clients' in the bridge header, so the schema
//! puts one event per row on the row's mailbox (the bridge: `commands`, on
//! `mailbox_header.request_seq`).
//!
//! - **The commands' event** is an `[[event]]` per row of a session's table that the
//!   session's host waits on and its client sets, whose word is the request sequence of a
//!   mailbox whose client is the session's client and whose server is its host. Sending a
//!   request moves the word, so a host that saw the sequence at `s` and sleeps while it holds
//!   `s` misses no request.
//! - **The client** sends its request through the send bound to its claim (nothing is sent,
//!   and nothing set, once the claim is gone), then sets the event: a futex wake on its word
//!   on Linux, its `SetEvent` on Windows. No flag says whether the host sleeps, so every send
//!   makes the call (a request is rare next to a tick).
//! - **The host's wait**, one round: a row of the rows it asks about is *pending* when its
//!   request sequence is not the one it last answered (both loaded with acquire); when some
//!   row is pending it returns them at once; else it sleeps on every such row's word at once
//!   while each holds the sequence its check saw (Linux: `futex_waitv`, shared, 5.16 or
//!   later, or on an older kernel the lowest row's word for at most 1 ms; Windows:
//!   `WaitForMultipleObjects` on the rows' events), at most its timeout, then checks again and
//!   returns the rows pending then (none: timed out, or look again). A wake only means "look
//!   again"; the caller's deadline ends every loop.

use crate::ir::event::Event;
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// The commands' event plan of a schema.
#[derive(Debug, Clone)]
pub struct Commands<'a> {
    /// The commands' event.
    pub event: &'a Event,
    /// The session whose rows send, and the mailbox they send through, by index into the
    /// schema's protocols.
    pub session: crate::ir::ProtocolId,
    pub mailbox: usize,
    /// The event's word from the start of the mailbox's header (the request sequence, or its
    /// low half).
    pub word_offset: u64,
    /// The request sequence (the client's) and the answered one (the host's): offsets from
    /// the start of the header, and their width in bytes (the same for both).
    pub request_seq: u64,
    pub response_seq: u64,
    pub width: u64,
    /// The mailbox header's size: a row's region holds at least this many bytes.
    pub header_size: u64,
}

/// The schema's commands' event plan: `None` when it declares no such event as the module
/// doc says.
pub fn commands(schema: &Schema) -> Option<Commands<'_>> {
    schema.events.iter().find_map(|e| plan_for(schema, e))
}

fn plan_for<'a>(schema: &'a Schema, e: &'a Event) -> Option<Commands<'a>> {
    let (session, s) = crate::plan::events::set_by_clients(schema, e)?;
    let (mailbox, m) = schema
        .protocols
        .iter()
        .enumerate()
        .find_map(|(i, p)| match &p.kind {
            ProtocolKind::Mailbox(m)
                if m.header == e.word.struct_index
                    && m.request_seq == e.word.field
                    && m.client == s.client
                    && m.server == s.host =>
            {
                Some((i, m))
            }
            _ => None,
        })?;
    let layout = schema.layout.of(m.header);
    let (request, response) = (
        &layout.fields[m.request_seq],
        &layout.fields[m.response_seq],
    );
    if request.size != response.size || !matches!(request.size, 4 | 8) {
        return None;
    }
    Some(Commands {
        event: e,
        session,
        mailbox,
        word_offset: e.word_offset,
        request_seq: request.offset,
        response_seq: response.offset,
        width: request.size,
        header_size: layout.size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridge_sets_commands_on_request_seq() {
        let schema = crate::plan::bridge_for_tests();
        let c = commands(&schema).expect("the bridge's commands' event");
        assert_eq!(c.event.name, "commands");
        assert_eq!(schema.protocols[c.session].name, "client");
        assert_eq!(schema.protocols[c.mailbox].name, "mailbox");
        // mailbox_header (the reference): request_seq u32 at 0x00, response_seq u32 at 0x08.
        assert_eq!(
            (c.word_offset, c.request_seq, c.response_seq, c.width),
            (0, 0, 8, 4)
        );
    }
}
