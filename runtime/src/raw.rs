//! The crate's `unsafe` code for memory: the `Region` type itself, its constructors, and the
//! step from a checked byte range to the `AtomicU64` words that hold it.
//!
//! Everything here is small on purpose. Beside `Region` (this file): `raw/mapped.rs`, the
//! one way from a mapping to a region, typed by what it was mapped for (the constructors
//! that trust a mapping to be read-write are `unsafe fn`s private to it, and `Mapped` is
//! their only caller); `raw/named_view.rs`, the Win32 calls of a named mapping's view; and
//! `raw/os_access.rs`, the OS calls of who may attach, which touch no shared memory;
//! `raw/futex.rs`, the shared futex's system calls (Linux), which pass a word's address to the
//! kernel and never access it; `raw/named_event.rs`, a named Windows event's Win32 calls. Every
//! other module is `#![deny(unsafe_code)]` and reaches shared memory only through [`Region::words`], which checks bounds before it turns an
//! address into `&[AtomicU64]`. No `&u8`, `&[u8]` or `&T` into a region is ever created, and no
//! volatile access is ever made: references to *atomic* types are the one kind of reference
//! that may alias memory another thread or process writes concurrently.
//!
//! # One access size, by construction
//!
//! Every access this crate makes to region bytes is an access to the whole, 8-aligned
//! `AtomicU64` that contains them: a `u32` load is a `u64` load and a lane of its bytes, a `u16`
//! store is a compare-exchange loop on its `u64`, a copy moves whole words. So no two accesses
//! this process makes to the same bytes ever differ in size or alignment, whatever offsets,
//! widths and ranges safe code asks for: the mixed-size races the memory model forbids cannot
//! be written. (Other processes are outside this process's memory model; the hardware keeps
//! their narrower accesses atomic.)
//!
//! That needs one invariant, set up by the constructors below and kept by [`Region::slice`]:
//! **the 8-aligned words that contain a region's bytes are valid for atomic access for `'a`**.
//! Roots start 8-aligned, and their last word, which may reach past `len`, is in the same
//! allocation or page.

#![allow(unsafe_code)]

use core::cell::UnsafeCell;
use core::marker::PhantomData;
#[cfg(not(loom))]
use core::mem::size_of_val;
#[cfg(not(loom))]
use core::ptr::NonNull;

use crate::sync::AtomicU64;

use crate::error::{RegionError, RegionErrorKind};

#[cfg(all(target_os = "linux", not(loom)))]
pub(crate) mod futex;
#[cfg(loom)]
pub mod loom_futex;
#[cfg(loom)]
mod loom_words;
#[cfg(feature = "mmap")]
pub(crate) mod mapped;
#[cfg(all(windows, feature = "mmap"))]
pub(crate) mod named_event;
#[cfg(all(windows, feature = "mmap"))]
mod named_view;
#[cfg(feature = "mmap")]
pub(crate) mod os_access;
#[cfg(feature = "mmap")]
pub(crate) mod os_clock;
#[cfg(feature = "mmap")]
pub(crate) mod process_time;
#[cfg(all(windows, feature = "mmap"))]
mod view_pages;
#[cfg(all(test, windows, feature = "mmap"))]
mod view_pages_tests;

/// The alignment every region base must have (the widest word, `u64`).
pub const MIN_ALIGN: usize = 8;

/// What a [`Region`] may do to its bytes: [`ReadWrite`] or [`ReadOnly`]. Sealed.
pub trait Access: Sealed + Copy + core::fmt::Debug + Send + Sync + 'static {
    /// `true` for [`ReadOnly`]: loads are relaxed, and an acquire is a fence after them.
    #[doc(hidden)]
    const READ_ONLY: bool;
}

/// An [`Access`] that may store: [`ReadWrite`] alone. Generated views put their setters in
/// methods bounded by `A: Writable`, so a view over a read-only region has none.
pub trait Writable: Access {}

