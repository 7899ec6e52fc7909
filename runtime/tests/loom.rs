//! loom models of the runtime's protocols (`RUSTFLAGS="--cfg loom" cargo test -p abi-runtime
//! --test loom --release`, CI's "loom" step): each runs the real protocol code over a tiny
//! `SharedBuf` whose words are loom atomics (`src/sync.rs`, `src/raw/loom_words.rs`), and loom
//! explores every interleaving of its threads up to a preemption bound (`LOOM_MAX_PREEMPTIONS`,
//! 2 unless set), with loom's model of relaxed, acquire and release accesses and fences. Each
//! model prints how many executions it explored.
//!
//! Negative controls: run with `LOOM_MUTATION=NAME` (same build), the runtime weakens one ordering
//! or drops one check (`seqlock_fence`, `seqlock_second_load`, `ring_tail_fence`,
//! `queue_publish_relaxed`, `mailbox_response_relaxed`, `claim_free_relaxed`, `pad_bind_recheck`,
//! `pad_bind_fence`, `pad_sweep_fence`, `draw_stale_grace`, `draw_stale_writer`,
//! `wake_wait_fence`, `wake_publish_fence`, `lockstep_seen_after_check`); the model
//! that covers it must then fail (CI asserts that it does for each).
//!
//! loom never returns a store that a thread saw before its last yield (how it advances spin
//! loops), and the thread that makes a buffer has seen its every initial value: a side whose
//! stale reads matter runs on a spawned thread (the mailbox's client), and a model whose
//! interesting path depends on the schedule counts that the path was reached.

#![cfg(loom)]

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed as StdRelaxed};

use abi_runtime::attach::Field;
use abi_runtime::broadcast_ring::{Read, RingReader, RingSpec, RingWriter};
use abi_runtime::byte_queue::{ByteQueue, EntryFormat, Popped, Pushed, QueueSpec};
use abi_runtime::claim::{self, Claim, ClaimSpec, SharedWord, Standing};
use abi_runtime::mailbox::{Mailbox, MailboxSpec};
use abi_runtime::triple_buffer::{INITIAL_STATE, TripleReader, TripleWriter};
use abi_runtime::{SeqLock, SharedBuf};
use loom::sync::Arc;
use loom::thread;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

/// Runs `f` under loom with the preemption bound of `LOOM_MAX_PREEMPTIONS` (2 if unset), and
/// prints the executions explored.
fn model(name: &str, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(2);
    }
    let bound = builder.preemption_bound;
    let runs = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    let start = std::time::Instant::now();
    builder.check(move || {
        counted.fetch_add(1, StdRelaxed);
        f();
    });
    eprintln!(
        "loom model {name}: {} executions explored (preemption bound {}) in {:.1} s",
        runs.load(StdRelaxed),
        bound.unwrap_or(0),
        start.elapsed().as_secs_f64()
    );
}

/// Turns of a side that waits for the other (each a yield, which loom schedules around).
const SPINS: usize = 3;

/// A buffer of `len` zero bytes but the `u32` `value` at `at`, shared by the model's threads
/// (made whole, before any thread: no atomic operation to explore).
fn with_u32(len: usize, at: usize, value: u32) -> Arc<SharedBuf> {
    let mut bytes = vec![0u8; len];
    bytes[at..at + 4].copy_from_slice(&value.to_ne_bytes());
    Arc::new(SharedBuf::from_bytes(&bytes))
}

/// A buffer of `len` bytes shared by the model's threads.
fn shared(len: usize) -> Arc<SharedBuf> {
    Arc::new(SharedBuf::new(len))
}

/// The seqlock: a writer makes two writes of a two-word payload (both words equal) while a
/// reader tries one copy. A copy the reader keeps is never torn.
#[test]
fn seqlock_writer_against_reader() {
    model("seqlock", || {
        let buf = shared(24);
        let reader = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let lock = SeqLock::<u64>::new(r, 0);
                if let Some([a, b]) = lock.try_read(|| r.read::<[u64; 2]>(8)) {
                    assert_eq!(a, b, "the reader kept a torn copy");
                }
            })
        };
        let r = buf.region();
        let lock = SeqLock::<u64>::new(r, 0);
        for v in 1..=2u64 {
            lock.try_write(|| r.write(8, &[v, v])).unwrap();
        }
        reader.join().unwrap();
    });
}

