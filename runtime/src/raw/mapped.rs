//! What a `Mapping` maps, and the one way from it to a [`Region`]: a file (memmap2's
//! `MmapRaw`) or, on Windows, a named mapping's view, typed by what it was mapped for. A
//! `Mapped<ReadWrite>` is made only by a read-write map call, so its region may store; a
//! `Mapped<ReadOnly>` gives loads only. The region constructors that rely on this are
//! `unsafe fn`s private to this module; this type is the proof they ask for.

use core::marker::PhantomData;
#[cfg(target_pointer_width = "64")]
use core::ptr::NonNull;
use std::fs::File;
use std::io;

#[cfg(target_pointer_width = "64")]
use memmap2::MmapOptions;
use memmap2::MmapRaw;

#[cfg(windows)]
use super::named_view::NamedView;
use super::{Access, ReadOnly, ReadWrite, Region, check_root};
use crate::error::RegionError;

/// The bytes mapped: a file, or a named Windows mapping's view.
#[derive(Debug)]
enum Bytes {
    File(MmapRaw),
    #[cfg(windows)]
    Named(NamedView),
}

/// A mapping's bytes, mapped for what `A` allows.
#[derive(Debug)]
pub(crate) struct Mapped<A: Access> {
    bytes: Bytes,
    _access: PhantomData<A>,
}

impl<A: Access> Mapped<A> {
    fn new(bytes: Bytes) -> Mapped<A> {
        Mapped {
            bytes,
            _access: PhantomData,
        }
    }

    /// The mapped length in bytes.
    pub(crate) fn len(&self) -> usize {
        match &self.bytes {
            Bytes::File(raw) => raw.len(),
            #[cfg(windows)]
            Bytes::Named(view) => view.len(),
        }
    }

    /// The section's handle of a named mapping (for its security descriptor); `None` for a
    /// file.
    #[cfg(windows)]
    pub(crate) fn named_handle(&self) -> Option<windows_sys::Win32::Foundation::HANDLE> {
        match &self.bytes {
            Bytes::Named(view) => Some(view.handle()),
            Bytes::File(_) => None,
        }
    }

    /// The bytes as a read-only region (loads only), whatever they were mapped for. 64-bit
    /// targets only: its relaxed `u64` loads work on read-only memory only for words no
    /// wider than a pointer.
    #[cfg(target_pointer_width = "64")]
    pub(crate) fn region_read_only(&self) -> Result<Region<'_, ReadOnly>, RegionError> {
        match &self.bytes {
            // SAFETY: memmap2 keeps the mapping until the MmapRaw drops, which the borrow of
            // `self` prevents for the region's lifetime; nothing makes a slice of it.
            Bytes::File(raw) => unsafe { read_only_region(raw.as_ptr().cast_mut(), raw.len()) },
            #[cfg(windows)]
            // SAFETY: the view stays mapped until the NamedView drops, which the borrow of
            // `self` prevents; its length is at most the mapped size; nothing makes a slice.
            Bytes::Named(view) => unsafe { read_only_region(view.base.as_ptr(), view.len) },
        }
    }
}

impl Mapped<ReadWrite> {
    /// `file` (opened read and write) mapped read-write and shared.
    pub(crate) fn file(file: &File) -> io::Result<Mapped<ReadWrite>> {
        Ok(Mapped::new(Bytes::File(MmapRaw::map_raw(file)?)))
    }

    /// The named mapping `name` opened and mapped read-write (`NamedView::open`'s errors).
    #[cfg(windows)]
    pub(crate) fn open_named(name: &str) -> io::Result<Mapped<ReadWrite>> {
        Ok(Mapped::new(Bytes::Named(NamedView::open(name, true)?)))
    }

    /// The named mapping `name` created with `descriptor` and mapped read-write
    /// (`NamedView::create`'s errors).
    #[cfg(windows)]
    pub(crate) fn create_named(
        name: &str,
        len: usize,
        descriptor: &super::os_access::SecurityDescriptor,
    ) -> io::Result<Mapped<ReadWrite>> {
        Ok(Mapped::new(Bytes::Named(NamedView::create(
            name, len, descriptor,
        )?)))
    }

