//! A triple-buffer exchange of whole lists between one writer and one reader (the bridge's
//! draw lists), as the `triple_buffer` crate: of three buffers the writer owns one, the
//! reader one, and the third is shared. The whole shared state is one word: bits 0-1 hold
//! the shared buffer's index, bit 2 says it is fresh (the writer published it and the reader
//! has not taken it). Both sides swap the word whole (`AcqRel`), so neither ever sees a
//! buffer the other is writing or reading.
//!
//! The convention where the reference is silent: at the start (a new claim of the row, or a
//! host's reload) the state is `1` (the shared buffer is 1, not fresh); the writer starts
//! with buffer 0, the reader with buffer 2. Each side keeps its own index to itself.
//!
//! A publication a free overtook: a writer of the row's last session, preempted
//! between its check of its standing and its publication, may still swap its own buffer in
//! after the host's free put the state back at its start. That one stale publication makes
//! two sides name one buffer, and leaves the buffer it took in exchange to nobody. The reader
//! tells it from a broken writer by what it finds: a correct writer never publishes the
//! reader's own buffer, so a fresh state that names it is the stale publication (the reader
//! shows nothing of it). The reader then waits for the writer's next publication: a writer
//! swaps its own buffer with the shared one, so once the state names another buffer fresh,
//! the writer owns the one the stale publication named, and the buffer nobody owns is the
//! third. The reader takes the fresh one and gives back that third: the three buffers are one
//! each again, and the next session's lists are taken as before. When the writer published
//! over the stale publication before the reader saw it, the writer holds the reader's buffer
//! instead, and the reader's next take gives it back to the writer: the writer finds its own
//! buffer shared and not fresh, knows the reader holds the one it published last, and
//! publishes in place, taking the third ([`TripleWriter::publish`]). A reader absorbs at most
//! [`STALE_GRACE`] such publications (a new reader for each session, as the host takes after a
//! free); past them, or when it waits and finds its own buffer shared and not fresh, the
//! state is refused as a broken writer's (another buffer shared and not fresh is the stale
//! publication taken back by a writer that checks its standing after publishing, as
//! `tests/c_protocols.rs`'s does).

use core::sync::atomic::Ordering::Acquire;

use crate::raw::{Region, Writable};

/// The fresh bit of the state.
pub const FRESH: u32 = 0b100;
/// The state at the start: buffer 1 shared, not fresh (writer 0, reader 2).
pub const INITIAL_STATE: u32 = 1;

/// Compare-exchanges of the state word one call makes at most: an honest peer changes the
/// word at most once per publication, so a call that loses this many times in a row faces a
/// peer that rewrites it nonstop, and gives up rather than spin forever.
pub const TRIES: u32 = 10_000;

/// Publications of the reader's own buffer one reader absorbs before it refuses the state
/// (the module's "A publication a free overtook"): the one write a writer of the last session
/// may still make after the host's free (ATTACH.md, "What a client does when its row is
/// freed"). The schema's plan gives each exchange this number (its `ListSpec`).
pub const STALE_GRACE: u32 = 1;

/// What the other side left in the state word that cannot be right, or a peer that never
/// lets it be exchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExchangeError {
    /// A buffer index past 2, a bit other than the fresh one, or the caller's own buffer
    /// named as the shared one.
    State {
        /// The state word.
        found: u32,
    },
    /// Every one of [`TRIES`] compare-exchanges found the word changed since it was loaded.
    Contended {
        /// The compare-exchanges made.
        tries: u32,
    },
    /// The lists do not fit the region as the header describes them
    /// ([`crate::list_exchange`]): not 3 buffers, a buffer smaller than its list header,
    /// items and payload or misaligned, or the buffers past the region.
    Geometry {
        /// The header's buffer count.
        buffers: u64,
        /// Its bytes from one list to the next.
        buffer_size: u64,
        /// The bytes the region has for the lists.
        room: u64,
    },
    /// A list the writer handed over counts more items or payload than the header allows.
    ListLength {
        /// Which: `count`, `payload_len`.
        field: &'static str,
        /// The length.
        found: u64,
        /// At most.
        limit: u64,
    },
}

impl From<crate::error::Contended> for ExchangeError {
    fn from(e: crate::error::Contended) -> Self {
        Self::Contended { tries: e.tries }
    }
}

impl ExchangeError {
    /// The error's snake_case name.
    pub fn check(&self) -> &'static str {
        match self {
            Self::State { .. } => "exchange_state",
            Self::Contended { .. } => "exchange_contended",
            Self::Geometry { .. } => "exchange_geometry",
            Self::ListLength { .. } => "exchange_list_length",
        }
    }
}

