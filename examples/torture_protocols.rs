//! The cross-process torture test of the bridge's region protocols (issue 26): one host and
//! client processes in Rust, C and Python share one bridge image, through their generated
//! helpers only (the contract: `tests/torture/PROTOCOLS.md`, summed up here).
//!
//! The host lays out a whole bridge with the generated producer in a file (under /dev/shm
//! when there is one), spawns the clients, and until every client exited: pops each
//! client's log queue (in 10 ms windows, so that a fast writer fills it and drops), pushes
//! one log-ring entry per turn (so that slow readers are lapped), serves each mailbox, takes
//! each fresh draw list (in 10 ms windows too, so that lists are overwritten unread), and
//! every ~20 ms per active row either frees it (a disconnect) or reloads (a new host
//! generation, every row freed). Each client runs five timed phases and prints one line per
//! phase; the host checks them against what it saw.
//!
//! `cargo run --release --example torture_protocols -- [--millis M] [--langs rust,c,python]
//! [--per-lang K]` ends with five lines per language:
//! `protocol log_queue LANG: N pushed, D dropped, R received, L lost, C corrupt`
//! `protocol log_ring LANG: N read, G lapped gaps, M missed, C corrupt`
//! `protocol mailbox LANG: Q requests, A answered, W wrong answers`
//! `protocol draw LANG: P published, T taken, S stale or torn, F lost fresh`
//! `protocol lifecycle LANG: K claims, D disconnects noticed, R reloads noticed, X missed`
//! and exits non-zero unless each holds its zeros and proves it raced.
//!
//! `torture_protocols client PATH ROW MILLIS` is the Rust client.
//!
//! `torture_protocols churn [--millis M] [--langs rust,c,python] [--hung-ms H]` is the churn
//! (issue 36, `torture_churn/`): sessions killed mid-protocol, freed when hung, reloaded and
//! laid out again, and new sessions on the freed rows; one
//! `protocol churn LANG: S sessions, K killed, R re-layouts, F frees, 0 stuck draws,
//! 0 leaked pads, 0 stale writes accepted, 0 double owners` line per language.
//! `torture_protocols client churn PATH ROW ACTION HARNESS` is its Rust client.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitCode};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[path = "torture_churn/mod.rs"]
mod churn;
mod torture_support;

use bridge_abi::live::{
    self, Bridge, ClientStanding, DrawReader, DrawWriter, LogQueueReader, LogQueueWriter,
    LogRingRead, LogRingReader, MailboxClient, MailboxServer,
};
use bridge_abi::runtime::Mapping;
use bridge_abi::zerocopy::FromZeros;
use bridge_abi::{ClientState, CommandStatus, DrawCmd, DrawListHeader, LogEntry, LogLevel};
use torture_support::{ClientPrograms, build_c_client};

/// The geometry the host lays out: the mailbox areas (no constant sizes them), a log ring
/// small enough that slow readers are lapped, a log queue small enough to fill.
const GEOMETRY: [(&str, u64); 4] = [
    ("mailbox.request_capacity", 1024),
    ("mailbox.response_capacity", 3008),
    ("log_ring.capacity", 8192),
    ("log_queue.capacity", 4096),
];

/// The host reads queues and draw lists only in every other window of this length.
const WINDOW: Duration = Duration::from_millis(10);
/// How often the host acts on each active row.
const LIFECYCLE_EVERY: Duration = Duration::from_millis(20);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("client") if args.get(1).is_some_and(|a| a == "churn") => {
            churn::client::run(&args[2..]).map(|()| ExitCode::SUCCESS)
        }
        Some("client") => run_client(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("churn") => churn::host::run(&args[1..]),
        _ => run_host(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("torture_protocols: {e}");
            ExitCode::FAILURE
        }
    }
}

fn flag(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{name} takes a whole number")),
    }
}

