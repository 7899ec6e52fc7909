//! The C header's attach helpers (`ibf_attach`, the typed accessors, the versioned record
//! reads), compiled from `tests/c_attach/attach.c` with gcc as C11, with g++ as C++17 (every
//! warning an error) and with gcc under AddressSanitizer and UndefinedBehaviorSanitizer, and
//! run on the images of `tests/common/image.rs`: the valid one attaches with the reference's
//! offsets, and every corruption is refused by the check it names. Each file is read into a
//! heap buffer of exactly its length, so the sanitizers catch any read past a truncated image.
//! These tests need gcc and g++ on PATH and fail, never skip, without them.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use abi_codegen::testing::language_backend::c::render_c_header;
use bridge_abi::live::Bridge;
use bridge_abi::runtime::{AttachError, SharedBuf};
use common::image::at;
use common::image::{
    self, BOT_BLOCKS, BOT_ROWS, CLIENT_BLOCKS, CLIENT_ROWS, LOG_RING, SNAPSHOT_RING,
};
use common::tools::{run_ok, scratch};
use common::verdict::{numbers, rust_verdict};

const STRICT: &str = "-O2 -Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion -Wshadow";

/// The program built three ways: name, compiler, flags.
const BUILDS: [(&str, &str, &str); 3] = [
    ("c11", "gcc", "-std=c11 -x c"),
    ("cxx17", "g++", "-std=c++17 -x c++"),
    (
        "c11_sanitized",
        "gcc",
        "-std=c11 -x c -g -fsanitize=address,undefined -fno-sanitize-recover=all",
    ),
];

/// From the reference: `snapshot_header` magic at 0x00, schema_major at 0x04, schema_minor
/// at 0x06; `snapshot` is 12104 bytes in 0.9 and was 11840 in 0.8.
const SNAPSHOT_MAGIC: u32 = 0x5346_4249;
const SNAPSHOT_0_9: usize = 12104;
const SNAPSHOT_0_8: usize = 11840;

/// The program, built once for all the tests of this file: its folder and executables.
static BUILT: OnceLock<(PathBuf, Vec<String>)> = OnceLock::new();

/// Builds the program every way, on a thread each, into a folder of its own (with the
/// header rendered from schema.toml), once; returns the folder and the executables' names.
fn build() -> &'static (PathBuf, Vec<String>) {
    BUILT.get_or_init(|| {
        let dir = scratch("c_attach");
        let header =
            render_c_header(&common::bridge_schema(), "schema.toml").expect("render bridge.h");
        std::fs::write(dir.join("bridge.h"), header).unwrap();
        std::fs::copy(
            manifest_path("tests/c_attach/attach.c"),
            dir.join("attach.c"),
        )
        .unwrap();
        let exes = std::thread::scope(|scope| {
            let jobs: Vec<_> = BUILDS
                .iter()
                .map(|(name, compiler, flags)| {
                    let dir = &dir;
                    scope.spawn(move || {
                        let exe = format!("attach_{name}");
                        let mut args: Vec<&str> = flags.split(' ').collect();
                        args.extend(STRICT.split(' '));
                        args.extend(["attach.c", "-o", &exe]);
                        run_ok(compiler, &args, dir);
                        exe
                    })
                })
                .collect();
            jobs.into_iter()
                .map(|j| j.join().expect("a build"))
                .collect()
        });
        (dir, exes)
    })
}

