//! Rust bindings of the bridge ABI 0.9: shared memory between a game host and its bot
//! clients. Generated from `schema.toml` by this crate's build script; the same text is
//! checked in as `generated/bridge.rs` for review.
//!
//! # Two ways to use the bytes
//!
//! **Value types** (`Snapshot`, `PadInput`, `RecFileHeader`, …) are `#[repr(C)]` structs
//! that derive zerocopy's `FromBytes`, `IntoBytes`, `KnownLayout` and `Immutable`. They are
//! for bytes that nobody else changes while you hold them: a copy, a recording read from a
//! file, a message, a test. There, `Snapshot::ref_from_bytes(&bytes)` views the bytes with
//! no copy and no `unsafe`.
//!
//! **Never point a value type, or any `&[u8]`, at live shared memory.** A `&Snapshot` or
//! `&[u8]` over bytes another process writes is a data race, which is undefined behaviour,
//! and the compiler acts on it: it deletes the second load of a seqlock's counter, so torn
//! copies pass, and turns a poll of `snapshot_seq` into one load and an endless loop.
//!
//! **Live views** ([`live`]) are for the shared memory itself. Each wraps a
//! [`runtime::Region`] (a pointer and a length, like memmap2's `MmapRaw`), checked for size
//! and alignment once, when the view is built. Every field is read and written through
//! atomics at the layout's offsets: the fields the schema marks atomic with acquire loads
//! and release stores, compare-and-swap for claims, the bytes a seqlock guards copied into
//! a value type and re-checked, the snapshot ring read at its newest slot. The only
//! `unsafe` step is making the region from a raw pointer ([`runtime::Region::from_raw_parts`],
//! what `MapViewOfFile` or `mmap` gives), or use [`runtime::Mapping`] (feature `mmap`),
//! which maps a file or a `/dev/shm` object for you. This crate itself has no `unsafe`.
//!
//! A bot reads the newest snapshot and claims a client row:
//!
//! ```
//! use bridge_abi::runtime::SharedBuf;
//! use bridge_abi::{BridgeRegion, ClientState, live, MAX_CLIENTS};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A real bot maps the host's bridge:
//! //   let map = bridge_abi::runtime::Mapping::open("/dev/shm/ibf.bridge")?;   // feature "mmap"
//! //   let bridge = map.region()?;
//! // Here heap memory, with what the host would have written, stands in for it.
//! # let shared = SharedBuf::new(4096 + 8 * 32768);
//! # let bridge = shared.region();
//! # {
//! #     let host = live::BridgeHeader::at(bridge, 0)?;
//! #     let mut regions = host.regions();
//! #     regions[BridgeRegion::SNAPSHOT_RING.0 as usize].offset = 4096;
//! #     regions[BridgeRegion::SNAPSHOT_RING.0 as usize].size = 8 * 32768;
//! #     host.set_regions(regions);
//! #     let ring = live::SnapshotRing::new(host, bridge.tail(4096, 8)?)?;
//! #     let mut slot = live::RingSlot::zeroed();
//! #     slot.publish_seq = 1;
//! #     slot.payload.header.tick = 600;
//! #     ring.publish(&slot);
//! # }
//! let header = live::BridgeHeader::at(bridge, 0)?;
//!
//! // The snapshot ring, where the region table says it is.
//! let row = header.regions()[BridgeRegion::SNAPSHOT_RING.0 as usize];
//! let slots = bridge.sub(row.offset as usize, row.size as usize, 8)?;
//! let ring = live::SnapshotRing::new(header, slots)?;
//! if let Some(newest) = ring.read_newest()? {
//!     // An owned copy, consistent: the seqlock re-checked it.
//!     let snapshot = &newest.payload;
//!     assert_eq!(snapshot.header.tick, 600);
//! }
//!
//! // Claim the first free client row by compare-and-swap; the host frees it.
//! let mine = (0..MAX_CLIENTS).find_map(|i| {
//!     let row = header.clients(i)?;
//!     row.compare_exchange_state(ClientState::FREE, ClientState::CLAIMED).ok()?;
//!     Some(row)
//! });
//! let row = mine.expect("a free row");
//! row.fetch_add_generation(1);
//! row.set_pid(std::process::id());
//! row.set_state(ClientState::ACTIVE); // release: publishes the fields written before
//! # Ok(())
//! # }
//! ```
//!
//! Enums and flag sets are `#[repr(transparent)]` newtypes over their representation, so
//! any value the host writes can be read; `Phase::name` tells whether the schema declares it.
#![forbid(unsafe_code)]

pub use abi_runtime as runtime;
pub use zerocopy;

include!(concat!(env!("OUT_DIR"), "/bridge.rs"));
