//! Rust bindings of the bridge ABI 0.9: shared memory between a game host and its bot
//! clients. Generated from `schema.toml` by this crate's build script; the same text is
//! checked in as `generated/bridge.rs` for review.
//!
//! Every struct is `#[repr(C)]` and derives zerocopy's `FromBytes`, `IntoBytes`,
//! `KnownLayout` and `Immutable`, so bytes from shared memory or a file become a typed
//! reference with no copy and no `unsafe`:
//!
//! ```
//! use bridge_abi::{Snapshot, SNAPSHOT_MAGIC};
//! use zerocopy::FromBytes;
//!
//! # let bytes = zerocopy::IntoBytes::as_bytes(&Snapshot::default()).to_vec();
//! let snapshot = Snapshot::ref_from_bytes(&bytes).expect("12104 bytes, 8-aligned");
//! if snapshot.header.magic != SNAPSHOT_MAGIC { /* not a snapshot */ }
//! ```
//!
//! Enums and flag sets are `#[repr(transparent)]` newtypes over their representation, so
//! any value the host writes can be read; `Phase::name` tells whether the schema declares it.
#![forbid(unsafe_code)]

pub use abi_runtime as runtime;
pub use zerocopy;

include!(concat!(env!("OUT_DIR"), "/bridge.rs"));
