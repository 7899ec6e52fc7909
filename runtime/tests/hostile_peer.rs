//! Hostile peers: every reader of the shared-memory primitives (the byte queue's host-side
//! pop, the broadcast ring's client-side `read_next`, the mailbox's client-side
//! `poll_response` and server-side `serve`, the triple buffer's `take` and `publish`) run
//! against a thread that stores random words (a seeded xorshift, the seed printed) into the
//! header and the area while it reads (and between its calls): never a panic or a hang,
//! every error one of the reader's named kinds, no output longer than its area, errors
//! observed, and the count of each outcome printed (`--nocapture`); then one deterministic
//! case for each named error a broken peer causes, and the regression cases of the bugs
//! this found (an unaligned position read past the region; an entry shorter than its `seq`).
//!
//! `HOSTILE_PEER_SEED=<n or 0xN>` replaces every race's seed. Under Miri the races make
//! 150 reader calls each instead of 40,000.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering::{Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::thread;
use std::time::{Duration, Instant};

use abi_runtime::SharedBuf;

use abi_runtime::broadcast_ring::{Read, RingError, RingReader, RingSpec, RingWriter};
use abi_runtime::byte_queue::{ByteQueue, EntryFormat, Popped, QueueError};
use abi_runtime::mailbox::{Mailbox, MailboxError};
use abi_runtime::triple_buffer::{ExchangeError, FRESH, INITIAL_STATE, TripleReader, TripleWriter};

// ---------------------------------------------------------------------------------------
// The bridge's layouts.

use crate::bridge_specs;
use bridge_specs::{LOG_ENTRY, MAILBOX, QUEUE, RING};

/// The area of the queue and the ring, and each mailbox area, in the races.
const AREA: u64 = 256;
const REQUEST: u32 = 32;
const RESPONSE: u32 = 32;

/// Reader calls per race: small under Miri, which runs each atomic access slowly.
const ROUNDS: usize = if cfg!(miri) { 150 } else { 40_000 };

fn area_buf(capacity: u64) -> SharedBuf {
    let buf = SharedBuf::new(64 + capacity as usize);
    buf.region()
        .try_store::<u32>(16, capacity as u32, Relaxed)
        .unwrap();
    buf
}

fn mailbox_buf() -> SharedBuf {
    let buf = SharedBuf::new(64 + (REQUEST + RESPONSE) as usize);
    buf.region().try_store::<u32>(24, REQUEST, Relaxed).unwrap();
    buf.region()
        .try_store::<u32>(28, RESPONSE, Relaxed)
        .unwrap();
    buf
}

/// A log entry of `size` bytes (a record) whose `text_len` says `text_len`.
fn log_entry(size: usize, text_len: u16) -> Vec<u8> {
    let mut e = vec![0u8; size];
    e[..2].copy_from_slice(&(size as u16).to_le_bytes());
    e[6..8].copy_from_slice(&text_len.to_le_bytes());
    for (i, b) in e.iter_mut().enumerate().skip(40) {
        *b = b'a' + (i % 26) as u8;
    }
    e
}

// ---------------------------------------------------------------------------------------
// The hostile peer.

/// Marsaglia's xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The race's seed: `default`, or `HOSTILE_PEER_SEED`.
fn seed(default: u64) -> u64 {
    let Ok(text) = std::env::var("HOSTILE_PEER_SEED") else {
        return default;
    };
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.unwrap_or_else(|_| panic!("HOSTILE_PEER_SEED={text} is not a number"))
}

/// A position a hostile peer stores, following `base`: plausible (up to a capacity ahead,
/// a multiple of 8) 80% of the time, else running backwards, jumping past the capacity,
/// unaligned, or anything at all.
fn position(rng: &mut Rng, base: u64, capacity: u64) -> u64 {
    match rng.below(20) {
        0 => rng.next(),
        1 => base.wrapping_sub(8 * (1 + rng.below(4))),
        2 => base.wrapping_add(capacity + 8 * (1 + rng.below(4))),
        3 => base.wrapping_add(rng.below(capacity)),
        _ => (base & !7).wrapping_add(8 * rng.below(capacity / 8 + 1)),
    }
}

/// A position behind `ahead`: plausible (up to a capacity behind, a multiple of 8) 80% of
/// the time, else past `ahead`, more than a capacity behind, unaligned, or anything at all.
fn position_behind(rng: &mut Rng, ahead: u64, capacity: u64) -> u64 {
    match rng.below(20) {
        0 => rng.next(),
        1 => ahead.wrapping_add(8 * (1 + rng.below(4))),
        2 => ahead.wrapping_sub(capacity + 8 * (1 + rng.below(4))),
        3 => ahead.wrapping_sub(rng.below(capacity)),
        _ => (ahead & !7).wrapping_sub(8 * rng.below(capacity / 8 + 1)),
    }
}

