//! The host directory's protocol (the bridge's `Local\ibf.directory`): the rows of the hosts
//! running in this logon session, each `free`, `claimed` or `live`, with its host's pid and
//! process creation time. The rules live here once; generated code hands in a
//! [`DirectorySpec`] (offsets and values computed by the generator) and calls these.
//!
//! **The row word.** A row's `u32` state and `u32` pid are the two halves of one 8-aligned
//! `u64` (the generator checks it), and every move of a row is one compare-and-swap of that
//! word, so no party ever sees a state with another owner's pid.
//!
//! **Orderings.**
//! - register: load the word (`Acquire`); compare-and-swap (free, any) → (claimed, pid)
//!   (`AcqRel`); `fence(Release)`, so that a reader whose copy saw any of the fill also sees
//!   the claim at its re-check (the seqlock writer's fence: without it Miri lists torn rows);
//!   fill in process_time, ABI version and host version (relaxed stores); then
//!   compare-and-swap (claimed, pid) → (live, pid) (`AcqRel`: its release part publishes the
//!   fill to a reader that sees the row live).
//! - unregister and stale cleanup: compare-and-swap the word the row had → (claimed, own pid)
//!   (`AcqRel`), `fence(Release)`, zero the row's other bytes (relaxed), store (free, 0) (`Release`), so the
//!   next claimant finds zeros (a claimed row's process_time is 0 until its owner fills it).
//! - list: load the word (`Acquire`); copy the row (relaxed); `fence(Acquire)`; load the word
//!   and process_time again (relaxed); the copy stands only if neither changed (a row that
//!   went through other owners and back to the same pid has another process_time), else it
//!   is retried at most [`LIST_TRIES`] times and then reported as [`RowProblem::Unsettled`].
//!   The one tear left: a process that frees its row and registers in it again, twice,
//!   between a reader's first and last load (the reference's row has no counter for it).
//!
//! **Stale rows** (iceoryx2's `remove_stale_resources`): a claimed or live row whose process
//! no longer exists, or whose process was created at another time than the row says (its pid
//! was reused), is stale. A claimed row whose process_time is still 0 is only stale when its
//! process is gone (its owner may be filling it in). A starting host frees stale rows before
//! it claims one; after its swap it checks process_time again and puts the row back when it
//! changed, so a row taken over between the check and the swap is never freed.

use core::fmt;
use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use core::sync::atomic::fence;

use crate::raw::{Access, Region, Writable};
use crate::spec::SharedWord;

/// How many times [`Directory::list`] copies a row that changes under it before it reports
/// the row as [`RowProblem::Unsettled`].
pub const LIST_TRIES: usize = 8;

/// How many times a register retries the compare-and-swap of one free row that changes under
/// it (another host claiming the same row) before it moves on to the next row.
pub const REGISTER_TRIES: usize = 4;

/// Where the directory keeps what, and its values: computed once by the generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectorySpec {
    /// The header's `u32` magic, and the value it must hold.
    pub magic_at: usize,
    /// The value of a laid-out directory's magic.
    pub magic: u32,
    /// The header's `u32` count of rows, and `u32` bytes per row.
    pub entry_count_at: usize,
    /// See `entry_count_at`.
    pub entry_size_at: usize,
    /// Where the rows start.
    pub entries_at: usize,
    /// The rows a new directory gets (the schema's array length).
    pub max_entries: u32,
    /// The bytes of a row as this ABI knows it: the least a directory's `entry_size` may be.
    pub entry_size: u32,
    /// The row's word holding the `u32` state and the `u32` pid.
    pub word: SharedWord,
    /// The row's `u64` process creation time.
    pub process_time_at: usize,
    /// The row's `u16` ABI major and minor version.
    pub abi_major_at: usize,
    /// See `abi_major_at`.
    pub abi_minor_at: usize,
    /// The row's host version string (NUL-terminated), and its bytes.
    pub version_at: usize,
    /// See `version_at`.
    pub version_len: usize,
    /// The state values.
    pub free: u32,
    /// See `free`.
    pub claimed: u32,
    /// See `free`.
    pub live: u32,
}

