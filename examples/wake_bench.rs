//! The tick event's benchmarks (issue 47, bench/wake.sh; Linux): publish-to-wake across
//! processes per language against a raw futex ping-pong, and the CPU time of a bot sleeping
//! through a 60 Hz host against a spinning one.
//!
//! `wake_bench latency TICKS PY_TICKS FLOOR C_BOT PY_BOT` runs the floor program (bench/
//! wake_floor.c, built by bench/wake.sh) for TICKS ticks, then this host against a Rust bot
//! (this program), the C bot (bench/wake_bot.c, built) and the Python bot
//! (bench/wake_bot.py, PY_TICKS ticks), each in its own process over a bridge file. The host
//! publishes each tick after the answer to the one before, half the time at once and half
//! after 20-100 us, and sets the tick event; publish-to-answer is timed on its clock from
//! before the store of `snapshot_seq` to the answer seen in the bot's heartbeat, as the
//! floor does. Prints `wake LANG: p50 X us, p99 Y us, p50 R x floor, p99 S x floor`.
//!
//! `wake_bench cpu SECONDS` publishes at 60 Hz for SECONDS to a bot that sleeps on the tick
//! event (`Client::wait_tick`) and one that spins on `snapshot_seq`, each in its own process;
//! each reports the CPU time it used (/proc/self/schedstat). Prints
//! `wake cpu: sleeping X ms, spinning Y ms, ratio R %`.

use std::process::ExitCode;

#[cfg(target_os = "linux")]
mod wake_support;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wake_bench: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn run(_: &[String]) -> Result<(), String> {
    Err("Linux only (a futex shared between processes)".into())
}

#[cfg(target_os = "linux")]
fn run(args: &[String]) -> Result<(), String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = match args[..] {
        ["latency", ticks, py_ticks, floor, c_bot, py_bot] => {
            linux::latency(num(ticks)?, num(py_ticks)?, floor, c_bot, py_bot)
        }
        ["cpu", seconds] => linux::cpu(num(seconds)?),
        ["bot", path, ticks] => linux::bot(path, num(ticks)?),
        ["sleep", path, ticks] => linux::cpu_bot(path, num(ticks)?, false),
        ["spin", path, ticks] => linux::cpu_bot(path, num(ticks)?, true),
        _ => {
            return Err(
                "usage: wake_bench latency TICKS PY_TICKS FLOOR C_BOT PY_BOT | cpu SECONDS".into(),
            );
        }
    };
    r.map_err(|e| e.to_string())
}

#[cfg(target_os = "linux")]
fn num(n: &str) -> Result<u64, String> {
    n.parse().map_err(|_| format!("{n:?} is not a number"))
}

#[cfg(target_os = "linux")]
mod linux {
    use std::error::Error;
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    use bridge_abi::live::{Bridge, BridgeHeader, Client, ClientEntry, ClientStanding};
    use bridge_abi::runtime::Mapping;
    use bridge_abi::{ClientCaps, ClientState};

    type Result<T> = std::result::Result<T, Box<dyn Error>>;