    /// The bytes as a read-write region.
    pub(crate) fn region(&self) -> Result<Region<'_>, RegionError> {
        match &self.bytes {
            // SAFETY: a `Mapped<ReadWrite>` is made only by `file` (`MmapRaw::map_raw`,
            // read-write), and it never makes a slice or reference from the pointer.
            Bytes::File(raw) => unsafe { file_region(raw) },
            // SAFETY: made only by `open_named` and `create_named`, which map read-write;
            // the view's address is never made into a slice or reference.
            #[cfg(windows)]
            Bytes::Named(view) => unsafe { view_region(view) },
        }
    }
}

#[cfg(target_pointer_width = "64")]
impl Mapped<ReadOnly> {
    /// `file` mapped read-only and shared.
    pub(crate) fn file(file: &File) -> io::Result<Mapped<ReadOnly>> {
        Ok(Mapped::new(Bytes::File(
            MmapOptions::new().map_raw_read_only(file)?,
        )))
    }

    /// The named mapping `name` opened and mapped read-only (`NamedView::open`'s errors).
    #[cfg(windows)]
    pub(crate) fn open_named(name: &str) -> io::Result<Mapped<ReadOnly>> {
        Ok(Mapped::new(Bytes::Named(NamedView::open(name, false)?)))
    }
}

/// The region over a raw mapping, for as long as the mapping is borrowed.
///
/// # Safety
///
/// `map` must be mapped read-write (`MmapRaw::map_raw`), and no one in this process may make
/// a slice or reference from its pointer: what a `Mapped<ReadWrite>` holds.
unsafe fn file_region(map: &MmapRaw) -> Result<Region<'_>, RegionError> {
    // SAFETY: read-write and shared, by the caller's contract; memmap2 keeps the mapping
    // alive until the MmapRaw drops, which the borrow prevents. The kernel maps whole pages,
    // so the last word (which may reach past the file's length) is mapped. Within this
    // process the bytes are accessed only through Regions (the caller's contract).
    // Truncation of the file by another process is the `Mapping::open` contract (documented
    // there): it makes accesses fault (SIGBUS), it never makes a reference dangle, as there
    // is none.
    unsafe { Region::from_raw_parts(map.as_mut_ptr(), map.len()) }
}

/// The region over a named Windows mapping's view, for as long as the view is borrowed.
///
/// # Safety
///
/// `view` must be mapped read-write (`NamedView::open` with `writable`, or `create`): what a
/// `Mapped<ReadWrite>` holds.
#[cfg(windows)]
unsafe fn view_region(view: &NamedView) -> Result<Region<'_>, RegionError> {
    // SAFETY: a view of a whole pagefile section, read-write by the caller's contract. The
    // view stays mapped until the NamedView drops, which the borrow prevents; its length is
    // at most the mapped size (VirtualQuery's whole pages, so the last word is mapped too).
    // Its owner never makes a slice or reference from the address, so within this process
    // the bytes are reached only through Regions. A section cannot shrink while mapped.
    unsafe { Region::from_raw_parts(view.base.as_ptr(), view.len) }
}

/// The loads-only region over `len` mapped bytes at `ptr` (a file or a view, read-only or
/// read-write).
///
/// # Safety
///
/// The `len` bytes at `ptr` and the whole pages holding them must stay mapped (readable) for
/// `'a`, and no one in this process may make a slice or reference from `ptr`: what a
/// `Mapped` holds, for as long as it is borrowed.
#[cfg(target_pointer_width = "64")]
unsafe fn read_only_region<'a>(
    ptr: *mut u8,
    len: usize,
) -> Result<Region<'a, ReadOnly>, RegionError> {
    let ptr: NonNull<u8> = check_root(ptr, len)?;
    // The invariant of the read-write regions, for loads only: a `Region<ReadOnly>` has no
    // method that stores (the type has none), and its loads are relaxed `u64` loads
    // (`crate::region`), which std guarantees to work on read-only memory for words no
    // larger than a pointer: hence 64-bit targets only. The mapping stays while its owner
    // (`&self` of `region_read_only`) is borrowed.
    Ok(Region {
        ptr,
        len,
        _bytes: PhantomData,
    })
}
