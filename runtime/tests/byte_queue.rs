//! The single-writer, single-reader byte queue: padding at every offset of the area, a full
//! queue that drops and counts, a broken peer's capacity, positions and sizes as named
//! errors (and random bytes never a panic), and a writer thread racing a reader thread that
//! proves it raced (drops greater than 0) and that every entry arrived whole or was counted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use abi_runtime::SharedBuf;
use abi_runtime::byte_queue::{ByteQueue, EntryFormat, Popped, Pushed, QueueError, QueueSpec};

/// A header of 64 bytes (`write_pos` at 0, `dropped` at 8, `capacity` u32 at 16, `read_pos`
/// at 32, as the bridge's log queue), then the area. An entry: `size` u16 at 0, `kind` u8
/// at 2 (1 = padding), a `u32` number at 4, its bytes after an 8-byte header.
const SPEC: QueueSpec = QueueSpec {
    entry: EntryFormat {
        header: 8,
        ..bridge_specs::LOG_ENTRY
    },
    ..bridge_specs::QUEUE
};

use crate::bridge_specs;

fn queue_buf(capacity: u32) -> SharedBuf {
    let buf = SharedBuf::new(64 + capacity as usize);
    buf.region()
        .try_store::<u32>(16, capacity, Ordering::Relaxed)
        .unwrap();
    buf
}

/// Entry number `n` of `len` bytes: its header, then bytes that depend on `n`.
fn entry(n: u32, len: usize) -> Vec<u8> {
    let mut e = vec![0u8; len];
    e[..2].copy_from_slice(&(len as u16).to_le_bytes());
    e[4..8].copy_from_slice(&n.to_le_bytes());
    for (i, b) in e.iter_mut().enumerate().skip(8) {
        *b = (n as usize * 31 + i) as u8;
    }
    e
}

#[test]
fn entries_wrap_with_padding_at_every_offset() {
    let buf = queue_buf(128);
    let q = ByteQueue::new(buf.region(), SPEC).unwrap();
    let mut out = Vec::new();
    // Entries of 8 to 64 bytes, pushed and popped one at a time: their starts go through
    // every multiple of 8 of the area, and every entry that crosses its end is padded (an
    // empty 128-byte area always holds the padding and an entry of up to 64 bytes).
    let mut n = 0;
    let mut padded = 0;
    for len in (8..=64).step_by(8) {
        for _ in 0..17 {
            let before = buf.region().load::<u64>(0, Ordering::Relaxed);
            assert_eq!(q.push(&entry(n, len)), Ok(Pushed::Written));
            assert_eq!(q.pop(&mut out), Ok(Popped::Entry(len)));
            assert_eq!(out, entry(n, len), "entry {n} of {len} bytes");
            assert_eq!(q.pop(&mut out), Ok(Popped::Empty));
            let after = buf.region().load::<u64>(0, Ordering::Relaxed);
            if after - before > len as u64 {
                padded += 1;
                assert_eq!(
                    after % 128,
                    len as u64,
                    "after padding, the entry starts at 0"
                );
            }
            n += 1;
        }
    }
    assert_eq!(q.dropped(), 0);
    assert!(padded > 10, "{padded} entries were padded");
    // In a 64-byte area, a 56-byte entry 16 bytes in needs 48 bytes of padding: dropped.
    let small = queue_buf(64);
    let q = ByteQueue::new(small.region(), SPEC).unwrap();
    q.push(&entry(0, 16)).unwrap();
    q.pop(&mut out).unwrap();
    assert_eq!(q.push(&entry(1, 56)), Ok(Pushed::Dropped));
}

#[test]
fn a_full_queue_drops_and_counts() {
    let buf = queue_buf(64);
    let q = ByteQueue::new(buf.region(), SPEC).unwrap();
    assert_eq!(q.push(&entry(0, 24)), Ok(Pushed::Written));
    assert_eq!(q.push(&entry(1, 24)), Ok(Pushed::Written));
    assert_eq!(q.push(&entry(2, 24)), Ok(Pushed::Dropped), "16 bytes free");
    assert_eq!(q.push(&entry(3, 16)), Ok(Pushed::Written));
    assert_eq!(q.push(&entry(4, 8)), Ok(Pushed::Dropped));
    assert_eq!(
        q.push(&entry(5, 72)),
        Ok(Pushed::Dropped),
        "larger than the area"
    );
    assert_eq!(q.dropped(), 3);
    let mut out = Vec::new();
    for (n, len) in [(0, 24), (1, 24), (3, 16)] {
        assert_eq!(q.pop(&mut out), Ok(Popped::Entry(len)));
        assert_eq!(out, entry(n, len));
    }
    assert_eq!(q.pop(&mut out), Ok(Popped::Empty));
    // Not whole entries: refused, nothing written.
    assert_eq!(q.push(&[0u8; 12]), Err(QueueError::BadEntry { len: 12 }));
    let mut padding = entry(9, 16);
    padding[2] = 1;
    assert_eq!(q.push(&padding), Err(QueueError::BadEntry { len: 16 }));
}

