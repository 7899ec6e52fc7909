//! The host directory's mapping (feature `mmap`): the first host creates it (owner-only, as
//! [`Mapping::create`] does) and lays it out, later hosts and bots open it and check its
//! header before they use a row; and this platform's process probe for stale rows.

use std::io;
use std::path::Path;
use std::time::Duration;

use crate::directory::{self, Directory, DirectoryError, DirectorySpec, ProcessProbe};
use crate::mmap::Mapping;
use crate::raw::ReadWrite;

/// How many times an opener looks again, 10 ms apart, at a directory whose creator has not
/// finished laying it out (its length or magic still 0), before it lets
/// [`DirectoryMapping::directory`] report it.
pub const OPEN_TRIES: usize = 50;

/// A mapping of the host directory, created or opened.
#[derive(Debug)]
pub struct DirectoryMapping {
    mapping: Mapping,
    created: bool,
}

impl DirectoryMapping {
    /// A host's open: creates the directory file at `path` and lays it out, or opens the one
    /// another host made (waiting a bounded time for it to be laid out).
    ///
    /// # Errors
    ///
    /// The OS's, each naming the path.
    pub fn open_or_create(path: impl AsRef<Path>, spec: DirectorySpec) -> io::Result<Self> {
        let path = path.as_ref();
        Self::either(
            || Mapping::create(path, directory::new_len(spec)),
            || Mapping::open(path),
            spec,
        )
    }

    /// A bot's open of the directory file at `path`, which a host made.
    ///
    /// # Errors
    ///
    /// The OS's (`NotFound` when no host ever ran).
    pub fn open(path: impl AsRef<Path>, spec: DirectorySpec) -> io::Result<Self> {
        let path = path.as_ref();
        Self::opened(|| Mapping::open(path), spec)
    }

    /// Windows: [`open_or_create`](Self::open_or_create) of the named mapping `name`
    /// (`Local\ibf.directory`). The mapping lives while some process has it open.
    ///
    /// # Errors
    ///
    /// The OS's, each naming the mapping.
    #[cfg(windows)]
    pub fn open_or_create_named(name: &str, spec: DirectorySpec) -> io::Result<Self> {
        Self::either(
            || Mapping::create_named(name, directory::new_len(spec)),
            || Mapping::open_named(name),
            spec,
        )
    }

    /// Windows: [`open`](Self::open) of the named mapping `name`.
    ///
    /// # Errors
    ///
    /// The OS's (`NotFound` when no host runs).
    #[cfg(windows)]
    pub fn open_named(name: &str, spec: DirectorySpec) -> io::Result<Self> {
        Self::opened(|| Mapping::open_named(name), spec)
    }

    /// Creates with `create` and lays out, or, when it exists already, opens with `open`.
    fn either(
        create: impl Fn() -> io::Result<Mapping>,
        open: impl Fn() -> io::Result<Mapping>,
        spec: DirectorySpec,
    ) -> io::Result<Self> {
        for _ in 0..2 {
            match create() {
                Ok(mapping) => {
                    let region = mapping.region().map_err(io::Error::other)?;
                    directory::lay_out(region, spec).map_err(io::Error::other)?;
                    return Ok(DirectoryMapping {
                        mapping,
                        created: true,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            match Self::opened(&open, spec) {
                // Gone between the two calls (its last holder closed it): create again.
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                other => return other,
            }
        }
        Self::opened(&open, spec)
    }

    /// Opens with `open`, looking again while the creator is still laying it out.
    fn opened(open: impl Fn() -> io::Result<Mapping>, spec: DirectorySpec) -> io::Result<Self> {
        let mut mapping = open()?;
        for _ in 0..OPEN_TRIES {
            let ready = mapping.region().ok().is_some_and(|r| {
                !matches!(
                    directory::check(r, spec),
                    Err(DirectoryError::NotReady | DirectoryError::TooSmall { .. })
                )
            });
            if ready {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            mapping = open()?;
        }
        Ok(DirectoryMapping {
            mapping,
            created: false,
        })
    }

    /// Whether this process created the directory.
    pub fn created(&self) -> bool {
        self.created
    }

    /// The mapping.
    pub fn mapping(&self) -> &Mapping {
        &self.mapping
    }

    /// The directory, its header checked (magic, entry_size, entry_count against the
    /// mapping's length).
    ///
    /// # Errors
    ///
    /// The [`DirectoryError`] naming what is wrong.
    pub fn directory(
        &self,
        spec: DirectorySpec,
    ) -> Result<Directory<'_, ReadWrite>, DirectoryError> {
        let region = self.mapping.region().map_err(DirectoryError::Region)?;
        directory::check(region, spec)
    }
}

/// What this platform tells of process `pid`: gone, or running since its creation time
/// (Linux: `/proc/<pid>/stat` field 22, clock ticks since boot; Windows: the creation
/// FILETIME of `GetProcessTimes`), or unknown.
pub fn process_probe(pid: u32) -> ProcessProbe {
    crate::raw::process_time::probe(pid)
}

/// Process `pid`'s creation time, as [`process_probe`] reads it; 0 where it is gone or the
/// platform cannot tell.
pub fn process_time_of(pid: u32) -> u64 {
    match process_probe(pid) {
        ProcessProbe::Running(t) => t,
        _ => 0,
    }
}

/// This process's creation time, as [`process_probe`] reads it: what a host registers as
/// its `process_time`. 0 where the platform cannot tell.
pub fn own_host_time() -> u64 {
    process_time_of(std::process::id())
}
