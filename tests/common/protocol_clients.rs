//! The client's side of every protocol of client row 0, played by Rust threads with the
//! abi-runtime primitives over a mapped bridge file, against a host in another process
//! (`tests/python_protocols/host.py`): a log-queue writer, a slow log-ring reader, a
//! mailbox client, a draw-list writer and a session on row 0. Each counts what it did.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::time::{Duration, Instant};

use bridge_abi::live::Bridge;
use bridge_abi::runtime::Mapping;
use bridge_abi::runtime::broadcast_ring::{Read, RingReader};
use bridge_abi::runtime::byte_queue::{ByteQueue, Pushed};
use bridge_abi::runtime::claim::{Claim, Standing};
use bridge_abi::runtime::mailbox::Mailbox;
use bridge_abi::runtime::triple_buffer::TripleWriter;

use super::protocol_host::{CLAIM, MAILBOX, QUEUE, RING};

/// What the clients counted.
#[derive(Debug, Default)]
pub struct ClientCounts {
    pub pushed: u64,
    pub dropped: u64,
    pub ring_read: u64,
    pub ring_gaps: u64,
    pub ring_missed: u64,
    pub ring_corrupt: u64,
    pub ring_span: u64,
    pub requests: u64,
    pub wrong: u64,
    pub waits: u64,
    pub published: u64,
    pub claims: u64,
    pub disconnects: u64,
    pub reloads: u64,
}

/// A log entry: source `rust`, text `text`.
fn queue_entry(text: &str) -> Vec<u8> {
    let size = (40 + 4 + text.len()).div_ceil(8) * 8;
    let mut e = vec![0u8; size];
    e[..2].copy_from_slice(&(size as u16).to_le_bytes());
    e[4] = 4;
    e[6..8].copy_from_slice(&(text.len() as u16).to_le_bytes());
    e[40..44].copy_from_slice(b"rust");
    e[44..44 + text.len()].copy_from_slice(text.as_bytes());
    e
}

