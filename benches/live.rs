//! The live layer's read of the newest snapshot (`SnapshotRing::read_newest`: the head's
//! acquire load, the seqlock, relaxed atomic copies of the slot's 64-byte header fields and
//! its 12,104-byte payload into owned values) against a plain `copy_from_slice` of the same
//! 12,168 bytes from an ordinary buffer, with no writer running; and the same read into a
//! value the caller keeps (`read_newest_into`). Goal: at most 2× the copy.
//! Run with `cargo bench -p bridge-abi --bench live`.

use std::hint::black_box;

use bridge_abi::live;
use bridge_abi::runtime::SharedBuf;
use criterion::{Criterion, criterion_group, criterion_main};

const RING_AT: usize = 4096;
const SLOT: usize = 32768;
const COPIED: usize = 64 + 12104;

fn bench_live(c: &mut Criterion) {
    let shared = SharedBuf::new(RING_AT + 8 * SLOT);
    let header = live::BridgeHeader::at(shared.region(), 0).unwrap();
    let ring = live::SnapshotRing::new(header, shared.region().tail(RING_AT, 8).unwrap()).unwrap();
    let mut slot = live::RingSlot::zeroed();
    slot.payload.header.tick = 42;
    ring.publish(&mut slot).expect("a slot holds the value");

    let mut group = c.benchmark_group("newest snapshot");
    group.bench_function("read_newest (seqlock, atomic copy)", |b| {
        b.iter(|| {
            let newest = ring.read_newest().unwrap().unwrap();
            black_box(newest.payload.header.tick)
        })
    });
    let plain = vec![7u8; RING_AT + 8 * SLOT];
    let mut out = vec![0u8; COPIED];
    group.bench_function("copy_from_slice of the same bytes", |b| {
        b.iter(|| {
            out.copy_from_slice(black_box(&plain[RING_AT..RING_AT + COPIED]));
            black_box(out[100])
        })
    });
    // The same read into a value the caller keeps: no zeroing and no moves of 12 KB.
    let mut kept = live::RingSlot::zeroed();
    group.bench_function("read_newest_into a kept value", |b| {
        b.iter(|| {
            ring.read_newest_into(&mut kept, 10).unwrap().unwrap();
            black_box(kept.payload.header.tick)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_live);
criterion_main!(benches);
