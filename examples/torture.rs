//! The cross-process torture test: one host and client processes in Rust, C and Python
//! share one file mapping, through their generated helpers only.
//!
//! Phase 1: the host (this process, with the Rust live layer) publishes snapshots into the
//! ring at full speed, every 8-byte word of each derived from its publication number; every
//! client reads the newest snapshot over and over and checks each copy it accepts.
//! Phase 2: rounds of claims. In each round the host frees every client row and pad and
//! bumps the round; every client races to claim all of them by compare-and-swap and acks;
//! the host then records each row's and pad's owner. Each client prints what it won, and
//! each row and pad must have exactly one owner per round, the one the host saw.
//!
//! `cargo run --release --example torture -- [--seconds S] [--rounds N] [--clients K]
//! [--langs rust,c,python] [--named NAME] [--c-client EXE]`
//! ends with one line per language:
//! `torture LANG: R reads, T torn accepted, X retries, C claim rounds, D double claims`
//! and exits non-zero if any T or D is above 0, or X is 0 for a language.
//!
//! Windows: `--named Local\\NAME` makes the host create a named, pagefile-backed mapping
//! (`Mapping::create_named`) instead of a file, and the clients open it by name (the Rust
//! ones with `Mapping::open_named`, the C ones with `OpenFileMappingA`); `--c-client EXE`
//! runs a C client built beforehand (with mingw-w64) instead of building one with gcc.
//! tests/windows.rs runs it so, under wine, with `--langs rust,c`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitCode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod torture_support;

use bridge_abi::live;
use bridge_abi::runtime::{Mapping, Region};
use bridge_abi::zerocopy::IntoBytes;
use bridge_abi::*;
use torture_support::{ClientPrograms, build_c_client};

/// Where the ring starts in the mapping; the region table says so too.
const RING_AT: usize = 4096;
const RING_LEN: usize = RING_SLOTS as usize * RING_SLOT_SIZE as usize;
/// The harness's control words, past the bridge: the round (u64) and the acks (u64).
const CONTROL_AT: usize = RING_AT + RING_LEN;
const ROUND_AT: usize = CONTROL_AT;
const ACKS_AT: usize = CONTROL_AT + 8;
const MAPPING_LEN: usize = CONTROL_AT + 64;

