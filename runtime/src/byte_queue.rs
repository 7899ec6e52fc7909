//! A single-writer, single-reader queue of variable-size entries in a byte area (the bridge's
//! client log queue): the writer never overwrites what the reader has not consumed; an entry
//! that does not fit is dropped and counted. Positions are 64-bit counts of bytes ever
//! written and consumed, and never wrap.
//!
//! Orderings, as rtrb's and the Linux perf ring's: the writer copies an entry in whole words
//! (relaxed), then stores `write_pos` with release; the reader loads `write_pos` with acquire,
//! copies, then stores `read_pos` with release, which the writer loads with acquire before it
//! reuses the bytes. Everything the other side wrote (the capacity, both positions, each
//! entry's size and kind) is checked before use: a hostile or broken peer gives a named
//! [`QueueError`], never a panic, a hang, an unbounded allocation or an access outside the
//! region.

use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};

use crate::entry_parts::PartError;
use crate::raw::{Access, Region, Writable};
pub use crate::spec::EntryFormat;
pub use crate::spec::GeometryFrom;
use crate::spec::{Field, area_capacity};

/// Where a queue keeps its fields, from the start of its header, and its entries' format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueSpec {
    /// `u64`: bytes ever written (the writer's).
    pub write_pos: usize,
    /// `u64`: bytes ever consumed (the reader's).
    pub read_pos: usize,
    /// `u64`: entries dropped because they did not fit (the writer's).
    pub dropped: usize,
    /// The capacity of the area in bytes (the writer of the header sets it once).
    pub capacity: Field,
    /// Where the area starts, from the header's start.
    pub area: usize,
    /// The entries' format.
    pub entry: EntryFormat,
}

/// Why a queue cannot be used, or what a broken peer wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueueError {
    /// The capacity is 0, not a multiple of 8, or past the region.
    Capacity {
        /// The capacity field.
        found: u64,
        /// The bytes the region has for the area.
        room: u64,
    },
    /// `write_pos` is behind `read_pos`, or more than the capacity ahead of it, or either
    /// is not a multiple of 8; or (to the writer) so close to `u64::MAX` that the entry
    /// pushed would end past it. No honest peer writes these: positions count bytes, and
    /// never reach 2^64.
    Positions {
        /// `read_pos`.
        read: u64,
        /// `write_pos`.
        write: u64,
    },
    /// An entry's size is 0, not a multiple of 8, under its header, past the written bytes
    /// or past the end of the area.
    EntrySize {
        /// The entry's position (bytes consumed before it).
        at: u64,
        /// Its size field.
        size: u64,
    },
    /// The entry given to [`ByteQueue::push`] is not a whole entry of this format (its size
    /// field is not its length, a multiple of 8, at least the header; or it is padding).
    BadEntry {
        /// Its length.
        len: usize,
    },
    /// A part of an entry (its source, its text) longer than its bound, or running past
    /// its entry ([`crate::entry_parts`]).
    Part(PartError),
    /// A store into a word whose other bytes the peer kept changing gave up
    /// ([`crate::Contended`]); the queue's positions were not moved.
    Contended {
        /// The compare-exchanges tried.
        tries: u32,
    },
}

impl From<crate::error::Contended> for QueueError {
    fn from(e: crate::error::Contended) -> Self {
        Self::Contended { tries: e.tries }
    }
}

impl From<PartError> for QueueError {
    fn from(e: PartError) -> Self {
        Self::Part(e)
    }
}

impl QueueError {
    /// The error's snake_case name.
    pub fn check(&self) -> &'static str {
        match self {
            Self::Capacity { .. } => "queue_capacity",
            Self::Positions { .. } => "queue_positions",
            Self::EntrySize { .. } => "queue_entry_size",
            Self::BadEntry { .. } => "queue_bad_entry",
            Self::Part(e) => e.check(),
            Self::Contended { .. } => "queue_contended",
        }
    }
}

impl core::fmt::Display for QueueError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Capacity { found, room } => write!(
                f,
                "queue: capacity {found}, expected a multiple of 8 from 8 to {room}"
            ),
            Self::Positions { read, write } => write!(
                f,
                "queue: write_pos {write} and read_pos {read} are not in order within the capacity"
            ),
            Self::EntrySize { at, size } => {
                write!(f, "queue: the entry at {at} has size {size}")
            }
            Self::BadEntry { len } => write!(f, "queue: a {len}-byte entry is not a whole entry"),
            Self::Part(e) => write!(f, "queue: {e}"),
            Self::Contended { tries } => {
                write!(f, "queue: {}", crate::error::Contended { tries: *tries })
            }
        }
    }
}

impl std::error::Error for QueueError {
    /// The part's own error, for [`QueueError::Part`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Part(e) => Some(e),
            _ => None,
        }
    }
}

/// What [`ByteQueue::push`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// The entry is in the queue.
    Written,
    /// It did not fit: dropped, and counted in `dropped`.
    Dropped,
}

/// What [`ByteQueue::pop`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Popped {
    /// An entry of this many bytes, copied into the buffer given.
    Entry(usize),
    /// Nothing to read.
    Empty,
}

/// A queue at the start of a region: its header, then its area.
#[derive(Debug, Clone, Copy)]
pub struct ByteQueue<'a, A: Access> {
    region: Region<'a, A>,
    spec: QueueSpec,
    capacity: u64,
}

