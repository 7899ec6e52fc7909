//! The C header's directory helpers (`ibf_directory_*`, `ibf_hosts_*`), by
//! `tests/c_directory/directory.c`:
//! - `unit`: register, list newest first, unregister, stale rows (gone, reused pid, a dead
//!   claimant), a full directory, hostile headers and a garbage state, built with gcc and
//!   clang (C11) and g++ (C++17), every warning an error;
//! - a C host registered in a directory file and killed with SIGKILL leaves a live row that
//!   Rust lists, and that the next C host frees before it registers;
//! - `ibf_hosts_open_or_create`: the bounded wait for a half-made directory, and two creators
//!   racing one new file (exactly one creates it).
//!
//! Needs gcc, g++ and clang; fails, never skips, without them.
#![cfg(all(unix, not(miri)))]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use abi_codegen::testing::language_backend::c::render_c_header;
use bridge_abi::live::Hosts;
use bridge_abi::runtime::DirectoryMapping;
use common::host_kit::race_creators;
use common::tools::{STRICT_WARNINGS, run_ok, scratch};

/// A folder with bridge.h from schema.toml and directory.c, built with `compiler`.
fn build(name: &str, compiler: &str, std: &str) -> PathBuf {
    let dir = scratch(name);
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_directory/directory.c");
    std::fs::copy(source, dir.join("directory.c")).unwrap();
    let mut args: Vec<&str> = STRICT_WARNINGS.to_vec();
    if compiler == "g++" {
        args.extend(["-x", "c++"]);
    }
    args.extend([std, "-O1", "-o", "directory", "directory.c"]);
    run_ok(compiler, &args, &dir);
    dir
}

#[test]
fn the_helpers_pass_their_unit_checks_in_c11_and_cxx17() {
    for (compiler, std) in [
        ("gcc", "-std=c11"),
        ("clang", "-std=c11"),
        ("g++", "-std=c++17"),
    ] {
        let dir = build(&format!("c_directory_unit_{compiler}"), compiler, std);
        let out = run_ok(dir.join("directory").to_str().unwrap(), &["unit"], &dir);
        assert_eq!(out, "directory unit ok\n", "{compiler}");
    }
}

#[test]
fn a_killed_c_hosts_row_is_freed_by_the_next_c_host() {
    let dir = build("c_directory_kill", "gcc", "-std=c11");
    let file = dir.join("ibf.directory");
    let exe = dir.join("directory");
    let mut host = Command::new(&exe)
        .args(["host", file.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(host.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "registered 0 0\n");
    // Rust lists the row the C host registered, through the generated plan.
    let map = DirectoryMapping::open(&file, Hosts::SPEC).unwrap();
    let listed = map.directory(Hosts::SPEC).unwrap().list();
    assert_eq!(listed.hosts.len(), 1);
    assert_eq!(listed.hosts[0].host.pid, host.id());
    assert_eq!(listed.hosts[0].host.host_version, "c host");
    assert_eq!(
        listed.hosts[0].host.process_time,
        bridge_abi::runtime::process_time_of(host.id()),
        "C and Rust read the same process_time"
    );
    host.kill().unwrap(); // SIGKILL
    host.wait().unwrap();
    let out = run_ok(
        exe.to_str().unwrap(),
        &["next", file.to_str().unwrap()],
        &dir,
    );
    assert_eq!(
        out,
        "next 0 stale_freed 1 listed 1 first_pid_is_me 1 problems 0\n"
    );
    assert_eq!(map.directory(Hosts::SPEC).unwrap().list().hosts, []);
}

/// `ibf_hosts_open_or_create` waits, bounded, for a directory its creator has not finished: a
/// file of 0 bytes that Rust sizes and lays out 100 ms later is opened; one never sized is
/// `directory_too_small`, one sized with magic 0 `directory_not_ready`, after the tries; a
/// new file is created owner-only.
#[test]
fn c_open_or_create_waits_for_a_half_made_directory_and_gives_up() {
    let dir = build("c_directory_half", "gcc", "-std=c11");
    let exe = dir.join("directory");
    let open = |file: &Path| {
        Command::new(&exe)
            .args(["open", file.to_str().unwrap()])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let finish = |child: std::process::Child| {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let half = dir.join("half");
    std::fs::write(&half, b"").unwrap();
    let opener = open(&half);
    std::thread::sleep(std::time::Duration::from_millis(100));
    let len = bridge_abi::runtime::directory::new_len(Hosts::SPEC);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&half)
        .unwrap()
        .set_len(len as u64)
        .unwrap();
    let map = bridge_abi::runtime::Mapping::open(&half).unwrap();
    bridge_abi::runtime::directory::lay_out(map.region().unwrap(), Hosts::SPEC).unwrap();
    assert_eq!(finish(opener), "open ok created 0 waited 1\n");
    let never = dir.join("never");
    std::fs::write(&never, b"").unwrap();
    assert_eq!(
        finish(open(&never)),
        "open directory_too_small created 0 waited 1\n"
    );
    let unmarked = dir.join("unmarked");
    std::fs::write(&unmarked, vec![0u8; len]).unwrap();
    assert_eq!(
        finish(open(&unmarked)),
        "open directory_not_ready created 0 waited 1\n"
    );
    let new = dir.join("new");
    assert_eq!(finish(open(&new)), "open ok created 1 waited 0\n");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&new).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert!(DirectoryMapping::open(&new, Hosts::SPEC).is_ok());
}

/// Two C hosts race `ibf_hosts_open_or_create` of one new file, started together: in every
/// round exactly one created it, each registered in it and listed itself, Rust opens it after,
/// and their calls overlapped in time in some round (`race_creators`).
#[test]
fn two_c_creators_race_and_exactly_one_creates() {
    let dir = build("c_directory_race", "gcc", "-std=c11");
    let exe = dir.join("directory");
    race_creators(&dir, std::time::Duration::from_millis(20), |file, go| {
        Command::new(&exe)
            .args(["race", file.to_str().unwrap(), go.to_str().unwrap()])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    });
}
