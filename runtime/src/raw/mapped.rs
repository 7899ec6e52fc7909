//! What a `Mapping` maps, and the one way from it to a [`Region`]: a file (memmap2's
//! `MmapRaw`) or, on Windows, a named mapping's view, typed by what it was mapped for. A
//! `Mapped<ReadWrite>` is made only by a read-write map call, so its region may store; a
//! `Mapped<ReadOnly>` gives loads only. The region constructors that rely on this are
//! `unsafe` and private to `raw`; this type is the proof they ask for.

use core::marker::PhantomData;
use std::fs::File;
use std::io;

#[cfg(target_pointer_width = "64")]
use memmap2::MmapOptions;
use memmap2::MmapRaw;

#[cfg(windows)]
use super::NamedView;
use super::{Access, ReadOnly, ReadWrite, Region};
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
            Bytes::File(raw) => Region::from_mmap_read_only(raw),
            #[cfg(windows)]
            Bytes::Named(view) => Region::from_named_view_read_only(view),
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
            Bytes::File(raw) => unsafe { Region::from_mmap(raw) },
            // SAFETY: made only by `open_named` and `create_named`, which map read-write;
            // the view's address is never made into a slice or reference.
            #[cfg(windows)]
            Bytes::Named(view) => unsafe { Region::from_named_view(view) },
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
