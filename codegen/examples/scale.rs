//! Takes a synthetic schema of N structs (`benches/synth`) from text to every target, runs
//! each stage several times, and prints one line: the shortest wall and CPU time of each
//! stage (`wall/cpu` ms), of the whole pipeline, the output size and the process's peak
//! memory (VmHWM). One N per process, so that the peak is this N's. Used by
//! bench/scale.sh: `cargo run --release -p abi-codegen --example scale -- 10000 [RUNS]`.
//! `scale N --write-schema FILE` only writes the schema of N structs to FILE, for timing
//! the `codegen` command on it.

use std::time::{Duration, Instant};

use abi_codegen::testing::language_backend::{c, generate_all, markdown, python, rust};

#[path = "../benches/synth/mod.rs"]
mod synth;

/// The allocator of the `codegen` command line, so that time and peak memory are the tool's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time this process has run, on all its threads (Linux `CLOCK_PROCESS_CPUTIME_ID`):
/// unlike wall time, it leaves out the time other processes hold the cores, which on a
/// shared machine is most of the noise. The targets run on several threads, so wall time
/// can be below CPU time.
fn cpu_time() -> Duration {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec; the call only writes to it.
    let rc = unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    Duration::new(t.sec as u64, t.nsec as u32)
}

/// The shortest wall time and the shortest CPU time of `runs` calls of `f`: load from
/// other processes only ever adds time, so the minimum is the steadiest figure.
fn fastest(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let (wall, cpu): (Vec<Duration>, Vec<Duration>) = (0..runs)
        .map(|_| {
            let (start, start_cpu) = (Instant::now(), cpu_time());
            f();
            (start.elapsed(), cpu_time() - start_cpu)
        })
        .unzip();
    (
        wall.into_iter().min().expect("runs > 0"),
        cpu.into_iter().min().expect("runs > 0"),
    )
}

/// `wall/cpu` in milliseconds.
fn ms((wall, cpu): (Duration, Duration)) -> String {
    format!(
        "{:.3}/{:.3}",
        wall.as_secs_f64() * 1000.0,
        cpu.as_secs_f64() * 1000.0
    )
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
    let runs = args.next();
    if runs.as_deref() == Some("--write-schema") {
        let path = args.next().expect("--write-schema FILE");
        std::fs::write(&path, synth::synth_schema(n)).expect("writes the schema");
        return;
    }
    let runs: usize = runs
        .map(|a| a.parse().expect("the number of runs"))
        .unwrap_or(5)
        .max(1);
    let text = synth::synth_schema(n);
    let schema = abi_codegen::load_schema(&text).unwrap_or_else(|e| {
        eprint!("{}", e.render("synth.toml", &text));
        std::process::exit(1)
    });
    let raw = abi_codegen::testing::parse::parse_schema(&text).expect("parses");
    let abi = abi_codegen::testing::lower::lower_schema(&raw, &text).expect("lowers");
    drop(raw);

    let whole = fastest(runs, || {
        let schema = abi_codegen::load_schema(&text).unwrap();
        std::hint::black_box(generate_all(&schema, "synth.toml").unwrap());
    });
    let parse = fastest(runs, || {
        std::hint::black_box(abi_codegen::testing::parse::parse_schema(&text).unwrap());
    });
    let raw = abi_codegen::testing::parse::parse_schema(&text).unwrap();
    let lower = fastest(runs, || {
        std::hint::black_box(abi_codegen::testing::lower::lower_schema(&raw, &text).unwrap());
    });
    drop(raw);
    let layout = fastest(runs, || {
        std::hint::black_box(abi_codegen::testing::layout::compute_layout(&abi).unwrap());
    });
    let rust_t = fastest(runs, || {
        std::hint::black_box(rust::expand_rust(&schema, "synth.toml"));
    });
    let c_t = fastest(runs, || {
        std::hint::black_box(c::render_c_header(&schema, "synth.toml").unwrap());
    });
    let python_t = fastest(runs, || {
        std::hint::black_box(python::render_python(&schema, "synth.toml").unwrap());
    });
    let markdown_t = fastest(runs, || {
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
