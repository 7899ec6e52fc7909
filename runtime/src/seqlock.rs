//! `SeqLock`: the sequence counter that guards a multi-word payload in a region, with the
//! orderings of crossbeam-utils' `seq_lock.rs` and the Linux perf ring.
//!
//! The counter is even when the payload is stable and odd while the single writer changes it.
//! A reader copies the payload between two loads of the counter and keeps the copy only if the
//! counter was even and unchanged. The payload itself is accessed with relaxed atomics (the
//! region's copies), so a torn copy is merely *discarded*, never undefined behavior.

use core::marker::PhantomData;

use crate::error::{Contended, SeqLockError};
use crate::raw::Region;
use crate::raw::{Access, ReadWrite, Writable};
use crate::sync::{Ordering, fence, mutated, spin_loop, yield_now};
use crate::word::Word;

/// Tries a [`SeqLock::read`] makes by default before giving up.
///
/// Bounded, so that a writer that died mid-write (counter odd forever) costs a reader a
/// bounded wait, not a hang. The first 16 failed tries spin (a `spin_loop` hint each); every
/// later one yields the thread first, which costs about a microsecond when no other thread
/// wants the core, so 10 000 tries give up on a dead writer after roughly 10 ms, and ride
/// out a writer that the scheduler preempted mid-write for a time slice of a few ms. A try
/// that copies costs one copy.
pub const DEFAULT_TRIES: u32 = 10_000;

/// Failed tries that only spin before a reader starts yielding its core.
const SPINS: u32 = 16;

/// Waits before try number `tries` (from 1): a spin hint for the first [`SPINS`], then a
/// yield of the thread, so that a writer preempted in the middle of a write (on a machine
/// with more threads than cores) gets the core back instead of a reader burning its tries.
fn back_off(tries: u32) {
    if tries <= SPINS {
        spin_loop();
    } else {
        yield_now();
    }
}

/// Runs `attempt` until it returns `Some`, at most `max_tries` times, backing off between
/// tries as [`SeqLock::read`] does; returns the value and how many tries failed first. A
/// reader of a ring uses it to pick the newest slot again on every try, instead of
/// retrying a slot the writer has lapped.
pub fn retry<R>(
    max_tries: u32,
    mut attempt: impl FnMut() -> Option<R>,
) -> Result<(R, u32), SeqLockError> {
    for tries in 0..max_tries {
        if tries > 0 {
            back_off(tries);
        }
        if let Some(value) = attempt() {
            return Ok((value, tries));
        }
    }
    Err(SeqLockError::Contended { tries: max_tries })
}

/// A seqlock counter: the word `W` at `offset` of a region (`u32` or `u64` in practice).
///
/// Any number of readers; **one** writer at a time (the ABI assigns it). Two concurrent writers
/// are a logic error (readers could accept a mix of their payloads), not undefined behavior.
#[derive(Clone, Copy, Debug)]
pub struct SeqLock<'a, W: Word, A: Access = ReadWrite> {
    region: Region<'a, A>,
    offset: usize,
    _w: PhantomData<W>,
}

impl<'a, W: Word, A: Access> SeqLock<'a, W, A> {
    /// The counter at `offset` of `region`.
    ///
    /// # Panics
    ///
    /// Like [`Region::load`]: if the word is out of bounds or misaligned (a bug in the caller).
    #[track_caller]
    pub fn new(region: Region<'a, A>, offset: usize) -> Self {
        let _ = region.load::<W>(offset, Ordering::Relaxed);
        SeqLock {
            region,
            offset,
            _w: PhantomData,
        }
    }

    /// The counter's value (`Acquire`).
    #[inline]
    pub fn load(&self) -> W {
        self.region.load(self.offset, Ordering::Acquire)
    }

    /// Runs `copy` until it ran entirely inside one stable period of the counter, and returns
    /// its result; at most `max_tries` times (a try that finds a write in progress counts).
    ///
    /// `copy` must only copy (it may run several times, and its result is thrown away unless
    /// the counter confirms it), and must access the payload with the same ranges as the writer
    /// (see the crate docs on access sizes).
    pub fn read<R>(&self, max_tries: u32, copy: impl FnMut() -> R) -> Result<R, SeqLockError> {
        self.read_counted(max_tries, copy).map(|(value, _)| value)
    }

