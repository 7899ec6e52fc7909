//! The C header's region-protocol helpers (`<prefix>_<protocol>_<op>`):
//! - `tests/c_protocols/ops.c` calls every one of them on heap buffers (wrap and padding at
//!   every offset of a queue's and a ring's area, a full queue, an exact lap, a cut answer, a
//!   full and an overwritten draw list, a session's claim, disconnect, reload and close, and
//!   every named error), built with gcc, clang (C11), g++, clang++ (C++17), gcc -m32 and gcc
//!   under AddressSanitizer and UndefinedBehaviorSanitizer, every warning an error: the same
//!   figures from each;
//! - the header of `tests/fixtures/protocols/demo.toml`, which declares every protocol kind
//!   over structs of its own, compiles the same ways;
//! - across processes: `tests/c_protocols/peer.c` plays the host's side of every protocol
//!   over a file the Rust producer made while this test's threads play the client's side
//!   with the runtime primitives (abi_runtime's byte queue, broadcast ring, mailbox, triple
//!   buffer and claim) at the same time, and both sides' counts agree.
//!
//! Needs gcc, g++, clang and gcc-multilib; fails, never skips, without them.
#![cfg(not(miri))]

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::{Acquire, Release};
use std::time::{Duration, Instant};

use abi_codegen::testing::language_backend::c::render_c_header;
use bridge_abi::live::Bridge;
use bridge_abi::runtime::Region;
use bridge_abi::runtime::broadcast_ring::{Read, RingReader};
use bridge_abi::runtime::byte_queue::{ByteQueue, Pushed};
use bridge_abi::runtime::claim::{Claim, Standing};
use bridge_abi::runtime::mailbox::Mailbox;
use bridge_abi::runtime::triple_buffer::{ExchangeError, FRESH, TripleWriter};
use common::protocol_peer::{
    CLIENT_ENTRY, CLIENTS, DRAW_CMD, DRAW_LISTS, DRAW_STATE, HOST_GENERATION, MAILBOX, QUEUE, RING,
    ROW, answer, log_entry, log_parts, produce_file, regions,
};
use common::tools::{STRICT_WARNINGS, c_inline_functions, compile_c_header, run_ok, scratch};

fn manifest(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A folder with bridge.h rendered from schema.toml and the given C files of tests/c_protocols.
fn folder(name: &str, files: &[&str]) -> (PathBuf, String) {
    let dir = scratch(name);
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    for f in files {
        std::fs::copy(manifest(&format!("tests/c_protocols/{f}")), dir.join(f)).unwrap();
    }
    (dir, header)
}

/// The public helpers of the header's region-protocol section.
fn protocol_helpers(header: &str) -> Vec<String> {
    let section = header
        .split_once("\n * Region protocols\n")
        .expect("a region protocols section")
        .1;
    let section = section
        .split_once("\n * Attaching to a mapping\n")
        .map_or(section, |(s, _)| s);
    c_inline_functions(section)
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| !name.ends_with('_'))
        .collect()
}

