//! The C client of the protocol torture (`tests/torture/protocols.c`) against a small host
//! of this test's own, written with the runtime primitives over the same file (the real host,
//! examples/torture_protocols.rs, is the Rust side's): the client runs its five phases in a
//! process of its own while this host pops its log queue, writes the log ring on every turn,
//! serves its mailbox, takes its draw lists and frees its row or reloads, and the client's
//! five lines must meet the contract's checks (no entry lost or corrupt, a lapped reader that
//! accounts for every entry, every request answered right, no torn or stale list, every host
//! action noticed once). Needs gcc; fails, never skips, without it.
#![cfg(not(miri))]

use crate::common;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::time::{Duration, Instant};

use abi_codegen::testing::language_backend::c::render_c_header;
use bridge_abi::live::Bridge;
use bridge_abi::runtime::broadcast_ring::RingWriter;
use bridge_abi::runtime::byte_queue::{ByteQueue, Popped};
use bridge_abi::runtime::claim;
use bridge_abi::runtime::mailbox::Mailbox;
use bridge_abi::runtime::triple_buffer::TripleReader;
use bridge_abi::runtime::{ReadWrite, Region};
use common::protocol_peer::{
    CLIENT_ENTRY, CLIENTS, DRAW_CMD, DRAW_LISTS, DRAW_STATE, HOST_GENERATION, MAILBOX, QUEUE, RING,
    ROW, Regions, answer, log_entry, log_parts, produce_file, regions,
};
use common::tools::{run_ok, scratch};

const ROW_INDEX: usize = 1;
const MILLIS: u64 = 400;

/// What the host counted.
#[derive(Default, Debug)]
struct Host {
    received: u64,
    corrupt: u64,
    ended: bool,
    last_k: Option<u64>,
    ring_written: u64,
    served: u64,
    taken: u64,
    stale_or_torn: u64,
    last_taken: u64,
    frees: u64,
    reloads: u64,
}

fn build_client(dir: &Path) -> std::path::PathBuf {
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/torture/protocols.c");
    std::fs::copy(src, dir.join("protocols.c")).unwrap();
    let clock = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/torture/clock.h");
    std::fs::copy(clock, dir.join("clock.h")).unwrap();
    run_ok(
        "gcc",
        &[
            "-std=c11",
            "-O2",
            "-I.",
            "-pthread",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "protocols.c",
            "-o",
            "protocols",
        ],
        dir,
    );
    dir.join("protocols")
}

/// The list the reader took: its seq, and whether every command and payload is the seq's.
fn check_list(draw: Region<'_>, index: usize) -> (u64, bool) {
    let buffer_size = draw.load::<u32>(8, Acquire) as usize;
    let max_commands = draw.load::<u32>(12, Acquire) as usize;
    let list = DRAW_LISTS + index * buffer_size;
    let mut head = [0u8; 12];
    draw.read_bytes(list, &mut head);
    let seq = u32::from_le_bytes(head[0..4].try_into().unwrap());
    let count = u32::from_le_bytes(head[4..8].try_into().unwrap()) as usize;
    let payload_len = u32::from_le_bytes(head[8..12].try_into().unwrap()) as usize;
    let mut good = count == 1 + (seq as usize) % 7 && payload_len == 8 * count;
    for i in 0..count.min(max_commands) {
        let mut cmd = [0u8; DRAW_CMD];
        draw.read_bytes(list + 64 + i * DRAW_CMD, &mut cmd);
        let color = u32::from_le_bytes(cmd[4..8].try_into().unwrap());
        let off = u32::from_le_bytes(cmd[28..32].try_into().unwrap()) as usize;
        let mut payload = [0u8; 8];
        if off + 8 <= payload_len {
            draw.read_bytes(list + 64 + max_commands * DRAW_CMD + off, &mut payload);
        }
        good &= color == seq && u64::from_le_bytes(payload) == u64::from(seq);
    }
    (u64::from(seq), good)
}

/// One turn of the host over every protocol; `exited`: the client is gone (a final take).
fn turn(
    at: Regions<'_>,
    host: &mut Host,
    reader: &mut TripleReader<'_, ReadWrite>,
    lifecycle: &mut Lifecycle,
) {
    let queue = ByteQueue::new(at.queue, QUEUE).unwrap();
    let mut buf = Vec::new();
    while !host.ended {
        match queue.pop(&mut buf).expect("an honest client's queue") {
            Popped::Empty => break,
            Popped::Entry(_) => {
                let (source, text) = log_parts(&buf).expect("an entry's parts");
                if text == b"end" {
                    host.ended = true;
                    break;
                }
                let k: Option<u64> = std::str::from_utf8(text).ok().and_then(|t| t.parse().ok());
                match k {
                    Some(k) if source == b"torture" && host.last_k.is_none_or(|p| k > p) => {
                        host.last_k = Some(k);
                        host.received += 1;
                    }
                    _ => host.corrupt += 1,
                }
            }
        }
    }
    let ring = RingWriter::new(at.ring, RING).unwrap();
    let seq = at.ring.load::<u64>(RING.entries, Relaxed);
    let mut entry = log_entry(2, seq, b"host", seq.to_string().as_bytes());
    assert_eq!(ring.push(&mut entry).unwrap(), seq);
    host.ring_written += 1;
    let mailbox = Mailbox::new(at.mailbox, MAILBOX).unwrap();
    if mailbox
        .serve(|req| {
            (
                bridge_abi::CommandStatus::OK.0,
                answer(req).unwrap_or_default(),
            )
        })
        .expect("an honest client's mailbox")
        .is_some()
    {
        host.served += 1;
    }
    if let Some(index) = reader.take().expect("an honest writer's state") {
        let (seq, good) = check_list(at.draw, index);
        if good && seq > host.last_taken {
            host.taken += 1;
            host.last_taken = seq;
        } else {
            host.stale_or_torn += 1;
        }
    }
    lifecycle.act(at.header, host);
}

