//! The host's memory of its clients' rows, which says when one is hung: a claimed or active
//! row whose state, generation and heartbeat have not changed for longer than the session's
//! hung time of the host's own clock.
//!
//! The rule, the same in every language the generator writes:
//! - a free or closing row is never hung (a closing row said goodbye: the host frees it);
//! - a claimed or active row is hung when its (state, generation, heartbeat) is the one the
//!   host saw first more than `hung_ns` ago. A change of any of the three (a heartbeat, the
//!   claim becoming active, a new claim) starts the time again, so a row the host sees claimed
//!   for the first time gets a whole `hung_ns` of grace, heartbeat or not, and a row stuck in
//!   claimed (its client died between claim and activate) is hung after `hung_ns` as well.
//!
//! Only the host's clock is compared with itself: the heartbeat the client wrote is a value
//! that must change, never a time the host trusts. A client whose clock jumps, or that
//! writes `u64::MAX`, neither makes itself immortal nor gets itself freed early. The host
//! calls [`HungWatch::is_hung`] with any monotonic clock of its own in nanoseconds, the same
//! one every time (Rust: `Instant`; C: `CLOCK_MONOTONIC` or `QueryPerformanceCounter`;
//! Python: `time.monotonic_ns()`); a reading older than the row's first sighting counts as
//! no time passed.

/// What the host saw of one row, and when it first saw it so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sighting {
    state: u32,
    generation: u32,
    beat: u64,
    since_ns: u64,
}

/// The host's memory of `rows` rows, for [`HungWatch::is_hung`]. Host-local (never in
/// shared memory); one per table the host watches.
#[derive(Debug, Clone)]
pub struct HungWatch {
    hung_ns: u64,
    seen: Vec<Option<Sighting>>,
}

/// A row as the host loaded it: its state, its generation and its heartbeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSeen {
    /// The row's state.
    pub state: u32,
    /// The row's generation.
    pub generation: u32,
    /// The row's heartbeat, whatever the client wrote.
    pub beat: u64,
    /// Whether the state is claimed or active (the states that can hang).
    pub in_use: bool,
}

impl HungWatch {
    /// A watch of `rows` rows, a row hung after `hung_ns` nanoseconds without a change.
    pub fn new(rows: usize, hung_ns: u64) -> Self {
        HungWatch {
            hung_ns,
            seen: vec![None; rows],
        }
    }

    /// The hung time, in nanoseconds.
    pub fn hung_ns(&self) -> u64 {
        self.hung_ns
    }

    /// Whether row `index`, as the host loaded it at `now_ns`, is hung (module docs). False
    /// for a row past the watch's rows, and for a row not in use (which the watch forgets).
    pub fn is_hung(&mut self, index: usize, row: RowSeen, now_ns: u64) -> bool {
        let Some(slot) = self.seen.get_mut(index) else {
            return false;
        };
        if !row.in_use {
            *slot = None;
            return false;
        }
        match slot {
            Some(s)
                if s.state == row.state && s.generation == row.generation && s.beat == row.beat =>
            {
                now_ns.saturating_sub(s.since_ns) > self.hung_ns
            }
            _ => {
                *slot = Some(Sighting {
                    state: row.state,
                    generation: row.generation,
                    beat: row.beat,
                    since_ns: now_ns,
                });
                false
            }
        }
    }

    /// Forgets row `index` (the host freed it).
    pub fn forget(&mut self, index: usize) {
        if let Some(slot) = self.seen.get_mut(index) {
            *slot = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HUNG: u64 = 1_000_000_000;

    fn row(state: u32, generation: u32, beat: u64) -> RowSeen {
        RowSeen {
            state,
            generation,
            beat,
            in_use: state == 1 || state == 2,
        }
    }

    #[test]
    fn a_row_never_heartbeated_gets_its_grace_then_is_hung() {
        let mut w = HungWatch::new(4, HUNG);
        // Active with heartbeat 0, first seen long after the host's clock started.
        assert!(!w.is_hung(0, row(2, 1, 0), 50 * HUNG));
        assert!(!w.is_hung(0, row(2, 1, 0), 51 * HUNG));
        assert!(w.is_hung(0, row(2, 1, 0), 51 * HUNG + 1));
    }

    #[test]
    fn a_row_stuck_claimed_is_hung_and_each_change_starts_the_time_again() {
        let mut w = HungWatch::new(4, HUNG);
        assert!(!w.is_hung(1, row(1, 7, 0), 10));
        assert!(w.is_hung(1, row(1, 7, 0), 10 + HUNG + 1));
        // Activated: a change.
        assert!(!w.is_hung(1, row(2, 7, 0), 10 + HUNG + 2));
        // A heartbeat: a change, whatever its value.
        assert!(!w.is_hung(1, row(2, 7, u64::MAX), 10 + 2 * HUNG + 3));
        assert!(!w.is_hung(1, row(2, 7, u64::MAX), 10 + 3 * HUNG + 3));
        assert!(w.is_hung(1, row(2, 7, u64::MAX), 10 + 3 * HUNG + 4));
        // A new claim of the row (generation 8): a change.
        assert!(!w.is_hung(1, row(1, 8, u64::MAX), 10 + 3 * HUNG + 5));
    }

    #[test]
    fn free_and_closing_rows_are_never_hung_and_are_forgotten() {
        let mut w = HungWatch::new(4, HUNG);
        assert!(!w.is_hung(2, row(0, 3, 5), 0));
        assert!(!w.is_hung(2, row(0, 3, 5), 10 * HUNG));
        assert!(!w.is_hung(2, row(3, 3, 5), 20 * HUNG));
        assert!(!w.is_hung(2, row(2, 3, 5), 30 * HUNG));
        assert!(!w.is_hung(2, row(0, 3, 5), 31 * HUNG));
        // Forgotten while free: the same active row again gets a new grace.
        assert!(!w.is_hung(2, row(2, 3, 5), 40 * HUNG));
        w.forget(2);
        assert!(!w.is_hung(2, row(2, 3, 5), 42 * HUNG));
    }

    #[test]
    fn a_clock_going_back_and_rows_past_the_watch_are_not_hung() {
        let mut w = HungWatch::new(1, HUNG);
        assert!(!w.is_hung(0, row(2, 1, 1), 5 * HUNG));
        assert!(!w.is_hung(0, row(2, 1, 1), 0));
        assert!(!w.is_hung(1, row(2, 1, 1), 0));
        assert!(!w.is_hung(usize::MAX, row(2, 1, 1), u64::MAX));
        w.forget(usize::MAX);
    }
}
