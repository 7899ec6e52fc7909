//! Under `cfg(loom)` only: a [`Region`] over a slice of loom's `AtomicU64`s, indexed by byte
//! offset, so that the protocols run unchanged inside loom's models (every access already
//! goes through [`Region::words`] as whole `u64`s). No pointer, no mapping, no `unsafe`.

use core::marker::PhantomData;

use super::{Access, ReadOnly, ReadWrite, Region};
use crate::error::RegionError;
use crate::sync::AtomicU64;

/// The address a loom buffer's first byte pretends to have (8-aligned), for the alignment
/// checks that look at addresses.
const BASE: usize = 0x1000;

impl<'a> Region<'a, ReadWrite> {
    /// The region over the words of `words`, its first `len` bytes (`len <= 8 * words.len()`).
    pub(crate) fn from_words(words: &'a [AtomicU64], len: usize) -> Region<'a> {
        assert!(len <= 8 * words.len(), "length beyond the words");
        Region {
            words,
            base: 0,
            len,
            _bytes: PhantomData,
        }
    }

    /// The same bytes, with loads and copies out only.
    #[inline]
    pub fn read_only(self) -> Region<'a, ReadOnly> {
        Region {
            words: self.words,
            base: self.base,
            len: self.len,
            _bytes: PhantomData,
        }
    }
}

impl<'a, A: Access> Region<'a, A> {
    /// The number of bytes in the region.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// A made-up address of the first byte (never dereferenced): loom's words have none.
    #[inline]
    pub fn as_ptr(&self) -> *mut u8 {
        core::ptr::without_provenance_mut(BASE + self.base)
    }

    /// The bytes `offset..offset + len`, bounds-checked (no alignment check).
    #[inline]
    pub(crate) fn slice(&self, offset: usize, len: usize) -> Result<Region<'a, A>, RegionError> {
        self.check_range(offset, len)?;
        Ok(Region {
            words: self.words,
            base: self.base + offset,
            len,
            _bytes: PhantomData,
        })
    }

    /// The words that hold the bytes `offset..offset + len`, and the position of byte
    /// `offset` in the first; as the mapped `Region::words`.
    #[inline]
    pub(crate) fn words(
        &self,
        offset: usize,
        len: usize,
    ) -> Result<(&'a [AtomicU64], usize), RegionError> {
        self.check_range(offset, len)?;
        if len == 0 {
            return Ok((&[], 0));
        }
        let start = self.base + offset;
        let (first, lane) = (start / 8, start % 8);
        let count = (lane + len).div_ceil(8);
        Ok((&self.words[first..first + count], lane))
    }
}
