//! The conformance suite's Rust driver (`tests/conformance/README.md`): the step language run
//! through the generated `bridge_abi::live` API, in this process, one step at a time.

use std::collections::HashMap;

use bridge_abi::live::{
    Bridge, Client, ClientHost, ClientPadRefused, ClientRefused, ClientScoped, ClientStanding,
    DrawReader, DrawWriter, LogQueueReader, LogQueueWriter, MailboxClient, MailboxServer,
    PadInput as PadInputView,
};
use bridge_abi::runtime::claim::row_word;
use bridge_abi::runtime::directory::ProcessProbe;
use bridge_abi::runtime::produce::ProduceError;
use bridge_abi::runtime::service::{Callbacks, Counts, Service};
use bridge_abi::runtime::{Region, SharedBuf};
use bridge_abi::zerocopy::FromZeros;
use bridge_abi::{CommandStatus, DrawCmd, DrawListHeader, LogEntry};
use std::sync::atomic::Ordering::{Acquire, Release};

/// Each scenario's mapping: 4 MiB, zeroed.
const MAPPING: usize = 4 << 20;

/// Runs the driver input `input` (the README's lines) and returns the answer lines.
pub fn run(input: &str) -> String {
    let mut out = String::new();
    let mut scenario: Option<Scenario> = None;
    for line in input.lines() {
        if let Some(name) = line.strip_prefix("scenario ") {
            out.push_str(line);
            out.push('\n');
            let _ = name;
            scenario = Some(Scenario::new());
        } else if line == "end" {
            out.push_str("end\n");
            scenario = None;
        } else if let Some(s) = scenario.as_mut() {
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.step(line)))
                .unwrap_or_else(|p| {
                    let why = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    format!("error:driver:panic: {}", why.replace('\n', " "))
                });
            out.push_str(&answer);
            out.push('\n');
        } else {
            out.push_str("error:driver:a step outside a scenario\n");
        }
    }
    out
}

/// One scenario's world: the mapping (leaked, so that every handle borrows it for
/// `'static`; a few pages of it are ever touched), the host and the clients.
struct Scenario {
    region: Region<'static>,
    host: Option<Host>,
    clients: HashMap<String, ClientActor>,
    /// Each actor's places, located at its first raw op there and kept: a vandal computes
    /// its pointers once, and its own damage does not move them.
    places: HashMap<(String, String), Option<Region<'static>>>,
    /// Lockstep's misses per row, kept across the host's waits.
    misses: Vec<u64>,
}

struct Host {
    handle: Bridge<'static>,
    draws: HashMap<usize, DrawReader<'static>>,
    queues: HashMap<usize, LogQueueReader<'static>>,
    /// The service turn's state, made at the first `service_turn` after a produce.
    service: Option<Service<ClientHost<'static>>>,
}

/// The service turn's callbacks: a request `T` answered `1` with `re:T`, a malformed one `7`
/// with `malformed`; the probe stub says pid 4000000000 is gone and every other runs, created
/// at time 1 (README.md, `host service_turn`).
struct Stub;

impl Callbacks<ClientHost<'static>> for Stub {
    fn answer(&mut self, _row: usize, text: Option<&[u8]>) -> (u32, Vec<u8>) {
        match text {
            Some(t) => (1, [b"re:".as_slice(), t].concat()),
            None => (7, b"malformed".to_vec()),
        }
    }
    fn probe(&mut self, pid: u32) -> ProcessProbe {
        if pid == 4_000_000_000 {
            ProcessProbe::Gone
        } else {
            ProcessProbe::Running(1)
        }
    }
}

/// A writer bound to a leaked claim.
type Bound<W> = ClientScoped<'static, 'static, W>;

#[derive(Default)]
struct ClientActor {
    handle: Option<Bridge<'static>>,
    /// The claim, leaked: the writers bound to it borrow it for the driver's life.
    claim: Option<&'static Client<'static>>,
    /// The claimed row (the claim's index), for the writers.
    row: Option<usize>,
    queue: Option<Bound<LogQueueWriter<'static>>>,
    draw: Option<Bound<DrawWriter<'static>>>,
    mailbox: Option<Bound<MailboxClient<'static>>>,
    /// The row's pad input view, kept like the writers; its default write is bound.
    pad: Option<PadInputView<'static>>,
}