fn manifest_path(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs every build with `args` in `dir`; they must print the same. Returns each line's
/// fields by file name.
fn run_all(dir: &Path, args: &[&str]) -> HashMap<String, HashMap<String, String>> {
    let (built, exes) = build();
    let outputs: Vec<String> = exes
        .iter()
        .map(|exe| run_ok(built.join(exe).to_str().unwrap(), args, dir))
        .collect();
    for (exe, out) in exes.iter().zip(&outputs) {
        assert_eq!(&outputs[0], out, "{} and {exe} disagree", exes[0]);
    }
    outputs[0]
        .lines()
        .map(|line| {
            let mut words = line.split(' ');
            let file = words.next().unwrap().to_string();
            let fields = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (file, fields)
        })
        .collect()
}

#[test]
fn c_attach_agrees_with_the_reference_and_refuses_every_corruption() {
    let dir = &build().0.join("images");
    std::fs::create_dir_all(dir).unwrap();
    let mut corruptions = image::corruptions();
    assert!(corruptions.len() >= 22);
    corruptions.extend(image::geometry_corruptions());
    let mut files = vec!["valid.bin".to_string()];
    std::fs::write(dir.join("valid.bin"), image::valid()).unwrap();
    for (i, c) in corruptions.iter().enumerate() {
        let file = format!("corrupt{i:02}.bin");
        std::fs::write(dir.join(&file), &c.image).unwrap();
        files.push(file);
    }
    let mut args = vec!["attach"];
    args.extend(files.iter().map(String::as_str));
    let lines = run_all(dir, &args);

    let valid = &lines["valid.bin"];
    let client3 = CLIENT_BLOCKS.0 + 3 * 0x10000;
    let bot7 = BOT_BLOCKS.0 + 7 * 0x49000;
    let expect = [
        ("check", "ok".to_string()),
        ("code", "0".to_string()),
        ("producer", "0.9".to_string()),
        ("header_size", image::HEADER_SIZE.to_string()),
        ("extent", image::TOTAL.to_string()),
        ("header", "0".to_string()),
        ("header_size_region", image::HEADER_SIZE.to_string()),
        ("snapshot_ring", SNAPSHOT_RING.0.to_string()),
        ("snapshot_ring_size", SNAPSHOT_RING.1.to_string()),
        ("log_ring", LOG_RING.0.to_string()),
        ("log_ring_size", LOG_RING.1.to_string()),
        ("client_blocks", CLIENT_BLOCKS.0.to_string()),
        ("client_blocks_size", CLIENT_BLOCKS.1.to_string()),
        ("client_block3", client3.to_string()),
        (
            "client3_log_queue",
            (client3 + CLIENT_ROWS[0].0).to_string(),
        ),
        (
            "client3_pad_input",
            (client3 + CLIENT_ROWS[1].0).to_string(),
        ),
        ("client3_pad_input_size", CLIENT_ROWS[1].1.to_string()),
        ("client3_mailbox", (client3 + CLIENT_ROWS[2].0).to_string()),
        ("bot_blocks", BOT_BLOCKS.0.to_string()),
        ("bot_blocks_size", BOT_BLOCKS.1.to_string()),
        ("bot7", bot7.to_string()),
        ("bot7_draw", (bot7 + BOT_ROWS[0].0).to_string()),
        ("bot7_params", (bot7 + BOT_ROWS[1].0).to_string()),
        ("bot7_stats", (bot7 + BOT_ROWS[2].0).to_string()),
        ("bot7_stats_size", BOT_ROWS[2].1.to_string()),
        ("client8", "-1".to_string()),
        ("client8_pad_input", "-1".to_string()),
        ("client8_pad_input_size", "0".to_string()),
        ("bot8_stats", "-1".to_string()),
        ("bot8_draw_size", "0".to_string()),
        ("blocks_ok", "1".to_string()),
        ("host_generation", image::GENERATION.to_string()),
        ("attached", "1".to_string()),
        ("generation", image::GENERATION.to_string()),
        ("reloaded", "0".to_string()),
        ("ring_slots", "8".to_string()),
        ("ring_slot_size", "32768".to_string()),
        ("client_stride", "65536".to_string()),
        ("client_count", "8".to_string()),
        ("bot_stride", 0x49000.to_string()),
        ("bot_count", "8".to_string()),
    ];
    for (key, value) in expect {
        assert_eq!(valid.get(key), Some(&value), "valid image: {key}");
    }

    let mut seen = Vec::new();
    for (i, c) in corruptions.iter().enumerate() {
        let line = &lines[&format!("corrupt{i:02}.bin")];
        assert_eq!(line["check"], c.check, "{}: {line:?}", c.name);
        assert_eq!(line["name_of_code"], c.check, "{}", c.name);
        assert_eq!(line["all"], c.check, "{}: ibf_attach_all", c.name);
        assert_ne!(line["code"], "0", "{}", c.name);
        // The same verdict as the Rust bindings': check, region, expected and found.
        let buf = SharedBuf::from_bytes(&c.image);
        let rust = rust_verdict(buf.region()).expect_err(c.name);
        let (expected, found) = numbers(&rust);
        assert_eq!(
            (line["check"].as_str(), line["region"].as_str()),
            (rust.check(), rust.region()),
            "{}",
            c.name
        );
        assert_eq!(
            (line["expected"].clone(), line["found"].clone()),
            (expected.to_string(), found.to_string()),
            "{}",
            c.name
        );
        // And where they apply, the other numbers.
        let field = |k: &str| line[k].parse::<u64>().unwrap();
        match rust {
            AttachError::RegionOutOfBounds {
                offset,
                size,
                limit,
                ..
            } => assert_eq!(
                (field("offset"), field("size"), field("limit")),
                (offset, size, limit),
                "{}",
                c.name
            ),
            AttachError::RegionMisaligned { offset, align, .. } => assert_eq!(
                (field("offset"), field("align")),
                (offset, align),
                "{}",
                c.name
            ),
            AttachError::RegionsOverlap { ref other, .. } => {
                assert_eq!(&line["other"], other, "{}", c.name)
            }
            _ => {}
        }
        seen.push((c.name, line));
    }
    assert!(seen.len() >= 50, "{} images", seen.len());
    // What a few errors say besides their check.
    let by_name: HashMap<&str, &HashMap<String, String>> = seen.into_iter().collect();
    let field = |name: &str, key: &str| by_name[name][key].clone();
    assert_eq!(field("wrong magic", "expected"), "1111900745");
    assert_eq!(field("wrong magic", "found"), "1145455177");
    assert_eq!(field("wrong magic", "region"), "");
    assert_eq!(field("mapping shorter than the header", "expected"), "1280");
    assert_eq!(field("mapping shorter than the header", "found"), "1000");
    assert_eq!(field("region_count past the table", "found"), "9");
    assert_eq!(field("required region absent", "region"), "snapshot_ring");
    assert_eq!(
        field("region count leaves a region out", "region"),
        "log_ring"
    );
    assert_eq!(field("region offset wraps around", "offset"), "4294967288");
    assert_eq!(
        field("region offset wraps around", "limit"),
        image::TOTAL.to_string()
    );
    assert_eq!(field("misaligned region", "align"), "8");
    assert_eq!(field("region over the header", "region"), "snapshot_ring");
    assert_eq!(field("region over the header", "other"), "bridge_header");
    assert_eq!(field("overlapping regions", "region"), "log_ring");
    assert_eq!(field("overlapping regions", "other"), "client_blocks");
    let pad = "client block's pad_input too small";
    assert_eq!(field(pad, "region"), "client_blocks[0].pad_input");
    assert_eq!(field(pad, "expected"), "32");
    assert_eq!(field(pad, "found"), "16");
    assert_eq!(
        field("client block rows overlap", "region"),
        "client_blocks[0].pad_input"
    );
    assert_eq!(
        field("client block rows overlap", "other"),
        "client_blocks[0].log_queue"
    );
    assert_eq!(
        field("bot block size past its stride", "region"),
        "bot_blocks[3]"
    );
    assert_eq!(
        field("bot block region_count past the table", "region"),
        "bot_blocks[3]"
    );
    assert_eq!(
        field("bot block row misaligned", "region"),
        "bot_blocks[3].params"
    );
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    buf[at..at + bytes.len()].copy_from_slice(bytes);
}

/// A snapshot record of `len` bytes, every byte nonzero but its handshake.
fn snapshot(len: usize, minor: u16) -> Vec<u8> {
    let mut buf: Vec<u8> = (0..len).map(|i| (i % 251) as u8 | 1).collect();
    put(&mut buf, 0, &SNAPSHOT_MAGIC.to_le_bytes());
    put(&mut buf, 4, &0u16.to_le_bytes());
    put(&mut buf, 6, &minor.to_le_bytes());
    buf
}

/// A bridge header of `len` bytes whose header_size says `size`.
fn header(len: usize, minor: u16, size: u32) -> Vec<u8> {
    let mut buf: Vec<u8> = (0..len).map(|i| (i % 251) as u8 | 1).collect();
    put(
        &mut buf,
        image::at::MAGIC,
        &image::BRIDGE_MAGIC.to_le_bytes(),
    );
    put(&mut buf, image::at::ABI_MAJOR, &0u16.to_le_bytes());
    put(&mut buf, image::at::ABI_MINOR, &minor.to_le_bytes());
    put(&mut buf, image::at::HEADER_SIZE, &size.to_le_bytes());
    buf
}

#[test]
fn c_reads_extensible_records_by_their_producers_size() {
    let dir = &build().0.join("records");
    std::fs::create_dir_all(dir).unwrap();
    let mut bad_magic = snapshot(SNAPSHOT_0_9, 9);
    bad_magic[0] ^= 0xFF;
    let mut major1 = snapshot(SNAPSHOT_0_9, 9);
    major1[4] = 1;
    let snapshots = [
        // An 0.8 host's snapshot, and the same with stale bytes after it.
        ("s08.bin", snapshot(SNAPSHOT_0_8, 8)),
        ("s08_long.bin", snapshot(SNAPSHOT_0_9, 8)),
        // As new as ours: its size follows from its minor, so bytes past it are not read.
        ("s09_plus64.bin", snapshot(SNAPSHOT_0_9 + 64, 9)),
        // A newer minor: every byte given is the producer's.
        ("s010_plus64.bin", snapshot(SNAPSHOT_0_9 + 64, 10)),
        ("s_short.bin", snapshot(100, 9)),
        ("s_bad_magic.bin", bad_magic),
        ("s_major1.bin", major1),
    ];
    let headers = [
        ("h06.bin", header(1304, 6, 1296)),
        ("h09_plus64.bin", header(1304 + 64, 9, 1304 + 64)),
        ("h09_size_past_n.bin", header(1300, 9, 1304)),
        ("h_short.bin", header(1000, 9, 1304)),
    ];
    for (file, bytes) in snapshots.iter().chain(&headers) {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    let mut args = vec!["snapshot"];
    args.extend(snapshots.iter().map(|(f, _)| *f));
    let s = run_all(dir, &args);
    let mut args = vec!["header"];
    args.extend(headers.iter().map(|(f, _)| *f));
    let h = run_all(dir, &args);

    let check =
        |lines: &HashMap<String, HashMap<String, String>>, file: &str, expect: &[(&str, &str)]| {
            for (key, value) in expect {
                assert_eq!(
                    lines[file][*key], *value,
                    "{file}: {key} in {:?}",
                    lines[file]
                );
            }
        };
    let full = SNAPSHOT_0_9.to_string();
    let old = SNAPSHOT_0_8.to_string();
    for file in ["s08.bin", "s08_long.bin"] {
        check(
            &s,
            file,
            &[
                ("check", "ok"),
                ("producer", "0.8"),
                ("producer_size", &old),
                ("extra", "0"),
                ("has_match", "1"),
                ("has_projectiles_ext", "1"),
                ("has_spawn_markers", "0"),
                ("has_spawn_marker_count", "0"),
                ("prefix_same", "1"),
                ("rest_zero", "1"),
            ],
        );
    }
    check(
        &s,
        "s09_plus64.bin",
        &[
            ("check", "ok"),
            ("producer_size", &full),
            ("extra", "0"),
            ("has_spawn_markers", "1"),
            ("prefix_same", "1"),
        ],
    );
    check(
        &s,
        "s010_plus64.bin",
        &[
            ("check", "ok"),
            ("producer", "0.10"),
            ("producer_size", &(SNAPSHOT_0_9 + 64).to_string()),
            ("extra", "64"),
            ("extra_offset", &full),
            ("has_spawn_markers", "1"),
            ("has_spawn_marker_count", "1"),
            ("prefix_same", "1"),
            ("rest_zero", "1"),
        ],
    );
    check(
        &s,
        "s_short.bin",
        &[
            ("check", "mapping_too_short"),
            ("expected", "10088"),
            ("found", "100"),
        ],
    );
    check(&s, "s_bad_magic.bin", &[("check", "bad_magic")]);
    check(
        &s,
        "s_major1.bin",
        &[("check", "major_mismatch"), ("found", "1")],
    );

    check(
        &h,
        "h06.bin",
        &[
            ("check", "ok"),
            ("producer", "0.6"),
            ("producer_size", "1296"),
            ("has_controls", "1"),
            ("has_run_mode", "0"),
            ("has_sim_state", "0"),
            ("has_lockstep_timeout_ms", "0"),
            ("prefix_same", "1"),
            ("rest_zero", "1"),
            ("run_mode", "0"),
            ("lockstep_timeout_ms", "0"),
        ],
    );
    check(
        &h,
        "h09_plus64.bin",
        &[
            ("check", "ok"),
            ("producer_size", "1368"),
            ("extra", "64"),
            ("extra_offset", "1304"),
            ("has_lockstep_timeout_ms", "1"),
            ("prefix_same", "1"),
        ],
    );
    // header_size past the bytes given: only those are read, and the last field lacks.
    check(
        &h,
        "h09_size_past_n.bin",
        &[
            ("check", "ok"),
            ("producer_size", "1300"),
            ("has_sim_state", "1"),
            ("has_lockstep_timeout_ms", "0"),
            ("lockstep_timeout_ms", "0"),
            ("rest_zero", "1"),
        ],
    );
    check(
        &h,
        "h_short.bin",
        &[("check", "mapping_too_short"), ("expected", "1280")],
    );
}

/// Every public attach helper of the header is called by the program.
#[test]
fn the_program_calls_every_attach_helper() {
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema.toml")).unwrap();
    let schema = abi_codegen::load_schema(&src).unwrap();
    let header = render_c_header(&schema, "schema.toml").unwrap();
    let (_, attach) = header
        .split_once("\n * Attaching to a mapping\n")
        .expect("the header has attach helpers");
    let program = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_attach/attach.c"),
    )
    .unwrap();
    let missing: Vec<&str> = attach
        .lines()
        .filter_map(|l| l.strip_prefix("static inline "))
        .filter_map(|l| l.split_once('(')?.0.rsplit([' ', '*']).next())
        .filter(|name| !name.ends_with('_') && !program.contains(&format!("{name}(")))
        .collect();
    // The session's host functions over the handle (free, reload) are the protocols': the
    // protocol program calls them.
    let ops = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_protocols/ops.c"),
    )
    .unwrap();
    // The host directory's helpers follow the attach section: the directory program calls
    // them.
    let directory = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_directory/directory.c"),
    )
    .unwrap();
    // The directory's Windows open-or-create: the Windows directory program calls it
    // (tests/windows.rs, under wine).
    let windows_directory = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/windows/directory.c"),
    )
    .unwrap();
    // The host's service turn follows them: the service program calls it and each step.
    let service = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_service/turn.c"),
    )
    .unwrap();
    // The re-layout follows them: its program (tests/relayout_keeps.rs) calls both.
    let relayout = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/relayout_keeps/keeps.c"),
    )
    .unwrap();
    // The presence functions of fields the program has no use for are table rows like the
    // others: one of each record is enough.
    let missing: Vec<&str> = missing
        .into_iter()
        .filter(|n| {
            ![&ops, &directory, &windows_directory, &service, &relayout]
                .iter()
                .any(|p| p.contains(&format!("{n}(")))
        })
        .filter(|n| {
            ![
                "ibf_snapshot_has_pickup_spawns",
                "ibf_snapshot_has_ships_ext",
            ]
            .contains(n)
        })
        .collect();
    assert!(missing.is_empty(), "attach.c never calls {missing:?}");
}

