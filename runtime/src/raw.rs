//! The crate's `unsafe` code for memory: the `Region` type itself, its constructors, and the
//! step from a checked byte range to the `AtomicU64` words that hold it.
//!
//! Everything here is small on purpose, with `raw/os_access.rs` (the OS calls of who may
//! attach, which touch no shared memory). Every other module is `#![deny(unsafe_code)]` and
//! reaches shared memory only through [`Region::words`], which checks bounds before it turns an
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

#[cfg(loom)]
mod loom_words;
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

    /// The region over a raw read-write mapping, for as long as the mapping is borrowed.
    #[cfg(feature = "mmap")]
    pub(crate) fn from_mmap(map: &'a memmap2::MmapRaw) -> Result<Region<'a>, RegionError> {
        // SAFETY: `Mapping` maps read-write and shared (`MmapRaw::map_raw`), and memmap2 keeps
        // the mapping alive until the MmapRaw drops, which the borrow 'a prevents. The kernel
        // maps whole pages, so the last word (which may reach past the file's length) is
        // mapped. MmapRaw hands out only raw pointers, and `Mapping` (its only owner here)
        // never makes a slice or reference from them, so within this process the bytes are
        // accessed only through Regions. Truncation of the file by another process is the
        // `Mapping::open` contract (documented there): it makes accesses fault (SIGBUS), it
        // never makes a reference dangle, as there is none.
        unsafe { Region::from_raw_parts(map.as_mut_ptr(), map.len()) }
    }

    /// The region over a named Windows mapping's view, for as long as the view is borrowed.
    #[cfg(all(windows, feature = "mmap"))]
    pub(crate) fn from_named_view(view: &'a NamedView) -> Result<Region<'a>, RegionError> {
        // SAFETY: a `NamedView` is a view of a whole pagefile section mapped read-write
        // (`NamedView::open` with `writable`, or `create`) or read-only; `Mapping` only
        // makes read-write ones, and calls this only for them. The view stays mapped until
        // the NamedView drops, which the borrow 'a prevents; its length is at most the
        // mapped size (VirtualQuery's whole pages, so the last word is mapped too). The
        // owner never makes a slice or reference from the address, so within this process
        // the bytes are reached only through Regions. A section cannot shrink while mapped.
        unsafe { Region::from_raw_parts(view.base.as_ptr(), view.len) }
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
impl<'a> Region<'a, ReadOnly> {
    /// The region over a raw read-only mapping, for as long as the mapping is borrowed.
    #[cfg(all(feature = "mmap", target_pointer_width = "64"))]
    pub(crate) fn from_mmap_read_only(
        map: &'a memmap2::MmapRaw,
    ) -> Result<Region<'a, ReadOnly>, RegionError> {
        let ptr = check_root(map.as_ptr().cast_mut(), map.len())?;
        // The same invariant as `from_mmap`, for loads only: a `Region<ReadOnly>` has no
        // method that stores (the type has none), and its loads are relaxed `u64` loads
        // (`crate::region`), which std guarantees to work on read-only memory for words no
        // larger than a pointer: hence 64-bit targets only.
        Ok(Region {
            ptr,
            len: map.len(),
            _bytes: PhantomData,
        })
    }
}

#[cfg(all(windows, feature = "mmap", target_pointer_width = "64"))]
impl<'a> Region<'a, ReadOnly> {
    /// The region over a named Windows mapping's view (read-only or read-write), loads only.
    pub(crate) fn from_named_view_read_only(
        view: &'a NamedView,
    ) -> Result<Region<'a, ReadOnly>, RegionError> {
        let ptr = check_root(view.base.as_ptr(), view.len)?;
        // The invariant of `from_named_view`, for loads only, as in `from_mmap_read_only`:
        // no store method exists on a Region<ReadOnly>, and its relaxed u64 loads work on
        // read-only memory on 64-bit targets (the only ones ReadOnlyMapping exists on).
        Ok(Region {
            ptr,
            len: view.len,
            _bytes: PhantomData,
        })
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

/// A view of a named Windows file mapping (`Local\NAME`): the handle, the view's address and
/// its length. Owned by `Mapping`/`ReadOnlyMapping` (`crate::mmap`), which hand it out only as
/// a [`Region`]; the view is unmapped and the handle closed on drop.
#[cfg(all(windows, feature = "mmap"))]
#[derive(Debug)]
pub(crate) struct NamedView {
    handle: windows_sys::Win32::Foundation::HANDLE,
    base: NonNull<u8>,
    len: usize,
}

// SAFETY: a section handle and a view address may be used and closed from any thread (Win32
// handles are process-wide), and the bytes are only ever reached through Regions, whose
// accesses are atomic (see `Send for Region`).
#[cfg(all(windows, feature = "mmap"))]
unsafe impl Send for NamedView {}
// SAFETY: `&NamedView` gives only the address, the length and Regions: see `Send` above.
#[cfg(all(windows, feature = "mmap"))]
unsafe impl Sync for NamedView {}

#[cfg(all(windows, feature = "mmap"))]
impl NamedView {
    /// Opens the named mapping `name` (`OpenFileMappingW`) and maps a view of all of it
    /// (`MapViewOfFile` with length 0), read-write or read-only. Its length is the view's size
    /// as `VirtualQuery` reports it: the section's size rounded up to whole pages (Windows
    /// keeps no byte length for a pagefile section), every page committed.
    pub(crate) fn open(name: &str, writable: bool) -> std::io::Result<NamedView> {
        use windows_sys::Win32::System::Memory::{FILE_MAP_READ, FILE_MAP_WRITE, OpenFileMappingW};
        let wide = named_view_wide(name)?;
        let access = if writable {
            FILE_MAP_READ | FILE_MAP_WRITE
        } else {
            FILE_MAP_READ
        };
        // SAFETY: `wide` is a NUL-terminated UTF-16 string that lives across the call; the
        // other arguments are plain values (no inheritance). A null return is an error, read
        // at once from the thread's last error.
        let handle = unsafe { OpenFileMappingW(access, 0, wide.as_ptr()) };
        if handle.is_null() {
            return Err(named_view_error(name, "open", writable));
        }
        NamedView::map(handle, name, access, None, writable)
    }

    /// Creates the named mapping `name` of `len` zero bytes on the pagefile
    /// (`CreateFileMappingW(INVALID_HANDLE_VALUE, …)`), with the security descriptor
    /// `descriptor`, and maps a view of it, read-write. Fails with `AlreadyExists` (naming it)
    /// when a mapping of that name exists: `create` never adopts another producer's live
    /// mapping.
    pub(crate) fn create(
        name: &str,
        len: usize,
        descriptor: &crate::raw::os_access::SecurityDescriptor,
    ) -> std::io::Result<NamedView> {
        use std::io::{Error, ErrorKind};
        use windows_sys::Win32::Foundation::{
            CloseHandle, ERROR_ALREADY_EXISTS, INVALID_HANDLE_VALUE, SetLastError,
        };
        use windows_sys::Win32::Security::SECURITY_ATTRIBUTES;
        use windows_sys::Win32::System::Memory::{
            CreateFileMappingW, FILE_MAP_READ, FILE_MAP_WRITE, PAGE_READWRITE,
        };
        let wide = named_view_wide(name)?;
        if len == 0 || len > isize::MAX as usize - MIN_ALIGN {
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "cannot create the mapping named `{name}` of {len} bytes: the length must be from 1 to isize::MAX - 8"
                ),
            ));
        }
        let size = len as u64;
        let attributes = SECURITY_ATTRIBUTES {
            nLength: core::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: descriptor.as_ptr(),
            bInheritHandle: 0,
        };
        // SAFETY: SetLastError only sets this thread's last-error value (cleared so that the
        // ERROR_ALREADY_EXISTS check below reads CreateFileMappingW's own report).
        unsafe { SetLastError(0) };
        // SAFETY: INVALID_HANDLE_VALUE asks for a pagefile-backed section; `attributes` and
        // the descriptor it points to (borrowed from the caller) and `wide`, a NUL-terminated
        // UTF-16 string, live across the call. A null return is an error, read at once.
        let handle = unsafe {
            CreateFileMappingW(
                INVALID_HANDLE_VALUE,
                &attributes,
                PAGE_READWRITE,
                (size >> 32) as u32,
                size as u32,
                wide.as_ptr(),
            )
        };
        if handle.is_null() {
            return Err(named_view_error(name, "create", true));
        }
        if Error::last_os_error().raw_os_error() == Some(ERROR_ALREADY_EXISTS as i32) {
            // SAFETY: `handle` is the valid handle just returned, closed once, here.
            unsafe { CloseHandle(handle) };
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                format!(
                    "cannot create the mapping named `{name}`: a mapping of that name exists already (another producer's?)"
                ),
            ));
        }
        NamedView::map(
            handle,
            name,
            FILE_MAP_READ | FILE_MAP_WRITE,
            Some(len),
            true,
        )
    }

    /// Maps a view of all of the section `handle` (owned: closed here on error), and measures
    /// it with `VirtualQuery`, region by region, every page committed
    /// ([`view_pages::committed_len`]); `len` is the length asked for at creation, if known.
    fn map(
        handle: windows_sys::Win32::Foundation::HANDLE,
        name: &str,
        access: u32,
        len: Option<usize>,
        writable: bool,
    ) -> std::io::Result<NamedView> {
        use std::io::{Error, ErrorKind};
        use windows_sys::Win32::Foundation::CloseHandle;
        use windows_sys::Win32::System::Memory::{
            MEMORY_MAPPED_VIEW_ADDRESS, MapViewOfFile, UnmapViewOfFile,
        };
        let close = |err: Error| {
            // SAFETY: `handle` is a valid section handle owned by this function, closed once.
            unsafe { CloseHandle(handle) };
            err
        };
        // SAFETY: `handle` is a valid section handle; offset 0 and length 0 map the whole
        // section, with an access the handle was opened with. A null address is an error.
        let view = unsafe { MapViewOfFile(handle, access, 0, 0, 0) };
        let Some(base) = NonNull::new(view.Value.cast::<u8>()) else {
            return Err(close(named_view_error(name, "map a view of", writable)));
        };
        let unmap = |err: Error| {
            // SAFETY: `view` is the view just mapped, unmapped once, here.
            unsafe { UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS { Value: view.Value }) };
            close(err)
        };
        // Every page of the view committed: a SEC_RESERVE section's reserved pages would fault.
        let mapped = match view_pages::committed_len(view.Value, name) {
            Ok(mapped) => mapped,
            Err(err) => return Err(unmap(err)),
        };
        let len = match len {
            Some(asked) if asked <= mapped => asked,
            Some(asked) => {
                return Err(unmap(Error::other(format!(
                    "the mapping named `{name}` has {mapped} bytes mapped, fewer than the {asked} asked for (a mapping of that name existed?)"
                ))));
            }
            None => mapped,
        };
        if let Err(err) = check_root(base.as_ptr(), len) {
            return Err(unmap(Error::new(
                ErrorKind::InvalidData,
                format!("the view of the mapping named `{name}`: {err}"),
            )));
        }
        Ok(NamedView { handle, base, len })
    }

    /// The length of the view in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The section's handle, for reading its security descriptor.
    pub(crate) fn handle(&self) -> windows_sys::Win32::Foundation::HANDLE {
        self.handle
    }
}

