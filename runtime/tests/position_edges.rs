//! Positions at the edges (issue 37): the byte queue's and the broadcast ring's header words
//! drawn from 0, multiples of the capacity, values just under `u64::MAX`, misaligned values
//! and random words, then every operation of both sides. Each call gives a valid result or
//! one of its named errors: never a panic (an overflow in a debug build), and never a
//! position that went backwards (a wrap in a release build). The cases are deterministic:
//! the edges, every pair of them, and random words from a fixed xorshift seed.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering::Relaxed;

use abi_runtime::SharedBuf;
use abi_runtime::attach::Field;
use abi_runtime::broadcast_ring::{Read, RingError, RingReader, RingSpec, RingWriter};
use abi_runtime::byte_queue::{ByteQueue, EntryFormat, Popped, Pushed, QueueError, QueueSpec};
use abi_runtime::entry_parts::{PartError, PartSpec, split};

/// The area's bytes in every case.
const CAP: u64 = 128;

/// An entry: `size` u16 at 0, `kind` u8 at 2 (1 = padding), `seq` u64 at 8 (the ring's).
const ENTRY: EntryFormat = EntryFormat {
    size: Field {
        offset: 0,
        width: 2,
    },
    kind: Field {
        offset: 2,
        width: 1,
    },
    padding: 1,
    header: 16,
};

/// The bridge's log queue header (`bridge_specs`), with the smaller entry.
const QUEUE: QueueSpec = QueueSpec {
    entry: ENTRY,
    ..bridge_specs::QUEUE
};

/// The bridge's log ring header (`bridge_specs`), with the smaller entry.
const RING: RingSpec = RingSpec {
    entry: ENTRY,
    seq: 8,
    ..bridge_specs::RING
};

use crate::bridge_specs;

/// The header words drawn first: the ends of the range, capacity multiples and their
/// neighbours, misaligned values, and values a few entries under `u64::MAX`.
fn edges() -> Vec<u64> {
    let mut v = vec![
        0,
        3,
        8,
        64,
        CAP - 8,
        CAP,
        CAP + 8,
        2 * CAP,
        1 << 63,
        (1 << 63) - 8,
    ];
    for k in [
        0,
        1,
        7,
        8,
        15,
        16,
        63,
        64,
        CAP - 1,
        CAP,
        CAP + 7,
        CAP + 8,
        4 * CAP,
    ] {
        v.push(u64::MAX - k);
    }
    v
}

/// A seeded xorshift: random words, half of them just under `u64::MAX` or small, where the
/// checks are.
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn word(&mut self) -> u64 {
        let r = self.next();
        match r % 4 {
            0 => u64::MAX - self.next() % (8 * CAP),
            1 => self.next() % (8 * CAP),
            2 => (u64::MAX - self.next() % (8 * CAP)) & !7,
            _ => self.next(),
        }
    }
}

/// The header words of every case: each pair of edges, then random pairs.
fn cases() -> Vec<(u64, u64, u64)> {
    let e = edges();
    let mut out = Vec::new();
    for (i, &a) in e.iter().enumerate() {
        for &b in &e {
            out.push((a, b, e[(i * 7) % e.len()]));
        }
    }
    let mut w = Words(0x9E37_79B9_7F4A_7C15);
    for k in 0..if cfg!(miri) { 20 } else { 3000 } {
        let a = w.word();
        // Half the pairs in order: the second at most a capacity and a bit behind the first.
        let b = if k % 2 == 0 {
            a.saturating_sub(w.next() % (CAP + 16)) & !(w.next() % 2 * 7)
        } else {
            w.word()
        };
        out.push((a, b, w.word()));
    }
    // Under Miri (a thousand times slower) every 25th case: still every kind of edge.
    let step = if cfg!(miri) { 25 } else { 1 };
    out.into_iter().step_by(step).collect()
}

/// An entry of `len` bytes (its size field set).
fn entry(len: usize) -> Vec<u8> {
    let mut e = vec![0xA5u8; len];
    e[..2].copy_from_slice(&(len as u16).to_le_bytes());
    e[2] = 0;
    e
}

/// Runs `f`, turning a panic into a failure that names the case.
fn no_panic<R>(what: &str, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let text = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        panic!("{what}: panicked: {text}")
    })
}

