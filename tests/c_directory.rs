//! The C header's directory helpers (`ibf_directory_*`, `ibf_hosts_*`), by
//! `tests/c_directory/directory.c`:
//! - `unit`: register, list newest first, unregister, stale rows (gone, reused pid, a dead
//!   claimant), a full directory, hostile headers and a garbage state, built with gcc and
//!   clang (C11) and g++ (C++17), every warning an error;
//! - a C host registered in a directory file and killed with SIGKILL leaves a live row that
//!   Rust lists, and that the next C host frees before it registers.
//!
//! Needs gcc, g++ and clang; fails, never skips, without them.
#![cfg(all(unix, not(miri)))]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use abi_codegen::language_backend::c::render_c_header;
use bridge_abi::live::Hosts;
use bridge_abi::runtime::DirectoryMapping;
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
