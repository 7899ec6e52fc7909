//! `inspect` of a layout image: the entries of a queue or a log ring (broadcast) in a region,
//! not only its header. The positions and the capacity are read from the header as the
//! producer left them and checked before use (a position past the area, an entry size that
//! is not a multiple of 8 or runs past the written bytes is an error, and the walk stops);
//! each entry's struct is decoded, its parts' bytes shown as data after it.

use crate::ir::StructId;
use crate::ir::protocol::{Entry, ProtocolKind};
use crate::schema::Schema;

/// A queue or log ring over header `si`: its entry format and the fields holding the
/// oldest position, the write position and the area's capacity.
pub(super) fn protocol_over(
    schema: &Schema,
    si: StructId,
) -> Option<(&Entry, usize, usize, usize)> {
    schema.protocols.iter().find_map(|p| match &p.kind {
        ProtocolKind::Queue(q) if q.header == si => {
            Some((&q.entry, q.read_pos, q.write_pos, q.capacity))
        }
        ProtocolKind::Broadcast(b) if b.header == si => {
            Some((&b.entry, b.tail_pos, b.write_pos, b.capacity))
        }
        _ => None,
    })
}

/// A little-endian unsigned field of `bytes` (a record of struct `si`).
pub(super) fn field(schema: &Schema, si: StructId, fi: usize, bytes: &[u8]) -> Option<u64> {
    let l = schema.layout.of(si).fields.get(fi)?;
    let at = usize::try_from(l.offset).ok()?;
    let width = usize::try_from(l.size).ok()?;
    let raw = bytes.get(at..at.checked_add(width)?)?;
    (width <= 8).then(|| raw.iter().rev().fold(0u64, |v, b| (v << 8) | u64::from(*b)))
}

/// One entry found: where it starts in the area and its whole size.
pub(super) struct Step {
    pub at: u64,
    pub size: u64,
    pub padding: bool,
}

/// The entries from `oldest` to `write`, in an area of `capacity` bytes, each head read by
/// `head(at)` (its bytes, or `None` past the input). `Err` names what is wrong where the
/// walk stopped, after the entries before it. Bounded: each step takes at least 8 bytes.
pub(super) fn walk(
    schema: &Schema,
    entry: &Entry,
    (oldest, write, capacity): (u64, u64, u64),
    head: impl Fn(u64) -> Option<Vec<u8>>,
) -> (Vec<Step>, Option<String>) {
    let mut steps = Vec::new();
    if capacity == 0 || capacity % 8 != 0 {
        return (
            steps,
            Some(format!(
                "capacity {capacity} is not a positive multiple of 8"
            )),
        );
    }
    if oldest % 8 != 0 || write % 8 != 0 || write < oldest || write - oldest > capacity {
        return (
            steps,
            Some(format!(
                "positions {oldest}..{write} do not fit an area of {capacity} bytes"
            )),
        );
    }
    let si = entry.struct_index;
    let mut pos = oldest;
    while pos < write && steps.len() as u64 <= capacity / 8 {
        let at = pos % capacity;
        let Some(bytes) = head(at) else {
            return (
                steps,
                Some(format!("the entry at {at:#x} lies past the input")),
            );
        };
        let size = field(schema, si, entry.size, &bytes).unwrap_or(0);
        let kind = field(schema, si, entry.kind, &bytes).unwrap_or(u64::MAX);
        if size == 0 || size % 8 != 0 || size > write - pos || size > capacity - at {
            return (
                steps,
                Some(format!(
                    "the entry at {at:#x} says {size} bytes: not a multiple of 8 within the {} bytes written",
                    write - pos
                )),
            );
        }
        steps.push(Step {
            at,
            size,
            padding: kind == entry.padding,
        });
        pos += size;
    }
    (steps, None)
}
