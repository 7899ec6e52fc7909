//! The word-level API of `Region`: sub-regions, and atomic loads, stores and read-modify-writes
//! of one word at a byte offset, each made on the whole `u64` that holds the word.
//!
//! Word accesses panic on an offset that is out of bounds or misaligned for the word: that is a
//! bug in the caller. Generated code checks a region's size and alignment once, when it builds
//! a view, and afterwards only uses constant offsets inside it.

use crate::error::{CAS_TRIES, Contended, RegionError, RegionErrorKind};
use crate::raw::Region;
use crate::raw::{Access, Writable};
use crate::sync::Ordering::{self, AcqRel, Acquire, Relaxed, Release, SeqCst};
use crate::sync::{AtomicU64, fence};
use crate::word::{WholeWord, Word};
use core::fmt;

impl<'a, A: Access> Region<'a, A> {
    /// `true` if the region has no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `len` bytes at `offset`, which must fit in the region and start at an address that
    /// is a multiple of `align` (1, 2, 4, 8: the alignment the sub-region's contents need).
    ///
    /// # Panics
    ///
    /// If `align` is not a power of two (a bug in the caller, not in the data).
    pub fn sub(
        &self,
        offset: usize,
        len: usize,
        align: usize,
    ) -> Result<Region<'a, A>, RegionError> {
        assert!(
            align.is_power_of_two(),
            "sub-region alignment {align} is not a power of two"
        );
        let sub = self.slice(offset, len)?;
        let address = sub.as_ptr().addr();
        if address % align != 0 {
            return Err(RegionErrorKind::Misaligned { address, align }.into());
        }
        Ok(sub)
    }

    /// The bytes from `offset` to the end of the region; see [`sub`](Region::sub).
    pub fn tail(&self, offset: usize, align: usize) -> Result<Region<'a, A>, RegionError> {
        self.sub(offset, self.len().saturating_sub(offset), align)
    }

    /// An extensible record at `offset` as its producer built it, `len` bytes long (its size
    /// field): the first `min(len, size)` bytes, aligned to `align` (see [`sub`](Region::sub)).
    /// An `OutOfBounds` error (`len` found where `base` was needed) if `len` is less than
    /// `base`, the bytes every producer of the record's major version writes.
    pub fn sub_record(
        &self,
        offset: usize,
        len: usize,
        base: usize,
        size: usize,
        align: usize,
    ) -> Result<Region<'a, A>, RegionError> {
        if len < base {
            return Err(RegionErrorKind::OutOfBounds {
                offset,
                len: base,
                region_len: len,
            }
            .into());
        }
        self.sub(offset, len.min(size), align)
    }

    /// `Ok` when the bytes `offset..end` are inside the region (a field of a record its
    /// producer wrote), an `OutOfBounds` error naming them when they are not.
    pub fn covers(&self, offset: usize, end: usize) -> Result<(), RegionError> {
        if end <= self.len() {
            Ok(())
        } else {
            Err(RegionErrorKind::OutOfBounds {
                offset,
                len: end.saturating_sub(offset),
                region_len: self.len(),
            }
            .into())
        }
    }

    /// The `u64` holding the `W` at `offset`, and the `W`'s lane in it; panics if the `W` is
    /// out of bounds or misaligned.
    #[inline]
    #[track_caller]
    pub(crate) fn word<W: Word>(&self, offset: usize) -> (&'a AtomicU64, usize) {
        let what = core::any::type_name::<W>;
        let words = self
            .words(offset, W::SIZE)
            .unwrap_or_else(|err| access_panic(err, what()));
        let address = self.as_ptr().addr() + offset;
        match words {
            ([word], lane) if address % W::SIZE == 0 => (word, lane),
            _ => access_panic(
                RegionErrorKind::Misaligned {
                    address,
                    align: W::SIZE,
                }
                .into(),
                what(),
            ),
        }
    }

    /// Atomically loads the `W` at `offset`.
    ///
    /// The load reads the whole `u64` that holds the `W` (see the crate docs). On a
    /// [`ReadOnly`](crate::ReadOnly) region it is a relaxed load followed by a fence of
    /// `order` (the loads std guarantees on read-only memory are relaxed ones).
    ///
    /// # Panics
    ///
    /// If `offset + W::SIZE` exceeds the region or the address is not a multiple of `W::SIZE`,
    /// and for a `Release` or `AcqRel` order (as `AtomicU64::load`). The same holds for every
    /// word method below.
    #[inline]
    #[track_caller]
    pub fn load<W: Word>(&self, offset: usize, order: Ordering) -> W {
        let (word, lane) = self.word::<W>(offset);
        W::from_lane(load_word::<A>(word, order), lane)
    }
}

/// Loads `word` with `order`, or relaxed and then fenced on a read-only region.
#[inline]
#[track_caller]
pub(crate) fn load_word<A: Access>(word: &AtomicU64, order: Ordering) -> u64 {
    if !A::READ_ONLY {
        return word.load(order);
    }
    match order {
        Relaxed => word.load(Relaxed),
        Acquire => {
            let value = word.load(Relaxed);
            fence(Acquire);
            value
        }
        SeqCst => {
            fence(SeqCst);
            let value = word.load(Relaxed);
            fence(SeqCst);
            value
        }
        _ => word.load(order),
    }
}

