//! abi-runtime's integration tests, one binary: each `tests/<name>.rs` is a module here
//! (`cargo test -p abi-runtime --test suite <name>::` runs one file's tests), compiled and
//! linked once, and started once under Miri and under wine. Apart: `loom`, built with
//! `--cfg loom`.

#[path = "common/bridge_specs.rs"]
mod bridge_specs;

#[path = "attach.rs"]
mod attach;
#[path = "broadcast_ring.rs"]
mod broadcast_ring;
#[path = "byte_queue.rs"]
mod byte_queue;
#[path = "cas_race.rs"]
mod cas_race;
#[path = "claim.rs"]
mod claim;
#[path = "directory.rs"]
mod directory;
#[path = "error_types.rs"]
mod error_types;
#[path = "hostile_peer.rs"]
mod hostile_peer;
#[path = "list_exchange.rs"]
mod list_exchange;
#[path = "mailbox.rs"]
mod mailbox;
#[path = "mixed_sizes.rs"]
mod mixed_sizes;
#[path = "mmap.rs"]
mod mmap;
#[path = "named_mapping.rs"]
mod named_mapping;
#[path = "pads.rs"]
mod pads;
#[path = "position_edges.rs"]
mod position_edges;
#[path = "produce.rs"]
mod produce;
#[path = "region.rs"]
mod region;
#[path = "seqlock.rs"]
mod seqlock;
#[path = "seqlock_stress.rs"]
mod seqlock_stress;
#[path = "triple_buffer.rs"]
mod triple_buffer;
#[path = "who_may_attach.rs"]
mod who_may_attach;
