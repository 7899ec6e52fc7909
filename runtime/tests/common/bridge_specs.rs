//! The bridge's region protocol specs at the reference's offsets (not the generator's), for
//! the tests and benchmarks that run the runtime's primitives over a bridge-shaped buffer:
//! the runtime's protocol tests (`hostile_peer`, `mailbox`, `claim`, `byte_queue`,
//! `broadcast_ring`, `position_edges`), `runtime/benches/protocols.rs` and the root crate's
//! `tests/common/protocol_peer.rs` include this one file (`#[path]`), so they never drift.
//! Each includer uses what it needs; one with a smaller entry keeps the header through
//! struct update (`QueueSpec { entry, ..QUEUE }`). The loom models keep their own tiny
//! buffers.
#![allow(dead_code)]

use abi_runtime::attach::Field;
use abi_runtime::broadcast_ring::RingSpec;
use abi_runtime::byte_queue::{EntryFormat, QueueSpec};
use abi_runtime::claim::{ClaimSpec, SharedWord};
use abi_runtime::mailbox::MailboxSpec;

/// `log_entry`: `size` u16 at 0, `kind` u8 at 2 (1 = padding), a 40-byte header.
pub const LOG_ENTRY: EntryFormat = EntryFormat {
    size: Field {
        offset: 0,
        width: 2,
    },
    kind: Field {
        offset: 2,
        width: 1,
    },
    padding: 1,
    header: 40,
};

/// `log_queue_header` (64 bytes), then the area.
pub const QUEUE: QueueSpec = QueueSpec {
    write_pos: 0,
    read_pos: 32,
    dropped: 8,
    capacity: Field {
        offset: 16,
        width: 4,
    },
    area: 64,
    entry: LOG_ENTRY,
};

/// `log_ring_header` (64 bytes), then the area; `log_entry.seq` at 16.
pub const RING: RingSpec = RingSpec {
    write_pos: 0,
    tail_pos: 8,
    entries: 24,
    capacity: Field {
        offset: 16,
        width: 4,
    },
    area: 64,
    entry: LOG_ENTRY,
    seq: 16,
};

/// `mailbox_header` (64 bytes), then the request and the response areas.
pub const MAILBOX: MailboxSpec = MailboxSpec {
    request_seq: 0,
    request_len: 4,
    response_seq: 8,
    status: 12,
    response_len: 16,
    response_total: 20,
    request_capacity: Field {
        offset: 24,
        width: 4,
    },
    response_capacity: Field {
        offset: 28,
        width: 4,
    },
    area: 64,
};

/// `client_entry`: state u32 at 0, generation u32 at 4; `client_state` free 0, claimed 1,
/// active 2, closing 3.
pub const ROW: ClaimSpec = ClaimSpec {
    state: 0,
    generation: 4,
    free: 0,
    claimed: 1,
    active: 2,
    closing: 3,
    word: Some(SharedWord {
        at: 0,
        state_low: true,
    }),
};
