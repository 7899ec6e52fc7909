//! The tick event on Windows, by name (issue 47): a host and its bots in separate processes,
//! run under wine by tests/windows.rs.
//!
//! `events_windows host NAME TICKS C_BOT` lays out a bridge in the named mapping
//! `Local\NAME`, creates one named auto-reset tick event per row
//! (`Local\NAME-PID-GENERATION-tick-ROW`, `Setter::create_named`) before it starts any bot,
//! then starts a Rust bot (this program: `events_windows bot NAME TICKS`) and a C bot (the
//! program `C_BOT`, tests/windows/events_bot.c, built with mingw-w64). Each bot claims a row,
//! opens its row's event by name (`SYNCHRONIZE | EVENT_MODIFY_STATE`) and sleeps on it until
//! the tick moves, answering each tick in its heartbeat. The host publishes tick `t` only
//! after both bots answered `t - 1`, half the time at once and half after a short sleep, and
//! sets the events of the rows that wait. It prints, for each bot:
//! `events windows LANG: T ticks, W woken, L lost` (a lost wake-up is a wait that ran to its
//! deadline although the tick had moved) and exits non-zero unless every bot saw every tick,
//! slept, and lost none.

use std::process::ExitCode;

#[cfg(windows)]
mod wake_support;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("events_windows: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(windows))]
fn run(_: &[String]) -> Result<(), String> {
    Err("named events are Windows only (tests/windows.rs runs this under wine)".into())
}

#[cfg(windows)]
fn run(args: &[String]) -> Result<(), String> {
    match args {
        [mode, name, ticks, c_bot] if mode == "host" => {
            windows::host(name, parse(ticks)?, c_bot).map_err(|e| e.to_string())
        }
        [mode, name, ticks] if mode == "bot" => {
            windows::bot(name, parse(ticks)?).map_err(|e| e.to_string())
        }
        _ => Err("usage: events_windows host NAME TICKS C_BOT | bot NAME TICKS".into()),
    }
}

#[cfg(windows)]
fn parse(n: &str) -> Result<u64, String> {
    n.parse().map_err(|_| format!("{n:?} is not a number"))
}

#[cfg(windows)]
mod windows {
    use std::error::Error;
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    use super::wake_support;

    use bridge_abi::live::{Bridge, Client, ClientStanding};
    use bridge_abi::runtime::Mapping;
    use bridge_abi::runtime::wake::{Setter, Sleeper};
    use bridge_abi::{BridgeHeader, ClientState};

    type Result<T> = std::result::Result<T, Box<dyn Error>>;

    /// The tick event's word: `bridge_header.snapshot_seq` (its low half).
    const WORD: usize = std::mem::offset_of!(BridgeHeader, snapshot_seq);
    /// The mailbox's areas and the log queue and ring, which no constant sizes.
    const GEOMETRY: [(&str, u64); 4] = [
        ("mailbox.request_capacity", 256),
        ("mailbox.response_capacity", 256),
        ("log_queue.capacity", 2048),
        ("log_ring.capacity", 4096),
    ];

    /// Kills the bots still running when the host returns early.
    struct Bots(Vec<(&'static str, Child)>);

    impl Drop for Bots {
        fn drop(&mut self) {
            for (_, c) in &mut self.0 {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }

    /// A few random bits per tick (xorshift), so the host's timing differs each tick.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    pub fn host(name: &str, n: u64, c_bot: &str) -> Result<()> {
        let mut image = Bridge::lay_out(&GEOMETRY, 1)?;
        Bridge::stamp_identity(
            &mut image,
            &bridge_abi::runtime::identity::Identity::now("events_windows"),
        )?;
        let map = Mapping::create_named(&format!("Local\\{name}"), image.bytes.len())?;
        let region = map.region()?;
        // The events exist before produce marks the bridge running, named by the schema's
        // `windows_name` with this process's pid and generation 1 (the image's); the bots
        // open them by the names the generated code gives, so a mismatch fails them.
        let names: Vec<String> = (0..Client::ROWS)
            .map(|row| format!("Local\\{name}-{}-1-tick-{row}", std::process::id()))
            .collect();
        let setter = Setter::create_named(region, WORD, &names)?;
        let bridge = Bridge::produce(region, &image)?;
        let host = bridge.client_host();
        if host.tick_event_names(name) != names {
            return Err(format!(
                "the generated names differ: {:?}",
                host.tick_event_names(name)
            )
            .into());
        }
        let header = bridge.header();
        let me = std::env::current_exe()?;
        let mut bots = Bots(Vec::new());
        let count = n.to_string();
        for (lang, program, args) in [
            ("rust", me.as_os_str(), vec!["bot", name, &count]),
            ("c", c_bot.as_ref(), vec![name, &count]),
        ] {
            let child = Command::new(program)
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("start the {lang} bot: {e}"))?;
            bots.0.push((lang, child));
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        let rows = loop {
            let active: Vec<_> = (0..Client::ROWS)
                .filter_map(|i| header.clients(i))
                .filter(|r| r.state() == ClientState::ACTIVE)
                .collect();
            if active.len() == bots.0.len() {
                break active;
            }
            for (lang, c) in &mut bots.0 {
                if let Some(status) = c.try_wait()? {
                    return Err(format!("the {lang} bot exited before it claimed: {status}").into());
                }
            }
            if Instant::now() > deadline {
                return Err("the bots did not claim their rows in 30 s".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let (mut calls, mut woken_rows) = (0, 0);
        for t in 1..=n {
            if next(&mut rng) % 2 == 0 {
                // Let the bots fall asleep first.
                std::thread::sleep(Duration::from_micros(50 + next(&mut rng) % 200));
            }
            header.set_snapshot_seq(t)?;
            let woke = host.set_tick(&setter, |_| false);
            calls += woke.calls;
            woken_rows += woke.rows;
            let answer = Instant::now() + Duration::from_secs(5);
            while rows.iter().any(|r| r.heartbeat_ns() != t) {
                if Instant::now() > answer {
                    return Err(format!("a bot did not answer tick {t} in 5 s").into());
                }
                std::thread::yield_now();
            }
        }
        println!("events windows host: {n} ticks, {woken_rows} rows woken, {calls} SetEvent calls");
        let mut failed = calls == 0;
        for (lang, child) in std::mem::take(&mut bots.0) {
            let out = child.wait_with_output()?;
            let stdout = String::from_utf8_lossy(&out.stdout);
            let figures: Vec<u64> = stdout
                .lines()
                .find_map(|l| l.trim_end().strip_prefix("bot: "))
                .map(|l| l.split(' ').filter_map(|x| x.parse().ok()).collect())
                .unwrap_or_default();
            let [ticks, woken, lost, sleeps] = figures[..] else {
                return Err(format!(
                    "the {lang} bot printed no figures ({}): {stdout}",
                    out.status
                )
                .into());
            };
            println!(
                "events windows {lang}: {ticks} ticks, {woken} woken, {lost} lost ({sleeps} event waits)"
            );
            failed |= !out.status.success() || ticks != n || lost != 0 || woken == 0;
        }
        if failed {
            return Err("a bot missed a tick, lost a wake-up or never slept".into());
        }
        Ok(())
    }

    /// The Rust bot: claims a row, opens its tick event by name and sleeps on it until the
    /// last tick, storing each tick in its heartbeat; prints `bot: TICKS WOKEN LOST WAITS`.
    pub fn bot(name: &str, n: u64) -> Result<()> {
        let map = Mapping::open_named(&format!("Local\\{name}"))?;
        let bridge = Bridge::attach(map.region()?)?;
        let client = bridge.claim_first_client()?;
        if client.activate() != ClientStanding::Connected {
            return Err("the row was freed".into());
        }
        let sleeper = Sleeper::open_named(map.region()?, WORD, &client.tick_event_name(name))?;
        let f = wake_support::sleep_through(&client, &sleeper, n)?;
        println!("bot: {} {} {} {}", f.ticks, f.woken, f.lost, f.sleeps);
        Ok(())
    }
}
