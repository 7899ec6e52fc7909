//! A small host of the protocol torture (tests/torture/PROTOCOLS.md), played with the
//! abi-runtime primitives directly on the regions of a bridge image that
//! `bridge_abi::live::Bridge::produce` wrote into a mapped file: it pops each client's log
//! queue, writes the log ring, serves each mailbox, takes each client's draw lists and frees
//! or reloads the clients' rows, while the client processes run; then it reports what it
//! counted. The layouts' numbers are the reference's (`generated/bridge.md`), written here
//! by hand, not taken from the generator.

use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::time::{Duration, Instant};

use bridge_abi::live::Bridge;
use bridge_abi::runtime::Mapping;
use bridge_abi::runtime::broadcast_ring::RingWriter;
use bridge_abi::runtime::byte_queue::{ByteQueue, Popped};
use bridge_abi::runtime::claim::{ClaimSpec, SharedWord, free};
use bridge_abi::runtime::mailbox::Mailbox;
use bridge_abi::runtime::triple_buffer::{INITIAL_STATE, TripleReader};

/// The log entry's, the queue's, the ring's and the mailbox's layouts: the peer test's.
pub use super::protocol_peer::{MAILBOX, QUEUE, RING};

/// The bridge's `client_entry`: state at 0 and generation at 4 (`client_state` values).
pub const CLAIM: ClaimSpec = ClaimSpec {
    state: 0,
    generation: 4,
    free: 0,
    claimed: 1,
    active: 2,
    closing: 3,
    word: Some(SharedWord {
        at: 0,
        state_low: true,
    }),
};

/// The mailbox's areas, which no constant sizes, and a small log ring: the host's choice.
pub const GEOMETRY: [(&str, u64); 3] = [
    ("mailbox.request_capacity", 2048),
    ("mailbox.response_capacity", 1984),
    // About 85 of the hosts' entries: a slow reader is lapped even when a loaded machine
    // slows the Python host's loop down to a few thousand turns a second.
    ("log_ring.capacity", 4096),
];

/// A bridge file at `dir/name`, laid out and produced by the Rust bindings (running), each
/// bot block's draw state at the exchange's initial state; its path and the mapping.
pub fn bridge_file(dir: &Path, name: &str) -> (PathBuf, Mapping) {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let image = Bridge::lay_out(&GEOMETRY, 1).expect("Rust lays the image out");
    let map = Mapping::create(&path, image.bytes.len()).expect("create the bridge file");
    let bridge = Bridge::produce(map.region().expect("a region"), &image).expect("produce");
    for row in 0..Bridge::CLIENT_BLOCKS_COUNT {
        let bot = bridge
            .bot_blocks(row)
            .expect("a bot block")
            .expect("present");
        let draw = bot.draw_region().expect("a draw region");
        draw.try_store::<u32>(0, INITIAL_STATE, Release).unwrap();
    }
    (path, map)
}

/// What the host counted for one client.
#[derive(Debug, Default, Clone)]
pub struct Counted {
    pub received: u64,
    pub queue_corrupt: u64,
    pub got_end: bool,
    pub served: u64,
    pub taken: u64,
    pub stale_or_torn: u64,
    pub last_taken: u64,
    pub disconnects: u64,
    pub reloads: u64,
}

/// One client's state in the host.
struct Client {
    row: usize,
    last_k: Option<u64>,
    last_seq: u64,
    reader: u32,
    /// The generation of the row at the host's last action on it.
    acted: Option<u32>,
    next_reload: bool,
    counted: Counted,
}

/// A log entry of the host's: text = the decimal `text`, source empty.
fn ring_entry(text: &str) -> Vec<u8> {
    let size = (40 + text.len()).div_ceil(8) * 8;
    let mut e = vec![0u8; size];
    e[..2].copy_from_slice(&(size as u16).to_le_bytes());
    e[6..8].copy_from_slice(&(text.len() as u16).to_le_bytes());
    e[40..40 + text.len()].copy_from_slice(text.as_bytes());
    e
}

