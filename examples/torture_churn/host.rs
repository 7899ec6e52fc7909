//! The churn host: `torture_protocols churn [--millis M] [--langs rust,c,python]
//! [--hung-ms H]`. It lays out the bridge in a file, then runs epochs until M ms passed (two
//! at least): a client on every row, each running an action; the writers and every other
//! holder killed with SIGKILL mid-protocol; each killed or stalled row freed once the hung
//! watch says so, and a new client claiming it; then a re-layout (even epochs) or a reload
//! (odd ones) frees the rest. After every free it checks what the row left, and at the end
//! it reads every client's reports. One line per language:
//! `protocol churn LANG: S sessions, K killed, R re-layouts, F frees, 0 stuck draws,
//! 0 leaked pads, 0 stale writes accepted, 0 double owners` (tests/torture/PROTOCOLS.md says
//! how each count is measured); exit 1 unless S, K, R and F are all > 0 and the zeros hold.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, ExitCode};
use std::sync::atomic::Ordering::{Acquire, Release};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bridge_abi::live::{
    Bridge, ClientHost, DrawReader, DrawWriter, LogQueueReader, MailboxClient, MailboxServer,
};
use bridge_abi::runtime::hung::HungWatch;
use bridge_abi::runtime::{Mapping, Region};
use bridge_abi::{ClientState, CommandStatus, MAX_CLIENTS};

use super::{broken, mono_ns, tag};
use crate::torture_support::{ClientPrograms, build_c_client};

/// The geometry of the image, laid out again the same at each re-layout.
const GEOMETRY: [(&str, u64); 4] = [
    ("mailbox.request_capacity", 256),
    ("mailbox.response_capacity", 256),
    ("log_ring.capacity", 8192),
    ("log_queue.capacity", 4096),
];

/// The actions of an epoch's first clients, row by row (turned by one each epoch).
const ACTIONS: [&str; MAX_CLIENTS] = [
    "push", "draw", "hold", "stall", "hold", "push", "draw", "stall",
];

/// How long the host waits for clients to get ready, to be freed, or to exit.
const PATIENCE: Duration = Duration::from_secs(20);

/// What one language's clients went through, and what the host found wrong.
#[derive(Default)]
struct Counts {
    sessions: u64,
    killed: u64,
    relayouts: u64,
    frees: u64,
    stuck: u64,
    leaked: u64,
    stale: u64,
    double: u64,
    /// Stalled sessions, and the writes they let through after their stall (each is a stale
    /// write when its row was freed meanwhile, as it always is).
    stalls: u64,
    late_writes: u64,
}

/// One client process: a session on its row (or an attempt at one).
struct Proc {
    lang: &'static str,
    row: usize,
    action: String,
    epoch: usize,
    child: Child,
    output: Option<JoinHandle<String>>,
    /// Its session's tag, once its ready word showed it.
    tag: Option<u64>,
    killed: bool,
    freed: bool,
    exited: Option<bool>,
}