#[test]
fn c_reads_the_ring_at_the_hosts_slot_count_and_size() {
    let dir = &build().0.join("rings");
    std::fs::create_dir_all(dir).unwrap();
    // (slots, slot size, publications): 16 slots with 20 published laps the schema's 8; a
    // 64 KiB slot is where a 32 KiB reader would find a stale publication.
    let cases = [(16u32, 32768u32, 20u64), (8, 65536, 3), (8, 32768, 11)];
    let mut files = Vec::new();
    for (slots, size, n) in cases {
        let buf = SharedBuf::from_bytes(&image::with_ring(slots, size));
        let bridge = Bridge::attach(buf.region()).expect("the host's ring attaches in Rust");
        let ring = bridge.snapshot_ring().unwrap();
        for k in 1..=n {
            let mut slot = bridge_abi::live::RingSlot::zeroed();
            slot.tick = k;
            slot.publish_seq = k;
            assert_eq!(ring.publish(&mut slot), Ok(k));
        }
        let mut bytes = vec![0u8; buf.region().len()];
        buf.region().read_bytes(0, &mut bytes);
        let file = format!("ring_{slots}_{size}.bin");
        std::fs::write(dir.join(&file), bytes).unwrap();
        files.push((file, slots, size, n));
    }
    let mut args = vec!["ring"];
    args.extend(files.iter().map(|f| f.0.as_str()));
    let lines = run_all(dir, &args);
    for (file, slots, size, n) in &files {
        let line = &lines[file];
        assert_eq!(line["attach"], "0", "{file}");
        assert_eq!(line["status"], "0", "{file}: read_newest is IBF_OK");
        assert_eq!(line["slots"], slots.to_string(), "{file}");
        assert_eq!(line["slot_size"], size.to_string(), "{file}");
        assert_eq!(
            line["tick"],
            n.to_string(),
            "{file}: the newest publication"
        );
        assert_ne!(
            line["schema_slots_status"], "0",
            "{file}: a slot count of 0 is refused"
        );
    }
}