/// The host's actions on the client's row: at most one at a time, every ~20 ms, alternately a
/// free and a reload, each waiting for the row to be active with a new generation.
struct Lifecycle {
    last: Instant,
    acted_on: Option<u32>,
    next_is_reload: bool,
}

impl Lifecycle {
    fn act(&mut self, region: Region<'_>, host: &mut Host) {
        let row = region
            .sub(CLIENTS + ROW_INDEX * CLIENT_ENTRY, CLIENT_ENTRY, 8)
            .unwrap();
        let state = row.load::<u32>(0, Acquire);
        let generation = row.load::<u32>(4, Acquire);
        if state == ROW.closing {
            claim::free(row, ROW).unwrap();
            return;
        }
        if state != ROW.active
            || self.acted_on == Some(generation)
            || self.last.elapsed() < Duration::from_millis(20)
        {
            return;
        }
        if self.next_is_reload {
            region
                .try_fetch_add::<u32>(HOST_GENERATION, 1, Release)
                .unwrap();
            for r in 0..8 {
                let other = region
                    .sub(CLIENTS + r * CLIENT_ENTRY, CLIENT_ENTRY, 8)
                    .unwrap();
                if other.load::<u32>(0, Acquire) == ROW.active {
                    claim::free(other, ROW).unwrap();
                }
            }
            host.reloads += 1;
        } else {
            claim::free(row, ROW).unwrap();
            host.frees += 1;
        }
        self.next_is_reload = !self.next_is_reload;
        self.acted_on = Some(generation);
        self.last = Instant::now();
    }
}

fn numbers(line: &str, name: &str) -> Vec<u64> {
    let mut words = line.split(' ');
    assert_eq!(words.next(), Some(name), "{line}");
    words.map(|w| w.parse().expect(line)).collect()
}

#[test]
fn the_c_client_runs_every_phase_against_a_host() {
    let dir = scratch("c_protocols_torture");
    let exe = build_client(&dir);
    let path = dir.join("bridge.bin");
    let map = produce_file(&path);
    let region = map.region().unwrap();
    let bridge = Bridge::attach(region).expect("attach");
    let at = regions(&bridge, ROW_INDEX);
    let mut reader = TripleReader::new(at.draw, DRAW_STATE);
    let mut client: Child = Command::new(&exe)
        .args([
            path.to_str().unwrap(),
            &ROW_INDEX.to_string(),
            &MILLIS.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the client");
    let mut host = Host::default();
    let mut lifecycle = Lifecycle {
        last: Instant::now(),
        acted_on: None,
        next_is_reload: false,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while client.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the client did not finish");
        turn(at, &mut host, &mut reader, &mut lifecycle);
    }
    turn(at, &mut host, &mut reader, &mut lifecycle);
    let out = client.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the client failed\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{stdout}{host:?}");
    let lines: HashMap<&str, &str> = stdout
        .lines()
        .map(|l| (l.split(' ').next().unwrap(), l))
        .collect();
    assert_eq!(lines.len(), 5, "five lines: {stdout}");
    let order: Vec<&str> = stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        order,
        ["log_queue", "log_ring", "mailbox", "draw", "lifecycle"]
    );

    let q = numbers(lines["log_queue"], "log_queue");
    let (pushed, dropped) = (q[0], q[1]);
    assert!(host.ended, "the host popped `end`");
    assert_eq!(host.corrupt, 0);
    assert_eq!(dropped + host.received, pushed, "lost: {host:?}");
    assert!(dropped > 0, "a full queue dropped entries");

    let r = numbers(lines["log_ring"], "log_ring");
    let (read, gaps, missed, corrupt, span) = (r[0], r[1], r[2], r[3], r[4]);
    assert_eq!(corrupt, 0);
    assert!(read > 0 && gaps > 0, "the slow reader was lapped");
    assert_eq!(read + missed, span, "every entry read or counted missed");

    let m = numbers(lines["mailbox"], "mailbox");
    let (requests, answered, wrong, waits) = (m[0], m[1], m[2], m[3]);
    assert!(requests > 0 && answered == requests && wrong == 0 && waits > 0);
    assert_eq!(host.served, requests);

    let d = numbers(lines["draw"], "draw");
    let (published, last) = (d[0], d[1]);
    assert_eq!(host.stale_or_torn, 0);
    assert_eq!(host.last_taken, last, "the last list published was taken");
    assert!(published > host.taken && host.taken > 0);

    let l = numbers(lines["lifecycle"], "lifecycle");
    let (claims, disconnects, reloads) = (l[0], l[1], l[2]);
    assert_eq!(disconnects, host.frees, "every free noticed once");
    assert_eq!(reloads, host.reloads, "every reload noticed once");
    assert!(disconnects > 0 && reloads > 0);
    // A claim after each notice, but not after one the goodbye found (the run is over).
    assert!(
        claims == 1 + disconnects + reloads || claims == disconnects + reloads,
        "{claims} claims"
    );
}
