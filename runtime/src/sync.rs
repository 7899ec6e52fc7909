//! The synchronization primitives the crate's protocols are built from: `core`'s and `std`'s,
//! or loom's under `cfg(loom)`, where the loom models (`tests/loom.rs`) explore their
//! interleavings and weak-memory outcomes.

#[cfg(not(loom))]
pub(crate) use core::hint::spin_loop;
#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicU64, Ordering, fence};
#[cfg(not(loom))]
pub(crate) use std::thread::yield_now;

#[cfg(loom)]
pub(crate) use loom::hint::spin_loop;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU64, Ordering, fence};
#[cfg(loom)]
pub(crate) use loom::thread::yield_now;
