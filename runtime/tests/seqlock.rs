//! `SeqLock` on one thread: counter values, and reads that must fail or retry, made to happen
//! deterministically by reading from inside a write or writing from inside a read.

use core::sync::atomic::Ordering::Relaxed;

use abi_runtime::{Contended, DEFAULT_TRIES, SeqLock, SeqLockError, SharedBuf};

#[test]
fn write_moves_the_counter_by_two_through_odd() {
    let buf = SharedBuf::new(16);
    let lock = SeqLock::<u64>::new(buf.region(), 0);
    assert_eq!(lock.load(), 0);
    let during = lock.write(|| lock.load()).unwrap();
    assert_eq!((during, lock.load()), (1, 2));
    assert_eq!(lock.write(|| 5).unwrap(), 5, "returns the closure's result");
    assert_eq!(lock.load(), 4);
}

#[test]
fn a_writer_that_died_mid_write_leaves_odd_and_the_next_write_repairs_it() {
    let buf = SharedBuf::new(8);
    let r = buf.region();
    let lock = SeqLock::<u32>::new(r, 4);
    r.try_store::<u32>(4, 7, Relaxed).unwrap();
    assert_eq!(
        lock.read(100, || ()),
        Err(SeqLockError::Contended { tries: 100 })
    );
    assert_eq!(
        lock.write(|| lock.load()).unwrap(),
        7,
        "stays odd during the write"
    );
    assert_eq!(lock.load(), 8);
    assert_eq!(lock.read(1, || 3), Ok(3));
}

#[test]
fn the_counter_wraps() {
    let buf = SharedBuf::new(8);
    let lock = SeqLock::<u32>::new(buf.region(), 0);
    buf.region()
        .try_store::<u32>(0, u32::MAX - 1, Relaxed)
        .unwrap();
    lock.write(|| assert_eq!(lock.load(), u32::MAX)).unwrap();
    assert_eq!(lock.load(), 0);
    assert_eq!(lock.read_counted(1, || 1), Ok((1, 0)));
}

#[test]
fn a_read_during_a_write_never_copies_and_gives_up() {
    let buf = SharedBuf::new(16);
    let lock = SeqLock::<u64>::new(buf.region(), 0);
    let mut copies = 0;
    let result = lock.write(|| lock.read(50, || copies += 1)).unwrap();
    assert_eq!(result, Err(SeqLockError::Contended { tries: 50 }));
    assert_eq!(copies, 0, "an odd counter skips the copy");
    let message = result.unwrap_err().to_string();
    assert!(
        message.contains("after 50 tries") && message.contains("expected an even"),
        "{message}"
    );
}

#[test]
fn a_write_during_the_copy_is_detected_and_retried() {
    let buf = SharedBuf::new(16);
    let r = buf.region();
    let lock = SeqLock::<u64>::new(r, 0);
    let mut calls = 0;
    let (value, retries) = lock
        .read_counted(DEFAULT_TRIES, || {
            calls += 1;
            let value = r.load::<u64>(8, Relaxed);
            if calls <= 3 {
                // Another write lands while this copy runs: the copy must be thrown away.
                lock.write(|| r.store::<u64>(8, calls, Relaxed)).unwrap();
            }
            value
        })
        .unwrap();
    assert_eq!((value, retries, calls), (3, 3, 4));
}

#[test]
fn a_lock_that_keeps_changing_runs_out_of_tries() {
    let buf = SharedBuf::new(8);
    let lock = SeqLock::<u64>::new(buf.region(), 0);
    let result = lock.read(4, || lock.write(|| ()).unwrap());
    assert_eq!(result, Err(SeqLockError::Contended { tries: 4 }));
    assert_eq!(lock.load(), 8, "four copies ran, each with a write inside");
    assert_eq!(
        lock.read(0, || ()),
        Err(SeqLockError::Contended { tries: 0 })
    );
}

#[test]
#[should_panic(expected = "out of bounds")]
fn a_counter_outside_the_region_panics() {
    let buf = SharedBuf::new(8);
    let _ = SeqLock::<u64>::new(buf.region(), 4);
}

#[test]
fn a_write_that_fails_half_way_leaves_the_counter_odd_and_the_next_write_recovers() {
    let buf = SharedBuf::new(24);
    let r = buf.region();
    let lock = SeqLock::<u64>::new(r, 0);
    /// What the write's closure fails with (or the counter's own contention).
    #[derive(Debug, PartialEq)]
    enum Failed {
        HalfWay,
        Counter(Contended),
    }
    impl From<Contended> for Failed {
        fn from(e: Contended) -> Self {
            Failed::Counter(e)
        }
    }
    lock.try_write(|| r.write(8, &[1u64, 1])).unwrap();
    let failed = lock.try_write(|| {
        r.store::<u64>(8, 2, Relaxed);
        Err::<(), _>(Failed::HalfWay)
    });
    assert_eq!(
        failed,
        Err(Failed::HalfWay),
        "the closure's error comes back"
    );
    assert_eq!(lock.load(), 3, "made odd, and left odd by the failure");
    let read = |tries| lock.read(tries, || r.read::<[u64; 2]>(8));
    assert_eq!(
        read(100),
        Err(SeqLockError::Contended { tries: 100 }),
        "readers see a write in progress, never the half record [2, 1]"
    );
    lock.try_write(|| r.write(8, &[5u64, 5])).unwrap();
    assert_eq!(lock.load(), 4, "the next write kept 3 and ended even");
    assert_eq!(read(1), Ok([5, 5]));
}
