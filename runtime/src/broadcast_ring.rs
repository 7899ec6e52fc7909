//! A single-writer, many-reader ring of variable-size entries in a byte area, the oldest
//! overwritten (the bridge's host log ring). Readers never slow the writer; a reader the
//! writer overtook is told how many entries it missed, and never gets a torn entry.
//!
//! Orderings, as Agrona's broadcast ring and a seqlock: before it overwrites the oldest
//! entries, the writer moves `tail_pos` (the oldest whole entry) past them and issues a
//! release fence; then it copies the new entry in whole words and publishes it by storing
//! `write_pos` with release. A reader loads `write_pos` with acquire, copies an entry, issues
//! an acquire fence and loads `tail_pos` again: if the tail passed the entry, the copy may be
//! torn and is thrown away (the reader was lapped). Positions are 64-bit counts of bytes ever
//! written and never wrap; each entry holds `seq`, the entries written before it, from which
//! a lapped reader learns how many it missed. What the writer wrote is checked before use.

use crate::sync::fence;
use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};

use crate::entry_parts::PartError;
use crate::raw::{Access, Region, Writable};
use crate::spec::Field;
use crate::spec::{EntryFormat, area_capacity};

/// Where a ring keeps its fields, from the start of its header, and its entries' format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingSpec {
    /// `u64`: bytes ever written.
    pub write_pos: usize,
    /// `u64`: the position of the oldest whole entry.
    pub tail_pos: usize,
    /// `u64`: entries written.
    pub entries: usize,
    /// The capacity of the area in bytes.
    pub capacity: Field,
    /// Where the area starts, from the header's start.
    pub area: usize,
    /// The entries' format.
    pub entry: EntryFormat,
    /// The entry's `u64` field holding the entries written before it, from its start.
    pub seq: usize,
}

/// Why a ring cannot be used, or what a broken writer wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RingError {
    /// The capacity is 0, not a multiple of 8, or past the region.
    Capacity {
        /// The capacity field.
        found: u64,
        /// The bytes the region has for the area.
        room: u64,
    },
    /// `tail_pos` is past `write_pos`, or more than the capacity behind it; or `write_pos`
    /// went back behind the reader; or either is not a multiple of 8; or (to the writer)
    /// `write_pos` is so close to `u64::MAX` that the entry pushed would end past it, which
    /// no honest writer reaches (positions count bytes, and never reach 2^64).
    Positions {
        /// `tail_pos`.
        tail: u64,
        /// `write_pos`.
        write: u64,
    },
    /// An entry's size cannot be right (0, not a multiple of 8, under its header, past the
    /// written bytes or the area's end).
    EntrySize {
        /// The entry's position.
        at: u64,
        /// Its size field.
        size: u64,
    },
    /// The entry given to [`RingWriter::push`] is not a whole entry of this format.
    BadEntry {
        /// Its length.
        len: usize,
    },
    /// A part of an entry (its source, its text) longer than its bound, or running past
    /// its entry ([`crate::entry_parts`]).
    Part(PartError),
    /// A store into a word whose other bytes a peer kept changing gave up
    /// ([`crate::Contended`]); `write_pos` was not moved.
    Contended {
        /// The compare-exchanges tried.
        tries: u32,
    },
}

impl From<crate::error::Contended> for RingError {
    fn from(e: crate::error::Contended) -> Self {
        Self::Contended { tries: e.tries }
    }
}

impl From<PartError> for RingError {
    fn from(e: PartError) -> Self {
        Self::Part(e)
    }
}

impl RingError {
    /// The error's snake_case name.
    pub fn check(&self) -> &'static str {
        match self {
            Self::Capacity { .. } => "ring_capacity",
            Self::Positions { .. } => "ring_positions",
            Self::EntrySize { .. } => "ring_entry_size",
            Self::BadEntry { .. } => "ring_bad_entry",
            Self::Part(e) => e.check(),
            Self::Contended { .. } => "ring_contended",
        }
    }
}