#[test]
fn a_broken_peer_is_a_named_error() {
    for capacity in [0u32, 12, 72] {
        let buf = queue_buf(64);
        buf.region()
            .try_store::<u32>(16, capacity, Ordering::Relaxed)
            .unwrap();
        let err = ByteQueue::new(buf.region(), SPEC).unwrap_err();
        assert_eq!(err.check(), "queue_capacity", "capacity {capacity}");
    }
    let buf = queue_buf(64);
    let q = ByteQueue::new(buf.region(), SPEC).unwrap();
    let r = buf.region();
    let mut out = Vec::new();
    // write_pos behind read_pos, then more than the capacity ahead of it.
    r.store::<u64>(32, 16, Ordering::Relaxed);
    r.store::<u64>(0, 8, Ordering::Relaxed);
    assert_eq!(
        q.pop(&mut out),
        Err(QueueError::Positions { read: 16, write: 8 })
    );
    r.store::<u64>(0, 16 + 72, Ordering::Relaxed);
    assert_eq!(q.pop(&mut out).unwrap_err().check(), "queue_positions");
    assert_eq!(q.push(&entry(0, 8)).unwrap_err().check(), "queue_positions");
    // Sizes: 0, not a multiple of 8, under the header (padding may be 8), past what was
    // written, past the area's end.
    for (size, written, read) in [(0u16, 8u64, 0u64), (12, 16, 0), (40, 32, 0), (24, 64, 48)] {
        r.store::<u64>(32, read, Ordering::Relaxed);
        r.store::<u64>(0, written, Ordering::Relaxed);
        r.write_bytes(64 + (read % 64) as usize, &size.to_le_bytes())
            .unwrap();
        assert_eq!(
            q.pop(&mut out),
            Err(QueueError::EntrySize {
                at: read,
                size: u64::from(size)
            }),
            "size {size}"
        );
        assert_eq!(
            r.load::<u64>(32, Ordering::Relaxed),
            read,
            "nothing consumed"
        );
    }
}

#[test]
fn random_bytes_from_a_peer_give_errors_never_a_panic() {
    let rounds = if cfg!(miri) { 50 } else { 20_000 };
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let buf = queue_buf(128);
    let mut out = Vec::new();
    let (mut entries, mut errors) = (0u64, 0u64);
    for _ in 0..rounds {
        let r = buf.region();
        let mut bytes = [0u8; 64 + 128];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&next().to_le_bytes());
        }
        // Mostly sane positions and capacity, sometimes not.
        if next() % 4 != 0 {
            bytes[16..20].copy_from_slice(&128u32.to_le_bytes());
            let read = next() % 4096 / 8 * 8;
            bytes[32..40].copy_from_slice(&read.to_le_bytes());
            bytes[0..8].copy_from_slice(&(read + next() % 136 / 8 * 8).to_le_bytes());
            // Half the time a size that may be right at the read position.
            if next() % 2 == 0 {
                let at = 64 + (read % 128) as usize;
                let size = (next() % 17 * 8) as u16;
                bytes[at..at + 2].copy_from_slice(&size.to_le_bytes());
            }
        }
        r.write_bytes(0, &bytes).unwrap();
        let Ok(q) = ByteQueue::new(r, SPEC) else {
            errors += 1;
            continue;
        };
        for _ in 0..4 {
            match q.pop(&mut out) {
                Ok(Popped::Entry(n)) => {
                    assert!(n <= 128 && n == out.len());
                    entries += 1;
                }
                Ok(Popped::Empty) => break,
                Err(_) => {
                    errors += 1;
                    break;
                }
            }
        }
    }
    eprintln!("random peers: {entries} entries read, {errors} errors");
    assert!(errors > 0 && (cfg!(miri) || entries > 0));
}

#[test]
fn a_writer_racing_a_reader_loses_nothing_it_does_not_count() {
    let total: u32 = if cfg!(miri) { 200 } else { 200_000 };
    let buf = queue_buf(256);
    let done = AtomicBool::new(false);
    let (received, corrupt) = thread::scope(|s| {
        s.spawn(|| {
            let q = ByteQueue::new(buf.region(), SPEC).unwrap();
            for n in 0..total {
                let len = 8 + (n as usize % 7) * 8;
                if q.push(&entry(n, len)).unwrap() == Pushed::Dropped {
                    thread::yield_now();
                }
            }
            done.store(true, Ordering::Release);
        });
        let q = ByteQueue::new(buf.region(), SPEC).unwrap();
        let (mut received, mut corrupt, mut last) = (0u64, 0u64, None::<u32>);
        let mut out = Vec::new();
        loop {
            let finished = done.load(Ordering::Acquire);
            match q.pop(&mut out).unwrap() {
                Popped::Entry(len) => {
                    let n = u32::from_le_bytes(out[4..8].try_into().unwrap());
                    if out != entry(n, len) || last.is_some_and(|l| n <= l) {
                        corrupt += 1;
                    }
                    last = Some(n);
                    received += 1;
                }
                Popped::Empty if finished => break,
                Popped::Empty => thread::yield_now(),
            }
        }
        (received, corrupt)
    });
    let q = ByteQueue::new(buf.region(), SPEC).unwrap();
    let dropped = q.dropped();
    eprintln!(
        "log queue race: {total} pushed, {dropped} dropped, {received} received, {corrupt} corrupt"
    );
    assert_eq!(corrupt, 0);
    assert_eq!(
        dropped + received,
        u64::from(total),
        "every entry arrived or was counted"
    );
    assert!(
        cfg!(miri) || dropped > 0,
        "the writer must have filled the queue"
    );
}
