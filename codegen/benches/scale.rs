//! Scale: synthetic schemas of 100, 1,000 and 10,000 structs (with constants, enums, flag
//! sets, arrays and padding; see `synth/mod.rs`) taken from text to every target. The
//! doubling points (2,500, 5,000) check that time grows linearly: doubling the input must
//! cost at most 2.2× the time. Goal: 10,000 structs, every target, under 1 s.
//! Peak memory is reported by `examples/scale.rs` (bench/scale.sh).
//! Run with `cargo bench -p abi-codegen --bench scale`. It allocates with mimalloc, as the
//! `codegen` command line does.

use std::hint::black_box;
use std::time::Duration;

use abi_codegen::testing::language_backend::{c, generate_all, markdown, python, rust};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod synth;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SIZES: [usize; 5] = [100, 1_000, 2_500, 5_000, 10_000];

/// Every size under `cargo bench` (which passes `--bench`); the smallest alone under `cargo
/// test --benches`, which runs each benchmark once to check that it works (.ci/run) and
/// would spend minutes on 10,000 structs in a debug build.
fn sizes() -> &'static [usize] {
    if std::env::args().any(|a| a == "--bench") {
        &SIZES
    } else {
        &SIZES[..1]
    }
}

fn bench_scale(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("scale");
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(5));
    for &n in sizes() {
        let text = synth::synth_schema(n);
        let schema = abi_codegen::load_schema(&text).expect("the synthetic schema loads");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("whole", n), &text, |b, text| {
            b.iter(|| {
                let schema = abi_codegen::load_schema(black_box(text)).unwrap();
                generate_all(&schema, "synth.toml").unwrap()
            })
        });
        g.bench_with_input(BenchmarkId::new("load_schema", n), &text, |b, text| {
            b.iter(|| abi_codegen::load_schema(black_box(text)).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("target_rust", n), &schema, |b, s| {
            b.iter(|| rust::expand_rust(black_box(s), "synth.toml"))
        });
        g.bench_with_input(BenchmarkId::new("target_c", n), &schema, |b, s| {
            b.iter(|| c::render_c_header(black_box(s), "synth.toml").unwrap())
        });
        g.bench_with_input(BenchmarkId::new("target_python", n), &schema, |b, s| {
            b.iter(|| python::render_python(black_box(s), "synth.toml").unwrap())
        });
        g.bench_with_input(BenchmarkId::new("target_markdown", n), &schema, |b, s| {
            b.iter(|| markdown::render_markdown(black_box(s), "synth.toml").unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench_scale);
criterion_main!(benches);
