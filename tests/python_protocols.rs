//! The generated Python module's region protocols (issue 26), run by CPython with every
//! warning an error: every operation of both sides in one process
//! (`tests/python_protocols/unit.py`: the wrap and the padding entry at every offset of the
//! area, a full queue dropping and counting, a lapped ring reader, a cut answer, a full draw
//! list, a session's claim, disconnect, reload, exit and goodbye, and a named error for each
//! thing a broken peer writes); the module of `tests/fixtures/protocols/demo.toml`; the
//! torture client `tests/torture/protocols.py` against a host played in Rust with the
//! abi-runtime primitives on the same mapped file (`common/protocol_host.rs`), asserting
//! that each protocol raced; and a hostile peer: Rust threads writing random bytes into each
//! region while the Python readers run (`tests/python_protocols/hostile.py`); and the
//! host's side of every protocol in Python (`tests/python_protocols/host.py`) against
//! clients played by Rust threads (`common/protocol_clients.rs`), asserting they raced.
//!
//! Every test fails, never skips, when python3 is missing.
#![cfg(not(miri))]

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Release;

use abi_codegen::testing::language_backend::generate_all;
use common::protocol_clients::run_clients;
use common::protocol_host::{bridge_file, run_host};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `python3 -B -W error script args...` with `path` on PYTHONPATH, its stdout piped.
fn python(script: &Path, args: &[&str], path: &Path) -> Child {
    Command::new("python3")
        .args(["-B", "-W", "error"])
        .arg(script)
        .args(args)
        .env("PYTHONPATH", path)
        .env_remove("PYTHONOPTIMIZE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 is required for these tests but could not be run: {e}"))
}

/// What a finished child printed; panics with its output unless it exited 0.
fn finished(child: Child, what: &str) -> String {
    let out = child.wait_with_output().expect("wait for python3");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "{what} failed\n--- stdout\n{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn every_operation_of_both_sides_in_one_process() {
    let script = root().join("tests/python_protocols/unit.py");
    let out = finished(python(&script, &[], &root().join("generated")), "unit.py");
    println!("{out}");
    let line = |prefix: &str| -> Vec<u64> {
        let l = (out.lines())
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in\n{out}"));
        (l.split([' ', ',']))
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    // 64 start offsets of the 512-byte area, each with 9 entry sizes, less the drops.
    let wrap = line("queue wrap:");
    assert!(wrap[0] > 400 && wrap[1] > 100, "{wrap:?}");
    assert_eq!(line("queue full:"), vec![9, 5]);
    let ring = line("ring wrap:");
    assert!(ring[0] == 192 && ring[1] > 0, "{ring:?}");
    let lapped = line("ring lapped:");
    assert_eq!(lapped[0] + lapped[1], 200, "read + missed = written");
    assert!(line("mailbox:")[0] > 0);
    assert_eq!(line("draw:"), vec![2048]);
    assert_eq!(line("restore:"), vec![1, 1]);
    assert_eq!(line("stale draw:"), vec![2]);
    assert_eq!(line("broken lifecycle:"), vec![2]);
    // The host's free ran once inside the bind's window, and no pad was left bound.
    assert_eq!(line("pad bind racing a free:"), vec![1, 0]);
    // The session's reload made host generation 2, the restore's reload 3; the re-layout
    // asked for 3 and got 4.
    assert_eq!(line("relayout: generation"), vec![4]);
    assert_eq!(line("broken peers:"), vec![13]);
    assert_eq!(out.lines().last(), Some("ok"));
}

/// Issue 46 (`tests/python_protocols/sessions.py`): a stale claim's activate and close leave
/// the newcomer's row alone after a re-layout, with the same and a new geometry, by the
/// generations `produce` carries (A's claim is 3, B's 1) and, for a producer that carries none
/// (A's and B's both 1), by the host-generation check before each move; a stale heartbeat
/// stores nothing and returns the standing; a reload whose free of row 1 a peer contends
/// (`_cas_hook`) frees rows 0 and 2, then raises `ContendedError` naming both.
#[test]
fn python_stale_claims_leave_the_newcomer_alone_and_a_contended_reload_tries_every_row() {
    let script = root().join("tests/python_protocols/sessions.py");
    let out = finished(
        python(&script, &[], &root().join("generated")),
        "sessions.py",
    );
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "stale carry=1 a=3 b=1",
            "stale carry=0 a=1 b=1",
            "stale carry=1 a=3 b=1",
            "stale carry=0 a=1 b=1",
            "contended reload freed=[0, 2] contended=[1]",
            "vandal restored=5",
            "ok",
        ]
    );
}