#[test]
fn every_protocol_helper_runs_in_c11_cxx17_32_bit_and_sanitized() {
    let (dir, header) = folder("c_protocols_ops", &["ops.c"]);
    let source = std::fs::read_to_string(dir.join("ops.c")).unwrap();
    let helpers = protocol_helpers(&header);
    assert!(helpers.len() >= 30, "{helpers:?}");
    let missing: Vec<&String> = helpers
        .iter()
        .filter(|h| !source.contains(&format!("{h}(")))
        .collect();
    assert!(missing.is_empty(), "ops.c never calls {missing:?}");
    let builds: [(&str, &str, &str); 6] = [
        ("gcc", "-std=c11 -x c", "gcc"),
        ("g++", "-std=c++17 -x c++", "gxx"),
        ("clang", "-std=c11 -x c", "clang"),
        ("clang++", "-std=c++17 -x c++", "clangxx"),
        ("gcc", "-std=c11 -m32 -x c", "gcc32"),
        (
            "gcc",
            "-std=c11 -g -fsanitize=address,undefined -fno-sanitize-recover=all -x c",
            "sanitized",
        ),
    ];
    let mut outputs = Vec::new();
    for (compiler, flags, exe) in builds {
        let mut args: Vec<&str> = flags.split(' ').collect();
        args.push("-O2");
        args.extend(STRICT_WARNINGS);
        args.extend(["ops.c", "-o", exe]);
        run_ok(compiler, &args, &dir);
        outputs.push(run_ok(dir.join(exe).to_str().unwrap(), &[], &dir));
    }
    for out in &outputs[1..] {
        assert_eq!(out, &outputs[0], "every build prints the same");
    }
    let out = &outputs[0];
    println!("{out}");
    // Figures the program's checks make exact: 128 offsets of a 1024-byte area, each with 17
    // entry sizes; the 40 ring entries of 48 bytes in 512 bytes lapped a reader by 30.
    assert!(out.contains("log_queue offsets=128 padded=216 plain=1960 pushed=19 dropped=61\n"));
    assert!(out.contains("log_ring offsets=64 padded=13 written=40 missed=30 laps=1\n"));
    assert!(out.contains("mailbox requests=2 answered=2 cut=100/48\n"));
    assert!(out.contains("draw published=5 taken=3 dropped=4 overwritten=1\n"));
    assert!(out.contains("session claims=5 disconnects=1 reloads=2 closes=1\n"));
    assert!(out.contains("host handle blocks=8 reload=2\n"), "{out}");
    // Issue 46 item 5: the host's sides read the geometry it laid out past a vandal's zeros,
    // and its free puts every host word of the row's blocks back.
    assert!(
        out.contains("host laid out: geometry its own, restored by a free\n"),
        "{out}"
    );
    // Issue 46 item 3: a stale draw publication after a free, absorbed or repaired, in both
    // orders, and the newcomer's lists taken from then on.
    assert!(out.contains("stale draw kept=2\n"), "{out}");
    // Issue 36, bad input, each a named outcome: a row whose generation went backwards is
    // disconnected (standing, heartbeat, bind); a pad_owner byte naming row 200, which does
    // not exist, refuses another row's bind (naming 200) and unbind and is kept by a free and
    // a reload; a re-layout asking for generation 1 over generation 2 writes 3, and the old
    // claim stands reloaded.
    assert!(
        out.contains(
            "bad input backwards=session_disconnected heartbeat=session_disconnected \
             bind=session_disconnected pad_200 bind=not_free owner=200 unbind=not_free \
             kept=200 relayout_old generation 2 then 3 standing=session_reloaded\n"
        ),
        "{out}"
    );
    // Every result has a name, the seqlock reads' too (issue 40, item 6).
    for name in ["ok", "contended", "empty", "too_short"] {
        assert!(out.contains(&format!(" {name} ")), "{name}");
    }
    assert!(out.contains(" unknown\n"), "only 999 is unknown: {out}");
    assert_eq!(out.matches(" unknown").count(), 1, "{out}");
    // The runtime's names for its errors (QueueError::check() and the others).
    for name in [
        "queue_capacity",
        "queue_positions",
        "queue_entry_size",
        "queue_bad_entry",
        "ring_capacity",
        "ring_positions",
        "ring_entry_size",
        "ring_bad_entry",
        "mailbox_capacity",
        "mailbox_length",
        "mailbox_busy",
        "mailbox_too_long",
        "mailbox_sequence",
        "exchange_geometry",
        "exchange_state",
        "exchange_list_length",
        "exchange_contended",
        "entry_part_too_long",
        "entry_part_past_entry",
    ] {
        assert!(out.contains(&format!(" {name} ")), "{name}");
    }
}

