//! The wake statistics (issue 47 step 4) in Rust (`abi_runtime::wake_stats::WakeStats`), C
//! (`ibf_wake_stats_record`, `ibf_wake_stats_percentiles_us`) and Python (`bridge.WakeStats`):
//! the same waits, on a fake host clock, give each the same ticks, skipped publications and
//! publish-to-wake percentiles over the last 128 ticks, which this test computes on its own
//! from the waits. Then the cases that must change nothing or count no skip: a sequence that
//! did not move, one that went back (a reload), a wake that reads before its publication.
//! Last, each language's generated store helper (`store_tick_wake_stats`, the fields the tick
//! event's `stats` names) writes the figures into a stats header, which this test reads
//! back through the Rust view.

use bridge_abi::live::StatsHeader;
use bridge_abi::runtime::SharedBuf;
use bridge_abi::runtime::wake_stats::WakeStats;

use crate::common::tools::{run_ok, scratch};

/// The waits: (last, seq, publish_ns, wake_ns). Tick `i` is woken `(i * 37) % 150 + 1` us
/// after its publication; every seventh skips one publication.
fn waits() -> Vec<(u64, u64, u64, u64)> {
    let mut out = Vec::new();
    let mut last = 0;
    for i in 1..=200u64 {
        let seq = last + if i % 7 == 0 { 2 } else { 1 };
        let publish = 1_000_000 * i;
        out.push((last, seq, publish, publish + 1000 * ((i * 37) % 150 + 1)));
        last = seq;
    }
    out
}

/// What the waits must give: (ticks, skipped, p50 us, p99 us), computed here from the
/// rules: a wait whose sequence did not move is no tick; one that went back skips nothing;
/// a wake before its publication is 0 us; the percentiles cover the last 128 samples.
fn expected(waits: &[(u64, u64, u64, u64)]) -> (u64, u64, f64, f64) {
    let ticks: Vec<_> = waits.iter().filter(|w| w.1 != w.0).collect();
    let skipped = ticks
        .iter()
        .filter(|w| w.1 > w.0)
        .map(|w| w.1 - w.0 - 1)
        .sum();
    let mut last: Vec<u64> = ticks[ticks.len().saturating_sub(128)..]
        .iter()
        .map(|w| w.3.saturating_sub(w.2))
        .collect();
    last.sort_unstable();
    let n = last.len();
    (
        ticks.len() as u64,
        skipped,
        last[(n - 1) * 50 / 100] as f64 / 1000.0,
        last[(n - 1) * 99 / 100] as f64 / 1000.0,
    )
}

/// The negative cases, after the waits: no move, a reload (back to 3), and a wake before its
/// publication (0 us).
fn after(last: u64) -> [(u64, u64, u64, u64); 3] {
    [
        (last, last, 5, 999_999_999),
        (last, 3, 7_000_000_000, 7_000_005_000),
        (3, 4, 8_000_000_000, 7_999_000_000),
    ]
}

fn line(w: &[(u64, u64, u64, u64)]) -> String {
    w.iter()
        .map(|(a, b, c, d)| format!("{a} {b} {c} {d}"))
        .collect::<Vec<_>>()
        .join("\n")
}

const C_PROGRAM: &str = r#"
#include "bridge.h"
#include <stdio.h>

int main(void) {
    static ibf_wake_stats w;
    unsigned long long a, b, c, d;
    float p50, p99;
    while (scanf("%llu %llu %llu %llu", &a, &b, &c, &d) == 4) {
        ibf_wake_stats_record(&w, a, b, c, d);
    }
    ibf_wake_stats_percentiles_us(&w, &p50, &p99);
    printf("%llu %llu %.3f %.3f\n", (unsigned long long)w.ticks, (unsigned long long)w.skipped,
           (double)p50, (double)p99);
    return 0;
}
"#;

const PY_PROGRAM: &str = r#"
import sys
import bridge

w = bridge.WakeStats()
for line in sys.stdin.read().split("\n"):
    if line.strip():
        a, b, c, d = (int(x) for x in line.split())
        w.record(a, b, c, d)
p50, p99 = w.percentiles_us()
print("%d %d %.3f %.3f" % (w.ticks, w.skipped, p50, p99))
"#;

/// A scratch folder `name` holding the C program `c`, built against the generated header
/// with gcc's strict flags, and the Python program `py` (`prog.py`): the folder and the
/// C program's path.
fn programs(name: &str, c: &str, py: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch(name);
    std::fs::write(dir.join("prog.c"), c).unwrap();
    std::fs::write(dir.join("prog.py"), py).unwrap();
    let include = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let mut args: Vec<&str> = "-std=c11 -Wall -Wextra -Werror -pedantic -O2"
        .split(' ')
        .collect();
    args.extend(["-I", include.to_str().unwrap(), "prog.c", "-o", "prog"]);
    run_ok("gcc", &args, &dir);
    let prog = dir.join("prog");
    (dir, prog)
}

