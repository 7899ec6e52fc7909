//! A loom model of the tick event's waiting handshake (`abi_runtime::wake`, issue 47), with
//! the futex modelled (`src/raw/loom_futex.rs`): the client sleeps in `wait_tick` while the
//! host publishes and sets the event for a row that waits. The negative controls
//! `wake_wait_fence` and `wake_publish_fence` (one of the two SeqCst fences dropped) let both
//! sides read the other's old value: the host wakes no one and the client sleeps through the
//! tick to its deadline, a lost wake-up the model catches.

use std::sync::atomic::Ordering::{Acquire, Release};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed as StdRelaxed};
use std::time::{Duration, Instant};

use abi_runtime::SharedBuf;
use abi_runtime::wake::{self, Setter, Sleeper};
use loom::sync::Arc;
use loom::thread;

use super::model;

/// Executions in which the client really slept (a futex wait), and in which the host set
/// the event for it.
static SLEPT: AtomicUsize = AtomicUsize::new(0);
static WOKE: AtomicUsize = AtomicUsize::new(0);

/// The sequence at 0 (its low half the futex word), the row's waiting flag at 8.
const SEQ: usize = 0;
const WAITING: usize = 8;

/// The client waits for tick 1 from 0; the host publishes it, then sets the event if the row
/// waits. After the host is done, the model's deadline passes: a client still asleep then, or
/// that found the tick only after its deadline, lost the wake-up.
#[test]
fn tick_wait_against_the_hosts_publish() {
    model("tick wait against publish", || {
        let buf = Arc::new(SharedBuf::new(16));
        let client = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let sleeper = Sleeper::new(r, SEQ).unwrap();
                let far = Instant::now() + Duration::from_secs(3600);
                wake::wait_tick(
                    &sleeper,
                    0,
                    far,
                    |w| {
                        r.try_store::<u32>(WAITING, u32::from(w), Release)
                            .map(|()| true)
                    },
                    || r.load::<u64>(SEQ, Acquire),
                )
                .unwrap()
            })
        };
        let host = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                r.store::<u64>(SEQ, 1, Release);
                let setter = Setter::new(r, SEQ).unwrap();
                setter.after_publish(1, |_| r.load::<u32>(WAITING, Acquire) == 1)
            })
        };
        let woke = host.join().unwrap();
        wake::deadline();
        let got = client.join().unwrap();
        if got.sleeps > 0 {
            SLEPT.fetch_add(1, StdRelaxed);
        }
        if woke.rows > 0 {
            WOKE.fetch_add(1, StdRelaxed);
        }
        assert!(
            !got.timed_out,
            "lost wake-up: the client slept to its deadline though tick 1 was published ({got:?}, host {woke:?})"
        );
        assert_eq!(got.seq, Some(1));
    });
    let (slept, woke) = (SLEPT.load(StdRelaxed), WOKE.load(StdRelaxed));
    println!("tick wait: {slept} executions slept, {woke} woken by the host");
    assert!(
        slept > 0 && woke > 0,
        "the race was not reached: {slept} {woke}"
    );
}