/// The languages `--langs` names (all three by default).
fn langs(args: &[String]) -> Result<Vec<&'static str>, String> {
    Ok(match args.iter().position(|a| a == "--langs") {
        None => vec!["rust", "c", "python"],
        Some(i) => {
            let list = args
                .get(i + 1)
                .ok_or("--langs takes a list: rust,c,python")?;
            let known = ["rust", "c", "python"];
            if let Some(bad) = list.split(',').find(|l| !known.contains(l)) {
                return Err(format!("--langs: no client in {bad}"));
            }
            known
                .into_iter()
                .filter(|l| list.split(',').any(|x| x == *l))
                .collect()
        }
    })
}

fn now_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

// ---------------------------------------------------------------------------------------
// The host.

/// What the host saw of one client.
#[derive(Default)]
struct Seen {
    received: u64,
    corrupt: u64,
    last_k: Option<u64>,
    ended: bool,
    taken: u64,
    stale: u64,
    last_seq: u32,
    disconnects: u64,
    reloads: u64,
}

/// One client process, its row and the host's side of its protocols.
struct Client<'a> {
    lang: &'static str,
    row: usize,
    child: Child,
    output: Option<std::thread::JoinHandle<String>>,
    exited: Option<bool>,
    queue: LogQueueReader<'a>,
    mailbox: MailboxServer<'a>,
    draw: DrawReader<'a>,
    seen: Seen,
}

