//! The single-writer, many-reader ring that overwrites its oldest entries: padding at every
//! offset, a late join, a reader lapped by the writer told exactly how many entries it
//! missed, a broken writer's values as named errors, and a writer racing four reader
//! threads that proves it raced (laps greater than 0), never hands out a torn entry, and
//! accounts for every entry as read or missed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use abi_runtime::SharedBuf;
use abi_runtime::broadcast_ring::{Read, RingError, RingReader, RingSpec, RingWriter};
use abi_runtime::byte_queue::EntryFormat;

/// A header of 64 bytes (`write_pos` at 0, `tail_pos` at 8, `capacity` u32 at 16, `entries`
/// at 24, as the bridge's log ring), then the area. An entry: `size` u16 at 0, `kind` u8 at
/// 2 (1 = padding), `seq` u64 at 8, its bytes after a 16-byte header.
const SPEC: RingSpec = RingSpec {
    entry: EntryFormat {
        header: 16,
        ..bridge_specs::LOG_ENTRY
    },
    seq: 8,
    ..bridge_specs::RING
};

use crate::bridge_specs;

fn ring_buf(capacity: u32) -> SharedBuf {
    let buf = SharedBuf::new(64 + capacity as usize);
    buf.region()
        .try_store::<u32>(16, capacity, Ordering::Relaxed)
        .unwrap();
    buf
}

/// An entry of `len` bytes whose body depends on `tag`.
fn entry(tag: u64, len: usize) -> Vec<u8> {
    let mut e = vec![0u8; len];
    e[..2].copy_from_slice(&(len as u16).to_le_bytes());
    for (i, b) in e.iter_mut().enumerate().skip(16) {
        *b = (tag as usize * 131 + i) as u8;
    }
    e
}

/// Whether `e` is whole: its body is what `entry(seq, len)` wrote, `seq` being its own.
fn whole(e: &[u8]) -> bool {
    if e.len() < 16 || e.len() > 256 {
        return false;
    }
    let seq = u64::from_le_bytes(e[8..16].try_into().unwrap());
    let mut want = entry(seq, e.len());
    want[8..16].copy_from_slice(&seq.to_le_bytes());
    e == want
}

#[test]
fn entries_wrap_with_padding_at_every_offset() {
    let buf = ring_buf(128);
    let w = RingWriter::new(buf.region(), SPEC).unwrap();
    let mut r = RingReader::join_latest(buf.region(), SPEC).unwrap();
    let mut out = Vec::new();
    let mut seq = 0;
    for len in (16..=64).step_by(8) {
        for _ in 0..17 {
            let mut e = entry(seq, len);
            assert_eq!(w.push(&mut e), Ok(seq));
            assert_eq!(r.read_next(&mut out), Ok(Read::Entry(len)));
            assert!(whole(&out) && out[8..16] == seq.to_le_bytes());
            assert_eq!(r.read_next(&mut out), Ok(Read::Empty));
            seq += 1;
        }
    }
    assert_eq!(r.laps(), 0);
}

#[test]
fn a_lapped_reader_is_told_what_it_missed_and_a_late_joiner_reads_what_is_new() {
    let buf = ring_buf(256);
    let w = RingWriter::new(buf.region(), SPEC).unwrap();
    let mut early = RingReader::join_oldest(buf.region(), SPEC).unwrap();
    for seq in 0..3 {
        w.push(&mut entry(seq, 32)).unwrap();
    }
    let mut late = RingReader::join_latest(buf.region(), SPEC).unwrap();
    let mut out = Vec::new();
    assert_eq!(late.read_next(&mut out), Ok(Read::Empty));
    // 40 entries of 32 bytes through a 256-byte ring: only the last 8 are still there.
    for seq in 3..40 {
        w.push(&mut entry(seq, 32)).unwrap();
    }
    assert_eq!(early.read_next(&mut out), Ok(Read::Lapped { missed: 32 }));
    let mut seqs = Vec::new();
    while let Read::Entry(_) = early.read_next(&mut out).unwrap() {
        assert!(whole(&out));
        seqs.push(u64::from_le_bytes(out[8..16].try_into().unwrap()));
    }
    assert_eq!(seqs, (32..40).collect::<Vec<_>>());
    assert_eq!(late.read_next(&mut out), Ok(Read::Lapped { missed: 29 }));
    assert_eq!(early.laps(), 1);
    // The tail is the oldest whole entry.
    assert_eq!(buf.region().load::<u64>(8, Ordering::Relaxed), 32 * 32);
}

