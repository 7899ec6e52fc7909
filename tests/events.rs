//! The tick event between processes (issue 47): this test process is the host, publishing
//! ticks into a bridge file and setting the tick event after each publication
//! (`ClientHost::set_tick`); a bot in another process sleeps on it (`Client::wait_tick`, a
//! futex shared between processes) and answers each tick by storing it in its heartbeat.
//! The host publishes the next tick only after the answer, half the time at once (racing the
//! bot's handshake) and half the time after a short sleep (the bot asleep in the futex).
//!
//! A lost wake-up is a wait that ran to its deadline although the tick had been published
//! (`TickWait::timed_out` with a new sequence): there must be none, the bot must really have
//! slept (futex waits > 0, and woken ticks > 0), and the host must have made no OS call for a
//! publication no row waited for. `EVENTS_TICKS` sets the number of ticks (CI's "events"
//! step: 100,000); the workspace test runs 2,000.
#![cfg(target_os = "linux")]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bridge_abi::ClientCaps;
use bridge_abi::live::{Bridge, ClientStanding};
use bridge_abi::runtime::Mapping;

use crate::common::protocol_peer::produce_file;
use crate::common::tools::scratch;

/// Ticks in the workspace test; `EVENTS_TICKS` overrides it.
const TICKS: u64 = 2_000;
fn ticks() -> u64 {
    std::env::var("EVENTS_TICKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(TICKS)
}

/// What a bot printed: `bot: TICKS WOKEN LOST SLEEPS`.
#[derive(Debug, PartialEq, Eq)]
struct BotFigures {
    ticks: u64,
    woken: u64,
    lost: u64,
    sleeps: u64,
}

fn bot_figures(stdout: &str) -> BotFigures {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bot: "))
        .unwrap_or_else(|| panic!("no figures from the bot: {stdout}"));
    let n: Vec<u64> = line
        .split(' ')
        .map(|x| x.parse().expect("a number"))
        .collect();
    assert_eq!(n.len(), 4, "{line}");
    BotFigures {
        ticks: n[0],
        woken: n[1],
        lost: n[2],
        sleeps: n[3],
    }
}

/// A few random bits per tick (xorshift), so the host's timing differs each tick.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The host: waits for the bot's row to be active, then publishes `n` ticks, each after the
/// bot answered the one before; returns the publish-to-answer times and the OS calls made.
fn host(map: &Mapping, n: u64, bot: &mut std::process::Child) -> (Vec<Duration>, usize, usize) {
    let bridge = Bridge::attach(map.region().unwrap()).expect("attach");
    let header = bridge.header();
    let host = bridge.client_host();
    let setter = host.tick_setter().expect("the tick event's word");
    let deadline = Instant::now() + Duration::from_secs(30);
    let row = loop {
        let active = (0..bridge_abi::live::Client::ROWS).find(|&i| {
            header
                .clients(i)
                .is_some_and(|r| r.state() == bridge_abi::ClientState::ACTIVE)
        });
        if let Some(i) = active {
            break header.clients(i).unwrap();
        }
        if let Some(status) = bot.try_wait().unwrap() {
            panic!("the bot exited before it claimed a row: {status}");
        }
        assert!(Instant::now() < deadline, "no bot claimed a row in 30 s");
        std::thread::sleep(Duration::from_millis(1));
    };
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut times = Vec::with_capacity(n as usize);
    let (mut calls, mut woken_rows) = (0, 0);
    for t in 1..=n {
        if next(&mut rng) % 2 == 0 {
            // Let the bot fall asleep first.
            std::thread::sleep(Duration::from_micros(20 + next(&mut rng) % 80));
        }
        header.set_snapshot_seq(t).expect("publish");
        let published = Instant::now();
        let woke = host.set_tick(&setter, |r| r.caps().contains(ClientCaps::TICKS));
        assert!(woke.calls <= woke.rows, "an OS call for no row: {woke:?}");
        calls += woke.calls;
        woken_rows += woke.rows;
        let answer = Instant::now() + Duration::from_secs(5);
        let mut spins = 0u32;
        while row.heartbeat_ns() != t {
            spins += 1;
            if spins > 64 {
                std::thread::yield_now();
            }
            assert!(
                Instant::now() < answer,
                "the bot did not answer tick {t} in 5 s (it sleeps through it?)"
            );
        }
        times.push(published.elapsed());
    }
    (times, calls, woken_rows)
}

/// Runs `bot` (a command that attaches to the file it is given) against the host for the
/// ticks, checks the figures and prints them.
fn run(lang: &str, n: u64, bot: impl FnOnce(&std::path::Path, u64) -> Command) {
    let dir = scratch(&format!("events_{lang}"));
    let path = dir.join("bridge.shm");
    let map = produce_file(&path);
    let mut child = bot(&path, n)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bot");
    let (mut times, calls, woken_rows) = host(&map, n, &mut child);
    let out = child.wait_with_output().expect("the bot's output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the {lang} bot failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let f = bot_figures(&stdout);
    assert_eq!(f.ticks, n, "the bot saw every tick: {f:?}");
    assert_eq!(f.lost, 0, "lost wake-ups: {f:?}");
    assert!(f.sleeps > 0 && f.woken > 0, "the bot never slept: {f:?}");
    assert!(calls > 0 && woken_rows > 0, "the host never woke the bot");
    times.sort_unstable();
    let us = |q: usize| times[(times.len() - 1) * q / 100].as_secs_f64() * 1e6;
    println!(
        "events {lang}: {} ticks, {} woken, {} lost, p50 {:.1} us, p99 {:.1} us ({} futex waits, {} host wakes)",
        f.ticks,
        f.woken,
        f.lost,
        us(50),
        us(99),
        f.sleeps,
        calls
    );
}

/// The Rust bot: claims a row, then sleeps on the tick event until the last tick, storing
/// each tick it gets in its heartbeat; prints its figures.
fn rust_bot(path: &str, n: u64) -> Result<(), Box<dyn std::error::Error>> {
    let map = Mapping::open(path)?;
    let bridge = Bridge::attach(map.region()?)?;
    let client = bridge.claim_first_client()?;
    if client.activate() != ClientStanding::Connected {
        return Err("the row was freed".into());
    }
    let sleeper = client.tick_sleeper()?;
    let f = crate::wake_support::sleep_through(&client, &sleeper, n)?;
    println!("bot: {} {} {} {}", f.ticks, f.woken, f.lost, f.sleeps);
    Ok(())
}

#[test]
#[ignore = "the Rust bot's own process, run by a_rust_bot_sleeps_through_no_tick"]
fn events_rust_bot_process() {
    let path = std::env::var("EVENTS_BRIDGE").expect("EVENTS_BRIDGE: the bridge file");
    let n = ticks();
    rust_bot(&path, n).expect("the Rust bot");
}

#[test]
fn a_rust_bot_sleeps_through_no_tick() {
    run("rust", ticks(), |path, n| {
        let mut c = Command::new(std::env::current_exe().unwrap());
        c.args(["--exact", "events::events_rust_bot_process", "--ignored"])
            .args(["--nocapture", "--test-threads", "1", "-q"])
            .env("EVENTS_BRIDGE", path)
            .env("EVENTS_TICKS", n.to_string());
        c
    });
}

/// The C bot: the same loop over `ibf_client_tick_wait`, one round per call (a wake means
/// look again), counting the rounds that timed out though the tick had moved.
const C_BOT: &str = include_str!("../bench/wake_bot.c");

#[test]
fn a_c_bot_sleeps_through_no_tick() {
    let dir = scratch("events_c_build");
    std::fs::write(dir.join("bot.c"), C_BOT).unwrap();
    let include = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let include = include.to_str().unwrap();
    let strict = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include];
    let mut cxx = vec!["-std=c++17", "-x", "c++", "-c", "bot.c", "-o", "bot_cxx.o"];
    cxx.extend(strict);
    crate::common::tools::run_ok("g++", &cxx, &dir);
    let mut c = vec!["-std=c11", "-O2", "bot.c", "-o", "bot"];
    c.extend(strict);
    crate::common::tools::run_ok("gcc", &c, &dir);
    let exe = dir.join("bot");
    run("c", ticks(), |path, n| {
        let mut c = Command::new(&exe);
        c.arg(path).arg(n.to_string());
        c
    });
}

/// The Python bot: `Client.wait_tick`, with the `ticks` cap set (a client that cannot count on
/// a fence asks for every publication), so the host sets its event after each one.
const PY_BOT: &str = include_str!("../bench/wake_bot.py");

#[test]
fn a_python_bot_sleeps_through_no_tick() {
    let dir = scratch("events_python_build");
    std::fs::write(dir.join("bot.py"), PY_BOT).unwrap();
    let generated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let script = dir.join("bot.py");
    // A Python round costs tens of microseconds (it polled every millisecond before its futex
    // wait was fixed): EVENTS_PYTHON_TICKS apart, 100,000 in CI like the others.
    let n = std::env::var("EVENTS_PYTHON_TICKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(TICKS);
    run("python", n, |path, n| {
        let mut c = Command::new("python3");
        c.args(["-B", "-W", "error"])
            .arg(&script)
            .arg(path)
            .arg(n.to_string())
            .env("PYTHONPATH", &generated);
        c
    });
}

/// A Python bot sleeps in the futex, not in a poll: a 60 ms wait for a tick that never comes
/// is one or two futex waits (each at most 100 ms), where the poll Python fell back to while
/// it could not take the word's address in the module's buffer (every live view holds one)
/// slept 1 ms at a time (34 sleeps here) and woke a millisecond late (p50 1088 us in
/// bench/wake.sh).
#[test]
fn a_python_wait_sleeps_in_the_futex_not_a_poll() {
    let dir = scratch("events_python_futex");
    std::fs::write(
        dir.join("wait.py"),
        r#"
import mmap, time
import bridge

image = bridge.lay_out({"mailbox.request_capacity": 256, "mailbox.response_capacity": 256,
                        "log_queue.capacity": 2048, "log_ring.capacity": 4096}, 1)
buf = mmap.mmap(-1, len(image))
bridge.produce(buf, image)
header = bridge.LiveBridgeHeader(buf)
me = bridge.Client.claim(header, 0, header.host_generation())
assert me is not None and me.activate()
start = time.monotonic()
seq, sleeps, timed_out = me.wait_tick(header.snapshot_seq(), 0.06)
print(seq, sleeps, timed_out, round(time.monotonic() - start, 3))
"#,
    )
    .unwrap();
    let generated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let out = Command::new("python3")
        .args(["-B", "-W", "error", "wait.py"])
        .env("PYTHONPATH", &generated)
        .current_dir(&dir)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parts: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(parts[0], "None", "no tick came: {stdout}");
    assert_eq!(parts[2], "True", "the wait timed out: {stdout}");
    let sleeps: u32 = parts[1].parse().unwrap();
    assert!(
        (1..=2).contains(&sleeps),
        "a 60 ms wait made {sleeps} sleeps (a poll, not the futex): {stdout}"
    );
}
