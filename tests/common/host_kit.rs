//! What the host helpers' tests share (issue 48: tests/row_fields.rs, host_tries.rs,
//! hung_time.rs, c_directory.rs, python_directory.rs): a C program over the bridge header
//! built strictly and run, and two directory creators raced round after round.

use std::path::Path;
use std::process::Child;
use std::time::Duration;

use bridge_abi::live::Hosts;
use bridge_abi::runtime::DirectoryMapping;

use super::c_live_program::bridge_header;
use super::tools::{run_ok, scratch};

/// Builds `source` against the bridge header with gcc (`-std=c11 -Wall -Wextra -Werror
/// -pedantic` and `extra`) in the scratch folder `name`, runs it, and returns its output.
pub fn c_output(name: &str, source: &str, extra: &[&str]) -> String {
    let (header, _) = bridge_header();
    let dir = scratch(name);
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    std::fs::write(dir.join("prog.c"), source).unwrap();
    let flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    let args = [&flags[..], extra, &["prog.c", "-o", "prog"]].concat();
    run_ok("gcc", &args, &dir);
    run_ok(dir.join("prog").to_str().unwrap(), &[], &dir)
}

/// Races two creators of one new directory file in `dir`, round after round: `spawn(file,
/// go)` starts one, which waits for the file `go`, opens or creates `file`, registers and
/// lists itself, unregisters, and prints `created C row R start S end E` (its call's times,
/// monotonic ns). `go` is written `settle` after both started. In every round exactly one
/// created the file, both succeeded, and Rust opens it after; the rounds go on (12 at least,
/// 200 at most) until the two calls overlapped in time in one, or the test fails: they must
/// have raced.
pub fn race_creators(dir: &Path, settle: Duration, spawn: impl Fn(&Path, &Path) -> Child) {
    let mut overlapped = 0;
    for round in 0..200 {
        if round >= 12 && overlapped > 0 {
            return;
        }
        let file = dir.join(format!("ibf.directory.{round}"));
        let go = dir.join(format!("go.{round}"));
        let racers = [spawn(&file, &go), spawn(&file, &go)];
        std::thread::sleep(settle);
        std::fs::write(&go, b"go").unwrap();
        let lines: Vec<Vec<u64>> = racers
            .into_iter()
            .map(|r| {
                let out = r.wait_with_output().unwrap();
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                assert!(
                    out.status.success(),
                    "{text}\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let f: Vec<&str> = text.split_whitespace().collect();
                [1, 3, 5, 7]
                    .iter()
                    .map(|&i| f[i].parse().unwrap())
                    .collect()
            })
            .collect();
        let (a, b) = (&lines[0], &lines[1]);
        assert_eq!(
            a[0] + b[0],
            1,
            "round {round}: exactly one created: {lines:?}"
        );
        if a[2] < b[3] && b[2] < a[3] {
            overlapped += 1;
        }
        let map = DirectoryMapping::open(&file, Hosts::SPEC).unwrap();
        assert_eq!(map.directory(Hosts::SPEC).unwrap().list().hosts, []);
    }
    panic!("the two creators never overlapped in 200 rounds: no race");
}
