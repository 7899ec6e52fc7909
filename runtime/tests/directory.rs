//! The host directory's protocol (`abi_runtime::directory`) over a region laid out as the
//! reference's `directory_header` (offsets from bridge-abi-0.9-reference.txt: entries at
//! 0x40, 64-byte rows, state 0x00, pid 0x04, process_time 0x08, abi_major 0x10, abi_minor
//! 0x12, host_version 0x18 char[32]): register, list newest first, unregister, stale rows
//! (gone, reused pid, dead claimant) cleaned by the next host, and hostile headers and rows.
//! With `mmap`: a real host process killed by SIGKILL (TerminateProcess on Windows) leaves a
//! row that the next host frees.

use std::sync::atomic::Ordering::Release;

use abi_runtime::SharedBuf;
use abi_runtime::claim::SharedWord;
use abi_runtime::directory::{
    self, DirectoryError, DirectorySpec, HostInfo, ProcessProbe, RowProblem,
};

/// The reference's `directory_header`, as the generator's plan must say it too.
const SPEC: DirectorySpec = DirectorySpec {
    magic_at: 0,
    magic: 0x4446_4249,
    entry_count_at: 4,
    entry_size_at: 8,
    entries_at: 0x40,
    max_entries: 16,
    entry_size: 64,
    word: SharedWord {
        at: 0,
        state_low: true,
    },
    process_time_at: 8,
    abi_major_at: 0x10,
    abi_minor_at: 0x12,
    version_at: 0x18,
    version_len: 32,
    free: 0,
    claimed: 1,
    live: 2,
};

fn host(pid: u32, time: u64, version: &str) -> HostInfo {
    HostInfo {
        pid,
        process_time: time,
        abi_major: 0,
        abi_minor: 9,
        host_version: version.into(),
    }
}

/// A probe that knows the processes `running` (pid, creation time), and no others.
fn probe(running: &[(u32, u64)]) -> impl Fn(u32) -> ProcessProbe + '_ {
    move |pid| match running.iter().find(|(p, _)| *p == pid) {
        Some((_, t)) => ProcessProbe::Running(*t),
        None => ProcessProbe::Gone,
    }
}

fn new_dir() -> SharedBuf {
    let buf = SharedBuf::new(directory::new_len(SPEC));
    directory::lay_out(buf.region(), SPEC).unwrap();
    buf
}

#[test]
fn lay_out_writes_the_reference_header() {
    let buf = new_dir();
    let mut header = [0u8; 12];
    buf.region().read_bytes(0, &mut header);
    assert_eq!(&header[..4], b"IBFD");
    assert_eq!(u32::from_le_bytes(header[4..8].try_into().unwrap()), 16);
    assert_eq!(u32::from_le_bytes(header[8..12].try_into().unwrap()), 64);
    assert_eq!(buf.len(), 1088, "the reference's directory_header size");
}

#[test]
fn register_list_newest_first_unregister() {
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    let running = [(100, 5_000), (200, 9_000), (300, 7_000)];
    let regs: Vec<_> = running
        .iter()
        .map(|&(pid, t)| {
            dir.register(&host(pid, t, &format!("host {pid}")), probe(&running))
                .unwrap()
        })
        .collect();
    assert_eq!(regs.iter().map(|r| r.row).collect::<Vec<_>>(), [0, 1, 2]);
    assert!(regs.iter().all(|r| r.stale_freed == 0));
    let listed = dir.list();
    assert_eq!(listed.problems, []);
    let order: Vec<_> = listed.hosts.iter().map(|h| (h.row, h.host.pid)).collect();
    assert_eq!(
        order,
        [(1, 200), (2, 300), (0, 100)],
        "newest process_time first"
    );
    assert_eq!(listed.hosts[0].host, host(200, 9_000, "host 200"));
    // The row as the reference lays it out.
    let mut row = [0u8; 64];
    buf.region().read_bytes(0x40 + 64, &mut row);
    assert_eq!(u32::from_le_bytes(row[0..4].try_into().unwrap()), 2, "live");
    assert_eq!(u32::from_le_bytes(row[4..8].try_into().unwrap()), 200);
    assert_eq!(u64::from_le_bytes(row[8..16].try_into().unwrap()), 9_000);
    assert_eq!((row[0x10], row[0x12]), (0, 9));
    assert_eq!(&row[0x18..0x18 + 9], b"host 200\0");

    assert!(dir.unregister(&regs[1]));
    assert!(
        !dir.unregister(&regs[1]),
        "a second unregister finds the row gone"
    );
    let order: Vec<_> = dir.list().hosts.iter().map(|h| h.host.pid).collect();
    assert_eq!(order, [300, 100]);
    buf.region().read_bytes(0x40 + 64, &mut row);
    assert_eq!(row, [0u8; 64], "a freed row is all zeros");
    // The freed row is the next one claimed.
    let again = dir
        .register(
            &host(400, 1, "late"),
            probe(&[(100, 5_000), (300, 7_000), (400, 1)]),
        )
        .unwrap();
    assert_eq!(again.row, 1);
}