#[test]
fn an_uninitialised_bot_block_refuses_only_itself_in_c() {
    let dir = &build().0.join("lazy");
    std::fs::create_dir_all(dir).unwrap();
    let bot7 = (BOT_BLOCKS.0 + 7 * 0x49000) as usize;
    let mut missing = image::valid();
    image::put32(&mut missing, bot7 + at::BLOCK_REGION_COUNT, 0);
    let mut zero = image::valid();
    zero[bot7..bot7 + 72].fill(0);
    std::fs::write(dir.join("missing.bin"), &missing).unwrap();
    std::fs::write(dir.join("zero.bin"), &zero).unwrap();
    let lines = run_all(dir, &["attach", "missing.bin", "zero.bin"]);
    for (file, check, region) in [
        ("missing.bin", "region_missing", "bot_blocks[7].draw"),
        ("zero.bin", "extent_too_small", "bot_blocks[7]"),
    ] {
        let line = &lines[file];
        assert_eq!(
            line["attached"], "1",
            "{file}: one bad block does not stop attach"
        );
        assert_eq!(
            (line["check"].as_str(), line["region"].as_str()),
            (check, region),
            "{file}: the block's own check names it"
        );
        // The other blocks work: bot block 0's draw list and block 7's absent rows.
        let bot0 = BOT_BLOCKS.0 + BOT_ROWS[0].0;
        assert_eq!(line["bot0_draw"], bot0.to_string(), "{file}");
        assert_eq!(
            line["bot7_draw"], "-1",
            "{file}: the bad block's rows are absent"
        );
        assert_eq!(
            line["client3_mailbox"],
            (CLIENT_BLOCKS.0 + 3 * 0x10000 + CLIENT_ROWS[2].0).to_string()
        );
    }
}