/// The failure order of a compare-exchange whose success order is `order` (the strongest
/// allowed: no release part).
#[inline]
fn failure_order(order: Ordering) -> Ordering {
    match order {
        Release | Relaxed => Relaxed,
        AcqRel | Acquire => Acquire,
        _ => SeqCst,
    }
}

/// Replaces the lane's value `old` by `update(old)` in `word` with one compare-exchange of the
/// whole `u64` (`order` on success), retrying while only other lanes changed, at most
/// [`CAS_TRIES`] times. Returns the lane's value before, `Ok` if it was replaced, `Err` if
/// `update` declined; [`Contended`] if every try found other lanes changed.
#[inline]
fn update_lane<W: Word>(
    word: &AtomicU64,
    lane: usize,
    order: Ordering,
    mut update: impl FnMut(W) -> Option<W>,
) -> Result<Result<W, W>, Contended> {
    let failure = failure_order(order);
    let mut current = word.load(failure);
    for _ in 0..CAS_TRIES {
        let old = W::from_lane(current, lane);
        let Some(new) = update(old) else {
            return Ok(Err(old));
        };
        contention_hook::between_load_and_exchange(word);
        // Strong, not weak: each failed try is then a change a peer made to the word, so the
        // bound counts a peer's stores and never spurious failures (LL/SC machines, Miri).
        match word.compare_exchange(current, new.into_lane(current, lane), order, failure) {
            Ok(_) => return Ok(Ok(old)),
            Err(found) => current = found,
        }
    }
    Err(Contended { tries: CAS_TRIES })
}

/// A test's stand-in for a peer that writes a word's other bytes between each load and
/// exchange of a bounded compare-exchange loop (unit tests only; nothing in other builds).
pub(crate) mod contention_hook {
    use crate::sync::AtomicU64;

    #[cfg(any(test, feature = "contention-hook"))]
    std::thread_local! {
        /// Called with the word between a loop's load and its exchange, on this thread.
        pub(crate) static HOOK: core::cell::Cell<Option<fn(&AtomicU64)>> =
            const { core::cell::Cell::new(None) };
    }

    /// Runs this thread's hook, if a test set one.
    #[inline(always)]
    pub(crate) fn between_load_and_exchange(word: &AtomicU64) {
        #[cfg(any(test, feature = "contention-hook"))]
        if let Some(hook) = HOOK.get() {
            hook(word);
        }
        let _ = word;
    }
}

impl<'a, A: Writable> Region<'a, A> {
    /// Atomically stores the whole-word `value` at `offset`: one store of the `u64`. (A
    /// narrower word is [`try_store`](Region::try_store)d: it can meet contention.)
    ///
    /// # Panics
    ///
    /// As [`load`](Region::load), and for an `Acquire` or `AcqRel` order (as `AtomicU64::store`).
    #[inline]
    #[track_caller]
    pub fn store<W: WholeWord>(&self, offset: usize, value: W, order: Ordering) {
        let (word, _) = self.word::<W>(offset);
        word.store(value.to_bits(), order);
    }

    /// Atomically stores `value` at `offset`: a store of the `u64` that holds it when `W` is a
    /// `u64`, else a compare-exchange loop on that `u64` that changes only the `W`'s bytes,
    /// bounded by [`CAS_TRIES`]: [`Contended`] (and nothing stored) when a peer changed the
    /// word's other bytes before every exchange.
    ///
    /// Why not a plain store of the whole `u64` with the other bytes as last loaded: those
    /// bytes may be another writer's (the peer's, or another thread's field in the same
    /// word), and a plain store would undo that writer's store made in between. A loop that
    /// exchanges only what it loaded cannot.
    ///
    /// # Panics
    ///
    /// As [`load`](Region::load), and for an `Acquire` or `AcqRel` order (as `AtomicU64::store`).
    #[inline]
    #[track_caller]
    pub fn try_store<W: Word>(
        &self,
        offset: usize,
        value: W,
        order: Ordering,
    ) -> Result<(), Contended> {
        assert!(
            !matches!(order, Acquire | AcqRel),
            "there is no such thing as an acquire store"
        );
        let (word, lane) = self.word::<W>(offset);
        if W::SIZE == 8 {
            word.store(value.to_bits(), order);
            return Ok(());
        }
        update_lane(word, lane, order, |_| Some(value)).map(|_| ())
    }

    /// Replaces the whole-word `W` at `offset` with `new` if it equals `current`; returns the
    /// previous value, `Ok` if it was replaced. Success orders `AcqRel`, failure `Acquire`.
    #[inline]
    #[track_caller]
    pub fn compare_exchange<W: WholeWord>(
        &self,
        offset: usize,
        current: W,
        new: W,
    ) -> Result<W, W> {
        let (word, _) = self.word::<W>(offset);
        word.compare_exchange(current.to_bits(), new.to_bits(), AcqRel, Acquire)
            .map(W::from_bits)
            .map_err(W::from_bits)
    }

