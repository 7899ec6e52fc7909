//! The generated Rust recording API (`bridge_abi::recording`): the writer's files read back
//! tick for tick and sought to every tick, read by `abi-codegen inspect` without an issue;
//! the test recordings of tests/common/recording.rs read by the new reader; a dropped writer
//! recovered by the walk; cut and flipped files that give issues, never a panic, a hang or
//! an allocation past the caps; and a live host's snapshots recorded by a client and replayed
//! byte for byte.

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Cursor;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use bridge_abi::live;
use bridge_abi::recording::{IbfrecReader, IbfrecRecord, IbfrecWriter, WriterOptions};
use bridge_abi::runtime::{DEFAULT_TRIES, SharedBuf};
use bridge_abi::*;
use common::recording::{Recording, extras_len, tick_data};
use common::rng::Rng;
use zerocopy::{FromBytes, IntoBytes};

/// The largest single allocation made on this thread since the last reset: the corruption
/// test checks that the reader never allocates past its caps.
struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to `System` unchanged; only a thread-local maximum is kept.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LARGEST.try_with(|l| l.set(l.get().max(layout.size())));
        // SAFETY: the caller's contract is System's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is System's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = LARGEST.try_with(|l| l.set(l.get().max(new_size)));
        // SAFETY: the caller's contract is System's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

const SNAPSHOT: usize = core::mem::size_of::<Snapshot>();

/// Tick `t`'s snapshot and extras (extras of 0 to 40 bytes, the same length for runs of a
/// few ticks, so that both plain records and deltas are written).
fn tick(t: u64) -> (RecTickHeader, Snapshot, Vec<u8>) {
    let extras: Vec<u8> = (0..(t / 4 % 6) * 8).map(|i| (i * 3 + t) as u8).collect();
    let mut s = Snapshot::default();
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.tick = t;
    s.header.frame = t * 2;
    s.header.size = (SNAPSHOT + extras.len()) as u32;
    s.event_total = t * 3 + 1;
    s.ship_count = (t % 4) as u8;
    for (i, ship) in s.ships.iter_mut().enumerate().take(s.ship_count as usize) {
        ship.reload_progress = t as f32 + i as f32;
    }
    let mut h = RecTickHeader {
        tick: t,
        frame: t * 2,
        host_time_ns: t * 16_666_667,
        ..Default::default()
    };
    h.pads[1].for_tick = t;
    (h, s, extras)
}

fn file_header() -> RecFileHeader {
    let mut h = RecFileHeader {
        snapshot_size: SNAPSHOT as u32,
        chunk_ticks: 16,
        schema_minor: ABI_VERSION_MINOR,
        ..Default::default()
    };
    h.header_size = h.as_bytes().len() as u16;
    h.set_note("recording_rust");
    h
}

fn mark(t: u64, a: i32) -> RecMark {
    RecMark {
        tick: t,
        kind: EventKind::ROUND_STARTED,
        a,
        ..Default::default()
    }
}

/// Ticks 1..=n (but every 13th skipped) in chunks of 16, a plain record at least every 5.
fn write(n: u64, finish: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut options = WriterOptions::new(16);
    options.plain_every = Some(5);
    {
        let mut w = IbfrecWriter::create(Cursor::new(&mut out), &file_header(), options).unwrap();
        for t in (1..=n).filter(|t| t % 13 != 0) {
            let (h, s, e) = tick(t);
            w.push(&h, &s, &e).unwrap();
            if t % 50 == 1 {
                w.push_marks(&mark(t, (t / 50) as i32)).unwrap();
            }
        }
        if finish {
            // The counts, totals and first and last ticks are the writer's to fill.
            let footer = RecFooter {
                dropped: 2,
                ..Default::default()
            };
            w.finish(&footer).unwrap();
        } else {
            w.flush().unwrap();
        }
    }
    out
}

fn written(n: u64) -> Vec<u64> {
    (1..=n).filter(|t| t % 13 != 0).collect()
}

fn check(r: &IbfrecRecord, t: u64) {
    let (h, s, e) = tick(t);
    assert_eq!(r.record.tick, t);
    assert_eq!(r.record.host_time_ns, h.host_time_ns);
    assert_eq!(r.record.pads[1].for_tick, t);
    assert_eq!(r.snapshot.as_bytes(), s.as_bytes(), "tick {t}");
    assert_eq!(r.extras, e, "tick {t}");
}