impl Writable for ReadWrite {}

/// The access of a region over memory mapped read-write: loads, stores, read-modify-writes.
#[derive(Clone, Copy, Debug)]
pub enum ReadWrite {}

/// The access of a region over memory that may be mapped read-only: loads and copies out
/// only. The store methods do not exist on `Region<'_, ReadOnly>`:
///
/// ```compile_fail,E0599
/// use abi_runtime::{ReadOnly, Region, SharedBuf};
/// use core::sync::atomic::Ordering;
/// let buf = SharedBuf::new(8);
/// let region: Region<'_, ReadOnly> = buf.region().read_only();
/// region.store::<u32>(0, 1, Ordering::Release); // no such method on a read-only region
/// ```
#[derive(Clone, Copy, Debug)]
pub enum ReadOnly {}

/// The seal of [`Access`] and of [`Word`](crate::Word): only this crate's types implement them.
pub trait Sealed {}

impl Sealed for ReadWrite {}
impl Sealed for ReadOnly {}
impl Access for ReadWrite {
    const READ_ONLY: bool = false;
}
impl Access for ReadOnly {
    const READ_ONLY: bool = true;
}

/// A view of shared bytes: a raw pointer and a length, valid for the lifetime `'a` of the
/// mapping or buffer it came from, with the access `A` ([`ReadWrite`] unless said otherwise).
///
/// A `Region` never hands out references to its bytes; every access is an atomic load, store
/// or read-modify-write of the `u64` words that hold them (see the crate documentation for the
/// memory model). It is `Copy`, `Send` and `Sync`: copying it copies the pointer, not the bytes.
pub struct Region<'a, A: Access = ReadWrite> {
    #[cfg(not(loom))]
    ptr: NonNull<u8>,
    /// Under loom: the words of the whole buffer, and the region's first byte in them.
    #[cfg(loom)]
    words: &'a [AtomicU64],
    #[cfg(loom)]
    base: usize,
    len: usize,
    _bytes: PhantomData<(&'a [UnsafeCell<u8>], A)>,
}

impl<A: Access> Clone for Region<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Access> Copy for Region<'_, A> {}

// SAFETY: a Region is a pointer and a length. Every access it makes to the bytes is atomic
// (`Region::words` is the only way in), and atomics may be used from any thread; the bytes
// stay valid for 'a whichever thread holds the Region (the constructors' contracts).
unsafe impl<A: Access> Send for Region<'_, A> {}
// SAFETY: as for Send: `&Region` only allows the same atomic accesses, which are thread-safe.
unsafe impl<A: Access> Sync for Region<'_, A> {}

/// The checks every constructor makes: non-null, 8-aligned, `len` words in the address space.
#[cfg(not(loom))]
fn check_root(ptr: *mut u8, len: usize) -> Result<NonNull<u8>, RegionError> {
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
    let words_end = len
        .checked_next_multiple_of(MIN_ALIGN)
        .and_then(|rounded| address.checked_add(rounded));
    if len > isize::MAX as usize - MIN_ALIGN || words_end.is_none() {
        return Err(RegionErrorKind::TooLarge { address, len }.into());
    }
    Ok(nn)
}

