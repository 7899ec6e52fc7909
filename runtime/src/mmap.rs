//! `Mapping` (feature `mmap`): a shared, read-write mapping of a file, e.g. `/dev/shm/NAME`,
//! handed out only as a [`Region`].
//!
//! Other processes write the mapped bytes while this one reads them, so this process must
//! never read them through a slice: `Mapping` wraps memmap2's `MmapRaw`, which only gives raw
//! pointers, and exposes no `&[u8]` itself. Do not map the same file with memmap2's `Mmap` or
//! `MmapMut` in the same process (their slices would race with every writer).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use memmap2::MmapRaw;

use crate::{Region, RegionError};

/// A shared, read-write mapping of a whole file.
///
/// The mapping stays valid while the `Mapping` lives. If another process truncates the file,
/// touching the lost pages raises `SIGBUS` (a crash, not silent corruption).
#[derive(Debug)]
pub struct Mapping {
    raw: MmapRaw,
}

impl Mapping {
    /// Maps an existing file (read and write, shared with every other mapping of it).
    pub fn open(path: impl AsRef<Path>) -> io::Result<Mapping> {
        let file = OpenOptions::new().read(true).write(true).open(path)?;
        Mapping::map(&file)
    }

    /// Creates the file (or truncates an existing one), sets its length to `len` zero bytes,
    /// and maps it (read and write, shared).
    pub fn create(path: impl AsRef<Path>, len: usize) -> io::Result<Mapping> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        let len = u64::try_from(len).map_err(|_| io::Error::other("length above u64::MAX"))?;
        file.set_len(len)?;
        Mapping::map(&file)
    }

    fn map(file: &File) -> io::Result<Mapping> {
        Ok(Mapping {
            raw: MmapRaw::map_raw(file)?,
        })
    }

    /// The mapped bytes as a region. Fails only if the mapping is not 8-aligned, which page
    /// alignment rules out in practice.
    pub fn region(&self) -> Result<Region<'_>, RegionError> {
        Region::from_mmap(&self.raw)
    }

    /// The length of the mapping in bytes.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// `true` if the mapping has no bytes.
    pub fn is_empty(&self) -> bool {
        self.raw.len() == 0
    }
}
