//! A row of a table that clients claim and a host frees (the bridge's client rows): a client
//! claims a free row by compare-and-swap of its state, bumps its generation and keeps the
//! value it got, fills the row in, then marks it active (release). It is still connected while
//! the row holds its generation and a state the host has not freed; a new claim by another
//! client bumps the generation, so a client that lost its row notices. It says goodbye by
//! storing the closing state; the host frees the row.

use core::sync::atomic::Ordering::{Acquire, Release};

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
}

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
    /// Claims `row` if it is free: its state becomes `claimed` (compare-and-swap) and its
    /// generation is bumped. `None` when another client holds it or won the race.
    pub fn try_claim(row: Region<'a, A>, spec: ClaimSpec) -> Option<Self> {
        row.compare_exchange::<u32>(spec.state, spec.free, spec.claimed)
            .ok()?;
        let generation = row
            .fetch_add::<u32>(spec.generation, 1, core::sync::atomic::Ordering::AcqRel)
            .wrapping_add(1);
        Some(Claim {
            row,
            spec,
            generation,
        })
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

    /// Says goodbye: the row's state becomes `closing` (release), for the host to free it.
    /// `Disconnected` when the row was no longer this client's, and then nothing is stored.
    pub fn close(self) -> Standing {
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
        let state = self.row.load::<u32>(self.spec.state, Acquire);
        let generation = self.row.load::<u32>(self.spec.generation, Acquire);
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
        let (s, g) = (self.spec.state, self.spec.generation);
        if s.min(g) % 8 == 0 && s.abs_diff(g) == 4 {
            let word = |state: u32| {
                let (low, high) = if s < g {
                    (state, self.generation)
                } else {
                    (self.generation, state)
                };
                u64::from(low) | u64::from(high) << 32
            };
            return self
                .row
                .compare_exchange::<u64>(s.min(g), word(from), word(to))
                .is_ok();
        }
        self.row.load::<u32>(g, Acquire) == self.generation
            && self.row.compare_exchange::<u32>(s, from, to).is_ok()
            && self.row.load::<u32>(g, Acquire) == self.generation
    }
}

/// The host's side: frees `row` (its state becomes `free`, release), whatever its client
/// does; the client notices at its next [`Claim::standing`].
pub fn free<A: Writable>(row: Region<'_, A>, spec: ClaimSpec) {
    row.store::<u32>(spec.state, spec.free, Release);
}