/// Runs `program` with the waits on stdin; its line of figures.
fn run_with_input(program: &str, args: &[&str], dir: &std::path::Path, input: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .env(
            "PYTHONPATH",
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated"),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{program} failed");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn rust_c_and_python_count_the_same_waits_and_percentiles() {
    let waits = waits();
    let (ticks, skipped, p50, p99) = expected(&waits);
    assert!(
        skipped > 0 && p50 < p99,
        "the waits exercise both: {skipped} {p50} {p99}"
    );
    let want = format!("{ticks} {skipped} {p50:.3} {p99:.3}");
    let last = waits.last().unwrap().1;
    let mut all = waits.clone();
    all.extend(after(last));
    let (ticks_after, skipped_after, p50_after, p99_after) = expected(&all);
    // The negative cases add two ticks and no skip.
    assert_eq!((ticks_after, skipped_after), (ticks + 2, skipped));
    let want_after = format!("{ticks_after} {skipped_after} {p50_after:.3} {p99_after:.3}");

    let figures = |w: &[(u64, u64, u64, u64)]| {
        let mut s = WakeStats::new();
        for &(a, b, c, d) in w {
            s.record(a, b, c, d);
        }
        let (p50, p99) = s.percentiles_us();
        format!("{} {} {p50:.3} {p99:.3}", s.ticks(), s.skipped())
    };
    assert_eq!(figures(&waits), want, "rust");
    assert_eq!(figures(&all), want_after, "rust, after the negative cases");

    let (dir, c) = programs("wake_stats", C_PROGRAM, PY_PROGRAM);
    let c = c.to_str().unwrap();
    for (input, want) in [(&waits[..], &want), (&all[..], &want_after)] {
        assert_eq!(&run_with_input(c, &[], &dir, &line(input)), want, "c");
        assert_eq!(
            &run_with_input(
                "python3",
                &["-B", "-W", "error", "prog.py"],
                &dir,
                &line(input)
            ),
            want,
            "python"
        );
    }
}

const C_STORE: &str = r#"
#include "bridge.h"
#include <stdio.h>

static union {
    ibf_stats_header h;
    unsigned char bytes[4160];
} u;

int main(void) {
    static ibf_wake_stats w;
    unsigned long long a, b, c, d;
    size_t i;
    while (scanf("%llu %llu %llu %llu", &a, &b, &c, &d) == 4) {
        ibf_wake_stats_record(&w, a, b, c, d);
    }
    ibf_tick_store_wake_stats(&u.h, &w);
    for (i = 0; i < 64U; i++) {
        printf("%02x", u.bytes[i]);
    }
    printf("\n");
    return 0;
}
"#;

const PY_STORE: &str = r#"
import mmap
import sys
import bridge

w = bridge.WakeStats()
for line in sys.stdin.read().split("\n"):
    if line.strip():
        a, b, c, d = (int(x) for x in line.split())
        w.record(a, b, c, d)
buf = mmap.mmap(-1, bridge.LiveStatsHeader.MIN_LEN)
bridge.store_tick_wake_stats(bridge.LiveStatsHeader(buf), w)
print(buf[:64].hex())
"#;

/// The stats header's first 64 bytes, as hex, read back through the Rust view: the four
/// figures, and whether every other byte is still zero.
fn read_back(hex: &str) -> (String, bool) {
    assert_eq!(hex.len(), 128, "64 bytes of hex: {hex}");
    let bytes: Vec<u8> = (0..64)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let buf = SharedBuf::new(StatsHeader::MIN_LEN);
    buf.region().write_bytes(0, &bytes).unwrap();
    let view = StatsHeader::at(buf.region(), 0).unwrap();
    let figures = format!(
        "{} {} {:.3} {:.3}",
        view.ticks(),
        view.skipped(),
        view.wake_p50_us(),
        view.wake_p99_us()
    );
    let others_zero = (bytes[..16].iter().chain(&bytes[40..])).all(|&b| b == 0);
    (figures, others_zero)
}

#[test]
fn each_language_stores_its_figures_where_the_tick_events_stats_say() {
    let waits = waits();
    let (ticks, skipped, p50, p99) = expected(&waits);
    let want = format!("{ticks} {skipped} {p50:.3} {p99:.3}");

    let mut rust = WakeStats::new();
    for &(a, b, c, d) in &waits {
        rust.record(a, b, c, d);
    }
    let buf = SharedBuf::new(StatsHeader::MIN_LEN);
    StatsHeader::at(buf.region(), 0)
        .unwrap()
        .store_tick_wake_stats(&rust)
        .unwrap();
    let mut bytes = [0u8; 64];
    buf.region().read_bytes(0, &mut bytes);
    let rust_hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();

    let (dir, c) = programs("wake_stats_store", C_STORE, PY_STORE);
    let input = line(&waits);
    let c_hex = run_with_input(c.to_str().unwrap(), &[], &dir, &input);
    let py_hex = run_with_input("python3", &["-B", "-W", "error", "prog.py"], &dir, &input);
    for (lang, hex) in [("rust", &rust_hex), ("c", &c_hex), ("python", &py_hex)] {
        assert_eq!(read_back(hex), (want.clone(), true), "{lang} stored {hex}");
    }
}