#[test]
fn the_demo_schemas_module_imports_and_works() {
    let dir = common::tools::scratch("python_protocols_demo");
    let src = std::fs::read_to_string(root().join("tests/fixtures/protocols/demo.toml"))
        .expect("read demo.toml");
    let schema = abi_codegen::load_schema(&src).expect("the demo schema loads");
    for out in generate_all(&schema, "demo.toml").expect("renders") {
        let name = out.file_name;
        if name == "demo.py" || name == "demo.pyi" {
            assert!(
                !out.contents.to_lowercase().contains("bridge"),
                "{name} mentions the bridge"
            );
            std::fs::write(dir.join(&name), &out.contents).expect("write the module");
        }
    }
    let script = root().join("tests/python_protocols/demo_schema.py");
    let out = finished(python(&script, &[], &dir), "demo_schema.py");
    assert_eq!(out.trim(), "ok");
}

/// The numbers of each line a torture client printed, by its first word.
fn phases(out: &str) -> HashMap<String, Vec<u64>> {
    (out.lines())
        .map(|l| {
            let mut words = l.split(' ');
            let name = words.next().unwrap_or("").to_string();
            (name, words.filter_map(|w| w.parse().ok()).collect())
        })
        .collect()
}

#[test]
fn the_torture_client_races_a_rust_host_over_a_mapped_file() {
    let dir = common::tools::scratch("python_protocols_torture");
    let (path, map) = bridge_file(&dir, "bridge.bin");
    let script = root().join("tests/torture/protocols.py");
    let generated = root().join("generated");
    let rows = [0usize, 1];
    let path_arg = path.to_str().expect("a UTF-8 path");
    let mut children: Vec<Child> = (rows.iter())
        .map(|r| python(&script, &[path_arg, &r.to_string(), "400"], &generated))
        .collect();
    let (counted, written) = run_host(&map, &rows, &mut children);
    for (k, child) in children.into_iter().enumerate() {
        let out = finished(child, "protocols.py");
        let lines: Vec<&str> = out.lines().collect();
        let order: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(
            order,
            ["log_queue", "log_ring", "mailbox", "draw", "lifecycle"],
            "{out}"
        );
        let p = phases(&out);
        let c = &counted[k];
        let (n, d) = (p["log_queue"][0], p["log_queue"][1]);
        println!(
            "row {k}: log_queue {n} pushed, {d} dropped, {} received, {} corrupt",
            c.received, c.queue_corrupt
        );
        assert!(c.got_end, "the host popped `end`");
        assert_eq!(c.queue_corrupt, 0);
        assert_eq!(
            d + c.received,
            n,
            "every entry arrives or is counted as dropped"
        );
        assert!(d > 0, "the queue filled: the writer raced the reader");
        let ring = &p["log_ring"];
        let (read, gaps, missed, corrupt, span) = (ring[0], ring[1], ring[2], ring[3], ring[4]);
        println!(
            "row {k}: log_ring {read} read, {gaps} lapped gaps, {missed} missed, {corrupt} corrupt, span {span} ({written} written)"
        );
        assert_eq!(corrupt, 0);
        assert_eq!(
            read + missed,
            span,
            "read + missed = the entries between the first and last"
        );
        assert!(gaps > 0, "the slow reader was lapped");
        let mb = &p["mailbox"];
        println!(
            "row {k}: mailbox {} requests, {} answered, {} wrong, {} waits ({} served)",
            mb[0], mb[1], mb[2], mb[3], c.served
        );
        assert!(mb[0] > 0 && mb[1] == mb[0] && mb[2] == 0 && mb[0] == c.served);
        assert!(mb[3] > 0, "a poll found no answer yet");
        let (published, last) = (p["draw"][0], p["draw"][1]);
        println!(
            "row {k}: draw {published} published, {} taken, {} stale or torn, last taken {}",
            c.taken, c.stale_or_torn, c.last_taken
        );
        assert_eq!(c.stale_or_torn, 0);
        assert_eq!(c.last_taken, last, "the newest list is taken at last");
        assert!(
            published > c.taken,
            "lists were overwritten before the host took them"
        );
        let lc = &p["lifecycle"];
        println!(
            "row {k}: lifecycle {} claims, {} disconnects, {} reloads noticed; host: {} frees, {} reloads",
            lc[0], lc[1], lc[2], c.disconnects, c.reloads
        );
        assert_eq!(lc[1] + lc[2], c.disconnects + c.reloads, "no action missed");
        assert!(
            lc[1] > 0 && lc[2] > 0,
            "both disconnects and reloads were noticed"
        );
        // A claim after each noticed during the run; one noticed at goodbye has none.
        assert!(
            lc[0] == 1 + lc[1] + lc[2] || lc[0] == lc[1] + lc[2],
            "a claim after each"
        );
    }
}

/// The scratch path of the hostile race's file.
fn hostile_dir() -> PathBuf {
    common::tools::scratch("python_protocols_hostile")
}

