//! The Rust churn client: `torture_protocols client churn PATH ROW ACTION HARNESS`. It
//! attaches, claims row ROW, activates and reports `connected TAG T_BEFORE T_AFTER`, then
//! runs ACTION through the default writers, bound to its claim (`block.log_queue_writer(client)`
//! and the like), heartbeating and reporting
//! `still T_BEFORE` at most every 10 ms while its standing is Connected; once ready it stores
//! its tag in its harness word (at HARNESS + 8 * ROW). On losing the row it reports
//! `lost STANDING` and exits 0. Actions: `push` (log entries, until killed), `draw` (draw
//! lists, until killed), `hold` (two draw lists, a request the host leaves waiting, a pad
//! bound, then idle until killed or freed), `stall` (ready, then no heartbeat until the host
//! freed the row, then one log push and one draw publication, reported
//! `stall push=… draw=…`, each `refused` or `written`).

use std::sync::atomic::Ordering::Release;
use std::time::{Duration, Instant};

use bridge_abi::live::{Bridge, Client, ClientPadRefused, ClientStanding};
use bridge_abi::runtime::{Mapping, Region};
use bridge_abi::zerocopy::FromZeros;
use bridge_abi::{DrawCmd, DrawListHeader, LogEntry};

use super::{broken, mono_ns, tag};

/// A Connected standing is reported at most this often.
const STILL_EVERY: u64 = 10_000_000;

pub fn run(args: &[String]) -> Result<(), String> {
    let [path, row, action, harness] = args else {
        return Err("usage: torture_protocols client churn PATH ROW ACTION HARNESS".into());
    };
    let row: usize = row.parse().map_err(|_| "ROW is a number")?;
    let harness: usize = harness.parse().map_err(|_| "HARNESS is a number")?;
    let map = Mapping::open(path).map_err(|e| format!("{path}: {e}"))?;
    let region = map.region().map_err(|e| e.to_string())?;
    let (bridge, client) = claim(region, row)?;
    let me = tag(client.host_generation(), client.generation());
    let r = client.row();
    r.set_pid(std::process::id()).map_err(|e| e.to_string())?;
    let mut name = [0u8; bridge_abi::CLIENT_NAME_LEN];
    name[..11].copy_from_slice(b"churn-rust-");
    r.set_name(name).map_err(|e| e.to_string())?;
    client.heartbeat(mono_ns()).map_err(|e| e.to_string())?;
    let before = mono_ns();
    let standing = client.activate();
    let after = mono_ns();
    if standing != ClientStanding::Connected {
        println!("lost {standing:?}");
        return Ok(());
    }
    println!("connected {me} {before} {after}");
    let mut s = Session {
        client: &client,
        bridge: &bridge,
        row,
        me,
        still: after,
        ready: region
            .sub(harness + 8 * row, 8, 8)
            .map_err(|e| e.to_string())?,
    };
    let lost = match action.as_str() {
        "push" => s.push(),
        "draw" => s.draw(),
        "hold" => s.hold(),
        "stall" => s.stall(),
        other => return Err(format!("no action {other}: push, draw, hold, stall")),
    }?;
    println!("lost {lost:?}");
    Ok(())
}

