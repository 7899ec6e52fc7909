//! The byte strings after a queue's or ring's entry header (the bridge's log source and
//! text): composing a whole entry from a header and its parts, and splitting one back, each
//! part's length field checked against its bound and the entry's size.

use crate::spec::Field;

/// One byte string after the entry's header: the header field holding its length, and the
/// most bytes it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartSpec {
    /// The length field, from the entry's start.
    pub len: Field,
    /// The most bytes the part may hold (the schema's constant).
    pub max: u64,
}

/// A part that cannot be right: too long for its bound, or running past its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PartError {
    /// Part `part` is longer than its bound (or than its length field holds).
    TooLong {
        /// The part's position in the entry.
        part: usize,
        /// Its length.
        len: u64,
        /// At most.
        max: u64,
    },
    /// The parts up to part `part` end past the entry's size.
    PastEntry {
        /// The part's position in the entry.
        part: usize,
        /// Where it ends, from the entry's start.
        end: u64,
        /// The entry's size.
        size: u64,
    },
}

impl PartError {
    /// The error's snake_case name.
    pub fn check(&self) -> &'static str {
        match self {
            Self::TooLong { .. } => "entry_part_too_long",
            Self::PastEntry { .. } => "entry_part_past_entry",
        }
    }
}

impl core::fmt::Display for PartError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::TooLong { part, len, max } => {
                write!(
                    f,
                    "entry: part {part} is {len} bytes, expected at most {max}"
                )
            }
            Self::PastEntry { part, end, size } => write!(
                f,
                "entry: part {part} ends at byte {end}, past the entry's {size} bytes"
            ),
        }
    }
}

impl std::error::Error for PartError {}

/// A whole entry: `header` (the entry struct's bytes: its other fields as the caller set
/// them), then each of `parts` in order, padded with zeros to a multiple of 8; the `size`
/// field holds the whole entry's bytes, the `kind` field `record`, each part's length field
/// its length. An error when a part is longer than its bound or its length field holds, or
/// the entry's size does not fit its size field.
pub fn compose(
    size_field: Field,
    kind: Field,
    record: u64,
    header: &[u8],
    specs: &[PartSpec],
    parts: &[&[u8]],
) -> Result<Vec<u8>, PartError> {
    let mut len = header.len() as u64;
    for (k, (spec, part)) in specs.iter().zip(parts).enumerate() {
        let n = part.len() as u64;
        if n > spec.max || !fits(spec.len, n) {
            return Err(PartError::TooLong {
                part: k,
                len: n,
                max: spec.max,
            });
        }
        len += n;
    }
    let size = len.next_multiple_of(8);
    if !fits(size_field, size) {
        return Err(PartError::TooLong {
            part: specs.len(),
            len: size,
            max: (1u64 << (8 * size_field.width.min(7))) - 1,
        });
    }
    let mut entry = Vec::with_capacity(size as usize);
    entry.extend_from_slice(header);
    for part in parts.iter().take(specs.len()) {
        entry.extend_from_slice(part);
    }
    entry.resize(size as usize, 0);
    size_field.put(&mut entry, size);
    kind.put(&mut entry, record);
    for (spec, part) in specs.iter().zip(parts) {
        spec.len.put(&mut entry, part.len() as u64);
    }
    Ok(entry)
}

/// The parts of a whole entry (a copy) whose header is `header` bytes: each part's length
/// checked against its bound, and all of them against the entry's length.
pub fn split(entry: &[u8], header: usize, specs: &[PartSpec]) -> Result<Vec<Vec<u8>>, PartError> {
    let size = entry.len() as u64;
    let mut at = header as u64;
    let mut out = Vec::with_capacity(specs.len());
    for (k, spec) in specs.iter().enumerate() {
        let len = spec.len.read(entry).unwrap_or(u64::MAX);
        if len > spec.max {
            return Err(PartError::TooLong {
                part: k,
                len,
                max: spec.max,
            });
        }
        // Saturating: a bound of u64::MAX lets a peer's length reach it (then past the entry).
        let end = at.saturating_add(len);
        if end > size {
            return Err(PartError::PastEntry { part: k, end, size });
        }
        out.push(entry[at as usize..end as usize].to_vec());
        at = end;
    }
    Ok(out)
}

/// Whether `value` fits field `f`.
fn fits(f: Field, value: u64) -> bool {
    f.width >= 8 || value >> (8 * f.width) == 0
}
