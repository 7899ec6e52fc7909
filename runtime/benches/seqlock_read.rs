//! A seqlock-guarded read of a snapshot-sized payload (12104 bytes after a 64-byte header)
//! against a plain `copy_from_slice` of the same 12104 bytes from a `Vec<u8>`; no writer runs.
//! The goal is a ratio of at most 2.

use std::hint::black_box;

use abi_runtime::{DEFAULT_TRIES, SeqLock, SharedBuf};
use criterion::{Criterion, criterion_group, criterion_main};

const HEADER: usize = 64;
const PAYLOAD: usize = 12104;

fn bench(c: &mut Criterion) {
    let bytes: Vec<u8> = (0..PAYLOAD).map(|i| i as u8).collect();
    let buf = SharedBuf::new(HEADER + PAYLOAD);
    let region = buf.region();
    let lock = SeqLock::<u64>::new(region, 0);
    let payload = region.sub(HEADER, PAYLOAD, 8).unwrap();
    lock.write(|| payload.write_bytes(0, &bytes))
        .unwrap()
        .unwrap();

    let mut group = c.benchmark_group("read_12104_bytes");
    let mut out = vec![0u8; PAYLOAD];
    group.bench_function("seqlock_read_bytes", |b| {
        b.iter(|| {
            lock.read(DEFAULT_TRIES, || payload.read_bytes(0, black_box(&mut out)))
                .unwrap();
            black_box(&out);
        })
    });
    group.bench_function("read_bytes", |b| {
        b.iter(|| {
            payload.read_bytes(0, black_box(&mut out));
            black_box(&out);
        })
    });
    group.bench_function("copy_from_slice", |b| {
        b.iter(|| {
            out.copy_from_slice(black_box(&bytes));
            black_box(&out);
        })
    });
    group.finish();
    assert_eq!(out, bytes);
}

criterion_group!(benches, bench);
criterion_main!(benches);
