//! The recording reader's speed (issue 27, bench/README.md): replaying a recording of
//! snapshots through `recording::IbfrecReader` against the floor, inflating the same chunks
//! with flate2 alone, and the cost of a seek to a random tick against inflating one chunk.
//!
//! `cargo run --release --example recording_bench -- [--ticks N] [--runs R]`
//! (defaults 20,000 ticks, 3 runs; the fastest run of each is printed).

use std::io::Cursor;
use std::time::{Duration, Instant};

use bridge_abi::recording::{IbfrecReader, IbfrecWriter, WriterOptions};
use bridge_abi::*;
use flate2::{Decompress, FlushDecompress};
use zerocopy::IntoBytes;

/// Tick `t`: a snapshot whose header, ships and events move a little each tick, and a few
/// bytes of extras, as a game publishes them.
fn tick(t: u64) -> (RecTickHeader, Snapshot, Vec<u8>) {
    let extras: Vec<u8> = (0..(t / 60 % 4) * 16).map(|i| (i + t) as u8).collect();
    let mut s = Snapshot::default();
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.tick = t;
    s.header.frame = t * 2;
    s.header.size = (core::mem::size_of::<Snapshot>() + extras.len()) as u32;
    s.event_total = t / 7;
    s.ship_count = 4;
    for (i, ship) in s.ships.iter_mut().enumerate().take(4) {
        ship.reload_progress = (t % 100) as f32 / 100.0 + i as f32;
    }
    let h = RecTickHeader {
        tick: t,
        frame: t * 2,
        host_time_ns: t * 16_666_667,
        ..Default::default()
    };
    (h, s, extras)
}

fn record(ticks: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let header = RecFileHeader {
        snapshot_size: core::mem::size_of::<Snapshot>() as u32,
        chunk_ticks: REC_CHUNK_TICKS,
        ..Default::default()
    };
    let mut w = IbfrecWriter::create(
        Cursor::new(&mut out),
        &header,
        WriterOptions::new(REC_CHUNK_TICKS),
    )
    .expect("a writer over memory");
    for t in 1..=ticks {
        let (h, s, e) = tick(t);
        w.push(&h, &s, &e).expect("a tick");
    }
    w.finish(&RecFooter::default()).expect("the footer");
    out
}

fn fastest(runs: u32, mut f: impl FnMut() -> u64) -> (Duration, u64) {
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            let n = f();
            (started.elapsed(), n)
        })
        .min()
        .expect("at least one run")
}

fn main() {
    let mut ticks = 20_000u64;
    let mut runs = 3u32;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (a.as_str(), value) {
            ("--ticks", Some(v)) => ticks = v,
            ("--runs", Some(v)) => runs = v as u32,
            _ => {
                eprintln!("usage: recording_bench [--ticks N] [--runs R]");
                std::process::exit(2);
            }
        }
    }
    let started = Instant::now();
    let bytes = record(ticks);
    let written = started.elapsed();
    let reader = IbfrecReader::open(Cursor::new(&bytes[..])).expect("open");
    assert!(reader.issues().is_empty(), "{:?}", reader.issues());
    let index = reader.chunk_index();
    let chunks = reader.chunks();
    let raw: u64 = chunks.iter().map(|c| u64::from(c.raw_size)).sum();
    // The floor: every chunk's stream inflated into a reused buffer, nothing else.
    let streams: Vec<(usize, usize, usize)> = index
        .iter()
        .zip(&chunks)
        .map(|(e, c)| {
            let at = e.offset as usize + c.as_bytes().len();
            (at, c.stored_size as usize, c.raw_size as usize)
        })
        .collect();
    let mut buf = Vec::new();
    let mut inflate = |&(at, stored, raw): &(usize, usize, usize)| {
        buf.clear();
        buf.reserve(raw + 1);
        let mut z = Decompress::new(true);
        z.decompress_vec(&bytes[at..at + stored], &mut buf, FlushDecompress::Finish)
            .expect("a whole stream");
        assert_eq!(buf.len(), raw);
    };
    let (floor, _) = fastest(runs, || {
        streams.iter().for_each(&mut inflate);
        ticks
    });
    let (replay, n) = fastest(runs, || {
        let mut r = IbfrecReader::open(Cursor::new(&bytes[..])).expect("open");
        let mut n = 0;
        while let Some(rec) = r.next_record().expect("a record") {
            n += u64::from(rec.record.tick > 0);
        }
        n
    });
    assert_eq!(n, ticks, "every tick replayed");
    // A seek: a random tick's record, from a reader positioned elsewhere (so its chunk is
    // inflated), against inflating one chunk.
    let seeks = 200u64;
    let mut r = IbfrecReader::open(Cursor::new(&bytes[..])).expect("open");
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let (seek, _) = fastest(runs, || {
        for _ in 0..seeks {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t = x % ticks + 1;
            let got = r.read_tick(t).expect("a read").expect("the tick");
            assert_eq!(got.record.tick, t);
        }
        seeks
    });
    let (one, _) = fastest(runs, || {
        for k in 0..seeks as usize {
            inflate(&streams[k % streams.len()]);
        }
        seeks
    });
    let per_s = |d: Duration| ticks as f64 / d.as_secs_f64();
    println!(
        "recording: {ticks} ticks in {} chunks, {:.1} MB raw, {:.2} MB stored, written in {:.2} s",
        chunks.len(),
        raw as f64 / 1e6,
        bytes.len() as f64 / 1e6,
        written.as_secs_f64()
    );
    println!(
        "inflate alone (floor): {:.3} s, {:.0} ticks/s",
        floor.as_secs_f64(),
        per_s(floor)
    );
    println!(
        "replay (IbfrecReader::next_record): {:.3} s, {:.0} ticks/s, {:.2}x the floor",
        replay.as_secs_f64(),
        per_s(replay),
        replay.as_secs_f64() / floor.as_secs_f64()
    );
    let seek_us = seek.as_secs_f64() * 1e6 / seeks as f64;
    let one_us = one.as_secs_f64() * 1e6 / seeks as f64;
    println!(
        "seek to a random tick (read_tick): {seek_us:.0} us; one chunk inflated alone: {one_us:.0} us; {:.2}x",
        seek_us / one_us
    );
}
