//! Takes a synthetic schema of N structs (`benches/synth`) from text to every target, runs
//! each stage several times, and prints one line: the median time of each stage, of the
//! whole pipeline, the output size and the process's peak memory (VmHWM). One N per process,
//! so that the peak is this N's. Used by bench/scale.sh:
//! `cargo run --release -p codegen --example scale -- 10000`.

use std::time::{Duration, Instant};

use codegen::language_backend::{c, generate_all, markdown, python, rust};

#[path = "../benches/synth/mod.rs"]
mod synth;

/// Median wall time of `runs` calls of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

/// Peak resident memory of this process so far, in KiB, from /proc/self/status.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map(|a| a.parse().expect("N, a number of structs"))
        .unwrap_or(10_000);
    let runs: usize = args
        .next()
        .map(|a| a.parse().expect("the number of runs"))
        .unwrap_or(5);
    let text = synth::synth_schema(n);
    let schema = codegen::load_schema(&text).unwrap_or_else(|e| {
        eprint!("{}", e.render("synth.toml", &text));
        std::process::exit(1)
    });
    let raw = codegen::parse::parse_schema(&text).expect("parses");
    let abi = codegen::lower::lower_schema(&raw, &text).expect("lowers");
    drop(raw);

    let whole = median(runs, || {
        let schema = codegen::load_schema(&text).unwrap();
        std::hint::black_box(generate_all(&schema, "synth.toml").unwrap());
    });
    let parse = median(runs, || {
        std::hint::black_box(codegen::parse::parse_schema(&text).unwrap());
    });
    let raw = codegen::parse::parse_schema(&text).unwrap();
    let lower = median(runs, || {
        std::hint::black_box(codegen::lower::lower_schema(&raw, &text).unwrap());
    });
    drop(raw);
    let layout = median(runs, || {
        std::hint::black_box(codegen::layout::compute_layout(&abi).unwrap());
    });
    let rust_t = median(runs, || {
        std::hint::black_box(rust::expand_rust(&schema, "synth.toml"));
    });
    let c_t = median(runs, || {
        std::hint::black_box(c::render_c_header(&schema, "synth.toml").unwrap());
    });
    let python_t = median(runs, || {
        std::hint::black_box(python::render_python(&schema, "synth.toml").unwrap());
    });
    let markdown_t = median(runs, || {
        std::hint::black_box(markdown::render_markdown(&schema, "synth.toml").unwrap());
    });
    let outputs = generate_all(&schema, "synth.toml").unwrap();
    let out_bytes: usize = outputs.iter().map(|o| o.contents.len()).sum();
    println!(
        "n={n} schema_bytes={} output_bytes={out_bytes} whole_ms={} parse_ms={} lower_ms={} \
         layout_ms={} rust_ms={} c_ms={} python_ms={} markdown_ms={} peak_rss_kib={}",
        text.len(),
        ms(whole),
        ms(parse),
        ms(lower),
        ms(layout),
        ms(rust_t),
        ms(c_t),
        ms(python_t),
        ms(markdown_t),
        peak_rss_kib().map_or("?".to_string(), |k| k.to_string()),
    );
}
