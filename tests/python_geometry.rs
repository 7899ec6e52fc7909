//! The host's geometry, start-up, reload and lazy blocks in the Python module
//! (`generated/bridge.py`), as `tests/attach_geometry.rs` checks them in Rust: every image of
//! `image::corruptions()` and `image::geometry_corruptions()` gets the check the corruption
//! names and Rust's verdict (`tests/common/verdict.rs`: attach, then every client and bot
//! block, the first error), with Rust's region, numbers and message; rings a host built with
//! another slot count or slot size are read at the host's geometry; one bad bot block refuses
//! only itself; `generation` and `reloaded()` see a reload; random mutations of the header,
//! the tables and the geometry get Rust's verdict, whole; a Python bot racing a Rust host
//! that starts and reloads a shared file is only ever refused as retryable, and each handle
//! has its generation's geometry. The script is
//! `tests/python_attach/attach.py`, run by CPython with every warning an error.
//!
//! Every test fails, never skips, when python3 is missing.
#![cfg(not(miri))]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use bridge_abi::runtime::{AttachError, SharedBuf};
use common::image::{self, Corruption, at};
use common::verdict::rust_verdict;

/// Runs `attach.py mode dir`; what it printed, as JSON.
fn script(mode: &str, dir: &Path) -> Value {
    let stdout = common::tools::attach_py(mode, dir, &[]);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn scratch(name: &str) -> PathBuf {
    common::tools::scratch(&format!("python_geometry_{name}"))
}

/// What Rust's error says, in the keys the script prints Python's with.
fn rust_facts(e: &AttachError) -> Value {
    let mut v = json!({
        "check": e.check(), "region": e.region(), "expected": null, "found": null,
        "offset": null, "size": null, "limit": null, "align": null, "other": null,
        "message": e.to_string(), "retryable": e.is_retryable(),
    });
    match e {
        AttachError::MappingTooShort { expected, found }
        | AttachError::BadMagic { expected, found }
        | AttachError::MajorMismatch { expected, found }
        | AttachError::HeaderTooSmall { expected, found }
        | AttachError::HeaderBeyondMapping { expected, found }
        | AttachError::ExtentBeyondMapping { expected, found }
        | AttachError::HostNotRunning { expected, found }
        | AttachError::HostReloaded { expected, found }
        | AttachError::ExtentTooSmall {
            expected, found, ..
        }
        | AttachError::ExtentBeyondBlock {
            expected, found, ..
        }
        | AttachError::TooManyRows {
            expected, found, ..
        }
        | AttachError::RegionTooSmall {
            expected, found, ..
        }
        | AttachError::GeometryMismatch {
            expected, found, ..
        }
        | AttachError::GeometryMisaligned {
            expected, found, ..
        }
        | AttachError::GeometryTooSmall {
            expected, found, ..
        }
        | AttachError::GeometryTooLarge {
            expected, found, ..
        } => {
            v["expected"] = json!(expected);
            v["found"] = json!(found);
        }
        AttachError::RegionOutOfBounds {
            offset,
            size,
            limit,
            ..
        } => {
            v["offset"] = json!(offset);
            v["size"] = json!(size);
            v["limit"] = json!(limit);
        }
        AttachError::RegionMisaligned { offset, align, .. } => {
            v["offset"] = json!(offset);
            v["align"] = json!(align);
        }
        AttachError::RegionsOverlap { other, .. } => v["other"] = json!(other),
        _ => {}
    }
    v
}

/// Writes each image as `corrupt_NN.bin` and returns Python's verdicts, by file name.
fn python_verdicts(name: &str, list: &[Corruption]) -> Value {
    let dir = scratch(name);
    for (i, c) in list.iter().enumerate() {
        std::fs::write(dir.join(format!("corrupt_{i:02}.bin")), &c.image).expect("write");
    }
    script("verdicts", &dir)
}

/// Python's verdict on each image is the corruption's check and Rust's verdict; `whole`:
/// with Rust's region, numbers and message too.
fn same_verdicts(name: &str, list: &[Corruption], whole: bool) {
    let out = python_verdicts(name, list);
    for (i, c) in list.iter().enumerate() {
        let python = &out[format!("corrupt_{i:02}.bin")];
        let buf = SharedBuf::from_bytes(&c.image);
        let rust = rust_verdict(buf.region())
            .err()
            .unwrap_or_else(|| panic!("{}: Rust attached", c.name));
        assert_eq!(python["check"], json!(c.check), "{}: {python}", c.name);
        assert_eq!(python["check"], json!(rust.check()), "{}: {python}", c.name);
        assert_eq!(
            python["region"],
            json!(rust.region()),
            "{}: {python}",
            c.name
        );
        if whole {
            assert_eq!(*python, rust_facts(&rust), "{}", c.name);
        }
    }
}

#[test]
fn every_corruption_gets_the_rust_verdict() {
    // Lazy blocks: a block's corruption is found when the verdict asks for the block.
    same_verdicts("corruptions", &image::corruptions(), true);
}

#[test]
fn every_geometry_corruption_gets_the_rust_verdict_region_and_numbers() {
    let list = image::geometry_corruptions();
    same_verdicts("geometry", &list, true);
    let out = python_verdicts("geometry_messages", &list);
    let message = |name: &str| {
        let i = list.iter().position(|c| c.name == name).expect("a case");
        out[format!("corrupt_{i:02}.bin")]["message"].clone()
    };
    assert_eq!(
        message("client_entry_size larger"),
        "attach: geometry_mismatch: bridge_header.client_entry_size is 256, expected 128"
    );
    assert_eq!(
        message("ring_slots past the ring region"),
        "attach: geometry_too_large: snapshot_ring: the host's geometry asks for 294912 bytes, expected at most 262144 (the region's size)"
    );
    assert_eq!(
        message("draw buffers differ"),
        "attach: geometry_mismatch: bot_blocks[3].draw.buffers is 4, expected 3"
    );
    assert_eq!(
        message("host still starting"),
        "attach: host_not_running: host state 0, expected 1 (running); the host is starting or leaving: attach again"
    );
}

#[test]
fn rings_are_read_at_the_hosts_slot_count_and_size() {
    let dir = scratch("follow");
    std::fs::write(dir.join("ring_16.bin"), image::with_ring(16, 32768)).expect("write");
    std::fs::write(dir.join("ring_64k.bin"), image::with_ring(8, 65536)).expect("write");
    let out = script("follow", &dir);
    let r16 = &out["ring_16"];
    assert_eq!(
        (&r16["slot_count"], &r16["slot_size"]),
        (&json!(16), &json!(32768))
    );
    assert_eq!(r16["constants"], json!([8, 32768]));
    assert_eq!(
        r16["newest_tick"],
        json!(12),
        "publication 12, not the constant ring's 4"
    );
    let at16: Vec<u64> = (0..16).map(|k| k * 32768).collect();
    assert_eq!(r16["slot_at"], json!(at16));
    assert_eq!(r16["beyond"], json!("IndexError"));
    // Where the schema's 8-slot ring looks for publication 12 (slot 3): publication 4.
    assert_eq!(r16["at_schema_stride"], json!(4));

    let r64 = &out["ring_64k"];
    assert_eq!(
        (&r64["slot_count"], &r64["slot_size"]),
        (&json!(8), &json!(65536))
    );
    assert_eq!(r64["newest_tick"], json!(3));
    let at64: Vec<u64> = (0..8).map(|k| k * 65536).collect();
    assert_eq!(r64["slot_at"], json!(at64));
    assert_eq!(r64["last_slot_length"], json!(65536));
    // Where a reader at the schema's 32 KiB stride looks for the newest (slot 2) is the
    // host's slot 1: publication 2, stale.
    assert_eq!(r64["at_schema_stride"], json!(2));
    // The blocks after the larger ring moved, and are found at the host's offsets.
    let shift = 8 * 65536 - image::SNAPSHOT_RING.1;
    assert_eq!(
        r64["client7"],
        json!(image::CLIENT_BLOCKS.0 + shift + 7 * 0x10000)
    );
    assert_eq!(
        r64["bot7"],
        json!(image::BOT_BLOCKS.0 + shift + 7 * 0x49000)
    );
}

#[test]
fn the_blocks_row_is_read_at_the_hosts_stride() {
    // A host whose client blocks are 32 KiB apart (the region unchanged: 8 of them fit).
    let mut bytes = image::valid();
    image::put32(&mut bytes, at::CLIENT_BLOCK_SIZE, 0x8000);
    // Nothing of the 64 KiB blocks left: a reader at the schema's stride finds block 4 zero.
    let (start, len) = (
        image::CLIENT_BLOCKS.0 as usize,
        image::CLIENT_BLOCKS.1 as usize,
    );
    bytes[start..start + len].fill(0);
    for k in 0..8u32 {
        let block = (image::CLIENT_BLOCKS.0 + k * 0x8000) as usize;
        image::put32(&mut bytes, block + at::BLOCK_SIZE, 0x8000);
        image::put32(&mut bytes, block + at::BLOCK_REGION_COUNT, 3);
        for (r, row) in image::CLIENT_ROWS.iter().enumerate() {
            image::row(&mut bytes, block + at::BLOCK_REGIONS, r, *row);
        }
        let queue = block + image::CLIENT_ROWS[0].0 as usize + at::LOG_CAPACITY;
        image::put32(&mut bytes, queue, 16384);
        let mailbox = block + image::CLIENT_ROWS[2].0 as usize;
        image::put32(&mut bytes, mailbox + at::REQUEST_CAPACITY, 1024);
        image::put32(&mut bytes, mailbox + at::RESPONSE_CAPACITY, 3008);
    }
    let buf = SharedBuf::from_bytes(&bytes);
    rust_verdict(buf.region()).expect("Rust attaches the 32 KiB blocks");
    let list = [Corruption {
        name: "32 KiB client blocks",
        check: "",
        image: bytes,
    }];
    let out = python_verdicts("stride", &list);
    assert_eq!(out["corrupt_00.bin"], Value::Null, "{out}");
}

#[test]
fn one_bad_bot_block_refuses_only_itself() {
    let dir = scratch("lazy");
    let bot7 = (image::BOT_BLOCKS.0 + 7 * 0x49000) as usize;
    let mut count0 = image::valid();
    image::put32(&mut count0, bot7 + at::BLOCK_REGION_COUNT, 0);
    std::fs::write(dir.join("lazy_count0.bin"), &count0).expect("write");
    let mut zero = image::valid();
    zero[bot7..bot7 + 0x49000].fill(0);
    std::fs::write(dir.join("lazy_zero.bin"), &zero).expect("write");
    let out = script("lazy", &dir);
    for (name, check, region, image) in [
        (
            "lazy_count0.bin",
            "region_missing",
            "bot_blocks[7].draw",
            &count0,
        ),
        ("lazy_zero.bin", "extent_too_small", "bot_blocks[7]", &zero),
    ] {
        let fact = &out[name];
        assert_eq!(
            fact["others"],
            json!([true, true, true, true, true, true, true]),
            "{name}"
        );
        assert_eq!(fact["client7"], json!(true), "{name}");
        let errors = fact["errors"].as_array().expect("two asks");
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0], errors[1], "the same error on each ask");
        assert_eq!(
            (&errors[0][0], &errors[0][1]),
            (&json!(check), &json!(region))
        );
        let buf = SharedBuf::from_bytes(image);
        let rust = rust_verdict(buf.region()).unwrap_err();
        assert_eq!(errors[0][2], json!(rust.to_string()), "{name}");
    }
}