#[test]
fn a_hostile_peer_gives_named_errors_or_valid_outcomes() {
    let dir = hostile_dir();
    let (path, map) = bridge_file(&dir, "bridge.bin");
    let script = root().join("tests/python_protocols/hostile.py");
    let child = python(
        &script,
        &[path.to_str().expect("a UTF-8 path"), "600"],
        &root().join("generated"),
    );
    let ready = PathBuf::from(format!("{}.ready", path.display()));
    let out = common::protocol_hostile::race(&map, &ready, child);
    println!("{out}");
    let mut errors = 0;
    for line in out.lines().filter(|l| l.starts_with("reader ")) {
        // reader NAME calls=N outcomes... errors=E [check=count ...]
        let words: HashMap<&str, u64> = (line.split(' '))
            .filter_map(|w| w.split_once('='))
            .filter_map(|(k, v)| Some((k, v.parse().ok()?)))
            .collect();
        assert!(words["calls"] > 100, "{line}");
        assert!(words["errors"] > 0, "a named error was seen: {line}");
        errors += words["errors"];
    }
    assert_eq!(
        out.lines().filter(|l| l.starts_with("reader ")).count(),
        6,
        "{out}"
    );
    assert!(errors > 0);
}

#[test]
fn the_python_host_serves_rust_clients_over_a_mapped_file() {
    let dir = common::tools::scratch("python_protocols_host");
    let (path, map) = bridge_file(&dir, "bridge.bin");
    let ready = PathBuf::from(format!("{}.ready", path.display()));
    let script = root().join("tests/python_protocols/host.py");
    let path_arg = path.to_str().expect("a UTF-8 path");
    let child = python(&script, &[path_arg, "900"], &root().join("generated"));
    while !ready.exists() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let host_done = AtomicBool::new(false);
    let (c, out) = std::thread::scope(|s| {
        let clients = s.spawn(|| run_clients(&map, 400, &host_done));
        let out = finished(child, "host.py");
        host_done.store(true, Release);
        (clients.join().expect("the clients"), out)
    });
    let host: Vec<u64> = (out.split_whitespace())
        .filter_map(|w| w.parse().ok())
        .collect();
    let [
        received,
        corrupt,
        written,
        served,
        taken,
        stale,
        last,
        frees,
        reloads,
    ] = host[..]
    else {
        panic!("host.py printed {out}");
    };
    println!(
        "{c:?}\nhost: {received} received, {corrupt} corrupt, {written} ring entries, {served} served, {taken} taken, {stale} stale, last {last}, {frees} frees, {reloads} reloads"
    );
    assert_eq!(corrupt, 0);
    assert_eq!(
        c.dropped + received,
        c.pushed,
        "every entry arrives or is dropped"
    );
    assert!(c.dropped > 0, "the Python reader was outrun");
    assert_eq!(c.ring_corrupt, 0);
    assert_eq!(c.ring_read + c.ring_missed, c.ring_span);
    assert!(c.ring_gaps > 0, "the slow Rust reader was lapped");
    assert_eq!((c.requests, c.wrong), (served, 0));
    assert!(c.waits > 0);
    assert_eq!((stale, last), (0, c.published), "the newest list is taken");
    assert!(
        c.published > taken,
        "lists were overwritten before the host took them"
    );
    assert_eq!(
        c.disconnects + c.reloads,
        frees + reloads,
        "no action missed"
    );
    assert!(frees > 0 && reloads > 0);
}

#[test]
fn mypy_strict_types_a_bot_on_the_protocol_api() {
    let dir = common::tools::scratch("python_protocols_typed");
    std::fs::copy(
        root().join("tests/python_protocols/typed.py"),
        dir.join("typed.py"),
    )
    .expect("copy typed.py");
    common::tools::mypy_strict_ok(&dir, "typed.py", &root().join("generated"));
    // And refuses what the stub says is wrong: a number as the text, a read result used as
    // an entry without narrowing it.
    std::fs::write(
        dir.join("wrong.py"),
        "import bridge\n\n\ndef f(q: bridge.LogQueue, r: bridge.LogRing) -> bytes:\n    \
         q.push(bridge.LogEntry(), \"s\", 5)\n    return r.read_next().text\n",
    )
    .expect("write wrong.py");
    let out = Command::new("python3")
        .args(["-m", "mypy", "--strict", "--no-error-summary", "wrong.py"])
        .env("MYPYPATH", root().join("generated"))
        .env("MYPY_CACHE_DIR", dir.join(".mypy_cache"))
        .current_dir(&dir)
        .output()
        .expect("python3 -m mypy (python3 -m pip install --user mypy)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "mypy accepted wrong.py");
    assert!(
        report.contains("wrong.py:5:"),
        "the number as text: {report}"
    );
    assert!(
        report.contains("wrong.py:6:"),
        "an unnarrowed read: {report}"
    );
}