#[cfg(not(loom))]
impl<'a> Region<'a, ReadWrite> {
    /// Wraps `len` bytes at `ptr` as a read-write region: the unsafe entry point of the crate.
    ///
    /// Checks that `ptr` is non-null and aligned to [`MIN_ALIGN`], and that the words holding
    /// `len` bytes fit in the address space; returns a [`RegionError`] otherwise (it never
    /// panics).
    ///
    /// # Safety
    ///
    /// Arguments the checks reject are safe to pass: the call returns `Err` and touches
    /// nothing. For a call that returns `Ok`, the caller guarantees, for the whole lifetime
    /// `'a`, that:
    /// - `ptr..ptr + len` rounded up to a multiple of 8 lies in one allocation or mapping and
    ///   is valid for reads and writes (mapped read-write, not freed or unmapped, the file
    ///   behind it not truncated); the last word may reach past `len` (a mapping's page or an
    ///   allocation of whole words always covers it);
    /// - this process accesses those bytes only through atomics: through any `Region`, or
    ///   equivalent atomic code of the same size (whole 8-aligned `u64`s), never through
    ///   `&[u8]`, `&T`, plain or volatile reads and writes.
    ///
    /// Other processes may read and write the bytes concurrently, in any way.
    pub unsafe fn from_raw_parts(ptr: *mut u8, len: usize) -> Result<Region<'a>, RegionError> {
        let ptr = check_root(ptr, len)?;
        Ok(Region {
            ptr,
            len,
            _bytes: PhantomData,
        })
    }

    /// The region over the words of `words`, its first `len` bytes (`len <= 8 * words.len()`).
    pub(crate) fn from_words(words: &'a [AtomicU64], len: usize) -> Region<'a> {
        assert!(len <= size_of_val(words), "length beyond the words");
        let ptr = words.as_ptr().cast::<u8>().cast_mut();
        // SAFETY: the words are a live `&'a [AtomicU64]`: valid for reads and writes for 'a
        // (atomics are interior-mutable), one allocation, 8-aligned, and they contain every
        // word that holds the first `len` bytes (asserted). Being `AtomicU64`s, they are only
        // ever accessed as whole atomic u64s, by whoever owns the slice and by the Region.
        unsafe { Region::from_raw_parts(ptr, len) }.expect("a slice of AtomicU64 is a valid region")
    }

    /// The same bytes, with loads and copies out only.
    #[inline]
    pub fn read_only(self) -> Region<'a, ReadOnly> {
        Region {
            ptr: self.ptr,
            len: self.len,
            _bytes: PhantomData,
        }
    }
}

#[cfg(not(loom))]
impl<'a, A: Access> Region<'a, A> {
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
    pub(crate) fn slice(&self, offset: usize, len: usize) -> Result<Region<'a, A>, RegionError> {
        self.check_range(offset, len)?;
        // SAFETY: offset <= offset + len <= self.len (checked), so the new pointer stays inside
        // the range this Region was built over, which is one allocation of at most isize::MAX
        // bytes; the words holding the sub-range are words holding this range, so the
        // invariant (module docs) carries over for 'a.
        let ptr = unsafe { self.ptr.add(offset) };
        Ok(Region {
            ptr,
            len,
            _bytes: PhantomData,
        })
    }

    /// The 8-aligned `AtomicU64` words that hold the bytes `offset..offset + len`, after
    /// checking that those bytes lie inside the region, and the position of byte `offset` in
    /// the first word (0 to 7). No words for `len == 0`.
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
        let start = self.ptr.as_ptr().addr() + offset;
        let lane = start % 8;
        let count = (lane + len).div_ceil(8);
        let first = self
            .ptr
            .as_ptr()
            .wrapping_add(offset)
            .wrapping_sub(lane)
            .cast::<AtomicU64>();
        // SAFETY: the bytes offset..offset + len are inside the region (checked), so the
        // `count` 8-aligned words from the one holding the first byte to the one holding the
        // last are the words holding region bytes: valid for atomic access for 'a and in one
        // allocation, by the invariant in the module docs. `first` is 8-aligned (the address
        // rounded down), which is the alignment of AtomicU64. Every access through the slice
        // is atomic and u64-sized, which is how the contract says this process accesses these
        // bytes; concurrent writes by other threads or processes are what atomics allow. This
        // has the requirements of `AtomicU64::from_ptr`, for `count` words at once. For a
        // `Region<ReadOnly>` the memory may be read-only: its callers only load (`region.rs`).
        Ok((unsafe { core::slice::from_raw_parts(first, count) }, lane))
    }
}

impl<A: Access> Region<'_, A> {
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
