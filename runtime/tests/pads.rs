//! Pads bound while the host frees (`abi_runtime::pads`), on real threads: a client claims
//! a row and binds its pad at once, while the host frees the row as soon as it sees it
//! claimed. Every slot is a fresh row and pad word, so each race is checked once both sides
//! are done: no pad is left bound to its freed row, and the counts show that both orders
//! happened (the host's sweep let a bind go, and a bind that landed after the sweep was
//! undone by its client's re-check: issue 46's race).

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Acquire, Release};
use std::thread;

use abi_runtime::SharedBuf;
use abi_runtime::claim::{self, Claim, ClaimSpec, Standing};
use abi_runtime::pads::{self, Bind, PadWord};

/// A row's state and generation in one word at 0, as the bridge's rows have them.
const CLAIM: ClaimSpec = crate::bridge_specs::ROW;

/// A slot: the row's word at 0, then the four owner bytes at 8.
const SLOT: usize = 16;
const PADS: PadWord = PadWord {
    at: 8,
    count: 4,
    unbound: 255,
};
/// The row's index, as its owner bytes hold it, and the pad the client binds.
const OWN: u8 = 2;
const PAD: usize = 1;

const SLOTS: usize = if cfg!(miri) { 40 } else { 20_000 };
/// Turns the host waits for a slot's claim before it gives that slot up.
const WAIT: usize = 1 << 20;

#[derive(Debug, Default)]
struct Counts {
    bound: usize,
    undone: usize,
    refused: usize,
    swept: usize,
    unclaimed: usize,
}

#[test]
fn a_bind_racing_the_hosts_free_never_outlives_it() {
    let mut bytes = vec![0u8; SLOTS * SLOT];
    for slot in bytes.chunks_mut(SLOT) {
        slot[8..12].copy_from_slice(&[255; 4]);
    }
    let buf = SharedBuf::from_bytes(&bytes);
    let r = buf.region();
    let slot = |i: usize| r.sub(i * SLOT, SLOT, 8).unwrap();
    let mut counts = Counts::default();
    let turn = AtomicUsize::new(0);
    let binds: Vec<Bind> = thread::scope(|s| {
        let client = s.spawn(|| {
            (0..SLOTS)
                .map(|i| {
                    // In step with the host: slot i once the host waits for it, then a
                    // varying few turns between the claim and the bind, so that the host's
                    // free meets each step of the bind.
                    while turn.load(Acquire) < i {
                        std::hint::spin_loop();
                    }
                    let at = slot(i);
                    let claim = Claim::try_claim(at.sub(0, 8, 8).unwrap(), CLAIM)
                        .expect("a fresh row is free");
                    for _ in 0..i % 64 {
                        std::hint::spin_loop();
                    }
                    let stands = || claim.standing() == Standing::Connected;
                    pads::bind::<u32, _>(at, PADS, PAD, OWN, stands).unwrap()
                })
                .collect()
        });
        for i in 0..SLOTS {
            turn.store(i, Release);
            let row = slot(i).sub(0, 8, 8).unwrap();
            let claimed = (0..WAIT).any(|_| {
                let seen = claim::row_word(row, CLAIM).0 == CLAIM.claimed;
                if !seen {
                    std::hint::spin_loop();
                }
                seen
            });
            if !claimed {
                counts.unclaimed += 1;
                continue;
            }
            claim::retire(row, CLAIM).unwrap();
            counts.swept += pads::sweep::<u32, _>(slot(i), PADS, OWN).unwrap();
            claim::free(row, CLAIM).unwrap();
        }
        client.join().unwrap()
    });
    let mut leaked = 0;
    for (i, bind) in binds.iter().enumerate() {
        match bind {
            Bind::Bound => counts.bound += 1,
            Bind::Lost { undone: true } => counts.undone += 1,
            _ => counts.refused += 1,
        }
        let at = slot(i);
        if at.load::<u32>(8, Acquire).to_ne_bytes()[PAD] == OWN {
            leaked += 1;
        }
        assert_eq!(
            claim::row_word(at, CLAIM).0,
            CLAIM.free,
            "slot {i} not freed"
        );
    }
    eprintln!("pads: {SLOTS} binds against frees: {counts:?}, {leaked} left bound to a freed row");
    assert_eq!(leaked, 0, "pads left bound to a freed row ({counts:?})");
    assert_eq!(counts.unclaimed, 0, "the host gave up waiting for a claim");
    // Both orders happened, so the race was run (not under Miri: too few slots).
    assert!(
        cfg!(miri) || (counts.undone > 0 && counts.swept > 0),
        "the bind never raced the free: {counts:?}"
    );
}
