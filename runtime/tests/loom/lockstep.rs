//! A loom model of the host's lockstep wait (`abi_runtime::lockstep::wait_answers`, issue 47),
//! with the futex modelled: a bot writes its record under the seqlock with the tick it answers
//! and sets the input event; the host waits for the answer, loading the word before each check
//! and sleeping while it holds what it loaded. The negative control `lockstep_seen_after_check`
//! (the word loaded after the check) lets an answer written between the two slip by: the host
//! sleeps to its deadline with the answer in the record, which the model catches.

use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed as StdRelaxed};
use std::time::{Duration, Instant};

use abi_runtime::lockstep::wait_answers;
use abi_runtime::wake::{self, Setter, Sleeper, Waited};
use abi_runtime::{SeqLock, SharedBuf};
use loom::sync::Arc;
use loom::thread;

use super::model;

/// Executions in which the host slept before the answer came.
static SLEPT: AtomicUsize = AtomicUsize::new(0);

/// The record: its seqlock counter (the input event's word) at 0, the answer's tick at 8.
const SEQ: usize = 0;
const FOR_TICK: usize = 8;

#[test]
fn lockstep_wait_against_the_bots_answer() {
    model("lockstep wait against an answer", || {
        let buf = Arc::new(SharedBuf::new(16));
        let host = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let lock = SeqLock::<u32, _>::new(r, SEQ);
                let sleeper = Sleeper::new(r, SEQ).unwrap();
                let timed_out = std::cell::Cell::new(false);
                let far = Instant::now() + Duration::from_secs(3600);
                let tally = wait_answers(
                    1,
                    far,
                    |_| Some(r.load::<u32>(SEQ, Acquire)),
                    |_| {
                        lock.read(4, || r.load::<u64>(FOR_TICK, Relaxed))
                            .is_ok_and(|t| t == 1)
                    },
                    |_, seen, d| {
                        let w = sleeper.wait(seen, d);
                        timed_out.set(timed_out.get() || w == Waited::TimedOut);
                        w
                    },
                );
                (tally, timed_out.get())
            })
        };
        let bot = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                SeqLock::<u32, _>::new(r, SEQ)
                    .write(|| r.store::<u64>(FOR_TICK, 1, Relaxed))
                    .unwrap();
                Setter::new(r, SEQ).unwrap().after_publish(1, |_| true);
            })
        };
        bot.join().unwrap();
        wake::deadline();
        let (tally, timed_out) = host.join().unwrap();
        if tally.sleeps > 0 {
            SLEPT.fetch_add(1, StdRelaxed);
        }
        assert!(
            !timed_out,
            "lost answer: the host slept to its deadline though the bot had answered ({tally:?})"
        );
        assert_eq!(tally.answered, 1, "{tally:?}");
    });
    let slept = SLEPT.load(StdRelaxed);
    println!("lockstep wait: {slept} executions slept before the answer");
    assert!(slept > 0, "the race was not reached");
}
