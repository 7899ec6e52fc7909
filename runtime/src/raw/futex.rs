//! A futex shared between processes (Linux): `FUTEX_WAIT` and `FUTEX_WAKE` on a 4-byte word
//! of a region, and `futex_waitv` on several such words at once, through rustix, **without** `FUTEX_PRIVATE_FLAG`: a private futex is keyed by
//! this process's address space and never wakes another process, while a shared one is keyed
//! by the page behind the address (the inode and offset of a `MAP_SHARED` mapping), so each
//! process may map the word at another address.
//!
//! Part of `raw`, the crate's one audited module of `unsafe` code. The word is never loaded
//! or stored here: only its address goes to the kernel, which reads it itself (so the word
//! may be the low half of a `u64` that this process only ever accesses as a whole `u64`).

use core::sync::atomic::AtomicU32;
use std::time::Duration;

use rustix::io::Errno;
use rustix::thread::futex;

use super::Access;
use super::Region;
use crate::error::{RegionError, RegionErrorKind};

/// What a `FUTEX_WAIT` came back with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FutexWait {
    /// Woken, interrupted by a signal, or the word no longer held the value: look again.
    Woken,
    /// The timeout passed.
    TimedOut,
}

/// The word at `offset`: inside the region and 4-aligned (the address the kernel takes).
fn word<'a, A: Access>(
    region: &Region<'a, A>,
    offset: usize,
) -> Result<&'a AtomicU32, RegionError> {
    let (words, lane) = region.words(offset, 4)?;
    if lane % 4 != 0 {
        return Err(RegionErrorKind::Misaligned {
            address: region.as_ptr().addr().wrapping_add(offset),
            align: 4,
        }
        .into());
    }
    let ptr = words[0]
        .as_ptr()
        .cast::<u8>()
        .wrapping_add(lane)
        .cast::<u32>();
    // SAFETY: `words` are the region's live, 8-aligned AtomicU64 words holding bytes
    // offset..offset + 4 (checked by `Region::words`), so `ptr` is inside them, 4-aligned
    // (the lane is 0 or 4) and valid for 'a. The &AtomicU32 is only ever handed to the
    // futex system call as an address: this process makes no 4-byte access through it (its
    // accesses to these bytes stay whole-u64 atomics), so no mixed-size access is made.
    Ok(unsafe { AtomicU32::from_ptr(ptr) })
}

/// `FUTEX_WAIT` (shared) on the word at `offset` while it holds `expected`, for at most
/// `timeout`: returns at once when it no longer holds it.
pub(crate) fn wait<A: Access>(
    region: &Region<'_, A>,
    offset: usize,
    expected: u32,
    timeout: Duration,
) -> Result<FutexWait, RegionError> {
    let word = word(region, offset)?;
    let ts = futex::Timespec {
        tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(timeout.subsec_nanos()),
    };
    match futex::wait(word, futex::Flags::empty(), expected, Some(&ts)) {
        Ok(()) | Err(Errno::AGAIN | Errno::INTR) => Ok(FutexWait::Woken),
        Err(Errno::TIMEDOUT) => Ok(FutexWait::TimedOut),
        // EFAULT (not mapped) or EINVAL (misaligned) cannot happen for a checked word; a
        // kernel that refuses anyway is treated as a wake: the caller looks again, and its
        // deadline bounds it.
        Err(_) => Ok(FutexWait::Woken),
    }
}

/// `FUTEX_WAKE` (shared) of every waiter on the word at `offset`: how many were woken.
pub(crate) fn wake<A: Access>(region: &Region<'_, A>, offset: usize) -> Result<usize, RegionError> {
    let word = word(region, offset)?;
    Ok(futex::wake(word, futex::Flags::empty(), i32::MAX as u32).unwrap_or(0))
}

/// The most words one `futex_waitv` takes (the kernel's `FUTEX_WAITV_MAX`).
pub(crate) const WAITV_MAX: usize = 128;

/// `futex_waitv` (Linux 5.16; shared: `FUTEX2_SIZE_U32` without `FUTEX2_PRIVATE`) on every
/// word of `words` (a region, the word's offset, the value it is expected to hold) at once,
/// for at most `timeout`: returns at once when one no longer holds its value. `None` when
/// this kernel has no `futex_waitv` (`ENOSYS`), or for no words or more than [`WAITV_MAX`].
pub(crate) fn waitv<A: Access>(
    words: &[(Region<'_, A>, usize, u32)],
    timeout: Duration,
) -> Result<Option<FutexWait>, RegionError> {
    if words.is_empty() || words.len() > WAITV_MAX {
        return Ok(None);
    }
    let mut waiters = [futex::Wait::new(); WAITV_MAX];
    for (w, (region, offset, expected)) in waiters.iter_mut().zip(words) {
        let word = word(region, *offset)?;
        w.val = u64::from(*expected);
        // Only the address goes to the kernel, as for FUTEX_WAIT (see `word`).
        w.uaddr = futex::WaitPtr::new(word.as_ptr().cast());
        w.flags = futex::WaitFlags::SIZE_U32;
    }
    let waiters = &waiters[..words.len()];
    // The deadline is absolute on CLOCK_MONOTONIC, as the system call takes it.
    let now = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0) + u64::from(timeout.subsec_nanos());
    let secs = i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX / 2);
    let deadline = futex::Timespec {
        tv_sec: now
            .tv_sec
            .saturating_add(secs)
            .saturating_add(i64::try_from(nanos / 1_000_000_000).unwrap_or(0)),
        tv_nsec: i64::try_from(nanos % 1_000_000_000).unwrap_or(0),
    };
    match futex::waitv(
        waiters,
        futex::WaitvFlags::empty(),
        Some(&deadline),
        futex::ClockId::Monotonic,
    ) {
        Ok(_) | Err(Errno::AGAIN | Errno::INTR) => Ok(Some(FutexWait::Woken)),
        Err(Errno::TIMEDOUT) => Ok(Some(FutexWait::TimedOut)),
        Err(Errno::NOSYS) => Ok(None),
        // As for FUTEX_WAIT: a refusal is a wake, the caller's deadline bounds it.
        Err(_) => Ok(Some(FutexWait::Woken)),
    }
}
