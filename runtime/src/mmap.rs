//! `Mapping` and `ReadOnlyMapping` (feature `mmap`): shared mappings of a file, e.g.
//! `/dev/shm/NAME`, or on Windows of a named mapping (`Local\NAME`), handed out only as a
//! [`Region`].
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
//!
//! # Named mappings (Windows)
//!
//! A Windows host's bridge is a named, pagefile-backed mapping (`Local\ibf.bridge`), not a
//! file. `Mapping::open_named` opens one (`OpenFileMappingW`, then `MapViewOfFile` of all of
//! it), `Mapping::create_named` makes one for a producer or a test (`CreateFileMappingW` on
//! the pagefile), and `ReadOnlyMapping::open_named` maps one read-only. The contract is the
//! same raw, reference-free one. **The length of an opened named mapping comes from
//! `VirtualQuery`**: Windows keeps no byte length for a pagefile section, so it is the
//! section's size rounded up to whole pages (the bytes past the creator's length are zeros),
//! walked region by region: every page must be committed. A section made with `SEC_RESERVE`
//! maps reserved pages that fault when touched until its creator commits them; such a view
//! is refused (`InvalidData`, naming the mapping and its first reserved byte).
//! Attach still checks every size the producer wrote against that length, and
//! [`Mapping::require_len`] says, naming the mapping, when it is shorter than a size needed.
//! A section cannot shrink while it is mapped, so the `SIGBUS` case of files does not arise.
//!
//! # Who may attach
//!
//! Every create is owner-only unless its [`Share`] says otherwise: a file gets mode 0600
//! whatever the umask (set with `fchmod` once it exists), a named mapping a security
//! descriptor that grants the creating user and SYSTEM and no one else. An open the OS
//! refuses is an error of kind `PermissionDenied` holding an [`AccessDenied`] that names the
//! object and, on Unix, its owner and mode.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use crate::error::RegionError;
use crate::raw::mapped::Mapped;
use crate::raw::{ReadWrite, Region};
use crate::share::{AccessDenied, Share};

/// `Err`, naming `source`, when a mapping of `len` bytes is shorter than `needed`.
fn check_len(source: &str, len: usize, needed: usize) -> io::Result<()> {
    if len >= needed {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!("{source} is {len} bytes, smaller than the {needed} bytes needed"),
    ))
}

/// The error of opening `path`: on a refusal for lack of permission, an [`AccessDenied`]
/// (Unix; elsewhere the OS's error as it is).
fn denied_file(path: &Path, writable: bool, err: io::Error) -> io::Error {
    #[cfg(unix)]
    return AccessDenied::file(path, writable, err);
    #[cfg(not(unix))]
    {
        let _ = (path, writable);
        err
    }
}

/// Gives the new file `file` the group and then the mode of `wanted` (`fchown`, `fchmod`).
#[cfg(unix)]
fn set_owner_and_mode(
    file: &File,
    path: &Path,
    wanted: &crate::share::FileShare,
) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some((gid, name)) = &wanted.group {
        std::os::unix::fs::fchown(file, None, Some(*gid)).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot give {} to the group `{name}` (gid {gid}): {e} (a process may give a file only to a group it belongs to, unless it is root)",
                    path.display()
                ),
            )
        })?;
    }
    file.set_permissions(std::fs::Permissions::from_mode(wanted.mode))
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot set the mode of {}: {e}", path.display()),
            )
        })
}

/// A shared, read-write mapping of a whole file.
///
/// The mapping stays valid while the `Mapping` lives; see the module docs for the one thing
/// other processes must not do (shrink the file).
#[derive(Debug)]
pub struct Mapping {
    mapped: Mapped<ReadWrite>,
    /// What was mapped, for messages: the path, or `the mapping named `NAME``.
    source: String,
}

