//! What a host puts back in the regions a session's row owned when it frees the row (a
//! reload frees every row), so that the row's next client finds each protocol as a new image
//! leaves it. The host calls these while the row is retired (closing: no client can claim
//! it), before it stores `free`. The generated host (`<Session>Host::free`) calls them for
//! every region of every block the row owns (a `blocks` row with `owner` in the schema).
//!
//! A queue needs nothing: what the old client pushed is the host's to read (it drains the
//! row's queue before the free), and the positions go on for the next client.
//!
//! A client that has not yet noticed it lost the row may still store into these regions
//! after they are restored; its writers check the row's standing before each write, so that
//! window is one write long.

use core::sync::atomic::Ordering::{Acquire, Release};

use crate::error::Contended;

use crate::list_exchange::ListSpec;
use crate::mailbox::MailboxSpec;
use crate::raw::{Region, Writable};

/// A mailbox: a request that waits is answered with status 0 and no text (stored as the
/// server stores an answer: the status and lengths, then `response_seq` = the request,
/// release), so the next client's first request is not refused as busy, and a client still
/// polling for the old request gets an answer that says it was never served.
///
/// [`Contended`] when a store into a word the old client keeps changing gave up.
pub fn mailbox<A: Writable>(region: Region<'_, A>, spec: MailboxSpec) -> Result<(), Contended> {
    let request = region.load::<u32>(spec.request_seq, Acquire);
    if region.load::<u32>(spec.response_seq, Acquire) == request {
        return Ok(());
    }
    crate::mailbox::answer_fields(region, spec, (0, 0, 0), request)
}

/// An exchange: its state word back to the schema's initial state (release). The next
/// client's writer starts from it; the host takes a new reader for the row.
///
/// [`Contended`] when the old client keeps changing the state word's other bytes.
pub fn exchange<A: Writable>(region: Region<'_, A>, spec: ListSpec) -> Result<(), Contended> {
    region.try_store::<u32>(spec.state, spec.initial_state, Release)
}

/// A run of words the session's host alone writes in an owned block (the generator's
/// `plan::host_words`, restored ones only): in the block's header (`region` `None`) or in the
/// header of the region of row `region` of the block's table, `count` words of `width` bytes
/// (1, 2, 4 or 8) back to back from `at` bytes from its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostWord {
    /// The region's row in the block's table; `None` for the block's own header.
    pub region: Option<usize>,
    /// From the start of the block's header or of the region.
    pub at: usize,
    /// Bytes of each word.
    pub width: usize,
    /// Words in the run.
    pub count: usize,
}

impl HostWord {
    /// The run of `count` words of `width` bytes from `at` of the header of `region` (`None`:
    /// the block's own), as generated code lists them.
    pub const fn run(region: Option<usize>, at: usize, width: usize, count: usize) -> Self {
        Self {
            region,
            at,
            width,
            count,
        }
    }
}

/// Every word of the runs `words` in block `block` (placed as the host laid it out) of the mapping
/// `region`, stored back as the laid-out image `laid_out` has it (relaxed: the free's release
/// store of the row's state publishes them), each with one store of its width. A word whose
/// region the layout left out, or that the mapping does not hold, is skipped.
///
/// [`Contended`] when a store into a word the old client keeps changing gave up.
pub fn host_words<A: Writable>(
    region: Region<'_, A>,
    laid_out: &crate::laid_out::LaidOut,
    block: &crate::attach::PlacedTable,
    words: &[HostWord],
) -> Result<(), Contended> {
    use core::sync::atomic::Ordering::Relaxed;
    for w in words {
        let start = match w.region {
            None => Some(block.base),
            Some(r) => block.row(r).map(|p| p.offset),
        };
        let Some(first) = start.and_then(|s| s.checked_add(w.at)) else {
            continue;
        };
        for k in 0..w.count {
            let Some(at) = k.checked_mul(w.width).and_then(|o| first.checked_add(o)) else {
                break;
            };
            let Some(value) = crate::spec::read_le(laid_out.bytes(), at, w.width) else {
                continue;
            };
            if region.covers(at, at.saturating_add(w.width)).is_err() || at % w.width != 0 {
                continue;
            }
            match w.width {
                1 => region.try_store::<u8>(at, value as u8, Relaxed)?,
                2 => region.try_store::<u16>(at, value as u16, Relaxed)?,
                4 => region.try_store::<u32>(at, value as u32, Relaxed)?,
                _ => region.try_store::<u64>(at, value, Relaxed)?,
            }
        }
    }
    Ok(())
}