/// A directory that cannot be used, or a row that cannot be had: each names what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DirectoryError {
    /// The mapping is smaller than the header's fixed part.
    TooSmall {
        /// Its bytes.
        len: usize,
        /// The bytes the header's fixed part needs.
        needed: usize,
    },
    /// The magic is 0: the directory's creator has not finished laying it out.
    NotReady,
    /// The magic is not the directory's.
    BadMagic {
        /// The value found.
        found: u32,
    },
    /// `entry_size` is smaller than a row this ABI knows, or not a multiple of 8.
    BadEntrySize {
        /// The value found.
        found: u32,
        /// The least acceptable.
        least: u32,
    },
    /// `entry_count` is 0, or its rows run past the end of the mapping.
    BadEntryCount {
        /// The value found.
        found: u32,
        /// The most rows the mapping holds at that size.
        fits: usize,
    },
    /// Every row is claimed or live.
    Full {
        /// The rows.
        rows: u32,
    },
    /// The mapping cannot be a region (not 8-aligned).
    Region(crate::error::RegionError),
    /// The host version string does not fit its field with its terminating NUL.
    VersionTooLong {
        /// Its bytes.
        len: usize,
        /// The most bytes it may have.
        max: usize,
    },
    /// A store into a word another process kept changing gave up ([`crate::Contended`]).
    Contended(crate::error::Contended),
}

impl From<crate::error::Contended> for DirectoryError {
    fn from(e: crate::error::Contended) -> Self {
        Self::Contended(e)
    }
}

impl fmt::Display for DirectoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooSmall { len, needed } => write!(
                f,
                "directory too small: {len} bytes, its header needs {needed}"
            ),
            Self::NotReady => f.write_str("directory not ready: its magic is still 0"),
            Self::BadMagic { found } => write!(f, "directory bad magic: {found:#010x}"),
            Self::BadEntrySize { found, least } => write!(
                f,
                "directory bad entry_size: {found} (at least {least}, a multiple of 8)"
            ),
            Self::BadEntryCount { found, fits } => write!(
                f,
                "directory bad entry_count: {found} (1 to {fits} rows fit in the mapping)"
            ),
            Self::Full { rows } => write!(f, "directory full: all {rows} rows are taken"),
            Self::Region(e) => write!(f, "directory mapping unusable: {e}"),
            Self::VersionTooLong { len, max } => write!(
                f,
                "host version too long: {len} bytes, at most {max} with its NUL"
            ),
            Self::Contended(e) => write!(f, "directory: {e}"),
        }
    }
}

impl std::error::Error for DirectoryError {}

/// What is known of a process with a given pid, for stale checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessProbe {
    /// No such process (or a zombie: it has exited).
    Gone,
    /// It runs, created at this time (the platform's `process_time`).
    Running(u64),
    /// It could not be told (no permission, an unsupported platform): never stale.
    Unknown,
}

/// A host as it registers: what its row says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostInfo {
    /// Its process id.
    pub pid: u32,
    /// Its process's creation time.
    pub process_time: u64,
    /// The ABI version it speaks.
    pub abi_major: u16,
    /// See `abi_major`.
    pub abi_minor: u16,
    /// Its own version string.
    pub host_version: String,
}

/// A live row as a reader copied it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedHost {
    /// Its row.
    pub row: usize,
    /// What the row says.
    pub host: HostInfo,
}

/// A row a reader could not use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowProblem {
    /// Its state is none of free, claimed and live.
    UnknownState {
        /// The row.
        row: usize,
        /// The state found.
        state: u32,
    },
    /// It changed under the reader [`LIST_TRIES`] times in a row.
    Unsettled {
        /// The row.
        row: usize,
    },
}