impl Mapping {
    /// Maps an existing file (read and write, shared with every other mapping of it).
    ///
    /// The file must not be truncated while the mapping lives (the module docs say why and
    /// what happens); attach checks the sizes the producer wrote against [`len`](Mapping::len).
    ///
    /// # Errors
    ///
    /// The OS's, and on a refusal for lack of permission an error of kind `PermissionDenied`
    /// holding an [`AccessDenied`]: the path, the file's owner and mode, this process's uid.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Mapping> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|err| denied_file(path, true, err))?;
        Ok(Mapping {
            mapped: Mapped::<ReadWrite>::file(&file)?,
            source: path.display().to_string(),
        })
    }

    /// Opens the named mapping `name` (Windows: e.g. `Local\ibf.bridge`, made by the host
    /// with `CreateFileMapping`) and maps all of it read-write, shared.
    ///
    /// Its [`len`](Mapping::len) is the view's size from `VirtualQuery`: whole pages (module
    /// docs).
    ///
    /// # Errors
    ///
    /// Each names the mapping: `NotFound` when no mapping has that name (no host running, or
    /// one in another session), `PermissionDenied` (an [`AccessDenied`]) when this process
    /// may not map it read-write, `InvalidInput` for an empty name or one holding a NUL,
    /// `InvalidData` for a view with pages that are reserved, not committed (a `SEC_RESERVE`
    /// section).
    #[cfg(windows)]
    pub fn open_named(name: &str) -> io::Result<Mapping> {
        let mapped = Mapped::<ReadWrite>::open_named(name)
            .map_err(|e| AccessDenied::named(name, true, e))?;
        Ok(Mapping {
            mapped,
            source: format!("the mapping named `{name}`"),
        })
    }

    /// Creates the named mapping `name` (Windows) of `len` zero bytes on the pagefile and
    /// maps it read-write: for a producer, or a test. Its [`len`](Mapping::len) is `len`.
    /// The mapping lives while any process has it open: when the last one closes it, it is
    /// gone (there is nothing to remove).
    ///
    /// Owner-only: its security descriptor grants this process's user and SYSTEM, and no one
    /// else ([`create_named_with`](Mapping::create_named_with) shares it).
    ///
    /// # Errors
    ///
    /// `AlreadyExists`, naming it, when a mapping of that name exists (`create_named` never
    /// adopts another producer's live mapping); `InvalidInput` for a length of 0.
    #[cfg(windows)]
    pub fn create_named(name: &str, len: usize) -> io::Result<Mapping> {
        Mapping::create_named_with(name, len, &Share::OwnerOnly)
    }

    /// [`create_named`](Mapping::create_named) with the security descriptor `share` asks
    /// for ([`Share`]): owner-only (this user and SYSTEM), a group's SID too (read-write or
    /// read-only), or the caller's SDDL string.
    ///
    /// # Errors
    ///
    /// Those of `create_named`, and `InvalidInput`, naming the mapping and what is wrong,
    /// for a group that is not a SID or an SDDL alias, or a malformed SDDL string: before
    /// anything is created.
    #[cfg(windows)]
    pub fn create_named_with(name: &str, len: usize, share: &Share) -> io::Result<Mapping> {
        let descriptor = crate::share::section_descriptor(share, name)?;
        let mapped = Mapped::create_named(name, len, &descriptor).map_err(|e| {
            if e.kind() == io::ErrorKind::PermissionDenied {
                io::Error::new(
                    e.kind(),
                    format!("cannot create the mapping named `{name}`: {e}"),
                )
            } else {
                e
            }
        })?;
        Ok(Mapping {
            mapped,
            source: format!("the mapping named `{name}`"),
        })
    }

    /// Windows: the owner and DACL of the named mapping this process created, as SDDL
    /// (`O:...D:P(A;;GA;;;S-1-5-21-...)(A;;GA;;;SY)`): who may attach. A mapping opened by
    /// name lacks the right to read them (`PermissionDenied`); a file mapping has none
    /// (`InvalidInput`).
    #[cfg(windows)]
    pub fn security_descriptor(&self) -> io::Result<String> {
        match self.mapped.named_handle() {
            Some(handle) => crate::raw::os_access::descriptor_of(handle).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "cannot read the security descriptor of {}: {e}",
                        self.source
                    ),
                )
            }),
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a file, not a named mapping", self.source),
            )),
        }
    }

    /// `Ok` if the mapping has at least `needed` bytes; otherwise an error of kind
    /// `UnexpectedEof` naming the file or mapping and both sizes, e.g. before reading a
    /// header of `needed` bytes.
    pub fn require_len(&self, needed: usize) -> io::Result<()> {
        check_len(&self.source, self.len(), needed)
    }

    /// Creates a new file of `len` zero bytes and maps it (read and write, shared): for a
    /// producer, or a test.
    ///
    /// Owner-only on Unix: mode 0600, whatever the umask
    /// ([`create_with`](Mapping::create_with) shares it). On Windows a file takes its
    /// folder's inherited permissions; a Windows bridge is a named mapping
    /// (`Mapping::create_named`).
    ///
    /// # Errors
    ///
    /// An error of kind `AlreadyExists` if the file exists: `create` never truncates a file,
    /// which might be another producer's live mapping (truncating it would crash every
    /// process that maps it). Remove a stale file first if it is known to be dead.
    pub fn create(path: impl AsRef<Path>, len: usize) -> io::Result<Mapping> {
        Mapping::create_with(path, len, &Share::OwnerOnly)
    }

    /// [`create`](Mapping::create) with the mode and group `share` asks for ([`Share`]):
    /// owner-only (0600), or a group's (0660, or 0640 read-only). The file is made with mode
    /// 0600, given to the group (`fchown`), then set to its mode (`fchmod`, which the umask
    /// does not touch), so no one else can open it before it is shared as asked.
    ///
    /// # Errors
    ///
    /// Those of `create`, and `InvalidInput`, naming the path and what is wrong, for an
    /// unknown group or a share that does not apply here (an SDDL string on Unix; any share
    /// but `OwnerOnly` for a file on Windows): before the file is created. When the file
    /// cannot be given to the group (the creator is not a member, and not root) it is
    /// removed, and the error names the group.
    pub fn create_with(path: impl AsRef<Path>, len: usize, share: &Share) -> io::Result<Mapping> {
        let path = path.as_ref();
        #[cfg(unix)]
        let wanted = crate::share::FileShare::of(share, path)?;
        #[cfg(not(unix))]
        if *share != Share::OwnerOnly {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "cannot create {}: a file here takes its folder's permissions; share a Windows bridge as a named mapping (Mapping::create_named_with)",
                    path.display()
                ),
            ));
        }
        let mut options = OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(path).map_err(|err| {
            io::Error::new(
                err.kind(),
                format!("cannot create {}: {err}", path.display()),
            )
        })?;
        let made = (|| {
            #[cfg(unix)]
            set_owner_and_mode(&file, path, &wanted)?;
            let len = u64::try_from(len).map_err(|_| io::Error::other("length above u64::MAX"))?;
            file.set_len(len)?;
            Mapped::<ReadWrite>::file(&file)
        })();
        match made {
            Ok(mapped) => Ok(Mapping {
                mapped,
                source: path.display().to_string(),
            }),
            Err(err) => {
                // Ours, just made and mapped by no one: never left half-shared.
                let _ = std::fs::remove_file(path);
                Err(err)
            }
        }
    }

    /// The mapped bytes as a region. Fails only if the mapping is not 8-aligned, which page
    /// alignment rules out in practice.
    pub fn region(&self) -> Result<Region<'_>, RegionError> {
        self.mapped.region()
    }

    /// The length of the mapping in bytes.
    pub fn len(&self) -> usize {
        self.mapped.len()
    }

    /// `true` if the mapping has no bytes.
    pub fn is_empty(&self) -> bool {
        self.mapped.len() == 0
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
    mapped: Mapped<crate::raw::ReadOnly>,
    /// What was mapped, for messages: the path, or `the mapping named `NAME``.
    source: String,
}