/// Hosts the clients on `rows` of the bridge in `map` until every child exited; the
/// counts per client, and the ring entries written.
pub fn run_host(map: &Mapping, rows: &[usize], children: &mut [Child]) -> (Vec<Counted>, u64) {
    let region = map.region().expect("a region");
    let bridge = Bridge::attach(region).expect("attach");
    let header = bridge.header();
    let ring = RingWriter::new(bridge.log_ring_region().expect("a log ring"), RING)
        .expect("the ring's capacity");
    let blocks: Vec<_> = (rows.iter())
        .map(|&r| bridge.client_blocks(r).expect("a block").expect("present"))
        .collect();
    let bots: Vec<_> = (rows.iter())
        .map(|&r| bridge.bot_blocks(r).expect("a block").expect("present"))
        .collect();
    let queues: Vec<_> = (blocks.iter())
        .map(|b| ByteQueue::new(b.log_queue_region().expect("a queue"), QUEUE).expect("queue"))
        .collect();
    let mailboxes: Vec<_> = (blocks.iter())
        .map(|b| Mailbox::new(b.mailbox_region().expect("a mailbox"), MAILBOX).expect("mailbox"))
        .collect();
    let draws: Vec<_> = bots
        .iter()
        .map(|b| b.draw_region().expect("draw"))
        .collect();
    let mut readers: Vec<_> = draws.iter().map(|d| TripleReader::new(*d, 0)).collect();
    let mut clients: Vec<Client> = (rows.iter())
        .map(|&row| Client {
            row,
            last_k: None,
            last_seq: 0,
            reader: 2,
            acted: None,
            next_reload: false,
            counted: Counted::default(),
        })
        .collect();
    let row_region = |row: usize| header.clients(row).expect("a row").region();
    let mut out = Vec::new();
    let mut written = 0u64;
    let mut last_action = Instant::now();
    let mut running = vec![true; children.len()];
    let mut turn = 0u64;
    while running.iter().any(|&r| r) {
        turn += 1;
        for (i, c) in clients.iter_mut().enumerate() {
            // The queue, slowly: one entry every 64 turns, so that a fast writer drops.
            if turn % 64 == 0 && !c.counted.got_end {
                pop_one(&queues[i], c, &mut out);
            }
            if turn % 16 == 0 {
                let served = mailboxes[i]
                    .serve(answer)
                    .expect("an honest client's request");
                c.counted.served += u64::from(served.is_some());
            }
            if turn % 256 == 0 {
                take(&mut readers[i], draws[i], c);
            }
        }
        let seq = region_entries(&ring_region(&bridge));
        ring.push(&mut ring_entry(&seq.to_string()))
            .expect("the host's entry");
        written += 1;
        if last_action.elapsed() >= Duration::from_millis(20) {
            last_action = Instant::now();
            lifecycle(&header, &row_region, &mut clients);
        }
        for (k, child) in children.iter_mut().enumerate() {
            if running[k] && child.try_wait().expect("wait").is_some() {
                running[k] = false;
            }
        }
    }
    // What is left: the queue to its end, a final take, rows that closed.
    for (i, c) in clients.iter_mut().enumerate() {
        let until = Instant::now() + Duration::from_secs(5);
        while !c.counted.got_end && Instant::now() < until {
            pop_one(&queues[i], c, &mut out);
        }
        take(&mut readers[i], draws[i], c);
        let row = row_region(c.row);
        if row.load::<u32>(0, Acquire) == CLAIM.closing {
            free(row, CLAIM).unwrap();
        }
    }
    (clients.into_iter().map(|c| c.counted).collect(), written)
}

fn ring_region<'a>(bridge: &Bridge<'a>) -> bridge_abi::runtime::Region<'a> {
    bridge.log_ring_region().expect("a log ring")
}

fn region_entries(ring: &bridge_abi::runtime::Region<'_>) -> u64 {
    ring.load::<u64>(RING.entries, Relaxed)
}

/// `ans k` and k % 50 `x`, status ok, for `req k`.
fn answer(request: &[u8]) -> (u32, Vec<u8>) {
    let text = std::str::from_utf8(request).expect("UTF-8");
    let k: u64 = (text.strip_prefix("req ").and_then(|k| k.parse().ok())).expect("req k");
    let mut out = format!("ans {k}").into_bytes();
    out.extend(std::iter::repeat_n(b'x', (k % 50) as usize));
    (bridge_abi::CommandStatus::OK.0, out)
}