#[test]
fn a_c_bot_racing_the_hosts_start_up_and_reloads_never_accepts_a_half_written_table() {
    use bridge_abi::HostState;
    use bridge_abi::live::BridgeHeader;
    use bridge_abi::runtime::Mapping;
    use std::sync::atomic::{Ordering, fence};

    let dir = scratch("c_attach_race");
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    std::fs::copy(manifest_path("tests/c_attach/race.c"), dir.join("race.c")).unwrap();
    let mut args = vec!["-std=c11", "-x", "c"];
    args.extend(STRICT.split(' '));
    args.extend(["race.c", "-o", "race"]);
    run_ok("gcc", &args, &dir);

    // 16 ring slots in odd generations, 8 in even ones (the ring region holds 16); the
    // stats region of bot block 7 is 64 bytes longer in odd ones.
    let mut bytes = image::with_ring(16, 32768);
    bytes[at::HOST_GENERATION..at::HOST_STATE + 4].fill(0);
    let path = dir.join("bridge.shm");
    // The image, then the word where the bot says which generation it attached to.
    let seen_at = bytes.len();
    let map = Mapping::create(&path, bytes.len() + 8).expect("the host's mapping");
    let region = map.region().unwrap();
    let seen = || {
        let mut word = [0u8; 8];
        region.read_bytes(seen_at, &mut word);
        u64::from_le_bytes(word)
    };
    // The host has written the handshake and nothing else when the bot starts.
    region
        .write_bytes(0, &bytes[..at::HOST_GENERATION])
        .unwrap();
    let bot = std::process::Command::new(dir.join("race"))
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the C bot");
    std::thread::sleep(std::time::Duration::from_millis(50));
    let head = BridgeHeader::at(region, 0).unwrap();
    let bot_blocks = u32::from_le_bytes(
        bytes[at::REGIONS + 32..at::REGIONS + 36]
            .try_into()
            .unwrap(),
    );
    let stats7 = bot_blocks as usize + 7 * 0x49000 + at::BLOCK_REGIONS + 2 * 8 + 4;
    let stats_size = |g: u32| BOT_ROWS[2].1 + if g % 2 == 1 { 64 } else { 0 };
    bytes[stats7..stats7 + 4].copy_from_slice(&stats_size(1).to_le_bytes());
    image::write_slowly(region, &bytes, at::HOST_GENERATION);
    head.set_host_generation(1).unwrap();
    head.set_host_state(HostState::RUNNING).unwrap();
    let rounds = 400u32;
    for g in 2..2 + rounds {
        // Now and then, let the bot attach to the previous generation before this reload;
        // the other reloads follow each other at once: a bot that catches one of their
        // short running windows attaches while the next reload rewrites the tables.
        let waited = std::time::Instant::now();
        while g % 4 == 0 && seen() != u64::from(g - 1) && waited.elapsed().as_secs() < 5 {
            std::thread::yield_now();
        }
        // Running for under a microsecond: about when a bot that caught the window reads
        // the geometry.
        let hold = std::time::Duration::from_nanos(u64::from(g % 5) * 200);
        let held = std::time::Instant::now();
        while held.elapsed() < hold {
            std::hint::spin_loop();
        }
        // A reload: starting, the tables rewritten with the new geometry, a new
        // generation, running.
        head.set_host_state(HostState::STARTING).unwrap();
        fence(Ordering::Release);
        let slots: u32 = if g % 2 == 1 { 16 } else { 8 };
        let mut tables = bytes[..4096].to_vec();
        tables[at::RING_SLOTS..at::RING_SLOTS + 4].copy_from_slice(&slots.to_le_bytes());
        image::write_slowly(region, &tables, at::REGIONS);
        // And the last block attach reads: bot block 7's stats region, 64 bytes longer in
        // odd generations.
        region
            .write_bytes(stats7, &stats_size(g).to_le_bytes())
            .unwrap();
        head.set_host_generation(g).unwrap();
        head.set_host_state(HostState::RUNNING).unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(20));
    head.set_host_state(HostState::EXITING).unwrap();
    let out = bot.wait_with_output().expect("the C bot");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let fields: HashMap<&str, u64> = stdout
        .split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k, v.parse().unwrap()))
        .collect();
    eprintln!("C bot: {stdout}");
    assert_eq!(fields["bad"], 0, "{stderr}");
    assert!(
        fields["refused"] > 0,
        "the bot must have raced the start-up or a reload"
    );
    assert!(
        fields["attaches"] > 1,
        "the bot must attach again after a reload"
    );
    assert!(fields["noticed"] > 0, "the bot must notice a reload");
}