/// The snapshot ring's newest read: two slots, each a seqlock and a two-word payload, and a
/// head counting publications; the writer publishes three times (lapping slot 0) while a
/// reader reads the newest. What it keeps is one whole publication, never older than the
/// head it loaded.
#[test]
fn snapshot_ring_newest_read() {
    const SLOT: usize = 24;
    model("snapshot ring", || {
        let buf = shared(8 + 2 * SLOT);
        let reader = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let head = r.load::<u64>(0, Acquire);
                if head > 0 {
                    let slot = r
                        .sub(8 + ((head - 1) % 2) as usize * SLOT, SLOT, 8)
                        .unwrap();
                    let lock = SeqLock::<u64>::new(slot, 0);
                    if let Some([a, b]) = lock.try_read(|| slot.read::<[u64; 2]>(8)) {
                        assert_eq!(a, b, "a torn publication");
                        assert!(a >= head, "publication {a} is older than the head {head}");
                    }
                }
            })
        };
        let r = buf.region();
        for p in 1..=3u64 {
            let slot = r.sub(8 + ((p - 1) % 2) as usize * SLOT, SLOT, 8).unwrap();
            let lock = SeqLock::<u64>::new(slot, 0);
            lock.try_write(|| slot.write(8, &[p, p])).unwrap();
            r.store::<u64>(0, p, Release);
        }
        reader.join().unwrap();
    });
}

/// A row's state and generation sharing one word, as the bridge's rows do.
const CLAIM: ClaimSpec = ClaimSpec {
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

/// A claim: two clients claim the same row while the host frees it (retire, then free). At
/// the end at most one claim stands, and a claim that stands holds the row's generation.
#[test]
fn claim_two_claimers_against_the_hosts_free() {
    model("claim", || {
        let buf = shared(8);
        let claimers: Vec<_> = (0..2)
            .map(|_| {
                let buf = buf.clone();
                thread::spawn(move || {
                    let row = buf.region();
                    Claim::try_claim(row, CLAIM).map(|c| c.generation())
                })
            })
            .collect();
        let row = buf.region();
        claim::retire(row, CLAIM).unwrap();
        claim::free(row, CLAIM).unwrap();
        let won: Vec<u32> = claimers
            .into_iter()
            .filter_map(|c| c.join().unwrap())
            .collect();
        let (state, generation) = claim::row_word(row, CLAIM);
        let standing = won
            .iter()
            .filter(|&&g| (state == CLAIM.claimed || state == CLAIM.active) && g == generation)
            .count();
        assert!(
            standing <= 1,
            "two claims stand: {won:?}, row ({state}, {generation})"
        );
        if won.len() == 2 {
            assert_ne!(won[0], won[1], "two claims with one generation");
        }
    });
}

/// The bridge's queue header (write_pos, dropped, capacity, read_pos) before a tiny area.
const QUEUE: QueueSpec = QueueSpec {
    write_pos: 0,
    read_pos: 32,
    dropped: 8,
    capacity: Field {
        offset: 16,
        width: 4,
    },
    area: 40,
    entry: EntryFormat {
        size: Field {
            offset: 0,
            width: 2,
        },
        kind: Field {
            offset: 2,
            width: 1,
        },
        padding: 1,
        header: 8,
    },
};

/// A 16-byte entry numbered `n`: its size, then `n` in the second word.
fn entry(n: u64) -> Vec<u8> {
    let mut e = vec![0u8; 16];
    e[..2].copy_from_slice(&16u16.to_le_bytes());
    e[8..].copy_from_slice(&n.to_le_bytes());
    e
}

/// The byte queue across the wrap: a 24-byte area; the writer pushes entry 1 (16 bytes),
/// waits for the reader to pop it, then pushes entry 2, which fits only after a padding entry,
/// at the area's start. The reader pops until it saw both. Every entry popped is whole and in
/// order.
#[test]
fn byte_queue_push_pop_across_the_wrap() {
    model("byte queue", || {
        let buf = with_u32(40 + 24, 16, 24);
        let reader = {
            let buf = buf.clone();
            thread::spawn(move || {
                let q = ByteQueue::new(buf.region(), QUEUE).unwrap();
                let mut out = Vec::new();
                let mut next = 1;
                for _ in 0..SPINS {
                    match q.pop(&mut out).unwrap() {
                        Popped::Entry(_) => {
                            assert_eq!(out, entry(next), "entry {next} popped torn");
                            next += 1;
                            if next == 3 {
                                break;
                            }
                        }
                        Popped::Empty => thread::yield_now(),
                    }
                }
            })
        };
        let q = ByteQueue::new(buf.region(), QUEUE).unwrap();
        assert_eq!(q.push(&entry(1)).unwrap(), Pushed::Written);
        // Entry 2 fits only at the area's start, after a padding entry, once entry 1 is read.
        for _ in 0..SPINS {
            if buf.region().load::<u64>(QUEUE.read_pos, Acquire) == 16 {
                assert_eq!(q.push(&entry(2)).unwrap(), Pushed::Written);
                break;
            }
            thread::yield_now();
        }
        reader.join().unwrap();
    });
}

/// A broadcast ring of 32 bytes: entries of 16 bytes (a header with the seq at 8).
const RING: RingSpec = RingSpec {
    write_pos: 0,
    tail_pos: 8,
    entries: 24,
    capacity: Field {
        offset: 16,
        width: 4,
    },
    area: 32,
    entry: EntryFormat {
        size: Field {
            offset: 0,
            width: 2,
        },
        kind: Field {
            offset: 2,
            width: 1,
        },
        padding: 1,
        header: 16,
    },
    seq: 8,
};

/// The broadcast ring: the writer pushes three 16-byte entries into 32 bytes (lapping a
/// reader that joins at the oldest meanwhile), the reader reads twice. Every entry it returns is
/// whole: its second word (written with the entry) matches its seq (stamped by the push).
#[test]
fn broadcast_ring_writer_laps_reader() {
    model("broadcast ring", || {
        let buf = with_u32(32 + 32, 16, 32);
        let reader = {
            let buf = buf.clone();
            thread::spawn(move || {
                let mut reader = RingReader::join_oldest(buf.region(), RING).unwrap();
                let mut out = Vec::new();
                for _ in 0..2 {
                    if let Read::Entry(_) = reader.read_next(&mut out).unwrap() {
                        let seq = u64::from_le_bytes(out[8..16].try_into().unwrap());
                        assert_eq!(u64::from(out[3]), seq + 1, "a torn entry: {out:?}");
                    }
                }
            })
        };
        let w = RingWriter::new(buf.region(), RING).unwrap();
        for n in 0..3u8 {
            let mut e = vec![0u8; 16];
            e[..2].copy_from_slice(&16u16.to_le_bytes());
            // The seq field (bytes 8..16) is stamped by the push; byte 3 says which entry.
            e[3] = n + 1;
            w.push(&mut e).unwrap();
        }
        reader.join().unwrap();
    });
}

/// The triple buffer: three 16-byte buffers after the state word; the writer fills its own
/// buffer with two equal words and publishes, twice; the reader takes once and reads the
/// buffer it got: a whole publication, never one the writer is filling.
#[test]
fn triple_buffer_exchange() {
    model("triple buffer", || {
        let buf = with_u32(8 + 3 * 16, 0, INITIAL_STATE);
        let reader = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let mut reader = TripleReader::new(r, 0);
                if let Some(index) = reader.take().unwrap() {
                    let [a, b] = r.read::<[u64; 2]>(8 + 16 * index);
                    assert!(a == b && a >= 1, "buffer {index} read as [{a}, {b}]");
                }
            })
        };
        let r = buf.region();
        let mut w = TripleWriter::new(r, 0);
        for v in 1..=2u64 {
            r.write(8 + 16 * w.own(), &[v, v]).unwrap();
            w.publish().unwrap();
        }
        reader.join().unwrap();
    });
}

