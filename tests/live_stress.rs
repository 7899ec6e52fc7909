//! Real threads racing over one region through the generated live layer: seqlocked
//! records and the snapshot ring under a writer that never pauses, and compare-and-swap
//! claims. Each test proves that it raced (retries, failed claims) and that no torn copy
//! was accepted. Bounded in time; under Miri, in iterations.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
#[cfg(not(miri))]
use std::time::Duration;
use std::time::Instant;

use bridge_abi::live;
use bridge_abi::runtime::{DEFAULT_TRIES, SeqLockError, SharedBuf};
use bridge_abi::zerocopy::IntoBytes;
use bridge_abi::*;

const RING_AT: usize = 4096;
const SLOT: usize = RING_SLOT_SIZE as usize;
const BRIDGE_LEN: usize = RING_AT + RING_SLOTS as usize * SLOT;

/// How long a racing test runs at least, and at most while it has not yet seen a retry.
#[cfg(not(miri))]
const MIN_RUN: Duration = Duration::from_millis(1500);
#[cfg(not(miri))]
const MAX_RUN: Duration = Duration::from_secs(20);

/// Under Miri: how many publications a writer makes.
#[cfg(miri)]
const MIRI_WRITES: u64 = 6;

/// The word at index `k` of publication `n`: every word of a copy must come from one `n`,
/// and the first word is `n` itself.
fn word(n: u64, k: usize) -> u64 {
    if k == 0 {
        return n;
    }
    n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (k as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// Fills a snapshot so that a copy made of two publications is detectable.
fn fill(snapshot: &mut Snapshot, n: u64) {
    for (k, chunk) in snapshot.as_mut_bytes().chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&word(n, k).to_le_bytes());
    }
}

/// Whether every word of `bytes` comes from publication `n`.
fn publication_of(bytes: &[u8], n: u64) -> bool {
    bytes
        .chunks_exact(8)
        .enumerate()
        .all(|(k, c)| u64::from_le_bytes(c.try_into().unwrap()) == word(n, k))
}

/// Stops the race when dropped: when a reader ends, whether it returns or panics, so that a
/// failing reader never leaves the writer running forever.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `writer` until the readers are done; each reader runs until `done` says so.
struct Race {
    stop: AtomicBool,
    started: Instant,
    retries: AtomicU64,
}

impl Race {
    fn new() -> Self {
        Race {
            stop: AtomicBool::new(false),
            started: Instant::now(),
            retries: AtomicU64::new(0),
        }
    }

    /// Whether a reader that has made `reads` copies should stop: under Miri after a few;
    /// otherwise after `MIN_RUN` once any reader has retried, or after `MAX_RUN`.
    #[cfg(miri)]
    fn done(&self, reads: u64) -> bool {
        let _ = self.started;
        self.stop.load(Ordering::Relaxed) || reads >= MIRI_WRITES
    }

    #[cfg(not(miri))]
    fn done(&self, _reads: u64) -> bool {
        let elapsed = self.started.elapsed();
        elapsed > MAX_RUN
            || (elapsed > MIN_RUN && self.retries.load(Ordering::Relaxed) > 0)
            || self.stop.load(Ordering::Relaxed)
    }
}

