//! Lockstep between processes (issue 47, step 3): this test process is a Rust host in
//! lockstep (`run_mode` lockstep, `lockstep_timeout_ms` L) with bots in Rust, C and Python,
//! each in its own process. After each tick it publishes, the host waits for every bot's
//! answer (`ClientHost::wait_input`) up to L. Each bot answers every tick at once, except the
//! ticks it answers late on purpose (after L): those must be counted as its misses, and its
//! late answer, which lands while the host waits for the next tick, must never be taken for
//! that one. One bot is killed with SIGKILL mid-run (the host misses it each tick until it
//! frees the row), and the host reloads mid-run (every bot claims a row again).
//!
//! A bot's answer carries its tick twice: in `for_tick`, which the host's wait checks, and
//! spread over the stick axes, which only this test reads: a taken answer whose axes say
//! another tick is a stale answer taken. Prints `lockstep: T ticks, B bots, M misses, 0 stale
//! answers taken, worst wait W ms (timeout L ms)`.
#![cfg(target_os = "linux")]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bridge_abi::live::{Bridge, Client, ClientStanding};
use bridge_abi::runtime::Mapping;
use bridge_abi::{ClientCaps, HostState, PadInput, RunMode};

use crate::common::protocol_peer::produce_file;
use crate::common::tools::scratch;

/// Ticks the host publishes.
const TICKS: u64 = 240;
/// The host's lockstep timeout, ms: wide enough for a loaded 2-core machine's on-time answer.
const TIMEOUT_MS: u64 = 60;
/// A late answer comes this long after the tick: past the timeout.
const LATE_MS: u64 = TIMEOUT_MS + 30;
/// A bot `id` answers tick `t` late when `t % LATE_EVERY == id + 1`.
const LATE_EVERY: u64 = 24;
/// The bots: (id, language). The last one is killed.
const BOTS: [(u64, &str); 4] = [(0, "rust"), (1, "c"), (2, "python"), (3, "rust")];
/// When the killed bot dies, when the host frees its row, and when the host reloads.
const KILL_AT: u64 = 60;
const FREE_AT: u64 = 66;
const RELOAD_AT: u64 = 150;
/// How far past the timeout a wait may end (a futex wait's overshoot on a loaded machine).
const SLACK: Duration = Duration::from_millis(40);

/// Whether bot `id` answers tick `t` late on purpose.
fn late(id: u64, t: u64) -> bool {
    t % LATE_EVERY == id + 1
}

/// The answer to tick `t` by bot `id`: `for_tick` and the axes hold the tick, `ry` the id.
fn answer(t: u64, id: u64) -> PadInput {
    let mut v = <PadInput as zerocopy::FromZeros>::new_zeroed();
    v.for_tick = t;
    v.lx = (t & 0xFFFF) as u16 as i16;
    v.ly = (t >> 16 & 0xFFFF) as u16 as i16;
    v.rx = (t >> 32 & 0xFFFF) as u16 as i16;
    v.ry = id as i16;
    v
}

/// The tick the axes of an answer say.
fn axes_tick(v: &PadInput) -> u64 {
    u64::from(v.lx as u16) | u64::from(v.ly as u16) << 16 | u64::from(v.rx as u16) << 32
}

