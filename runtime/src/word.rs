//! The `Word` trait: the eight integer types a region can load, store and exchange atomically,
//! each tied to its `core::sync::atomic` type, plus the bit conversions generic code needs.

use core::fmt::Debug;
use core::sync::atomic::Ordering;
use core::sync::atomic::{AtomicI8, AtomicI16, AtomicI32, AtomicI64};
use core::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64};

use crate::raw::Sealed;

/// An integer a [`Region`](crate::Region) accesses atomically: `u8`, `u16`, `u32`, `u64`,
/// `i8`, `i16`, `i32` or `i64`. Sealed: no other type can implement it.
///
/// The `atomic_*` functions forward to the matching `core::sync::atomic` type; they exist so
/// that the region's generic methods can call them, and are hidden from the documentation.
pub trait Word: Copy + Eq + Debug + Send + Sync + 'static + Sealed {
    /// The size in bytes, which is also the alignment a region access needs.
    const SIZE: usize;

    /// The bits, zero-extended to 64 (`-1i8` gives `0xff`).
    fn to_bits(self) -> u64;

    /// The low `8 * SIZE` bits of `bits` (the wrapping conversion).
    fn from_bits(bits: u64) -> Self;

    /// The byte at address offset `index` (`index < SIZE`) of the word as stored in memory.
    ///
    /// Index 0 is the lowest address: the least significant byte on little-endian targets.
    #[inline]
    fn byte(self, index: usize) -> u8 {
        (self.to_bits() >> byte_shift::<Self>(index)) as u8
    }

    /// The word with the byte at address offset `index` replaced by `byte`.
    #[inline]
    fn with_byte(self, index: usize, byte: u8) -> Self {
        let shift = byte_shift::<Self>(index);
        let bits = (self.to_bits() & !(0xff << shift)) | (u64::from(byte) << shift);
        Self::from_bits(bits)
    }

    #[doc(hidden)]
    fn atomic_load(atomic: &Self::Atomic, order: Ordering) -> Self;
    #[doc(hidden)]
    fn atomic_store(atomic: &Self::Atomic, value: Self, order: Ordering);
    #[doc(hidden)]
    fn atomic_swap(atomic: &Self::Atomic, value: Self, order: Ordering) -> Self;
    #[doc(hidden)]
    fn atomic_fetch_add(atomic: &Self::Atomic, value: Self, order: Ordering) -> Self;
    #[doc(hidden)]
    fn atomic_compare_exchange(
        atomic: &Self::Atomic,
        current: Self,
        new: Self,
        success: Ordering,
        failure: Ordering,
    ) -> Result<Self, Self>;
}

/// The shift that brings the byte at address offset `index` of a `W` to the low 8 bits.
#[inline]
fn byte_shift<W: Word>(index: usize) -> u32 {
    assert!(
        index < W::SIZE,
        "byte index {index} is outside a {}-byte word",
        W::SIZE
    );
    let significance = if cfg!(target_endian = "little") {
        index
    } else {
        W::SIZE - 1 - index
    };
    8 * significance as u32
}

macro_rules! word {
    ($($word:ty => $atomic:ty, $unsigned:ty);* $(;)?) => {$(
        impl Word for $word {
            const SIZE: usize = core::mem::size_of::<$word>();

            #[inline]
            fn to_bits(self) -> u64 {
                u64::from(self as $unsigned)
            }
            #[inline]
            fn from_bits(bits: u64) -> Self {
                bits as $word
            }
            #[inline]
            fn atomic_load(atomic: &$atomic, order: Ordering) -> Self {
                atomic.load(order)
            }
            #[inline]
            fn atomic_store(atomic: &$atomic, value: Self, order: Ordering) {
                atomic.store(value, order)
            }
            #[inline]
            fn atomic_swap(atomic: &$atomic, value: Self, order: Ordering) -> Self {
                atomic.swap(value, order)
            }
            #[inline]
            fn atomic_fetch_add(atomic: &$atomic, value: Self, order: Ordering) -> Self {
                atomic.fetch_add(value, order)
            }
            #[inline]
            fn atomic_compare_exchange(
                atomic: &$atomic,
                current: Self,
                new: Self,
                success: Ordering,
                failure: Ordering,
            ) -> Result<Self, Self> {
                atomic.compare_exchange(current, new, success, failure)
            }
        }
    )*};
}

word!(
    u8 => AtomicU8, u8; u16 => AtomicU16, u16; u32 => AtomicU32, u32; u64 => AtomicU64, u64;
    i8 => AtomicI8, u8; i16 => AtomicI16, u16; i32 => AtomicI32, u32; i64 => AtomicI64, u64;
);

#[cfg(test)]
mod tests {
    use super::Word;

    #[test]
    fn bits_round_trip_and_zero_extend() {
        assert_eq!((-1i8).to_bits(), 0xff);
        assert_eq!((-2i32).to_bits(), 0xffff_fffe);
        assert_eq!(i16::from_bits(0x1_8000), i16::MIN);
        assert_eq!(u32::from_bits(u64::MAX), u32::MAX);
        assert_eq!(
            u64::from_bits(0x0123_4567_89ab_cdef).to_bits(),
            0x0123_4567_89ab_cdef
        );
    }

    #[test]
    fn bytes_are_in_address_order() {
        let w = u32::from_ne_bytes([1, 2, 3, 4]);
        assert_eq!([w.byte(0), w.byte(1), w.byte(2), w.byte(3)], [1, 2, 3, 4]);
        assert_eq!(w.with_byte(2, 9).to_ne_bytes(), [1, 2, 9, 4]);
        let w = i64::from_ne_bytes([0x80, 0, 0, 0, 0, 0, 0, 0xff]);
        assert_eq!(
            w.with_byte(7, 0).with_byte(0, 0x7f).to_ne_bytes(),
            [0x7f, 0, 0, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    #[should_panic(expected = "byte index 4 is outside a 4-byte word")]
    fn byte_index_past_the_word_panics() {
        let _ = 0u32.byte(4);
    }
}