fn replay(bytes: Vec<u8>) -> (Vec<IbfrecRecord>, Vec<bridge_abi::recording::Issue>) {
    let mut reader = IbfrecReader::from_bytes(bytes).unwrap();
    let records: Vec<IbfrecRecord> = reader.by_ref().map(Result::unwrap).collect();
    (records, reader.issues().to_vec())
}

#[test]
fn a_written_recording_replays_tick_for_tick_with_its_marks_and_totals() {
    let bytes = write(300, true);
    let mut reader = IbfrecReader::from_bytes(bytes.clone()).unwrap();
    let ticks = written(300);
    let mut kinds = [0, 0];
    let mut n = 0;
    while let Some(r) = reader.next_record().unwrap() {
        check(&r, ticks[n]);
        kinds[usize::from(r.record.kind == RecRecordKind::DELTA)] += 1;
        assert_eq!(r.record.size as usize, 136 + SNAPSHOT + r.extras.len());
        n += 1;
    }
    assert_eq!(n, ticks.len());
    assert!(
        kinds[0] > 0 && kinds[1] > kinds[0],
        "keyframes and deltas: {kinds:?}"
    );
    assert_eq!(reader.issues(), &[]);
    let footer = reader.footer().unwrap();
    assert_eq!(footer.magic, REC_FOOTER_MAGIC);
    assert_eq!(footer.ticks, ticks.len() as u64);
    assert_eq!(footer.chunk_count as usize, ticks.len().div_ceil(16));
    assert_eq!((footer.first_tick, footer.last_tick), (1, 300));
    assert_eq!(footer.dropped, 2);
    assert_eq!(
        reader.marks(),
        (0..6)
            .map(|k| mark(k * 50 + 1, k as i32))
            .collect::<Vec<_>>()
    );
    let chunks = reader.chunks();
    assert_eq!(chunks.len(), footer.chunk_count as usize);
    assert_eq!((chunks[0].first_tick, chunks[0].last_tick), (1, 17));
    assert_eq!(chunks[0].tick_count, 16);
    let index = reader.chunk_index();
    assert_eq!(index.len(), chunks.len());
    assert_eq!(index[0].offset, 512);
    // The index repeats each chunk's ticks (`indexed`), filled by the writer.
    for (e, c) in index.iter().zip(&chunks) {
        assert_eq!((e.first_tick, e.last_tick), (c.first_tick, c.last_tick));
    }
    let header = reader.header().unwrap();
    assert_eq!((header.magic, header.format), (REC_MAGIC, REC_FORMAT));
    assert_eq!(header.note_str(), Ok("recording_rust"));
}

#[test]
fn seeking_to_every_tick_equals_the_replay() {
    let bytes = write(200, true);
    let ticks = written(200);
    let mut reader = IbfrecReader::from_bytes(bytes).unwrap();
    let mut rng = Rng(0x5eed);
    let mut order: Vec<u64> = (0..=201).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for t in order {
        let want = ticks.iter().copied().find(|&x| x >= t);
        let got = reader.read_tick(t).unwrap();
        if want == Some(t) {
            check(got.as_ref().unwrap(), t);
        } else {
            assert!(got.is_none(), "tick {t} is not in the file");
            reader.seek_tick(t).unwrap();
            let next = reader.next_record().unwrap();
            assert_eq!(next.map(|r| r.record.tick), want, "seek {t}");
        }
    }
    assert_eq!(reader.issues(), &[]);
}

#[test]
fn the_test_recordings_are_read_by_the_new_reader() {
    let chunks: Vec<Vec<u64>> = (0..6).map(|c| (c * 9 + 1..=c * 9 + 9).collect()).collect();
    let refs: Vec<&[u64]> = chunks.iter().map(Vec::as_slice).collect();
    for r in [Recording::three(), Recording::new(&refs)] {
        let bytes = r.bytes();
        let ticks: Vec<u64> = r
            .chunks
            .iter()
            .flat_map(|(h, _)| h.first_tick..=h.last_tick)
            .collect();
        let (records, issues) = replay(bytes.clone());
        assert_eq!(issues, vec![]);
        assert_eq!(
            records.iter().map(|r| r.record.tick).collect::<Vec<_>>(),
            ticks
        );
        for rec in &records {
            let data = tick_data(rec.record.tick);
            assert_eq!(rec.snapshot.as_bytes(), &data[..SNAPSHOT]);
            assert_eq!(rec.extras.len(), extras_len(rec.record.tick));
            assert_eq!(rec.extras, data[SNAPSHOT..]);
        }
        // Without the trailer: the walk finds the same ticks.
        let (walked, issues) = replay(r.body());
        assert_eq!(walked.len(), ticks.len());
        assert_eq!(issues.len(), 1, "{issues:?}");
    }
}