impl core::fmt::Display for RingError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Capacity { found, room } => write!(
                f,
                "ring: capacity {found}, expected a multiple of 8 from 8 to {room}"
            ),
            Self::Positions { tail, write } => {
                write!(
                    f,
                    "ring: tail_pos {tail} and write_pos {write} are not in order"
                )
            }
            Self::EntrySize { at, size } => write!(f, "ring: the entry at {at} has size {size}"),
            Self::BadEntry { len } => write!(f, "ring: a {len}-byte entry is not a whole entry"),
            Self::Part(e) => write!(f, "ring: {e}"),
            Self::Contended { tries } => {
                write!(f, "ring: {}", crate::error::Contended { tries: *tries })
            }
        }
    }
}

impl std::error::Error for RingError {}

/// What [`RingReader::read_next`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// An entry of this many bytes, copied into the buffer given.
    Entry(usize),
    /// Nothing new.
    Empty,
    /// The writer overtook the reader: `missed` entries were overwritten before they were
    /// read. The next call returns the oldest entry still there.
    Lapped {
        /// Entries lost.
        missed: u64,
    },
}

/// A ring at the start of a region, checked: its capacity.
#[derive(Debug, Clone, Copy)]
struct Ring<'a, A: Access> {
    region: Region<'a, A>,
    spec: RingSpec,
    capacity: u64,
}

impl<'a, A: Access> Ring<'a, A> {
    fn new(region: Region<'a, A>, spec: RingSpec) -> Result<Self, RingError> {
        let capacity = area_capacity(
            region,
            spec.capacity,
            spec.area,
            crate::spec::GeometryFrom::Mapping,
        )
        .map_err(|(found, room)| RingError::Capacity { found, room })?;
        Ok(Ring {
            region,
            spec,
            capacity,
        })
    }

    fn at(&self, pos: u64) -> usize {
        self.spec.area + (pos % self.capacity) as usize
    }

    /// The size and padding flag of the entry at `pos`, from its first word.
    fn head(&self, pos: u64) -> (u64, bool) {
        let mut word = [0u8; 8];
        self.region.read_bytes(self.at(pos), &mut word);
        let f = self.spec.entry;
        let size = f.size.read(&word).unwrap_or(0);
        (size, f.kind.read(&word) == Some(f.padding))
    }

    /// Whether an entry of `size` at `pos` can be right, with `limit` bytes written after it.
    /// An entry holds its header and its `seq` (as the writer requires).
    fn fits(&self, pos: u64, size: u64, padding: bool, limit: u64) -> bool {
        let least = if padding {
            8
        } else {
            self.spec.entry.header.max(self.spec.seq + 8) as u64
        };
        size % 8 == 0
            && size >= least
            && size <= limit
            && size <= self.capacity - pos % self.capacity
    }
}

/// `Positions` unless both positions are multiples of 8, as every entry's size is: a reader
/// whose cursor is not would read an entry's first word past the area's end.
fn aligned(tail: u64, write: u64) -> Result<(), RingError> {
    if tail % 8 != 0 || write % 8 != 0 {
        return Err(RingError::Positions { tail, write });
    }
    Ok(())
}

/// The writer's side. One writer only.
#[derive(Debug, Clone, Copy)]
pub struct RingWriter<'a, A: Writable> {
    ring: Ring<'a, A>,
}

impl<'a, A: Writable> RingWriter<'a, A> {
    /// The writer of the ring whose header starts `region` (its capacity checked now).
    pub fn new(region: Region<'a, A>, spec: RingSpec) -> Result<Self, RingError> {
        Ok(RingWriter {
            ring: Ring::new(region, spec)?,
        })
    }

