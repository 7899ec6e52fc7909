//! The Rust bot's loop of the tick event (issue 47), shared by examples/events_windows.rs,
//! examples/wake_bench.rs and tests/events.rs: sleep on the event until tick `n`, answering
//! each tick in the row's heartbeat, and count what happened.

use std::time::{Duration, Instant};

use bridge_abi::live::Client;
use bridge_abi::runtime::wake::Sleeper;

/// What a bot's run counted: the ticks it got, those it was woken for from a sleep, the
/// lost wake-ups (a wait that ran to its deadline although the tick had moved) and the OS
/// waits made. Printed as `bot: TICKS WOKEN LOST WAITS`.
#[derive(Debug, Default)]
pub struct Figures {
    pub ticks: u64,
    pub woken: u64,
    pub lost: u64,
    pub sleeps: u64,
}

/// Sleeps on the tick event (`Client::wait_tick`, each wait at most 1 s) until tick `n`,
/// storing each tick it gets in the row's heartbeat; an error after 30 s with no tick.
pub fn sleep_through(
    client: &Client<'_>,
    sleeper: &Sleeper<'_>,
    n: u64,
) -> Result<Figures, Box<dyn std::error::Error>> {
    let mut f = Figures::default();
    let (mut last, mut idle) = (0, 0);
    while last < n {
        let r = client.wait_tick(sleeper, last, Instant::now() + Duration::from_secs(1))?;
        f.sleeps += u64::from(r.sleeps);
        let Some(seq) = r.seq else {
            idle += 1;
            if idle > 30 {
                return Err(format!("no tick after {last} in 30 s").into());
            }
            continue;
        };
        if r.timed_out {
            f.lost += 1;
        } else if r.sleeps > 0 {
            f.woken += 1;
        }
        f.ticks += seq - last;
        last = seq;
        client.row().set_heartbeat_ns(seq)?;
    }
    Ok(f)
}
