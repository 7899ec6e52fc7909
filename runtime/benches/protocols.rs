//! The shared-memory protocol primitives under load: the byte queue's push+pop against a plain
//! `copy_from_slice` in and out, the broadcast ring read by 1, 2 and 4 reader threads while a
//! writer pushes (with the laps they saw), the mailbox's round trip in one thread, between two
//! threads and between two processes over a file mapping (feature `mmap`; the child is this
//! binary re-executed with `PROTOCOLS_MAILBOX_SERVER` set), and the triple buffer's exchange.
//! bench/README.md ("Issue 26") has the figures and the command.

use std::hint::black_box;
use std::sync::Barrier;
use std::sync::atomic::Ordering::{Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::thread;
use std::time::{Duration, Instant};

use abi_runtime::attach::Field;
use abi_runtime::broadcast_ring::{Read, RingReader, RingSpec, RingWriter};
use abi_runtime::byte_queue::{ByteQueue, EntryFormat, Popped, Pushed, QueueSpec};
use abi_runtime::mailbox::Mailbox;
use abi_runtime::triple_buffer::{INITIAL_STATE, TripleReader, TripleWriter};
use abi_runtime::{ReadWrite, Region, SharedBuf};
use criterion::{BenchmarkGroup, Criterion, Throughput, measurement::WallTime};

/// The environment variable that makes this binary a mailbox server over the file it names.
#[cfg(feature = "mmap")]
const SERVER_ENV: &str = "PROTOCOLS_MAILBOX_SERVER";

/// An entry: `size` u16 at 0, `kind` u8 at 2 (1 = padding); the ring's `seq` u64 at 8.
const ENTRY: EntryFormat = EntryFormat {
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
};

#[path = "../tests/common/bridge_specs.rs"]
mod bridge_specs;
use bridge_specs::MAILBOX;

/// The bridge's log queue header (64 bytes), then the area, with the smaller entry.
const QUEUE: QueueSpec = QueueSpec {
    entry: ENTRY,
    ..bridge_specs::QUEUE
};

/// The bridge's log ring header (64 bytes), then the area, with the smaller entry.
const RING: RingSpec = RingSpec {
    entry: ENTRY,
    seq: 8,
    ..bridge_specs::RING
};

const MAILBOX_CAPACITY: u32 = 256;
const MAILBOX_LEN: usize = 64 + 2 * MAILBOX_CAPACITY as usize;
const REQUEST: &[u8] = b"sim.step 1";

/// The byte queue's and the ring's area: 64 KiB.
const AREA: u32 = 64 * 1024;

/// A header of 64 bytes with a capacity `u32` at 16, then an area of `AREA` bytes.
fn area_buf() -> SharedBuf {
    let buf = SharedBuf::new(64 + AREA as usize);
    buf.region().try_store::<u32>(16, AREA, Relaxed).unwrap();
    buf
}

/// An entry of `len` bytes: its size, kind 0, then bytes that are not all zero.
fn entry(len: usize) -> Vec<u8> {
    let mut e: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
    e[..2].copy_from_slice(&(len as u16).to_le_bytes());
    e[2] = 0;
    e
}

/// How long a side waits for its peer before it gives up (the peer died or is stuck).
const STALL: Duration = Duration::from_secs(10);

/// A loop waiting for its peer: spins, yields every 64 turns (a peer that was descheduled,
/// 2 cores and more threads, gets the core back), and panics after `STALL` without progress,
/// so that a dead peer ends the bench instead of hanging it. One per wait.
#[derive(Default)]
struct Wait {
    turns: u32,
    since: Option<Instant>,
}

impl Wait {
    fn turn(&mut self, what: &str) {
        self.turns = self.turns.wrapping_add(1);
        if self.turns % 64 != 0 {
            core::hint::spin_loop();
            return;
        }
        thread::yield_now();
        if self.turns % 4096 == 0 {
            let since = *self.since.get_or_insert_with(Instant::now);
            assert!(since.elapsed() < STALL, "no progress for {STALL:?}: {what}");
        }
    }
}

/// Sets its flag when dropped, also while a panic unwinds: the threads that loop until the
/// flag is set end, and the scope that waits for them returns.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

fn fast(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
}

/// 1. The byte queue: push+pop in one thread, against `copy_from_slice` in and out of a
///    buffer of the same size; and push in one thread, pop in another.
fn byte_queue(c: &mut Criterion) {
    let mut group = c.benchmark_group("byte_queue");
    fast(&mut group);
    for len in [64usize, 512] {
        let e = entry(len);
        group.throughput(Throughput::Bytes(len as u64));

        let buf = area_buf();
        let q = ByteQueue::new(buf.region(), QUEUE).unwrap();
        let mut out = Vec::with_capacity(len);
        group.bench_function(format!("push_pop_{len}"), |b| {
            b.iter(|| {
                assert_eq!(q.push(black_box(&e)), Ok(Pushed::Written));
                assert_eq!(q.pop(&mut out), Ok(Popped::Entry(len)));
                black_box(&out);
            });
            assert_eq!(out, e);
        });

        // The same bytes into a plain buffer as large as the area, at a moving position,
        // and out again.
        let mut plain = vec![0u8; AREA as usize];
        let mut out = vec![0u8; len];
        let mut at = 0;
        group.bench_function(format!("memcpy_{len}"), |b| {
            b.iter(|| {
                if at + len > plain.len() {
                    at = 0;
                }
                plain[at..at + len].copy_from_slice(black_box(&e));
                out.copy_from_slice(&plain[at..at + len]);
                at += len;
                black_box(&out);
            });
            assert_eq!(out, e);
        });

        // A writer thread pushes `iters` entries (retrying each that found the queue full)
        // while this thread pops them.
        let buf = area_buf();
        let retries = AtomicU64::new(0);
        let mut popped = 0u64;
        group.bench_function(format!("two_threads_{len}"), |b| {
            b.iter_custom(|iters| {
                let q = ByteQueue::new(buf.region(), QUEUE).unwrap();
                let mut out = Vec::with_capacity(len);
                let stop = AtomicBool::new(false);
                let start = Instant::now();
                thread::scope(|s| {
                    s.spawn(|| {
                        for _ in 0..iters {
                            let mut wait = Wait::default();
                            while q.push(&e).unwrap() == Pushed::Dropped && !stop.load(Relaxed) {
                                retries.fetch_add(1, Relaxed);
                                wait.turn("the queue stays full");
                            }
                        }
                    });
                    let _stop = StopOnDrop(&stop);
                    for _ in 0..iters {
                        let mut wait = Wait::default();
                        loop {
                            match q.pop(&mut out) {
                                Ok(Popped::Entry(n)) => {
                                    assert_eq!(n, len);
                                    break;
                                }
                                Ok(Popped::Empty) => wait.turn("the queue stays empty"),
                                Err(err) => panic!("{err}"),
                            }
                        }
                        popped += 1;
                    }
                });
                let elapsed = start.elapsed();
                assert_eq!(out, e);
                elapsed
            })
        });
        if popped > 0 {
            println!(
                "byte_queue/two_threads_{len}: {popped} entries, {} pushes found the queue full",
                retries.load(Relaxed)
            );
        }
    }
    group.finish();
}

/// What the ring's readers saw over a benchmark's samples.
#[derive(Default)]
struct RingStats {
    read: AtomicU64,
    laps: AtomicU64,
    missed: AtomicU64,
    written: AtomicU64,
    reader_nanos: AtomicU64,
}

/// 2. The broadcast ring: 1, 2 or 4 reader threads each read `iters` entries of 64 bytes
///    while a writer thread pushes as fast as it can; the time is the readers' mean.
fn broadcast_ring(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadcast_ring");
    fast(&mut group);
    group.throughput(Throughput::Elements(1));
    const LEN: usize = 64;
    for readers in [1usize, 2, 4] {
        let stats = RingStats::default();
        group.bench_function(format!("read_64_{readers}_readers"), |b| {
            b.iter_custom(|iters| ring_round(iters, readers, &stats))
        });
        let read = stats.read.load(Relaxed);
        let nanos = stats.reader_nanos.load(Relaxed).max(1);
        if read == 0 {
            continue;
        }
        println!(
            "broadcast_ring/{readers} readers: {read} entries read ({:.2} M/s per reader), \
             {} written, {} laps, {} entries missed",
            read as f64 * 1e3 / nanos as f64,
            stats.written.load(Relaxed),
            stats.laps.load(Relaxed),
            stats.missed.load(Relaxed),
        );
    }
    group.finish();

    fn ring_round(iters: u64, readers: usize, stats: &RingStats) -> Duration {
        let buf = area_buf();
        let region = buf.region();
        let writer = RingWriter::new(region, RING).unwrap();
        let stop = AtomicBool::new(false);
        let start = Barrier::new(readers + 1);
        let total: Duration = thread::scope(|s| {
            let handles: Vec<_> = (0..readers)
                .map(|_| {
                    s.spawn(|| {
                        let mut r = RingReader::join_latest(region, RING).unwrap();
                        let mut out = Vec::with_capacity(LEN);
                        let (mut read, mut missed, mut wait) = (0, 0, Wait::default());
                        start.wait();
                        let t = Instant::now();
                        while read < iters {
                            match r.read_next(&mut out) {
                                Ok(Read::Entry(n)) => {
                                    assert_eq!(n, LEN);
                                    read += 1;
                                    wait = Wait::default();
                                }
                                Ok(Read::Lapped { missed: m }) => missed += m,
                                Ok(Read::Empty) => wait.turn("the ring stays empty"),
                                Err(err) => panic!("{err}"),
                            }
                        }
                        let elapsed = t.elapsed();
                        stats.read.fetch_add(read, Relaxed);
                        stats.laps.fetch_add(r.laps(), Relaxed);
                        stats.missed.fetch_add(missed, Relaxed);
                        stats
                            .reader_nanos
                            .fetch_add(elapsed.as_nanos() as u64, Relaxed);
                        elapsed
                    })
                })
                .collect();
            s.spawn(|| {
                let mut e = entry(LEN);
                let mut written = 0;
                start.wait();
                while !stop.load(Relaxed) {
                    writer.push(&mut e).unwrap();
                    written += 1;
                }
                stats.written.fetch_add(written, Relaxed);
            });
            let _stop = StopOnDrop(&stop);
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        total / readers as u32
    }
}

/// One client's round trip: a request, then polls until its answer.
fn round_trip(m: &Mailbox<'_, ReadWrite>) {
    let seq = m.request(REQUEST).unwrap();
    let mut wait = Wait::default();
    loop {
        if let Some(r) = m.poll_response(seq).unwrap() {
            assert_eq!((r.status, r.text.as_slice()), (0, REQUEST));
            black_box(r);
            return;
        }
        wait.turn("no answer from the server");
    }
}

/// A server: answers every request with its own text, until `stop` says so. It may idle
/// for as long as it likes: it spins, and yields every 64 turns.
fn serve_until(m: &Mailbox<'_, ReadWrite>, stop: impl Fn() -> bool) -> u64 {
    let (mut served, mut turns) = (0, 0u32);
    while !stop() {
        match m.serve(|text| (0, text.to_vec())) {
            Ok(Some(_)) => served += 1,
            Ok(None) => {
                turns = turns.wrapping_add(1);
                if turns % 64 == 0 {
                    thread::yield_now();
                } else {
                    core::hint::spin_loop();
                }
            }
            Err(err) => panic!("{err}"),
        }
    }
    served
}

fn mailbox_region(buf: &SharedBuf) -> Region<'_> {
    let region = buf.region();
    init_mailbox(region);
    region
}

fn init_mailbox(region: Region<'_>) {
    region
        .try_store::<u32>(24, MAILBOX_CAPACITY, Relaxed)
        .unwrap();
    region
        .try_store::<u32>(28, MAILBOX_CAPACITY, Release)
        .unwrap();
}

/// 3. The mailbox's round trip: request, serve and poll in one thread; a server thread; a
///    server process over a file mapping.
fn mailbox(c: &mut Criterion) {
    let mut group = c.benchmark_group("mailbox");
    fast(&mut group);
    group.throughput(Throughput::Elements(1));

    let buf = SharedBuf::new(MAILBOX_LEN);
    let m = Mailbox::new(mailbox_region(&buf), MAILBOX).unwrap();
    group.bench_function("round_trip_one_thread", |b| {
        b.iter(|| {
            let seq = m.request(REQUEST).unwrap();
            assert_eq!(m.serve(|text| (0, text.to_vec())), Ok(Some(seq)));
            black_box(m.poll_response(seq).unwrap().unwrap());
        })
    });

    let buf = SharedBuf::new(MAILBOX_LEN);
    let m = Mailbox::new(mailbox_region(&buf), MAILBOX).unwrap();
    let stop = AtomicBool::new(false);
    let served = thread::scope(|s| {
        let server = s.spawn(|| serve_until(&m, || stop.load(Relaxed)));
        let guard = StopOnDrop(&stop);
        group.bench_function("round_trip_threads", |b| b.iter(|| round_trip(&m)));
        drop(guard);
        server.join().unwrap()
    });
    if served > 0 {
        println!("mailbox/round_trip_threads: {served} requests served");
    }

    #[cfg(feature = "mmap")]
    {
        let mut server: Option<process::Server> = None;
        group.bench_function("round_trip_processes", |b| {
            let server = server.get_or_insert_with(process::Server::spawn);
            let m = Mailbox::new(server.map.region().unwrap(), MAILBOX).unwrap();
            b.iter(|| round_trip(&m))
        });
        if let Some(server) = server {
            println!("mailbox/round_trip_processes: {}", server.stop());
        }
    }
    #[cfg(not(feature = "mmap"))]
    println!("mailbox/round_trip_processes: skipped, it needs `--features mmap`");
    group.finish();
}

/// The mailbox server process and its parent's handle on it.
#[cfg(feature = "mmap")]
mod process {
    use std::io::{Read as _, Write as _};
    use std::path::PathBuf;
    use std::process::{Child, Command, Stdio};
    use std::sync::atomic::Ordering::{Acquire, Release};
    use std::thread;
    use std::time::{Duration, Instant};

    use abi_runtime::Mapping;
    use abi_runtime::mailbox::Mailbox;

    use super::{MAILBOX, MAILBOX_LEN, SERVER_ENV, init_mailbox, serve_until};

    /// The child's "ready" flag: a `u32` of the mailbox header outside the mailbox's fields.
    const MAILBOX_READY: usize = 32;

    /// The child's side: maps the file, says it is ready, and answers requests until its
    /// standard input ends (the parent closed it, or died), then prints what it served.
    pub fn run_server(path: &str) -> ! {
        let map = Mapping::open(path).expect("the mailbox file");
        let region = map.region().unwrap();
        let m = Mailbox::new(region, MAILBOX).unwrap();
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let eof = done.clone();
        thread::spawn(move || {
            let mut sink = [0u8; 64];
            while !matches!(std::io::stdin().read(&mut sink), Ok(0) | Err(_)) {}
            eof.store(true, Release);
        });
        region.try_store::<u32>(MAILBOX_READY, 1, Release).unwrap();
        let served = serve_until(&m, || done.load(Acquire));
        let _ = writeln!(
            std::io::stdout(),
            "{served} requests served by process {}",
            std::process::id()
        );
        std::process::exit(0)
    }

    /// The parent's handle: the child (killed and waited for on drop, whatever happened),
    /// its standard input (closed to stop it), the mapping and the file (removed on drop).
    pub struct Server {
        child: Child,
        pub map: Mapping,
        path: PathBuf,
    }

    impl Server {
        /// Creates the mailbox file (in /dev/shm when there is one), starts this binary on
        /// it and waits until the child says it is ready.
        pub fn spawn() -> Server {
            let dir = PathBuf::from("/dev/shm");
            let dir = if dir.is_dir() {
                dir
            } else {
                std::env::temp_dir()
            };
            let path = dir.join(format!("abi-runtime-bench-mailbox-{}", std::process::id()));
            let _ = std::fs::remove_file(&path);
            let map = Mapping::create(&path, MAILBOX_LEN).unwrap();
            init_mailbox(map.region().unwrap());
            let child = Command::new(std::env::current_exe().unwrap())
                .env(SERVER_ENV, &path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let mut server = Server { child, map, path };
            let deadline = Instant::now() + Duration::from_secs(10);
            let region = server.map.region().unwrap();
            while region.load::<u32>(MAILBOX_READY, Acquire) == 0 {
                if let Some(status) = server.child.try_wait().unwrap() {
                    panic!("the mailbox server exited before it was ready: {status}");
                }
                assert!(
                    Instant::now() < deadline,
                    "the mailbox server never got ready"
                );
                thread::sleep(Duration::from_millis(1));
            }
            server
        }

        /// Closes the child's standard input, waits up to 5 s for it to end, and returns
        /// what it printed.
        pub fn stop(mut self) -> String {
            drop(self.child.stdin.take());
            let deadline = Instant::now() + Duration::from_secs(5);
            while self.child.try_wait().unwrap().is_none() {
                if Instant::now() > deadline {
                    return "the server did not stop within 5 s: killed".into();
                }
                thread::sleep(Duration::from_millis(1));
            }
            let mut out = String::new();
            if let Some(mut stdout) = self.child.stdout.take() {
                let _ = stdout.read_to_string(&mut out);
            }
            out.trim().to_string()
        }
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// 4. The triple buffer: the writer publishes and the reader takes, in one thread (the
///    exchange alone, no list copied).
fn triple_buffer(c: &mut Criterion) {
    let mut group = c.benchmark_group("triple_buffer");
    fast(&mut group);
    let buf = SharedBuf::new(8);
    buf.region()
        .try_store::<u32>(0, INITIAL_STATE, Relaxed)
        .unwrap();
    let mut w = TripleWriter::new(buf.region(), 0);
    let mut r = TripleReader::new(buf.region(), 0);
    group.bench_function("publish_take", |b| {
        b.iter(|| {
            let p = w.publish().unwrap();
            assert!(!p.overwrote);
            black_box(r.take().unwrap().unwrap());
        })
    });
    group.finish();
}

fn main() {
    #[cfg(feature = "mmap")]
    if let Ok(path) = std::env::var(SERVER_ENV) {
        process::run_server(&path);
    }
    let mut c = Criterion::default().configure_from_args();
    byte_queue(&mut c);
    broadcast_ring(&mut c);
    mailbox(&mut c);
    triple_buffer(&mut c);
    c.final_summary();
}