#[test]
fn queue_positions_at_the_edges_give_a_result_or_a_named_error() {
    let buf = SharedBuf::new(64 + CAP as usize);
    let r = buf.region();
    r.try_store::<u32>(16, CAP as u32, Relaxed).unwrap();
    let q = ByteQueue::new(r, QUEUE).unwrap();
    let (mut written, mut refused, mut popped) = (0, 0, 0);
    let mut out = Vec::new();
    for (write, read, _) in cases() {
        for len in (16..=CAP as usize).step_by(if cfg!(miri) { 56 } else { 8 }) {
            r.store::<u64>(0, write, Relaxed);
            r.store::<u64>(32, read, Relaxed);
            let what = format!("push of {len} bytes, write_pos {write:#x}, read_pos {read:#x}");
            let pushed = no_panic(&what, || q.push(&entry(len)));
            let after = r.load::<u64>(0, Relaxed);
            match pushed {
                Ok(Pushed::Written) => {
                    written += 1;
                    assert!(after > write, "{what}: write_pos went to {after:#x}");
                    assert!(
                        after - read <= CAP,
                        "{what}: write_pos {after:#x} past the reader"
                    );
                    assert_eq!(after % 8, 0, "{what}");
                }
                Ok(Pushed::Dropped) => assert_eq!(after, write, "{what}"),
                Err(QueueError::Positions { .. }) => {
                    refused += 1;
                    assert_eq!(after, write, "{what}: an error stores nothing");
                }
                Err(e) => panic!("{what}: {e}"),
            }
            let what = format!("pop after the {what}");
            let before = r.load::<u64>(32, Relaxed);
            match no_panic(&what, || q.pop(&mut out)) {
                Ok(Popped::Entry(n)) => {
                    popped += 1;
                    let now = r.load::<u64>(32, Relaxed);
                    assert!(now > before && now - before >= n as u64, "{what}: {now:#x}");
                }
                Ok(Popped::Empty) => {}
                Err(QueueError::Positions { .. } | QueueError::EntrySize { .. }) => {
                    // Padding before the broken entry may have been consumed, no more.
                    let now = r.load::<u64>(32, Relaxed);
                    let end = r.load::<u64>(0, Relaxed);
                    assert!(now == before || (now > before && now <= end), "{what}");
                }
                Err(e) => panic!("{what}: {e}"),
            }
        }
    }
    println!("queue: written={written} refused={refused} popped={popped}");
    // Under Miri, fewer cases (see `cases`).
    let least = if cfg!(miri) { 0 } else { 100 };
    assert!(written > 10 * least && refused > 10 * least && popped > least);
}

#[test]
fn a_queue_next_to_u64_max_refuses_the_entry_that_would_wrap() {
    let buf = SharedBuf::new(64 + CAP as usize);
    let r = buf.region();
    r.try_store::<u32>(16, CAP as u32, Relaxed).unwrap();
    let q = ByteQueue::new(r, QUEUE).unwrap();
    // The review's case: both positions at u64::MAX - 7 (a multiple of 8), an empty queue.
    let at = u64::MAX - 7;
    r.store::<u64>(0, at, Relaxed);
    r.store::<u64>(32, at, Relaxed);
    let e = q.push(&entry(16)).unwrap_err();
    assert_eq!(
        e,
        QueueError::Positions {
            read: at,
            write: at
        }
    );
    assert_eq!(e.check(), "queue_positions");
    // The last entry whose end is a u64 (u64::MAX - 7, a multiple of 8) is written and
    // read; the next one is refused.
    let at = u64::MAX - 23;
    r.store::<u64>(0, at, Relaxed);
    r.store::<u64>(32, at, Relaxed);
    assert_eq!(q.push(&entry(16)), Ok(Pushed::Written));
    assert_eq!(r.load::<u64>(0, Relaxed), at + 16);
    let mut out = Vec::new();
    assert_eq!(q.pop(&mut out), Ok(Popped::Entry(16)));
    assert_eq!(out, entry(16));
    assert!(matches!(
        q.push(&entry(16)),
        Err(QueueError::Positions { .. })
    ));
}