/// A client still running when the host returns early is killed.
impl Drop for Proc {
    fn drop(&mut self) {
        if self.exited.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The host's readers of one row's blocks.
struct Readers<'a> {
    queue: LogQueueReader<'a>,
    draw: DrawReader<'a>,
    mailbox: MailboxServer<'a>,
}

struct Host<'a> {
    region: Region<'a>,
    bridge: Bridge<'a>,
    sessions: ClientHost<'a>,
    watch: HungWatch,
    hung_ms: u64,
    readers: Vec<Readers<'a>>,
    procs: Vec<Proc>,
    /// The process spawned last on each row.
    current: [Option<usize>; MAX_CLIENTS],
    counts: BTreeMap<&'static str, Counts>,
    programs: ClientPrograms<'a>,
    path: String,
    harness: usize,
    langs: Vec<&'static str>,
    spawned: usize,
    stalls: usize,
    holds: usize,
    broken: String,
    seed: u64,
    reloads: u64,
    relayouts: u64,
    /// The rows whose draw exchange refused the host since their last free.
    stuck: [bool; MAX_CLIENTS],
    /// The clients that exited with an error (each has said why on stderr).
    failures: Vec<String>,
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let millis = crate::flag(args, "--millis", 1500)?;
    let hung_ms = crate::flag(args, "--hung-ms", 150)?;
    let langs = crate::langs(args)?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let pid = std::process::id();
    let dir = std::env::temp_dir().join(format!("bridge-churn-{pid}"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = base.join(format!("bridge-churn-{pid}.shm"));
    let result = (|| {
        let c_client = if langs.contains(&"c") {
            build_c_client(root, &dir, "churn.c", "churn_c", &[])?
        } else {
            dir.join("none")
        };
        let programs = ClientPrograms {
            root,
            c_client: &c_client,
            python_script: "churn.py",
        };
        let image = Bridge::lay_out(&GEOMETRY, 1).map_err(|e| e.to_string())?;
        let harness = image.bytes.len().next_multiple_of(8);
        let map = Mapping::create(&path, harness + 8 * MAX_CLIENTS)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let region = map.region().map_err(|e| e.to_string())?;
        let bridge = Bridge::produce(region, &image).map_err(|e| e.to_string())?;
        let mut host = Host {
            region,
            sessions: bridge.client_host(),
            readers: readers(&bridge)?,
            bridge,
            watch: HungWatch::new(MAX_CLIENTS, hung_ms * 1_000_000),
            hung_ms,
            procs: Vec::new(),
            current: [None; MAX_CLIENTS],
            counts: langs.iter().map(|&l| (l, Counts::default())).collect(),
            programs,
            path: path.display().to_string(),
            harness,
            langs: langs.clone(),
            spawned: 0,
            stalls: 0,
            holds: 0,
            broken: broken(),
            seed: mono_ns() | 1,
            reloads: 0,
            relayouts: 0,
            failures: Vec::new(),
            stuck: [false; MAX_CLIENTS],
        };
        let start = Instant::now();
        let mut epoch = 0;
        let run = loop {
            if epoch >= 2 && start.elapsed() >= Duration::from_millis(millis) {
                break Ok(());
            }
            if let Err(e) = host.epoch(epoch) {
                break Err(e);
            }
            epoch += 1;
        };
        let waited = host.wait_all_exit();
        host.pump();
        run.and(waited)?;
        Ok(host.report(epoch, start.elapsed()))
    })();
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The host's readers of every row's blocks.
fn readers<'a>(bridge: &Bridge<'a>) -> Result<Vec<Readers<'a>>, String> {
    (0..MAX_CLIENTS)
        .map(|row| {
            let err = |e: &dyn std::fmt::Display| format!("row {row}: {e}");
            let block = bridge
                .client_blocks(row)
                .map_err(|e| err(&e))?
                .ok_or("no client block")?;
            let bot = bridge
                .bot_blocks(row)
                .map_err(|e| err(&e))?
                .ok_or("no bot block")?;
            Ok(Readers {
                queue: block
                    .log_queue_reader()
                    .map_err(|e| err(&e))?
                    .ok_or("no log queue")?,
                draw: bot
                    .draw_reader()
                    .map_err(|e| err(&e))?
                    .ok_or("no draw lists")?,
                mailbox: block
                    .mailbox_server()
                    .map_err(|e| err(&e))?
                    .ok_or("no mailbox")?,
            })
        })
        .collect()
}

/// The tag at the start of a log entry's text or a request's (after `req `).
fn text_tag(text: &[u8]) -> u64 {
    std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.trim_start_matches("req ").split(' ').next()?.parse().ok())
        .unwrap_or(0)
}

/// What a free changes, saved before it, for a host broken on purpose to put back.
struct Saved {
    draw_state: u32,
    pads: [u8; 4],
    response_seq: u32,
}

