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

use bridge_abi::live::{Bridge, ClientHost, DrawReader, LogQueueReader, MailboxServer};
use bridge_abi::runtime::hung::HungWatch;
use bridge_abi::runtime::{Mapping, Region};
use bridge_abi::{ClientState, MAX_CLIENTS};

use super::{broken, mono_ns, tag};
use crate::torture_support::{ClientPrograms, build_c_client};

mod frees;
mod report;

use report::Counts;

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
}
