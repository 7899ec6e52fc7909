//! A seqlock's run-time sized bytes (the snapshot ring slot's payload and extras) are copied
//! in the same chunks by every C and every Python reader and writer, whatever `size` says: a
//! reader that a publication of another size lapped must never cut a word the writer stored
//! whole, nor load a byte with a width the writer did not store it with (racing atomics of
//! different sizes are undefined in C11, and TSan does not report them).
//!
//! C: gcc's `-fno-inline-atomics` turns the header's `__atomic` builtins into calls of
//! `__atomic_load_N`/`__atomic_store_N`, which tests/slot_chunks/hooks.c defines to note where
//! each access began and how wide it was; chunks.c compares the writer's and the reader's
//! accesses byte by byte, for every extras length a writer publishes and every size a reader
//! can find, in slots that end at every alignment. Python: chunks.py notes every copy the
//! module makes of shared bytes and checks that none past the payload's type begins or ends
//! inside a word. Each has a control, the size-cut copies the helpers made before, which must
//! show the fault: the check sees it. Needs gcc and python3 on PATH, and fails without them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::tools::{run_ok, scratch};

const FLAGS: &str = "-std=c11 -O2 -Wall -Wextra -Werror -pedantic";

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The counts of the programs' last line, `name count name count ...`.
fn counts(out: &str) -> Vec<u64> {
    let last = out.lines().last().unwrap_or_default();
    (last.split(' ').skip(1).step_by(2))
        .map(|n| {
            n.parse()
                .unwrap_or_else(|_| panic!("unexpected output:\n{out}"))
        })
        .collect()
}

#[test]
fn every_c_reader_and_writer_copies_a_slot_in_the_same_chunks() {
    let dir = scratch("slot_chunks_c");
    for file in ["chunks.c", "hooks.c", "hooks.h"] {
        std::fs::copy(here().join("tests/slot_chunks").join(file), dir.join(file)).unwrap();
    }
    let include = here().join("generated");
    let include = include.to_str().unwrap();
    let mut args: Vec<&str> = FLAGS.split(' ').collect();
    args.extend(["-fno-inline-atomics", "-I", include, "-c", "chunks.c"]);
    run_ok("gcc", &args, &dir);
    let mut args: Vec<&str> = FLAGS.split(' ').collect();
    args.extend(["-c", "hooks.c"]);
    run_ok("gcc", &args, &dir);
    run_ok("gcc", &["chunks.o", "hooks.o", "-o", "chunks"], &dir);
    let out = run_ok(dir.join("chunks").to_str().unwrap(), &[], &dir);
    let [pairs, mismatches, control, failures] = counts(&out)[..] else {
        panic!("unexpected output:\n{out}");
    };
    assert_eq!(failures, 0, "{out}");
    assert!(pairs > 1_000_000, "too few accesses compared: {out}");
    assert!(
        control > 0,
        "the control's size-cut copies showed no mixed widths: the trace sees nothing\n{out}"
    );
    assert_eq!(
        mismatches, 0,
        "a reader and the writer chunked a byte differently:\n{out}"
    );
}

#[test]
fn every_python_reader_and_writer_copies_a_slot_in_whole_words() {
    let out = Command::new("python3")
        .args(["-W", "error", "tests/slot_chunks/chunks.py"])
        .env("PYTHONPATH", here().join("generated"))
        .current_dir(here())
        .output()
        .expect("python3 is needed for this test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let [checked, cuts, control, failures] = counts(&stdout)[..] else {
        panic!("unexpected output:\n{stdout}");
    };
    assert_eq!(failures, 0, "a copy was not cut to its size: {stdout}");
    assert!(checked > 10_000, "too few copies checked: {stdout}");
    assert!(
        control > 0,
        "the control's size-cut copies cut no word: the check sees nothing\n{stdout}"
    );
    assert_eq!(cuts, 0, "a copy began or ended inside a word:\n{stdout}");
}
