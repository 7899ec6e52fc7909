//! Claimed rows: a claim bumps the generation, activate and close move the state, a row the
//! host freed or another client claimed is noticed and never changed, and four clients
//! racing for one free row (threads, released together each round) win it exactly once per
//! round and notice every time the host frees it under them.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use abi_runtime::SharedBuf;
use abi_runtime::claim::{Claim, ClaimSpec, Standing, free, retire};

/// The bridge's `client_entry`: state u32 at 0 (free 0, claimed 1, active 2, closing 3),
/// generation u32 at 4; rows 128 bytes apart.
use crate::bridge_specs;

/// The bridge's `client_entry` row: state and generation share its first word.
const SPEC: ClaimSpec = bridge_specs::ROW;

#[test]
fn a_claim_activates_and_closes_and_notices_the_host() {
    let buf = SharedBuf::new(2 * 128);
    let rows = || (0..2).map(|i| buf.region().sub(i * 128, 128, 8).unwrap());
    let (i, claim) = Claim::claim_first(rows(), SPEC).expect("a free row");
    assert_eq!((i, claim.generation()), (0, 1));
    assert_eq!(claim.standing(), Standing::Connected);
    assert_eq!(claim.activate(), Standing::Connected);
    assert_eq!(buf.region().load::<u32>(0, Ordering::Relaxed), 2);
    let (j, other) = Claim::claim_first(rows(), SPEC).expect("the second row");
    assert_eq!(j, 1);
    assert!(Claim::claim_first(rows(), SPEC).is_none(), "no free row");
    // The host frees row 0; another client claims it: the first notices, and its close
    // changes nothing.
    free(claim.row(), SPEC).unwrap();
    assert_eq!(
        claim.standing(),
        Standing::Disconnected {
            state: 0,
            generation: 1
        }
    );
    let (k, thief) = Claim::claim_first(rows(), SPEC).unwrap();
    assert_eq!((k, thief.generation()), (0, 2));
    assert_eq!(
        claim.activate(),
        Standing::Disconnected {
            state: 1,
            generation: 2
        }
    );
    assert_eq!(
        claim.close(),
        Standing::Disconnected {
            state: 1,
            generation: 2
        }
    );
    assert_eq!(
        buf.region().load::<u32>(0, Ordering::Relaxed),
        1,
        "untouched"
    );
    assert_eq!(thief.close(), Standing::Connected, "closing from claimed");
    assert_eq!(buf.region().load::<u32>(0, Ordering::Relaxed), 3);
    assert_eq!(other.activate(), Standing::Connected);
    assert_eq!(other.close(), Standing::Connected);
}

/// Four clients race for one row each round while a host thread serves it: every third
/// round the host retires and frees the row at once, racing the winner's activation and its
/// standing checks (the winner notices, before or after it activated); in the others the
/// winner closes and the host frees the row after it.
#[test]
fn clients_racing_for_a_row_win_it_once_each_round_and_notice_the_host() {
    let rounds: u64 = if cfg!(miri) { 10 } else { 5_000 };
    let buf = SharedBuf::new(128);
    let row = buf.region();
    // Four clients and the host.
    let barrier = Barrier::new(5);
    let (claims, lost) = (AtomicU64::new(0), AtomicU64::new(0));
    let (noticed, before_activation) = (AtomicU64::new(0), AtomicU64::new(0));
    thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for k in 0..rounds {
                    // All four try the same free row at once.
                    barrier.wait();
                    let won = Claim::try_claim(row, SPEC);
                    barrier.wait();
                    let Some(claim) = won else {
                        lost.fetch_add(1, Ordering::Relaxed);
                        barrier.wait();
                        continue;
                    };
                    claims.fetch_add(1, Ordering::Relaxed);
                    assert_eq!(claim.generation(), k as u32 + 1, "one claim per round");
                    if k % 3 == 0 {
                        // The host frees the row meanwhile: the client notices, whether its
                        // activation came first or not.
                        if claim.activate() != Standing::Connected {
                            before_activation.fetch_add(1, Ordering::Relaxed);
                        }
                        let mut polls = 0u64;
                        while claim.standing() == Standing::Connected {
                            polls += 1;
                            assert!(polls < 1 << 24, "the host's free is never seen");
                            thread::yield_now();
                        }
                        noticed.fetch_add(1, Ordering::Relaxed);
                        assert_ne!(claim.close(), Standing::Connected);
                    } else {
                        assert_eq!(claim.activate(), Standing::Connected);
                        assert_eq!(claim.close(), Standing::Connected);
                    }
                    barrier.wait();
                }
            });
        }
        // The host.
        s.spawn(|| {
            for k in 0..rounds {
                barrier.wait();
                barrier.wait();
                if k % 3 == 0 {
                    retire(row, SPEC).unwrap();
                    free(row, SPEC).unwrap();
                    barrier.wait();
                } else {
                    barrier.wait();
                    free(row, SPEC).unwrap();
                }
            }
        });
    });
    let (claims, lost) = (claims.into_inner(), lost.into_inner());
    let (noticed, before) = (noticed.into_inner(), before_activation.into_inner());
    eprintln!(
        "lifecycle race: {claims} claims, {lost} claims lost to another client, {noticed} frees \
         noticed ({before} before the client activated, {} after)",
        noticed - before
    );
    assert_eq!(
        (claims, lost),
        (rounds, 3 * rounds),
        "exactly one winner per round"
    );
    assert_eq!(noticed, rounds.div_ceil(3), "every free noticed");
}