/// The Rust bot: claims a row, sleeps on the tick event, answers each tick (late on its late
/// ticks), claims a row again after a reload, and stops when the host exits.
fn rust_bot(path: &str, id: u64) -> Result<(), Box<dyn std::error::Error>> {
    let map = Mapping::open(path)?;
    let end = Instant::now() + Duration::from_secs(60);
    let mut last = 0u64;
    'claim: loop {
        assert!(Instant::now() < end, "the bot ran 60 s");
        // An attach or a claim racing the host's reload fails: try again.
        let Ok(bridge) = Bridge::attach(map.region()?) else {
            std::thread::sleep(Duration::from_millis(2));
            continue;
        };
        if bridge.header().host_state() == HostState::EXITING {
            return Ok(());
        }
        let Ok(client) = bridge.claim_first_client() else {
            std::thread::sleep(Duration::from_millis(2));
            continue;
        };
        if client.activate() != ClientStanding::Connected {
            continue;
        }
        let Some(pad) = bridge
            .client_blocks(client.index())
            .ok()
            .flatten()
            .and_then(|b| b.pad_input())
        else {
            continue;
        };
        let setter = pad.input_setter()?;
        let sleeper = client.tick_sleeper()?;
        loop {
            assert!(Instant::now() < end, "the bot ran 60 s");
            match client.standing() {
                ClientStanding::Connected => {}
                ClientStanding::HostExiting => return Ok(()),
                _ => continue 'claim,
            }
            let r =
                client.wait_tick(&sleeper, last, Instant::now() + Duration::from_millis(100))?;
            let Some(t) = r.seq else { continue };
            if late(id, t) {
                std::thread::sleep(Duration::from_millis(LATE_MS));
            }
            if pad.answer_input(&client, &setter, &answer(t, id)).is_err() {
                continue 'claim;
            }
            last = t;
        }
    }
}

#[test]
#[ignore = "a Rust bot's own process, run by lockstep_with_bots_that_miss_die_and_reload"]
fn lockstep_rust_bot_process() {
    let path = std::env::var("LOCKSTEP_BRIDGE").expect("LOCKSTEP_BRIDGE: the bridge file");
    let id = std::env::var("LOCKSTEP_ID").unwrap().parse().unwrap();
    rust_bot(&path, id).expect("the Rust bot");
}

/// The C bot: the same loop over ibf_client_tick_wait and ibf_client_answer_input.
const C_BOT: &str = r#"
#include "bridge.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static void sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

/* The bridge file mapped shared, read and write: its start, its size in *size; NULL when not. */
static unsigned char *map_bridge(const char *path, size_t *size) {
    struct stat st;
    void *at;
    int fd = open(path, O_RDWR);
    if (fd < 0 || fstat(fd, &st) != 0) return NULL;
    *size = (size_t)st.st_size;
    at = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return at == MAP_FAILED ? NULL : (unsigned char *)at;
}

int main(int argc, char **argv) {
    static ibf_attached a;
    ibf_attach_error err;
    ibf_client_session me;
    size_t size = 0, len;
    uint64_t id, late_every, late_ms, last = 0, seq = 0, rounds = 0;
    unsigned char *base = argc == 6 ? map_bridge(argv[1], &size) : NULL;
    if (base == NULL) return 2;
    id = strtoull(argv[2], NULL, 10);
    late_every = strtoull(argv[4], NULL, 10);
    late_ms = strtoull(argv[5], NULL, 10);
    for (;;) {
        ibf_pad_input *pad;
        uint32_t i;
        int found = 0;
        if (++rounds > 5000000U) return 3;
        if (ibf_bridge_header_load_host_state((const ibf_bridge_header *)(const void *)base) == IBF_HOST_STATE_EXITING) return 0;
        if (ibf_attach(base, size, &a, &err) != IBF_ATTACH_OK) return 3;
        len = (size_t)ibf_attached_header_size(&a);
        for (i = 0; i < IBF_MAX_CLIENTS && !found; i++) {
            found = ibf_client_claim(base, len, (uint32_t)a.generation, i, &me) == IBF_OK
                    && ibf_client_activate(base, len, &me) == IBF_OK;
        }
        if (!found) { sleep_ms(2); continue; }
        pad = ibf_attached_client_blocks_pad_input(&a, me.row);
        if (pad == NULL) return 4;
        for (;;) {
            ibf_pad_input v;
            int r = ibf_client_standing(base, len, &me);
            if (++rounds > 5000000U) return 5;
            if (r == IBF_HOST_EXITING) return 0;
            if (r != IBF_OK) break;
            r = ibf_client_tick_wait(base, len, &me, NULL, last, 100000000U, &seq);
            if (r == IBF_CLIENT_TICK_ROW) break;
            if (r == IBF_CLIENT_TICK_AGAIN || seq == last) continue;
            if (seq % late_every == id + 1U) sleep_ms((long)late_ms);
            memset(&v, 0, sizeof v);
            v.for_tick = seq;
            v.lx = (int16_t)(uint16_t)(seq & 0xFFFFU);
            v.ly = (int16_t)(uint16_t)(seq >> 16 & 0xFFFFU);
            v.rx = (int16_t)(uint16_t)(seq >> 32 & 0xFFFFU);
            v.ry = (int16_t)id;
            if (ibf_client_answer_input(base, len, &me, pad, &v, NULL) != IBF_OK) break;
            last = seq;
        }
    }
}
"#;

