//! The crate's only `unsafe` code: the `Region` type itself, its constructors, and the step
//! from a checked byte range to atomics over that range.
//!
//! Everything here is small on purpose. Every other module is `#![deny(unsafe_code)]` and
//! reaches shared memory only through [`Region::atomics`], which checks bounds and alignment
//! before it turns an address into `&[AtomicN]`. No `&u8`, `&[u8]` or `&T` into a region is
//! ever created, and no volatile access is ever made: references to *atomic* types are the one
//! kind of reference that may alias memory another thread or process writes concurrently.

#![allow(unsafe_code)]

use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::mem::{align_of, size_of, size_of_val};
use core::ptr::NonNull;
use core::sync::atomic::{AtomicI8, AtomicI16, AtomicI32, AtomicI64};
use core::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64};

use crate::error::{RegionError, RegionErrorKind};

/// The alignment every region base must have (the widest word, `u64`).
pub const MIN_ALIGN: usize = 8;

/// The seal of [`Word`](crate::Word), and the link from a word type to its atomic type.
///
/// Only the eight impls below exist (the trait sits in a private module, so no other crate can
/// add one). [`Region::atomics`] relies on it: `Atomic` is a `core::sync::atomic` type, every
/// access through it is atomic, and its size equals its alignment (checked at compile time).
pub trait Sealed {
    /// The `core::sync::atomic` type of this word.
    type Atomic: Send + Sync;
}

macro_rules! seal {
    ($($word:ty => $atomic:ty),* $(,)?) => {$(
        impl Sealed for $word {
            type Atomic = $atomic;
        }
        const _: () = assert!(
            size_of::<$atomic>() == size_of::<$word>() && align_of::<$atomic>() == size_of::<$word>()
        );
    )*};
}

seal!(
    u8 => AtomicU8, u16 => AtomicU16, u32 => AtomicU32, u64 => AtomicU64,
    i8 => AtomicI8, i16 => AtomicI16, i32 => AtomicI32, i64 => AtomicI64,
);

/// A view of shared bytes: a raw pointer and a length, valid for the lifetime `'a` of the
/// mapping or buffer it came from.
///
/// A `Region` never hands out references to its bytes; every access is an atomic load, store
/// or read-modify-write (see the crate documentation for the memory model). It is `Copy`,
/// `Send` and `Sync`: copying it copies the pointer, not the bytes.
#[derive(Clone, Copy)]
pub struct Region<'a> {
    ptr: NonNull<u8>,
    len: usize,
    _bytes: PhantomData<&'a [UnsafeCell<u8>]>,
}

// SAFETY: a Region is a pointer and a length. Every access it makes to the bytes is atomic
// (`Region::atomics` is the only way in), and atomics may be used from any thread; the bytes
// stay valid for 'a whichever thread holds the Region (from_raw_parts's contract).
unsafe impl Send for Region<'_> {}
// SAFETY: as for Send: `&Region` only allows the same atomic accesses, which are thread-safe.
unsafe impl Sync for Region<'_> {}