#[test]
fn a_dead_hosts_row_is_freed_by_the_next_host() {
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    let dead = dir
        .register(&host(100, 5_000, "dead"), probe(&[(100, 5_000)]))
        .unwrap();
    // 100 is gone now; 200 starts.
    let next = dir
        .register(&host(200, 6_000, "next"), probe(&[(200, 6_000)]))
        .unwrap();
    assert_eq!(next.stale_freed, 1);
    assert_eq!(next.row, dead.row, "the stale row was freed, then claimed");
    let pids: Vec<_> = dir.list().hosts.iter().map(|h| h.host.pid).collect();
    assert_eq!(pids, [200]);
    assert!(
        !dir.unregister(&dead),
        "the dead host's registration no longer holds"
    );
}

#[test]
fn a_reused_pid_with_another_creation_time_is_stale() {
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    dir.register(&host(100, 5_000, "old"), probe(&[(100, 5_000)]))
        .unwrap();
    // pid 100 now names another process, created later.
    let freed = dir.remove_stale(200, probe(&[(100, 8_000), (200, 1)]));
    assert_eq!(freed, 1);
    assert_eq!(dir.list().hosts, []);
    // The same pid and time is the same process: kept.
    dir.register(&host(100, 8_000, "new"), probe(&[(100, 8_000)]))
        .unwrap();
    assert_eq!(dir.remove_stale(200, probe(&[(100, 8_000), (200, 1)])), 0);
    // Unknown (no permission): never stale.
    assert_eq!(dir.remove_stale(200, |_| ProcessProbe::Unknown), 0);
}

#[test]
fn a_claimed_row_is_stale_only_once_its_owner_is_gone() {
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    let region = buf.region();
    // Row 0 claimed by pid 100, not yet filled in (process_time 0).
    region.store::<u64>(0x40, 1 | 100 << 32, Release);
    // Its owner runs (its pid's creation time is whatever): it may be filling in.
    assert_eq!(dir.remove_stale(1, probe(&[(100, 42)])), 0);
    assert_eq!(dir.state(0), (1, 100));
    // Filled in with another creation time than the pid's now: reused pid, stale.
    region.store::<u64>(0x48, 41, Release);
    assert_eq!(dir.remove_stale(1, probe(&[(100, 42)])), 1);
    assert_eq!(dir.state(0), (0, 0));
    // Claimed and its owner gone: stale.
    region.store::<u64>(0x40, 1 | 100 << 32, Release);
    assert_eq!(dir.remove_stale(1, probe(&[])), 1);
    assert_eq!(dir.state(0), (0, 0));
    assert_eq!(dir.list().hosts, [], "claimed rows are never listed");
}

#[test]
fn a_full_directory_is_refused_by_name() {
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    let running: Vec<(u32, u64)> = (1..=17).map(|p| (p, u64::from(p))).collect();
    for p in 1..=16 {
        dir.register(&host(p, u64::from(p), "h"), probe(&running))
            .unwrap();
    }
    assert_eq!(
        dir.register(&host(17, 17, "h"), probe(&running)),
        Err(DirectoryError::Full { rows: 16 })
    );
    assert_eq!(
        dir.register(&host(17, 17, &"v".repeat(32)), probe(&running)),
        Err(DirectoryError::VersionTooLong { len: 32, max: 31 })
    );
}

#[test]
fn hostile_headers_are_refused_by_name() {
    let cases: [(usize, u32, DirectoryError); 7] = [
        (
            0,
            0x1234_5678,
            DirectoryError::BadMagic { found: 0x1234_5678 },
        ),
        (0, 0, DirectoryError::NotReady),
        (
            8,
            60,
            DirectoryError::BadEntrySize {
                found: 60,
                least: 64,
            },
        ),
        (
            8,
            68,
            DirectoryError::BadEntrySize {
                found: 68,
                least: 64,
            },
        ),
        (
            8,
            u32::MAX,
            DirectoryError::BadEntrySize {
                found: u32::MAX,
                least: 64,
            },
        ),
        (4, 0, DirectoryError::BadEntryCount { found: 0, fits: 16 }),
        (
            4,
            u32::MAX,
            DirectoryError::BadEntryCount {
                found: u32::MAX,
                fits: 16,
            },
        ),
    ];
    for (at, value, want) in cases {
        let buf = new_dir();
        buf.region().try_store::<u32>(at, value, Release).unwrap();
        assert_eq!(directory::check(buf.region(), SPEC).err(), Some(want));
    }
    // A larger entry_size that the mapping does not hold 16 of.
    let buf = new_dir();
    buf.region().try_store::<u32>(8, 128, Release).unwrap();
    assert_eq!(
        directory::check(buf.region(), SPEC).err(),
        Some(DirectoryError::BadEntryCount { found: 16, fits: 8 })
    );
    let short = SharedBuf::new(32);
    assert_eq!(
        directory::check(short.region(), SPEC).err(),
        Some(DirectoryError::TooSmall {
            len: 32,
            needed: 64
        })
    );
}