/// The bridge's mailbox header, then 8-byte request and response areas.
const MAILBOX: MailboxSpec = MailboxSpec {
    request_seq: 0,
    request_len: 4,
    response_seq: 8,
    status: 12,
    response_len: 16,
    response_total: 20,
    request_capacity: Field {
        offset: 24,
        width: 4,
    },
    response_capacity: Field {
        offset: 28,
        width: 4,
    },
    area: 32,
};

/// The mailbox: the client requests, polls for the answer, then requests again; the server
/// serves what it finds. Every answer the client gets is the one to its request, whole.
///
/// The client is the spawned thread, not the one that made the buffer: loom never returns a
/// store that a thread saw before its last yield (its way of advancing spin loops), and the
/// maker of the buffer has seen every initial value, so a client on that thread could never
/// read the stale answer fields a relaxed publish lets through (the negative control
/// `mailbox_response_relaxed`, which this model catches).
#[test]
fn mailbox_request_answer_next_request() {
    model("mailbox", || {
        let mut bytes = [0u8; 32 + 16];
        bytes[24..28].copy_from_slice(&8u32.to_ne_bytes());
        bytes[28..32].copy_from_slice(&8u32.to_ne_bytes());
        let buf = Arc::new(SharedBuf::from_bytes(&bytes));
        let client = {
            let buf = buf.clone();
            thread::spawn(move || {
                let m = Mailbox::new(buf.region(), MAILBOX).unwrap();
                let seq = m.request(b"ab").unwrap();
                for _ in 0..SPINS {
                    if let Some(answer) = m.poll_response(seq).unwrap() {
                        assert_eq!(
                            (answer.status, answer.text),
                            (u32::from(b'a'), b"abab".to_vec()),
                            "the answer to request {seq}"
                        );
                        assert_eq!(m.request(b"c").unwrap(), seq + 1, "the next request");
                        return true;
                    }
                    thread::yield_now();
                }
                false
            })
        };
        let m = Mailbox::new(buf.region(), MAILBOX).unwrap();
        let mut served = 0;
        for _ in 0..SPINS {
            match m
                .serve(|text| (u32::from(text[0]), text.repeat(2)))
                .unwrap()
            {
                Some(_) => served += 1,
                None => thread::yield_now(),
            }
            if served == 2 {
                break;
            }
        }
        if client.join().unwrap() {
            ANSWERED.fetch_add(1, StdRelaxed);
        }
    });
    assert!(
        ANSWERED.load(StdRelaxed) > 0,
        "no execution reached an answer: the model checks nothing"
    );
}