    /// Appends `entry` (a whole entry, its size field equal to its length; its `seq` field is
    /// set here), after a padding entry when it does not fit before the area's end,
    /// overwriting the oldest entries as needed. Returns the entry's `seq`; `BadEntry` for an
    /// entry that is not whole or longer than the area, `Positions` for a `write_pos` that is
    /// not a multiple of 8 or whose entry would end past `u64::MAX` (nothing is written).
    pub fn push(&self, entry: &mut [u8]) -> Result<u64, RingError> {
        let r = &self.ring;
        let (spec, f, cap) = (r.spec, r.spec.entry, r.capacity);
        let len = entry.len() as u64;
        if len % 8 != 0
            || entry.len() < f.header.max(spec.seq + 8)
            || f.size.read(entry) != Some(len)
            || f.kind.read(entry) == Some(f.padding)
            || len > cap
        {
            return Err(RingError::BadEntry { len: entry.len() });
        }
        let write = r.region.load::<u64>(spec.write_pos, Relaxed);
        let stored = r.region.load::<u64>(spec.tail_pos, Relaxed);
        let mut tail = stored;
        if write % 8 != 0 {
            return Err(RingError::Positions {
                tail: stored,
                write,
            });
        }
        if tail > write || write - tail > cap || tail % 8 != 0 {
            // Not what this writer left: start the ring over from here (the new tail is
            // stored below, so that readers see it too).
            tail = write;
        }
        let to_end = cap - write % cap;
        let pad = if len > to_end { to_end } else { 0 };
        // Where the entry ends: checked, as a position just under u64::MAX would wrap.
        let Some(end) = pad
            .checked_add(len)
            .and_then(|bytes| write.checked_add(bytes))
        else {
            return Err(RingError::Positions {
                tail: stored,
                write,
            });
        };
        // Move the tail past every entry the new bytes overwrite, before writing them.
        while tail < write && end - tail > cap {
            let (size, padding) = r.head(tail);
            if !r.fits(tail, size, padding, write - tail) {
                tail = write;
                break;
            }
            tail += size;
        }
        if end - tail > cap {
            tail = write + pad;
        }
        if tail != stored {
            // Release: a reader that loads this tail (acquire) then loads write_pos sees at
            // least the write_pos stored before it, so the tail is never more than one entry
            // (and its padding) ahead of what it sees.
            r.region.store::<u64>(spec.tail_pos, tail, Release);
        }
        // Orders the tail's store before the bytes below: a reader whose copy saw any of them
        // sees the new tail after its acquire fence, and throws the copy away.
        fence(Release);
        if pad > 0 {
            let mut word = [0u8; 8];
            f.size.put(&mut word, pad);
            f.kind.put(&mut word, f.padding);
            r.region.write_bytes(r.at(write), &word)?;
        }
        let seq = r.region.load::<u64>(spec.entries, Relaxed);
        entry[spec.seq..spec.seq + 8].copy_from_slice(&seq.to_le_bytes());
        r.region.write_bytes(r.at(write + pad), entry)?;
        // A count, not a position: it wraps, as the readers' expected seq does.
        r.region
            .store::<u64>(spec.entries, seq.wrapping_add(1), Relaxed);
        r.region.store::<u64>(spec.write_pos, end, Release);
        Ok(seq)
    }
}

/// A reader's side: its position, and the entry a lap left to hand out. Any number of
/// readers, each with its own.
#[derive(Debug, Clone)]
pub struct RingReader<'a, A: Access> {
    ring: Ring<'a, A>,
    cursor: u64,
    next_seq: Option<u64>,
    /// The entry read when a lap was found, handed out by the next call.
    pending: Option<Vec<u8>>,
    /// A lap found with no entry after it yet: reported with the next entry, whose seq says
    /// exactly how many were missed.
    late_lap: bool,
    laps: u64,
}

impl<'a, A: Access> RingReader<'a, A> {
    /// A reader of the ring whose header starts `region`, joining at the newest position:
    /// it reads what is written from now on. The entries counter it starts from is loaded
    /// with the position but not atomically with it: joining while the writer writes, a lap
    /// before the first read may count one entry more or less as missed.
    pub fn join_latest(region: Region<'a, A>, spec: RingSpec) -> Result<Self, RingError> {
        let ring = Ring::new(region, spec)?;
        let cursor = ring.region.load::<u64>(spec.write_pos, Acquire);
        let next_seq = Some(ring.region.load::<u64>(spec.entries, Acquire));
        aligned(ring.region.load::<u64>(spec.tail_pos, Relaxed), cursor)?;
        Ok(RingReader {
            ring,
            cursor,
            next_seq,
            pending: None,
            late_lap: false,
            laps: 0,
        })
    }

    /// A reader joining at the oldest whole entry still in the ring. In an empty ring it
    /// expects the next entry the writer writes; otherwise the first entry it reads sets
    /// what it expects (entries overwritten before that are not counted as missed).
    pub fn join_oldest(region: Region<'a, A>, spec: RingSpec) -> Result<Self, RingError> {
        let ring = Ring::new(region, spec)?;
        let entries = ring.region.load::<u64>(spec.entries, Acquire);
        let write = ring.region.load::<u64>(spec.write_pos, Acquire);
        let cursor = ring.region.load::<u64>(spec.tail_pos, Acquire);
        aligned(cursor, write)?;
        Ok(RingReader {
            ring,
            cursor,
            next_seq: (cursor == write).then_some(entries),
            pending: None,
            late_lap: false,
            laps: 0,
        })
    }

