//! Generation of the bridge schema, in-process: each stage (parse, lower, layout), each of
//! the four targets on its own from a loaded schema, and the whole of it (text to every
//! target), which is what `abi-codegen generate` does between reading and writing files.
//! Goal: the whole of it under 5 ms. Run with `cargo bench -p abi-codegen --bench generate`.
//!
//! It allocates with mimalloc, as the `codegen` command line does. The build script uses
//! the system allocator; `examples/profile.rs` measures with that one (bench/README.md
//! gives both).

use std::hint::black_box;

use abi_codegen::testing::language_backend::{c, generate_all, markdown, python, rust};
use criterion::{Criterion, criterion_group, criterion_main};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SCHEMA: &str = include_str!("../../schema.toml");

fn bench_bridge(c: &mut Criterion) {
    let schema = abi_codegen::load_schema(SCHEMA).expect("the bridge schema loads");
    let raw = abi_codegen::testing::parse::parse_schema(SCHEMA).expect("parses");
    let abi = abi_codegen::testing::lower::lower_schema(&raw, SCHEMA).expect("lowers");

    let mut g = c.benchmark_group("bridge");
    g.bench_function("parse", |b| {
        b.iter(|| abi_codegen::testing::parse::parse_schema(black_box(SCHEMA)).unwrap())
    });
    g.bench_function("lower", |b| {
        b.iter(|| abi_codegen::testing::lower::lower_schema(black_box(&raw), SCHEMA).unwrap())
    });
    g.bench_function("layout", |b| {
        b.iter(|| abi_codegen::testing::layout::compute_layout(black_box(&abi)).unwrap())
    });
    g.bench_function("load_schema", |b| {
        b.iter(|| abi_codegen::load_schema(black_box(SCHEMA)).unwrap())
    });
    g.bench_function("target_rust", |b| {
        b.iter(|| rust::expand_rust(black_box(&schema), "schema.toml"))
    });
    g.bench_function("target_c", |b| {
        b.iter(|| c::render_c_header(black_box(&schema), "schema.toml").unwrap())
    });
    g.bench_function("target_python", |b| {
        b.iter(|| python::render_python(black_box(&schema), "schema.toml").unwrap())
    });
    g.bench_function("target_markdown", |b| {
        b.iter(|| markdown::render_markdown(black_box(&schema), "schema.toml").unwrap())
    });
    g.bench_function("all_targets", |b| {
        b.iter(|| generate_all(black_box(&schema), "schema.toml").unwrap())
    });
    g.bench_function("whole", |b| {
        b.iter(|| {
            let schema = abi_codegen::load_schema(black_box(SCHEMA)).unwrap();
            generate_all(&schema, "schema.toml").unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_bridge);
criterion_main!(benches);
