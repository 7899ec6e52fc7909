//! The vocabulary the protocols' specs share, so that no protocol imports another: a header
//! [`Field`] and its acquire load, a byte area's checked capacity, an entry's format, and the
//! word a session's state and generation share.

use core::sync::atomic::Ordering;

use crate::raw::{Access, Region};

/// An unsigned little-endian integer field: its offset from the start of its record, and
/// its width in bytes (1, 2, 4 or 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// From the start of the record.
    pub offset: usize,
    /// 1, 2, 4 or 8.
    pub width: usize,
}

impl Field {
    /// The field at `offset` from the start of its record, `width` bytes wide: what generated
    /// specs write, one short call per field (a `const fn`, for their `static`s).
    #[must_use]
    pub const fn new(offset: usize, width: usize) -> Self {
        Field { offset, width }
    }

    /// The field in a record copied into `bytes` (little-endian), or `None` when `bytes` does
    /// not hold it.
    pub(crate) fn read(self, bytes: &[u8]) -> Option<u64> {
        read_le(bytes, self.offset, self.width)
    }

    /// Writes `value` (its low `width` bytes, little-endian) into the field of `bytes`.
    pub(crate) fn put(self, bytes: &mut [u8], value: u64) {
        bytes[self.offset..self.offset + self.width]
            .copy_from_slice(&value.to_le_bytes()[..self.width]);
    }
}

/// The unsigned little-endian integer of `width` bytes (1, 2, 4 or 8) at `at` of `bytes`, or
/// `None` when they are not all inside (or `width` is not one of those).
pub(crate) fn read_le(bytes: &[u8], at: usize, width: usize) -> Option<u64> {
    if !matches!(width, 1 | 2 | 4 | 8) {
        return None;
    }
    let bytes = bytes.get(at..at.checked_add(width)?)?;
    Some(
        bytes
            .iter()
            .rev()
            .fold(0, |acc, &b| (acc << 8) | u64::from(b)),
    )
}

/// How an entry says what it is: its size field (the bytes of the whole entry, a multiple of
/// 8), its kind field and the kind that marks padding, and the bytes of its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryFormat {
    /// The entry's size in bytes, from the entry's start; inside its first 8 bytes.
    pub size: Field,
    /// The entry's kind, from the entry's start; inside its first 8 bytes.
    pub kind: Field,
    /// The kind of a padding entry: it fills the area to its end, and the next entry starts at
    /// offset 0. A padding entry may be as short as 8 bytes.
    pub padding: u64,
    /// The least size of any other entry: its header.
    pub header: usize,
}

/// The 8-aligned `u64` word that holds both the state and the generation, when they share
/// one: where it is, and which half holds the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedWord {
    /// The word's offset in the row.
    pub at: usize,
    /// Whether the state is the low half (at `at`) and the generation the high one.
    pub state_low: bool,
}

impl SharedWord {
    /// (state, generation) of `word`.
    pub fn split(self, word: u64) -> (u32, u32) {
        let (low, high) = (word as u32, (word >> 32) as u32);
        if self.state_low {
            (low, high)
        } else {
            (high, low)
        }
    }

    /// The word holding `state` and `generation`.
    pub fn join(self, state: u32, generation: u32) -> u64 {
        let (low, high) = if self.state_low {
            (state, generation)
        } else {
            (generation, state)
        };
        u64::from(low) | u64::from(high) << 32
    }
}

/// Where a protocol's side reads the geometry of its header (capacities, sizes): the mapping,
/// for a side that attached (the host wrote it), or the host's own copy of the header as it
/// laid it out ([`crate::laid_out::LaidOut::header`]): a client can write every byte of its
/// blocks, so the host never reads its own geometry back from them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeometryFrom<'g> {
    /// The header in the mapping (acquire loads).
    Mapping,
    /// The header's bytes as the host laid them out (from the header's start).
    LaidOut(&'g [u8]),
}

impl GeometryFrom<'_> {
    /// Field `f` of the header: from the mapping `region`, or from the laid-out bytes (0 when
    /// they do not hold it).
    pub(crate) fn load<A: Access>(self, region: Region<'_, A>, f: Field) -> u64 {
        match self {
            GeometryFrom::Mapping => load_field(region, f),
            GeometryFrom::LaidOut(bytes) => f.read(bytes).unwrap_or(0),
        }
    }
}

/// The capacity field `f` of an area of entries at `area` of `region` (read from `from`),
/// checked: a multiple of 8 from 8 to the bytes the region has after `area` (itself a
/// multiple of 8). Else the capacity found and that room.
pub(crate) fn area_capacity<A: Access>(
    region: Region<'_, A>,
    f: Field,
    area: usize,
    from: GeometryFrom<'_>,
) -> Result<u64, (u64, u64)> {
    let found = from.load(region, f);
    let room = region.len().saturating_sub(area) as u64;
    if found == 0 || found % 8 != 0 || found > room || area % 8 != 0 {
        return Err((found, room));
    }
    Ok(found)
}

/// A header field of 1, 2, 4 or 8 bytes, loaded with acquire (0 when it is not inside the
/// region, or misaligned).
pub(crate) fn load_field<A: Access>(region: Region<'_, A>, f: Field) -> u64 {
    load_uint(&region, f.offset, f.width, Ordering::Acquire).unwrap_or(0)
}

/// One atomic load of `width` bytes at `at`, with `order`.
pub(crate) fn load_uint<A: crate::raw::Access>(
    region: &Region<'_, A>,
    at: usize,
    width: usize,
    order: Ordering,
) -> Option<u64> {
    if !matches!(width, 1 | 2 | 4 | 8) {
        return None;
    }
    let word = region.sub(at, width, width).ok()?;
    Some(match width {
        1 => u64::from(word.load::<u8>(0, order)),
        2 => u64::from(word.load::<u16>(0, order)),
        4 => u64::from(word.load::<u32>(0, order)),
        _ => word.load::<u64>(0, order),
    })
}