#[test]
fn the_demo_schemas_protocol_helpers_compile() {
    let path = manifest("tests/fixtures/protocols/demo.toml");
    let src = std::fs::read_to_string(&path).unwrap();
    let schema = abi_codegen::load_schema(&src).expect("demo.toml loads");
    let header = render_c_header(&schema, "demo.toml").expect("demo.h");
    for name in [
        "demo_log_push(",
        "demo_log_pop(",
        "demo_news_push(",
        "demo_news_read_next(",
        "demo_commands_request(",
        "demo_commands_serve_answer(",
        "demo_draw_publish(",
        "demo_draw_take(",
        "demo_client_claim(",
        "demo_client_bind_pad(",
    ] {
        assert!(header.contains(name), "{name}");
    }
    assert!(
        !header.contains("ibf"),
        "the demo header mentions nothing of the bridge"
    );
    let dir = scratch("c_protocols_demo");
    std::fs::write(dir.join("demo.h"), &header).unwrap();
    compile_c_header(&dir, "demo.h");
    // Every helper instantiated, under -Wconversion, 64- and 32-bit.
    let mut program = String::from(
        "#include \"demo.h\"\ntypedef void (*any_function)(void);\nany_function keep[] = {\n",
    );
    for name in protocol_helpers(&header) {
        program.push_str(&format!("    (any_function)&{name},\n"));
    }
    program.push_str("};\nint main(void) { return keep[0] == 0; }\n");
    std::fs::write(dir.join("all.c"), program).unwrap();
    for bits in ["-m64", "-m32"] {
        let mut args = vec!["-std=c11", bits, "-x", "c"];
        args.push("-O2");
        args.extend(STRICT_WARNINGS);
        args.extend(["all.c", "-o", "all"]);
        run_ok("gcc", &args, &dir);
        run_ok(dir.join("all").to_str().unwrap(), &[], &dir);
    }
}