impl core::fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::State { found } => write!(
                f,
                "triple buffer: state {found:#x}, expected a buffer index 0 to 2 (not the caller's own) and the fresh bit"
            ),
            Self::Contended { tries } => write!(
                f,
                "triple buffer: the state word changed under each of {tries} compare-exchanges"
            ),
            Self::Geometry {
                buffers,
                buffer_size,
                room,
            } => write!(
                f,
                "triple buffer: {buffers} lists of {buffer_size} bytes, expected 3 that hold their header, items and payload within {room} bytes"
            ),
            Self::ListLength {
                field,
                found,
                limit,
            } => write!(
                f,
                "triple buffer: list {field} is {found}, expected at most {limit}"
            ),
        }
    }
}

impl std::error::Error for ExchangeError {}

/// The buffers each side owns before the first publication, when the state word is
/// `initial_state`: the writer the lowest index that is not the shared one, the reader the
/// other. An error when `initial_state` is not an index 0 to 2 without the fresh bit.
pub fn starting_buffers(initial_state: u32) -> Result<(usize, usize), ExchangeError> {
    let (shared, fresh) = check(initial_state)?;
    if fresh {
        return Err(ExchangeError::State {
            found: initial_state,
        });
    }
    let writer = (0..3).find(|&i| i != shared).unwrap_or(0);
    let reader = (0..3).rev().find(|&i| i != shared).unwrap_or(2);
    Ok((writer, reader))
}

/// What [`TripleWriter::publish`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    /// The buffer the writer owns now, to fill next.
    pub next: usize,
    /// The reader had not taken the previous list: it is overwritten, never shown.
    pub overwrote: bool,
    /// The state word the publication replaced (what a writer that takes back a publication
    /// a free overtook stores again: not `next`, which differs after a publication in place).
    pub replaced: u32,
}

/// Checks a state word: an index 0 to 2, no other bit than the fresh one.
fn check(state: u32) -> Result<(usize, bool), ExchangeError> {
    let index = (state & 0b11) as usize;
    if index > 2 || state & !(0b11 | FRESH) != 0 {
        return Err(ExchangeError::State { found: state });
    }
    Ok((index, state & FRESH != 0))
}

/// The writer's side: the buffer it fills, and the state word at `state` of `region`.
#[derive(Debug)]
pub struct TripleWriter<'a, A: Writable> {
    region: Region<'a, A>,
    state: usize,
    own: usize,
    /// The buffer it published last, which the reader holds once it took it.
    last: Option<usize>,
}

impl<'a, A: Writable> TripleWriter<'a, A> {
    /// The writer at the start of the convention [`INITIAL_STATE`] (it owns buffer 0);
    /// `state` is the `u32` state word's offset.
    pub fn new(region: Region<'a, A>, state: usize) -> Self {
        TripleWriter {
            region,
            state,
            own: 0,
            last: None,
        }
    }

    /// The writer at the start when the state word starts as `initial_state` (the schema's):
    /// it owns the lowest buffer that is not the shared one ([`starting_buffers`]).
    pub fn starting_from(
        region: Region<'a, A>,
        state: usize,
        initial_state: u32,
    ) -> Result<Self, ExchangeError> {
        let (own, _) = starting_buffers(initial_state)?;
        Ok(TripleWriter {
            region,
            state,
            own,
            last: None,
        })
    }

    /// The buffer the writer owns: fill it, then [`publish`](Self::publish).
    pub fn own(&self) -> usize {
        self.own
    }

    /// Hands the filled buffer over (shared, fresh) and takes the shared one in exchange.
    /// A state the reader cannot have left is an error: nothing is changed, and the writer
    /// keeps its buffer. A peer that changes the word under each of [`TRIES`]
    /// compare-exchanges is `Contended`, and nothing is changed either.
    ///
    /// One state names the writer's own buffer and is still repaired (the module's "A
    /// publication a free overtook"): not fresh, after a publication of its own. The reader
    /// gave back the buffer this writer fills, so a stale publication made both hold it; the
    /// reader took the buffer this writer published last (only the reader clears the fresh
    /// bit). The writer publishes its buffer where it is (own | fresh) and takes the third,
    /// the one nobody owns.
    pub fn publish(&mut self) -> Result<Published, ExchangeError> {
        let mut current = self.region.load::<u32>(self.state, Acquire);
        for _ in 0..TRIES {
            let (index, fresh) = check(current)?;
            let next = match self.last {
                _ if index != self.own => index,
                Some(last)
                    if !fresh && last != self.own && !crate::sync::mutated("draw_stale_writer") =>
                {
                    3 - self.own - last
                }
                _ => return Err(ExchangeError::State { found: current }),
            };
            // A compare-exchange, not a swap: a state that fails the check stays as it is.
            // It fails only when the reader took the shared buffer meanwhile, which it does
            // once per publication.
            match self.region.try_compare_exchange::<u32>(
                self.state,
                current,
                self.own as u32 | FRESH,
            )? {
                Ok(_) => {
                    self.last = Some(self.own);
                    self.own = next;
                    return Ok(Published {
                        next,
                        overwrote: fresh,
                        replaced: current,
                    });
                }
                Err(now) => current = now,
            }
            crate::sync::spin_loop();
        }
        Err(ExchangeError::Contended { tries: TRIES })
    }
}