#[test]
fn the_snapshot_ring_never_hands_out_a_torn_snapshot() {
    let buf = SharedBuf::new(BRIDGE_LEN);
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let ring = live::SnapshotRing::new(header, buf.region().tail(RING_AT, 8).unwrap()).unwrap();
    let race = Race::new();
    let torn_accepted = AtomicU64::new(0);
    let torn_unlocked = AtomicU64::new(0);
    let reads = AtomicU64::new(0);
    let publications = thread::scope(|s| {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let _stop = StopOnDrop(&race.stop);
                    let mut n = 0;
                    while !race.done(n) {
                        let Some((slot, retries)) = ring
                            .read_newest_counted(DEFAULT_TRIES)
                            .expect("a copy within the tries")
                        else {
                            continue;
                        };
                        n += 1;
                        race.retries
                            .fetch_add(u64::from(retries), Ordering::Relaxed);
                        reads.fetch_add(1, Ordering::Relaxed);
                        let whole = publication_of(slot.payload.as_bytes(), slot.publish_seq)
                            && slot.tick == slot.publish_seq
                            && slot.payload_extra == slot.publish_seq.to_le_bytes();
                        if !whole {
                            torn_accepted.fetch_add(1, Ordering::Relaxed);
                        }
                        // The control: the slot being written, copied without the seqlock.
                        let writing = (ring.head() % RING_SLOTS as u64) as usize;
                        let mut raw = vec![0u8; 12104];
                        buf.region()
                            .read_bytes(RING_AT + writing * SLOT + 64, &mut raw);
                        let first = u64::from_le_bytes(raw[..8].try_into().unwrap());
                        if !publication_of(&raw, first) {
                            torn_unlocked.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        let writer = s.spawn(|| {
            let mut slot = live::RingSlot::zeroed();
            let mut n = 0;
            while !race.stop.load(Ordering::Relaxed) {
                n += 1;
                fill(&mut slot.payload, n);
                slot.tick = n;
                slot.payload_extra = n.to_le_bytes().to_vec();
                ring.publish(&mut slot).expect("a slot holds the value");
                #[cfg(miri)]
                if n >= MIRI_WRITES * 2 {
                    break;
                }
            }
            n
        });
        for r in readers {
            r.join().unwrap();
        }
        race.stop.store(true, Ordering::Relaxed);
        writer.join().unwrap()
    });
    let retries = race.retries.load(Ordering::Relaxed);
    let torn = torn_accepted.load(Ordering::Relaxed);
    let unlocked = torn_unlocked.load(Ordering::Relaxed);
    eprintln!(
        "snapshot ring: {publications} publications, {} copies, {retries} retries, {torn} torn copies accepted, {unlocked} torn copies without the seqlock",
        reads.load(Ordering::Relaxed)
    );
    assert_eq!(torn, 0, "a torn snapshot passed the seqlock");
    assert!(reads.load(Ordering::Relaxed) > 0, "no snapshot was read");
    #[cfg(not(miri))]
    {
        assert!(
            retries > 0,
            "the readers never raced the writer: nothing was proven"
        );
        assert!(
            unlocked > 0,
            "copies without the seqlock were never torn: the check cannot see tears"
        );
    }
}

#[test]
fn pad_input_copies_are_never_torn() {
    let buf = SharedBuf::new(32);
    let pad = live::PadInput::at(buf.region(), 0).unwrap();
    let race = Race::new();
    let torn = AtomicU64::new(0);
    let copies = AtomicU64::new(0);
    let contended = AtomicU64::new(0);
    thread::scope(|s| {
        s.spawn(|| {
            let mut input = PadInput::default();
            let mut n: u64 = 0;
            while !race.stop.load(Ordering::Relaxed) {
                n += 1;
                input.for_tick = n;
                input.lx = n as i16;
                input.ly = (n >> 16) as i16;
                input.rx = !(n as i16);
                input.ry = (n as i16).wrapping_mul(3);
                input.buttons = PadButtons(n as u16);
                input.lt = n as u8;
                input.rt = !(n as u8);
                pad.write_pad_input_unscoped(&input).unwrap();
                // A moment between writes, as any real writer has (a client writes its pad
                // once per tick): a writer that never leaves the counter even starves every
                // seqlock reader, which then fails with `Contended`, by design.
                for _ in 0..32 {
                    std::hint::spin_loop();
                }
                #[cfg(miri)]
                if n >= MIRI_WRITES * 20 {
                    break;
                }
            }
        });
        let readers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let _stop = StopOnDrop(&race.stop);
                    let mut reads = 0;
                    while !race.done(reads) {
                        // A writer that rewrites one record back to back can keep a reader
                        // out for all its tries (on a loaded machine, for a whole time
                        // slice): `Contended` is the documented answer, not a tear. It is
                        // counted; every copy that is handed out must be whole.
                        let (v, retries) = match pad.read_pad_input_counted(DEFAULT_TRIES) {
                            Ok(read) => read,
                            Err(SeqLockError::Contended { .. }) => {
                                contended.fetch_add(1, Ordering::Relaxed);
                                continue;
                            }
                            Err(e) => panic!("{e}"),
                        };
                        reads += 1;
                        copies.fetch_add(1, Ordering::Relaxed);
                        race.retries
                            .fetch_add(u64::from(retries), Ordering::Relaxed);
                        let n = v.for_tick;
                        // Before the first write the record is all zero.
                        let whole = (n == 0 && v == PadInput::default())
                            || v.lx == n as i16
                                && v.ly == (n >> 16) as i16
                                && v.rx == !(n as i16)
                                && v.ry == (n as i16).wrapping_mul(3)
                                && v.buttons == PadButtons(n as u16)
                                && v.lt == n as u8
                                && v.rt == !(n as u8);
                        if !whole {
                            torn.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        for r in readers {
            r.join().unwrap();
        }
        race.stop.store(true, Ordering::Relaxed);
    });
    let retries = race.retries.load(Ordering::Relaxed);
    let copies = copies.load(Ordering::Relaxed);
    eprintln!(
        "pad_input: {copies} copies, {retries} retries, {} reads contended after {DEFAULT_TRIES} tries, {} torn copies accepted",
        contended.load(Ordering::Relaxed),
        torn.load(Ordering::Relaxed)
    );
    assert_eq!(torn.load(Ordering::Relaxed), 0);
    assert!(copies > 0, "no copy of the record was ever handed out");
    #[cfg(not(miri))]
    assert!(retries > 0, "the readers never raced the writer");
}

/// `THREADS` clients race for `MAX_CLIENTS` rows, round after round: every row ends with
/// exactly one owner, and every claim is one row.
#[test]
fn each_client_row_is_claimed_once() {
    const THREADS: u32 = 4;
    #[cfg(miri)]
    const ROUNDS: u32 = 2;
    #[cfg(not(miri))]
    const ROUNDS: u32 = 300;
    let buf = SharedBuf::new(2048);
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let mut lost_races = 0;
    for round in 0..ROUNDS {
        for i in 0..MAX_CLIENTS {
            header
                .clients(i)
                .unwrap()
                .set_state(ClientState::FREE)
                .unwrap();
        }
        let claims: Vec<Vec<usize>> = thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    s.spawn(move || {
                        let mut mine = Vec::new();
                        let mut lost = 0;
                        for i in 0..MAX_CLIENTS {
                            let row = header.clients(i).unwrap();
                            match row
                                .compare_exchange_state(ClientState::FREE, ClientState::CLAIMED)
                                .unwrap()
                            {
                                Ok(_) => {
                                    row.fetch_add_generation(1).unwrap();
                                    row.set_pid(t + 1).unwrap();
                                    row.set_state(ClientState::ACTIVE).unwrap();
                                    mine.push(i);
                                }
                                Err(_) => lost += 1,
                            }
                        }
                        (mine, lost)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    let (mine, lost) = h.join().unwrap();
                    lost_races += lost;
                    mine
                })
                .collect()
        });
        let mut owners = vec![0u32; MAX_CLIENTS];
        for (t, rows) in claims.iter().enumerate() {
            for &i in rows {
                owners[i] += 1;
                assert_eq!(
                    header.clients(i).unwrap().pid(),
                    t as u32 + 1,
                    "round {round}: row {i}"
                );
            }
        }
        assert!(
            owners.iter().all(|&n| n == 1),
            "round {round}: owners per row {owners:?}"
        );
        for i in 0..MAX_CLIENTS {
            let row = header.clients(i).unwrap();
            assert_eq!(row.state(), ClientState::ACTIVE);
            assert_eq!(row.generation(), round + 1, "one claim per row per round");
        }
    }
    eprintln!("client rows: {ROUNDS} rounds, {lost_races} claims lost to another thread");
    // Every round, each of the THREADS - 1 losers of each row fails its CAS.
    assert_eq!(
        lost_races,
        ROUNDS as usize * MAX_CLIENTS * (THREADS as usize - 1)
    );
}

/// Four bots race to bind the four pads, one byte of the `pad_owner` word each, while the
/// other bytes change under them.
#[test]
fn each_pad_is_bound_once() {
    #[cfg(miri)]
    const ROUNDS: u32 = 2;
    #[cfg(not(miri))]
    const ROUNDS: u32 = 500;
    let buf = SharedBuf::new(2048);
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    for round in 0..ROUNDS {
        header
            .compare_exchange_pad_owner(header.pad_owner(), [NO_PAD; 4])
            .unwrap()
            .unwrap();
        let won: Vec<Vec<usize>> = thread::scope(|s| {
            let handles: Vec<_> = (0..4u8)
                .map(|bot| {
                    s.spawn(move || {
                        (0..4)
                            .filter(|&pad| {
                                header
                                    .compare_exchange_pad_owner_at(pad, NO_PAD, bot)
                                    .unwrap()
                                    .is_ok()
                            })
                            .collect::<Vec<usize>>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let owners = header.pad_owner();
        let mut bound = [0; 4];
        for (bot, pads) in won.iter().enumerate() {
            for &pad in pads {
                bound[pad] += 1;
                assert_eq!(owners[pad], bot as u8, "round {round}: pad {pad}");
            }
        }
        assert_eq!(bound, [1; 4], "round {round}: {owners:?}");
    }
}