#[test]
fn ring_positions_at_the_edges_give_a_result_or_a_named_error() {
    let buf = SharedBuf::new(64 + CAP as usize);
    let r = buf.region();
    r.try_store::<u32>(16, CAP as u32, Relaxed).unwrap();
    let w = RingWriter::new(r, RING).unwrap();
    let (mut written, mut refused, mut read) = (0, 0, 0);
    let mut out = Vec::new();
    let mut junk = Words(7);
    for (k, (write, tail, entries)) in cases().into_iter().enumerate() {
        // Every fourth case over an area of random words (sizes no writer wrote).
        if k % 4 == 0 {
            for at in (64..64 + CAP as usize).step_by(8) {
                r.store::<u64>(at, junk.next() & 0x00ff_00ff_00ff_01f8, Relaxed);
            }
        }
        for len in (16..=CAP as usize).step_by(if cfg!(miri) { 56 } else { 8 }) {
            r.store::<u64>(0, write, Relaxed);
            r.store::<u64>(8, tail, Relaxed);
            r.store::<u64>(24, entries, Relaxed);
            let what = format!(
                "push of {len} bytes, write_pos {write:#x}, tail_pos {tail:#x}, entries {entries:#x}"
            );
            let mut e = entry(len);
            let pushed = no_panic(&what, || w.push(&mut e));
            let after = r.load::<u64>(0, Relaxed);
            let new_tail = r.load::<u64>(8, Relaxed);
            match pushed {
                Ok(seq) => {
                    written += 1;
                    assert_eq!(seq, entries, "{what}");
                    assert!(after > write, "{what}: write_pos went to {after:#x}");
                    assert!(new_tail <= after && after - new_tail <= CAP, "{what}: tail");
                    assert_eq!(r.load::<u64>(24, Relaxed), entries.wrapping_add(1));
                }
                Err(RingError::Positions { .. }) => {
                    refused += 1;
                    assert_eq!(after, write, "{what}: an error stores nothing");
                    assert_eq!(new_tail, tail, "{what}: an error stores nothing");
                }
                Err(e) => panic!("{what}: {e}"),
            }
            // A reader of each kind: a result or a named error, never a panic.
            let what = format!("read after the {what}");
            for oldest in [false, true] {
                let joined = no_panic(&what, || {
                    if oldest {
                        RingReader::join_oldest(r, RING)
                    } else {
                        RingReader::join_latest(r, RING)
                    }
                });
                let Ok(mut reader) = joined else { continue };
                for _ in 0..3 {
                    match no_panic(&what, || reader.read_next(&mut out)) {
                        Ok(Read::Entry(_) | Read::Lapped { .. }) => read += 1,
                        Ok(Read::Empty) => break,
                        Err(RingError::Positions { .. } | RingError::EntrySize { .. }) => break,
                        Err(e) => panic!("{what}: {e}"),
                    }
                }
            }
        }
    }
    println!("ring: written={written} refused={refused} read={read}");
    let least = if cfg!(miri) { 0 } else { 100 };
    assert!(written > 10 * least && refused > 10 * least && read > least);
}

#[test]
fn a_ring_next_to_u64_max_refuses_the_entry_that_would_wrap() {
    let buf = SharedBuf::new(64 + CAP as usize);
    let r = buf.region();
    r.try_store::<u32>(16, CAP as u32, Relaxed).unwrap();
    let w = RingWriter::new(r, RING).unwrap();
    // The review's case: write_pos = tail_pos = u64::MAX - 7.
    let at = u64::MAX - 7;
    r.store::<u64>(0, at, Relaxed);
    r.store::<u64>(8, at, Relaxed);
    let e = w.push(&mut entry(16)).unwrap_err();
    assert_eq!(
        e,
        RingError::Positions {
            tail: at,
            write: at
        }
    );
    assert_eq!(e.check(), "ring_positions");
    assert_eq!(r.load::<u64>(0, Relaxed), at);
    // The entries counter at u64::MAX wraps to 0 (the seq the reader expects next).
    r.store::<u64>(0, 0, Relaxed);
    r.store::<u64>(8, 0, Relaxed);
    r.store::<u64>(24, u64::MAX, Relaxed);
    assert_eq!(w.push(&mut entry(16)), Ok(u64::MAX));
    assert_eq!(r.load::<u64>(24, Relaxed), 0);
}

#[test]
fn a_part_length_near_u64_max_is_past_the_entry() {
    // An unbounded u64 length field: the peer's length plus the header would wrap.
    let spec = [PartSpec {
        len: Field {
            offset: 8,
            width: 8,
        },
        max: u64::MAX,
    }];
    let mut entry = vec![0u8; 24];
    entry[8..16].copy_from_slice(&(u64::MAX - 3).to_le_bytes());
    let e = no_panic("split", || split(&entry, 16, &spec)).unwrap_err();
    assert!(
        matches!(
            e,
            PartError::PastEntry {
                part: 0,
                size: 24,
                ..
            }
        ),
        "{e}"
    );
}