/// The Python bot: `Client.wait_tick` (with the `ticks` cap) and `Client.answer_input`.
const PY_BOT: &str = r#"
import mmap, sys, time
import bridge

path, bot_id, late_every, late_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[4]), int(sys.argv[5])
with open(path, "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
end = time.monotonic() + 60


def i16(x):
    return (x ^ 0x8000) - 0x8000


def run():
    last = 0
    while True:
        assert time.monotonic() < end, "the bot ran 60 s"
        handle = bridge.attach(buf)
        header = handle.header()
        if header.host_state() == bridge.HostState.EXITING:
            return
        me = None
        for i in range(bridge.MAX_CLIENTS):
            try:
                me = bridge.Client.claim(header, i, handle.generation)
            except bridge.ProtocolError:
                me = None
                break
            if me is not None:
                break
        if me is None:
            time.sleep(0.002)
            continue
        me.row.set_caps(bridge.ClientCaps.TICKS)
        if not me.activate():
            continue
        pad = handle.client_blocks(me.index).pad_input()
        while True:
            assert time.monotonic() < end, "the bot ran 60 s"
            standing = me.standing()
            if standing == bridge.Standing.HOST_EXITING:
                return
            if standing != bridge.Standing.CONNECTED:
                break
            try:
                t, _, _ = me.wait_tick(last, 0.1)
            except bridge.ProtocolError:
                continue  # the claim is gone: the standing above says whether to claim again
            if t is None or t == last:
                continue
            if t % late_every == bot_id + 1:
                time.sleep(late_ms / 1000)
            v = bridge.PadInput(for_tick=t, lx=i16(t & 0xFFFF), ly=i16(t >> 16 & 0xFFFF), rx=i16(t >> 32 & 0xFFFF), ry=bot_id)
            try:
                me.answer_input(pad, v)
            except bridge.ProtocolError:
                break
            last = t


run()
"#;

/// What the host saw on one tick.
struct Tick {
    bots: u64,
    answered: u64,
    missed: u64,
    /// The bot id of each row's answer taken on this tick.
    owners: Vec<Option<u64>>,
}

fn spawn(lang: &str, id: u64, path: &std::path::Path, dir: &std::path::Path) -> Child {
    let mut c = match lang {
        "rust" => {
            let mut c = Command::new(std::env::current_exe().unwrap());
            c.args([
                "--exact",
                "lockstep::lockstep_rust_bot_process",
                "--ignored",
            ])
            .args(["--nocapture", "--test-threads", "1", "-q"])
            .env("LOCKSTEP_BRIDGE", path)
            .env("LOCKSTEP_ID", id.to_string());
            c
        }
        "c" => {
            let mut c = Command::new(dir.join("bot"));
            c.arg(path);
            c
        }
        _ => {
            let generated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
            let mut c = Command::new("python3");
            c.args(["-B", "-W", "error"])
                .arg(dir.join("bot.py"))
                .arg(path)
                .env("PYTHONPATH", &generated);
            c
        }
    };
    if lang != "rust" {
        c.args([
            id.to_string(),
            TICKS.to_string(),
            LATE_EVERY.to_string(),
            LATE_MS.to_string(),
        ]);
    }
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c.spawn()
        .unwrap_or_else(|e| panic!("start the {lang} bot: {e}"))
}

fn build(dir: &std::path::Path) {
    std::fs::write(dir.join("bot.c"), C_BOT).unwrap();
    std::fs::write(dir.join("bot.py"), PY_BOT).unwrap();
    let include = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let include = include.to_str().unwrap();
    let strict = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include];
    let mut cxx = vec!["-std=c++17", "-x", "c++", "-c", "bot.c", "-o", "bot_cxx.o"];
    cxx.extend(strict);
    crate::common::tools::run_ok("g++", &cxx, dir);
    let mut c = vec![
        "-std=c11",
        "-D_POSIX_C_SOURCE=200809L",
        "-O2",
        "bot.c",
        "-o",
        "bot",
    ];
    c.extend(strict);
    crate::common::tools::run_ok("gcc", &c, dir);
}

