//! The C header's log queue and log ring helpers with positions at the edges (issue 37):
//! `tests/c_protocols/positions.c` draws the header words from 0, capacity multiples, values
//! just under `UINT64_MAX`, misaligned values and random words, and checks that every call
//! gives a valid outcome or a named error and that no position wraps. Built with gcc (C11,
//! every warning an error), with gcc under AddressSanitizer and UndefinedBehaviorSanitizer,
//! and with clang's `-fsanitize=unsigned-integer-overflow` (trapping), which stops at the
//! first unsigned sum or difference that wraps: each must print the same counts and `ok`.
//!
//! Needs gcc and clang; fails, never skips, without them.
#![cfg(not(miri))]

use crate::common;

use std::path::Path;

use abi_codegen::testing::language_backend::c::render_c_header;
use common::tools::{STRICT_WARNINGS, run_ok, scratch};

#[test]
fn queue_and_ring_positions_at_the_edges_never_wrap_in_c() {
    let dir = scratch("c_positions");
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_protocols/positions.c");
    std::fs::copy(&source, dir.join("positions.c")).unwrap();
    // clang's -fsanitize-trap: no sanitizer runtime needed (Debian's clang has none without
    // libclang-rt-dev); a wrap stops the program at once (SIGILL), which run_ok reports.
    let builds: [(&str, &str, &str); 3] = [
        ("gcc", "-std=c11 -O2", "gcc"),
        (
            "gcc",
            "-std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all",
            "sanitized",
        ),
        (
            "clang",
            "-std=c11 -O1 -g -fsanitize=undefined,unsigned-integer-overflow -fsanitize-trap=all",
            "wraps_trap",
        ),
    ];
    let mut outputs = Vec::new();
    for (compiler, flags, exe) in builds {
        let mut args: Vec<&str> = flags.split_whitespace().collect();
        args.extend(STRICT_WARNINGS);
        args.extend(["positions.c", "-o", exe]);
        run_ok(compiler, &args, &dir);
        outputs.push(run_ok(dir.join(exe).to_str().unwrap(), &[], &dir));
    }
    for out in &outputs[1..] {
        assert_eq!(out, &outputs[0], "every build prints the same");
    }
    println!("{}", outputs[0]);
    assert!(outputs[0].ends_with("ok\n"), "{}", outputs[0]);
}
