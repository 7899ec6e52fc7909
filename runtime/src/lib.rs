//! Atomic-only access to live shared memory, for code generated from the bridge ABI.
//!
//! Generated views (one per struct, one accessor per field) call this crate with byte offsets;
//! this crate holds all of the `unsafe` code (in one small private module, and with the `mmap`
//! feature a second one for the OS calls of who may attach: group lookups, security
//! descriptors).
//!
//! # Memory model
//!
//! **No references into shared memory.** Another process writes the shared bytes while this
//! one reads them. A Rust `&[u8]` or `&T` over such bytes asserts that they do not change while
//! the reference lives; they do, which is a data race and undefined behavior, and the compiler
//! acts on it (it may fuse, reorder or delete re-reads, e.g. a seqlock's re-check). So a
//! [`Region`] is a raw pointer and a length, like memmap2's `MmapRaw`, and every access it makes
//! is an atomic operation (`core::sync::atomic`), never a plain or volatile one.
//!
//! **One access size, by construction.** Every access this crate makes to region bytes is an
//! atomic operation on the whole 8-aligned `u64` that holds them: a `u32` load loads its `u64`
//! and takes the `u32`'s bytes out; a `u16` store, swap or fetch-add is a compare-exchange loop
//! on its `u64` that changes only those bytes; [`Region::read_bytes`],
//! [`write_bytes`](Region::write_bytes), [`read`](Region::read) and
//! [`write`](Region::write) move whole words (relaxed), and a copy that covers a word only in
//! part changes it with a compare-exchange that keeps its other bytes. The memory model
//! forbids racing atomic accesses of different sizes to overlapping bytes (Miri reports them);
//! here no safe call can make one, whatever offsets, widths and ranges it asks for, so a
//! lapped ring reader that copies a range sized by another publication is still race-free.
//! A copy that races with a writer may be *torn* (old and new bytes mixed) but is never
//! undefined behavior; a [`SeqLock`] re-check detects the tear and the copy is thrown away.
//! (Other processes are outside this process's memory model: the hardware keeps their
//! narrower atomic accesses atomic against these.)
//!
//! **Read-only regions.** A `Region<'_, ReadOnly>` ([`Region::read_only`], or a
//! `ReadOnlyMapping` with the `mmap` feature) has loads and copies out, and no store: a store
//! through it does not compile. Its loads are relaxed, followed by a fence of the ordering
//! asked for, which works on memory mapped read-only.
//!
//! **Orderings** (those of crossbeam-utils' `seq_lock.rs` and of the Linux perf ring):
//! - field loads and stores take the caller's ordering; [`Region::compare_exchange`] and
//!   [`Region::compare_exchange_byte`] succeed with `AcqRel` and fail with `Acquire` (only
//!   when the field itself differs: a change to a neighbouring field retries);
//! - seqlock reader ([`SeqLock::read`]): counter `load(Acquire)`, retry if odd; relaxed copy;
//!   `fence(Acquire)`; counter `load(Relaxed)`; keep the copy if both loads are equal;
//! - seqlock writer ([`SeqLock::write`]): counter `store(odd, Relaxed)`; `fence(Release)`;
//!   relaxed stores of the payload; counter `store(even, Release)`. A closure that panics or
//!   fails ([`SeqLock::try_write`]) leaves the counter odd, never a half record published as
//!   whole: readers give up busy, and the next write keeps the odd value and ends even;
//! - a ring (Linux perf discipline): the producer writes a record with relaxed stores, then
//!   publishes `head` with `store(Release)`; the consumer loads `head` with `load(Acquire)`, reads
//!   the records before it, then frees them with `tail.store(Release)`; the producer loads
//!   `tail` with `load(Acquire)` before it reuses that space: [`byte_queue::ByteQueue`], one
//!   writer and one reader of variable-size entries, dropping and counting what does not fit;
//! - a broadcast ring ([`broadcast_ring`], Agrona's discipline): the writer moves `tail_pos`
//!   past the entries it will overwrite, `fence(Release)`, writes the entry, publishes
//!   `write_pos` with `store(Release)`; a reader loads `write_pos` with `load(Acquire)`, copies,
//!   `fence(Acquire)`, and keeps the copy only if `tail_pos` did not pass it (else it was
//!   lapped, and learns how many entries it missed from their `seq`);
//! - a triple buffer ([`triple_buffer`], the `triple_buffer` crate's): the whole shared state
//!   is one word (the shared buffer's index and a fresh bit), which both sides change only by
//!   compare-exchange (`AcqRel`), so neither sees a buffer the other is filling or reading;
//! - a mailbox ([`mailbox`]): the client writes the request, then bumps `request_seq` with
//!   `store(Release)`; the server loads it with `load(Acquire)`, answers, and stores
//!   `response_seq` = the request answered with `store(Release)`, which the client loads with
//!   `load(Acquire)` before it reads the answer;
//! - a claimed row ([`claim`]): a client claims a free row by compare-and-swap of its state,
//!   bumps its generation, and moves the state on only while the generation is its own (one
//!   compare-and-swap of the word that holds both, where they share one);
//! - a pad a claimed row binds ([`pads`]): the client swaps the owner byte, a `SeqCst` fence,
//!   then re-checks its claim and undoes the bind when it no longer stands; the host retires
//!   the row, a `SeqCst` fence, then sweeps the row's pads: one side always sees the other.
//!
//! # What a hostile peer can and cannot cause
//!
//! The other side of a region (another process) may write anything, at any time, to any
//! byte of it. What that can cause here:
//! - **wrong data in what it writes**: fields, entries and payloads it owns hold whatever it
//!   stored; the protocols check what they use (positions, sizes, counts, states) and answer
//!   a value no honest peer writes with a named error (`Positions`, `EntrySize`, `Length`,
//!   `Sequence`, `State`, ...), never with a wrap, an overflow or an out-of-bounds access;
//! - **no progress on the words it keeps writing**: a seqlock read that never finds a stable
//!   copy gives up with [`SeqLockError::Contended`] after its tries; a change of part of a
//!   word (a sub-word store, swap, add or compare-exchange, a copy's partial first or last
//!   word) whose other bytes it changes before each of [`CAS_TRIES`] exchanges gives up with
//!   [`Contended`] (or the protocol's `Contended` error), having changed nothing; a claim or
//!   triple-buffer exchange it keeps racing is lost or `Contended` after its bounded tries;
//! - **the loss of what it shares with us**: it can free or take a row, overwrite an entry
//!   we have not read (a ring reader learns it was lapped), or undo our stores to bytes it
//!   reaches (all of them): this crate's checks make that a named error or a lost update,
//!   never undefined behavior.
//!
//! What it cannot cause: a panic (the panics documented on the word methods are bugs in the
//! caller's offsets, which generated code fixes when it builds a view, never values read from
//! the region), a hang (every retry loop here is bounded), undefined behavior in this process
//! (every access is an atomic whole-`u64` access inside the region; a torn copy is detected
//! and thrown away), or an allocation sized by a number it wrote beyond the documented caps.
//! What it can cause to itself (a lost row, a refused request) is its own business.
//!
//! The orderings below are model-checked with loom (`tests/loom.rs`, CI's "loom" step): a
//! seqlock, the snapshot ring's newest read, a claim against a free, the byte queue across
//! its wrap, the broadcast ring lapping a reader, the triple buffer, the mailbox and a
//! session's reload, each with a negative control that weakens one ordering.
//!
//! # Example
//!
//! ```
//! use abi_runtime::{DEFAULT_TRIES, SeqLock, SharedBuf};
//!
//! // A 64-byte header whose first u64 is the seqlock counter, then a 16-byte payload.
//! let buf = SharedBuf::new(80);
//! let region = buf.region();
//! let lock = SeqLock::<u64>::new(region, 0);
//! let payload = region.sub(64, 16, 8).unwrap();
//!
//! lock.try_write(|| payload.write(0, &[7u64, 8u64])).unwrap();
//! assert_eq!(lock.load(), 2);
//!
//! let copy: [u64; 2] = lock.read(DEFAULT_TRIES, || payload.read(0)).unwrap();
//! assert_eq!(copy, [7, 8]);
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod accessors;
mod entry_sides;
mod exchange_sides;
mod handles;
mod mailbox_sides;
mod recording_format;
mod seqlock_reads;
mod session_client;
mod session_host;
mod slots_ring;
mod versioned;

