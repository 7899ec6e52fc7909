//! Runs one stage of the bridge schema's generation many times in a loop, so that a
//! profiler sees mostly that stage, and prints the mean time per run. Used for the profiles
//! in bench/README.md:
//! `perf record -g cargo run --release -p abi-codegen --example profile -- rust 300`.
//! Stages: load (parse, lower, layout), rust, c, python, markdown, all (every target from a
//! loaded schema), whole (text to every target).

use std::hint::black_box;
use std::time::Instant;

use abi_codegen::testing::language_backend::{c, generate_all, markdown, python, rust};

const SCHEMA: &str = include_str!("../../schema.toml");
const STAGES: &str = "load, rust, c, python, markdown, all, whole";

fn main() {
    let mut args = std::env::args().skip(1);
    let stage = args.next().unwrap_or_else(|| "whole".to_owned());
    let runs: u32 = match args.next().map(|n| n.parse()) {
        None => 200,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => fail("RUNS must be a positive number"),
    };
    let schema = abi_codegen::load_schema(SCHEMA).expect("the bridge schema loads");
    let run: Box<dyn Fn()> = match stage.as_str() {
        "load" => Box::new(|| drop(black_box(abi_codegen::load_schema(SCHEMA)))),
        "rust" => Box::new(|| drop(black_box(rust::expand_rust(&schema, "schema.toml")))),
        "c" => Box::new(|| drop(black_box(c::render_c_header(&schema, "schema.toml")))),
        "python" => Box::new(|| drop(black_box(python::render_python(&schema, "schema.toml")))),
        "markdown" => {
            Box::new(|| drop(black_box(markdown::render_markdown(&schema, "schema.toml"))))
        }
        "all" => Box::new(|| drop(black_box(generate_all(&schema, "schema.toml")))),
        "whole" => Box::new(|| {
            let schema = abi_codegen::load_schema(black_box(SCHEMA)).expect("loads");
            drop(black_box(generate_all(&schema, "schema.toml")));
        }),
        other => fail(&format!("unknown stage `{other}`; stages: {STAGES}")),
    };
    let start = Instant::now();
    for _ in 0..runs {
        run();
    }
    let mean = start.elapsed().as_secs_f64() * 1e3 / f64::from(runs);
    println!("{stage}: {mean:.3} ms per run, mean of {runs}");
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(2);
}