/// Runs the clients for `millis` (the session until `host_done`); their counts.
pub fn run_clients(map: &Mapping, millis: u64, host_done: &AtomicBool) -> ClientCounts {
    let bridge = Bridge::attach(map.region().expect("a region")).expect("attach");
    let block = bridge.client_blocks(0).expect("a block").expect("present");
    let bot = bridge.bot_blocks(0).expect("a block").expect("present");
    let header = bridge.header();
    let until = Instant::now() + Duration::from_millis(millis);
    let mut c = ClientCounts::default();
    std::thread::scope(|s| {
        let queue = s.spawn(|| {
            let q = ByteQueue::new(block.log_queue_region().expect("a queue"), QUEUE).expect("q");
            let (mut n, mut d) = (0u64, 0u64);
            while Instant::now() < until {
                if q.push(&queue_entry(&n.to_string())).expect("push") == Pushed::Dropped {
                    d += 1;
                }
                n += 1;
            }
            while q.push(&queue_entry("end")).expect("push") == Pushed::Dropped {
                std::thread::sleep(Duration::from_millis(1));
            }
            (n, d)
        });
        let ring = s.spawn(|| {
            let region = bridge.log_ring_region().expect("a ring");
            let mut r = RingReader::join_latest(region, RING).expect("join");
            let (mut read, mut gaps, mut missed, mut corrupt) = (0u64, 0u64, 0u64, 0u64);
            let (mut first, mut last, mut lapped) = (None, 0u64, false);
            let mut out = Vec::new();
            while lapped || Instant::now() < until {
                match r.read_next(&mut out).expect("an honest writer") {
                    Read::Empty => lapped = false,
                    Read::Lapped { missed: m } => {
                        lapped = true;
                        if first.is_some() {
                            gaps += 1;
                            missed += m;
                        }
                    }
                    Read::Entry(_) => {
                        lapped = false;
                        let seq = u64::from_le_bytes(out[16..24].try_into().unwrap());
                        let len = u16::from_le_bytes([out[6], out[7]]) as usize;
                        if out.get(40..40 + len) != Some(seq.to_string().as_bytes()) {
                            corrupt += 1;
                        }
                        first.get_or_insert(seq);
                        last = seq;
                        read += 1;
                        if read % 8 == 0 {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    }
                }
            }
            let span = first.map_or(0, |f| last - f + 1);
            (read, gaps, missed, corrupt, span)
        });
        let mailbox = s.spawn(|| {
            let m = Mailbox::new(block.mailbox_region().expect("a mailbox"), MAILBOX).expect("m");
            let (mut q, mut wrong, mut waits) = (0u64, 0u64, 0u64);
            while Instant::now() < until {
                let seq = m.request(format!("req {q}").as_bytes()).expect("request");
                let deadline = Instant::now() + Duration::from_secs(5);
                let answer = loop {
                    if let Some(a) = m.poll_response(seq).expect("an honest server") {
                        break a;
                    }
                    waits += 1;
                    assert!(Instant::now() < deadline, "no answer to request {q} in 5 s");
                    std::thread::yield_now();
                };
                let mut want = format!("ans {q}").into_bytes();
                want.extend(std::iter::repeat_n(b'x', (q % 50) as usize));
                wrong += u64::from(
                    answer.status != bridge_abi::CommandStatus::OK.0
                        || answer.text != want
                        || answer.cut(),
                );
                q += 1;
            }
            (q, wrong, waits)
        });
        let draw = s.spawn(|| {
            let region = bot.draw_region().expect("draw lists");
            let mut w = TripleWriter::new(region, 0);
            let buffer_size = region.load::<u32>(8, Relaxed) as usize;
            let max_commands = region.load::<u32>(12, Relaxed) as usize;
            let mut n = 0u64;
            while Instant::now() < until {
                n += 1;
                let list = 64 + w.own() * buffer_size;
                let count = 1 + (n % 7) as usize;
                let mut head = [0u8; 64];
                head[..4].copy_from_slice(&(n as u32).to_le_bytes());
                head[4..8].copy_from_slice(&(count as u32).to_le_bytes());
                head[8..12].copy_from_slice(&(8 * count as u32).to_le_bytes());
                head[24..32].copy_from_slice(&n.to_le_bytes());
                region.write_bytes(list, &head).unwrap();
                for k in 0..count {
                    let mut cmd = [0u8; 36];
                    cmd[4..8].copy_from_slice(&(n as u32).to_le_bytes());
                    cmd[28..32].copy_from_slice(&(8 * k as u32).to_le_bytes());
                    cmd[32..34].copy_from_slice(&8u16.to_le_bytes());
                    region.write_bytes(list + 64 + k * 36, &cmd).unwrap();
                    region
                        .write_bytes(list + 64 + max_commands * 36 + 8 * k, &n.to_le_bytes())
                        .unwrap();
                }
                w.publish().expect("an honest reader");
                std::thread::sleep(Duration::from_micros(50));
            }
            n
        });
        let session = s.spawn(|| {
            let row = header.clients(0).expect("row 0").region();
            let claim = || loop {
                let host_generation = header.host_generation();
                if let Some(c) = Claim::try_claim(row, CLAIM) {
                    c.activate();
                    break (c, host_generation);
                }
                std::thread::yield_now();
            };
            let (mut mine, mut host_generation) = claim();
            let (mut claims, mut disconnects, mut reloads) = (1u64, 0u64, 0u64);
            loop {
                let done = host_done.load(Acquire);
                if let Standing::Disconnected { .. } = mine.standing() {
                    if header.host_generation() != host_generation {
                        reloads += 1;
                    } else {
                        disconnects += 1;
                    }
                    if done {
                        break;
                    }
                    (mine, host_generation) = claim();
                    claims += 1;
                } else if done {
                    mine.close();
                    break;
                }
                std::thread::sleep(Duration::from_micros(100));
            }
            (claims, disconnects, reloads)
        });
        (c.pushed, c.dropped) = queue.join().expect("the queue writer");
        (
            c.ring_read,
            c.ring_gaps,
            c.ring_missed,
            c.ring_corrupt,
            c.ring_span,
        ) = ring.join().expect("the ring reader");
        (c.requests, c.wrong, c.waits) = mailbox.join().expect("the mailbox client");
        c.published = draw.join().expect("the draw writer");
        (c.claims, c.disconnects, c.reloads) = session.join().expect("the session");
    });
    c
}