/// The live hosts, newest first (by process_time, then row), and the rows that could not be
/// read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Live hosts, newest first.
    pub hosts: Vec<ListedHost>,
    /// Rows skipped, with why.
    pub problems: Vec<RowProblem>,
}

/// A host's row, won by [`Directory::register`]: unregister it on exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registration {
    /// The row.
    pub row: usize,
    /// The pid and process_time it was registered with.
    pub pid: u32,
    /// See `pid`.
    pub process_time: u64,
    /// Stale rows freed before the claim.
    pub stale_freed: usize,
}

/// A directory whose header was checked: its rows are inside the region.
#[derive(Debug, Clone, Copy)]
pub struct Directory<'a, A: Access> {
    region: Region<'a, A>,
    spec: DirectorySpec,
    count: u32,
    size: usize,
}

/// Checks the header: magic, then `entry_size` and `entry_count` against the region's length
/// (checked arithmetic: any value the other side wrote is refused by name, never trusted).
pub fn check<'a, A: Access>(
    region: Region<'a, A>,
    spec: DirectorySpec,
) -> Result<Directory<'a, A>, DirectoryError> {
    let len = region.len();
    let needed = spec.entries_at;
    if len < needed {
        return Err(DirectoryError::TooSmall { len, needed });
    }
    let magic = region.load::<u32>(spec.magic_at, Acquire);
    if magic == 0 {
        return Err(DirectoryError::NotReady);
    }
    if magic != spec.magic {
        return Err(DirectoryError::BadMagic { found: magic });
    }
    let size = region.load::<u32>(spec.entry_size_at, Relaxed);
    if size < spec.entry_size || size % 8 != 0 {
        return Err(DirectoryError::BadEntrySize {
            found: size,
            least: spec.entry_size,
        });
    }
    let count = region.load::<u32>(spec.entry_count_at, Relaxed);
    let fits = (len - needed) / size as usize;
    if count == 0 || count as usize > fits {
        return Err(DirectoryError::BadEntryCount { found: count, fits });
    }
    Ok(Directory {
        region,
        spec,
        count,
        size: size as usize,
    })
}

/// The bytes a new directory takes: the header and `max_entries` rows.
pub fn new_len(spec: DirectorySpec) -> usize {
    spec.entries_at + spec.max_entries as usize * spec.entry_size as usize
}

/// Lays out a new directory in `region` (zeroed, made by its creator and not yet shared):
/// `entry_count` and `entry_size`, then the magic (`Release`), which an opener checks first.
pub fn lay_out<A: Writable>(
    region: Region<'_, A>,
    spec: DirectorySpec,
) -> Result<Directory<'_, A>, DirectoryError> {
    let needed = new_len(spec);
    if region.len() < needed {
        return Err(DirectoryError::TooSmall {
            len: region.len(),
            needed,
        });
    }
    region.zero(spec.entries_at, needed - spec.entries_at)?;
    region.try_store::<u32>(spec.entry_count_at, spec.max_entries, Relaxed)?;
    region.try_store::<u32>(spec.entry_size_at, spec.entry_size, Relaxed)?;
    region.try_store::<u32>(spec.magic_at, spec.magic, Release)?;
    check(region, spec)
}

impl<'a, A: Access> Directory<'a, A> {
    /// The rows.
    pub fn rows(&self) -> u32 {
        self.count
    }