/// A client still running when the host returns early is killed.
impl Drop for Client<'_> {
    fn drop(&mut self) {
        if self.exited.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Each row's lifecycle: the generation of the last action, when the next is due, and
/// which kind comes next.
struct RowLife {
    acted_generation: Option<u32>,
    next_at: Instant,
    reload_next: bool,
}

fn run_host(args: &[String]) -> Result<ExitCode, String> {
    let millis = flag(args, "--millis", 1000)?;
    let per_lang = flag(args, "--per-lang", 1)? as usize;
    let langs = langs(args)?;
    if langs.len() * per_lang > bridge_abi::MAX_CLIENTS {
        return Err(format!("at most {} clients", bridge_abi::MAX_CLIENTS));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = std::env::temp_dir().join(format!("bridge-protocols-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = base.join(format!("bridge-protocols-{}.shm", std::process::id()));
    let result = host(root, &dir, &path, &langs, per_lang, millis);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn host(
    root: &Path,
    dir: &Path,
    path: &Path,
    langs: &[&'static str],
    per_lang: usize,
    millis: u64,
) -> Result<ExitCode, String> {
    let image = Bridge::lay_out(&GEOMETRY, 1).map_err(|e| e.to_string())?;
    let map =
        Mapping::create(path, image.bytes.len()).map_err(|e| format!("{}: {e}", path.display()))?;
    let region = map.region().map_err(|e| e.to_string())?;
    let bridge = Bridge::produce(region, &image).map_err(|e| e.to_string())?;
    let ring = bridge
        .log_ring_writer()
        .map_err(|e| e.to_string())?
        .ok_or("no log ring")?;
    let sessions = bridge.client_host();

    let c_client = if langs.contains(&"c") {
        build_c_client(root, dir, "protocols.c", "protocols_c", &["-pthread"])?
    } else {
        PathBuf::new()
    };
    let programs = ClientPrograms {
        root,
        c_client: &c_client,
        python_script: "protocols.py",
    };
    let mut clients = Vec::new();
    let mut row = 0;
    for &lang in langs {
        for _ in 0..per_lang {
            let (child, output) = programs.spawn(
                lang,
                &[
                    path.display().to_string(),
                    row.to_string(),
                    millis.to_string(),
                ],
            )?;
            let block = bridge
                .client_blocks(row)
                .map_err(|e| e.to_string())?
                .ok_or("no client block")?;
            let bot = bridge
                .bot_blocks(row)
                .map_err(|e| e.to_string())?
                .ok_or("no bot block")?;
            let err = |e: &dyn std::fmt::Display| format!("row {row}: {e}");
            clients.push(Client {
                lang,
                row,
                child,
                output: Some(output),
                exited: None,
                queue: block
                    .log_queue_reader()
                    .map_err(|e| err(&e))?
                    .ok_or("no queue")?,
                mailbox: block
                    .mailbox_server()
                    .map_err(|e| err(&e))?
                    .ok_or("no mailbox")?,
                draw: bot
                    .draw_reader()
                    .map_err(|e| err(&e))?
                    .ok_or("no draw lists")?,
                seen: Seen::default(),
            });
            row += 1;
        }
    }
    let mut lives: Vec<RowLife> = (0..bridge_abi::MAX_CLIENTS)
        .map(|_| RowLife {
            acted_generation: None,
            next_at: Instant::now(),
            reload_next: false,
        })
        .collect();

    let start = Instant::now();
    let deadline = start + Duration::from_millis(10 * millis) + Duration::from_secs(60);
    let mut pushed = 0u64;
    let mut turns = 0u64;
    let result = loop {
        turns += 1;
        if Instant::now() > deadline {
            break Err("the clients did not finish in time".to_string());
        }
        let reading = (start.elapsed().as_millis() / WINDOW.as_millis()) % 2 == 0;
        let mut all_exited = true;
        for c in &mut clients {
            if c.exited.is_none() {
                if let Some(status) = c.child.try_wait().map_err(|e| e.to_string())? {
                    c.exited = Some(status.success());
                    if !status.success() {
                        eprintln!(
                            "the {} client on row {} exited with {status}",
                            c.lang, c.row
                        );
                    }
                } else {
                    all_exited = false;
                }
            }
            if reading || c.exited.is_some() {
                pop_queue(c)?;
                take_draw(c)?;
            }
            c.mailbox
                .serve(answer)
                .map_err(|e| format!("row {}: mailbox: {e}", c.row))?;
        }
        let text = pushed.to_string();
        let mut head: LogEntry = FromZeros::new_zeroed();
        head.time_ns = now_ns();
        let seq = ring
            .push(&head, b"host", text.as_bytes())
            .map_err(|e| format!("log ring: {e}"))?;
        if seq != pushed {
            break Err(format!("log ring: entry {pushed} got seq {seq}"));
        }
        pushed += 1;
        lifecycle(&bridge, &sessions, &mut clients, &mut lives)?;
        if all_exited {
            break Ok(());
        }
    };
    result?;
    // A last take: the newest list must be there for the host, even after its writer left.
    for c in &mut clients {
        take_draw(c)?;
        pop_queue(c)?;
    }
    report(&mut clients, pushed, turns, start.elapsed())
}

/// The mailbox answer to `req k`: `ans k` then k % 50 `x`, status ok.
fn answer(text: &[u8]) -> (CommandStatus, Vec<u8>) {
    let k = std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.strip_prefix("req "))
        .and_then(|k| k.parse::<u64>().ok());
    match k {
        Some(k) => (
            CommandStatus::OK,
            format!("ans {k}{}", "x".repeat((k % 50) as usize)).into_bytes(),
        ),
        None => (CommandStatus::REFUSED, b"bad request".to_vec()),
    }
}

fn pop_queue(c: &mut Client<'_>) -> Result<(), String> {
    while !c.seen.ended {
        let Some(e) = c
            .queue
            .pop()
            .map_err(|e| format!("row {}: log queue: {e} ({})", c.row, e.check()))?
        else {
            break;
        };
        if e.text == b"end" {
            c.seen.ended = true;
            break;
        }
        let k = std::str::from_utf8(&e.text)
            .ok()
            .and_then(|t| t.parse::<u64>().ok());
        let ok = match k {
            Some(k) => {
                let in_order = c.seen.last_k.is_none_or(|last| k > last);
                c.seen.last_k = Some(k);
                in_order && e.source == b"torture" && e.head.tick == k
            }
            None => false,
        };
        c.seen.received += 1;
        c.seen.corrupt += u64::from(!ok);
    }
    Ok(())
}

fn take_draw(c: &mut Client<'_>) -> Result<(), String> {
    let Some(list) = c
        .draw
        .take()
        .map_err(|e| format!("row {}: draw: {e} ({})", c.row, e.check()))?
    else {
        return Ok(());
    };
    let seq = list.head.seq;
    let whole = seq > c.seen.last_seq
        && list.head.for_tick == u64::from(seq)
        && list.head.count == 1 + seq % 7
        && list.items.iter().all(|cmd| {
            let (off, len) = (cmd.payload_off as usize, usize::from(cmd.payload_len));
            cmd.color == seq
                && len == 8
                && list.payload.get(off..off + len) == Some(&u64::from(seq).to_le_bytes()[..])
        });
    c.seen.taken += 1;
    if whole {
        c.seen.last_seq = seq;
    } else {
        c.seen.stale += 1;
    }
    Ok(())
}

/// Every ~20 ms for each active row that the last action on it is over for (active with a
/// new generation): alternately a disconnect (the row freed) or a reload (a new host
/// generation, every row freed). Rows that say goodbye are freed.
fn lifecycle<'a>(
    bridge: &Bridge<'a>,
    sessions: &live::ClientHost<'_>,
    clients: &mut [Client<'a>],
    lives: &mut [RowLife],
) -> Result<(), String> {
    let header = bridge.header();
    let now = Instant::now();
    for k in 0..clients.len() {
        let index = clients[k].row;
        let Some(row) = header.clients(index) else {
            continue;
        };
        let state = row.state();
        if state == ClientState::CLOSING {
            // A free puts the draw exchange back at its start: the newest list first.
            take_draw(&mut clients[k])?;
            sessions.free(index).unwrap();
            new_draw_reader(bridge, &mut clients[k]);
            continue;
        }
        let life = &mut lives[index];
        let generation = row.generation();
        if state != ClientState::ACTIVE
            || life.acted_generation == Some(generation)
            || now < life.next_at
        {
            continue;
        }
        life.next_at = now + LIFECYCLE_EVERY;
        life.reload_next = !life.reload_next;
        if !life.reload_next {
            // Every row's generation before the reload: each action is over when its row
            // is active with another.
            let before: Vec<u32> = (0..bridge_abi::MAX_CLIENTS)
                .map(|i| header.clients(i).map_or(0, |r| r.generation()))
                .collect();
            let before_states: Vec<ClientState> = (0..bridge_abi::MAX_CLIENTS)
                .map(|i| header.clients(i).map_or(ClientState::FREE, |r| r.state()))
                .collect();
            for c in clients.iter_mut() {
                if before_states[c.row] != ClientState::FREE {
                    take_draw(c)?;
                }
            }
            for freed in sessions.reload().unwrap() {
                lives[freed].acted_generation = Some(before[freed]);
                if let Some(c) = clients.iter_mut().find(|c| c.row == freed) {
                    c.seen.reloads += 1;
                }
            }
            // The reload restored every row that was not free.
            for c in clients.iter_mut() {
                if before_states[c.row] != ClientState::FREE {
                    new_draw_reader(bridge, c);
                }
            }
            return Ok(());
        }
        take_draw(&mut clients[k])?;
        if sessions.free(index).unwrap() == Some(ClientState::ACTIVE) {
            life.acted_generation = Some(generation);
            clients[k].seen.disconnects += 1;
            new_draw_reader(bridge, &mut clients[k]);
        }
    }
    Ok(())
}

/// A free put the row's draw exchange back at its start: the host takes a new reader. The
/// handle is the host's own (from produce), so its reloads do not take its blocks away.
fn new_draw_reader<'a>(bridge: &Bridge<'a>, c: &mut Client<'a>) {
    let reader = bridge.bot_blocks(c.row).ok().flatten();
    if let Some(r) = reader.and_then(|b| b.draw_reader().ok().flatten()) {
        c.draw = r;
    }
}

/// Counts a client printed, by phase.
#[derive(Default, Clone)]
struct Printed {
    queue: [u64; 2],
    ring: [u64; 5],
    mailbox: [u64; 4],
    draw: [u64; 2],
    lifecycle: [u64; 3],
    lines: u32,
}

fn parse(text: &str) -> Result<Printed, String> {
    let mut p = Printed::default();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let nums = |n: usize| -> Result<Vec<u64>, String> {
            let v: Vec<u64> = words[1..]
                .iter()
                .filter(|w| **w != "waits")
                .map(|w| w.parse().map_err(|_| format!("not a count in `{line}`")))
                .collect::<Result<_, _>>()?;
            if v.len() == n {
                Ok(v)
            } else {
                Err(format!("expected {n} counts in `{line}`"))
            }
        };
        match words.first().copied() {
            Some("log_queue") => p.queue.copy_from_slice(&nums(2)?),
            Some("log_ring") => p.ring.copy_from_slice(&nums(5)?),
            Some("mailbox") => p.mailbox.copy_from_slice(&nums(4)?),
            Some("draw") => p.draw.copy_from_slice(&nums(2)?),
            Some("lifecycle") => p.lifecycle.copy_from_slice(&nums(3)?),
            _ => return Err(format!("an unexpected line `{line}`")),
        }
        p.lines += 1;
    }
    if p.lines != 5 {
        return Err(format!("{} lines, expected 5", p.lines));
    }
    Ok(p)
}

fn report(
    clients: &mut [Client<'_>],
    pushed: u64,
    turns: u64,
    elapsed: Duration,
) -> Result<ExitCode, String> {
    let mut failed = false;
    // Per language: the sums of what its clients printed and of what the host saw.
    let mut by_lang: BTreeMap<&str, (Printed, Seen, u64)> = BTreeMap::new();
    let mut order = Vec::new();
    for c in clients.iter_mut() {
        let text = c
            .output
            .take()
            .map(|t| t.join().unwrap_or_default())
            .unwrap_or_default();
        if c.exited != Some(true) {
            failed = true;
        }
        let printed = match parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("the {} client on row {}: {e}", c.lang, c.row);
                failed = true;
                Printed::default()
            }
        };
        // F: the newest list the client published is the last one taken.
        let lost_fresh = u64::from(u64::from(c.seen.last_seq) != printed.draw[1]);
        if !order.contains(&c.lang) {
            order.push(c.lang);
        }
        let (p, s, f) = by_lang.entry(c.lang).or_default();
        for (a, b) in p.queue.iter_mut().zip(printed.queue) {
            *a += b;
        }
        for (a, b) in p.ring.iter_mut().zip(printed.ring) {
            *a += b;
        }
        for (a, b) in p.mailbox.iter_mut().zip(printed.mailbox) {
            *a += b;
        }
        for (a, b) in p.draw.iter_mut().zip(printed.draw) {
            *a += b;
        }
        for (a, b) in p.lifecycle.iter_mut().zip(printed.lifecycle) {
            *a += b;
        }
        s.received += c.seen.received;
        s.corrupt += c.seen.corrupt;
        s.taken += c.seen.taken;
        s.stale += c.seen.stale;
        s.disconnects += c.seen.disconnects;
        s.reloads += c.seen.reloads;
        *f += lost_fresh;
    }
    println!(
        "protocol host: {pushed} log ring entries in {turns} turns, {} clients, {:.1} s",
        clients.len(),
        elapsed.as_secs_f64()
    );
    for lang in order {
        let (p, s, f) = &by_lang[lang];
        let [n, d] = p.queue;
        let lost = n as i128 - d as i128 - s.received as i128;
        println!(
            "protocol log_queue {lang}: {n} pushed, {d} dropped, {} received, {lost} lost, {} corrupt",
            s.received, s.corrupt
        );
        failed |= lost != 0 || s.corrupt != 0 || d == 0;
        let [r, g, m, c, span] = p.ring;
        println!("protocol log_ring {lang}: {r} read, {g} lapped gaps, {m} missed, {c} corrupt");
        if r + m != span {
            eprintln!("log_ring {lang}: {r} read + {m} missed is not the {span} written");
        }
        failed |= c != 0 || r + m != span || g == 0;
        let [q, a, w, waits] = p.mailbox;
        println!("protocol mailbox {lang}: {q} requests, {a} answered, {w} wrong answers");
        if waits == 0 {
            eprintln!("mailbox {lang}: no poll waited for an answer");
        }
        failed |= a != q || w != 0 || waits == 0;
        let [published, _] = p.draw;
        println!(
            "protocol draw {lang}: {published} published, {} taken, {} stale or torn, {f} lost fresh",
            s.taken, s.stale
        );
        failed |= s.stale != 0 || *f != 0 || published <= s.taken;
        let [k, dn, rn] = p.lifecycle;
        let missed = (s.disconnects + s.reloads) as i128 - dn as i128 - rn as i128;
        println!(
            "protocol lifecycle {lang}: {k} claims, {dn} disconnects noticed, {rn} reloads noticed, {missed} missed"
        );
        failed |= missed != 0 || dn == 0 || rn == 0;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

// ---------------------------------------------------------------------------------------
// The Rust client.

/// A client's error: the protocol, the error.
fn fail(what: &str, err: impl std::fmt::Display) -> String {
    format!("{what}: {err}")
}

/// The row's client block.
fn block<'a>(bridge: &Bridge<'a>, row: usize) -> Result<live::ClientBlock<'a>, String> {
    bridge
        .client_blocks(row)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "no client block".to_string())
}

fn run_client(args: &[String]) -> Result<(), String> {
    let [path, row, millis] = args else {
        return Err("usage: torture_protocols client PATH ROW MILLIS".into());
    };
    let row: usize = row.parse().map_err(|_| "ROW is a number")?;
    let millis: u64 = millis.parse().map_err(|_| "MILLIS is a number")?;
    let phase = Duration::from_millis(millis);
    let map = Mapping::open(path).map_err(|e| format!("{path}: {e}"))?;
    let region = map.region().map_err(|e| e.to_string())?;
    let bridge = Bridge::attach(region).map_err(|e| e.to_string())?;
    client_phases(bridge, row, phase)
}

/// The five phases, each following a re-layout (a new handle whose regions moved).
fn client_phases<'a>(mut bridge: Bridge<'a>, row: usize, phase: Duration) -> Result<(), String> {
    let queue_of = |bridge: &Bridge<'a>| -> Result<LogQueueWriter<'a>, String> {
        block(bridge, row)?
            .log_queue_writer_unscoped()
            .map_err(|x| fail("log queue", x))?
            .ok_or_else(|| "no log queue".to_string())
    };

    // 1. The log queue, as its writer (the entries in a queue a re-layout replaced are lost).
    let mut queue = queue_of(&bridge)?;
    let (mut n, mut dropped) = (0u64, 0u64);
    let until = Instant::now() + phase;
    while Instant::now() < until {
        if moved(&mut bridge)? {
            queue = queue_of(&bridge)?;
        }
        let mut head: LogEntry = FromZeros::new_zeroed();
        head.level = LogLevel((n % 5) as u8);
        head.tick = n;
        let was_dropped = match queue.push(&head, b"torture", n.to_string().as_bytes()) {
            Ok(was_dropped) => was_dropped,
            // Read while the queue was being replaced: the next entry in the new one.
            Err(_) if bridge.reloaded() => continue,
            Err(x) => return Err(fail("log queue", x)),
        };
        dropped += u64::from(was_dropped);
        n += 1;
    }
    let end: LogEntry = FromZeros::new_zeroed();
    let tried = Instant::now();
    while {
        if moved(&mut bridge)? {
            queue = queue_of(&bridge)?;
        }
        match queue.push(&end, b"torture", b"end") {
            Ok(was_dropped) => was_dropped,
            Err(_) if bridge.reloaded() => true,
            Err(x) => return Err(fail("log queue", x)),
        }
    } {
        if tried.elapsed() > Duration::from_secs(30) {
            return Err("log queue: `end` dropped for 30 s".into());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    println!("log_queue {n} {dropped}");

    // 2. The log ring, as a slow reader (after a re-layout, the new ring from its newest
    // entry: the spans summed).
    let ring_of = |bridge: &Bridge<'a>| -> Result<LogRingReader<'a>, String> {
        bridge
            .log_ring_join_latest()
            .map_err(|x| fail("log ring", x))?
            .ok_or_else(|| "no log ring".to_string())
    };
    let mut ring = ring_of(&bridge)?;
    let (mut read, mut gaps, mut missed, mut corrupt) = (0u64, 0u64, 0u64, 0u64);
    let (mut first, mut last, mut spans) = (None::<u64>, 0u64, 0u64);
    let until = Instant::now() + phase;
    while Instant::now() < until {
        if moved(&mut bridge)? {
            spans += first.take().map_or(0, |f| last - f + 1);
            ring = ring_of(&bridge)?;
        }
        let found = match ring.read_next() {
            Ok(found) => found,
            // Read while the ring was being replaced: the new one taken at the loop's top.
            Err(_) if bridge.reloaded() => continue,
            Err(x) => return Err(fail("log ring", x)),
        };
        match found {
            LogRingRead::Entry(entry) => {
                let seq = entry.head.seq;
                if entry.text != seq.to_string().as_bytes() {
                    corrupt += 1;
                }
                first.get_or_insert(seq);
                last = seq;
                read += 1;
                if read % 64 == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            // Gaps before the first entry read are outside the span it measures.
            LogRingRead::Lapped { missed: m } if first.is_some() => {
                gaps += 1;
                missed += m;
            }
            LogRingRead::Lapped { .. } | LogRingRead::Empty => {}
        }
    }
    let span = spans + first.map_or(0, |f| last - f + 1);
    println!("log_ring {read} {gaps} {missed} {corrupt} {span}");

    // 3. The mailbox, as its client (a request lost with a mailbox a re-layout replaced is
    // sent again).
    let mailbox_of = |bridge: &Bridge<'a>| -> Result<MailboxClient<'a>, String> {
        block(bridge, row)?
            .mailbox_client_unscoped()
            .map_err(|x| fail("mailbox", x))?
            .ok_or_else(|| "no mailbox".to_string())
    };
    let mut mailbox = mailbox_of(&bridge)?;
    let (mut requests, mut answered, mut wrong, mut waits) = (0u64, 0u64, 0u64, 0u64);
    let until = Instant::now() + phase;
    while Instant::now() < until {
        let k = requests;
        mailbox
            .request(format!("req {k}").as_bytes())
            .map_err(|x| fail("mailbox", x))?;
        requests += 1;
        let asked = Instant::now();
        let response = loop {
            let polled = match mailbox.poll_response() {
                Ok(polled) => polled,
                Err(_) if bridge.reloaded() => None,
                Err(x) => return Err(fail("mailbox", x)),
            };
            // An answer read after the mailbox moved is no answer: the request again.
            if moved(&mut bridge)? {
                mailbox = mailbox_of(&bridge)?;
                mailbox
                    .request(format!("req {k}").as_bytes())
                    .map_err(|x| fail("mailbox", x))?;
                continue;
            }
            if let Some(r) = polled {
                break r;
            }
            if asked.elapsed() > Duration::from_secs(5) {
                return Err(format!("mailbox: no answer to request {k} in 5 s"));
            }
            waits += 1;
            std::hint::spin_loop();
        };
        answered += 1;
        let expected = format!("ans {k}{}", "x".repeat((k % 50) as usize));
        if response.status != CommandStatus::OK
            || response.text != expected.as_bytes()
            || response.cut
        {
            wrong += 1;
        }
    }
    println!("mailbox {requests} {answered} {wrong} waits {waits}");

    // 4. The draw lists, as their writer (in the new block after a re-layout).
    let draw_of = |bridge: &Bridge<'a>| -> Result<DrawWriter<'a>, String> {
        bridge
            .bot_blocks(row)
            .map_err(|e| e.to_string())?
            .ok_or("no bot block")?
            .draw_writer_unscoped()
            .map_err(|x| fail("draw", x))?
            .ok_or_else(|| "no draw lists".to_string())
    };
    let mut draw = draw_of(&bridge)?;
    let mut published = 0u64;
    let mut last_n = 0u64;
    let until = Instant::now() + phase;
    let mut list_n = 0u64;
    while Instant::now() < until {
        list_n += 1;
        if moved(&mut bridge)? {
            draw = draw_of(&bridge)?;
        }
        for _ in 0..1 + list_n % 7 {
            let cmd = DrawCmd {
                color: list_n as u32,
                payload_off: draw.payload_len() as u32,
                payload_len: 8,
                ..FromZeros::new_zeroed()
            };
            if !draw.push(&cmd, &list_n.to_le_bytes()) {
                return Err(format!("draw: list {list_n} does not hold its commands"));
            }
        }
        let mut head: DrawListHeader = FromZeros::new_zeroed();
        head.seq = list_n as u32;
        head.for_tick = list_n;
        if moved(&mut bridge)? {
            // List n was built in the old block: not published.
            draw = draw_of(&bridge)?;
            continue;
        }
        match draw.publish(&head) {
            Ok(_) => {}
            Err(_) if bridge.reloaded() => continue,
            Err(x) => return Err(fail("draw", x)),
        }
        published += 1;
        last_n = list_n;
    }
    println!("draw {published} {last_n}");

    // 5. The lifecycle, as a client session.
    let (claims, disconnects, reloads) = lifecycle_client(&bridge, row, phase)?;
    println!("lifecycle {claims} {disconnects} {reloads}");
    Ok(())
}

/// A re-layout moves the blocks, a reload does not: when the producer's generation changed
/// since `bridge` attached, attach again (5 s at most while the host reloads); true when
/// the new handle's regions are placed elsewhere (its table differs), and a phase takes its
/// region again.
fn moved(bridge: &mut Bridge<'_>) -> Result<bool, String> {
    if !bridge.reloaded() {
        return Ok(false);
    }
    let started = Instant::now();
    let again = loop {
        match Bridge::attach(bridge.region()) {
            Ok(again) => break again,
            Err(e) if started.elapsed() > Duration::from_secs(5) => {
                return Err(format!("attach again: {e}"));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    let moved = again.table() != bridge.table();
    *bridge = again;
    Ok(moved)
}

/// Claims the row (waiting while the host has not freed it yet), fills it in, activates.
/// `Ok(None)` when the activation found the row gone again: the standing to count.
fn claim_row<'a>(
    bridge: &mut Bridge<'a>,
    row: usize,
) -> Result<(live::Client<'a>, ClientStanding), String> {
    let started = Instant::now();
    loop {
        let claimed = bridge.claim_client(row);
        if matches!(claimed, Err(live::ClientRefused::Reloaded)) {
            // The host reloaded since this handle attached: attach again, then claim.
            if let Ok(again) = Bridge::attach(bridge.region()) {
                *bridge = again;
            }
        }
        if let Ok(client) = claimed {
            let r = client.row();
            r.set_pid(std::process::id()).unwrap();
            let mut name = [0u8; bridge_abi::CLIENT_NAME_LEN];
            let text = format!("torture-rust-{row}");
            name[..text.len()].copy_from_slice(text.as_bytes());
            r.set_name(name).unwrap();
            r.set_connected_ns(now_ns()).unwrap();
            client.heartbeat(now_ns()).unwrap();
            let standing = client.activate();
            return Ok((client, standing));
        }
        if started.elapsed() > Duration::from_secs(5) {
            return Err(format!("lifecycle: row {row} not free for 5 s"));
        }
        std::thread::sleep(Duration::from_micros(50));
    }
}

fn lifecycle_client(
    bridge: &Bridge<'_>,
    row: usize,
    phase: Duration,
) -> Result<(u64, u64, u64), String> {
    let (mut claims, mut disconnects, mut reloads) = (1u64, 0u64, 0u64);
    let mut bridge = bridge.clone();
    let (mut client, mut standing) = claim_row(&mut bridge, row)?;
    let until = Instant::now() + phase;
    loop {
        match standing {
            ClientStanding::Connected => {}
            ClientStanding::Disconnected | ClientStanding::Reloaded => {
                if standing == ClientStanding::Reloaded {
                    reloads += 1;
                } else {
                    disconnects += 1;
                }
                (client, standing) = claim_row(&mut bridge, row)?;
                claims += 1;
                continue;
            }
            ClientStanding::HostExiting => return Err("lifecycle: the host is exiting".into()),
        }
        if Instant::now() >= until {
            break;
        }
        std::thread::sleep(Duration::from_micros(100));
        standing = client.heartbeat(now_ns()).unwrap();
    }
    // Goodbye; an action the close found is counted like any other.
    match client.close() {
        ClientStanding::Connected => {}
        ClientStanding::Disconnected => disconnects += 1,
        ClientStanding::Reloaded => reloads += 1,
        ClientStanding::HostExiting => return Err("lifecycle: the host is exiting".into()),
    }
    Ok((claims, disconnects, reloads))
}
