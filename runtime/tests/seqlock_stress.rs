//! One writer and three readers race on a seqlock-guarded payload with real threads. Every
//! payload word is derived from the write's sequence number, so a torn copy is recognizable.
//! The test fails if a reader accepts a torn or out-of-order copy, and also if no reader ever
//! had to retry (then it proved nothing about races). Its control runs the same race with
//! readers that copy without the seqlock, and must see torn copies: the race tears, and the
//! check would see it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use abi_runtime::{DEFAULT_TRIES, Region, SeqLock, SharedBuf};
use zerocopy::IntoBytes;

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
const READERS: usize = 3;

/// Sizes and bounds; Miri runs a few dozen writes of a small payload instead of seconds.
struct Plan {
    words: usize,
    min_writes: u64,
    max_writes: u64,
    min_time: Duration,
    max_time: Duration,
}

const PLAN: Plan = if cfg!(miri) {
    Plan {
        words: 16,
        min_writes: 30,
        max_writes: 2_000,
        min_time: Duration::ZERO,
        max_time: Duration::MAX,
    }
} else {
    Plan {
        words: 1024, // 8 KiB
        min_writes: 1_000,
        max_writes: 100_000_000, // the time bound comes first
        min_time: Duration::from_millis(1_500),
        max_time: Duration::from_secs(20),
    }
};

/// Word `k` of the payload of write `seq`.
fn word(seq: u64, k: usize) -> u64 {
    seq.wrapping_mul(MIX) ^ k as u64
}

/// The inverse of MIX modulo 2^64 (Newton's iteration; MIX is odd).
fn mix_inverse() -> u64 {
    let mut x = MIX;
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(x)));
    }
    assert_eq!(x.wrapping_mul(MIX), 1);
    x
}

#[derive(Debug, Default)]
struct ReaderCounts {
    accepted: u64,
    retries: u64,
    gave_up: u64,
    torn: u64,
    out_of_order: u64,
}

/// How a reader copies the payload: through the seqlock, or (the control) without it.
#[derive(Clone, Copy, PartialEq)]
enum ReadMode {
    Locked,
    Unlocked,
}

fn reader(
    lock: SeqLock<'_, u64>,
    payload: Region<'_>,
    done: &AtomicBool,
    retries: &AtomicU64,
    how: ReadMode,
) -> ReaderCounts {
    let inverse = mix_inverse();
    let mut copy = vec![0u64; PLAN.words];
    let mut counts = ReaderCounts::default();
    let mut last_seq = 0;
    while !done.load(Ordering::Acquire) {
        let read = match how {
            ReadMode::Locked => {
                lock.read_counted(DEFAULT_TRIES, || payload.read_bytes(0, copy.as_mut_bytes()))
            }
            ReadMode::Unlocked => {
                payload.read_bytes(0, copy.as_mut_bytes());
                Ok(((), 0))
            }
        };
        match read {
            Ok(((), r)) => {
                counts.accepted += 1;
                counts.retries += u64::from(r);
                retries.fetch_add(u64::from(r), Ordering::Relaxed);
                let seq = copy[0].wrapping_mul(inverse);
                if copy.iter().enumerate().any(|(k, &w)| w != word(seq, k)) {
                    counts.torn += 1;
                    if how == ReadMode::Unlocked {
                        retries.fetch_add(1, Ordering::Relaxed); // the control raced
                    }
                } else if seq < last_seq {
                    counts.out_of_order += 1;
                }
                last_seq = seq;
            }
            Err(_) => counts.gave_up += 1,
        }
    }
    counts
}

/// Races a writer (through the seqlock) against [`READERS`] readers copying `how`, until
/// it raced (a retry, or in the control a torn copy) and the plan's least writes and time
/// passed, or its bounds. Returns the writes and each reader's counts.
fn race(how: ReadMode) -> (u64, Vec<ReaderCounts>, u64) {
    let buf = SharedBuf::new(64 + 8 * PLAN.words);
    let region = buf.region();
    let lock = SeqLock::<u64>::new(region, 0);
    let payload = region.sub(64, 8 * PLAN.words, 8).unwrap();
    let mut next = vec![0u64; PLAN.words];
    let mut publish = |seq: u64| {
        next.iter_mut()
            .enumerate()
            .for_each(|(k, w)| *w = word(seq, k));
        lock.try_write(|| payload.write(0, &next[..])).unwrap();
    };
    publish(0);

    let done = AtomicBool::new(false);
    let retries = AtomicU64::new(0);
    let start = Instant::now();
    let (writes, counts) = thread::scope(|s| {
        let readers: Vec<_> = (0..READERS)
            .map(|_| s.spawn(|| reader(lock, payload, &done, &retries, how)))
            .collect();
        let mut seq = 0;
        loop {
            seq += 1;
            publish(seq);
            let raced = retries.load(Ordering::Relaxed) > 0;
            let enough = seq >= PLAN.min_writes && start.elapsed() >= PLAN.min_time && raced;
            if enough || seq >= PLAN.max_writes || start.elapsed() >= PLAN.max_time {
                break;
            }
        }
        done.store(true, Ordering::Release);
        let counts: Vec<ReaderCounts> = readers.into_iter().map(|h| h.join().unwrap()).collect();
        (seq, counts)
    });

    let elapsed = start.elapsed();
    let what = match how {
        ReadMode::Locked => "seqlock stress",
        ReadMode::Unlocked => "seqlock stress, unlocked control",
    };
    eprintln!(
        "{what}: {writes} writes of {} bytes in {elapsed:?}",
        8 * PLAN.words
    );
    for (i, c) in counts.iter().enumerate() {
        eprintln!("  reader {i}: {c:?}");
    }
    (writes, counts, lock.load())
}

#[test]
fn readers_never_accept_a_torn_copy() {
    let (writes, counts, counter) = race(ReadMode::Locked);
    let sum = |f: fn(&ReaderCounts) -> u64| counts.iter().map(f).sum::<u64>();
    assert_eq!(sum(|c| c.torn), 0, "torn copies accepted");
    assert_eq!(sum(|c| c.out_of_order), 0, "a reader went back in time");
    assert!(
        counts.iter().all(|c| c.accepted > 0),
        "every reader got copies"
    );
    assert!(
        sum(|c| c.retries) > 0,
        "no read ever retried: the test never raced"
    );
    assert_eq!(counter, 2 * (writes + 1), "one even counter step per write");
}

/// The control: the same race with readers that copy without the seqlock. Its torn copies
/// show that the race tears a copy and that the check above would see it (not under Miri,
/// whose few dozen writes may all fall between copies).
#[test]
fn the_unlocked_control_tears() {
    let (_, counts, _) = race(ReadMode::Unlocked);
    let torn: u64 = counts.iter().map(|c| c.torn).sum();
    assert!(
        cfg!(miri) || torn > 0,
        "no torn copy without the seqlock: the race tears nothing the check could catch"
    );
}