    /// Like [`read`](SeqLock::read), also returning how many tries failed before the one that
    /// succeeded (0: the first try did).
    pub fn read_counted<R>(
        &self,
        max_tries: u32,
        mut copy: impl FnMut() -> R,
    ) -> Result<(R, u32), SeqLockError> {
        retry(max_tries, || self.try_read(&mut copy))
    }

    /// One try: `Some` with `copy`'s result if it ran inside one stable period of the
    /// counter, `None` if a write was in progress or began meanwhile. [`retry`] repeats it.
    pub fn try_read<R>(&self, mut copy: impl FnMut() -> R) -> Option<R> {
        let s1 = self.region.load::<W>(self.offset, Ordering::Acquire);
        if s1.to_bits() & 1 == 1 {
            return None;
        }
        let value = copy();
        // Orders the copy's relaxed loads before the re-check: if the copy saw any store
        // of a later write, this fence synchronizes with that write's Release fence, so the
        // load below sees at least the odd counter that write began with. (Left out by the
        // loom negative control `seqlock_fence`, which loom must catch.)
        if !mutated("seqlock_fence") {
            fence(Ordering::Acquire);
        }
        // (The loom negative control `seqlock_second_load` drops this load: the copy is kept
        // unchecked, which loom must catch.)
        let s2 = if mutated("seqlock_second_load") {
            s1
        } else {
            self.region.load::<W>(self.offset, Ordering::Relaxed)
        };
        (s1 == s2).then_some(value)
    }
}

impl<W: Word, A: Writable> SeqLock<'_, W, A> {
    /// Changes the payload with `f` between an odd and an even counter, and returns `f`'s
    /// result. Only one writer may run at a time. [`try_write`](SeqLock::try_write) is the
    /// same for an `f` that can fail.
    ///
    /// Check everything that can fail *before* calling `write`: the counter is odd while `f`
    /// runs, and every reader's try fails meanwhile. If `f` panics anyway, the counter is
    /// **left odd** as the panic unwinds: what `f` had stored by then is half a record, and
    /// making the counter even would publish it as whole. Readers see a write in progress,
    /// so their bounded tries end in [`SeqLockError::Contended`], never in the half record;
    /// the next write recovers (below).
    ///
    /// A counter found odd (this writer's own write that panicked or failed, or a writer in
    /// another process that died mid-write: there is one writer) is kept odd for the write,
    /// not moved on by one, and made even after it, so the payload becomes readable again
    /// once a write has stored it whole.
    ///
    /// A counter narrower than its `u64` is stored by a bounded compare-exchange loop (the
    /// word's other bytes may be another writer's): [`Contended`] when a peer changed them
    /// before each try. At the odd store, `f` does not run and nothing changed; at the even
    /// store, `f` ran and the counter stays odd, so readers get
    /// [`SeqLockError::Contended`] until a later write succeeds.
    pub fn write<R>(&self, f: impl FnOnce() -> R) -> Result<R, Contended> {
        self.try_write(|| Ok::<R, Contended>(f()))
    }

    /// [`write`](SeqLock::write) for an `f` that can fail after the counter went odd (a
    /// store of part of a word that a peer kept changing): an `Err` from `f` is returned
    /// with the counter **left odd**, as a panic leaves it, since `f` may have stored part
    /// of the record. Readers get [`SeqLockError::Contended`] until the next write stores
    /// the whole record and makes the counter even. A [`Contended`] at the counter's own
    /// stores is returned as `E`, with the same outcome as in `write`.
    pub fn try_write<R, E: From<Contended>>(
        &self,
        f: impl FnOnce() -> Result<R, E>,
    ) -> Result<R, E> {
        let s = self.region.load::<W>(self.offset, Ordering::Relaxed);
        let begin = if s.to_bits() & 1 == 0 {
            W::from_bits(s.to_bits().wrapping_add(1))
        } else {
            s
        };
        self.region
            .try_store(self.offset, begin, Ordering::Relaxed)?;
        // Orders the odd counter before every store of `f`: a reader that sees one of them
        // and then fences (Acquire) sees the counter odd or later.
        fence(Ordering::Release);
        // A panic or an `Err` of `f` leaves the counter odd: what it stored is not whole.
        let result = f()?;
        let end = W::from_bits(begin.to_bits().wrapping_add(1));
        self.region.try_store(self.offset, end, Ordering::Release)?;
        Ok(result)
    }
}