/// A free the host makes inside the next compare-and-swap of a word (`host free_inside`):
/// the word's address, the host's side and the row.
type FreeInside = (usize, ClientHost<'static>, usize);

thread_local! {
    /// The address of the word `host contend` arms (0: none).
    static CONTENDED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The free `host free_inside` arms, made once.
    static FREE_INSIDE: std::cell::RefCell<Option<FreeInside>> = const { std::cell::RefCell::new(None) };
}

/// abi_runtime's contention hook (called between the load and the swap of every bounded
/// compare-and-swap loop): for `host contend`, a stand-in for a client that writes the other
/// bytes of the word the host swaps (it flips bit 63 of the word armed); for
/// `host free_inside`, the host's free of a row landing inside a client's compare-and-swap of
/// the word armed (once).
fn hook(word: &std::sync::atomic::AtomicU64) {
    let at = core::ptr::from_ref(word).addr();
    if at == CONTENDED.get() {
        word.fetch_xor(1 << 63, std::sync::atomic::Ordering::Relaxed);
    }
    let armed = FREE_INSIDE.with(|f| {
        let mut f = f.borrow_mut();
        f.as_ref()
            .is_some_and(|(w, _, _)| *w == at)
            .then(|| f.take())
            .flatten()
    });
    if let Some((_, host, row)) = armed {
        let _ = host.free(row);
    }
}

/// The value of a `Result<Option<T>, E>` that takes a region's block, writer or reader, or
/// returns the step's answer: `error:absent` for `None`, `error:<check>` for an error.
macro_rules! taken {
    ($e:expr) => {
        match $e {
            Ok(Some(v)) => v,
            Ok(None) => return Ok(err("absent")),
            Err(e) => return Ok(err(e.check())),
        }
    };
}

fn standing(s: ClientStanding) -> String {
    match s {
        ClientStanding::Connected => "connected",
        ClientStanding::Disconnected => "disconnected",
        ClientStanding::Reloaded => "reloaded",
        ClientStanding::HostExiting => "host_exiting",
    }
    .to_string()
}

fn produce_error(e: &ProduceError) -> String {
    let name = match e {
        ProduceError::UnknownGeometry { .. } => "unknown_geometry",
        ProduceError::TooLarge { .. } => "too_large",
        ProduceError::BlockTooSmall { .. } => "block_too_small",
        ProduceError::GeometryNeeded { .. } => "geometry_needed",
        ProduceError::Refused(a) => a.check(),
        ProduceError::MappingTooShort { .. } => "buffer_too_short",
        ProduceError::Contended { .. } => "contended",
        // ProduceError is #[non_exhaustive]: a refusal the driver cannot name matches no
        // scenario's expected line, so the scenario fails showing it.
        other => return format!("error:unnamed {other:?}"),
    };
    format!("error:{name}")
}

fn err(check: &str) -> String {
    format!("error:{check}")
}

fn state_name(state: u32) -> String {
    match state {
        0 => "free".to_string(),
        1 => "claimed".to_string(),
        2 => "active".to_string(),
        3 => "closing".to_string(),
        n => n.to_string(),
    }
}

/// A block's bytes from its start (a block's handle holds the whole mapping and the block's
/// table, which says where the block starts).
fn from_block_start(mapping: Region<'static>, base: usize) -> Option<Region<'static>> {
    mapping.sub(base, mapping.len().checked_sub(base)?, 8).ok()
}

fn num<T: std::str::FromStr>(args: &[&str], i: usize) -> Result<T, String> {
    args.get(i)
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("error:driver:argument {i} of {args:?}"))
}

impl Scenario {
    fn new() -> Self {
        CONTENDED.set(0);
        FREE_INSIDE.set(None);
        bridge_abi::runtime::contention::set_hook(None);
        let buf: &'static SharedBuf = Box::leak(Box::new(SharedBuf::new(MAPPING)));
        Self {
            region: buf.region(),
            host: None,
            clients: HashMap::new(),
            places: HashMap::new(),
            misses: vec![0; Client::ROWS],
        }
    }

    fn step(&mut self, line: &str) -> String {
        let words: Vec<&str> = line.split(' ').collect();
        let (actor, op, args) = match words.as_slice() {
            [actor, op, args @ ..] => (*actor, *op, args),
            _ => return "error:driver:a step is ACTOR OP ARGS".to_string(),
        };
        let answer = match (actor, op) {
            (_, "poke") => self.poke(actor, args),
            (_, "peek") => self.peek(actor, args),
            (_, "locate") => {
                let place = args.first().copied().unwrap_or("");
                self.place(actor, place).map(|r| match r {
                    Some(_) => "ok".to_string(),
                    None => err("absent"),
                })
            }
            ("host", _) => self.host(op, args),
            _ => self.client(actor, op, args),
        };
        answer.unwrap_or_else(|e| e)
    }

    fn host(&mut self, op: &str, args: &[&str]) -> Result<String, String> {
        if op == "produce" {
            return Ok(self.produce(args));
        }
        let host = self.host.as_mut().ok_or("error:driver:no image produced")?;
        let sessions = host.handle.client_host();
        Ok(match op {
            "lockstep" => {
                let (tick, timeout_ms): (u64, u64) = (num(args, 0)?, num(args, 1)?);
                lockstep(host, &sessions, tick, timeout_ms, &mut self.misses)
            }
            "wait_commands" => wait_commands(host, &sessions, num(args, 0)?),
            "tick" => {
                let tick: u64 = num(args, 0)?;
                if host.handle.header().set_snapshot_seq(tick).is_err() {
                    return Ok(err("contended"));
                }
                let setter = sessions
                    .tick_setter()
                    .map_err(|e| format!("error:driver:{e}"))?;
                format!("set={}", sessions.set_tick(&setter, |_| false).rows)
            }
            "service_turn" => {
                let now: u64 = num(args, 0)?;
                let service = (host.service).get_or_insert_with(|| Service::new(&sessions, 0));
                service.counts = Counts::default();
                service.turn(&sessions, &mut Stub, now).line()
            }
            "misses" => {
                let row: usize = num(args, 0)?;
                match self.misses.get(row) {
                    Some(m) => m.to_string(),
                    None => "error:driver:no such row".to_string(),
                }
            }
            "free" => {
                let row: usize = num(args, 0)?;
                host.draws.remove(&row);
                host.queues.remove(&row);
                match sessions.free(row) {
                    Ok(Some(old)) => state_name(old.0),
                    Ok(None) => "no_row".to_string(),
                    Err(_) => err("contended"),
                }
            }
            "reload" => {
                host.draws.clear();
                host.queues.clear();
                match sessions.reload() {
                    Ok(_) => "ok".to_string(),
                    Err(_) => err("contended"),
                }
            }
            "contend" => {
                let index: usize = num(args, 0)?;
                let Some(row) = host.handle.header().clients(index) else {
                    return Ok("no_row".to_string());
                };
                CONTENDED.set(row.region().as_ptr().addr());
                bridge_abi::runtime::contention::set_hook(Some(hook));
                "ok".to_string()
            }
            "free_inside" => {
                let row: usize = num(args, 0)?;
                // The runtime swaps the pad owners' word as the 8-aligned word holding it.
                let at = host.handle.header().region().as_ptr().addr() + (Client::PADS.at & !7);
                FREE_INSIDE.set(Some((at, sessions.clone(), row)));
                host.draws.remove(&row);
                host.queues.remove(&row);
                bridge_abi::runtime::contention::set_hook(Some(hook));
                "ok".to_string()
            }
            "uncontend" => {
                CONTENDED.set(0);
                bridge_abi::runtime::contention::set_hook(None);
                "ok".to_string()
            }
            "exit" => match sessions.exit() {
                Ok(()) => "ok".to_string(),
                Err(_) => err("contended"),
            },
            "row" => {
                let index: usize = num(args, 0)?;
                let row = host
                    .handle
                    .header()
                    .clients(index)
                    .ok_or("error:driver:no such row")?;
                let (state, generation) = row_word(row.region(), Client::SPEC);
                format!(
                    "state={} gen={generation} beat={}",
                    state_name(state),
                    row.heartbeat_ns()
                )
            }
            "pad" => {
                let pad: usize = num(args, 0)?;
                match host.handle.header().pad_owner().get(pad) {
                    Some(255) => "none".to_string(),
                    Some(owner) => owner.to_string(),
                    None => "error:driver:no such pad".to_string(),
                }
            }
            "take" => {
                let row: usize = num(args, 0)?;
                if !host.draws.contains_key(&row) {
                    let block = taken!(host.handle.bot_blocks(row));
                    host.draws.insert(row, taken!(block.draw_reader()));
                }
                let reader = host.draws.get_mut(&row).expect("made above");
                match reader.take() {
                    Ok(None) => "none".to_string(),
                    Ok(Some(list)) => format!("list:{}", list.items.len()),
                    Err(e) => err(e.check()),
                }
            }
            "drain" => {
                let row: usize = num(args, 0)?;
                if !host.queues.contains_key(&row) {
                    let block = taken!(host.handle.client_blocks(row));
                    host.queues.insert(row, taken!(block.log_queue_reader()));
                }
                let reader = host.queues.get_mut(&row).expect("made above");
                let mut texts = Vec::new();
                let mut failed = None;
                // Bounded: a queue of 16 KiB holds at most a few hundred entries.
                for _ in 0..10_000 {
                    match reader.pop() {
                        Ok(Some(e)) => texts.push(String::from_utf8_lossy(&e.text).into_owned()),
                        Ok(None) => break,
                        Err(e) => {
                            failed = Some(e.check());
                            break;
                        }
                    }
                }
                match (texts.is_empty(), failed) {
                    (true, None) => "empty".to_string(),
                    (true, Some(e)) => err(e),
                    (false, None) => format!("entries:{}", texts.join(",")),
                    (false, Some(e)) => format!("entries:{};error:{e}", texts.join(",")),
                }
            }
            "serve" => {
                let row: usize = num(args, 0)?;
                let text = args.get(1).copied().unwrap_or("");
                let block = taken!(host.handle.client_blocks(row));
                let server: MailboxServer<'static> = taken!(block.mailbox_server());
                let mut request = String::new();
                match server.serve(|req| {
                    request = String::from_utf8_lossy(req).into_owned();
                    (CommandStatus::OK, text.as_bytes().to_vec())
                }) {
                    Ok(Some(_)) => format!("served:{request}"),
                    Ok(None) => "none".to_string(),
                    Err(e) => err(e.check()),
                }
            }
            _ => return Err(format!("error:driver:no host op {op}")),
        })
    }

    fn produce(&mut self, args: &[&str]) -> String {
        let mut geometry = Vec::new();
        for a in args {
            let Some((name, value)) = a.split_once('=') else {
                return format!("error:driver:geometry {a}");
            };
            let Ok(value) = value.parse::<u64>() else {
                return format!("error:driver:geometry {a}");
            };
            geometry.push((name, value));
        }
        let image = match Bridge::lay_out(&geometry, 1) {
            Ok(i) => i,
            Err(e) => return produce_error(&e),
        };
        match Bridge::produce(self.region, &image) {
            Ok(handle) => {
                self.host = Some(Host {
                    handle,
                    draws: HashMap::new(),
                    queues: HashMap::new(),
                    service: None,
                });
                "ok".to_string()
            }
            Err(e) => produce_error(&e),
        }
    }

    fn client(&mut self, actor: &str, op: &str, args: &[&str]) -> Result<String, String> {
        let region = self.region;
        let c = self.clients.entry(actor.to_string()).or_default();
        if op == "attach" {
            *c = ClientActor::default();
            return Ok(match Bridge::attach(region) {
                Ok(h) => {
                    c.handle = Some(h);
                    "ok".to_string()
                }
                Err(e) => err(e.check()),
            });
        }
        let handle = c
            .handle
            .clone()
            .ok_or_else(|| format!("error:driver:{actor} has not attached"))?;
        if op == "claim" {
            let row: usize = num(args, 0)?;
            let (claim, queue, draw, mailbox) = (None, None, None, None);
            (c.claim, c.queue, c.draw, c.mailbox) = (claim, queue, draw, mailbox);
            c.pad = None;
            return Ok(match handle.claim_client(row) {
                Ok(claim) => {
                    c.claim = Some(Box::leak(Box::new(claim)));
                    c.row = Some(row);
                    "ok".to_string()
                }
                Err(ClientRefused::Taken) => "taken".to_string(),
                Err(ClientRefused::NoRow) => "no_row".to_string(),
                Err(ClientRefused::Reloaded) => "reloaded".to_string(),
                Err(ClientRefused::HostExiting) => "host_exiting".to_string(),
            });
        }
        let row = c
            .row
            .ok_or_else(|| format!("error:driver:{actor} has not claimed"))?;
        let claimed = || format!("error:driver:{actor} has no claim");
        // A lost claim's writer op answers the standing before a writer is taken (the
        // handle's block accessors refuse a reloaded host by themselves). A writer once taken
        // is the default one, bound to the claim by the generated code (issue 46 item 3):
        // each write checks the claim's standing and is refused with it; the driver checks
        // nothing more.
        let taken = match op {
            "push" => c.queue.is_some(),
            "publish" => c.draw.is_some(),
            "request" | "command" | "poll" => c.mailbox.is_some(),
            "pad" => c.pad.is_some(),
            _ => true,
        };
        if !taken {
            match c.claim.ok_or_else(claimed)?.standing() {
                ClientStanding::Connected => {}
                lost => return Ok(standing(lost)),
            }
        }
        Ok(match op {
            "activate" => standing(c.claim.as_ref().ok_or_else(claimed)?.activate()),
            "pid" => {
                let pid: u32 = num(args, 0)?;
                match c.claim.as_ref().ok_or_else(claimed)?.row().set_pid(pid) {
                    Ok(()) => "ok".to_string(),
                    Err(_) => err("contended"),
                }
            }
            "standing" => standing(c.claim.as_ref().ok_or_else(claimed)?.standing()),
            "heartbeat" => {
                let ns: u64 = num(args, 0)?;
                match c.claim.as_ref().ok_or_else(claimed)?.heartbeat(ns) {
                    Ok(s) => standing(s),
                    Err(_) => err("contended"),
                }
            }
            "set_waiting" => {
                let waiting: u32 = num(args, 0)?;
                match c
                    .claim
                    .as_ref()
                    .ok_or_else(claimed)?
                    .set_waiting(waiting != 0)
                {
                    Ok(s) => standing(s),
                    Err(_) => err("contended"),
                }
            }
            "close" => match c.claim.as_ref().ok_or_else(claimed)?.close() {
                ClientStanding::Connected => "closed".to_string(),
                s => standing(s),
            },
            "bind" | "unbind" => {
                let pad: usize = num(args, 0)?;
                let claim = c.claim.as_ref().ok_or_else(claimed)?;
                let done = if op == "bind" {
                    claim.bind(pad)
                } else {
                    claim.unbind(pad)
                };
                match done {
                    Ok(()) => "ok".to_string(),
                    Err(ClientPadRefused::Held(255)) => "held:none".to_string(),
                    Err(ClientPadRefused::Held(n)) => format!("held:{n}"),
                    Err(ClientPadRefused::NoPad) => "no_pad".to_string(),
                    Err(ClientPadRefused::Lost(s)) => standing(s),
                    Err(ClientPadRefused::Contended) => "contended".to_string(),
                }
            }
            "push" => {
                let text = args.first().copied().unwrap_or("");
                if c.queue.is_none() {
                    let block = taken!(handle.client_blocks(row));
                    let claim = c.claim.ok_or_else(claimed)?;
                    c.queue = Some(taken!(block.log_queue_writer(claim)));
                }
                let bound = c.queue.as_mut().expect("taken above");
                match bound.write(|w| w.push(&LogEntry::new_zeroed(), b"", text.as_bytes())) {
                    Err(lost) => standing(lost),
                    Ok(Ok(false)) => "ok".to_string(),
                    Ok(Ok(true)) => "dropped".to_string(),
                    Ok(Err(e)) => err(e.check()),
                }
            }
            "publish" => {
                let n: usize = num(args, 0)?;
                if c.draw.is_none() {
                    let block = taken!(handle.bot_blocks(row));
                    let claim = c.claim.ok_or_else(claimed)?;
                    c.draw = Some(taken!(block.draw_writer(claim)));
                }
                let bound = c.draw.as_mut().expect("taken above");
                match bound.write(|w| {
                    for _ in 0..n {
                        w.push(&DrawCmd::new_zeroed(), b"");
                    }
                    w.publish(&DrawListHeader::new_zeroed())
                }) {
                    Err(lost) => standing(lost),
                    Ok(Ok(_)) => "ok".to_string(),
                    Ok(Err(e)) => err(e.check()),
                }
            }
            "request" | "command" | "poll" => {
                if c.mailbox.is_none() {
                    let block = taken!(handle.client_blocks(row));
                    let claim = c.claim.ok_or_else(claimed)?;
                    c.mailbox = Some(taken!(block.mailbox_client(claim)));
                }
                let bound = c.mailbox.as_mut().expect("taken above");
                if op == "command" {
                    // The commands' event: the request, then the event set. The setter comes
                    // from the handle's block, which a reloaded host refuses: a lost claim
                    // answers its standing first (the bound write would refuse it too).
                    let text = args.first().copied().unwrap_or("");
                    match c.claim.ok_or_else(claimed)?.standing() {
                        ClientStanding::Connected => {}
                        lost => return Ok(standing(lost)),
                    }
                    let setter = taken!(handle.client_blocks(row))
                        .mailbox()
                        .ok_or("error:driver:no mailbox")?
                        .commands_setter()
                        .map_err(|e| format!("error:driver:{e}"))?;
                    match bound.write(|m| m.request_commands(&setter, text.as_bytes())) {
                        Err(lost) => standing(lost),
                        Ok(Ok(_)) => "ok".to_string(),
                        Ok(Err(e)) => err(e.check()),
                    }
                } else if op == "request" {
                    let text = args.first().copied().unwrap_or("");
                    match bound.write(|m| m.request(text.as_bytes())) {
                        Err(lost) => standing(lost),
                        Ok(Ok(_)) => "ok".to_string(),
                        Ok(Err(e)) => err(e.check()),
                    }
                } else {
                    match bound.write(|m| m.poll_response()) {
                        Err(lost) => standing(lost),
                        Ok(Ok(None)) => "none".to_string(),
                        Ok(Ok(Some(r))) => {
                            format!("answer:{}:{}", r.status.0, String::from_utf8_lossy(&r.text))
                        }
                        Ok(Err(e)) => err(e.check()),
                    }
                }
            }
            "wait_tick" => {
                let (last, ms): (u64, u64) = (num(args, 0)?, num(args, 1)?);
                let claim = c.claim.ok_or_else(claimed)?;
                let sleeper = claim
                    .tick_sleeper()
                    .map_err(|e| format!("error:driver:{e}"))?;
                let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
                match claim.wait_tick(&sleeper, last, deadline) {
                    Ok(w) if w.claim_lost => standing(claim.standing()),
                    Ok(w) => match w.seq {
                        Some(seq) if seq != last => format!("seq={seq}"),
                        _ => "timeout".to_string(),
                    },
                    Err(_) => err("contended"),
                }
            }
            // `pad`: the bound write; `answer`: lockstep's, the bound write then the input
            // event set.
            "pad" | "answer" => {
                let tick: u64 = num(args, 0)?;
                if c.pad.is_none() {
                    let block = taken!(handle.client_blocks(row));
                    let Some(pad) = block.pad_input() else {
                        return Ok(err("absent"));
                    };
                    c.pad = Some(pad);
                }
                let pad = c.pad.as_ref().expect("taken above");
                let claim = c.claim.ok_or_else(claimed)?;
                let value = bridge_abi::PadInput {
                    for_tick: tick,
                    ..FromZeros::new_zeroed()
                };
                let written = if op == "pad" {
                    pad.write_pad_input(claim, &value)
                } else {
                    let setter = pad
                        .input_setter()
                        .map_err(|e| format!("error:driver:{e}"))?;
                    pad.answer_input(claim, &setter, &value)
                };
                match written {
                    Err(lost) => standing(lost),
                    Ok(Ok(())) => "ok".to_string(),
                    Ok(Err(_)) => err("contended"),
                }
            }
            _ => return Err(format!("error:driver:no client op {op}")),
        })
    }

    /// The place of a raw op: the mapping (`header`), a block (`SET/ROW`) or a block's region
    /// (`SET/ROW/REGION`), through the actor's own attached handle.
    fn place(&mut self, actor: &str, place: &str) -> Result<Option<Region<'static>>, String> {
        let key = (actor.to_string(), place.to_string());
        if let Some(r) = self.places.get(&key) {
            return Ok(*r);
        }
        let found = self.locate(actor, place)?;
        self.places.insert(key, found);
        Ok(found)
    }

    fn locate(&self, actor: &str, place: &str) -> Result<Option<Region<'static>>, String> {
        if place == "header" {
            return Ok(Some(self.region));
        }
        let handle = self
            .clients
            .get(actor)
            .and_then(|c| c.handle.clone())
            .or_else(|| self.host.as_ref().map(|h| h.handle.clone()))
            .ok_or_else(|| format!("error:driver:{actor} has no handle"))?;
        let parts: Vec<&str> = place.split('/').collect();
        let (set, row, region) = match parts.as_slice() {
            [set, row] => (*set, *row, None),
            [set, row, region] => (*set, *row, Some(*region)),
            _ => return Err(format!("error:driver:place {place}")),
        };
        let row: usize = row
            .parse()
            .map_err(|_| format!("error:driver:place {place}"))?;
        Ok(match set {
            "client_blocks" => {
                let Ok(Some(block)) = handle.client_blocks(row) else {
                    return Ok(None);
                };
                match region {
                    None => from_block_start(block.region(), block.table().base),
                    Some("log_queue") => block.log_queue().map(|v| v.region()),
                    Some("pad_input") => block.pad_input_region(),
                    Some("mailbox") => block.mailbox_region(),
                    Some(r) => return Err(format!("error:driver:no region {r}")),
                }
            }
            "bot_blocks" => {
                let Ok(Some(block)) = handle.bot_blocks(row) else {
                    return Ok(None);
                };
                match region {
                    None => from_block_start(block.region(), block.table().base),
                    Some("draw") => block.draw_region(),
                    Some("params") => block.params_region(),
                    Some("stats") => block.stats_region(),
                    Some(r) => return Err(format!("error:driver:no region {r}")),
                }
            }
            s => return Err(format!("error:driver:no block set {s}")),
        })
    }

    fn poke(&mut self, actor: &str, args: &[&str]) -> Result<String, String> {
        let place = args
            .first()
            .ok_or("error:driver:poke PLACE OFFSET WIDTH VALUE")?;
        let (at, width, value): (usize, usize, u64) = (num(args, 1)?, num(args, 2)?, num(args, 3)?);
        let Some(region) = self.place(actor, place)? else {
            return Ok(err("absent"));
        };
        if at.checked_add(width).is_none_or(|end| end > region.len()) {
            return Ok(err("absent"));
        }
        // A word narrower than the runtime's is stored by compare-and-swap of the word holding
        // it, which a peer could contend; here nothing else runs.
        let stored = match width {
            1 => region.try_store::<u8>(at, value as u8, Release),
            2 => region.try_store::<u16>(at, value as u16, Release),
            4 => region.try_store::<u32>(at, value as u32, Release),
            8 => {
                region.store::<u64>(at, value, Release);
                Ok(())
            }
            w => return Err(format!("error:driver:width {w}")),
        };
        Ok(match stored {
            Ok(()) => "ok".to_string(),
            Err(_) => err("contended"),
        })
    }

    fn peek(&mut self, actor: &str, args: &[&str]) -> Result<String, String> {
        let place = args.first().ok_or("error:driver:peek PLACE OFFSET WIDTH")?;
        let (at, width): (usize, usize) = (num(args, 1)?, num(args, 2)?);
        let Some(region) = self.place(actor, place)? else {
            return Ok(err("absent"));
        };
        if at.checked_add(width).is_none_or(|end| end > region.len()) {
            return Ok(err("absent"));
        }
        Ok(match width {
            1 => region.load::<u8>(at, Acquire).to_string(),
            2 => region.load::<u16>(at, Acquire).to_string(),
            4 => region.load::<u32>(at, Acquire).to_string(),
            8 => region.load::<u64>(at, Acquire).to_string(),
            w => return Err(format!("error:driver:width {w}")),
        })
    }
}

