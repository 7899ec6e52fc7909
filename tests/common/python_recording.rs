//! What the Python recording tests share (tests/python_recording.rs and
//! tests/python_recording_damage.rs): the module rendered into a scratch folder, python3 run
//! with a time limit and an empty stderr, the expected ticks written for the scripts
//! (`tick_data`, from the Rust builder), the scripts' prelude, and the long recording.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use abi_codegen::testing::language_backend::python::render_python;

use super::recording::{Recording, tick_data};

/// A scratch folder holding the rendered module `bridge.py`.
pub fn module_dir(name: &str) -> PathBuf {
    let dir = super::tools::scratch(&format!("python_recording/{name}"));
    let module = render_python(&super::bridge_schema(), "schema.toml").expect("renders");
    std::fs::write(dir.join("bridge.py"), module).unwrap();
    dir
}

/// Runs `script` (written to `dir`) with python3, every warning an error; kills it and
/// panics past `limit`. Panics with its output unless it succeeds with nothing on stderr;
/// returns its stdout.
pub fn python(dir: &Path, name: &str, script: &str, args: &[&str], limit: Duration) -> String {
    std::fs::write(dir.join(name), script).unwrap();
    let mut child = Command::new("python3")
        .args(["-B", "-W", "error", name])
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", dir)
        .env_remove("PYTHONOPTIMIZE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 is required for these tests but cannot run: {e}"));
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{name} hung past {limit:?}\n--- stdout\n{}\n--- stderr\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // An empty stderr too: no warning, no "Exception ignored" (an unclosed file, under -W error).
    assert!(
        out.status.success() && stderr.is_empty(),
        "{name} failed\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
    stdout
}

/// The ticks and their data as the test expects them: `u64 tick, u32 length, data`, each.
pub fn write_expected(path: &Path, ticks: &[u64]) {
    let mut out = Vec::new();
    for &t in ticks {
        let data = tick_data(t);
        out.extend(t.to_le_bytes());
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(data);
    }
    std::fs::write(path, out).unwrap();
}

/// What the scripts share: reading `expected.bin` (see [`write_expected`]).
pub const PRELUDE: &str = r#"
import ctypes
import sys
import zlib

import bridge

SIZE = ctypes.sizeof(bridge.Snapshot)


def expected(path):
    out = {}
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        tick = int.from_bytes(data[pos:pos + 8], "little")
        n = int.from_bytes(data[pos + 8:pos + 12], "little")
        out[tick] = data[pos + 12:pos + 12 + n]
        pos += 12 + n
    return out


def whole(item):
    head, snap, extras = item
    assert isinstance(head, bridge.RecTickHeader) and isinstance(snap, bridge.Snapshot)
    assert isinstance(extras, bytes)
    return (bytes(head), bytes(snap) + extras)
"#;

/// Ticks 1..=80 in 8 chunks of 10 but tick 47 dropped: keyframes, deltas, extras that come
/// and go (a keyframe then).
pub fn long_chunks() -> Vec<Vec<u64>> {
    (0..8)
        .map(|c| (c * 10 + 1..=c * 10 + 10).filter(|t| *t != 47).collect())
        .collect()
}

pub fn recording(chunks: &[Vec<u64>]) -> Recording {
    let refs: Vec<&[u64]> = chunks.iter().map(Vec::as_slice).collect();
    Recording::new(&refs)
}
