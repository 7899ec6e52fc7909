//! The operating system's monotonic clock in nanoseconds (feature `mmap`): `CLOCK_MONOTONIC`
//! on Unix (libc's `clock_gettime`), `QueryPerformanceCounter` on Windows (windows-sys). The
//! clock a producer stamps its image with, and the one the schema's clock pair names.
//!
//! Part of `raw`, the crate's one audited module of `unsafe` code; it touches no shared
//! memory.

/// The monotonic clock now, in nanoseconds since an unspecified start (boot on Linux).
#[cfg(unix)]
pub(crate) fn monotonic_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec that outlives the call, which only writes it;
    // CLOCK_MONOTONIC exists on every Unix this crate builds for.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    if rc != 0 {
        return 0;
    }
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(t.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// The monotonic clock now, in nanoseconds: `QueryPerformanceCounter` scaled by its frequency.
#[cfg(windows)]
pub(crate) fn monotonic_ns() -> u64 {
    use windows_sys::Win32::System::Performance::{
        QueryPerformanceCounter, QueryPerformanceFrequency,
    };
    let (mut count, mut frequency) = (0i64, 0i64);
    // SAFETY: both calls write one i64 each through a pointer to a live local; they cannot
    // fail on Windows XP and later, and a zero is handled below all the same.
    let ok = unsafe {
        QueryPerformanceCounter(&mut count) != 0 && QueryPerformanceFrequency(&mut frequency) != 0
    };
    if !ok || count < 0 || frequency <= 0 {
        return 0;
    }
    let ns =
        u128::from(count.unsigned_abs()) * 1_000_000_000 / u128::from(frequency.unsigned_abs());
    u64::try_from(ns).unwrap_or(u64::MAX)
}