/// `abi-codegen inspect ibfrec FILE --strict`: exit code and stderr.
fn inspect(path: &std::path::Path) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", "abi-codegen", "--", "inspect", "ibfrec"])
        .arg(path)
        .arg("--strict")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_written_recording_passes_inspect_without_an_issue() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = tmp.join("written.ibfrec");
    std::fs::write(&path, write(120, true)).unwrap();
    assert_eq!(inspect(&path), (0, String::new()));
    // The control: a damaged copy makes inspect fail.
    let mut bad = write(120, true);
    let at = bad.len() - 1;
    bad[at] ^= 1;
    std::fs::write(&path, bad).unwrap();
    assert_ne!(inspect(&path).0, 0);
}

#[test]
fn a_writer_dropped_after_flush_is_recovered_by_the_walk() {
    let bytes = write(100, false);
    let (records, issues) = replay(bytes);
    let ticks = written(100);
    assert_eq!(records.len(), ticks.len());
    for (r, t) in records.iter().zip(ticks) {
        check(r, t);
    }
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind, bridge_abi::recording::IssueKind::Trailer);
    // Dropped without a flush: the open chunk is written by the drop.
    let mut out = Vec::new();
    {
        let mut w = IbfrecWriter::create(&mut out, &file_header(), WriterOptions::new(8)).unwrap();
        for t in 1..=20 {
            let (h, s, e) = tick(t);
            w.push(&h, &s, &e).unwrap();
        }
    }
    assert_eq!(replay(out).0.len(), 20);
}

/// Reads a damaged file to its end, and checks the records it gives and the largest
/// allocation made.
fn read_damaged(bytes: &[u8]) -> (Vec<u64>, usize) {
    LARGEST.with(|l| l.set(0));
    let mut reader = IbfrecReader::from_bytes(bytes.to_vec()).unwrap();
    let mut ticks = Vec::new();
    while let Some(r) = reader.next_record().unwrap() {
        ticks.push(r.record.tick);
        assert!(ticks.len() < 100_000, "the reader does not end");
    }
    (ticks, LARGEST.with(Cell::get))
}

#[test]
fn cut_and_flipped_files_give_issues_never_a_panic_or_a_large_allocation() {
    let bytes = write(100, true);
    let ticks = written(100);
    // The largest allocation reading the whole file takes (a chunk's inflated bytes), and
    // what a damaged file may take: a chunk's stream inflated to the cap of its length.
    let (_, whole) = read_damaged(&bytes);
    let cap = (bytes.len() as u64 * 1032 + 64 + 1).max(whole as u64) as usize;
    let reader = IbfrecReader::from_bytes(bytes.clone()).unwrap();
    let index = reader.chunk_index();
    let chunk_sizes: Vec<u64> = reader
        .chunks()
        .iter()
        .map(|c| c.tick_count.into())
        .collect();
    // At every record boundary of the file: each chunk's start and end, the footer, the
    // tables and the trailer. A cut after k whole chunks gives their ticks, and an issue.
    let footer_at = bytes.len() as u64 - 16 - 48 - 24 * index.len() as u64 - 16 * 2;
    let mut cuts: Vec<(u64, usize)> = index
        .iter()
        .enumerate()
        .map(|(k, e)| (e.offset, chunk_sizes[..k].iter().sum::<u64>() as usize))
        .collect();
    let all = ticks.len();
    cuts.extend([512, 511, 0].map(|c| (c, 0)));
    cuts.extend((footer_at..bytes.len() as u64).step_by(8).map(|c| (c, all)));
    for (cut, want) in cuts {
        let mut reader = IbfrecReader::from_bytes(bytes[..cut as usize].to_vec()).unwrap();
        let got: Vec<u64> = reader.by_ref().map(|r| r.unwrap().record.tick).collect();
        assert_eq!(got, ticks[..want], "cut at {cut}");
        assert!(!reader.issues().is_empty(), "cut at {cut}: no issue");
    }
    let mut rng = Rng(0xc0ffee);
    let mut noticed = 0;
    let cases = 300;
    for case in 0..cases {
        let mut b = bytes.clone();
        if case % 3 == 0 {
            b.truncate(rng.below(bytes.len() as u64) as usize);
        } else {
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(b.len() as u64) as usize;
                b[at] ^= 1 << rng.below(8);
            }
        }
        let (got, largest) = read_damaged(&b);
        assert!(
            largest <= cap,
            "case {case}: an allocation of {largest} bytes, past {cap}"
        );
        let mut reader = IbfrecReader::from_bytes(b.clone()).unwrap();
        while reader.next_record().unwrap().is_some() {}
        noticed += usize::from(!reader.issues().is_empty() || got == ticks);
        assert!(
            got.iter().all(|t| ticks.contains(t)),
            "case {case}: a tick not written: {got:?} {:?}",
            reader.issues()
        );
    }
    assert_eq!(
        noticed, cases,
        "a damaged file read without an issue and not whole"
    );
}

