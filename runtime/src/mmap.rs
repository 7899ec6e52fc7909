//! `Mapping` and `ReadOnlyMapping` (feature `mmap`): shared mappings of a file, e.g.
//! `/dev/shm/NAME`, handed out only as a [`Region`].
//!
//! Other processes write the mapped bytes while this one reads them, so this process must
//! never read them through a slice: both types wrap memmap2's `MmapRaw`, which only gives raw
//! pointers, and expose no `&[u8]` themselves. Do not map the same file with memmap2's `Mmap`
//! or `MmapMut` in the same process (their slices would race with every writer).
//!
//! # The file must not shrink
//!
//! This is memmap2's contract for every mapping, and it is the contract of these types too:
//! while a mapping lives, **no process may truncate the file below the mapped length**. Pages
//! past the new end of a file are still mapped, but touching them raises `SIGBUS`, which ends
//! the process. Opening is nevertheless a safe function here, as memmap2's own `map_raw` is:
//! a mapping is a raw pointer, no reference to its bytes is ever handed out, and every access
//! is an atomic load or store through the pointer, so a shrunk file can make this process
//! crash at its next access, but never read freed memory, nor see stale or torn values as if
//! they were valid. What the crate does guarantee: it never shrinks a file itself
//! ([`Mapping::create`] refuses an existing file instead of truncating it), and attach checks
//! every size the producer wrote against the mapping's length before it reads.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use memmap2::{MmapOptions, MmapRaw};

use crate::error::RegionError;
use crate::raw::Region;

/// A shared, read-write mapping of a whole file.
///
/// The mapping stays valid while the `Mapping` lives; see the module docs for the one thing
/// other processes must not do (shrink the file).
#[derive(Debug)]
pub struct Mapping {
    raw: MmapRaw,
}

impl Mapping {
    /// Maps an existing file (read and write, shared with every other mapping of it).
    ///
    /// The file must not be truncated while the mapping lives (the module docs say why and
    /// what happens); attach checks the sizes the producer wrote against [`len`](Mapping::len).
    pub fn open(path: impl AsRef<Path>) -> io::Result<Mapping> {
        let file = OpenOptions::new().read(true).write(true).open(path)?;
        Ok(Mapping {
            raw: MmapRaw::map_raw(&file)?,
        })
    }

    /// Creates a new file of `len` zero bytes and maps it (read and write, shared): for a
    /// producer, or a test.
    ///
    /// # Errors
    ///
    /// An error of kind `AlreadyExists` if the file exists: `create` never truncates a file,
    /// which might be another producer's live mapping (truncating it would crash every
    /// process that maps it). Remove a stale file first if it is known to be dead.
    pub fn create(path: impl AsRef<Path>, len: usize) -> io::Result<Mapping> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|err| {
                io::Error::new(
                    err.kind(),
                    format!("cannot create {}: {err}", path.display()),
                )
            })?;
        let len = u64::try_from(len).map_err(|_| io::Error::other("length above u64::MAX"))?;
        file.set_len(len)?;
        Ok(Mapping {
            raw: MmapRaw::map_raw(&file)?,
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

/// A shared, read-only mapping of a whole file: for a reader that may not (or must not) write,
/// e.g. a file it can only open for reading. Its region is a `Region<'_, ReadOnly>`, which has
/// no store: a store through it does not compile.
///
/// 64-bit targets only: its loads are relaxed `u64` loads, which std guarantees to work on
/// read-only memory only for words no wider than a pointer.
#[cfg(target_pointer_width = "64")]
#[derive(Debug)]
pub struct ReadOnlyMapping {
    raw: MmapRaw,
}

#[cfg(target_pointer_width = "64")]
impl ReadOnlyMapping {
    /// Maps an existing file read-only (shared with every other mapping of it). The same
    /// contract as [`Mapping::open`]: the file must not shrink while the mapping lives.
    pub fn open(path: impl AsRef<Path>) -> io::Result<ReadOnlyMapping> {
        let file = File::open(path)?;
        Ok(ReadOnlyMapping {
            raw: MmapOptions::new().map_raw_read_only(&file)?,
        })
    }

    /// The mapped bytes as a read-only region.
    pub fn region(&self) -> Result<Region<'_, crate::raw::ReadOnly>, RegionError> {
        Region::from_mmap_read_only(&self.raw)
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