/// Attaches (again while the host is starting or reloading) and claims `row`, for 10 s at most.
fn claim(region: Region<'_>, row: usize) -> Result<(Bridge<'_>, Client<'_>), String> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(bridge) = Bridge::attach(region)
            && let Ok(client) = bridge.claim_client(row)
        {
            return Ok((bridge, client));
        }
        if Instant::now() > until {
            return Err(format!("row {row} not claimed in 10 s"));
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

struct Session<'c, 'a> {
    client: &'c Client<'a>,
    bridge: &'c Bridge<'a>,
    row: usize,
    me: u64,
    still: u64,
    ready: Region<'a>,
}

impl<'a> Session<'_, 'a> {
    /// A heartbeat: `None` while Connected (reported every 10 ms), else the standing.
    fn beat(&mut self) -> Result<Option<ClientStanding>, String> {
        let t = mono_ns();
        match self.client.heartbeat(t).map_err(|e| e.to_string())? {
            ClientStanding::Connected => {
                if t.saturating_sub(self.still) >= STILL_EVERY {
                    println!("still {t}");
                    self.still = t;
                }
                Ok(None)
            }
            lost => Ok(Some(lost)),
        }
    }

    fn set_ready(&self) {
        self.ready.store::<u64>(0, self.me, Release);
    }

    fn entry(&self, k: u64) -> (LogEntry, String) {
        let mut head: LogEntry = FromZeros::new_zeroed();
        head.tick = k;
        (head, format!("{} {k}", self.me))
    }

    fn list(&self, k: u64) -> (DrawListHeader, DrawCmd) {
        let mut head: DrawListHeader = FromZeros::new_zeroed();
        head.seq = k as u32;
        head.for_tick = self.me;
        let cmd = DrawCmd {
            color: k as u32,
            payload_len: 8,
            ..FromZeros::new_zeroed()
        };
        (head, cmd)
    }

    fn push(&mut self) -> Result<ClientStanding, String> {
        let block = self.block()?;
        let mut queue = block
            .log_queue_writer(self.client)
            .map_err(|e| e.to_string())?
            .ok_or("no log queue")?;
        for k in 0.. {
            if let Some(lost) = self.beat()? {
                return Ok(lost);
            }
            let (head, text) = self.entry(k);
            match queue.write(|q| q.push(&head, b"churn", text.as_bytes())) {
                Ok(pushed) => pushed.map_err(|e| format!("log queue: {e}"))?,
                Err(lost) => return Ok(lost),
            };
            if k == 0 {
                self.set_ready();
            }
        }
        unreachable!("the loop returns")
    }

    fn draw(&mut self) -> Result<ClientStanding, String> {
        let bot = self.bot()?;
        let mut draw = bot
            .draw_writer(self.client)
            .map_err(|e| e.to_string())?
            .ok_or("no draw lists")?;
        for k in 1.. {
            if let Some(lost) = self.beat()? {
                return Ok(lost);
            }
            let (head, cmd) = self.list(k);
            let done = draw.write(|d| {
                d.push(&cmd, &k.to_le_bytes());
                d.publish(&head)
            });
            match done {
                Ok(published) => published.map_err(|e| format!("draw: {e}"))?,
                Err(lost) => return Ok(lost),
            };
            if k == 1 {
                self.set_ready();
            }
        }
        unreachable!("the loop returns")
    }

    fn hold(&mut self) -> Result<ClientStanding, String> {
        let (block, bot) = (self.block()?, self.bot()?);
        let mut draw = bot
            .draw_writer(self.client)
            .map_err(|e| e.to_string())?
            .ok_or("no draw lists")?;
        for k in 1..=2 {
            let (head, cmd) = self.list(k);
            match draw.write(|d| {
                d.push(&cmd, &k.to_le_bytes());
                d.publish(&head)
            }) {
                Ok(published) => published.map_err(|e| format!("draw: {e}"))?,
                Err(lost) => return Ok(lost),
            };
        }
        let mut mailbox = block
            .mailbox_client(self.client)
            .map_err(|e| e.to_string())?
            .ok_or("no mailbox")?;
        let text = format!("req {}", self.me);
        match mailbox.write(|m| m.request(text.as_bytes())) {
            Ok(sent) => sent.map_err(|e| format!("mailbox: {e}"))?,
            Err(lost) => return Ok(lost),
        };
        for pad in 0..bridge_abi::MAX_PLAYERS {
            match self.client.bind(pad) {
                Ok(()) => break,
                Err(ClientPadRefused::Held(_)) => {}
                Err(ClientPadRefused::Lost(lost)) => return Ok(lost),
                Err(e) => return Err(format!("pad {pad}: {e:?}")),
            }
        }
        self.set_ready();
        loop {
            if let Some(lost) = self.beat()? {
                return Ok(lost);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn stall(&mut self) -> Result<ClientStanding, String> {
        let (block, bot) = (self.block()?, self.bot()?);
        let queue = block
            .log_queue_writer(self.client)
            .map_err(|e| e.to_string())?
            .ok_or("no log queue")?;
        let draw = bot
            .draw_writer(self.client)
            .map_err(|e| e.to_string())?
            .ok_or("no draw lists")?;
        self.set_ready();
        // Hung: no heartbeat until the row is no longer this session's (10 s at most),
        // each Connected standing reported as any other. TORTURE_CHURN_BREAK=standing: the
        // standing looks at the host's generation only, not the row's.
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let t = mono_ns();
            let standing = if broken() == "standing" {
                let header = self.bridge.header();
                if header.host_generation() == self.client.host_generation() {
                    ClientStanding::Connected
                } else {
                    ClientStanding::Reloaded
                }
            } else {
                self.client.standing()
            };
            if standing != ClientStanding::Connected {
                break;
            }
            if t.saturating_sub(self.still) >= STILL_EVERY {
                println!("still {t}");
                self.still = t;
            }
            if Instant::now() > until {
                return Err("stall: the row was not freed in 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let (entry, text) = self.entry(0);
        let (head, cmd) = self.list(1);
        let (pushed, published) = if broken() == "unscoped" {
            let (queue, mut draw) = (queue.into_unscoped(), draw.into_unscoped());
            draw.push(&cmd, &1u64.to_le_bytes());
            (
                queue.push(&entry, b"churn", text.as_bytes()).is_ok(),
                draw.publish(&head).is_ok(),
            )
        } else {
            let (mut queue, mut draw) = (queue, draw);
            let pushed = queue.write(|q| q.push(&entry, b"churn", text.as_bytes()));
            let published = draw.write(|d| {
                d.push(&cmd, &1u64.to_le_bytes());
                d.publish(&head)
            });
            (
                pushed.is_ok_and(|r| r.is_ok()),
                published.is_ok_and(|r| r.is_ok()),
            )
        };
        let word = |written: bool| if written { "written" } else { "refused" };
        println!("stall push={} draw={}", word(pushed), word(published));
        Ok(self.client.standing())
    }

    fn block(&self) -> Result<bridge_abi::live::ClientBlock<'a>, String> {
        self.bridge
            .client_blocks(self.row)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "no client block".into())
    }

    fn bot(&self) -> Result<bridge_abi::live::BotBlock<'a>, String> {
        self.bridge
            .bot_blocks(self.row)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "no bot block".into())
    }
}