fn pop_one(
    queue: &ByteQueue<'_, bridge_abi::runtime::ReadWrite>,
    c: &mut Client,
    out: &mut Vec<u8>,
) {
    match queue.pop(out).expect("an honest client's queue") {
        Popped::Empty => {}
        Popped::Entry(_) => {
            let source_len = out[4] as usize;
            let text_len = u16::from_le_bytes([out[6], out[7]]) as usize;
            let source = &out[40..40 + source_len];
            let text = &out[40 + source_len..40 + source_len + text_len];
            if text == b"end" {
                c.counted.got_end = true;
                return;
            }
            let k = std::str::from_utf8(text)
                .ok()
                .and_then(|t| t.parse::<u64>().ok());
            match k {
                Some(k) if source == b"torture" && c.last_k.is_none_or(|last| k > last) => {
                    c.last_k = Some(k);
                    c.counted.received += 1;
                }
                _ => c.counted.queue_corrupt += 1,
            }
        }
    }
}

/// Takes the fresh list, if any, and checks it: seq past the last, 1 + seq % 7 commands of
/// colour seq, each pointing at 8 payload bytes holding seq.
fn take(
    reader: &mut TripleReader<'_, bridge_abi::runtime::ReadWrite>,
    draw: bridge_abi::runtime::Region<'_>,
    c: &mut Client,
) {
    let Some(index) = reader.take().expect("an honest client's state") else {
        return;
    };
    c.reader = index as u32;
    let buffer_size = draw.load::<u32>(8, Relaxed) as usize;
    let max_commands = draw.load::<u32>(12, Relaxed) as usize;
    let list = 64 + index * buffer_size;
    let mut head = [0u8; 64];
    draw.read_bytes(list, &mut head);
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let count = word(&head, 4) as usize;
    let for_tick = u64::from_le_bytes(head[24..32].try_into().unwrap());
    let mut whole = for_tick > c.last_seq && count == 1 + (for_tick % 7) as usize;
    if whole && count <= max_commands {
        let mut cmds = vec![0u8; count * 36];
        draw.read_bytes(list + 64, &mut cmds);
        let payload_at = list + 64 + max_commands * 36;
        for cmd in cmds.chunks(36) {
            let (off, len) = (
                word(cmd, 28) as usize,
                u16::from_le_bytes([cmd[32], cmd[33]]),
            );
            let mut bytes = [0u8; 8];
            if len == 8 && off + 8 <= 16384 {
                draw.read_bytes(payload_at + off, &mut bytes);
            }
            whole &= word(cmd, 4) == for_tick as u32 && bytes == for_tick.to_le_bytes();
        }
    }
    c.counted.taken += 1;
    if whole {
        c.last_seq = for_tick;
        c.counted.last_taken = for_tick;
    } else {
        c.counted.stale_or_torn += 1;
    }
}

/// Frees `row` if it is active (compare-and-swap: a row its client closed meanwhile is
/// left to close); whether it did.
fn free_active(row: bridge_abi::runtime::Region<'_>) -> bool {
    row.try_compare_exchange::<u32>(0, CLAIM.active, CLAIM.free) == Ok(Ok(CLAIM.active))
}

/// Every ~20 ms: for each active row whose generation changed since the host's last action
/// on it, alternately free it (a disconnect) or reload (bump host_generation and free every
/// active row); free rows that close.
fn lifecycle<'a>(
    header: &bridge_abi::live::BridgeHeader<'a>,
    row_region: &dyn Fn(usize) -> bridge_abi::runtime::Region<'a>,
    clients: &mut [Client],
) {
    for i in 0..clients.len() {
        let row = row_region(clients[i].row);
        let state = row.load::<u32>(0, Acquire);
        let generation = row.load::<u32>(4, Acquire);
        if state == CLAIM.closing {
            free(row, CLAIM).unwrap();
            continue;
        }
        if state != CLAIM.active || clients[i].acted == Some(generation) {
            continue;
        }
        if clients[i].next_reload {
            header
                .set_host_generation(header.host_generation().wrapping_add(1))
                .unwrap();
            for c in clients.iter_mut() {
                let other = row_region(c.row);
                let generation = other.load::<u32>(4, Acquire);
                if free_active(other) {
                    c.acted = Some(generation);
                    c.counted.reloads += 1;
                }
            }
        } else if free_active(row) {
            clients[i].acted = Some(generation);
            clients[i].counted.disconnects += 1;
        }
        clients[i].next_reload = !clients[i].next_reload;
    }
}
