//! Bounded inflation of one zlib stream: never more than the size the stream's record
//! declares plus one byte (to tell "more than declared"), and never more than
//! [`MAX_INFLATED`], so that a zip bomb cannot exhaust memory.

use flate2::{Decompress, FlushDecompress, Status};

use crate::ir::file::MAX_INFLATED;

/// What inflating a stream gave: the bytes, and how the stream ended.
pub(super) struct Inflated {
    pub bytes: Vec<u8>,
    pub end: StreamEnd,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum StreamEnd {
    /// The stream's end marker, after `used` of the input's bytes.
    Complete { used: u64 },
    /// The input ended before the stream did.
    Short,
    /// Not a zlib stream, or a damaged one.
    Corrupt(String),
    /// It inflates to more than `limit` bytes (what was inflated up to it is kept).
    TooLong { limit: u64 },
}

/// Inflates `stored` (a zlib stream with its header), expecting `raw` bytes.
pub(super) fn inflate(stored: &[u8], raw: u64) -> Inflated {
    let limit = raw.min(MAX_INFLATED);
    let mut out: Vec<u8> = Vec::with_capacity(limit.min(16 << 20) as usize + 1);
    let mut z = Decompress::new(true);
    loop {
        let done_in = z.total_in() as usize;
        if out.len() == out.capacity() {
            let room = (limit + 1 - out.len() as u64).min(16 << 20);
            out.reserve_exact(room as usize);
        }
        let before_out = z.total_out();
        let result = z.decompress_vec(&stored[done_in..], &mut out, FlushDecompress::None);
        if out.len() as u64 > limit {
            out.truncate(limit as usize);
            let end = StreamEnd::TooLong { limit };
            return Inflated { bytes: out, end };
        }
        let end = match result {
            Ok(Status::StreamEnd) => StreamEnd::Complete { used: z.total_in() },
            Err(e) => StreamEnd::Corrupt(e.to_string()),
            Ok(_) if z.total_in() as usize == stored.len() && z.total_out() == before_out => {
                StreamEnd::Short
            }
            Ok(_) if z.total_in() as usize == done_in && z.total_out() == before_out => {
                StreamEnd::Short
            }
            Ok(_) => continue,
        };
        return Inflated { bytes: out, end };
    }
}