impl<'a> Region<'a> {
    /// Wraps `len` bytes at `ptr` as a region: the one unsafe entry point of the crate.
    ///
    /// Checks that `ptr` is non-null and aligned to [`MIN_ALIGN`], that `len <= isize::MAX`
    /// and that `ptr + len` does not overflow the address space; returns a [`RegionError`]
    /// otherwise (it never panics).
    ///
    /// # Safety
    ///
    /// Arguments the checks reject are safe to pass: the call returns `Err` and touches
    /// nothing. For a call that returns `Ok`, the caller guarantees, for the whole lifetime
    /// `'a`, that:
    /// - `ptr..ptr + len` lies in one allocation or mapping and is valid for reads and writes
    ///   (mapped read-write, not freed or unmapped, the file behind it not truncated);
    /// - this process accesses those bytes only through atomics: through any `Region`, or
    ///   equivalent atomic code, never through `&[u8]`, `&T`, plain or volatile reads/writes.
    ///
    /// Other processes may read and write the bytes concurrently, in any way.
    pub unsafe fn from_raw_parts(ptr: *mut u8, len: usize) -> Result<Region<'a>, RegionError> {
        let Some(nn) = NonNull::new(ptr) else {
            return Err(RegionErrorKind::Null.into());
        };
        let address = ptr.addr();
        if address % MIN_ALIGN != 0 {
            return Err(RegionErrorKind::Misaligned {
                address,
                align: MIN_ALIGN,
            }
            .into());
        }
        if len > isize::MAX as usize || address.checked_add(len).is_none() {
            return Err(RegionErrorKind::TooLarge { address, len }.into());
        }
        Ok(Region {
            ptr: nn,
            len,
            _bytes: PhantomData,
        })
    }

    /// The region over the words of `words`, its first `len` bytes (`len <= 8 * words.len()`).
    pub(crate) fn from_words(words: &'a [AtomicU64], len: usize) -> Region<'a> {
        assert!(len <= size_of_val(words), "length beyond the words");
        let ptr = words.as_ptr().cast::<u8>().cast_mut();
        // SAFETY: the words are a live `&'a [AtomicU64]`: valid for reads and writes for 'a
        // (atomics are interior-mutable), one allocation, 8-aligned, at most isize::MAX bytes,
        // `len` within them (asserted). Being `AtomicU64`s, they are only ever accessed
        // atomically, by whoever owns the slice and by the Region.
        unsafe { Region::from_raw_parts(ptr, len) }.expect("a slice of AtomicU64 is a valid region")
    }

    /// The region over a raw mapping, for as long as the mapping is borrowed.
    #[cfg(feature = "mmap")]
    pub(crate) fn from_mmap(map: &'a memmap2::MmapRaw) -> Result<Region<'a>, RegionError> {
        // SAFETY: `MmapRaw::map_raw` maps read-write and shared, and memmap2 keeps the mapping
        // alive until the MmapRaw drops, which the borrow 'a prevents. MmapRaw hands out only raw
        // pointers, and `Mapping` (its only owner here) never makes a slice or reference from
        // them, so within this process the bytes are accessed only through Regions. A file
        // truncated by another process raises SIGBUS on access: a crash, not a data race.
        unsafe { Region::from_raw_parts(map.as_mut_ptr(), map.len()) }
    }

    /// The number of bytes in the region.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The address of the first byte, for FFI or for printing; reading or writing through it
    /// is the holder's own (unsafe) business.
    #[inline]
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The bytes `offset..offset + len`, bounds-checked (no alignment check).
    #[inline]
    pub(crate) fn slice(&self, offset: usize, len: usize) -> Result<Region<'a>, RegionError> {
        self.check_range(offset, len)?;
        // SAFETY: offset <= offset + len <= self.len (checked), so the new pointer stays inside
        // the range this Region was built over, which is one allocation of at most isize::MAX
        // bytes; the sub-range inherits from_raw_parts's guarantees for 'a.
        let ptr = unsafe { self.ptr.add(offset) };
        Ok(Region {
            ptr,
            len,
            _bytes: PhantomData,
        })
    }

    /// The `count` atomics of word type `W` starting at byte `offset`, after checking that they
    /// lie inside the region and that `base + offset` is aligned to the size of `W`.
    #[inline]
    pub(crate) fn atomics<W: Sealed>(
        &self,
        offset: usize,
        count: usize,
    ) -> Result<&'a [W::Atomic], RegionError> {
        let size = size_of::<W::Atomic>();
        let len = count.saturating_mul(size);
        self.check_range(offset, len)?;
        let address = self.ptr.as_ptr().addr() + offset;
        if address % size != 0 {
            return Err(RegionErrorKind::Misaligned {
                address,
                align: size,
            }
            .into());
        }
        let first = self.ptr.as_ptr().wrapping_add(offset).cast::<W::Atomic>();
        // SAFETY: the `count * size` bytes at `first` are inside the region (checked above),
        // hence valid for reads and writes for 'a and in one allocation (from_raw_parts's
        // contract); `first` is aligned to `size`, which is the alignment of `W::Atomic` (the
        // seal's compile-time assertion). `W::Atomic` is a core atomic type (the seal), so every
        // access through the slice is atomic, which is how the contract says this process
        // accesses these bytes; concurrent writes by other threads or processes are what atomics
        // allow. This has the requirements of `AtomicN::from_ptr`, for `count` words at once.
        Ok(unsafe { core::slice::from_raw_parts(first, count) })
    }

    /// Err(OutOfBounds) unless `offset + len` fits in the region.
    #[inline]
    fn check_range(&self, offset: usize, len: usize) -> Result<(), RegionError> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len => Ok(()),
            _ => Err(RegionErrorKind::OutOfBounds {
                offset,
                len,
                region_len: self.len,
            }
            .into()),
        }
    }
}