/// The word at index `k` of publication `n` (the first word is `n` itself): every client
/// checks every word of a copy against it.
pub fn word(n: u64, k: usize) -> u64 {
    if k == 0 {
        return n;
    }
    n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (k as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("client") => run_client(&args[1..]),
        _ => run_host(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("torture: {e}");
            ExitCode::from(2)
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

/// The counts one client process prints on its last line.
#[derive(Default, Debug, Clone)]
struct Counts {
    reads: u64,
    torn: u64,
    retries: u64,
    rounds: u64,
}

/// One client process: its language, id, and the thread that reads its output as it
/// comes (a client prints a line per claim won; a full pipe would stall it).
struct Client {
    lang: &'static str,
    id: u8,
    child: Child,
    output: Option<std::thread::JoinHandle<String>>,
}

/// Kills the clients still running when the host returns early, so that none is left
/// spinning on a mapping nobody publishes into.
struct Clients(Vec<Client>);

impl Drop for Clients {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.child.kill();
            let _ = c.child.wait();
        }
    }
}

fn run_host(args: &[String]) -> Result<ExitCode, String> {
    let seconds = flag(args, "--seconds", 3)?;
    let rounds = flag(args, "--rounds", 200)?;
    let per_lang = flag(args, "--clients", 2)? as u8;
    let langs: Vec<&'static str> = match args.iter().position(|a| a == "--langs") {
        None => vec!["rust", "c", "python"],
        Some(i) => {
            let list = args
                .get(i + 1)
                .ok_or("--langs takes a list: rust,c,python")?;
            ["rust", "c", "python"]
                .into_iter()
                .filter(|l| list.split(',').any(|x| x == *l))
                .collect()
        }
    };
    let named = args
        .iter()
        .position(|a| a == "--named")
        .map(|i| args.get(i + 1).ok_or("--named takes a mapping name"))
        .transpose()?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("bridge-torture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (map, path) = create_mapping(&dir, named.map(String::as_str))?;
    let region = map.region().map_err(|e| e.to_string())?;
    let header = live::BridgeHeader::at(region, 0).map_err(|e| e.to_string())?;
    set_up_header(header);
    let ring = live::SnapshotRing::new(
        header,
        region
            .sub(RING_AT, RING_LEN, 8)
            .map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;

    let prebuilt = args
        .iter()
        .position(|a| a == "--c-client")
        .map(|i| args.get(i + 1).ok_or("--c-client takes a program"))
        .transpose()?;
    let c_client = match prebuilt {
        _ if !langs.contains(&"c") => PathBuf::new(),
        Some(exe) => PathBuf::from(exe),
        None => build_c_client(root, &dir, "client.c", "c_client", &[])?,
    };
    let programs = ClientPrograms {
        root,
        c_client: &c_client,
        python_script: "client.py",
    };
    let mut clients = Clients(Vec::new());
    let mut id = 0u8;
    for &lang in &langs {
        for _ in 0..per_lang {
            let (child, output) = programs.spawn(
                lang,
                &[
                    path.clone(),
                    id.to_string(),
                    seconds.to_string(),
                    rounds.to_string(),
                ],
            )?;
            clients.0.push(Client {
                lang,
                id,
                child,
                output: Some(output),
            });
            id += 1;
        }
    }
    let n_clients = clients.0.len() as u64;

    // Phase 1: publish at full speed until the reading time is over.
    let stop = AtomicBool::new(false);
    let published = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut slot = live::RingSlot::zeroed();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                for (k, chunk) in slot.payload.as_mut_bytes().chunks_exact_mut(8).enumerate() {
                    chunk.copy_from_slice(&word(n, k).to_le_bytes());
                }
                slot.tick = n;
                slot.payload_extra = n.to_le_bytes().to_vec();
                ring.publish(&mut slot).expect("a slot holds the value");
            }
            n
        });
        std::thread::sleep(Duration::from_secs(seconds) + Duration::from_millis(500));
        stop.store(true, Ordering::Relaxed);
        writer.join().expect("the writer thread")
    });

    // Phase 2: rounds of claims.
    let mut owners: BTreeMap<(u64, String), Vec<u8>> = BTreeMap::new();
    let mut host_seen: BTreeMap<(u64, String), u8> = BTreeMap::new();
    let mut rounds_done = 0;
    for r in 1..=rounds {
        for i in 0..MAX_CLIENTS {
            let row = header.clients(i).expect("a row");
            row.set_pid(0).unwrap();
            row.set_state(ClientState::FREE).unwrap();
        }
        let current = header.pad_owner();
        let _ = header
            .compare_exchange_pad_owner(current, [NO_PAD; MAX_PLAYERS])
            .unwrap();
        region.store::<u64>(ACKS_AT, 0, Ordering::Release);
        region.store::<u64>(ROUND_AT, r, Ordering::Release);
        let started = Instant::now();
        while region.load::<u64>(ACKS_AT, Ordering::Acquire) < n_clients {
            if started.elapsed() > Duration::from_secs(30) {
                return Err(format!(
                    "round {r}: only {} of {n_clients} clients acked in 30 s",
                    region.load::<u64>(ACKS_AT, Ordering::Acquire)
                ));
            }
            std::thread::yield_now();
        }
        for i in 0..MAX_CLIENTS {
            let row = header.clients(i).expect("a row");
            if row.state() == ClientState::ACTIVE {
                host_seen.insert((r, format!("row {i}")), row.pid() as u8);
            }
        }
        for (p, owner) in header.pad_owner().into_iter().enumerate() {
            host_seen.insert((r, format!("pad {p}")), owner);
        }
        rounds_done = r;
    }
    header.set_host_state(HostState::EXITING).unwrap();

    // Collect what each client says.
    let mut by_lang: BTreeMap<&str, (Counts, u64)> = BTreeMap::new();
    let mut lang_of: BTreeMap<u8, &str> = BTreeMap::new();
    let mut failed = false;
    for c in &mut clients.0 {
        lang_of.insert(c.id, c.lang);
        let status = c.child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            eprintln!("the {} client {} exited with {status}", c.lang, c.id);
            failed = true;
        }
        let text = c
            .output
            .take()
            .map(|t| t.join().unwrap_or_default())
            .unwrap_or_default();
        let mut counts = Counts::default();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["reads", r, t, x] => {
                    counts.reads = r.parse().unwrap_or(0);
                    counts.torn = t.parse().unwrap_or(u64::MAX);
                    counts.retries = x.parse().unwrap_or(0);
                }
                ["won", round, what, index] => {
                    let round: u64 = round.parse().unwrap_or(0);
                    owners
                        .entry((round, format!("{what} {index}")))
                        .or_default()
                        .push(c.id);
                }
                ["rounds", n] => counts.rounds = n.parse().unwrap_or(0),
                _ => {}
            }
        }
        let entry = by_lang.entry(c.lang).or_default();
        entry.0.reads += counts.reads;
        entry.0.torn += counts.torn;
        entry.0.retries += counts.retries;
        entry.0.rounds += counts.rounds;
    }

    // Every row and pad: exactly one winner per round, the owner the host saw.
    for r in 1..=rounds_done {
        let things = (0..MAX_CLIENTS)
            .map(|i| format!("row {i}"))
            .chain((0..MAX_PLAYERS).map(|p| format!("pad {p}")));
        for what in things {
            let winners = owners.get(&(r, what.clone())).cloned().unwrap_or_default();
            let seen = host_seen.get(&(r, what.clone())).copied();
            let ok = winners.len() == 1 && seen == Some(winners[0]);
            if !ok {
                eprintln!("round {r}, {what}: winners {winners:?}, the host saw {seen:?}");
                let mut blamed: Vec<u8> = winners.clone();
                if blamed.is_empty() {
                    blamed.extend(lang_of.keys().copied());
                }
                for id in blamed {
                    if let Some(lang) = lang_of.get(&id) {
                        by_lang.entry(lang).or_default().1 += 1;
                    }
                }
            }
        }
    }
    println!(
        "torture host: {published} snapshots published, {rounds_done} claim rounds, {n_clients} clients"
    );
    for &lang in &langs {
        let (c, doubles) = by_lang.get(lang).cloned().unwrap_or_default();
        println!(
            "torture {lang}: {} reads, {} torn accepted, {} retries, {} claim rounds, {doubles} double claims",
            c.reads, c.torn, c.retries, c.rounds
        );
        if c.torn > 0 || doubles > 0 || c.retries == 0 || c.reads == 0 {
            failed = true;
        }
    }
    drop(map);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The host's mapping: a new file `bridge.shm` in `dir`, or on Windows the named mapping