/// A live host (a thread publishing into the snapshot ring) and a client that records every
/// new snapshot it reads through the writer for about a second; the Rust reader and the
/// Python reader each replay every one byte for byte.
#[test]
fn a_live_client_records_the_ring_and_the_replay_is_byte_for_byte() {
    const RING_AT: usize = 4096;
    let buf = SharedBuf::new(RING_AT + RING_SLOTS as usize * RING_SLOT_SIZE as usize);
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let ring = live::SnapshotRing::new(header, buf.region().tail(RING_AT, 8).unwrap()).unwrap();
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let mut copies: Vec<(u64, Vec<u8>)> = Vec::new();
    thread::scope(|s| {
        s.spawn(|| {
            let mut slot = live::RingSlot::zeroed();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let (_, snapshot, extras) = tick(n);
                *slot.payload = snapshot;
                slot.payload_extra = extras;
                slot.tick = n;
                slot.publish_seq = n;
                ring.publish(&mut slot).unwrap();
                thread::sleep(Duration::from_micros(300));
            }
        });
        let mut w = IbfrecWriter::create(&mut out, &file_header(), WriterOptions::new(64)).unwrap();
        let started = Instant::now();
        let mut last = 0;
        while started.elapsed() < Duration::from_millis(1200) && copies.len() < 3000 {
            let Some((slot, _)) = ring.read_newest_counted(DEFAULT_TRIES).unwrap() else {
                continue;
            };
            if slot.tick <= last {
                continue;
            }
            last = slot.tick;
            let h = RecTickHeader {
                tick: slot.tick,
                frame: slot.payload.header.frame,
                host_time_ns: slot.publish_ns,
                ..Default::default()
            };
            w.push(&h, &slot.payload, &slot.payload_extra).unwrap();
            let mut data = slot.payload.as_bytes().to_vec();
            data.extend(&slot.payload_extra);
            copies.push((slot.tick, data));
        }
        stop.store(true, Ordering::Relaxed);
        w.finish(&RecFooter::default()).unwrap();
    });
    assert!(
        copies.len() > 100,
        "only {} snapshots recorded",
        copies.len()
    );
    // The Python reader replays the same file: every snapshot and extras as the client read it.
    let dir = common::python_recording::module_dir("live_rust_writer");
    std::fs::write(dir.join("live.ibfrec"), &out).unwrap();
    let mut expected = Vec::new();
    for (t, data) in &copies {
        expected.extend(t.to_le_bytes());
        expected.extend((data.len() as u32).to_le_bytes());
        expected.extend(data);
    }
    std::fs::write(dir.join("expected.bin"), expected).unwrap();
    let script = format!(
        "{}{}",
        common::python_recording::PRELUDE,
        r#"
want = expected(sys.argv[2])
with bridge.IbfrecReader(sys.argv[1]) as r:
    got = [whole(x) for x in r]
    assert r.check() == [], r.issues
ticks = [bridge.RecTickHeader.from_buffer_copy(h).tick for h, _ in got]
assert ticks == sorted(want), "the ticks differ"
for (h, data), t in zip(got, ticks):
    assert data == want[t], "tick %d differs" % t
print(len(got))
"#
    );
    let printed = common::python_recording::python(
        &dir,
        "live.py",
        &script,
        &["live.ibfrec", "expected.bin"],
        Duration::from_secs(60),
    );
    assert_eq!(printed.trim(), copies.len().to_string());

    let (records, issues) = replay(out);
    assert_eq!(issues, vec![]);
    assert_eq!(records.len(), copies.len());
    for (r, (t, data)) in records.iter().zip(&copies) {
        assert_eq!(r.record.tick, *t);
        let mut got = r.snapshot.as_bytes().to_vec();
        got.extend(&r.extras);
        assert_eq!(&got, data, "tick {t}");
        assert_eq!(
            Snapshot::read_from_bytes(&data[..SNAPSHOT])
                .unwrap()
                .header
                .tick,
            *t
        );
    }
}
