//! The `waiting` handshake's litmus test (issue 36, item 8): the store-buffering pattern.
//! The host stores `snapshot_seq`, then loads the row's `waiting`; the client stores
//! `waiting = 1`, then loads `snapshot_seq`. With release stores and acquire loads alone,
//! both loads may read the old values (x86 keeps a store in its store buffer while a later
//! load runs), and the client sleeps through the host's wakeup. The generated helpers put a
//! SeqCst fence between the store and the load on both sides: `Client::set_waiting` (the
//! client's store, then the fence) and `ClientHost::is_waiting` (the fence, then the load).
//!
//! Two threads play the rounds, each starting together after a short random spin; a round
//! is lost when the host saw no waiter and the client saw no new snapshot. The fenced run
//! must lose none and must have raced (rounds in which each side's store came before the
//! other's load, which only overlapping threads produce); the unfenced run, with the same
//! rounds through the plain field accessors, prints its figure for comparison
//! (`bench/README.md`).
#![cfg(not(miri))]

use std::hint::spin_loop;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{Acquire, Release};

use bridge_abi::live::Bridge;
use bridge_abi::runtime::SharedBuf;

const ROUNDS: u64 = 200_000;
const ROW: usize = 1;

/// What the rounds showed: lost wakeups, and rounds in which both stores came before both
/// loads (both sides saw the other's store: the threads overlapped).
#[derive(Debug, Clone, Copy)]
struct Figures {
    lost: u64,
    overlapped: u64,
}

/// A few dozen spins, different each round: the two sides' windows shift against each other.
fn jitter(state: &mut u64) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    for _ in 0..(*state % 64) {
        spin_loop();
    }
}

fn rounds(fenced: bool) -> Figures {
    let image = Bridge::lay_out(
        &[
            ("mailbox.request_capacity", 256),
            ("mailbox.response_capacity", 256),
        ],
        1,
    )
    .expect("lays out");
    let buf = SharedBuf::new(image.bytes.len());
    let bridge = Bridge::produce(buf.region(), &image).expect("produced");
    let client = bridge.claim_client(ROW).expect("row free");
    client.activate();
    let host = bridge.client_host();
    let header = bridge.header();
    let row = header.clients(ROW).expect("row");
    let start = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let (host_saw, client_saw) = std::thread::scope(|s| {
        let h = s.spawn(|| {
            let mut saw = Vec::with_capacity(ROUNDS as usize);
            let mut rng = 0x9E37_79B9_7F4A_7C15u64;
            for k in 1..=ROUNDS {
                while done.load(Acquire) != k - 1 {
                    spin_loop();
                }
                row.set_waiting(0).unwrap();
                start.store(k, Release);
                jitter(&mut rng);
                header.set_snapshot_seq(k).unwrap();
                saw.push(if fenced {
                    host.is_waiting(ROW)
                } else {
                    row.waiting() == 1
                });
            }
            saw
        });
        let c = s.spawn(|| {
            let mut saw = Vec::with_capacity(ROUNDS as usize);
            let mut rng = 0xD1B5_4A32_D192_ED03u64;
            for k in 1..=ROUNDS {
                while start.load(Acquire) != k {
                    spin_loop();
                }
                jitter(&mut rng);
                if fenced {
                    client.set_waiting(true).unwrap();
                } else {
                    row.set_waiting(1).unwrap();
                }
                saw.push(header.snapshot_seq() == k);
                done.store(k, Release);
            }
            saw
        });
        (h.join().unwrap(), c.join().unwrap())
    });
    let pairs = host_saw.iter().zip(&client_saw);
    Figures {
        lost: pairs.clone().filter(|(h, c)| !**h && !**c).count() as u64,
        overlapped: pairs.filter(|(h, c)| **h && **c).count() as u64,
    }
}

#[test]
fn the_fenced_waiting_handshake_loses_no_wakeup() {
    let unfenced = rounds(false);
    let fenced = rounds(true);
    println!(
        "waiting litmus over {ROUNDS} rounds: unfenced {} lost, {} overlapped; fenced {} lost, {} overlapped",
        unfenced.lost, unfenced.overlapped, fenced.lost, fenced.overlapped
    );
    assert!(
        fenced.overlapped > 0,
        "the threads never overlapped: {fenced:?}"
    );
    assert_eq!(
        fenced.lost, 0,
        "a wakeup was lost with the fences: {fenced:?}"
    );
}
