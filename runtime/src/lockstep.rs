//! The host's wait for a lockstep tick's answers (the rule is the generator's
//! `plan/lockstep.rs`): after publishing tick `t`, check every pending bot, sleep on the input
//! event of the lowest pending row while its word holds the counter loaded before its check,
//! look again after each wake, and stop when every bot answered or at the deadline, after one
//! last check. A bot still pending then missed `t`. Every round ends by the deadline: a
//! killed, hung or reloaded bot holds the host up no longer than that.
//!
//! The counter is loaded (acquire) **before** the record is checked: an answer written after
//! the load moves the word, so the sleep returns at once. Loaded after the check, an answer
//! written between the two is missed and the host sleeps to its deadline with the answer in
//! the record (`tests/loom/lockstep.rs`, negative control `lockstep_seen_after_check`).

use std::time::{Duration, Instant};

use crate::wake::Waited;

/// What [`wait_answers`] did for one tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// The rows waited for (bit `row`).
    pub bots: u64,
    /// The rows whose answer to the tick was taken.
    pub answered: u64,
    /// The rows that missed the tick (bots not answered by the deadline).
    pub missed: u64,
    /// Sleeps on an input event.
    pub sleeps: u32,
    /// From the call to its return.
    pub waited: Duration,
}

/// Waits until every row of `bots` (bit `row`, rows below 64) answered or `deadline`
/// passed. `counter(row)` loads the row's input word (acquire), `None` when the row has no
/// record (it misses the tick without a wait); `check(row)`, called after it, reads the
/// row's record (the seqlock's bounded tries) and takes an answer to this tick only (true);
/// `sleep(row, seen, deadline)` sleeps on the row's input event while its word holds `seen`.
/// Returns the tally; the caller counts the misses and keeps the missed rows' last answers.
pub fn wait_answers(
    bots: u64,
    deadline: Instant,
    mut counter: impl FnMut(usize) -> Option<u32>,
    mut check: impl FnMut(usize) -> bool,
    mut sleep: impl FnMut(usize, u32, Instant) -> Waited,
) -> Tally {
    let start = Instant::now();
    let mut tally = Tally {
        bots,
        ..Tally::default()
    };
    let mut pending = bots;
    let mut absent = 0u64;
    let mut last_round = false;
    loop {
        // Check every pending bot; remember the lowest's counter to sleep on.
        let mut first: Option<(usize, u32)> = None;
        for row in 0..64 {
            if pending & (1 << row) == 0 {
                continue;
            }
            let seen = if crate::sync::mutated("lockstep_seen_after_check") {
                let answered = check(row);
                counter(row).map(|seen| (seen, answered))
            } else {
                counter(row).map(|seen| (seen, check(row)))
            };
            match seen {
                None => {
                    pending &= !(1 << row);
                    absent |= 1 << row;
                }
                Some((_, true)) => {
                    pending &= !(1 << row);
                    tally.answered |= 1 << row;
                }
                Some((seen, false)) => {
                    if first.is_none() {
                        first = Some((row, seen));
                    }
                }
            }
        }
        let Some((row, seen)) = first else { break };
        if last_round {
            break;
        }
        tally.sleeps += 1;
        if sleep(row, seen, deadline) == Waited::TimedOut || Instant::now() >= deadline {
            // One last check: an answer stored just before the deadline counts.
            last_round = true;
        }
    }
    tally.missed = pending | absent;
    tally.waited = start.elapsed();
    tally
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn every_bot_answering_ends_the_wait_without_a_sleep() {
        let t = wait_answers(
            0b101,
            Instant::now() + Duration::from_secs(5),
            |_| Some(0),
            |_| true,
            |_, _, _| panic!("no sleep"),
        );
        assert_eq!((t.answered, t.missed, t.sleeps), (0b101, 0, 0));
    }

    #[test]
    fn a_bot_that_never_answers_is_missed_at_the_deadline_and_no_later() {
        let timeout = Duration::from_millis(30);
        let start = Instant::now();
        let t = wait_answers(
            0b11,
            start + timeout,
            |_| Some(2),
            |row| row == 0,
            |_, _, d| {
                std::thread::sleep(d.saturating_duration_since(Instant::now()));
                Waited::TimedOut
            },
        );
        assert_eq!((t.answered, t.missed), (0b01, 0b10));
        assert!(start.elapsed() >= timeout);
        assert!(start.elapsed() < timeout + Duration::from_millis(500));
    }

    #[test]
    fn a_wake_means_look_again_and_an_absent_record_is_a_miss() {
        let checks = Cell::new(0);
        let t = wait_answers(
            0b110,
            Instant::now() + Duration::from_secs(5),
            |row| (row != 2).then_some(4),
            |_| {
                checks.set(checks.get() + 1);
                checks.get() >= 3
            },
            |row, seen, _| {
                assert_eq!((row, seen), (1, 4));
                Waited::Woken
            },
        );
        assert_eq!((t.answered, t.missed, t.sleeps), (0b010, 0b100, 2));
    }
}
