//! The C header's region-protocol helpers under attack and under race:
//! - hostile peers (`tests/c_protocols/fuzz.c`, built with AddressSanitizer and
//!   UndefinedBehaviorSanitizer): a thread stores random words into each protocol's region
//!   while every helper of both sides runs on it; every result is a valid outcome or one of
//!   the helper's named errors, never an access outside the region (each region is a heap
//!   block of exactly its length), and named errors and valid outcomes are both seen;
//! - ThreadSanitizer (`tests/c_protocols/race.c`): a C writer and a C reader thread on the log
//!   queue, the log ring, the mailbox and the draw lists; nothing torn, stale or lost, and
//!   the race is proved by the drops, laps, waits and overwritten lists it counts.
//!
//! Needs gcc with its sanitizers (Debian: libasan8, libubsan1, libtsan2); fails, never skips.
#![cfg(not(miri))]

use crate::common;

use std::collections::HashMap;

use abi_codegen::testing::language_backend::c::render_c_header;
use common::tools::{STRICT_WARNINGS, run_ok, run_tsan, scratch};

fn folder(name: &str, file: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c_protocols")
        .join(file);
    std::fs::copy(src, dir.join(file)).unwrap();
    dir
}

/// `fuzz <protocol>: name=count ...` lines, by protocol.
fn fuzz_counts(out: &str) -> HashMap<String, HashMap<String, u64>> {
    out.lines()
        .filter_map(|l| l.strip_prefix("fuzz "))
        .filter_map(|l| l.split_once(": "))
        .map(|(protocol, counts)| {
            let counts = counts
                .split(' ')
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), v.parse().unwrap()))
                .collect();
            (protocol.to_string(), counts)
        })
        .collect()
}

#[test]
fn hostile_peers_get_named_errors_never_a_stray_access() {
    let dir = folder("c_protocols_fuzz", "fuzz.c");
    let mut args = vec![
        "-std=c11",
        "-O1",
        "-g",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
        "-pthread",
    ];
    args.extend(STRICT_WARNINGS);
    args.extend(["fuzz.c", "-o", "fuzz"]);
    run_ok("gcc", &args, &dir);
    let seeds: Vec<String> = match std::env::var("C_PROTOCOLS_FUZZ_SEED") {
        Ok(seed) => vec![seed],
        Err(_) => ["1", "2", "0x9e3779b97f4a7c15"].map(String::from).to_vec(),
    };
    let errors: [(&str, &[&str]); 5] = [
        (
            "queue",
            &[
                "queue_capacity",
                "queue_positions",
                "queue_entry_size",
                "entry_part_too_long",
                "entry_part_past_entry",
            ],
        ),
        (
            "ring",
            &[
                "ring_capacity",
                "ring_positions",
                "ring_entry_size",
                "entry_part_too_long",
                "entry_part_past_entry",
            ],
        ),
        (
            "mailbox",
            &["mailbox_capacity", "mailbox_length", "mailbox_sequence"],
        ),
        (
            "draw",
            &[
                "exchange_geometry",
                "exchange_state",
                "exchange_list_length",
                "exchange_contended",
            ],
        ),
        (
            "session",
            &[
                "session_disconnected",
                "session_reloaded",
                "session_host_exiting",
                "not_free",
            ],
        ),
    ];
    let mut totals: HashMap<String, HashMap<String, u64>> = HashMap::new();
    for seed in &seeds {
        let out = run_ok(dir.join("fuzz").to_str().unwrap(), &[seed, "100000"], &dir);
        println!("{out}");
        for (protocol, counts) in fuzz_counts(&out) {
            let total = totals.entry(protocol).or_default();
            for (name, n) in counts {
                *total.entry(name).or_default() += n;
            }
        }
    }
    for (protocol, named) in errors {
        let counts = &totals[protocol];
        let seen: u64 = named
            .iter()
            .map(|n| counts.get(*n).copied().unwrap_or(0))
            .sum();
        assert!(seen > 0, "{protocol}: named errors seen: {counts:?}");
        assert!(
            counts.get("ok").copied().unwrap_or(0) > 0,
            "{protocol}: valid outcomes too: {counts:?}"
        );
    }
}

/// The numbers of a line: "3 reads, 0 torn" gives [3, 0].
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn a_c_writer_and_reader_race_cleanly_under_thread_sanitizer() {
    let dir = folder("c_protocols_tsan", "race.c");
    let stdout = run_tsan(&dir, "race.c");
    let line = |prefix: &str| {
        numbers(
            stdout
                .lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no `{prefix}` line in\n{stdout}")),
        )
    };
    let queue = line("race queue:");
    assert_eq!(
        queue[1] + queue[2],
        queue[0],
        "received + dropped = written"
    );
    assert!(
        queue[1] > 0 && queue[2] > 0,
        "the writer filled the queue: {queue:?}"
    );
    let ring = line("race ring:");
    assert!(
        ring[1] > 0 && ring[2] > 0 && ring[4] == 0,
        "lapped, nothing torn: {ring:?}"
    );
    assert_eq!(ring[1] + ring[3], ring[0], "read + missed = written");
    let mailbox = line("race mailbox:");
    assert!(
        mailbox[1] == mailbox[0] && mailbox[2] == 0 && mailbox[3] > 0,
        "{mailbox:?}"
    );
    let draw = line("race draw:");
    assert!(draw[1] > 0 && draw[2] == 0 && draw[3] > 0, "{draw:?}");
}