/// The `waiting` handshake's litmus test in C (issue 36, item 8; `tests/c_protocols/litmus.c`):
/// with the generated helpers' seq_cst fences no wakeup is lost, over rounds in which the two
/// threads really overlapped; the unfenced figure is printed beside it (`bench/README.md`).
#[test]
fn the_c_waiting_handshake_loses_no_wakeup_with_its_fences() {
    let (dir, _) = folder("c_protocols_litmus", &["litmus.c"]);
    let mut args = vec!["-std=c11", "-O2", "-pthread"];
    args.extend(STRICT_WARNINGS);
    args.extend(["litmus.c", "-o", "litmus"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(dir.join("litmus").to_str().unwrap(), &["200000"], &dir);
    println!("waiting litmus (C, 200000 rounds):\n{out}");
    let fenced = numbers(&out, "fenced");
    assert_eq!(fenced.len(), 2, "{out}");
    assert!(fenced[1] > 0, "the threads never overlapped: {out}");
    assert_eq!(fenced[0], 0, "a wakeup was lost with the fences: {out}");
    assert_eq!(numbers(&out, "unfenced").len(), 2, "{out}");
}

// ---------------------------------------------------------------------------------------
// Across processes: the C host, Rust clients.

const ROW_INDEX: usize = 3;
const RUN: Duration = Duration::from_millis(300);

/// The client's log queue: entries `k` from "rust" for RUN, then `end`: (pushed, dropped).
fn queue_writer(region: Region<'_>) -> (u64, u64) {
    let queue = ByteQueue::new(region, QUEUE).unwrap();
    let (mut k, mut dropped) = (0u64, 0u64);
    let end = Instant::now() + RUN;
    while Instant::now() < end {
        let e = log_entry((k % 5) as u8, k, b"rust", k.to_string().as_bytes());
        if queue.push(&e).unwrap() == Pushed::Dropped {
            dropped += 1;
        }
        k += 1;
    }
    let e = log_entry(0, k, b"rust", b"end");
    // Bounded: a host that died fails the test instead of hanging it.
    let deadline = Instant::now() + Duration::from_secs(20);
    while queue.push(&e).unwrap() == Pushed::Dropped {
        assert!(
            Instant::now() < deadline,
            "the host never drained the queue"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    (k, dropped)
}

/// A slow reader of the log ring: (read, laps, missed, corrupt, span).
fn ring_reader(region: Region<'_>) -> (u64, u64, u64, u64, u64) {
    let mut reader = RingReader::join_latest(region, RING).unwrap();
    let (mut read, mut laps, mut missed, mut corrupt, mut before) = (0, 0, 0, 0, 0);
    let (mut first, mut last) = (0u64, 0u64);
    let mut out = Vec::new();
    let end = Instant::now() + RUN;
    // A lap is followed by the entry after it: the loop ends only after that entry.
    let mut lapped = false;
    while lapped || Instant::now() < end {
        let found = reader.read_next(&mut out).unwrap();
        lapped = matches!(found, Read::Lapped { .. });
        match found {
            Read::Entry(_) => {
                let seq = u64::from_le_bytes(out[16..24].try_into().unwrap());
                let (_, text) = log_parts(&out).unwrap();
                if text != seq.to_string().as_bytes() {
                    corrupt += 1;
                }
                if read == 0 {
                    first = seq;
                }
                last = seq;
                read += 1;
                if read % 64 == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            Read::Lapped { missed: m } => {
                laps += 1;
                missed += m;
                if read == 0 {
                    before += m;
                }
            }
            Read::Empty => std::thread::yield_now(),
        }
    }
    let span = if read == 0 {
        0
    } else {
        last - first + 1 + before
    };
    (read, laps, missed, corrupt, span)
}

/// The client's mailbox: (requests, answered, lost, wrong, waits). A request the host's
/// free answered for it (status none, no text: the row was freed while it waited) is lost.
fn mailbox_client(region: Region<'_>) -> (u64, u64, u64, u64, u64) {
    let mailbox = Mailbox::new(region, MAILBOX).unwrap();
    let (mut k, mut answered, mut lost, mut wrong, mut waits) = (0u64, 0, 0, 0, 0);
    let end = Instant::now() + RUN;
    while Instant::now() < end {
        let request = format!("req {k}");
        let seq = mailbox.request(request.as_bytes()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        let response = loop {
            if let Some(r) = mailbox.poll_response(seq).unwrap() {
                break r;
            }
            waits += 1;
            assert!(Instant::now() < deadline, "no answer to {request}");
            std::thread::yield_now();
        };
        if response.status == bridge_abi::CommandStatus::NONE.0 && response.total == 0 {
            lost += 1;
        } else {
            answered += 1;
            if response.status != bridge_abi::CommandStatus::OK.0
                || response.cut()
                || Some(response.text) != answer(request.as_bytes())
            {
                wrong += 1;
            }
        }
        k += 1;
    }
    (k, answered, lost, wrong, waits)
}

/// The row's generation while it is active (the client's own claim: only this client
/// claims the row), or `None`.
fn active_generation(row: Region<'_>) -> Option<u32> {
    let word = row.load::<u64>(0, Acquire);
    (word as u32 == ROW.active).then_some((word >> 32) as u32)
}

/// The client's draw lists, written as a session-scoped writer does (issue 36, items 5 and
/// 7): a writer per claim, the row's standing checked before each publication and after
/// it; a publication the host's free overtook is taken back when nothing touched the state
/// since (compare-and-swap). List n has 1 + n % 7 commands of color n with 8 payload bytes
/// n. Returns (published, the last list published, publications lost to a free, the
/// generation of the claim that published the last list).
fn draw_writer(region: Region<'_>, row: Region<'_>) -> (u64, u64, u64, u32) {
    let buffer_size = region.load::<u32>(8, Acquire) as usize;
    let max_commands = region.load::<u32>(12, Acquire) as usize;
    let mut writer: Option<(u32, TripleWriter<'_, _>)> = None;
    let (mut n, mut last, mut lost, mut last_generation) = (0u64, 0u64, 0u64, 0u32);
    let end = Instant::now() + RUN;
    while Instant::now() < end {
        let Some(generation) = active_generation(row) else {
            writer = None;
            std::thread::yield_now();
            continue;
        };
        if writer.as_ref().is_none_or(|(g, _)| *g != generation) {
            // A new claim: the host's free put the exchange back at its start.
            writer = Some((generation, TripleWriter::new(region, DRAW_STATE)));
        }
        let Some((_, w)) = writer.as_mut() else {
            continue;
        };
        n += 1;
        let own = w.own();
        let list = DRAW_LISTS + own * buffer_size;
        let count = 1 + (n % 7) as usize;
        let mut head = [0u8; 64];
        head[0..4].copy_from_slice(&(n as u32).to_le_bytes());
        head[4..8].copy_from_slice(&(count as u32).to_le_bytes());
        head[8..12].copy_from_slice(&(8 * count as u32).to_le_bytes());
        for i in 0..count {
            let mut cmd = [0u8; DRAW_CMD];
            cmd[4..8].copy_from_slice(&(n as u32).to_le_bytes());
            cmd[28..32].copy_from_slice(&(8 * i as u32).to_le_bytes());
            cmd[32..34].copy_from_slice(&8u16.to_le_bytes());
            region.write_bytes(list + 64 + i * DRAW_CMD, &cmd).unwrap();
            region
                .write_bytes(
                    list + 64 + max_commands * DRAW_CMD + 8 * i,
                    &n.to_le_bytes(),
                )
                .unwrap();
        }
        region.write_bytes(list, &head).unwrap();
        if active_generation(row) != Some(generation) {
            lost += 1;
            continue;
        }
        let published = w.publish();
        if active_generation(row) != Some(generation) {
            // Overtaken by a free: take the publication back if the state is still ours.
            if let Ok(p) = published {
                let _ =
                    region.try_compare_exchange::<u32>(DRAW_STATE, own as u32 | FRESH, p.replaced);
            }
            writer = None;
            lost += 1;
            continue;
        }
        // A publication of the last session that a free overtook names the list this writer
        // fills, fresh: refused until the host takes it (ATTACH.md, "A publication a free
        // overtook"); the list is lost, the next is published.
        if let Err(ExchangeError::State { found }) = published
            && found & 3 == own as u32
            && found & FRESH != 0
        {
            lost += 1;
            continue;
        }
        published.unwrap();
        (last, last_generation) = (n, generation);
    }
    (n - lost, last, lost, last_generation)
}

/// Stores true in its flag when dropped, on unwinding too.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Release);
    }
}

/// The client's row: claimed, heartbeat, a disconnect or a reload noticed and claimed
/// again, until `done` (the other threads finished), then goodbye (closing, which the host
/// waits for): (claims, disconnects, reloads, the generation of the claim that said goodbye).
fn session(header: Region<'_>, done: &AtomicBool) -> (u64, u64, u64, u32) {
    let row = header
        .sub(CLIENTS + ROW_INDEX * CLIENT_ENTRY, CLIENT_ENTRY, 8)
        .unwrap();
    // Bounded: a host that died (or stopped freeing) fails the test instead of hanging it.
    let deadline = Instant::now() + Duration::from_secs(20);
    let claim_row = |claims: &mut u64| loop {
        assert!(Instant::now() < deadline, "the row was never free again");
        let host = header.load::<u32>(HOST_GENERATION, Acquire);
        if let Some(c) = Claim::try_claim(row, ROW) {
            *claims += 1;
            if c.activate() == Standing::Connected {
                return (c, host);
            }
        }
        std::thread::sleep(Duration::from_micros(100));
    };
    let (mut claims, mut disconnects, mut reloads) = (0, 0, 0);
    let (mut claim, mut host) = claim_row(&mut claims);
    loop {
        row.store::<u64>(16, 1, Release);
        // The standing first, then the host's generation: a reload bumps the generation
        // (acquire-release) before it frees the row, so a client that sees its row freed
        // by a reload also sees the new generation. Read the other way round, a reload
        // between the two loads would count as a plain free.
        let lost = claim.standing() != Standing::Connected;
        let noticed = if header.load::<u32>(HOST_GENERATION, Acquire) != host {
            &mut reloads
        } else if lost {
            &mut disconnects
        } else if done.load(Acquire) {
            // Goodbye: only a host action since the check stops it.
            let generation = claim.generation();
            if claim.close() == Standing::Connected {
                return (claims, disconnects, reloads, generation);
            }
            if header.load::<u32>(HOST_GENERATION, Acquire) != host {
                &mut reloads
            } else {
                &mut disconnects
            }
        } else {
            std::thread::sleep(Duration::from_micros(100));
            continue;
        };
        *noticed += 1;
        (claim, host) = claim_row(&mut claims);
    }
}

fn numbers(out: &str, name: &str) -> Vec<u64> {
    let line = out
        .lines()
        .find(|l| l.split(' ').next() == Some(name))
        .unwrap_or_else(|| panic!("no {name} line: {out}"));
    line.split(' ')
        .skip(1)
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn a_c_host_serves_rust_clients_across_processes() {
    let (dir, _) = folder("c_protocols_peer", &["peer.c"]);
    let mut args = vec!["-std=c11"];
    args.push("-O2");
    args.extend(STRICT_WARNINGS);
    args.extend(["peer.c", "-o", "peer"]);
    run_ok("gcc", &args, &dir);
    let path = dir.join("bridge.bin");
    let map = produce_file(&path);
    // Under `timeout`: a host that never sees the goodbye fails the test, never hangs it.
    let mut peer = Command::new("timeout")
        .args([
            "60",
            dir.join("peer").to_str().unwrap(),
            path.to_str().unwrap(),
            &ROW_INDEX.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run peer");
    let mut stdout = BufReader::new(peer.stdout.take().unwrap());
    let mut ready = String::new();
    stdout.read_line(&mut ready).unwrap();
    assert_eq!(ready, "ready\n");

    let region = map.region().unwrap();
    let bridge = Bridge::attach(region).unwrap();
    let at = regions(&bridge, ROW_INDEX);
    let done = AtomicBool::new(false);
    let (q, r, m, d, s) = std::thread::scope(|scope| {
        let s = scope.spawn(|| session(region, &done));
        // A client thread that panics ends the session too, so that the scope's join returns
        // and the test fails instead of hanging.
        let _goodbye = SetOnDrop(&done);
        let q = scope.spawn(|| queue_writer(at.queue));
        let r = scope.spawn(|| ring_reader(at.ring));
        let m = scope.spawn(|| mailbox_client(at.mailbox));
        let row = region
            .sub(CLIENTS + ROW_INDEX * CLIENT_ENTRY, CLIENT_ENTRY, 8)
            .unwrap();
        let d = scope.spawn(move || draw_writer(at.draw, row));
        let finished = (
            q.join().unwrap(),
            r.join().unwrap(),
            m.join().unwrap(),
            d.join().unwrap(),
        );
        // Goodbye, after everything else: the host stops when it sees it.
        done.store(true, Release);
        let (q, r, m, d) = finished;
        (q, r, m, d, s.join().unwrap())
    });
    let mut out = String::new();
    for line in stdout.lines() {
        out.push_str(&line.unwrap());
        out.push('\n');
    }
    assert!(peer.wait().unwrap().success(), "peer failed: {out}");
    println!("rust: queue {q:?} ring {r:?} mailbox {m:?} draw {d:?} session {s:?}\nc: {out}");

    let host_queue = numbers(&out, "queue");
    assert_eq!(
        host_queue,
        [q.0 - q.1, 0, 1],
        "every entry kept arrived, in order"
    );
    assert!(q.1 > 0, "the queue filled: {q:?}");
    let (read, laps, missed, corrupt, span) = r;
    // Every lap is reported with the entry after it, whose seq counts the missed exactly.
    assert!(
        read > 0 && laps > 0 && corrupt == 0 && read + missed == span,
        "{r:?}"
    );
    assert!(numbers(&out, "ring")[0] >= span);
    let (requests, answered, lost, wrong, waits) = m;
    assert!(
        requests > 0 && answered + lost == requests && wrong == 0 && waits > 0,
        "{m:?}"
    );
    assert_eq!(numbers(&out, "mailbox"), [answered]);
    let host_draw = numbers(&out, "draw");
    assert_eq!(host_draw[1], 0, "no stale or torn list");
    // The host takes the last list before it frees the row the goodbye closed; a list a
    // free overtook was discarded with the exchange's state, and so was the last one when
    // the goodbye came between the host's take and a free of its own (host_draw[3]).
    if d.3 == s.3 && host_draw[3] == 0 {
        assert_eq!(host_draw[2], d.1, "the last list was taken");
    } else {
        assert!(host_draw[2] <= d.1, "{host_draw:?} {d:?}");
    }
    assert!(host_draw[0] > 0 && host_draw[0] < d.0);
    let host_session = numbers(&out, "session");
    let (frees, reloads, refusals) = (host_session[0], host_session[1], host_session[2]);
    assert_eq!(
        [frees + refusals, reloads],
        [s.1, s.2],
        "each free and reload noticed once: {host_session:?}"
    );
    // A refused take is a publication of the last session that a free overtook (the
    // documented one-write window), never anything else.
    assert!(refusals <= d.2, "{host_session:?} {d:?}");
    assert!(s.1 > 0 && s.2 > 0 && s.0 == 1 + s.1 + s.2, "{s:?}");
}

/// The C producer (`ibf_lay_out`, run by tests/c_attach/attach.c) starts every exchange's
/// state word at the schema's `initial_state`: each bot block's draw state is 1, so that a
/// writer that owns list 0 and a reader that owns list 2 can start at once.
#[test]
fn the_c_producer_starts_each_exchange_at_its_initial_state() {
    let dir = scratch("c_protocols_produce");
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    std::fs::copy(manifest("tests/c_attach/attach.c"), dir.join("attach.c")).unwrap();
    let mut args = vec!["-std=c11", "-O2"];
    args.extend(STRICT_WARNINGS);
    args.extend(["attach.c", "-o", "attach"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(
        dir.join("attach").to_str().unwrap(),
        &[
            "produce",
            "c.bin",
            "3",
            "mailbox.request_capacity=2048",
            "mailbox.response_capacity=1984",
        ],
        &dir,
    );
    // The same image produced again over the mapping is a reload: generation 3, then 4.
    assert!(
        out.contains("relayout code=0 generation 3 then 4\n"),
        "{out}"
    );
    let bytes = std::fs::read(dir.join("c.bin")).unwrap();
    let buf = bridge_abi::runtime::SharedBuf::new(bytes.len());
    buf.region().write_bytes(0, &bytes).unwrap();
    // The state word is 0 while the image is written, running (1) when it is live.
    buf.region().try_store::<u32>(24, 1, Release).unwrap();
    let bridge = Bridge::attach(buf.region()).expect("the C image attaches");
    for i in 0..Bridge::BOT_BLOCKS_COUNT {
        let draw = bridge
            .bot_blocks(i)
            .unwrap()
            .unwrap()
            .draw_region()
            .unwrap();
        assert_eq!(draw.load::<u32>(DRAW_STATE, Acquire), 1, "bot block {i}");
        assert_eq!(draw.load::<u32>(20, Acquire), 0, "nothing published yet");
    }
}

/// Every code a helper of a generated header returns, found by reading the header's text (the
/// `return`s, assignments and failure helpers' codes), has one name other than "unknown"
/// from the header's name functions, named after its macro, and no two codes of different
/// names share a number (issue 40, item 6: 2 was both "empty" and "bad_magic", and attach
/// and protocol codes overlapped from 10 to 21). For the bridge's header and the demo
/// schema's.
#[test]
fn every_returned_code_has_one_name_and_a_number_of_its_own() {
    use common::result_codes::{check, name_functions, program, returned_codes};
    let demo_src = std::fs::read_to_string(manifest("tests/fixtures/protocols/demo.toml")).unwrap();
    let demo = abi_codegen::load_schema(&demo_src).expect("demo.toml loads");
    let headers = [
        (common::bridge_schema(), "ibf", "schema.toml"),
        (demo, "demo", "demo.toml"),
    ];
    let mut bridge_names = std::collections::BTreeSet::new();
    for (schema, prefix, source) in headers {
        let header = render_c_header(&schema, source).expect("header");
        let pu = prefix.to_ascii_uppercase();
        let codes = returned_codes(&header, &pu);
        let functions = name_functions(&header, prefix);
        assert!(codes.len() > 20, "{prefix}: {codes:?}");
        assert!(functions.len() >= 2, "{prefix}: {functions:?}");
        let dir = scratch(&format!("c_result_codes_{prefix}"));
        std::fs::write(dir.join("h.h"), &header).unwrap();
        std::fs::write(dir.join("codes.c"), program("h.h", &codes, &functions)).unwrap();
        let mut args = vec!["-std=c11", "-O0"];
        args.extend(STRICT_WARNINGS);
        args.extend(["codes.c", "-o", "codes"]);
        run_ok("gcc", &args, &dir);
        let out = run_ok(dir.join("codes").to_str().unwrap(), &[], &dir);
        let by_value = check(&out, &pu);
        println!(
            "{prefix}: {} codes, {} numbers, named by {functions:?}",
            codes.len(),
            by_value.len()
        );
        if prefix == "ibf" {
            // Every name the header's name functions give (returned or not).
            bridge_names = header
                .lines()
                .filter(|l| l.trim_start().starts_with("case IBF_"))
                .filter_map(|l| l.split_once(": return \""))
                .map(|(_, n)| n.trim_end_matches("\";").to_string())
                .collect();
        }
    }
    // The runtime's names are the source of truth: each of its errors has the C name, but
    // for <protocol>_contended, which no C helper can give: the runtime's sub-word stores are
    // compare-and-swap loops on whole words, while C stores each field with its own width
    // (exchange_contended, a state word's loop in both, has its C code).
    assert!(bridge_names.contains("exchange_contended"));
    for file in [
        "byte_queue",
        "broadcast_ring",
        "mailbox",
        "triple_buffer",
        "entry_parts",
        "attach_error",
    ] {
        let src = std::fs::read_to_string(manifest(&format!("runtime/src/{file}.rs"))).unwrap();
        let body = src
            .split_once("pub fn check(&self) -> &'static str {")
            .expect("a check() fn")
            .1;
        let body = &body[..body.find("\n    }\n").unwrap()];
        for name in body
            .split("=> \"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
        {
            if !name.ends_with("_contended") {
                assert!(
                    bridge_names.contains(name),
                    "runtime {file}: {name} has no C name"
                );
            }
        }
    }
    // Python raises the same names. Its protocol and directory errors (ProtocolError,
    // DirectoryError, a session's refusals) are printed from the list C's are
    // (`check.<name>` in their templates, which fail to render on a name not in it); the
    // attach checks' and the produce errors' are still written in their template.
    let py = std::fs::read_to_string(manifest("generated/bridge.py")).unwrap();
    let mut python = 0;
    for marker in ["AttachError(", "ProduceError("] {
        for tail in py.split(marker).skip(1) {
            let tail = tail.trim_start();
            let Some(quoted) = tail.strip_prefix('"') else {
                continue;
            };
            let name = &quoted[..quoted.find('"').unwrap()];
            assert!(bridge_names.contains(name), "Python's {name} has no C name");
            python += 1;
        }
    }
    assert!(python > 30, "{python} names raised in bridge.py");
}