#[test]
fn generation_and_reloaded_follow_the_hosts_state() {
    let dir = scratch("reload");
    std::fs::write(dir.join("valid.bin"), image::valid()).expect("write");
    let out = script("reload", &dir);
    let g = u64::from(image::GENERATION);
    assert_eq!(
        out,
        json!({
            "generation": g,
            "reloaded_at_first": false,
            "reloaded_while_starting": true,
            "attach_while_starting": [
                "host_not_running", image::RUNNING, image::STARTING, true,
                "attach: host_not_running: host state 0, expected 1 (running); the host is starting or leaving: attach again"
            ],
            "reloaded_after": true,
            "new_generation": g + 1,
            "new_reloaded": false,
            "reload_during_attach": [
                "host_reloaded", g + 1, 9, true,
                "attach: host_reloaded: host generation (or state) changed from 2 to 9 during attach: attach again"
            ],
            "starting_during_attach": [
                "host_not_running", image::RUNNING, image::STARTING, true,
                "attach: host_not_running: host state 0, expected 1 (running); the host is starting or leaving: attach again"
            ],
        })
    );
}

/// A small deterministic generator (xorshift64*), so that a failure can be run again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Where the mutations write: the header (its handshake, state, generation, table and
/// geometry), the log ring's header, and the header, table and geometry fields of client
/// blocks 0 and 5 and bot blocks 3 and 7.
fn mutation_spots() -> Vec<usize> {
    let mut spots: Vec<usize> = (0..0xC8).step_by(2).collect();
    spots.push(image::LOG_RING.0 as usize + at::LOG_CAPACITY);
    for k in [0, 5] {
        let block = (image::CLIENT_BLOCKS.0 + k * 0x10000) as usize;
        spots.extend((0..32).step_by(4).map(|o| block + o));
        spots.push(block + image::CLIENT_ROWS[0].0 as usize + at::LOG_CAPACITY);
        let mailbox = block + image::CLIENT_ROWS[2].0 as usize;
        spots.extend([
            mailbox + at::REQUEST_CAPACITY,
            mailbox + at::RESPONSE_CAPACITY,
        ]);
    }
    for k in [3, 7] {
        let block = (image::BOT_BLOCKS.0 + k * 0x49000) as usize;
        spots.extend((0..32).step_by(4).map(|o| block + o));
        let draw = block + image::BOT_ROWS[0].0 as usize;
        spots.extend(
            [
                at::DRAW_BUFFERS,
                at::DRAW_BUFFER_SIZE,
                at::DRAW_MAX_COMMANDS,
                at::DRAW_MAX_PAYLOAD,
            ]
            .map(|f| draw + f),
        );
        spots.push(block + image::BOT_ROWS[1].0 as usize + at::MAX_PARAMS);
        spots.push(block + image::BOT_ROWS[2].0 as usize + at::MAX_STATS);
    }
    spots
}