/// The first word of a log entry as a hostile peer writes it: a size that is 0, unaligned,
/// anything, or plausible; a record, padding or an unknown kind; and a `text_len` (bytes 6
/// and 7) that is anything, mostly past the entry.
fn entry_head(rng: &mut Rng, capacity: u64) -> u64 {
    let size = match rng.below(8) {
        0 => 0,
        1 => rng.below(capacity),
        2 => rng.next() & 0xffff,
        _ => 40 + 8 * rng.below((capacity - 40) / 8 + 1),
    };
    let kind = match rng.below(8) {
        0 => 1,
        1 => rng.below(256),
        _ => 0,
    };
    let text_len = rng.next() & 0xffff;
    size | kind << 16 | rng.below(1 << 24) << 24 | text_len << 48
}

/// A capacity word as a hostile peer writes it: mostly `good`, else 0, unaligned, past the
/// region or anything. The low 32 bits are the field.
fn capacity_word(rng: &mut Rng, good: u64) -> u64 {
    match rng.below(8) {
        0 => 0,
        1 => good - 4,
        2 => good + 8,
        3 => rng.next(),
        _ => good | rng.next() << 32,
    }
}

/// A `u32` length a hostile peer writes: within `capacity` or a little past it, or anything.
fn length(rng: &mut Rng, capacity: u32) -> u64 {
    if rng.below(8) == 0 {
        rng.next() & 0xffff_ffff
    } else {
        rng.below(u64::from(capacity) + 8)
    }
}

/// Two `u32` fields that share a word, the first at the lower address.
fn pair(low: u64, high: u64) -> u64 {
    (low & 0xffff_ffff) | high << 32
}

/// The offset of a random word from `from` to `to` (both multiples of 8).
fn word_in(rng: &mut Rng, from: usize, to: usize) -> usize {
    from + 8 * rng.below(((to - from) / 8) as u64) as usize
}

/// The offset of the area word that holds area position `pos` (an entry's first word).
fn area_word(pos: u64) -> usize {
    64 + (pos % AREA / 8 * 8) as usize
}

/// Each outcome's count, by name, and the slowest reader call.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<&'static str, u64>,
    slowest: Duration,
}

impl Tally {
    fn add(&mut self, name: &'static str) {
        *self.counts.entry(name).or_default() += 1;
    }

    /// Counts an error's name, which must be one of `allowed`.
    fn error(&mut self, name: &'static str, allowed: &[&str]) {
        assert!(
            allowed.contains(&name),
            "error {name} is not one of this reader's named errors {allowed:?}"
        );
        self.add(name);
    }

    fn get(&self, name: &str) -> u64 {
        self.counts.get(name).copied().unwrap_or(0)
    }

    fn errors(&self, names: &[&str]) -> u64 {
        names.iter().map(|n| self.get(n)).sum()
    }

    /// Calls `f`, and keeps its time if it is the slowest.
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let value = f();
        self.slowest = self.slowest.max(start.elapsed());
        value
    }

    /// Asserts that each of `names` was counted (not under Miri, whose runs are short).
    fn assert_seen(&self, names: &[&str]) {
        if cfg!(miri) {
            return;
        }
        for name in names {
            assert!(self.get(name) > 0, "no {name} in {:?}", self.counts);
        }
    }
}

/// Sets the flag when dropped: the hostile thread stops even when the reader panics.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// Runs `read` [`ROUNDS`] times on this thread while another thread stores the words
/// `hostile` makes (an offset and a whole `u64`, stored with release) into `buf`, from
/// before the first call until after the last. The same peer also stores 0 to 2 words
/// between calls, from this thread: on a machine with few cores the two threads may take
/// turns rather than run together, and the reader still sees a new state each call.
/// Prints and returns the tally.
fn race(
    name: &'static str,
    buf: &SharedBuf,
    seed: u64,
    hostile: impl Fn(&mut Rng) -> (usize, u64) + Sync,
    mut read: impl FnMut(&mut Rng, &mut Tally),
) -> Tally {
    eprintln!("hostile {name}: seed {seed:#x}");
    let _deadline = Deadline::start(name);
    let region = buf.region();
    let stop = AtomicBool::new(false);
    let racing = AtomicU64::new(0);
    let mut between = 0u64;
    let mut tally = Tally::default();
    thread::scope(|s| {
        s.spawn(|| {
            let mut rng = Rng::new(seed);
            while !stop.load(Relaxed) {
                let (offset, value) = hostile(&mut rng);
                region.store::<u64>(offset, value, Release);
                racing.fetch_add(1, Relaxed);
            }
        });
        let _stop = StopOnDrop(&stop);
        while racing.load(Relaxed) == 0 {
            thread::yield_now();
        }
        let mut peer = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
        let mut rng = Rng::new(seed.rotate_left(32) ^ 0x2545_f491_4f6c_dd1d);
        for _ in 0..ROUNDS {
            for _ in 0..peer.below(3) {
                let (offset, value) = hostile(&mut peer);
                region.store::<u64>(offset, value, Release);
                between += 1;
            }
            read(&mut rng, &mut tally);
        }
    });
    let racing = racing.load(Relaxed);
    let counts: Vec<String> = tally
        .counts
        .iter()
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    eprintln!(
        "hostile {name}: {ROUNDS} rounds, {racing} hostile stores racing and {between} between \
         calls, slowest call {:?}: {}",
        tally.slowest,
        counts.join(", ")
    );
    assert!(racing > 0, "the hostile thread must have written");
    tally
}