/// `named`; and what the clients open it by (the path, or the name).
fn create_mapping(dir: &Path, named: Option<&str>) -> Result<(Mapping, String), String> {
    match named {
        #[cfg(windows)]
        Some(name) => Ok((
            Mapping::create_named(name, MAPPING_LEN).map_err(|e| e.to_string())?,
            name.to_owned(),
        )),
        #[cfg(not(windows))]
        Some(name) => Err(format!("--named {name}: named mappings are Windows only")),
        None => {
            let path = dir.join("bridge.shm");
            let map = Mapping::create(&path, MAPPING_LEN)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((map, path.display().to_string()))
        }
    }
}

/// A client's mapping: by name on Windows when the host made a named one (`Local\…` or
/// `Global\…`), else the file at `what`; shorter than the host's is an error naming it.
fn open_mapping(what: &str) -> Result<Mapping, String> {
    #[cfg(windows)]
    let map = if what.starts_with("Local\\") || what.starts_with("Global\\") {
        Mapping::open_named(what).map_err(|e| e.to_string())?
    } else {
        Mapping::open(what).map_err(|e| format!("{what}: {e}"))?
    };
    #[cfg(not(windows))]
    let map = Mapping::open(what).map_err(|e| format!("{what}: {e}"))?;
    map.require_len(MAPPING_LEN).map_err(|e| e.to_string())?;
    Ok(map)
}

/// The host's header: magic, version, the ring's place in the region table.
fn set_up_header(header: live::BridgeHeader<'_>) {
    header.set_magic(BRIDGE_MAGIC).unwrap();
    header.set_abi_major(ABI_VERSION_MAJOR).unwrap();
    header.set_abi_minor(ABI_VERSION_MINOR).unwrap();
    header
        .set_header_size(live::BridgeHeader::SIZE as u32)
        .unwrap();
    header.set_total_size((RING_AT + RING_LEN) as u32).unwrap();
    header.set_ring_slots(RING_SLOTS).unwrap();
    header.set_ring_slot_size(RING_SLOT_SIZE).unwrap();
    let mut regions = header.regions();
    regions[BridgeRegion::SNAPSHOT_RING.0 as usize] = RegionEntry {
        offset: RING_AT as u32,
        size: RING_LEN as u32,
    };
    header.set_regions(regions).unwrap();
    header.set_region_count(MAX_REGIONS as u32).unwrap();
    header.set_host_state(HostState::RUNNING).unwrap();
}