#[test]
fn random_mutations_get_the_rust_verdict() {
    const ROUNDS: usize = 2000;
    let valid = image::valid();
    let spots = mutation_spots();
    let words: [u32; 16] = [
        0,
        1,
        2,
        7,
        8,
        9,
        16,
        64,
        72,
        128,
        4096,
        12168,
        0x8000,
        0x10000,
        0x8000_0000,
        u32::MAX,
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut list = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let mut writes = Vec::new();
        for _ in 0..1 + rng.below(2) {
            let at = spots[rng.below(spots.len())];
            let value = match rng.below(4) {
                0 => rng.next() as u32,
                1 => {
                    let old = u32::from_le_bytes(valid[at..at + 4].try_into().unwrap());
                    old.wrapping_add(rng.below(33) as u32).wrapping_sub(16)
                }
                _ => words[rng.below(words.len())],
            };
            let bytes = if rng.below(4) == 0 {
                vec![value as u8]
            } else {
                value.to_le_bytes().to_vec()
            };
            writes.push((at, bytes));
        }
        let len = if rng.below(10) == 0 {
            rng.below(valid.len() + 1)
        } else {
            valid.len()
        };
        list.push((writes, len));
    }
    let dir = scratch("mutations");
    std::fs::write(dir.join("valid.bin"), &valid).expect("write");
    let todo: Vec<Value> = (list.iter())
        .map(|(writes, len)| json!({ "writes": writes, "len": len }))
        .collect();
    std::fs::write(dir.join("mutations.json"), Value::from(todo).to_string()).expect("write");
    let out = script("mutations", &dir);
    let python = out.as_array().expect("one verdict per mutation");
    assert_eq!(python.len(), ROUNDS);
    let mut checks = std::collections::BTreeMap::<&str, usize>::new();
    for (k, ((writes, len), python)) in list.iter().zip(python).enumerate() {
        let mut bytes = valid.clone();
        for (at, data) in writes {
            bytes[*at..*at + data.len()].copy_from_slice(data);
        }
        let buf = SharedBuf::from_bytes(&bytes[..*len]);
        let rust = rust_verdict(buf.region()).err();
        let want = rust.as_ref().map_or(Value::Null, rust_facts);
        assert_eq!(*python, want, "mutation {k}: {writes:?}, {len} bytes");
        *checks
            .entry(rust.as_ref().map_or("ok", AttachError::check))
            .or_default() += 1;
    }
    println!("python vs rust, {ROUNDS} mutations: {checks:?}");
    // The mutations reach the geometry and the blocks, not only the handshake.
    for check in [
        "ok",
        "host_not_running",
        "geometry_mismatch",
        "geometry_zero",
        "geometry_too_large",
        "extent_beyond_block",
        "too_many_rows",
    ] {
        assert!(checks.contains_key(check), "no {check}: {checks:?}");
    }
}