/// A deadline for a whole race: every reader call's loops are bounded, so a race that has
/// not ended after `DEADLINE` is a hang, and the process exits failing (naming the race)
/// rather than leaving CI to wait. Not a timing claim: the slowest call is printed, never
/// judged (bench/README.md measures speed).
struct Deadline(std::sync::Arc<AtomicBool>);

/// Far past any honest race, even under Miri on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(900);

impl Deadline {
    fn start(name: &'static str) -> Deadline {
        let done = std::sync::Arc::new(AtomicBool::new(false));
        if cfg!(miri) {
            return Deadline(done); // Miri's races are short, and a sleeping thread slows them
        }
        let watched = done.clone();
        thread::spawn(move || {
            let start = Instant::now();
            while !watched.load(Relaxed) {
                if start.elapsed() > DEADLINE {
                    eprintln!("hostile {name}: no end after {DEADLINE:?}: a reader call hangs");
                    std::process::exit(101);
                }
                thread::sleep(Duration::from_millis(50));
            }
        });
        Deadline(done)
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

// ---------------------------------------------------------------------------------------
// The races.

#[test]
fn a_hostile_client_under_the_host_queue_reader() {
    const ERRORS: &[&str] = &["queue_capacity", "queue_positions", "queue_entry_size"];
    let buf = area_buf(AREA);
    let region = buf.region();
    let mut queue = ByteQueue::new(region, QUEUE).unwrap();
    let mut out = Vec::new();
    let tally = race(
        "queue pop",
        &buf,
        seed(0x5151_0001),
        |rng| {
            let read = region.load::<u64>(32, Relaxed);
            match rng.below(16) {
                0..=3 => (0, position(rng, read, AREA)),
                4 => (
                    32,
                    position_behind(rng, region.load::<u64>(0, Relaxed), AREA),
                ),
                5 => (16, capacity_word(rng, AREA)),
                6 => (word_in(rng, 0, 64), rng.next()),
                7..=10 => (area_word(read), entry_head(rng, AREA)),
                11..=13 => (word_in(rng, 64, 64 + AREA as usize), entry_head(rng, AREA)),
                _ => (word_in(rng, 64, 64 + AREA as usize), rng.next()),
            }
        },
        |rng, tally| {
            // Now and then, attach again: the capacity is read and checked then.
            if rng.below(16) == 0 {
                match ByteQueue::new(region, QUEUE) {
                    Ok(q) => queue = q,
                    Err(e) => tally.error(e.check(), ERRORS),
                }
            }
            match tally.time(|| queue.pop(&mut out)) {
                Ok(Popped::Entry(n)) => {
                    assert_eq!(n, out.len());
                    assert!(n as u64 <= queue.capacity() && n >= 40, "{n} bytes");
                    tally.add("entry");
                }
                Ok(Popped::Empty) => tally.add("empty"),
                Err(e) => tally.error(e.check(), ERRORS),
            }
        },
    );
    assert!(tally.errors(ERRORS) > 0, "a hostile peer must cause errors");
    tally.assert_seen(&[ERRORS, &["entry", "empty"]].concat());
}

#[test]
fn a_hostile_host_under_a_client_ring_reader() {
    const ERRORS: &[&str] = &["ring_capacity", "ring_positions", "ring_entry_size"];
    let buf = area_buf(AREA);
    let region = buf.region();
    let mut reader = RingReader::join_oldest(region, RING).unwrap();
    let mut out = Vec::new();
    let tally = race(
        "ring read_next",
        &buf,
        seed(0x5151_0002),
        |rng| {
            let write = region.load::<u64>(0, Relaxed);
            let tail = region.load::<u64>(8, Relaxed);
            match rng.below(16) {
                // A writer moves on: write_pos forward (or not), the tail after it.
                0..=2 => (0, position(rng, write, 48)),
                3..=4 => (8, position_behind(rng, write, AREA)),
                5 => (16, capacity_word(rng, AREA)),
                6 => (24, rng.below(1 << 12)),
                7 => (word_in(rng, 0, 64), rng.next()),
                8..=10 => (area_word(tail), entry_head(rng, AREA)),
                11..=13 => (word_in(rng, 64, 64 + AREA as usize), entry_head(rng, AREA)),
                _ => (word_in(rng, 64, 64 + AREA as usize), rng.below(1 << 12)),
            }
        },
        |rng, tally| {
            // Now and then, join again: the capacity (and the positions) are checked then.
            if rng.below(16) == 0 {
                let joined = if rng.below(2) == 0 {
                    RingReader::join_oldest(region, RING)
                } else {
                    RingReader::join_latest(region, RING)
                };
                match joined {
                    Ok(r) => reader = r,
                    Err(e) => tally.error(e.check(), ERRORS),
                }
            }
            match tally.time(|| reader.read_next(&mut out)) {
                Ok(Read::Entry(n)) => {
                    assert_eq!(n, out.len());
                    assert!(n as u64 <= AREA && n >= 40, "{n} bytes");
                    tally.add("entry");
                }
                Ok(Read::Lapped { .. }) => tally.add("lapped"),
                Ok(Read::Empty) => tally.add("empty"),
                Err(e) => tally.error(e.check(), ERRORS),
            }
        },
    );
    assert!(tally.errors(ERRORS) > 0, "a hostile peer must cause errors");
    tally.assert_seen(&[ERRORS, &["entry", "lapped", "empty"]].concat());
}

/// The capacities' word as a hostile peer writes it: mostly right, else one empty, both
/// past the region, or anything.
fn capacities(rng: &mut Rng) -> u64 {
    let (request, response) = (u64::from(REQUEST), u64::from(RESPONSE));
    match rng.below(8) {
        0 => pair(0, response),
        1 => pair(request, 0),
        2 => pair(request, response + 8),
        3 => rng.next(),
        _ => pair(request, response),
    }
}

#[test]
fn a_hostile_server_under_the_client_mailbox() {
    const ERRORS: &[&str] = &[
        "mailbox_capacity",
        "mailbox_length",
        "mailbox_busy",
        "mailbox_too_long",
    ];
    let buf = mailbox_buf();
    let region = buf.region();
    let mut mailbox = Mailbox::new(region, MAILBOX).unwrap();
    let tally = race(
        "mailbox poll_response",
        &buf,
        seed(0x5151_0003),
        |rng| {
            let request = u64::from(region.load::<u32>(0, Relaxed));
            match rng.below(8) {
                // The answer's number: the request's, the one before, or anything.
                0..=2 => {
                    let seq = match rng.below(6) {
                        0..=2 => request,
                        3 => request.wrapping_sub(1),
                        4 => rng.below(6),
                        _ => rng.next(),
                    };
                    (8, pair(seq, rng.next()))
                }
                3..=4 => (16, pair(length(rng, RESPONSE), length(rng, 2 * RESPONSE))),
                5 => (24, capacities(rng)),
                6 => (word_in(rng, 0, 64), rng.next()),
                _ => (
                    word_in(rng, 64, 64 + (REQUEST + RESPONSE) as usize),
                    rng.next(),
                ),
            }
        },
        |rng, tally| {
            if rng.below(16) == 0 {
                match Mailbox::new(region, MAILBOX) {
                    Ok(m) => mailbox = m,
                    Err(e) => tally.error(e.check(), ERRORS),
                }
            }
            // Now and then a request (its errors are the client's own: busy, too long).
            if rng.below(8) == 0 {
                let text = vec![b'r'; rng.below(u64::from(REQUEST) + 4) as usize];
                match tally.time(|| mailbox.request(&text)) {
                    Ok(_) => tally.add("requested"),
                    Err(e) => tally.error(e.check(), &ERRORS[2..]),
                }
            }
            let seq = if rng.below(4) == 0 {
                rng.below(6) as u32
            } else {
                region.load::<u32>(0, Relaxed)
            };
            match tally.time(|| mailbox.poll_response(seq)) {
                Ok(Some(r)) => {
                    assert_eq!(r.seq, seq);
                    assert!(r.text.len() <= RESPONSE as usize, "{} bytes", r.text.len());
                    assert!(r.total >= r.text.len() as u64);
                    tally.add("answer");
                }
                Ok(None) => tally.add("no_answer"),
                Err(e) => tally.error(e.check(), &ERRORS[1..2]),
            }
        },
    );
    assert!(
        tally.get("mailbox_length") > 0,
        "a hostile peer must cause errors"
    );
    tally.assert_seen(&[ERRORS, &["answer", "no_answer", "requested"]].concat());
}

#[test]
fn a_hostile_client_under_the_server_mailbox() {
    const ERRORS: &[&str] = &["mailbox_capacity", "mailbox_length", "mailbox_sequence"];
    let buf = mailbox_buf();
    let region = buf.region();
    let mut mailbox = Mailbox::new(region, MAILBOX).unwrap();
    let tally = race(
        "mailbox serve",
        &buf,
        seed(0x5151_0004),
        |rng| {
            let response = u64::from(region.load::<u32>(8, Relaxed));
            match rng.below(8) {
                // A request's number: the next, the one answered, jumping, or anything; and
                // its length.
                0..=3 => {
                    let seq = match rng.below(6) {
                        0..=2 => response.wrapping_add(1),
                        3 => response,
                        4 => response.wrapping_add(2 + rng.below(4)),
                        _ => rng.next(),
                    };
                    (0, pair(seq, length(rng, REQUEST)))
                }
                // The server's own counter, scribbled on.
                4 => (8, pair(response.wrapping_sub(rng.below(3)), rng.next())),
                5 => (24, capacities(rng)),
                6 => (word_in(rng, 0, 64), rng.next()),
                _ => (
                    word_in(rng, 64, 64 + (REQUEST + RESPONSE) as usize),
                    rng.next(),
                ),
            }
        },
        |rng, tally| {
            if rng.below(16) == 0 {
                match Mailbox::new(region, MAILBOX) {
                    Ok(m) => mailbox = m,
                    Err(e) => tally.error(e.check(), ERRORS),
                }
            }
            let answer = vec![b'a'; rng.below(2 * u64::from(RESPONSE)) as usize];
            let served = tally.time(|| {
                mailbox.serve(|text| {
                    assert!(text.len() < REQUEST as usize, "{} bytes", text.len());
                    (0, answer)
                })
            });
            match served {
                Ok(Some(_)) => tally.add("served"),
                Ok(None) => tally.add("idle"),
                Err(e) => tally.error(e.check(), &ERRORS[1..]),
            }
        },
    );
    assert!(
        tally.errors(&ERRORS[1..]) > 0,
        "a hostile peer must cause errors"
    );
    tally.assert_seen(&[ERRORS, &["served", "idle"]].concat());
}

#[test]
fn a_hostile_state_word_under_both_triple_buffer_sides() {
    /// The error a state the other side cannot have left gives.
    const BAD_STATE: &str = "exchange_state";
    let buf = SharedBuf::new(8 + 3 * 64);
    let region = buf.region();
    region.try_store::<u32>(0, INITIAL_STATE, Relaxed).unwrap();
    let mut writer = TripleWriter::new(region, 0);
    let mut reader = TripleReader::new(region, 0);
    let tally = race(
        "triple buffer take/publish",
        &buf,
        seed(0x5151_0005),
        |rng| match rng.below(8) {
            0 => (0, rng.next()),
            1 => (0, rng.next() & 0xffff_ffff),
            2 => (word_in(rng, 8, 8 + 3 * 64), rng.next()),
            _ => (0, rng.below(8)),
        },
        |rng, tally| {
            let bad = |found: u32, own: usize| {
                let index = (found & 3) as usize;
                assert!(found & !7 != 0 || index == 3 || index == own, "{found:#x}");
            };
            if rng.below(2) == 0 {
                match tally.time(|| writer.publish()) {
                    Ok(p) => {
                        assert!(p.next <= 2 && writer.own() == p.next);
                        tally.add(if p.overwrote {
                            "overwrote"
                        } else {
                            "published"
                        });
                    }
                    Err(e @ ExchangeError::State { found }) => {
                        bad(found, writer.own());
                        tally.add(e.check());
                    }
                    Err(e) => panic!("a peer writing the word at random is not contention: {e}"),
                }
            } else {
                match tally.time(|| reader.take()) {
                    Ok(Some(list)) => {
                        assert!(list <= 2 && reader.own() == list);
                        tally.add("taken");
                    }
                    Ok(None) => tally.add("nothing_new"),
                    Err(e @ ExchangeError::State { found }) => {
                        bad(found, reader.own());
                        tally.add(e.check());
                    }
                    Err(e) => panic!("a peer writing the word at random is not contention: {e}"),
                }
            }
        },
    );
    assert!(tally.get(BAD_STATE) > 0, "a hostile peer must cause errors");
    tally.assert_seen(&["published", "overwrote", "taken", "nothing_new"]);
}

// ---------------------------------------------------------------------------------------
// The byte queue's named errors, one broken value each (the host reads).

/// A queue whose client wrote `entry` at area offset `at` and set the positions.
fn queue_with(read: u64, write: u64, at: usize, entry: &[u8]) -> SharedBuf {
    let buf = area_buf(AREA);
    let r = buf.region();
    r.write_bytes(64 + at, entry).unwrap();
    r.store::<u64>(32, read, Relaxed);
    r.store::<u64>(0, write, Relaxed);
    buf
}

fn pop(buf: &SharedBuf) -> Result<Popped, QueueError> {
    ByteQueue::new(buf.region(), QUEUE)
        .unwrap()
        .pop(&mut Vec::new())
}

#[test]
fn queue_a_zero_entry_size() {
    let mut e = log_entry(40, 0);
    e[..2].fill(0);
    let buf = queue_with(0, 40, 0, &e);
    let err = pop(&buf).unwrap_err();
    assert_eq!(err, QueueError::EntrySize { at: 0, size: 0 });
    assert_eq!(err.check(), "queue_entry_size");
    assert_eq!(buf.region().load::<u64>(32, Relaxed), 0, "nothing consumed");
}

#[test]
fn queue_an_unaligned_entry_size() {
    let mut e = log_entry(48, 0);
    e[..2].copy_from_slice(&44u16.to_le_bytes());
    let err = pop(&queue_with(0, 48, 0, &e)).unwrap_err();
    assert_eq!(err, QueueError::EntrySize { at: 0, size: 44 });
    assert_eq!(err.check(), "queue_entry_size");
}

#[test]
fn queue_an_entry_size_past_the_written_bytes_or_the_area() {
    // 48 bytes said, 40 written.
    let mut e = log_entry(40, 0);
    e[..2].copy_from_slice(&48u16.to_le_bytes());
    let err = pop(&queue_with(0, 40, 0, &e)).unwrap_err();
    assert_eq!(err, QueueError::EntrySize { at: 0, size: 48 });
    // 48 bytes at 216 of a 256-byte area: past its end (the writer should have padded).
    let buf = area_buf(AREA);
    buf.region()
        .write_bytes(64 + 216, &48u16.to_le_bytes())
        .unwrap();
    buf.region().store::<u64>(32, 216, Relaxed);
    buf.region().store::<u64>(0, 264, Relaxed);
    assert_eq!(pop(&buf), Err(QueueError::EntrySize { at: 216, size: 48 }));
}

#[test]
fn queue_a_text_len_past_its_entry_is_handed_out_as_the_entry_size() {
    // The queue does not read `text_len`: it hands out the entry's `size` bytes, never more,
    // and whoever decodes the entry checks `text_len` against them.
    let buf = queue_with(0, 48, 0, &log_entry(48, 0xffff));
    let q = ByteQueue::new(buf.region(), QUEUE).unwrap();
    let mut out = Vec::new();
    assert_eq!(q.pop(&mut out), Ok(Popped::Entry(48)));
    assert_eq!(out, log_entry(48, 0xffff));
}

#[test]
fn queue_a_write_pos_running_backwards() {
    let err = pop(&queue_with(80, 40, 0, &[])).unwrap_err();
    assert_eq!(
        err,
        QueueError::Positions {
            read: 80,
            write: 40
        }
    );
    assert_eq!(err.check(), "queue_positions");
}

#[test]
fn queue_a_write_pos_jumping_past_the_capacity() {
    let err = pop(&queue_with(40, 40 + AREA + 8, 40, &log_entry(40, 0))).unwrap_err();
    assert_eq!(
        err,
        QueueError::Positions {
            read: 40,
            write: 40 + AREA + 8
        }
    );
    assert_eq!(err.check(), "queue_positions");
}

/// Regression: a `read_pos` that is not a multiple of 8, 3 bytes before the area's end,
/// made `pop` read the entry's first word past the region and panic.
#[test]
fn queue_an_unaligned_position() {
    for (read, write) in [(AREA - 3, AREA + 5), (0, 44), (13, 13)] {
        let err = pop(&queue_with(read, write, 0, &log_entry(40, 0))).unwrap_err();
        assert_eq!(err, QueueError::Positions { read, write });
        assert_eq!(err.check(), "queue_positions");
    }
    let buf = queue_with(AREA - 3, AREA + 5, 0, &[]);
    let q = ByteQueue::new(buf.region(), QUEUE).unwrap();
    assert_eq!(
        q.push(&log_entry(40, 0)).unwrap_err().check(),
        "queue_positions"
    );
}

#[test]
fn queue_a_capacity_zero_unaligned_or_past_the_region() {
    for capacity in [0u32, 252, 264, u32::MAX] {
        let buf = area_buf(AREA);
        buf.region()
            .try_store::<u32>(16, capacity, Relaxed)
            .unwrap();
        let err = ByteQueue::new(buf.region(), QUEUE).unwrap_err();
        assert_eq!(
            err,
            QueueError::Capacity {
                found: u64::from(capacity),
                room: AREA
            }
        );
        assert_eq!(err.check(), "queue_capacity");
    }
}

// ---------------------------------------------------------------------------------------
// The broadcast ring's named errors (a client reads what the host wrote).

/// A ring whose host wrote `entry` at area offset `at` and set the positions, read from
/// the tail.
fn ring_read(tail: u64, write: u64, at: usize, entry: &[u8]) -> Result<Read, RingError> {
    let buf = area_buf(AREA);
    let r = buf.region();
    r.write_bytes(64 + at, entry).unwrap();
    let mut reader = RingReader::join_oldest(r, RING).unwrap();
    r.store::<u64>(8, tail, Relaxed);
    r.store::<u64>(0, write, Relaxed);
    reader.read_next(&mut Vec::new())
}

#[test]
fn ring_a_zero_entry_size() {
    let mut e = log_entry(40, 0);
    e[..2].fill(0);
    let err = ring_read(0, 40, 0, &e).unwrap_err();
    assert_eq!(err, RingError::EntrySize { at: 0, size: 0 });
    assert_eq!(err.check(), "ring_entry_size");
}

#[test]
fn ring_an_unaligned_entry_size() {
    let mut e = log_entry(48, 0);
    e[..2].copy_from_slice(&44u16.to_le_bytes());
    let err = ring_read(0, 48, 0, &e).unwrap_err();
    assert_eq!(err, RingError::EntrySize { at: 0, size: 44 });
    assert_eq!(err.check(), "ring_entry_size");
}

#[test]
fn ring_an_entry_size_past_the_written_bytes() {
    let mut e = log_entry(40, 0);
    e[..2].copy_from_slice(&48u16.to_le_bytes());
    let err = ring_read(0, 40, 0, &e).unwrap_err();
    assert_eq!(err, RingError::EntrySize { at: 0, size: 48 });
}

#[test]
fn ring_a_text_len_past_its_entry_is_handed_out_as_the_entry_size() {
    let buf = area_buf(AREA);
    let w = RingWriter::new(buf.region(), RING).unwrap();
    let mut r = RingReader::join_oldest(buf.region(), RING).unwrap();
    let mut e = log_entry(48, 0xffff);
    w.push(&mut e).unwrap();
    let mut out = Vec::new();
    assert_eq!(r.read_next(&mut out), Ok(Read::Entry(48)));
    assert_eq!(out, e);
}

#[test]
fn ring_a_write_pos_running_backwards_behind_the_reader() {
    let buf = area_buf(AREA);
    let region = buf.region();
    let w = RingWriter::new(region, RING).unwrap();
    w.push(&mut log_entry(40, 0)).unwrap();
    w.push(&mut log_entry(40, 0)).unwrap();
    // The reader reads to 80; the host then says only 40 bytes were ever written.
    let mut r = RingReader::join_oldest(region, RING).unwrap();
    let mut out = Vec::new();
    while let Read::Entry(_) = r.read_next(&mut out).unwrap() {}
    region.store::<u64>(0, 40, Relaxed);
    let err = r.read_next(&mut out).unwrap_err();
    assert_eq!(err, RingError::Positions { tail: 0, write: 40 });
    assert_eq!(err.check(), "ring_positions");
    // Put right, the same reader goes on.
    region.store::<u64>(0, 80, Relaxed);
    assert_eq!(r.read_next(&mut out), Ok(Read::Empty));
}

#[test]
fn ring_a_tail_running_past_write_pos() {
    let err = ring_read(120, 40, 0, &log_entry(40, 0)).unwrap_err();
    assert_eq!(
        err,
        RingError::Positions {
            tail: 120,
            write: 40
        }
    );
    assert_eq!(err.check(), "ring_positions");
}

#[test]
fn ring_a_write_pos_jumping_past_the_capacity() {
    let write = AREA + 48;
    let err = ring_read(40, write, 40, &log_entry(40, 0)).unwrap_err();
    assert_eq!(err, RingError::Positions { tail: 40, write });
    assert_eq!(err.check(), "ring_positions");
}

/// Regression: a `tail_pos` (or a `write_pos` joined at) that is not a multiple of 8 put
/// the reader's cursor 3 bytes before the area's end, and `read_next` read the entry's first
/// word past the region and panicked.
#[test]
fn ring_an_unaligned_position() {
    let (tail, write) = (AREA - 3, AREA + 5);
    let err = ring_read(tail, write, 0, &[]).unwrap_err();
    assert_eq!(err, RingError::Positions { tail, write });
    assert_eq!(err.check(), "ring_positions");
    let buf = area_buf(AREA);
    let r = buf.region();
    r.store::<u64>(8, tail, Relaxed);
    r.store::<u64>(0, write, Relaxed);
    for joined in [
        RingReader::join_oldest(r, RING),
        RingReader::join_latest(r, RING),
    ] {
        assert_eq!(joined.unwrap_err(), RingError::Positions { tail, write });
    }
}

/// Regression: with a spec whose header is shorter than `seq` and its 8 bytes (the writer
/// refuses such entries), an 8-byte record made `read_next` slice its `seq` out of bounds
/// and panic.
#[test]
fn ring_an_entry_shorter_than_its_seq() {
    let spec = RingSpec {
        entry: EntryFormat {
            header: 8,
            ..LOG_ENTRY
        },
        ..RING
    };
    let buf = area_buf(AREA);
    let r = buf.region();
    let mut reader = RingReader::join_oldest(r, spec).unwrap();
    r.store::<u64>(0, 16, Relaxed);
    for size in [8u16, 16] {
        r.write_bytes(64, &size.to_le_bytes()).unwrap();
        let err = reader.read_next(&mut Vec::new()).unwrap_err();
        assert_eq!(
            err,
            RingError::EntrySize {
                at: 0,
                size: u64::from(size)
            }
        );
    }
}

#[test]
fn ring_a_capacity_zero_unaligned_or_past_the_region() {
    for capacity in [0u32, 252, 264] {
        let buf = area_buf(AREA);
        buf.region()
            .try_store::<u32>(16, capacity, Relaxed)
            .unwrap();
        let err = RingReader::join_oldest(buf.region(), RING).unwrap_err();
        assert_eq!(err.check(), "ring_capacity");
    }
}

// ---------------------------------------------------------------------------------------
// The mailbox's named errors (each side reads what the other wrote).

#[test]
fn mailbox_a_response_len_past_its_capacity() {
    let buf = mailbox_buf();
    let r = buf.region();
    let m = Mailbox::new(r, MAILBOX).unwrap();
    let seq = m.request(b"sim.pause").unwrap();
    r.try_store::<u32>(16, RESPONSE + 1, Relaxed).unwrap();
    r.try_store::<u32>(8, seq, Relaxed).unwrap();
    let err = m.poll_response(seq).unwrap_err();
    assert_eq!(
        err,
        MailboxError::Length {
            field: "response_len",
            found: u64::from(RESPONSE) + 1,
            limit: u64::from(RESPONSE)
        }
    );
    assert_eq!(err.check(), "mailbox_length");
    r.try_store::<u32>(16, u32::MAX, Relaxed).unwrap();
    assert_eq!(m.poll_response(seq).unwrap_err().check(), "mailbox_length");
}

#[test]
fn mailbox_a_request_len_past_its_capacity() {
    let buf = mailbox_buf();
    let r = buf.region();
    let m = Mailbox::new(r, MAILBOX).unwrap();
    r.try_store::<u32>(4, REQUEST, Relaxed).unwrap();
    r.try_store::<u32>(0, 1, Relaxed).unwrap();
    let err = m.serve(|_| unreachable!("nothing to serve")).unwrap_err();
    assert_eq!(
        err,
        MailboxError::Length {
            field: "request_len",
            found: u64::from(REQUEST),
            limit: u64::from(REQUEST) - 1
        }
    );
    assert_eq!(err.check(), "mailbox_length");
    assert_eq!(r.load::<u32>(8, Relaxed), 0, "nothing answered");
}

#[test]
fn mailbox_a_request_seq_jumping_ahead() {
    let buf = mailbox_buf();
    let r = buf.region();
    let m = Mailbox::new(r, MAILBOX).unwrap();
    r.try_store::<u32>(0, 7, Relaxed).unwrap();
    let err = m.serve(|_| unreachable!("nothing to serve")).unwrap_err();
    assert_eq!(
        err,
        MailboxError::Sequence {
            request: 7,
            response: 0
        }
    );
    assert_eq!(err.check(), "mailbox_sequence");
}

#[test]
fn mailbox_a_request_seq_running_backwards() {
    let buf = mailbox_buf();
    let r = buf.region();
    let m = Mailbox::new(r, MAILBOX).unwrap();
    m.request(b"one").unwrap();
    assert_eq!(m.serve(|_| (0, Vec::new())), Ok(Some(1)));
    // The client says its counter is back at 0, behind the answer already given.
    r.try_store::<u32>(0, 0, Relaxed).unwrap();
    let err = m.serve(|_| unreachable!("nothing to serve")).unwrap_err();
    assert_eq!(
        err,
        MailboxError::Sequence {
            request: 0,
            response: 1
        }
    );
    assert_eq!(err.check(), "mailbox_sequence");
}

#[test]
fn mailbox_capacities_that_do_not_fit() {
    for (request, response) in [(0, RESPONSE), (REQUEST, 0), (REQUEST, RESPONSE + 8)] {
        let buf = mailbox_buf();
        buf.region().try_store::<u32>(24, request, Relaxed).unwrap();
        buf.region()
            .try_store::<u32>(28, response, Relaxed)
            .unwrap();
        let err = Mailbox::new(buf.region(), MAILBOX).unwrap_err();
        assert_eq!(err.check(), "mailbox_capacity", "{request} {response}");
    }
}

// ---------------------------------------------------------------------------------------
// The triple buffer's one error: a state word the other side cannot have left.

fn triple(state: u32) -> SharedBuf {
    let buf = SharedBuf::new(8 + 3 * 64);
    buf.region().try_store::<u32>(0, state, Relaxed).unwrap();
    buf
}

#[test]
fn triple_a_state_naming_a_fourth_buffer() {
    for state in [3, 3 | FRESH] {
        let buf = triple(state);
        let found = ExchangeError::State { found: state };
        assert_eq!(TripleWriter::new(buf.region(), 0).publish(), Err(found));
        assert_eq!(TripleReader::new(buf.region(), 0).take(), Err(found));
        assert_eq!(buf.region().load::<u32>(0, Relaxed), state, "unchanged");
    }
}

#[test]
fn triple_a_state_with_unknown_bits() {
    for state in [8, 1 | 0x100, FRESH | 0x8000_0000] {
        let buf = triple(state);
        let found = ExchangeError::State { found: state };
        assert_eq!(TripleWriter::new(buf.region(), 0).publish(), Err(found));
        assert_eq!(TripleReader::new(buf.region(), 0).take(), Err(found));
        assert_eq!(buf.region().load::<u32>(0, Relaxed), state, "unchanged");
    }
}

#[test]
fn triple_a_state_naming_the_callers_own_buffer() {
    // The writer owns 0 and the reader 2 at the start: neither can be the shared one.
    let buf = triple(0);
    assert_eq!(
        TripleWriter::new(buf.region(), 0).publish(),
        Err(ExchangeError::State { found: 0 })
    );
    // A reader without grace refuses a publication of its own buffer at once.
    let buf = triple(2 | FRESH);
    assert_eq!(
        TripleReader::new(buf.region(), 0).with_grace(0).take(),
        Err(ExchangeError::State { found: 2 | FRESH })
    );
    // A reader absorbs one (a publication a free overtook) and waits; its own buffer shared
    // and not fresh meanwhile is a broken writer's.
    let mut reader = TripleReader::new(buf.region(), 0);
    assert_eq!(reader.take(), Ok(None));
    assert_eq!(reader.take(), Ok(None), "still waiting");
    assert_eq!(reader.absorbed(), 1);
    assert_eq!(buf.region().load::<u32>(0, Relaxed), 2 | FRESH, "unchanged");
    buf.region().try_store::<u32>(0, 2, Relaxed).unwrap();
    assert_eq!(reader.take(), Err(ExchangeError::State { found: 2 }));
    // After its grace, the next publication of its own buffer is refused: a writer that
    // keeps breaking the state is caught.
    let buf = triple(2 | FRESH);
    let mut reader = TripleReader::new(buf.region(), 0);
    assert_eq!(reader.take(), Ok(None));
    // The writer's next publication (it owned list 0, and now owns 2): taken, and list 1,
    // which nobody owns, goes back.
    buf.region().try_store::<u32>(0, FRESH, Relaxed).unwrap();
    assert_eq!(reader.take(), Ok(Some(0)));
    assert_eq!(buf.region().load::<u32>(0, Relaxed), 1);
    buf.region().try_store::<u32>(0, FRESH, Relaxed).unwrap();
    assert_eq!(reader.take(), Err(ExchangeError::State { found: FRESH }));
}