impl<'a, A: Access> ByteQueue<'a, A> {
    /// The queue whose header starts `region`; its capacity is read and checked now (a
    /// multiple of 8 that fits the region after the area's start).
    pub fn new(region: Region<'a, A>, spec: QueueSpec) -> Result<Self, QueueError> {
        Self::with_geometry(region, spec, GeometryFrom::Mapping)
    }

    /// [`Self::new`] with the capacity read from `from`: the host's side gives the header
    /// as it laid it out, so a client's write to the capacity never reaches it.
    pub fn with_geometry(
        region: Region<'a, A>,
        spec: QueueSpec,
        from: GeometryFrom<'_>,
    ) -> Result<Self, QueueError> {
        let capacity = area_capacity(region, spec.capacity, spec.area, from)
            .map_err(|(found, room)| QueueError::Capacity { found, room })?;
        Ok(ByteQueue {
            region,
            spec,
            capacity,
        })
    }

    /// The area's bytes.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Entries the writer dropped so far.
    pub fn dropped(&self) -> u64 {
        self.region.load::<u64>(self.spec.dropped, Relaxed)
    }

    /// Both positions, checked: multiples of 8 (every entry's size is), and
    /// `read <= write <= read + capacity`. An unaligned `read_pos` would put an entry's
    /// first word past the area's end.
    fn positions(&self, read: u64, write: u64) -> Result<(), QueueError> {
        if read % 8 != 0 || write % 8 != 0 || write < read || write - read > self.capacity {
            return Err(QueueError::Positions { read, write });
        }
        Ok(())
    }
}

impl<'a, A: Writable> ByteQueue<'a, A> {
    /// The writer's side: copies `entry` (a whole entry, its size field equal to its length)
    /// into the queue, after a padding entry when it does not fit before the area's end, and
    /// publishes it (release). When there is no room, the entry is dropped and counted.
    /// One writer only.
    pub fn push(&self, entry: &[u8]) -> Result<Pushed, QueueError> {
        let f = self.spec.entry;
        let len = entry.len();
        let size = f.size.read(entry);
        if len % 8 != 0 || len < f.header || size != Some(len as u64) {
            return Err(QueueError::BadEntry { len });
        }
        if f.kind.read(entry) == Some(f.padding) {
            return Err(QueueError::BadEntry { len });
        }
        let write = self.region.load::<u64>(self.spec.write_pos, Relaxed);
        let read = self.region.load::<u64>(self.spec.read_pos, Acquire);
        self.positions(read, write)?;
        let at = write % self.capacity;
        let to_end = self.capacity - at;
        let pad = if (len as u64) > to_end { to_end } else { 0 };
        // Where the entry ends: checked, as a position just under u64::MAX would wrap.
        let Some(end) = pad
            .checked_add(len as u64)
            .and_then(|bytes| write.checked_add(bytes))
        else {
            return Err(QueueError::Positions { read, write });
        };
        let free = self.capacity - (write - read);
        if end - write > free {
            self.region.fetch_add::<u64>(self.spec.dropped, 1, Relaxed);
            return Ok(Pushed::Dropped);
        }
        if pad > 0 {
            let mut word = [0u8; 8];
            f.size.put(&mut word, pad);
            f.kind.put(&mut word, f.padding);
            self.region.write_bytes(self.at(at), &word)?;
        }
        // write + pad <= end: no overflow.
        let start = (write + pad) % self.capacity;
        self.region.write_bytes(self.at(start), entry)?;
        // Release publishes the entry's bytes (relaxed under the loom negative control
        // `queue_publish_relaxed`, which loom must catch).
        let publish = if crate::sync::mutated("queue_publish_relaxed") {
            Relaxed
        } else {
            Release
        };
        self.region.store::<u64>(self.spec.write_pos, end, publish);
        Ok(Pushed::Written)
    }

    /// The reader's side: copies the next entry into `out` (cleared first), skipping padding,
    /// and frees its bytes for the writer (release). `Empty` when there is none. A size the
    /// writer wrote that cannot be right is an error and consumes nothing. One reader only.
    pub fn pop(&self, out: &mut Vec<u8>) -> Result<Popped, QueueError> {
        out.clear();
        // Each turn consumes at least 8 bytes of padding: a writer that writes nothing but
        // padding cannot keep the reader here longer than one area's worth.
        for _ in 0..=self.capacity / 8 {
            let read = self.region.load::<u64>(self.spec.read_pos, Relaxed);
            let write = self.region.load::<u64>(self.spec.write_pos, Acquire);
            self.positions(read, write)?;
            if write == read {
                return Ok(Popped::Empty);
            }
            let at = read % self.capacity;
            let mut word = [0u8; 8];
            self.region.read_bytes(self.at(at), &mut word);
            let f = self.spec.entry;
            let size = f.size.read(&word).unwrap_or(0);
            let padding = f.kind.read(&word) == Some(f.padding);
            let least = if padding { 8 } else { f.header as u64 };
            if size % 8 != 0 || size < least || size > write - read || size > self.capacity - at {
                return Err(QueueError::EntrySize { at: read, size });
            }
            if padding {
                self.region
                    .store::<u64>(self.spec.read_pos, read + size, Release);
                continue;
            }
            out.resize(size as usize, 0);
            self.region.read_bytes(self.at(at), out);
            self.region
                .store::<u64>(self.spec.read_pos, read + size, Release);
            return Ok(Popped::Entry(size as usize));
        }
        Ok(Popped::Empty)
    }

    /// The region offset of area offset `at`.
    fn at(&self, at: u64) -> usize {
        self.spec.area + at as usize
    }
}
