//! What a host puts back in the regions a session's row owned when it frees the row (a
//! reload frees every row), so that the row's next client finds each protocol as a new image
//! leaves it. The host calls these while the row is retired (closing: no client can claim
//! it), before it stores `free`. The generated host (`<Session>Host::free`) calls them for
//! every region of every block the row owns (a `blocks` row with `owner` in the schema).
//!
//! A client that has not yet noticed it lost the row may still store into these regions
//! after they are restored; its writers check the row's standing before each write, so that
//! window is one write long.

use core::sync::atomic::Ordering::{Acquire, Release};

use crate::byte_queue::QueueSpec;
use crate::list_exchange::ListSpec;
use crate::mailbox::MailboxSpec;
use crate::raw::{Region, Writable};

/// A queue: everything in it is dropped (`read_pos` = `write_pos`, release). The positions
/// go on rather than back to 0, so nothing a stale writer stores can pass for a new entry.
pub fn queue<A: Writable>(region: Region<'_, A>, spec: QueueSpec) {
    let write = region.load::<u64>(spec.write_pos, Acquire);
    region.store::<u64>(spec.read_pos, write, Release);
}

/// A mailbox: no request waits (`response_seq` = `request_seq`, release), so the next
/// client's first request is not refused as busy.
pub fn mailbox<A: Writable>(region: Region<'_, A>, spec: MailboxSpec) {
    let request = region.load::<u32>(spec.request_seq, Acquire);
    region.store::<u32>(spec.response_seq, request, Release);
}

/// An exchange: its state word back to the schema's initial state (release). The next
/// client's writer starts from it; the host takes a new reader for the row.
pub fn exchange<A: Writable>(region: Region<'_, A>, spec: ListSpec) {
    region.store::<u32>(spec.state, spec.initial_state, Release);
}
