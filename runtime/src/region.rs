//! The word-level API of `Region`: sub-regions, and atomic loads, stores and read-modify-writes
//! of one word at a byte offset.
//!
//! Word accesses panic on an offset that is out of bounds or misaligned for the word: that is a
//! bug in the caller. Generated code checks a region's size and alignment once, when it builds
//! a view, and afterwards only uses constant offsets inside it.

use core::fmt;
use core::sync::atomic::Ordering;

use crate::error::{RegionError, RegionErrorKind};
use crate::raw::Sealed;
use crate::{Region, Word};

impl<'a> Region<'a> {
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
    pub fn sub(&self, offset: usize, len: usize, align: usize) -> Result<Region<'a>, RegionError> {
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
    pub fn tail(&self, offset: usize, align: usize) -> Result<Region<'a>, RegionError> {
        self.sub(offset, self.len().saturating_sub(offset), align)
    }

    /// The atomic `W` at `offset`; panics if it is out of bounds or misaligned.
    #[inline]
    #[track_caller]
    fn word<W: Word>(&self, offset: usize) -> &'a <W as Sealed>::Atomic {
        match self.atomics::<W>(offset, 1) {
            Ok([atomic]) => atomic,
            Ok(_) => unreachable!("atomics(_, 1) returns one atomic"),
            Err(err) => access_panic(err, core::any::type_name::<W>()),
        }
    }

    /// Atomically loads the `W` at `offset`.
    ///
    /// # Panics
    ///
    /// If `offset + W::SIZE` exceeds the region or the address is not a multiple of `W::SIZE`.
    /// The same holds for every word method below.
    #[inline]
    #[track_caller]
    pub fn load<W: Word>(&self, offset: usize, order: Ordering) -> W {
        W::atomic_load(self.word::<W>(offset), order)
    }

    /// Atomically stores `value` at `offset`.
    #[inline]
    #[track_caller]
    pub fn store<W: Word>(&self, offset: usize, value: W, order: Ordering) {
        W::atomic_store(self.word::<W>(offset), value, order)
    }

    /// Replaces the `W` at `offset` with `new` if it equals `current`; returns the previous
    /// value, `Ok` if it was replaced. Success orders `AcqRel`, failure `Acquire`.
    #[inline]
    #[track_caller]
    pub fn compare_exchange<W: Word>(&self, offset: usize, current: W, new: W) -> Result<W, W> {
        let atomic = self.word::<W>(offset);
        W::atomic_compare_exchange(atomic, current, new, Ordering::AcqRel, Ordering::Acquire)
    }

    /// Atomically replaces the `W` at `offset` with `value`, returning the previous value.
    #[inline]
    #[track_caller]
    pub fn swap<W: Word>(&self, offset: usize, value: W, order: Ordering) -> W {
        W::atomic_swap(self.word::<W>(offset), value, order)
    }

    /// Atomically adds `value` (wrapping) to the `W` at `offset`, returning the previous value.
    #[inline]
    #[track_caller]
    pub fn fetch_add<W: Word>(&self, offset: usize, value: W, order: Ordering) -> W {
        W::atomic_fetch_add(self.word::<W>(offset), value, order)
    }

    /// Compare-and-swap of the byte at address `offset + index` inside the aligned `W` at
    /// `offset`, done as a compare-exchange of the whole word (for bytes the ABI claims "as one
    /// word", like a `u8[4]` owner field claimed as a `u32`; never a byte-sized atomic there).
    ///
    /// Loads the word (`Acquire`); while its byte `index` equals `current`, tries to exchange it
    /// for the same word with that byte set to `new` (`AcqRel` / `Acquire`), retrying when only
    /// other bytes changed. Returns `Err(actual)` as soon as the byte is not `current`.
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
    ) -> Result<(), u8> {
        let atomic = self.word::<W>(offset);
        let mut word = W::atomic_load(atomic, Ordering::Acquire);
        loop {
            let actual = word.byte(index);
            if actual != current {
                return Err(actual);
            }
            let desired = word.with_byte(index, new);
            match W::atomic_compare_exchange(
                atomic,
                word,
                desired,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(()),
                Err(found) => word = found,
            }
        }
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

impl fmt::Debug for Region<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Region")
            .field("ptr", &self.as_ptr())
            .field("len", &self.len())
            .finish()
    }
}