/// The rows of `mask` (`0,2`), or `-` for none.
fn rows_text(mask: u64) -> String {
    let rows: Vec<String> = (0..Client::ROWS)
        .filter(|r| mask & (1 << r) != 0)
        .map(|r| r.to_string())
        .collect();
    if rows.is_empty() {
        "-".to_string()
    } else {
        rows.join(",")
    }
}

/// `host lockstep TICK TIMEOUT_MS`: the host's wait for the tick's answers
/// (`ClientHost::wait_input`), its answered and missed rows, and whether it ended in time.
/// The commands' event: one round of the host's wait over its active rows' mailboxes, at
/// most `timeout_ms` (`ClientHost::wait_commands`).
fn wait_commands(host: &Host, sessions: &ClientHost<'static>, timeout_ms: u64) -> String {
    let header = host.handle.header();
    let rows = (0..Client::ROWS)
        .filter(|&row| {
            header
                .clients(row)
                .is_some_and(|r| r.state() == bridge_abi::ClientState::ACTIVE)
        })
        .fold(0u64, |m, row| m | 1 << row);
    let start = std::time::Instant::now();
    let timeout = std::time::Duration::from_millis(timeout_ms);
    let found = sessions.wait_commands(rows, start + timeout, |row| {
        host.handle
            .client_blocks(row)
            .ok()
            .flatten()
            .and_then(|b| b.mailbox())
    });
    let elapsed = start.elapsed();
    let waited = if elapsed > timeout + std::time::Duration::from_secs(1) {
        "late"
    } else if found == 0 && elapsed + std::time::Duration::from_millis(1) < timeout {
        "early"
    } else {
        "ok"
    };
    format!("rows={} waited={waited}", rows_text(found))
}

fn lockstep(
    host: &Host,
    sessions: &ClientHost<'static>,
    tick: u64,
    timeout_ms: u64,
    misses: &mut [u64],
) -> String {
    let pads: Vec<_> = (0..Client::ROWS)
        .map(|row| {
            host.handle
                .client_blocks(row)
                .ok()
                .flatten()
                .and_then(|b| b.pad_input())
        })
        .collect();
    let mut last = vec![<bridge_abi::PadInput as FromZeros>::new_zeroed(); Client::ROWS];
    let start = std::time::Instant::now();
    let timeout = std::time::Duration::from_millis(timeout_ms);
    let tally = sessions.wait_input(
        tick,
        start + timeout,
        |row| pads.get(row).copied().flatten(),
        &mut last,
        misses,
    );
    let elapsed = start.elapsed();
    let waited = if elapsed > timeout + std::time::Duration::from_secs(1) {
        "late"
    } else if tally.missed != 0 && elapsed + std::time::Duration::from_millis(1) < timeout {
        "early"
    } else {
        "ok"
    };
    format!(
        "answered={} missed={} waited={waited}",
        rows_text(tally.answered),
        rows_text(tally.missed)
    )
}