/// The reader's side: the buffer it reads, the state word, and what it absorbed of stale
/// publications (the module's "A publication a free overtook").
#[derive(Debug)]
pub struct TripleReader<'a, A: Writable> {
    region: Region<'a, A>,
    state: usize,
    own: usize,
    /// Stale publications it may still absorb.
    grace: u32,
    /// The buffer a stale publication named (the reader's own then), while the reader waits
    /// for the writer's next publication.
    stale: Option<usize>,
    /// Stale publications absorbed.
    absorbed: u32,
}

impl<'a, A: Writable> TripleReader<'a, A> {
    /// The reader at the start of the convention [`INITIAL_STATE`] (it owns buffer 2).
    pub fn new(region: Region<'a, A>, state: usize) -> Self {
        TripleReader {
            region,
            state,
            own: 2,
            grace: STALE_GRACE,
            stale: None,
            absorbed: 0,
        }
    }

    /// The reader at the start when the state word starts as `initial_state` (the schema's):
    /// it owns the buffer that is neither shared nor the writer's ([`starting_buffers`]).
    pub fn starting_from(
        region: Region<'a, A>,
        state: usize,
        initial_state: u32,
    ) -> Result<Self, ExchangeError> {
        let (_, own) = starting_buffers(initial_state)?;
        Ok(TripleReader {
            region,
            state,
            own,
            grace: STALE_GRACE,
            stale: None,
            absorbed: 0,
        })
    }

    /// The same reader absorbing at most `grace` stale publications instead of
    /// [`STALE_GRACE`] (the schema's plan gives the number; 0 refuses the first).
    pub fn with_grace(mut self, grace: u32) -> Self {
        self.grace = grace;
        self
    }

    /// Stale publications this reader absorbed: publications of its own buffer (a writer of
    /// the last session whose publication a free overtook), never shown.
    pub fn absorbed(&self) -> u32 {
        self.absorbed
    }

    /// The buffer the reader owns: the last list it took.
    pub fn own(&self) -> usize {
        self.own
    }

    /// Takes the shared buffer when it is fresh (its buffer goes back, not fresh): the
    /// index of the newest list, or `None` when nothing new was published. A state the
    /// writer cannot have left is an error, and so is a writer that changes the word under
    /// each of [`TRIES`] compare-exchanges (`Contended`); either way nothing is changed.
    ///
    /// A fresh state that names the reader's own buffer is a stale publication (the module's
    /// "A publication a free overtook"): within the reader's grace it is absorbed, `None`,
    /// and the reader waits for the writer's next publication, which it takes giving back the
    /// buffer nobody owns. Past the grace it is an error, as is a state that names the
    /// reader's own buffer not fresh while it waits (a state naming another, not fresh, is
    /// the stale publication taken back by its writer: the reader stops waiting).
    pub fn take(&mut self) -> Result<Option<usize>, ExchangeError> {
        let mut current = self.region.load::<u32>(self.state, Acquire);
        for _ in 0..TRIES {
            let (index, fresh) = check(current)?;
            // What goes back: the reader's own buffer, or while it waits after a stale
            // publication, the one neither the writer (which owns the stale one) nor the
            // state names.
            let give = match self.stale {
                // Not fresh: the stale writer took its publication back (a compare-and-swap
                // of the state to what it was), and the lists are one each again; or, naming
                // the reader's own list, a broken writer.
                Some(stale) if !fresh => {
                    if index == stale {
                        return Err(ExchangeError::State { found: current });
                    }
                    self.stale = None;
                    return Ok(None);
                }
                Some(stale) if index == stale => return Ok(None),
                Some(stale) => 3 - stale - index,
                None if !fresh => return Ok(None),
                None if index == self.own => {
                    if self.absorbed < self.grace && !crate::sync::mutated("draw_stale_grace") {
                        self.absorbed += 1;
                        self.stale = Some(index);
                        return Ok(None);
                    }
                    return Err(ExchangeError::State { found: current });
                }
                None => self.own,
            };
            // It fails only when the writer published again meanwhile: take that one.
            match self
                .region
                .try_compare_exchange::<u32>(self.state, current, give as u32)?
            {
                Ok(_) => {
                    self.own = index;
                    self.stale = None;
                    return Ok(Some(index));
                }
                Err(now) => current = now,
            }
            crate::sync::spin_loop();
        }
        Err(ExchangeError::Contended { tries: TRIES })
    }
}