#[test]
fn a_python_bot_racing_a_host_that_starts_and_reloads_never_accepts_a_half_written_table() {
    use bridge_abi::HostState;
    use bridge_abi::live::BridgeHeader;
    use bridge_abi::runtime::Mapping;
    use std::sync::atomic::{Ordering, fence};
    use std::time::{Duration, Instant};

    // A ring region big enough for 16 slots; generation g has 16 slots when odd, 8 when even.
    let mut bytes = image::with_ring(16, 32768);
    bytes[at::HOST_GENERATION..at::HOST_STATE + 4].fill(0);
    // Where the bot says which generation it saw: inside the log ring's entries (moved along
    // by the larger ring), which no check reads.
    let shift = 16 * 32768 - image::SNAPSHOT_RING.1;
    let signal = (image::LOG_RING.0 + shift) as usize + 4096;
    let dir = scratch("race");
    let path = dir.join("bridge.shm");
    let map = Mapping::create(&path, bytes.len()).expect("create the mapping");
    let region = map.region().expect("aligned");
    // The host has mapped the bridge and written the handshake, nothing else yet.
    region
        .write_bytes(0, &bytes[..at::HOST_GENERATION])
        .unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bot = Command::new("python3")
        .args(["-B", "-W", "error"])
        .arg(root.join("tests/python_attach/attach.py"))
        .args([
            "race",
            dir.to_str().expect("a UTF-8 path"),
            &signal.to_string(),
        ])
        .env("PYTHONPATH", root.join("generated"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 is required for the Python target's tests");
    let seen = |want: u64| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let mut word = [0u8; 8];
            region.read_bytes(signal, &mut word);
            if u64::from_le_bytes(word) == want {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the bot never signalled {want:#x}"
            );
            std::thread::sleep(Duration::from_micros(50));
        }
    };
    let header = BridgeHeader::at(region, 0).unwrap();
    // Start-up: once the bot has been refused, write every table slowly, then running.
    seen(u64::MAX);
    image::write_slowly(region, &bytes, at::HOST_GENERATION);
    region
        .write_bytes(at::RING_SLOTS, &16u32.to_le_bytes())
        .unwrap();
    header.set_host_generation(1).unwrap();
    header.set_host_state(HostState::RUNNING).unwrap();
    seen(1);
    let rounds = 100u32;
    for g in 2..2 + rounds {
        // A reload: starting, the tables rewritten, a new generation, running.
        header.set_host_state(HostState::STARTING).unwrap();
        fence(Ordering::Release);
        image::write_slowly(region, &bytes[..4096], at::REGIONS);
        let slots: u32 = if g % 2 == 1 { 16 } else { 8 };
        region
            .write_bytes(at::RING_SLOTS, &slots.to_le_bytes())
            .unwrap();
        header.set_host_generation(g).unwrap();
        header.set_host_state(HostState::RUNNING).unwrap();
        // Now and then, let the bot attach to this generation before the next reload.
        if g % 4 == 0 {
            seen(u64::from(g));
        }
    }
    // Leaving: the bot stops at host_not_running with state exiting (2).
    header.set_host_state(HostState::EXITING).unwrap();
    let out = bot.wait_with_output().expect("the bot ran");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the bot failed\n--- stdout\n{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let counts: Value = serde_json::from_str(&stdout).expect("JSON counts");
    println!("python race: {counts}");
    assert!(counts["start_retries"].as_u64().unwrap() > 0, "{counts}");
    assert!(counts["attaches"].as_u64().unwrap() > 1, "{counts}");
    assert!(counts["noticed"].as_u64().unwrap() > 1, "{counts}");
    drop(map);
}