/// Executions of the mailbox model in which the client got its answer.
static ANSWERED: AtomicUsize = AtomicUsize::new(0);

/// Executions of the free model in which the new client claimed the row.
static CLAIMED: AtomicUsize = AtomicUsize::new(0);

/// The host's free after its restore: a row held by a client whose queue position is 5 is
/// retired, its position restored to 0 (relaxed, as a host's restore stores), then freed; a
/// new client claims it and reads the position. A claim that finds the row free sees the
/// restore: the free's release publishes it (the retire's release comes before the restore,
/// so it cannot; the negative control `claim_free_relaxed` stores the free relaxed).
#[test]
fn free_publishes_the_restore() {
    model("free after restore", || {
        // The row's word (state, generation) at 0, held active at generation 1; the row's
        // queue position at 8.
        let mut bytes = [0u8; 16];
        bytes[0..4].copy_from_slice(&CLAIM.active.to_ne_bytes());
        bytes[4..8].copy_from_slice(&1u32.to_ne_bytes());
        bytes[8..12].copy_from_slice(&5u32.to_ne_bytes());
        let buf = Arc::new(SharedBuf::from_bytes(&bytes));
        let row = buf.region().sub(0, 8, 8).unwrap();
        let client = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let claim = Claim::try_claim(r.sub(0, 8, 8).unwrap(), CLAIM)?;
                Some((claim.generation(), r.load::<u32>(8, Relaxed)))
            })
        };
        let r = buf.region();
        claim::retire(row, CLAIM).unwrap();
        r.store::<u64>(8, 0, Relaxed);
        claim::free(row, CLAIM).unwrap();
        if let Some((generation, position)) = client.join().unwrap() {
            assert_eq!(
                (generation, position),
                (2, 0),
                "a claim of the freed row sees its restored position"
            );
            CLAIMED.fetch_add(1, StdRelaxed);
        }
    });
    assert!(
        CLAIMED.load(StdRelaxed) > 0,
        "no execution claimed the freed row: the model checks nothing"
    );
}

/// The session's reload: a client reads the host's generation, claims the row, checks the
/// generation again (refusing and giving the row back when it changed) and activates; the
/// host bumps its generation, then retires and frees the row. A row left active was claimed
/// by a client that saw the reload's generation: no claim stands on a reload it missed.
#[test]
fn session_reload_against_a_claim() {
    model("session reload", || {
        // The host's generation (u64 at 0), then the row (state and generation at 8).
        let buf = shared(16);
        let client = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let row = r.sub(8, 8, 8).unwrap();
                let attached = r.load::<u64>(0, Acquire);
                let claim = Claim::try_claim(row, CLAIM)?;
                if r.load::<u64>(0, Acquire) != attached {
                    let _ = claim.release();
                    return None;
                }
                (claim.activate() == Standing::Connected).then_some(attached)
            })
        };
        let r = buf.region();
        let row = r.sub(8, 8, 8).unwrap();
        r.fetch_add::<u64>(0, 1, std::sync::atomic::Ordering::AcqRel);
        claim::retire(row, CLAIM).unwrap();
        claim::free(row, CLAIM).unwrap();
        let attached = client.join().unwrap();
        let (state, _) = claim::row_word(row, CLAIM);
        if state == CLAIM.active {
            assert_eq!(
                attached,
                Some(1),
                "an active row whose client missed the reload"
            );
        }
    });
}

#[path = "loom/pads.rs"]
mod pads_models;

#[path = "loom/draw.rs"]
mod draw_models;

#[path = "loom/wake.rs"]
mod wake_models;

#[path = "loom/lockstep.rs"]
mod lockstep_models;