#[test]
fn c_tells_which_header_fields_an_older_producer_has() {
    let dir = &build().0.join("older_headers");
    std::fs::create_dir_all(dir).unwrap();
    // (minor, header_size, controls run_mode sim_state lockstep_timeout_ms present), as
    // tests/attach.rs checks the Rust view: the bytes past header_size are another region's.
    let cases = [
        (6u16, 1296u32, "1000"),
        (3, 1280, "0000"),
        (9, 1304, "1111"),
    ];
    let mut files = Vec::new();
    for (minor, size, _) in cases {
        let bytes = image::older_header(minor, size);
        let file = format!("header_{minor}_{size}.bin");
        std::fs::write(dir.join(&file), bytes).unwrap();
        files.push(file);
    }
    let mut args = vec!["attach"];
    args.extend(files.iter().map(String::as_str));
    let lines = run_all(dir, &args);
    for (file, (minor, _, present)) in files.iter().zip(cases) {
        assert_eq!(lines[file]["check"], "ok", "{file}");
        assert_eq!(lines[file]["has"], present, "0.{minor}: {file}");
    }
}

/// A row a later minor version added (bot_blocks, since 0.5) may be absent from an older
/// producer's table, and must be there in one of our minor: the header's row check prints
/// the plan's since (tests/attach.rs checks the Rust handle alike).
#[test]
fn c_takes_an_older_producer_without_the_newer_row() {
    let dir = &build().0.join("older_rows");
    std::fs::create_dir_all(dir).unwrap();
    let mut files = Vec::new();
    for minor in [4u16, 9] {
        let mut bytes = image::valid();
        image::put16(&mut bytes, at::ABI_MINOR, minor);
        image::put32(&mut bytes, at::REGION_COUNT, 4);
        image::put32(&mut bytes, at::HEADER_SIZE, 1280);
        let file = format!("no_bot_blocks_0_{minor}.bin");
        std::fs::write(dir.join(&file), bytes).unwrap();
        files.push(file);
    }
    let mut args = vec!["attach"];
    args.extend(files.iter().map(String::as_str));
    let lines = run_all(dir, &args);
    // The attach itself, and ibf_attach_all; the block checks of this program's verdict
    // refuse block k of an absent region as region_missing, so `check` is not the one to read.
    let (older, ours) = (&lines[&files[0]], &lines[&files[1]]);
    assert_eq!(
        (older["attached"].as_str(), older["all"].as_str()),
        ("1", "ok"),
        "an 0.4 producer has no bot blocks: {older:?}"
    );
    assert_eq!(older["bot_blocks"], "-1", "and none is found");
    assert_eq!(
        (
            ours["attached"].as_str(),
            ours["all"].as_str(),
            ours["region"].as_str()
        ),
        ("0", "region_missing", "bot_blocks"),
        "an 0.9 one must have them: {ours:?}"
    );
}
