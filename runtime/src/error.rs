//! The errors of building regions, reading seqlocks and changing part of a word, with messages
//! saying what was expected and what was found.

use core::fmt;

/// A region could not be built: a pointer, an offset or a length does not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionError {
    kind: RegionErrorKind,
}

/// What was wrong, with the numbers involved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegionErrorKind {
    /// The pointer was null.
    Null,
    /// An address was not a multiple of the alignment it needs.
    Misaligned {
        /// The address found.
        address: usize,
        /// The alignment expected, in bytes.
        align: usize,
    },
    /// A byte range does not fit in the region.
    OutOfBounds {
        /// The range's first byte, relative to the region.
        offset: usize,
        /// The range's length in bytes.
        len: usize,
        /// The region's length in bytes.
        region_len: usize,
    },
    /// A length above `isize::MAX`, or one that runs past the end of the address space.
    TooLarge {
        /// The region's first address.
        address: usize,
        /// Its length in bytes.
        len: usize,
    },
    /// A store into a word whose other bytes a peer kept changing gave up ([`Contended`]).
    Contended {
        /// The compare-exchanges tried.
        tries: u32,
    },
    /// A ring's slots that a reader cannot use: none, or slots smaller than a slot's
    /// header and the fixed part after it, or not a multiple of their alignment.
    SlotGeometry {
        /// Slots asked for.
        count: usize,
        /// Bytes per slot asked for.
        size: usize,
        /// The fewest bytes a slot needs.
        least: usize,
        /// The alignment a slot's size must be a multiple of.
        align: usize,
    },
}

impl RegionError {
    /// What was wrong.
    pub fn kind(&self) -> RegionErrorKind {
        self.kind
    }
}

impl From<Contended> for RegionError {
    fn from(e: Contended) -> Self {
        RegionErrorKind::Contended { tries: e.tries }.into()
    }
}

impl From<RegionErrorKind> for RegionError {
    fn from(kind: RegionErrorKind) -> Self {
        RegionError { kind }
    }
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            RegionErrorKind::Null => {
                f.write_str("region pointer is null; expected the address of mapped memory")
            }
            RegionErrorKind::Misaligned { address, align } => write!(
                f,
                "address {address:#x} is misaligned: expected a multiple of {align}, \
                 found {address:#x} % {align} = {}",
                address % align.max(1)
            ),
            RegionErrorKind::OutOfBounds {
                offset,
                len,
                region_len,
            } => write!(
                f,
                "bytes at offset {offset}, length {len} are out of bounds: expected offset + \
                 length <= {region_len} (the region's length), found {}",
                match offset.checked_add(len) {
                    Some(end) => end.to_string(),
                    None => "an overflow".to_string(),
                }
            ),
            RegionErrorKind::TooLarge { address, len } => write!(
                f,
                "region of {len} bytes at {address:#x} is too large: expected length <= {} and \
                 address + length <= {:#x}",
                isize::MAX,
                usize::MAX
            ),
            RegionErrorKind::Contended { tries } => Contended { tries }.fmt(f),
            RegionErrorKind::SlotGeometry {
                count,
                size,
                least,
                align,
            } => write!(
                f,
                "{count} slots of {size} bytes cannot be read: expected at least 1 slot, each \
                 of at least {least} bytes and a multiple of {align}"
            ),
        }
    }
}

impl std::error::Error for RegionError {}

/// A seqlock read gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SeqLockError {
    /// Every try found a write in progress (odd sequence) or a write in between (changed
    /// sequence): the writer is faster than the copy, or died mid-write.
    Contended {
        /// How many tries were made.
        tries: u32,
    },
}

impl fmt::Display for SeqLockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SeqLockError::Contended { tries } => write!(
                f,
                "seqlock read gave up after {tries} tries: expected an even sequence number that \
                 is unchanged after the copy, found a write in progress or in between every time"
            ),
        }
    }
}

impl std::error::Error for SeqLockError {}

/// How many compare-exchanges a change of part of a word makes before it gives up with
/// [`Contended`]: a sub-word store, swap or add, a compare-exchange of a sub-word or of one
/// byte, and a copy's first and last word when it covers them in part.
///
/// Such a change is a compare-exchange loop on the whole `u64` (see the crate docs), which
/// fails only when some byte of that `u64` changed between its load and its exchange (or,
/// on LL/SC machines, spuriously). An honest peer changes its own bytes a few times per
/// message, so 1024 failures in a row mean a peer writing the word without pause: a hostile
/// or broken peer, which gets a named error instead of a hang.
pub const CAS_TRIES: u32 = 1024;

/// A change of part of a word gave up: [`CAS_TRIES`] compare-exchanges in a row failed
/// because other bytes of the same `u64` kept changing. Nothing was changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contended {
    /// How many compare-exchanges were tried.
    pub tries: u32,
}

impl fmt::Display for Contended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "gave up changing part of a word after {} compare-exchanges: expected the other \
             bytes of its u64 to stay unchanged between a load and an exchange, found them \
             changed every time (a peer writing that word without pause)",
            self.tries
        )
    }
}

impl std::error::Error for Contended {}
