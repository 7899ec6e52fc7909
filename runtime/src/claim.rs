//! A row of a table that clients claim and a host frees (the bridge's client rows): a client
//! claims a free row by compare-and-swap of its state, bumps its generation and keeps the
//! value it got, fills the row in, then marks it active (release). It is still connected while
//! the row holds its generation and a state the host has not freed; a new claim by another
//! client bumps the generation, so a client that lost its row notices. It says goodbye by
//! storing the closing state; the host frees the row.

use core::sync::atomic::Ordering::{AcqRel, Acquire, Release};

use crate::raw::{Region, Writable};

/// Where a row keeps its `u32` state and generation, from the row's start, and the state's
/// values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimSpec {
    /// The `u32` state.
    pub state: usize,
    /// The `u32` generation, bumped by each claim.
    pub generation: usize,
    /// The state of a free row.
    pub free: u32,
    /// The state of a row its client is filling in.
    pub claimed: u32,
    /// The state of a row in use.
    pub active: u32,
    /// The state of a row whose client said goodbye.
    pub closing: u32,
    /// The 8-aligned word the state and the generation share, when they do (every row's
    /// copy 8-aligned): claims, moves and standings then use only that word. The generator
    /// decides it once (its IR's `Session::shared_word`) and writes it here.
    pub word: Option<SharedWord>,
}

/// How many times [`Claim::try_claim`] retries its compare-and-swap while the row stays free
/// (a host that frees and a client that claims may change the word between the load and the
/// swap); then the claim gives up, as if the row were taken.
pub const CLAIM_TRIES: usize = 16;

pub use crate::spec::SharedWord;

/// Whether the row is still the client's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The row holds the client's generation and a state of its own.
    Connected,
    /// The host freed the row, or another client claimed it since: attach and claim again.
    Disconnected {
        /// The row's state now.
        state: u32,
        /// Its generation now.
        generation: u32,
    },
}

/// A claimed row: the row, and the generation the claim gave it.
#[derive(Debug)]
pub struct Claim<'a, A: Writable> {
    row: Region<'a, A>,
    spec: ClaimSpec,
    generation: u32,
}

impl<'a, A: Writable> Claim<'a, A> {
    /// Claims `row` if it is free: its state becomes `claimed` and its generation is bumped.
    /// Where the state and the generation share one 8-aligned word (the bridge's rows), this
    /// is one compare-and-swap of that word, from (free, g) to (claimed, g + 1), so no other
    /// party ever sees the claimed state with the old generation; it is retried, at most
    /// [`CLAIM_TRIES`] times, only while the row stays free. Otherwise a compare-and-swap of
    /// the state, then the generation bumped. `None` when another client holds the row or
    /// won the race.
    pub fn try_claim(row: Region<'a, A>, spec: ClaimSpec) -> Option<Self> {
        if let Some(word) = spec.word {
            let mut found = row.load::<u64>(word.at, Acquire);
            for _ in 0..CLAIM_TRIES {
                let (state, generation) = word.split(found);
                if state != spec.free {
                    return None;
                }
                let generation = generation.wrapping_add(1);
                match row.compare_exchange::<u64>(
                    word.at,
                    found,
                    word.join(spec.claimed, generation),
                ) {
                    Ok(_) => {
                        return Some(Claim {
                            row,
                            spec,
                            generation,
                        });
                    }
                    Err(now) => found = now,
                }
            }
            return None;
        }
        // A peer that keeps changing the state's word is a race lost: nothing was changed.
        row.try_compare_exchange::<u32>(spec.state, spec.free, spec.claimed)
            .ok()?
            .ok()?;
        let Ok(generation) = row.try_fetch_add::<u32>(spec.generation, 1, AcqRel) else {
            // The generation's word kept changing: give the row back (if even that is
            // contended the row stays claimed, for the host to free as a hung client's).
            let _ = row.try_compare_exchange::<u32>(spec.state, spec.claimed, spec.free);
            return None;
        };
        let generation = generation.wrapping_add(1);
        Some(Claim {
            row,
            spec,
            generation,
        })
    }

    /// Gives the row back unused (claimed to free, its generation kept), only while it is
    /// still this claim's and not yet active: a client whose claim must be refused (the host
    /// reloaded or is exiting) undoes it. Whether it moved; `false` when the host freed the
    /// row first (then the host saw the claim, and [`Self::standing`] says it is gone).
    pub fn release(&self) -> bool {
        self.try_move(self.spec.claimed, self.spec.free)
    }

    /// The first free row of `rows` this client wins, with its position.
    pub fn claim_first(
        rows: impl IntoIterator<Item = Region<'a, A>>,
        spec: ClaimSpec,
    ) -> Option<(usize, Self)> {
        rows.into_iter()
            .enumerate()
            .find_map(|(i, row)| Self::try_claim(row, spec).map(|c| (i, c)))
    }

