//! The `Word` trait: the eight integer types a region can load, store and exchange atomically,
//! and how each sits in the 8-aligned `u64` that holds it (a *lane* of that word's bytes).

use core::fmt::Debug;

use crate::raw::Sealed;

/// An integer a [`Region`](crate::Region) accesses atomically: `u8`, `u16`, `u32`, `u64`,
/// `i8`, `i16`, `i32` or `i64`. Sealed: no other type can implement it.
///
/// A region accesses a word as the whole `u64` that holds it (see the crate documentation);
/// the `lane` functions move a word in and out of that `u64`'s bytes.
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

    /// The word stored at bytes `lane..lane + SIZE` of the `u64` `word` (as laid out in
    /// memory, native order); `lane + SIZE <= 8`.
    #[doc(hidden)]
    fn from_lane(word: u64, lane: usize) -> Self;

    /// `word` with bytes `lane..lane + SIZE` replaced by this word's bytes.
    #[doc(hidden)]
    fn into_lane(self, word: u64, lane: usize) -> u64;
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
    ($($word:ty => $unsigned:ty);* $(;)?) => {$(
        impl Sealed for $word {}

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
            fn from_lane(word: u64, lane: usize) -> Self {
                let bytes = word.to_ne_bytes();
                let mut value = [0u8; core::mem::size_of::<$word>()];
                value.copy_from_slice(&bytes[lane..lane + Self::SIZE]);
                <$word>::from_ne_bytes(value)
            }
            #[inline]
            fn into_lane(self, word: u64, lane: usize) -> u64 {
                let mut bytes = word.to_ne_bytes();
                bytes[lane..lane + Self::SIZE].copy_from_slice(&self.to_ne_bytes());
                u64::from_ne_bytes(bytes)
            }
        }
    )*};
}

word!(
    u8 => u8; u16 => u16; u32 => u32; u64 => u64;
    i8 => u8; i16 => u16; i32 => u32; i64 => u64;
);

/// A [`Word`] as wide as the `u64` that holds it (`u64`, `i64`): its store, swap, add and
/// compare-exchange are one atomic operation of that `u64`, which cannot meet contention
/// from other lanes, so [`Region::store`](crate::Region::store) and its siblings take it
/// and return no [`Contended`](crate::Contended).
pub trait WholeWord: Word {}

impl WholeWord for u64 {}
impl WholeWord for i64 {}

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
    fn lanes_are_the_bytes_at_their_address() {
        let word = u64::from_ne_bytes([1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(u32::from_lane(word, 4).to_ne_bytes(), [5, 6, 7, 8]);
        assert_eq!(u16::from_lane(word, 2).to_ne_bytes(), [3, 4]);
        assert_eq!(i8::from_lane(word, 7), 8);
        assert_eq!(u64::from_lane(word, 0), word);
        let put = u16::from_ne_bytes([9, 10]).into_lane(word, 6);
        assert_eq!(put.to_ne_bytes(), [1, 2, 3, 4, 5, 6, 9, 10]);
        assert_eq!(
            (-1i32).into_lane(0, 0).to_ne_bytes(),
            [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]
        );
    }

    #[test]
    #[should_panic(expected = "byte index 4 is outside a 4-byte word")]
    fn byte_index_past_the_word_panics() {
        let _ = 0u32.byte(4);
    }
}