/// A Rust client process: `client PATH ID SECONDS ROUNDS`.
fn run_client(args: &[String]) -> Result<ExitCode, String> {
    let [path, id, seconds, rounds] = args else {
        return Err("usage: torture client MAPPING ID SECONDS ROUNDS".into());
    };
    let id: u8 = id.parse().map_err(|_| "ID is a number")?;
    let seconds: u64 = seconds.parse().map_err(|_| "SECONDS is a number")?;
    let rounds: u64 = rounds.parse().map_err(|_| "ROUNDS is a number")?;
    let map = open_mapping(path)?;
    let region = map.region().map_err(|e| e.to_string())?;
    let header = live::BridgeHeader::at(region, 0).map_err(|e| e.to_string())?;
    let row = header.regions()[BridgeRegion::SNAPSHOT_RING.0 as usize];
    let slots = region
        .sub(row.offset as usize, row.size as usize, 8)
        .map_err(|e| e.to_string())?;
    let ring = live::SnapshotRing::new(header, slots).map_err(|e| e.to_string())?;

    let (mut reads, mut torn, mut retries) = (0u64, 0u64, 0u64);
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut slot = live::RingSlot::zeroed();
    while Instant::now() < until {
        match ring.read_newest_into(&mut slot, DEFAULT_TRIES_FOR_CLIENTS) {
            Ok(Some(r)) => {
                reads += 1;
                retries += u64::from(r);
                let n = slot.publish_seq;
                let whole = slot
                    .payload
                    .as_bytes()
                    .chunks_exact(8)
                    .enumerate()
                    .all(|(k, c)| u64::from_le_bytes(c.try_into().unwrap()) == word(n, k))
                    && slot.tick == n
                    && slot.payload_extra == n.to_le_bytes();
                if !whole {
                    torn += 1;
                }
            }
            Ok(None) => std::thread::yield_now(),
            Err(_) => retries += u64::from(DEFAULT_TRIES_FOR_CLIENTS),
        }
    }
    println!("reads {reads} {torn} {retries}");

    let done = claim_rounds(region, header, id, rounds);
    println!("rounds {done}");
    Ok(ExitCode::SUCCESS)
}

/// A round that does not change for this long means the host is gone: the client stops.
const HOST_GONE: Duration = Duration::from_secs(60);

/// Tries per read: bounded, and generous, since the host never pauses.
const DEFAULT_TRIES_FOR_CLIENTS: u32 = 100_000;

/// Phase 2 in a Rust client: every round, claim every row and pad, print the wins, ack.
fn claim_rounds(region: Region<'_>, header: live::BridgeHeader<'_>, id: u8, rounds: u64) -> u64 {
    let mut last = 0;
    let mut done = 0;
    let mut changed = Instant::now();
    while last < rounds {
        let r = region.load::<u64>(ROUND_AT, Ordering::Acquire);
        if r == last {
            if header.host_state() == HostState::EXITING || changed.elapsed() > HOST_GONE {
                break;
            }
            std::thread::yield_now();
            continue;
        }
        changed = Instant::now();
        for i in 0..MAX_CLIENTS {
            let row = header.clients(i).expect("a row");
            if row
                .compare_exchange_state(ClientState::FREE, ClientState::CLAIMED)
                .unwrap()
                .is_ok()
            {
                row.set_pid(u32::from(id)).unwrap();
                row.set_state(ClientState::ACTIVE).unwrap();
                println!("won {r} row {i}");
            }
        }
        for p in 0..MAX_PLAYERS {
            if header
                .compare_exchange_pad_owner_at(p, NO_PAD, id)
                .unwrap()
                .is_ok()
            {
                println!("won {r} pad {p}");
            }
        }
        region.fetch_add::<u64>(ACKS_AT, 1, Ordering::AcqRel);
        last = r;
        done += 1;
    }
    done
}