    /// The row.
    pub fn row(&self) -> Region<'a, A> {
        self.row
    }

    /// The generation this claim gave the row.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Marks the row filled in and in use (release: what was written before is visible to
    /// the host that sees it active). `Disconnected` when the row is no longer this
    /// client's, and then nothing is stored.
    pub fn activate(&self) -> Standing {
        if self.try_move(self.spec.claimed, self.spec.active) {
            return Standing::Connected;
        }
        self.standing()
    }

    /// Says goodbye: the row's state becomes `closing` (release), for the host to free it:
    /// `Connected` (stored). `Disconnected` when the row was no longer this client's, and then
    /// nothing is stored. After a goodbye [`Self::standing`] is `Disconnected`: the row is
    /// closing, no longer claimed or active.
    pub fn close(&self) -> Standing {
        if self.try_move(self.spec.active, self.spec.closing)
            || self.try_move(self.spec.claimed, self.spec.closing)
        {
            return Standing::Connected;
        }
        self.standing()
    }

    /// Whether the row is still this client's: its generation is the claim's and its state
    /// is claimed or active (acquire loads).
    pub fn standing(&self) -> Standing {
        let (state, generation) = row_word(self.row, self.spec);
        let own = state == self.spec.claimed || state == self.spec.active;
        if own && generation == self.generation {
            Standing::Connected
        } else {
            Standing::Disconnected { state, generation }
        }
    }

    /// From state `from` to `to`, only while the generation is the claim's; whether it
    /// moved. Where the state and the generation share one 8-aligned word (the bridge's
    /// rows: state at 0, generation at 4), one compare-and-swap of that word checks both, so
    /// a row the host freed and another client claimed meanwhile is never changed. Otherwise
    /// the generation is checked before the state's compare-and-swap and after it.
    fn try_move(&self, from: u32, to: u32) -> bool {
        if let Some(word) = self.spec.word {
            return self
                .row
                .compare_exchange::<u64>(
                    word.at,
                    word.join(from, self.generation),
                    word.join(to, self.generation),
                )
                .is_ok();
        }
        let g = self.spec.generation;
        // A state word the peer keeps changing (`Contended`) does not move.
        self.row.load::<u32>(g, Acquire) == self.generation
            && self
                .row
                .try_compare_exchange::<u32>(self.spec.state, from, to)
                .is_ok_and(|moved| moved.is_ok())
            && self.row.load::<u32>(g, Acquire) == self.generation
    }
}

/// The row's state and generation (acquire): one load of their shared word when they share
/// one, so the pair is never torn.
pub fn row_word<A: crate::raw::Access>(row: Region<'_, A>, spec: ClaimSpec) -> (u32, u32) {
    match spec.word {
        Some(word) => word.split(row.load::<u64>(word.at, Acquire)),
        None => (
            row.load::<u32>(spec.state, Acquire),
            row.load::<u32>(spec.generation, Acquire),
        ),
    }
}

/// The host's side, first step of a free: the row is retired (its state becomes `closing`,
/// a swap, acquire-release), so that its client sees it gone and no client can claim it
/// while the host restores what the row owned. Returns the state it had. Then [`free`].
///
/// The state is a lane of a word the client writes too (the generation, where they share
/// one), so this is a compare-exchange loop that keeps the client's bytes, bounded:
/// [`Contended`](crate::Contended) (and the row not retired) when the client changed them
/// before each of [`CAS_TRIES`](crate::CAS_TRIES) exchanges.
pub fn retire<A: Writable>(
    row: Region<'_, A>,
    spec: ClaimSpec,
) -> Result<u32, crate::error::Contended> {
    row.try_swap::<u32>(spec.state, spec.closing, AcqRel)
}

/// The host's side: frees `row` (its state becomes `free`, release), whatever its client
/// does; the client notices at its next [`Claim::standing`]. A host that restores what the
/// row owned calls [`retire`] first, restores, then this. Bounded as [`retire`] is.
pub fn free<A: Writable>(
    row: Region<'_, A>,
    spec: ClaimSpec,
) -> Result<(), crate::error::Contended> {
    // Release: a claim that finds the row free sees what the host did before (a reload's new
    // generation). Relaxed under the loom negative control `claim_free_relaxed`.
    let order = if crate::sync::mutated("claim_free_relaxed") {
        core::sync::atomic::Ordering::Relaxed
    } else {
        Release
    };
    row.try_store::<u32>(spec.state, spec.free, order)
}

/// A host's reload whose free of some rows gave up ([`Contended`](crate::Contended)): every
/// row was tried, the host's generation bumped first. The same report as C's
/// `_reload` (`IBF_CONTENDED`, its `was` and `contended` arrays) and Python's `reload()`
/// (`ContendedError` with `freed` and `contended`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReloadContended {
    /// The rows that were claimed or active and were freed.
    pub freed: Vec<usize>,
    /// The rows whose free gave up: each left as it was, or retired (no client can claim it
    /// until a later free succeeds). Every row when the host's generation could not be
    /// bumped (then nothing was freed).
    pub contended: Vec<usize>,
}

impl core::fmt::Display for ReloadContended {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "reload: the free of rows {:?} gave up, a word the client shares kept changing (rows {:?} were freed)",
            self.contended, self.freed
        )
    }
}

impl std::error::Error for ReloadContended {}