#[test]
fn lockstep_with_bots_that_miss_die_and_reload() {
    let dir = scratch("lockstep");
    build(&dir);
    let path = dir.join("bridge.shm");
    let map = produce_file(&path);
    let bridge = Bridge::attach(map.region().unwrap()).expect("attach");
    let header = bridge.header();
    header.set_run_mode(RunMode::LOCKSTEP).unwrap().unwrap();
    header
        .set_lockstep_timeout_ms(TIMEOUT_MS as u32)
        .unwrap()
        .unwrap();
    let host = bridge.client_host();
    let setter = host.tick_setter().expect("the tick event's word");
    let pads: Vec<_> = (0..Client::ROWS)
        .map(|i| {
            bridge
                .client_blocks(i)
                .ok()
                .flatten()
                .and_then(|b| b.pad_input())
        })
        .collect();
    let mut children: Vec<Child> = BOTS
        .iter()
        .map(|&(id, lang)| spawn(lang, id, &path, &dir))
        .collect();
    // Every bot active before the first tick: a bounded number of 2 ms naps (a bot that
    // fails exits, and is named at once).
    let mut naps = 0u32;
    while host.lockstep_bots().count_ones() < BOTS.len() as u32 {
        for (c, (_, lang)) in children.iter_mut().zip(BOTS) {
            if let Some(status) = c.try_wait().unwrap() {
                panic!("the {lang} bot exited before the first tick: {status}");
            }
        }
        naps += 1;
        assert!(naps < 15_000, "the bots did not claim rows in {naps} naps");
        std::thread::sleep(Duration::from_millis(2));
    }
    let timeout = Duration::from_millis(TIMEOUT_MS);
    let mut last = vec![<PadInput as zerocopy::FromZeros>::new_zeroed(); Client::ROWS];
    let mut misses = vec![0u64; Client::ROWS];
    let mut ticks = Vec::new();
    let (mut stale, mut worst, mut killed_row) = (0u64, Duration::ZERO, None);
    for t in 1..=TICKS {
        if t == KILL_AT {
            // The killed bot's row: the one whose last answer says id 3.
            killed_row = (0..Client::ROWS).find(|&r| last[r].ry == 3 && last[r].for_tick > 0);
            children[3].kill().expect("SIGKILL the bot");
            children[3].wait().unwrap();
        }
        if t == FREE_AT {
            let row = killed_row.expect("the killed bot had answered");
            host.free(row).expect("free the killed bot's row");
        }
        if t == RELOAD_AT {
            host.reload().expect("reload");
        }
        header.set_snapshot_seq(t).expect("publish");
        host.set_tick(&setter, |r| r.caps().contains(ClientCaps::TICKS));
        let published = Instant::now();
        let tally = host.wait_input(
            t,
            published + timeout,
            |row| pads.get(row).copied().flatten(),
            &mut last,
            &mut misses,
        );
        worst = worst.max(published.elapsed());
        for (row, pad) in last.iter().enumerate() {
            if tally.answered & (1 << row) != 0 && (axes_tick(pad) != t || pad.for_tick != t) {
                stale += 1;
            }
        }
        ticks.push(Tick {
            bots: tally.bots,
            answered: tally.answered,
            missed: tally.missed,
            owners: (0..Client::ROWS)
                .map(|r| (tally.answered & (1 << r) != 0).then_some(last[r].ry as u64))
                .collect(),
        });
    }
    host.exit().unwrap();
    assert_eq!(stale, 0, "stale answers taken");
    let mut outputs = Vec::new();
    for (mut c, (_, lang)) in children.into_iter().zip(BOTS).take(3) {
        let mut naps = 0u32;
        while c.try_wait().unwrap().is_none() {
            naps += 1;
            assert!(
                naps < 6_000,
                "the {lang} bot did not stop in {naps} naps of 5 ms"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "the {lang} bot failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        outputs.push(out);
    }
    // Every miss counted: the misses per row add up to the bots not answered, tick by tick.
    let missed: u64 = ticks.iter().map(|k| u64::from(k.missed.count_ones())).sum();
    assert_eq!(misses.iter().sum::<u64>(), missed, "misses counted per row");
    for (i, k) in ticks.iter().enumerate() {
        assert_eq!(
            k.bots & !k.answered,
            k.missed,
            "tick {}: a bot neither answered nor missed",
            i + 1
        );
    }
    // Each answer late on purpose is a miss of its bot's row. A late tick is due when the bot
    // held one row across it: the row it answered from on its last answered tick before and
    // on its first after, both on the same side of the reload (which moves the bots' rows).
    // Every due tick must be that row's miss; a late tick with the bot not yet in a row
    // (starting, or claiming again after the reload) is not due.
    let epoch = |t: u64| t >= RELOAD_AT;
    let row_of = |id: u64, k: &Tick| (0..Client::ROWS).find(|&r| k.owners[r] == Some(id));
    let mut due = 0;
    for t in 1..TICKS {
        for &(id, _) in BOTS.iter().take(3) {
            if !late(id, t) {
                continue;
            }
            let on_side = |&(u, _): &(u64, &Tick)| epoch(u) == epoch(t);
            let numbered = || (1u64..).zip(ticks.iter());
            let before = numbered()
                .take(t as usize - 1)
                .filter(on_side)
                .filter_map(|(_, k)| row_of(id, k))
                .last();
            let after = numbered()
                .skip(t as usize)
                .filter(on_side)
                .find_map(|(_, k)| row_of(id, k));
            let (Some(row), Some(next)) = (before, after) else {
                continue;
            };
            assert_eq!(
                row, next,
                "tick {t}: bot {id} answered from row {row} before and {next} after, with no reload between"
            );
            assert!(
                ticks[t as usize - 1].missed & (1 << row) != 0,
                "tick {t}: bot {id}'s late answer not counted as a miss of row {row}"
            );
            due += 1;
        }
    }
    // The test raced: late answers were due, and each was checked above.
    assert!(
        due > 0,
        "no late answer was due: no bot held a row across a late tick"
    );
    // The killed bot: missed every tick from its death to its row's free, each no longer
    // than the timeout.
    let killed = killed_row.expect("the killed bot's row");
    for t in KILL_AT + 1..FREE_AT {
        assert!(
            ticks[t as usize - 1].missed & (1 << killed) != 0,
            "tick {t}: the killed bot's miss not counted"
        );
    }
    assert!(
        worst <= timeout + SLACK,
        "worst wait {worst:?} past the timeout {timeout:?}"
    );
    assert!(
        missed > 0,
        "no bot missed: the late answers did not race the next tick"
    );
    println!("lockstep: {due} late answers due, each counted as its row's miss");
    println!(
        "lockstep: {} ticks, {} bots, {} misses, {} stale answers taken, worst wait {:.1} ms (timeout {} ms)",
        TICKS,
        BOTS.len(),
        missed,
        stale,
        worst.as_secs_f64() * 1e3,
        TIMEOUT_MS
    );
}