#[cfg(all(windows, feature = "mmap"))]
impl Drop for NamedView {
    fn drop(&mut self) {
        use windows_sys::Win32::Foundation::CloseHandle;
        use windows_sys::Win32::System::Memory::{MEMORY_MAPPED_VIEW_ADDRESS, UnmapViewOfFile};
        // SAFETY: the view and the handle were mapped and opened by `NamedView::map`, and are
        // released once, here; no Region outlives the borrow of this NamedView.
        unsafe {
            UnmapViewOfFile(MEMORY_MAPPED_VIEW_ADDRESS {
                Value: self.base.as_ptr().cast(),
            });
            CloseHandle(self.handle);
        }
    }
}

/// `name` as a NUL-terminated UTF-16 string; an interior NUL is an error naming it.
#[cfg(all(windows, feature = "mmap"))]
fn named_view_wide(name: &str) -> std::io::Result<Vec<u16>> {
    if name.is_empty() || name.contains('\0') {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{name:?} is not a mapping name (empty, or it holds a NUL)"),
        ));
    }
    Ok(name.encode_utf16().chain(Some(0)).collect())
}

/// The thread's last error, as an error naming the mapping and saying what failed.
#[cfg(all(windows, feature = "mmap"))]
fn named_view_error(name: &str, what: &str, writable: bool) -> std::io::Error {
    use std::io::{Error, ErrorKind};
    let os = Error::last_os_error();
    let access = if writable { "read-write" } else { "read-only" };
    let message = match os.kind() {
        ErrorKind::NotFound => format!(
            "no mapping named `{name}` ({os}): is the host running, in this session (`Local\\` names are per session)?"
        ),
        // Named by the caller (`AccessDenied`), which knows whether it opened or created.
        ErrorKind::PermissionDenied => return os,
        _ => format!("cannot {what} the mapping named `{name}` ({access}): {os}"),
    };
    Error::new(os.kind(), message)
}