impl<'a> Host<'a> {
    fn rand(&mut self) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed
    }

    /// The tag of the session that holds `row` now (claimed or active), if any.
    fn current_tag(&self, row: usize) -> Option<u64> {
        let header = self.bridge.header();
        let r = header.clients(row)?;
        let state = r.state();
        (state == ClientState::CLAIMED || state == ClientState::ACTIVE)
            .then(|| tag(header.host_generation(), r.generation()))
    }

    fn counts(&mut self, lang: &'static str) -> &mut Counts {
        self.counts.entry(lang).or_default()
    }

    /// A write with `tag`, taken from `row`'s blocks now: stale unless it is the tag of the
    /// session that holds the row. Counted for the language of the session that wrote it.
    fn observed(&mut self, row: usize, found: u64) {
        if self.current_tag(row) == Some(found) {
            return;
        }
        let lang = self
            .procs
            .iter()
            .rev()
            .find(|p| p.row == row && p.tag == Some(found))
            .or_else(|| self.current[row].map(|p| &self.procs[p]))
            .map_or("unknown", |p| p.lang);
        eprintln!("churn: row {row}: a write of session {found:#x} taken after its free");
        self.counts(lang).stale += 1;
    }

    /// Takes what the row's blocks hold: every log entry, the newest draw list.
    fn pump_row(&mut self, row: usize) -> Result<(), String> {
        while let Some(e) = self.readers[row]
            .queue
            .pop()
            .map_err(|e| format!("row {row}: log queue: {e}"))?
        {
            self.observed(row, text_tag(&e.text));
        }
        match self.readers[row].draw.take() {
            Ok(Some(list)) => self.observed(row, list.head.for_tick),
            Ok(None) => {}
            // Counted once until the row's next free: a stuck exchange stays stuck.
            Err(e) if !self.stuck[row] => {
                eprintln!("churn: row {row}: draw: {e}");
                self.stuck[row] = true;
                let lang = self.current[row].map_or("unknown", |p| self.procs[p].lang);
                self.counts(lang).stuck += 1;
            }
            Err(_) => {}
        }
        Ok(())
    }

    fn pump(&mut self) {
        for row in 0..MAX_CLIENTS {
            if let Err(e) = self.pump_row(row) {
                eprintln!("churn: {e}");
                self.counts("unknown").stale += 1;
            }
        }
    }

    fn spawn(&mut self, row: usize, action: &str, epoch: usize) -> Result<(), String> {
        // The stalled clients take the languages in turn of their own, so that two epochs
        // stall each language at least once.
        let turn = if action == "stall" {
            &mut self.stalls
        } else {
            &mut self.spawned
        };
        let lang = self.langs[*turn % self.langs.len()];
        *turn += 1;
        self.region.store::<u64>(self.harness + 8 * row, 0, Release);
        let args = [
            "churn".to_string(),
            self.path.clone(),
            row.to_string(),
            action.to_string(),
            self.harness.to_string(),
        ];
        let (child, output) = self.programs.spawn(lang, &args)?;
        self.procs.push(Proc {
            lang,
            row,
            action: action.to_string(),
            epoch,
            child,
            output: Some(output),
            tag: None,
            killed: false,
            freed: false,
            exited: None,
        });
        self.current[row] = Some(self.procs.len() - 1);
        Ok(())
    }

    /// Notes the processes that exited, and the ones that failed.
    fn check_exits(&mut self) -> Result<(), String> {
        for p in &mut self.procs {
            if p.exited.is_none()
                && let Some(status) = p.child.try_wait().map_err(|e| e.to_string())?
            {
                p.exited = Some(status.success());
                if !status.success() && !p.killed {
                    self.failures.push(format!(
                        "the {} client ({}) on row {} exited with {status}",
                        p.lang, p.action, p.row
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the row's current process stored its session's tag in its ready word, the
    /// tag of the session that holds the row; the tag is noted.
    fn ready(&mut self, row: usize) -> bool {
        let Some(p) = self.current[row] else {
            return true;
        };
        if self.procs[p].tag.is_some() || self.procs[p].exited.is_some() {
            return true;
        }
        let word = self.region.load::<u64>(self.harness + 8 * row, Acquire);
        if word != 0 && self.current_tag(row) == Some(word) {
            self.procs[p].tag = Some(word);
            return true;
        }
        false
    }

    /// Pumps until `done` holds, for PATIENCE at most.
    fn until(&mut self, what: &str, mut done: impl FnMut(&mut Self) -> bool) -> Result<(), String> {
        let start = Instant::now();
        loop {
            self.check_exits()?;
            self.pump();
            if done(self) {
                return Ok(());
            }
            if start.elapsed() > PATIENCE {
                return Err(format!("churn: {what} took more than {PATIENCE:?}"));
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn epoch(&mut self, epoch: usize) -> Result<(), String> {
        // A client on every row.
        for row in 0..MAX_CLIENTS {
            self.spawn(row, ACTIONS[(row + epoch) % MAX_CLIENTS], epoch)?;
        }
        self.until("getting ready", |h| (0..MAX_CLIENTS).all(|r| h.ready(r)))?;
        // Let them run a while, then kill the writers and every other holder.
        let run = Duration::from_millis(5 + self.rand() % 20);
        let started = Instant::now();
        self.until("running", |_| started.elapsed() >= run)?;
        for row in 0..MAX_CLIENTS {
            let Some(p) = self.current[row] else { continue };
            let kill = match self.procs[p].action.as_str() {
                "push" | "draw" => true,
                "hold" => {
                    self.holds += 1;
                    self.holds % 2 == 0
                }
                _ => false,
            };
            if kill && self.procs[p].exited.is_none() {
                let proc = &mut self.procs[p];
                proc.child.kill().map_err(|e| e.to_string())?;
                let status = proc.child.wait().map_err(|e| e.to_string())?;
                proc.killed = true;
                proc.exited = Some(status.success());
                let lang = proc.lang;
                self.counts(lang).killed += 1;
            }
        }
        // Free each hung row (the killed and the stalled) and start a new holder on it.
        self.until("freeing the hung rows", |h| h.free_hung(epoch))?;
        self.until("the new holders getting ready", |h| {
            (0..MAX_CLIENTS).all(|r| h.ready(r))
        })?;
        // Free the rest: a re-layout or a reload.
        if epoch % 2 == 0 {
            self.relayout()?;
        } else {
            self.reload()?;
        }
        self.until("the clients noticing", |h| {
            h.procs.iter().all(|p| p.exited.is_some())
        })
    }

    /// Frees every hung row and starts a new holder on it; whether every killed or stalled
    /// session of this epoch was freed.
    fn free_hung(&mut self, epoch: usize) -> bool {
        for row in 0..MAX_CLIENTS {
            if self.sessions.is_hung(&mut self.watch, row, mono_ns()) {
                if let Err(e) = self.free(row) {
                    eprintln!("churn: {e}");
                    self.counts("unknown").stuck += 1;
                }
                if let Err(e) = self.spawn(row, "hold", epoch) {
                    eprintln!("churn: {e}");
                    self.counts("unknown").stuck += 1;
                }
            }
        }
        self.procs
            .iter()
            .all(|p| p.epoch != epoch || p.freed || !(p.killed || p.action == "stall"))
    }

    fn save(&self, row: usize) -> Saved {
        let bot = self.bridge.bot_blocks(row).ok().flatten();
        let block = self.bridge.client_blocks(row).ok().flatten();
        Saved {
            draw_state: bot.and_then(|b| b.draw()).map_or(0, |d| d.state()),
            pads: self.bridge.header().pad_owner(),
            response_seq: block.and_then(|b| b.mailbox_region()).map_or(0, |r| {
                r.load::<u32>(MailboxClient::SPEC.response_seq, Acquire)
            }),
        }
    }

    /// A host broken on purpose (TORTURE_CHURN_BREAK) puts back what its free changed.
    fn unbreak(&self, row: usize, saved: &Saved) -> Result<(), String> {
        let bot = self.bridge.bot_blocks(row).ok().flatten();
        let block = self.bridge.client_blocks(row).ok().flatten();
        let e = |e: bridge_abi::runtime::Contended| e.to_string();
        match self.broken.as_str() {
            "draw-reset" => {
                if let Some(r) = bot.and_then(|b| b.draw_region()) {
                    r.try_store::<u32>(DrawWriter::SPEC.state, saved.draw_state, Release)
                        .map_err(e)?;
                }
            }
            "pad-release" => {
                let header = self.bridge.header();
                let now = header.pad_owner();
                let _ = header
                    .compare_exchange_pad_owner(now, saved.pads)
                    .map_err(e)?;
            }
            "mailbox-restore" => {
                if let Some(r) = block.and_then(|b| b.mailbox_region()) {
                    r.try_store::<u32>(
                        MailboxClient::SPEC.response_seq,
                        saved.response_seq,
                        Release,
                    )
                    .map_err(e)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Frees `row` (hung): drains it, frees it, and checks what it left.
    fn free(&mut self, row: usize) -> Result<(), String> {
        self.pump_row(row)?;
        let saved = self.save(row);
        self.sessions
            .free(row)
            .map_err(|e| format!("row {row}: free: {e}"))?;
        self.unbreak(row, &saved)?;
        self.watch.forget(row);
        self.after_free(row)
    }

    fn reload(&mut self) -> Result<(), String> {
        self.pump();
        let saved: Vec<Saved> = (0..MAX_CLIENTS).map(|r| self.save(r)).collect();
        let freed = self.sessions.reload().map_err(|e| format!("reload: {e}"))?;
        self.reloads += 1;
        for row in freed {
            self.unbreak(row, &saved[row])?;
            self.watch.forget(row);
            self.after_free(row)?;
        }
        Ok(())
    }

    /// The image laid out again over the live mapping, asking for generation 1: produce
    /// takes it past the mapping's.
    fn relayout(&mut self) -> Result<(), String> {
        self.pump();
        let in_use: Vec<usize> = (0..MAX_CLIENTS)
            .filter(|&r| self.current_tag(r).is_some())
            .collect();
        let image = Bridge::lay_out(&GEOMETRY, 1).map_err(|e| e.to_string())?;
        self.bridge = Bridge::produce(self.region, &image).map_err(|e| e.to_string())?;
        self.sessions = self.bridge.client_host();
        self.readers = readers(&self.bridge)?;
        self.watch = HungWatch::new(MAX_CLIENTS, self.hung_ms * 1_000_000);
        self.relayouts += 1;
        let mut langs: Vec<&'static str> = Vec::new();
        for row in in_use {
            self.after_free(row)?;
            if let Some(p) = self.current[row]
                && !langs.contains(&self.procs[p].lang)
            {
                langs.push(self.procs[p].lang);
            }
        }
        for lang in langs {
            self.counts(lang).relayouts += 1;
        }
        Ok(())
    }

    /// What a free of `row` must leave, checked before any new client can claim it: the
    /// draw exchange at its initial state and a new reader finding no list, no pad naming
    /// the row, no request waiting, no log entry; the freed session counted.
    fn after_free(&mut self, row: usize) -> Result<(), String> {
        let lang = self.current[row].map_or("unknown", |p| self.procs[p].lang);
        if let Some(p) = self.current[row] {
            self.procs[p].freed = true;
        }
        self.counts(lang).frees += 1;
        self.stuck[row] = false;
        let bot = self
            .bridge
            .bot_blocks(row)
            .map_err(|e| e.to_string())?
            .ok_or("no bot block")?;
        let state = bot.draw().map_or(0, |d| d.state());
        if state != DrawWriter::SPEC.initial_state {
            eprintln!("churn: row {row}: the draw exchange is at {state:#x} after a free");
            self.counts(lang).stuck += 1;
        }
        let leaked = self
            .bridge
            .header()
            .pad_owner()
            .iter()
            .filter(|&&o| usize::from(o) == row)
            .count();
        if leaked > 0 {
            eprintln!("churn: row {row}: {leaked} pads still name the row after its free");
            self.counts(lang).leaked += leaked as u64;
        }
        self.readers[row].draw = bot
            .draw_reader()
            .map_err(|e| e.to_string())?
            .ok_or("no draw lists")?;
        let mut request = None;
        let served = self.readers[row].mailbox.serve(|text| {
            request = Some(text_tag(text));
            (CommandStatus::REFUSED, Vec::new())
        });
        if let Ok(Some(_)) = served {
            self.observed(row, request.unwrap_or(0));
        }
        self.pump_row(row)
    }

    fn wait_all_exit(&mut self) -> Result<(), String> {
        let start = Instant::now();
        while self.procs.iter().any(|p| p.exited.is_none()) {
            self.check_exits()?;
            self.pump();
            if start.elapsed() > PATIENCE {
                return Err("churn: the clients did not exit".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }

    /// Reads every client's reports: the sessions, and any two of one row that stood
    /// Connected at once.
    fn double_owners(&mut self) -> Result<(), String> {
        // (row, tag, first seen Connected (after), last seen Connected (before), lang)
        let mut spans: Vec<(usize, u64, u64, u64, &'static str)> = Vec::new();
        // (lang, writes a stalled session let through after its stall)
        let mut late: Vec<(&'static str, u64)> = Vec::new();
        for p in &mut self.procs {
            let text = p
                .output
                .take()
                .map(|t| t.join().unwrap_or_default())
                .unwrap_or_default();
            let mut span: Option<(u64, u64, u64)> = None;
            for line in text.lines() {
                let w: Vec<&str> = line.split_whitespace().collect();
                let num = |i: usize| -> Result<u64, String> {
                    w.get(i)
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| format!("the {} client: a bad line `{line}`", p.lang))
                };
                match w.first().copied() {
                    Some("connected") => span = Some((num(1)?, num(3)?, num(2)?)),
                    Some("still") => {
                        let t = num(1)?;
                        if let Some(s) = &mut span {
                            s.2 = s.2.max(t);
                        }
                    }
                    Some("stall") => {
                        let written = w[1..].iter().filter(|x| x.ends_with("=written")).count();
                        late.push((p.lang, written as u64));
                    }
                    Some("lost") => {}
                    _ => {
                        return Err(format!(
                            "the {} client: an unexpected line `{line}`",
                            p.lang
                        ));
                    }
                }
            }
            if let Some((t, first, last)) = span {
                if p.tag.is_some_and(|x| x != t) {
                    return Err(format!(
                        "the {} client reported {t:#x}, ready as {:?}",
                        p.lang, p.tag
                    ));
                }
                spans.push((p.row, t, first, last, p.lang));
            }
        }
        for (lang, written) in late {
            let c = self.counts(lang);
            c.stalls += 1;
            c.late_writes += written;
        }
        for (i, a) in spans.iter().enumerate() {
            let lang = a.4;
            self.counts(lang).sessions += 1;
            for b in &spans[i + 1..] {
                if a.0 == b.0 && a.1 != b.1 && a.2 < b.3 && b.2 < a.3 {
                    eprintln!(
                        "churn: row {}: sessions {:#x} and {:#x} Connected at once",
                        a.0, a.1, b.1
                    );
                    let later = if a.2 > b.2 { a.4 } else { b.4 };
                    self.counts(later).double += 1;
                }
            }
        }
        Ok(())
    }

    fn report(&mut self, epochs: usize, elapsed: Duration) -> ExitCode {
        let mut failed = false;
        if let Err(e) = self.double_owners() {
            eprintln!("churn: {e}");
            failed = true;
        }
        println!(
            "protocol churn host: {epochs} epochs ({} re-layouts, {} reloads), {} processes, hung after {} ms, {:.1} s",
            self.relayouts,
            self.reloads,
            self.procs.len(),
            self.hung_ms,
            elapsed.as_secs_f64()
        );
        for f in &self.failures {
            eprintln!("churn: {f}");
            failed = true;
        }
        if !self.broken.is_empty() {
            println!("protocol churn host: broken on purpose: {}", self.broken);
        }
        for (lang, c) in &self.counts {
            println!(
                "protocol churn {lang}: {} sessions, {} killed, {} re-layouts, {} frees, {} stuck draws, {} leaked pads, {} stale writes accepted, {} double owners",
                c.sessions, c.killed, c.relayouts, c.frees, c.stuck, c.leaked, c.stale, c.double
            );
            println!(
                "protocol churn {lang} stalls: {} stalled sessions freed while asleep, {} late writes let through",
                c.stalls, c.late_writes
            );
            let churned = c.sessions > 0 && c.killed > 0 && c.relayouts > 0 && c.frees > 0;
            let zeros = c.stuck == 0 && c.leaked == 0 && c.stale == 0 && c.double == 0;
            failed |= !churned || !zeros;
        }
        if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}