    /// Replaces the `W` at `offset` with `new` if it equals `current`; returns the previous
    /// value, `Ok(Ok)` if it was replaced, `Ok(Err)` if the `W` differs. Success orders
    /// `AcqRel`, failure `Acquire`. A change to a neighbouring lane retries, at most
    /// [`CAS_TRIES`] times: then [`Contended`].
    #[inline]
    #[track_caller]
    pub fn try_compare_exchange<W: Word>(
        &self,
        offset: usize,
        current: W,
        new: W,
    ) -> Result<Result<W, W>, Contended> {
        let (word, lane) = self.word::<W>(offset);
        if W::SIZE == 8 {
            return Ok(word
                .compare_exchange(current.to_bits(), new.to_bits(), AcqRel, Acquire)
                .map(W::from_bits)
                .map_err(W::from_bits));
        }
        update_lane(word, lane, AcqRel, |old| (old == current).then_some(new))
    }

    /// Atomically replaces the whole-word `W` at `offset` with `value`, returning the previous
    /// value.
    #[inline]
    #[track_caller]
    pub fn swap<W: WholeWord>(&self, offset: usize, value: W, order: Ordering) -> W {
        let (word, _) = self.word::<W>(offset);
        W::from_bits(word.swap(value.to_bits(), order))
    }

    /// Atomically replaces the `W` at `offset` with `value`, returning the previous value;
    /// for a sub-word, a loop bounded as [`try_store`](Region::try_store)'s.
    #[inline]
    #[track_caller]
    pub fn try_swap<W: Word>(
        &self,
        offset: usize,
        value: W,
        order: Ordering,
    ) -> Result<W, Contended> {
        let (word, lane) = self.word::<W>(offset);
        if W::SIZE == 8 {
            return Ok(W::from_bits(word.swap(value.to_bits(), order)));
        }
        let (Ok(old) | Err(old)) = update_lane(word, lane, order, |_| Some(value))?;
        Ok(old)
    }

    /// Atomically adds `value` (wrapping) to the whole-word `W` at `offset`, returning the
    /// previous value.
    #[inline]
    #[track_caller]
    pub fn fetch_add<W: WholeWord>(&self, offset: usize, value: W, order: Ordering) -> W {
        let (word, _) = self.word::<W>(offset);
        W::from_bits(word.fetch_add(value.to_bits(), order))
    }

    /// Atomically adds `value` (wrapping) to the `W` at `offset`, returning the previous
    /// value; for a sub-word, a loop bounded as [`try_store`](Region::try_store)'s.
    #[inline]
    #[track_caller]
    pub fn try_fetch_add<W: Word>(
        &self,
        offset: usize,
        value: W,
        order: Ordering,
    ) -> Result<W, Contended> {
        let (word, lane) = self.word::<W>(offset);
        if W::SIZE == 8 {
            return Ok(W::from_bits(word.fetch_add(value.to_bits(), order)));
        }
        let add = |old: W| Some(W::from_bits(old.to_bits().wrapping_add(value.to_bits())));
        let (Ok(old) | Err(old)) = update_lane(word, lane, order, add)?;
        Ok(old)
    }

    /// Compare-and-swap of the byte at address `offset + index` inside the aligned `W` at
    /// `offset` (for bytes the ABI claims "as one word", like a `u8[4]` owner field claimed as
    /// a `u32`). Like every access here, it is made on the whole `u64` that holds the word.
    ///
    /// While the byte equals `current`, tries to exchange the word for the same word with that
    /// byte set to `new` (`AcqRel` / `Acquire`), retrying when only other bytes changed, at
    /// most [`CAS_TRIES`] times ([`Contended`]). Returns `Ok(Err(actual))` as soon as the byte
    /// is not `current`.
    ///
    /// Index 0 is the byte at the lowest address (the least significant on little-endian
    /// targets), the same byte [`read_bytes`](Region::read_bytes) returns first.
    ///
    /// # Panics
    ///
    /// Like [`load`](Region::load), and if `index >= W::SIZE`.
    #[track_caller]
    pub fn compare_exchange_byte<W: Word>(
        &self,
        offset: usize,
        index: usize,
        current: u8,
        new: u8,
    ) -> Result<Result<(), u8>, Contended> {
        assert!(
            index < W::SIZE,
            "byte index {index} is outside a {}-byte word",
            W::SIZE
        );
        let (word, lane) = self.word::<W>(offset);
        Ok(update_lane::<u8>(word, lane + index, AcqRel, |old| {
            (old == current).then_some(new)
        })?
        .map(|_| ()))
    }
}

/// The panic of a word or byte access outside the region or misaligned.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn access_panic(err: RegionError, what: &str) -> ! {
    panic!(
        "abi_runtime: {what} access failed: {err} (a bug in the caller: offsets must lie \
         inside a region whose size and alignment were checked when the view was built)"
    )
}

impl<A: Access> fmt::Debug for Region<'_, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Region")
            .field("ptr", &self.as_ptr())
            .field("len", &self.len())
            .finish()
    }
}
