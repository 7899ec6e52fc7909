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

use core::sync::atomic::Ordering::Acquire;

use crate::raw::{Region, Writable};

/// The fresh bit of the state.
pub const FRESH: u32 = 0b100;
/// The state at the start: buffer 1 shared, not fresh (writer 0, reader 2).
pub const INITIAL_STATE: u32 = 1;

/// What the other side left in the state word that cannot be right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadState {
    /// The state word.
    pub found: u32,
}

impl core::fmt::Display for BadState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "triple buffer: state {:#x}, expected a buffer index 0 to 2 and the fresh bit",
            self.found
        )
    }
}

impl std::error::Error for BadState {}

/// What [`TripleWriter::publish`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    /// The buffer the writer owns now, to fill next.
    pub next: usize,
    /// The reader had not taken the previous list: it is overwritten, never shown.
    pub overwrote: bool,
}

/// Checks a state word: an index 0 to 2, no other bit than the fresh one.
fn check(state: u32) -> Result<(usize, bool), BadState> {
    let index = (state & 0b11) as usize;
    if index > 2 || state & !(0b11 | FRESH) != 0 {
        return Err(BadState { found: state });
    }
    Ok((index, state & FRESH != 0))
}

/// The writer's side: the buffer it fills, and the state word at `state` of `region`.
#[derive(Debug)]
pub struct TripleWriter<'a, A: Writable> {
    region: Region<'a, A>,
    state: usize,
    own: usize,
}

impl<'a, A: Writable> TripleWriter<'a, A> {
    /// The writer at the start (it owns buffer 0); `state` is the `u32` state word's offset.
    pub fn new(region: Region<'a, A>, state: usize) -> Self {
        TripleWriter {
            region,
            state,
            own: 0,
        }
    }

    /// The buffer the writer owns: fill it, then [`publish`](Self::publish).
    pub fn own(&self) -> usize {
        self.own
    }

    /// Hands the filled buffer over (shared, fresh) and takes the shared one in exchange.
    /// A state the reader cannot have left is an error: nothing is changed, and the writer
    /// keeps its buffer.
    pub fn publish(&mut self) -> Result<Published, BadState> {
        let mut current = self.region.load::<u32>(self.state, Acquire);
        loop {
            let (index, fresh) = check(current)?;
            if index == self.own {
                return Err(BadState { found: current });
            }
            // A compare-exchange, not a swap: a state that fails the check stays as it is.
            // It fails only when the reader took the shared buffer meanwhile, which it does
            // once per publication.
            match self
                .region
                .compare_exchange::<u32>(self.state, current, self.own as u32 | FRESH)
            {
                Ok(_) => {
                    self.own = index;
                    return Ok(Published {
                        next: index,
                        overwrote: fresh,
                    });
                }
                Err(now) => current = now,
            }
        }
    }
}

/// The reader's side: the buffer it reads, and the state word.
#[derive(Debug)]
pub struct TripleReader<'a, A: Writable> {
    region: Region<'a, A>,
    state: usize,
    own: usize,
}

impl<'a, A: Writable> TripleReader<'a, A> {
    /// The reader at the start (it owns buffer 2).
    pub fn new(region: Region<'a, A>, state: usize) -> Self {
        TripleReader {
            region,
            state,
            own: 2,
        }
    }

    /// The buffer the reader owns: the last list it took.
    pub fn own(&self) -> usize {
        self.own
    }

    /// Takes the shared buffer when it is fresh (its buffer goes back, not fresh): the
    /// index of the newest list, or `None` when nothing new was published.
    pub fn take(&mut self) -> Result<Option<usize>, BadState> {
        let mut current = self.region.load::<u32>(self.state, Acquire);
        loop {
            let (index, fresh) = check(current)?;
            if !fresh {
                return Ok(None);
            }
            if index == self.own {
                return Err(BadState { found: current });
            }
            // It fails only when the writer published again meanwhile: take that one.
            match self
                .region
                .compare_exchange::<u32>(self.state, current, self.own as u32)
            {
                Ok(_) => {
                    self.own = index;
                    return Ok(Some(index));
                }
                Err(now) => current = now,
            }
        }
    }
}