#[test]
fn a_garbage_state_is_reported_and_left_alone() {
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    buf.region().store::<u64>(0x40, 7 | 100 << 32, Release);
    let r = dir
        .register(&host(200, 1, "h"), probe(&[(200, 1)]))
        .unwrap();
    assert_eq!(
        (r.row, r.stale_freed),
        (1, 0),
        "row 0 neither claimed nor freed"
    );
    let listed = dir.list();
    assert_eq!(
        listed.problems,
        [RowProblem::UnknownState { row: 0, state: 7 }]
    );
    assert_eq!(listed.hosts.len(), 1);
    assert_eq!(dir.state(0), (7, 100));
}

#[test]
fn a_row_changing_under_the_reader_is_never_listed_torn() {
    // Hosts that register in row 0 one after another, as register does: the word to
    // (claimed, pid), the fill, the word to (live, pid); each a new process (its own
    // creation time), its pid one of 50, so pids come back with other times (reused pids).
    // A reader copies the row, then checks the word and the time again: it lists a host
    // whole, or skips the row as unsettled, and never pairs one host's pid with another's
    // time. (The one tear left: a process that frees and registers again in the same row,
    // twice, between a reader's first and last load; see the module docs.)
    let buf = new_dir();
    let dir = directory::check(buf.region(), SPEC).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let turns = std::sync::atomic::AtomicU64::new(0);
    let (mut whole, mut unsettled, mut torn) = (0usize, 0usize, 0usize);
    let pid_of = |time: u64| 100 + (time / 10) % 50;
    std::thread::scope(|s| {
        s.spawn(|| {
            let r = buf.region();
            let mut turn = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let time = 10 * (turn + 1);
                let pid = pid_of(time);
                r.store::<u64>(0x40, 1 | pid << 32, Release);
                // As register does: the claim ordered before the fill (a seqlock writer's fence).
                std::sync::atomic::fence(Release);
                r.store::<u64>(0x48, time, std::sync::atomic::Ordering::Relaxed);
                r.store::<u64>(0x40, 2 | pid << 32, Release);
                turn += 1;
                turns.store(turn, std::sync::atomic::Ordering::Relaxed);
                // A host stays registered a while: without a pause, a scheduler that runs
                // this thread in long slices (Miri's, for some seeds) may never let the
                // reader see the row live and settled.
                std::thread::yield_now();
            }
        });
        // The writer has registered once before the reader starts (bounded: a writer that
        // never runs fails the `whole` check below).
        for _ in 0..100_000 {
            if turns.load(std::sync::atomic::Ordering::Relaxed) > 0 {
                break;
            }
            std::thread::yield_now();
        }
        // Miri runs each load thousands of times slower: fewer lists, still racing. The
        // reader lists at least `rounds` times, and on (20 times as many at most) until it
        // has listed the row whole once.
        let rounds = if cfg!(miri) { 300 } else { 100_000 };
        for round in 0..20 * rounds {
            if round >= rounds && whole > 0 {
                break;
            }
            let listed = dir.list();
            for h in &listed.hosts {
                if u64::from(h.host.pid) == pid_of(h.host.process_time) {
                    whole += 1;
                } else {
                    torn += 1;
                }
            }
            unsettled += listed.problems.len();
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(
        torn, 0,
        "rows listed with one owner's pid and the other's time"
    );
    assert!(
        whole > 0,
        "the row was never listed ({unsettled} unsettled)"
    );
}

#[cfg(all(feature = "mmap", not(miri)))]
mod processes {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    use abi_runtime::{DirectoryMapping, own_host_time, process_probe};

    use super::*;

    /// The child's side: registers in the directory named by `ABI_DIRECTORY_AT`, says so,
    /// then waits to be killed.
    #[test]
    fn role() {
        let Ok(at) = std::env::var("ABI_DIRECTORY_AT") else {
            return;
        };
        let map = open_or_create(&at);
        let dir = map.directory(SPEC).unwrap();
        let me = host(std::process::id(), own_host_time(), "child");
        let reg = dir.register(&me, process_probe).unwrap();
        println!("registered {}", reg.row);
        std::thread::sleep(std::time::Duration::from_secs(60));
    }

    #[cfg(unix)]
    fn open_or_create(at: &str) -> DirectoryMapping {
        DirectoryMapping::open_or_create(at, SPEC).unwrap()
    }

    #[cfg(windows)]
    fn open_or_create(at: &str) -> DirectoryMapping {
        DirectoryMapping::open_or_create_named(at, SPEC).unwrap()
    }

    /// Where the killed-host test keeps its directory: a file here, the reference's name on
    /// Windows.
    #[cfg(unix)]
    fn place() -> String {
        let p = std::env::temp_dir().join(format!("abi-directory-{}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p.display().to_string()
    }

    #[cfg(windows)]
    fn place() -> String {
        "Local\\ibf.directory".to_string()
    }

    #[test]
    fn own_process_time_is_known_and_stable() {
        let t = own_host_time();
        assert_ne!(t, 0);
        assert_eq!(process_probe(std::process::id()), ProcessProbe::Running(t));
    }

    /// A host killed with SIGKILL (Unix) or TerminateProcess (Windows: `Child::kill`) leaves
    /// its row live; the next host frees it before it registers.
    #[test]
    fn a_killed_hosts_row_is_freed_by_the_next_host() {
        let at = place();
        // This process opens first (creating it), so the directory outlives the child on
        // Windows too, where a named mapping lives while someone holds it.
        let map = open_or_create(&at);
        let mut child = Command::new(std::env::current_exe().unwrap())
            .env("ABI_DIRECTORY_AT", &at)
            .args([
                "--exact",
                "directory::processes::role",
                "--nocapture",
                "-q",
                "--test-threads=1",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        while !line.starts_with("registered") {
            line.clear();
            assert_ne!(
                out.read_line(&mut line).unwrap(),
                0,
                "the child ended before registering"
            );
        }
        let dir = map.directory(SPEC).unwrap();
        let listed = dir.list();
        assert_eq!(listed.hosts.len(), 1);
        assert_eq!(listed.hosts[0].host.pid, child.id());
        assert_eq!(listed.hosts[0].host.host_version, "child");
        child.kill().unwrap();
        child.wait().unwrap();
        let me = host(std::process::id(), own_host_time(), "next");
        let reg = dir.register(&me, process_probe).unwrap();
        assert_eq!(reg.stale_freed, 1, "the killed host's row was stale");
        let pids: Vec<_> = dir.list().hosts.iter().map(|h| h.host.pid).collect();
        assert_eq!(pids, [std::process::id()]);
        assert!(dir.unregister(&reg));
        assert_eq!(dir.list().hosts, []);
        #[cfg(unix)]
        std::fs::remove_file(&at).unwrap();
    }

    /// This process's pid in a row with another creation time is a reused pid: stale.
    #[test]
    fn a_row_with_this_pid_and_another_time_is_stale() {
        let buf = new_dir();
        let dir = directory::check(buf.region(), SPEC).unwrap();
        let pid = std::process::id();
        dir.register(&host(pid, own_host_time() + 1, "earlier"), |_| {
            ProcessProbe::Unknown
        })
        .unwrap();
        assert_eq!(dir.remove_stale(pid, process_probe), 1);
        dir.register(&host(pid, own_host_time(), "me"), |_| ProcessProbe::Unknown)
            .unwrap();
        assert_eq!(dir.remove_stale(pid, process_probe), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_second_host_opens_what_the_first_created_and_checks_it() {
        let at = place();
        let first = DirectoryMapping::open_or_create(&at, SPEC).unwrap();
        let second = DirectoryMapping::open_or_create(&at, SPEC).unwrap();
        assert!(first.created() && !second.created());
        let meta = std::fs::metadata(&at).unwrap();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777,
            0o600
        );
        first
            .directory(SPEC)
            .unwrap()
            .register(&host(1, 1, "a"), |_| ProcessProbe::Unknown)
            .unwrap();
        assert_eq!(second.directory(SPEC).unwrap().list().hosts.len(), 1);
        // A hostile file at the place: named errors, nothing touched.
        first
            .mapping()
            .region()
            .unwrap()
            .try_store::<u32>(4, 1000, Release)
            .unwrap();
        let third = DirectoryMapping::open_or_create(&at, SPEC).unwrap();
        assert_eq!(
            third.directory(SPEC).err(),
            Some(DirectoryError::BadEntryCount {
                found: 1000,
                fits: 16
            })
        );
        std::fs::remove_file(&at).unwrap();
    }
}
