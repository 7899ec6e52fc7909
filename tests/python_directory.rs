//! The Python module's directory (`bridge.Hosts`, `bridge.process_probe`), by
//! `tests/python_directory/directory.py` under `python3 -W error`:
//! - `unit`: register, list newest first, unregister, stale rows (gone, reused pid, a dead
//!   claimant), a full directory, hostile headers and a garbage state;
//! - a Python host registered in a directory file and killed with SIGKILL leaves a live row
//!   that Rust lists, and that the next Python host frees before it registers;
//! - `Hosts.open_or_create`: the bounded wait for a half-made directory, and two creators
//!   racing one new file (exactly one creates it).
//!
//! Needs python3; fails, never skips, without it.
#![cfg(all(unix, not(miri)))]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use bridge_abi::live::Hosts;
use bridge_abi::runtime::{DirectoryMapping, process_time_of};
use common::host_kit::race_creators;
use common::tools::scratch;

fn python(args: &[&str]) -> Command {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut c = Command::new("python3");
    c.args(["-B", "-W", "error"])
        .arg(root.join("tests/python_directory/directory.py"))
        .args(args)
        .env("PYTHONPATH", root.join("generated"))
        .env_remove("PYTHONOPTIMIZE");
    c
}

fn output(args: &[&str]) -> String {
    let out = python(args).output().unwrap_or_else(|e| {
        panic!("python3 is required for these tests but could not be run: {e}")
    });
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "directory.py {args:?} failed\n--- stdout\n{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn the_python_directory_passes_its_unit_checks() {
    assert_eq!(output(&["unit"]), "directory unit ok\n");
}

#[test]
fn a_killed_python_hosts_row_is_freed_by_the_next_python_host() {
    let file = scratch("python_directory_kill").join("ibf.directory");
    let path = file.to_str().unwrap();
    let mut host = python(&["host", path])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    BufReader::new(host.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "registered 0\n");
    let map = DirectoryMapping::open(&file, Hosts::SPEC).unwrap();
    let listed = map.directory(Hosts::SPEC).unwrap().list();
    assert_eq!(listed.hosts.len(), 1);
    assert_eq!(listed.hosts[0].host.pid, host.id());
    assert_eq!(listed.hosts[0].host.host_version, "python host");
    assert_eq!(
        listed.hosts[0].host.process_time,
        process_time_of(host.id())
    );
    host.kill().unwrap(); // SIGKILL
    host.wait().unwrap();
    assert_eq!(
        output(&["next", path]),
        "next stale_freed 1 listed 1 first_pid_is_me 1 problems 0\n"
    );
    assert_eq!(map.directory(Hosts::SPEC).unwrap().list().hosts, []);
}

/// `Hosts.open_or_create` waits, bounded, for a directory its creator has not finished (0
/// bytes, then sized with magic 0: opened once a thread finishes it; never finished: the named
/// error after the tries), refuses a bad magic at once, and creates a new file owner-only.
#[test]
fn python_open_or_create_waits_for_a_half_made_directory_and_gives_up() {
    let dir = scratch("python_directory_half");
    assert_eq!(
        output(&["half", dir.to_str().unwrap()]),
        "unsized waited\nunmarked waited\nnever-sized refused after 50 tries\n\
         never-marked refused after 50 tries\nbad-magic refused at once\nnew created owner-only\n"
    );
}

/// Two Python hosts race `Hosts.open_or_create` of one new file, started together: in every
/// round exactly one created it, each registered in it and listed itself, Rust opens it after, and
/// in some rounds their calls overlapped in time (they raced).
#[test]
fn two_python_creators_race_and_exactly_one_creates() {
    let dir = scratch("python_directory_race");
    // Both interpreters started (their imports done) before the go.
    race_creators(&dir, std::time::Duration::from_millis(300), |file, go| {
        python(&["race", file.to_str().unwrap(), go.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3")
    });
}