    /// Row `i`'s bytes, as this ABI knows them.
    fn row(&self, i: usize) -> Region<'a, A> {
        let at = self.spec.entries_at + i * self.size;
        self.region
            .sub(at, self.spec.entry_size as usize, 8)
            .expect("rows checked to lie inside the region")
    }

    /// Row `i`'s (state, pid), acquire.
    pub fn state(&self, i: usize) -> (u32, u32) {
        let w = self.spec.word;
        w.split(self.row(i).load::<u64>(w.at, Acquire))
    }

    /// The live hosts, newest first, and the rows that could not be read.
    pub fn list(&self) -> Listing {
        let mut out = Listing::default();
        for i in 0..self.count as usize {
            match self.read_row(i) {
                Ok(Some(host)) => out.hosts.push(ListedHost { row: i, host }),
                Ok(None) => {}
                Err(problem) => out.problems.push(problem),
            }
        }
        out.hosts
            .sort_by(|a, b| (b.host.process_time, a.row).cmp(&(a.host.process_time, b.row)));
        out
    }

    /// Row `i` if it is live: copied, then its word checked again.
    fn read_row(&self, i: usize) -> Result<Option<HostInfo>, RowProblem> {
        let (s, row) = (self.spec, self.row(i));
        for _ in 0..LIST_TRIES {
            let word = row.load::<u64>(s.word.at, Acquire);
            let (state, pid) = s.word.split(word);
            if state == s.free || state == s.claimed {
                return Ok(None);
            }
            if state != s.live {
                return Err(RowProblem::UnknownState { row: i, state });
            }
            let process_time = row.load::<u64>(s.process_time_at, Relaxed);
            let abi_major = row.load::<u16>(s.abi_major_at, Relaxed);
            let abi_minor = row.load::<u16>(s.abi_minor_at, Relaxed);
            let mut version = vec![0u8; s.version_len];
            row.read_bytes(s.version_at, &mut version);
            fence(Acquire);
            // The word and the time again: a row freed and claimed again by the same pid
            // (the word back to what it was) still changed its time, unless its owner is
            // the same process, whose pid and time the copy then pairs rightly.
            if row.load::<u64>(s.word.at, Relaxed) != word
                || row.load::<u64>(s.process_time_at, Relaxed) != process_time
            {
                continue;
            }
            let end = version
                .iter()
                .position(|&b| b == 0)
                .unwrap_or(version.len());
            return Ok(Some(HostInfo {
                pid,
                process_time,
                abi_major,
                abi_minor,
                host_version: String::from_utf8_lossy(&version[..end]).into_owned(),
            }));
        }
        Err(RowProblem::Unsettled { row: i })
    }

    /// Whether row `i` is stale by `probe`, from its word and process_time as loaded.
    fn is_stale(
        &self,
        state: u32,
        pid: u32,
        time: u64,
        probe: &impl Fn(u32) -> ProcessProbe,
    ) -> bool {
        let s = self.spec;
        if state != s.claimed && state != s.live {
            return false;
        }
        if pid == 0 {
            return true;
        }
        match probe(pid) {
            ProcessProbe::Gone => true,
            ProcessProbe::Running(created) => (state == s.live || time != 0) && created != time,
            ProcessProbe::Unknown => false,
        }
    }
}

impl<'a, A: Writable> Directory<'a, A> {
    /// Frees every stale row (see the module docs), taking each as `me` first; how many.
    pub fn remove_stale(&self, me: u32, probe: impl Fn(u32) -> ProcessProbe) -> usize {
        let s = self.spec;
        let mut freed = 0;
        for i in 0..self.count as usize {
            let row = self.row(i);
            let word = row.load::<u64>(s.word.at, Acquire);
            let (state, pid) = s.word.split(word);
            let time = row.load::<u64>(s.process_time_at, Acquire);
            if !self.is_stale(state, pid, time, &probe) {
                continue;
            }
            let mine = s.word.join(s.claimed, me);
            if row.compare_exchange::<u64>(s.word.at, word, mine).is_err() {
                continue;
            }
            if row.load::<u64>(s.process_time_at, Acquire) != time {
                // Taken over between the check and the swap: give it back untouched.
                let _ = row.compare_exchange::<u64>(s.word.at, mine, word);
                continue;
            }
            self.free_taken(row);
            freed += 1;
        }
        freed
    }

