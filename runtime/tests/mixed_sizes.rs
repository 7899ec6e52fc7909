//! Sound by construction: safe code that races accesses of *different* sizes to the same bytes
//! (byte stores against a u32 compare-exchange, u16 fetch-adds in neighbouring lanes, unaligned
//! copies over all of them) is free of data races, because every access the runtime makes is
//! to the whole u64 that holds the bytes. Miri (`cargo miri test -p abi-runtime`) checks the
//! memory model; the counts check that no update was lost.

use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::thread;

use abi_runtime::{SeqLock, SeqLockError, SharedBuf};

const ROUNDS: u32 = if cfg!(miri) { 60 } else { 100_000 };

#[test]
fn neighbouring_lanes_of_one_word_never_lose_an_update() {
    let buf = SharedBuf::new(16);
    let region = buf.region();
    thread::scope(|s| {
        // Four u16 counters in one u64, each incremented by two threads, while a fifth
        // thread copies the word's bytes unaligned (offset 1, 6 bytes) and a sixth toggles a
        // byte of the next word with a u32 compare-exchange of the bytes around it.
        for lane in 0..4 {
            for _ in 0..2 {
                s.spawn(move || {
                    // An add that finds the word changing under each of its CAS_TRIES
                    // compare-and-swaps is Contended and added nothing: it is tried again
                    // (bounded), so that every add lands once.
                    for _ in 0..ROUNDS {
                        let landed = (0..10_000)
                            .any(|_| region.try_fetch_add::<u16>(2 * lane, 1, Relaxed).is_ok());
                        assert!(landed, "an add stayed contended for 10,000 tries");
                    }
                });
            }
        }
        s.spawn(move || {
            let mut out = [0u8; 6];
            for _ in 0..ROUNDS {
                region.read_bytes(1, &mut out);
            }
        });
        s.spawn(move || {
            for i in 0..ROUNDS {
                let old = region.load::<u32>(8, Acquire);
                let _ = region.try_compare_exchange::<u32>(8, old, old.wrapping_add(1));
                region.try_store::<u8>(13, i as u8, Relaxed).unwrap();
            }
        });
    });
    for lane in 0..4 {
        assert_eq!(
            u32::from(region.load::<u16>(2 * lane, Acquire)),
            (2 * ROUNDS) % 65536,
            "lane {lane}"
        );
    }
    assert_eq!(
        region.load::<u32>(8, Acquire),
        ROUNDS,
        "every u32 exchange landed"
    );
    assert_eq!(region.load::<u8>(13, Acquire), (ROUNDS - 1) as u8);
}

#[test]
fn copies_of_different_ranges_race_without_mixing_sizes() {
    // A writer stores 24 bytes at offset 3 while readers copy ranges that start and end at
    // other offsets: each chooses its own range, as a lapped ring reader whose `size` came
    // from another publication would.
    let buf = SharedBuf::new(40);
    let region = buf.region();
    let lock_at = 32;
    let lock = SeqLock::<u64>::new(region, lock_at);
    let retries: u32 = thread::scope(|s| {
        s.spawn(move || {
            for i in 0..ROUNDS {
                let byte = (i % 251) as u8;
                lock.try_write(|| region.write_bytes(3, &[byte; 24]))
                    .unwrap();
            }
        });
        let readers: Vec<_> = [(0, 32), (5, 9), (3, 24)]
            .into_iter()
            .map(|(offset, len)| {
                s.spawn(move || {
                    let mut out = vec![0u8; len];
                    let mut retries = 0;
                    for _ in 0..ROUNDS / 4 {
                        let (copy, failed) = lock
                            .read_counted(u32::MAX, || {
                                region.read_bytes(offset, &mut out);
                                out.clone()
                            })
                            .unwrap();
                        retries += failed;
                        let inside: Vec<u8> = (offset..offset + len)
                            .filter(|at| (3..27).contains(at))
                            .map(|at| copy[at - offset])
                            .collect();
                        assert!(inside.windows(2).all(|w| w[0] == w[1]), "a torn copy");
                    }
                    retries
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap()).sum()
    });
    // Proof that the readers raced the writer (Miri's few rounds may not).
    assert!(cfg!(miri) || retries > 0, "no reader ever retried");
}

#[test]
fn a_panicking_writer_leaves_the_counter_odd_and_the_next_write_recovers() {
    let buf = SharedBuf::new(16);
    let region = buf.region();
    let lock = SeqLock::<u32>::new(region, 0);
    let write = |a: u32, b: u32| {
        lock.write(|| {
            region.try_store::<u32>(8, a, Relaxed).unwrap();
            region.try_store::<u32>(12, b, Relaxed).unwrap();
        })
    };
    write(1, 1).unwrap();
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lock.write(|| {
            region.try_store::<u32>(8, 2, Relaxed).unwrap();
            panic!("the writer's closure failed half way");
        })
    }));
    assert!(panicked.is_err());
    assert_eq!(
        lock.load(),
        3,
        "made odd (3), and left odd as the panic unwound"
    );
    let read = || lock.read(100, || [8, 12].map(|at| region.load::<u32>(at, Relaxed)));
    assert_eq!(
        read(),
        Err(SeqLockError::Contended { tries: 100 }),
        "readers see a write in progress, never the half record [2, 1]"
    );
    write(5, 5).unwrap();
    assert_eq!(lock.load(), 4, "the next write kept 3 and ended even");
    assert_eq!(read(), Ok([5, 5]));
}