    const GEOMETRY: [(&str, u64); 4] = [
        ("mailbox.request_capacity", 256),
        ("mailbox.response_capacity", 256),
        ("log_queue.capacity", 2048),
        ("log_ring.capacity", 4096),
    ];

    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// A new bridge file, running.
    fn bridge_file(name: &str) -> Result<(Mapping, PathBuf)> {
        let dir = std::env::temp_dir().join(format!("wake-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let image = Bridge::lay_out(&GEOMETRY, 1)?;
        let map = Mapping::create(&path, image.bytes.len())?;
        Bridge::produce(map.region()?, &image)?;
        Ok((map, path))
    }

    /// The rows of `n` bots once they are active (30 s at most).
    fn active<'a>(
        header: BridgeHeader<'a>,
        n: usize,
        bots: &mut [Child],
    ) -> Result<Vec<ClientEntry<'a>>> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let rows: Vec<_> = (0..Client::ROWS)
                .filter_map(|i| header.clients(i))
                .filter(|r| r.state() == ClientState::ACTIVE)
                .collect();
            if rows.len() == n {
                return Ok(rows);
            }
            for b in bots.iter_mut() {
                if let Some(status) = b.try_wait()? {
                    return Err(format!("a bot exited before it claimed: {status}").into());
                }
            }
            if Instant::now() > deadline {
                return Err("no bot claimed a row in 30 s".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// One language's run: p50 and p99 of publish-to-answer, in us.
    fn one(mut command: Command, name: &str, n: u64) -> Result<(f64, f64)> {
        let (map, path) = bridge_file(name)?;
        let mut bot = command
            .arg(&path)
            .arg(n.to_string())
            .stdout(Stdio::piped())
            .spawn()?;
        let bridge = Bridge::attach(map.region()?)?;
        let header = bridge.header();
        let host = bridge.client_host();
        let setter = host.tick_setter()?;
        let row = active(header, 1, std::slice::from_mut(&mut bot))?.remove(0);
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut times = Vec::with_capacity(n as usize);
        for t in 1..=n {
            if next(&mut rng) % 2 == 0 {
                std::thread::sleep(Duration::from_micros(20 + next(&mut rng) % 80));
            }
            let published = Instant::now();
            header.set_snapshot_seq(t)?;
            host.set_tick(&setter, |r| r.caps().contains(ClientCaps::TICKS));
            let deadline = published + Duration::from_secs(5);
            let mut spins = 0u32;
            while row.heartbeat_ns() != t {
                spins += 1;
                if spins > 64 {
                    std::thread::yield_now();
                }
                if Instant::now() > deadline {
                    return Err(format!("{name}: no answer to tick {t} in 5 s").into());
                }
            }
            times.push(published.elapsed());
        }
        let out = bot.wait_with_output()?;
        if !out.status.success() {
            return Err(format!("{name}: the bot failed: {}", out.status).into());
        }
        let _ = std::fs::remove_file(&path);
        times.sort_unstable();
        let us = |q: usize| times[(times.len() - 1) * q / 100].as_secs_f64() * 1e6;
        Ok((us(50), us(99)))
    }

    pub fn latency(n: u64, py_n: u64, floor: &str, c_bot: &str, py_bot: &str) -> Result<()> {
        let out = Command::new(floor).arg(n.to_string()).output()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let figures: Vec<f64> = text
            .trim()
            .strip_prefix("floor: ")
            .ok_or_else(|| format!("the floor printed {text:?}"))?
            .split([' ', ','])
            .filter_map(|x| x.parse().ok())
            .collect();
        let [f50, f99] = figures[..] else {
            return Err(format!("the floor printed {text:?}").into());
        };
        println!("wake floor (raw futex ping-pong, C): p50 {f50:.1} us, p99 {f99:.1} us");
        let me = std::env::current_exe()?;
        let mut rust = Command::new(&me);
        rust.arg("bot");
        let mut python = Command::new("python3");
        python.args(["-B", "-W", "error", py_bot]);
        for (lang, command, ticks) in [
            ("rust", rust, n),
            ("c", Command::new(c_bot), n),
            ("python", python, py_n),
        ] {
            let (p50, p99) = one(command, &format!("{lang}.shm"), ticks)?;
            println!(
                "wake {lang}: p50 {p50:.1} us, p99 {p99:.1} us, p50 {:.2} x floor, p99 {:.2} x floor ({ticks} ticks)",
                p50 / f50,
                p99 / f99
            );
        }
        Ok(())
    }

    /// The Rust bot of `latency`: sleeps on the tick event, answers each tick in its heartbeat.
    pub fn bot(path: &str, n: u64) -> Result<()> {
        let map = Mapping::open(path)?;
        let bridge = Bridge::attach(map.region()?)?;
        let client = bridge.claim_first_client()?;
        if client.activate() != ClientStanding::Connected {
            return Err("the row was freed".into());
        }
        let sleeper = client.tick_sleeper()?;
        super::wake_support::sleep_through(&client, &sleeper, n)?;
        Ok(())
    }

    /// This process's CPU time so far, in ns (the first field of /proc/self/schedstat).
    fn cpu_ns() -> Result<u64> {
        let text = std::fs::read_to_string("/proc/self/schedstat")?;
        Ok(text.split(' ').next().unwrap_or("").parse()?)
    }

    /// A bot of `cpu`: sleeps on the tick event or spins on `snapshot_seq` until tick `n`,
    /// then prints its CPU time in ns.
    pub fn cpu_bot(path: &str, n: u64, spin: bool) -> Result<()> {
        let map = Mapping::open(path)?;
        let bridge = Bridge::attach(map.region()?)?;
        let header = bridge.header();
        let client = bridge.claim_first_client()?;
        if client.activate() != ClientStanding::Connected {
            return Err("the row was freed".into());
        }
        let sleeper = client.tick_sleeper()?;
        let start = cpu_ns()?;
        let mut last = 0;
        while last < n {
            if spin {
                let seq = header.snapshot_seq();
                if seq == last {
                    std::hint::spin_loop();
                    continue;
                }
                last = seq;
            } else {
                let r =
                    client.wait_tick(&sleeper, last, Instant::now() + Duration::from_secs(5))?;
                last = r.seq.ok_or("no tick in 5 s")?;
            }
            client.row().set_heartbeat_ns(last)?;
        }
        println!("{}", cpu_ns()? - start);
        Ok(())
    }

    pub fn cpu(seconds: u64) -> Result<()> {
        let (map, path) = bridge_file("cpu.shm")?;
        let n = seconds * 60;
        let me = std::env::current_exe()?;
        let mut bots: Vec<Child> = ["sleep", "spin"]
            .iter()
            .map(|mode| {
                Command::new(&me)
                    .args([mode, path.to_str().unwrap(), &n.to_string()])
                    .stdout(Stdio::piped())
                    .spawn()
            })
            .collect::<std::io::Result<_>>()?;
        let bridge = Bridge::attach(map.region()?)?;
        let header = bridge.header();
        let host = bridge.client_host();
        let setter = host.tick_setter()?;
        active(header, 2, &mut bots)?;
        let start = Instant::now();
        for t in 1..=n {
            let at = start + Duration::from_nanos(t * 1_000_000_000 / 60);
            if let Some(left) = at.checked_duration_since(Instant::now()) {
                std::thread::sleep(left);
            }
            header.set_snapshot_seq(t)?;
            host.set_tick(&setter, |_| false);
        }
        let mut used = Vec::new();
        for bot in bots {
            let out = bot.wait_with_output()?;
            let text = String::from_utf8_lossy(&out.stdout);
            used.push(
                text.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("a bot printed {text:?}"))?,
            );
        }
        let _ = std::fs::remove_file(Path::new(&path));
        let (sleeping, spinning) = (used[0] as f64 / 1e6, used[1] as f64 / 1e6);
        println!(
            "wake cpu: {seconds} s at 60 Hz, sleeping {sleeping:.1} ms, spinning {spinning:.1} ms, ratio {:.2} %",
            100.0 * sleeping / spinning
        );
        Ok(())
    }
}