    /// Zeroes a row this process holds claimed, then frees it (release).
    fn free_taken(&self, row: Region<'a, A>) {
        let s = self.spec;
        let rest = s.word.at + 8;
        // The take before the zeroing, for a reader's re-check (module docs).
        fence(Release);
        // Whole words (the word is 8-aligned and entry_size a multiple of 8, as check made
        // sure): a plain store each, never contended. A row left unzeroed is still freed.
        let _ = row.zero(0, s.word.at);
        let _ = row.zero(rest, s.entry_size as usize - rest);
        row.store::<u64>(s.word.at, s.word.join(s.free, 0), Release);
    }

    /// Registers `me`: frees stale rows (by `probe`), claims the first free row, fills it
    /// in, then marks it live.
    ///
    /// # Errors
    ///
    /// [`DirectoryError::Full`] when no row is free after the cleanup,
    /// [`DirectoryError::VersionTooLong`] before anything is touched.
    pub fn register(
        &self,
        me: &HostInfo,
        probe: impl Fn(u32) -> ProcessProbe,
    ) -> Result<Registration, DirectoryError> {
        let s = self.spec;
        let version = me.host_version.as_bytes();
        if version.len() >= s.version_len {
            return Err(DirectoryError::VersionTooLong {
                len: version.len(),
                max: s.version_len - 1,
            });
        }
        let stale_freed = self.remove_stale(me.pid, probe);
        let claimed = s.word.join(s.claimed, me.pid);
        for i in 0..self.count as usize {
            let row = self.row(i);
            let mut word = row.load::<u64>(s.word.at, Acquire);
            for _ in 0..REGISTER_TRIES {
                if s.word.split(word).0 != s.free {
                    break;
                }
                match row.compare_exchange::<u64>(s.word.at, word, claimed) {
                    Ok(_) => {
                        // The claim before the fill, for a reader's re-check (module docs).
                        fence(Release);
                        row.store::<u64>(s.process_time_at, me.process_time, Relaxed);
                        // The row is this host's claim: only a cleaner that judged it
                        // stale touches it meanwhile, through the word, not these bytes.
                        let filled = row
                            .try_store::<u16>(s.abi_major_at, me.abi_major, Relaxed)
                            .and_then(|()| {
                                row.try_store::<u16>(s.abi_minor_at, me.abi_minor, Relaxed)
                            })
                            .and_then(|()| {
                                let mut text = vec![0u8; s.version_len];
                                text[..version.len()].copy_from_slice(version);
                                row.write_bytes(s.version_at, &text)
                            });
                        if let Err(e) = filled {
                            // Given back: free again, the pid kept out of the word.
                            let _ = row.compare_exchange::<u64>(s.word.at, claimed, word);
                            return Err(e.into());
                        }
                        let live = s.word.join(s.live, me.pid);
                        if row
                            .compare_exchange::<u64>(s.word.at, claimed, live)
                            .is_ok()
                        {
                            return Ok(Registration {
                                row: i,
                                pid: me.pid,
                                process_time: me.process_time,
                                stale_freed,
                            });
                        }
                        // Another host judged the claim stale and took it: try further on.
                        break;
                    }
                    Err(now) => word = now,
                }
            }
        }
        Err(DirectoryError::Full { rows: self.count })
    }

    /// Unregisters: the row goes from live back to free, only while it is still this
    /// registration's (same pid and process_time). Whether it was.
    pub fn unregister(&self, reg: &Registration) -> bool {
        let s = self.spec;
        if reg.row >= self.count as usize {
            return false;
        }
        let row = self.row(reg.row);
        let live = s.word.join(s.live, reg.pid);
        let mine = s.word.join(s.claimed, reg.pid);
        if row.compare_exchange::<u64>(s.word.at, live, mine).is_err() {
            return false;
        }
        if row.load::<u64>(s.process_time_at, Acquire) != reg.process_time {
            let _ = row.compare_exchange::<u64>(s.word.at, mine, live);
            return false;
        }
        self.free_taken(row);
        true
    }
}