pub mod attach;
mod attach_check;
mod attach_error;
mod attach_geometry;
mod attach_spec;
pub mod broadcast_ring;
pub mod byte_queue;
pub mod claim;
#[cfg(test)]
mod contention_tests;
mod copy;
pub mod directory;
#[cfg(feature = "mmap")]
mod directory_mapping;
pub mod entry_parts;
mod error;
mod events;
mod features;
pub mod hung;
pub mod identity;
pub mod laid_out;
pub mod list_exchange;
pub mod lockstep;
pub mod mailbox;
#[cfg(feature = "mmap")]
mod mmap;
pub mod pads;
pub mod produce;
pub mod relayout;
/// A test driver's peer for the bounded compare-exchange loops (feature `contention-hook`).
#[cfg(feature = "contention-hook")]
pub mod contention {
    /// Sets (or, with `None`, clears) this thread's hook: called with the `u64` word between
    /// each load and exchange of every bounded compare-exchange loop (a sub-word store, swap,
    /// fetch-add or compare-and-swap, a partial copy). A hook that changes the word's other
    /// bytes each time makes the loop give up with [`Contended`](crate::Contended) after
    /// [`CAS_TRIES`](crate::CAS_TRIES) tries; compare the word's address
    /// (`core::ptr::from_ref(word).addr()`) with the one to contend.
    pub fn set_hook(hook: Option<fn(&crate::sync::AtomicU64)>) {
        crate::region::contention_hook::HOOK.set(hook);
    }
}
mod raw;
#[cfg(feature = "recording")]
pub mod recording;
mod region;
pub mod restore;
mod seqlock;
pub mod service;
#[cfg(feature = "mmap")]
mod share;
mod shared_buf;
mod spec;
#[doc(hidden)]
pub mod support;
mod sync;
pub mod triple_buffer;
pub mod wake;
pub mod wake_stats;
mod word;

pub use attach::AttachError;
#[cfg(feature = "mmap")]
pub use directory_mapping::{DirectoryMapping, own_host_time, process_probe, process_time_of};
pub use error::{CAS_TRIES, Contended, RegionError, RegionErrorKind, SeqLockError};
pub use events::EventsSince;
#[cfg(feature = "mmap")]
pub use mmap::Mapping;
#[cfg(all(feature = "mmap", target_pointer_width = "64"))]
pub use mmap::ReadOnlyMapping;
pub use raw::{Access, MIN_ALIGN, ReadOnly, ReadWrite, Region, Writable};
pub use seqlock::{DEFAULT_TRIES, SeqLock, retry};
#[cfg(feature = "mmap")]
pub use share::{AccessDenied, FileOwner, Share};
pub use shared_buf::SharedBuf;
pub use word::{WholeWord, Word};

// `view_accessors!` converts an enum newtype to and from its integer with zerocopy's
// `transmute!`, through this path: the generated crate need not name zerocopy itself.
#[doc(hidden)]
pub use zerocopy as __zerocopy;