#[cfg(target_pointer_width = "64")]
impl ReadOnlyMapping {
    /// Maps an existing file read-only (shared with every other mapping of it). The same
    /// contract as [`Mapping::open`]: the file must not shrink while the mapping lives.
    ///
    /// # Errors
    ///
    /// Those of [`Mapping::open`]: a refusal for lack of permission holds an
    /// [`AccessDenied`].
    pub fn open(path: impl AsRef<Path>) -> io::Result<ReadOnlyMapping> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|err| denied_file(path, false, err))?;
        Ok(ReadOnlyMapping {
            mapped: Mapped::<crate::raw::ReadOnly>::file(&file)?,
            source: path.display().to_string(),
        })
    }

    /// Opens the named mapping `name` (Windows) and maps all of it read-only: the errors and
    /// the length of `Mapping::open_named`, for a process that may only read it.
    #[cfg(windows)]
    pub fn open_named(name: &str) -> io::Result<ReadOnlyMapping> {
        let mapped = Mapped::<crate::raw::ReadOnly>::open_named(name)
            .map_err(|e| AccessDenied::named(name, false, e))?;
        Ok(ReadOnlyMapping {
            mapped,
            source: format!("the mapping named `{name}`"),
        })
    }

    /// `Ok` if the mapping has at least `needed` bytes; otherwise the error of
    /// [`Mapping::require_len`], naming the file or mapping.
    pub fn require_len(&self, needed: usize) -> io::Result<()> {
        check_len(&self.source, self.len(), needed)
    }

    /// The mapped bytes as a read-only region.
    pub fn region(&self) -> Result<Region<'_, crate::raw::ReadOnly>, RegionError> {
        self.mapped.region_read_only()
    }

    /// The length of the mapping in bytes.
    pub fn len(&self) -> usize {
        self.mapped.len()
    }

    /// `true` if the mapping has no bytes.
    pub fn is_empty(&self) -> bool {
        self.mapped.len() == 0
    }
}