    /// Times this reader was lapped.
    pub fn laps(&self) -> u64 {
        self.laps
    }

    /// The next entry, copied into `out` (cleared first): an entry, `Empty`, or
    /// `Lapped { missed }` when the writer overwrote entries this reader had not read (the
    /// next call returns the oldest entry still there; a lap found with no entry after it
    /// yet is reported with the first entry after it, whose seq counts the missed exactly).
    /// Never a torn entry.
    pub fn read_next(&mut self, out: &mut Vec<u8>) -> Result<Read, RingError> {
        if let Some(entry) = self.pending.take() {
            *out = entry;
            return Ok(Read::Entry(out.len()));
        }
        out.clear();
        let r = self.ring;
        let spec = r.spec;
        let mut lapped = core::mem::take(&mut self.late_lap);
        let mut unsettled = 0;
        // Each turn moves the cursor on by at least 8 bytes, or to a newer tail: a writer can
        // keep a reader here for at most as long as it keeps writing, bounded anyway.
        for _ in 0..=2 * r.capacity / 8 + 2 {
            // write_pos first: the tail loaded after it is no older, so an honest writer
            // never shows write - tail > capacity (a tail loaded first, then a write_pos a
            // few entries on, would, on a full ring).
            let write = r.region.load::<u64>(spec.write_pos, Acquire);
            let tail = r.region.load::<u64>(spec.tail_pos, Acquire);
            // Never a moment's state: every position the writer stores is a multiple of 8.
            aligned(tail, write)?;
            if tail > write || write - tail > r.capacity || self.cursor > write {
                // The two are not loaded together: a writer that wrote a whole capacity
                // between the loads shows tail > write for a moment. Only a writer that
                // keeps showing it is broken.
                unsettled += 1;
                if unsettled < 8 {
                    crate::sync::spin_loop();
                    continue;
                }
                return Err(RingError::Positions { tail, write });
            }
            unsettled = 0;
            if self.cursor < tail {
                self.cursor = tail;
                lapped = true;
                continue;
            }
            if self.cursor == write {
                // A lap with no entry after it yet is reported with the first entry after
                // it, so that the entries read and missed always add up.
                self.late_lap = lapped;
                return Ok(Read::Empty);
            }
            let (size, padding) = r.head(self.cursor);
            if !r.fits(self.cursor, size, padding, write - self.cursor) {
                // A size torn by an overwrite, or a broken writer: the re-check decides.
                fence(Acquire);
                if r.region.load::<u64>(spec.tail_pos, Relaxed) > self.cursor {
                    continue;
                }
                return Err(RingError::EntrySize {
                    at: self.cursor,
                    size,
                });
            }
            if !padding {
                out.resize(size as usize, 0);
                r.region.read_bytes(r.at(self.cursor), out);
            }
            // The copy is whole only if the writer did not move the tail past it meanwhile.
            // (Left out by the loom negative control `ring_tail_fence`.)
            if !crate::sync::mutated("ring_tail_fence") {
                fence(Acquire);
            }
            if r.region.load::<u64>(spec.tail_pos, Relaxed) > self.cursor {
                out.clear();
                continue;
            }
            self.cursor += size;
            if padding {
                continue;
            }
            let seq = u64::from_le_bytes(out[spec.seq..spec.seq + 8].try_into().unwrap_or([0; 8]));
            let expected = self.next_seq.unwrap_or(seq);
            self.next_seq = Some(seq.wrapping_add(1));
            // An entry older than expected is not a gap: a reader that joined while the
            // writer wrote may have taken the entries counter one entry ahead.
            if lapped || seq > expected {
                self.pending = Some(core::mem::take(out));
                self.laps += 1;
                return Ok(Read::Lapped {
                    missed: seq.saturating_sub(expected),
                });
            }
            return Ok(Read::Entry(size as usize));
        }
        self.late_lap = lapped;
        Ok(Read::Empty)
    }
}
