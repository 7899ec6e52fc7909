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

/// Whether the loom negative control `name` is on: one ordering weakened or one check dropped,
/// which a model must catch (CI's "loom" step). Under `cfg(loom)` the control is named at run
/// time by `LOOM_MUTATION`, so one build of the models runs every control; otherwise never.
#[cfg(loom)]
pub(crate) fn mutated(name: &str) -> bool {
    std::env::var("LOOM_MUTATION").is_ok_and(|m| m == name)
}

/// Whether the loom negative control `name` is on: never outside `cfg(loom)`.
#[cfg(not(loom))]
#[inline(always)]
pub(crate) const fn mutated(_name: &str) -> bool {
    false
}