#[test]
fn a_broken_writer_is_a_named_error() {
    for capacity in [0u32, 20, 300] {
        let buf = ring_buf(256);
        buf.region()
            .try_store::<u32>(16, capacity, Ordering::Relaxed)
            .unwrap();
        let err = RingReader::join_latest(buf.region(), SPEC).unwrap_err();
        assert_eq!(err.check(), "ring_capacity");
    }
    let buf = ring_buf(256);
    let region = buf.region();
    let mut r = RingReader::join_oldest(region, SPEC).unwrap();
    let mut out = Vec::new();
    // A tail past write_pos by more than the capacity, and write_pos more than the capacity
    // past the tail. (A tail a little past write_pos is a push in flight: read again.)
    for (tail, write) in [(600u64, 32u64), (0, 512)] {
        region.store::<u64>(8, tail, Ordering::Relaxed);
        region.store::<u64>(0, write, Ordering::Relaxed);
        assert_eq!(
            r.read_next(&mut out),
            Err(RingError::Positions { tail, write })
        );
    }
    for size in [0u16, 12, 8, 64] {
        region.store::<u64>(8, 0, Ordering::Relaxed);
        region.store::<u64>(0, 32, Ordering::Relaxed);
        region.write_bytes(64, &size.to_le_bytes()).unwrap();
        assert_eq!(
            r.read_next(&mut out),
            Err(RingError::EntrySize {
                at: 0,
                size: u64::from(size)
            }),
            "size {size}"
        );
    }
    let w = RingWriter::new(region, SPEC).unwrap();
    assert_eq!(w.push(&mut [0u8; 12]), Err(RingError::BadEntry { len: 12 }));
    assert_eq!(
        w.push(&mut entry(0, 264)),
        Err(RingError::BadEntry { len: 264 }),
        "larger than the ring"
    );
}

#[test]
fn a_writer_racing_four_readers_never_hands_out_a_torn_entry() {
    let total: u64 = if cfg!(miri) { 120 } else { 300_000 };
    let buf = ring_buf(1024);
    let done = AtomicBool::new(false);
    let results = thread::scope(|s| {
        let readers: Vec<_> = (0..4)
            .map(|_| {
                let (buf, done) = (&buf, &done);
                let mut r = RingReader::join_oldest(buf.region(), SPEC).unwrap();
                s.spawn(move || {
                    let (mut read, mut missed, mut torn) = (0u64, 0u64, 0u64);
                    let mut out = Vec::new();
                    loop {
                        let finished = done.load(Ordering::Acquire);
                        match r.read_next(&mut out).unwrap() {
                            Read::Entry(_) => {
                                read += 1;
                                torn += u64::from(!whole(&out));
                            }
                            Read::Lapped { missed: m } => missed += m,
                            Read::Empty if finished => break,
                            Read::Empty => thread::yield_now(),
                        }
                    }
                    (read, missed, torn, r.laps())
                })
            })
            .collect();
        let w = RingWriter::new(buf.region(), SPEC).unwrap();
        for seq in 0..total {
            let len = 16 + (seq as usize % 9) * 8;
            w.push(&mut entry(seq, len)).unwrap();
        }
        done.store(true, Ordering::Release);
        readers
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    });
    let mut laps = 0;
    for (read, missed, torn, l) in results {
        eprintln!("log ring race: {read} read, {l} lapped gaps, {missed} missed, {torn} corrupt");
        assert_eq!(torn, 0);
        assert_eq!(
            read + missed,
            total,
            "every entry read or counted as missed"
        );
        laps += l;
    }
    assert!(
        cfg!(miri) || laps > 0,
        "the writer must have lapped a reader"
    );
}
