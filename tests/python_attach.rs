//! The Python target's `attach` (codegen/ATTACH.md), run by CPython with every warning an
//! error against the images of `tests/common/image.rs`, written to files and mapped
//! read-only: each corruption is refused by the check it names (attach, then every block,
//! each checked when asked for: the verdict `tests/common/verdict.rs` gives in Rust), the
//! valid image attaches with its regions at the image's offsets (which follow the
//! reference), random buffers and mutations of the header and tables only ever raise
//! `AttachError`, and `read_versioned` reads extensible records by their producer's size. The script is
//! `tests/python_attach/attach.py`; it imports `generated/bridge.py`.
//!
//! Every test fails, never skips, when python3 is missing (or mypy, which the README
//! snippet is checked with).
#![cfg(not(miri))]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use bridge_abi::live;
use bridge_abi::runtime::SharedBuf;
use common::image::{self, at};
use common::readme::block_after;
use common::reference::load_reference;

/// Runs `attach.py mode dir args...`; what it printed.
fn script(mode: &str, dir: &Path, args: &[&str]) -> String {
    common::tools::attach_py(mode, dir, args)
}

/// A scratch folder holding `valid.bin`.
fn with_valid(name: &str) -> PathBuf {
    let dir = common::tools::scratch(&format!("python_attach_{name}"));
    std::fs::write(dir.join("valid.bin"), image::valid()).expect("write valid.bin");
    dir
}

#[test]
fn every_corruption_is_refused_by_its_check() {
    let dir = with_valid("corruptions");
    let corruptions = image::corruptions();
    for (i, c) in corruptions.iter().enumerate() {
        std::fs::write(dir.join(format!("corrupt_{i:02}.bin")), &c.image).expect("write");
    }
    let out = script("corruptions", &dir, &[]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), corruptions.len(), "{out}");
    for (i, (c, line)) in corruptions.iter().zip(&lines).enumerate() {
        let mut words = line.splitn(3, ' ');
        assert_eq!(words.next(), Some(format!("corrupt_{i:02}.bin").as_str()));
        assert_eq!(words.next(), Some(c.check), "{}: {line}", c.name);
    }
    // The messages name the check and both values, as ATTACH.md's examples do.
    let message = |name: &str| -> String {
        let i = (corruptions.iter().position(|c| c.name == name)).expect("a corruption");
        let rest = lines[i].splitn(3, ' ').nth(2).expect("a message");
        serde_json::from_str::<String>(rest).expect("a JSON string")
    };
    assert_eq!(
        message("wrong magic"),
        "attach: bad_magic: expected 0x42464249, found 0x44464249"
    );
    assert_eq!(
        message("client block's pad_input too small"),
        "attach: region_too_small: client_blocks[0].pad_input is 16 bytes, expected at least 32"
    );
    assert_eq!(
        message("bot block size past its stride"),
        "attach: extent_beyond_block: bot_blocks[3]: size 299016, expected at most 299008 (the stride between blocks)"
    );
    assert_eq!(
        message("region over the header"),
        "attach: regions_overlap: snapshot_ring overlaps bridge_header, expected apart"
    );
    assert_eq!(
        message("client block rows overlap"),
        "attach: regions_overlap: client_blocks[0].pad_input overlaps client_blocks[0].log_queue, expected apart"
    );
}

#[test]
fn the_valid_image_attaches_at_the_images_offsets() {
    let dir = with_valid("valid");
    let out: Value = serde_json::from_str(&script("valid", &dir, &[])).expect("JSON facts");
    let client3 = image::CLIENT_BLOCKS.0 + 3 * 0x10000;
    let bot7 = image::BOT_BLOCKS.0 + 7 * 0x49000;
    let (pad, stats) = (image::CLIENT_ROWS[1], image::BOT_ROWS[2]);
    let want = json!({
        "producer": [0, 9],
        "header_size": image::HEADER_SIZE,
        "extent": image::TOTAL,
        "rows": ["header", "snapshot_ring", "client_blocks", "log_ring", "bot_blocks"],
        "snapshot_ring": [image::SNAPSHOT_RING.0, image::SNAPSHOT_RING.1],
        "ring_class": "SnapshotRing",
        "ring_head": 0,
        "ring_newest": null,
        "header_class": "LiveBridgeHeader",
        "log_ring_class": "LiveLogRingHeader",
        "client3": client3,
        "client3_extent": 0x10000,
        "client3_pad_input": [client3 + pad.0, pad.1],
        "pad_class": "LivePadInput",
        "pad_view_at": client3 + pad.0,
        "bot7": bot7,
        "bot7_stats": [bot7 + stats.0, stats.1],
        "stats_class": "LiveStatsHeader",
        "stats_view_at": bot7 + stats.0,
        "bot7_rows": ["draw", "params", "stats"],
        "blocks_out_of_range": [null, null, null],
    });
    let kinds = [
        "mmap_read_only",
        "mmap_read_write",
        "bytes",
        "bytearray",
        "memoryview",
    ];
    for kind in kinds {
        assert_eq!(out[kind], want, "{kind}");
    }
}

#[test]
fn garbage_and_mutations_raise_attach_error_and_nothing_else() {
    let dir = with_valid("fuzz");
    let blocks: Vec<u32> = (0..8)
        .flat_map(|k| {
            [
                image::CLIENT_BLOCKS.0 + k * 0x10000,
                image::BOT_BLOCKS.0 + k * 0x49000,
            ]
        })
        .collect();
    let offsets = json!({ "blocks": blocks }).to_string();
    let out = script("fuzz", &dir, &["15", "4000", &offsets]);
    let summary: Value = serde_json::from_str(&out).expect("a JSON summary");
    let refused = summary["refused"].as_object().expect("refusals by check");
    let total: u64 = refused.values().filter_map(Value::as_u64).sum();
    let attached = summary["attached"].as_u64().expect("a count");
    println!("python attach fuzz: {attached} attached, {total} refused: {refused:?}");
    assert!(attached > 100, "some mutations leave a valid image: {out}");
    assert!(total > 1000, "{out}");
    // The mutations reach deep into the checks, not only the first ones.
    for check in [
        "mapping_too_short",
        "bad_magic",
        "major_mismatch",
        "too_many_rows",
        "region_out_of_bounds",
        "region_misaligned",
        "regions_overlap",
    ] {
        assert!(refused.contains_key(check), "no {check}: {out}");
    }
}

/// The offset of `field` in the reference's `record`.
fn offset(record: &str, field: &str) -> usize {
    let r = load_reference();
    let s = (r.structs.iter().find(|s| s.name == record)).expect("a struct");
    let f = (s.fields.iter().find(|f| f.name == field)).expect("a field");
    f.offset as usize
}

fn size_of(record: &str) -> usize {
    let r = load_reference();
    (r.structs.iter().find(|s| s.name == record))
        .expect("a struct")
        .size as usize
}

/// A snapshot record of `len` bytes from a producer of ABI 0.`minor`.
fn snapshot(minor: u16, len: usize) -> Vec<u8> {
    let mut bytes = vec![0xAAu8; len.max(size_of("snapshot_header"))];
    let magic = offset("snapshot_header", "magic");
    bytes[magic..magic + 4].copy_from_slice(&bridge_abi::SNAPSHOT_MAGIC.to_le_bytes());
    let major = offset("snapshot_header", "schema_major");
    bytes[major..major + 2].copy_from_slice(&0u16.to_le_bytes());
    let at = offset("snapshot_header", "schema_minor");
    bytes[at..at + 2].copy_from_slice(&minor.to_le_bytes());
    bytes.truncate(len);
    bytes
}

/// A bridge header of `len` bytes from a producer of ABI 0.`minor` whose header_size says
/// `size`.
fn bridge_header(minor: u16, size: u32, len: usize) -> Vec<u8> {
    let mut bytes = vec![0x55u8; len];
    bytes[at::MAGIC..at::MAGIC + 4].copy_from_slice(&image::BRIDGE_MAGIC.to_le_bytes());
    bytes[at::ABI_MAJOR..at::ABI_MAJOR + 2].copy_from_slice(&0u16.to_le_bytes());
    bytes[at::ABI_MINOR..at::ABI_MINOR + 2].copy_from_slice(&minor.to_le_bytes());
    bytes[at::HEADER_SIZE..at::HEADER_SIZE + 4].copy_from_slice(&size.to_le_bytes());
    bytes
}

#[test]
fn read_versioned_reads_records_by_their_producers_size() {
    let dir = common::tools::scratch("python_attach_versioned");
    let full = size_of("snapshot");
    let spawn_markers = offset("snapshot", "spawn_markers");
    assert_eq!(
        spawn_markers, 11840,
        "the 0.8 snapshot ends where 0.9 added spawn_markers"
    );
    let records = [
        ("Snapshot_08", snapshot(8, spawn_markers)),
        ("Snapshot_09", snapshot(9, full)),
        ("Snapshot_09_longer", snapshot(9, full + 64)),
        ("Snapshot_010_longer", snapshot(10, full + 64)),
        ("Snapshot_05", snapshot(5, full)),
        ("Snapshot_short", snapshot(9, 3)),
        ("BridgeHeader_06", bridge_header(6, 1296, 1296)),
        ("BridgeHeader_09_longer", bridge_header(9, 1304 + 64, 2048)),
    ];
    for (name, bytes) in &records {
        std::fs::write(dir.join(format!("record_{name}.bin")), bytes).expect("write");
    }
    let out: Value = serde_json::from_str(&script("versioned", &dir, &[])).expect("JSON facts");
    let rec = |name: &str| &out[format!("record_{name}.bin")];

    // The newcomer's case: Snapshot.from_buffer_copy of these 11840 bytes raises
    // "Buffer size too small"; read_versioned reads them, spawn_markers None.
    let r08 = rec("Snapshot_08");
    assert_eq!(r08["producer"], json!([0, 8]));
    assert_eq!(r08["size"], json!(spawn_markers));
    assert_eq!(r08["extra"], json!(0));
    assert_eq!(
        r08["absent"],
        json!(["spawn_marker_count", "spawn_markers"])
    );
    assert_eq!(r08["fields"]["spawn_markers"], Value::Null);
    assert_eq!(r08["fields"]["match"], json!("present"));
    assert_eq!(r08["zero_tail"], json!(true));

    let r09 = rec("Snapshot_09");
    assert_eq!(
        (r09["size"].clone(), r09["extra"].clone()),
        (json!(full), json!(0))
    );
    assert_eq!(r09["absent"], json!([]));

    // A newer minor's record is read as the part we know, its 64 extra bytes kept. Without a
    // size field in its handshake, an 0.9 snapshot's size follows from its minor version
    // (ATTACH.md): the bytes past it are not its own.
    let r010 = rec("Snapshot_010_longer");
    assert_eq!(r010["producer"], json!([0, 10]));
    assert_eq!(
        (r010["size"].clone(), r010["extra"].clone()),
        (json!(full + 64), json!(64))
    );
    let r09_longer = rec("Snapshot_09_longer");
    assert_eq!(
        (r09_longer["size"].clone(), r09_longer["extra"].clone()),
        (json!(full), json!(0))
    );

    // An 0.5 snapshot lacks what 0.6 and 0.9 added.
    let r05 = rec("Snapshot_05");
    assert_eq!(r05["size"], json!(10088));
    assert_eq!(r05["fields"]["match"], Value::Null);
    assert_eq!(r05["fields"]["ships_ext"], Value::Null);
    assert_eq!(r05["fields"]["board"], json!("present"));

    assert_eq!(rec("Snapshot_short")["check"], json!("mapping_too_short"));
    assert_eq!(
        rec("Snapshot_short")["message"],
        json!(
            "attach: mapping_too_short: 3 bytes given, expected at least 10088 (the bytes every producer writes)"
        )
    );

    // An 0.6 host's header: 1296 bytes, controls (0.4) but none of what 0.7 added.
    let h06 = rec("BridgeHeader_06");
    assert_eq!(h06["producer"], json!([0, 6]));
    assert_eq!(h06["size"], json!(1296));
    for field in ["run_mode", "sim_state", "lockstep_timeout_ms"] {
        assert_eq!(h06["fields"][field], Value::Null, "{field}");
    }
    assert_eq!(h06["fields"]["controls"], json!("present"));
    // A header whose header_size says 64 bytes more than ours: 64 extra bytes.
    let h09 = rec("BridgeHeader_09_longer");
    assert_eq!(
        (h09["size"].clone(), h09["extra"].clone()),
        (json!(1368), json!(64))
    );
}

#[test]
fn the_readme_attach_snippet_runs_against_the_valid_image() {
    // The valid image, with one publication in its ring, as a host would leave it.
    let shared = SharedBuf::from_bytes(&image::valid());
    let header = live::BridgeHeader::at(shared.region(), 0).expect("the header");
    let slots = (shared.region())
        .tail(image::SNAPSHOT_RING.0 as usize, 8)
        .expect("the ring's slots");
    let ring = live::SnapshotRing::new(header, slots).expect("the ring");
    let mut slot = live::RingSlot::zeroed();
    slot.payload.header.tick = 4321;
    ring.publish(&mut slot).expect("a slot holds the value");
    let dir = common::tools::scratch("python_attach_readme");
    let path = dir.join("bridge.shm");
    std::fs::write(&path, shared.to_vec()).expect("write the image");
    let snippet = block_after("docs/bots.md", "**Attaching from Python.**", "python")
        .replace("/dev/shm/ibf.bridge", path.to_str().expect("a UTF-8 path"));
    std::fs::write(dir.join("bot.py"), snippet).expect("write bot.py");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The stub types it: mypy --strict accepts it as it stands.
    common::tools::mypy_strict_ok(&dir, "bot.py", &root.join("generated"));
    let out = Command::new("python3")
        .args(["-B", "-W", "error", "bot.py"])
        .env("PYTHONPATH", root.join("generated"))
        .current_dir(&dir)
        .output()
        .expect("python3 is required for this test");
    assert!(
        out.status.success(),
        "the README's attach snippet failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "host ABI 0.9\ntick 4321\npad seq 0\n"
    );
}

/// The demo image of `tests/fixtures/attach/demo.toml`: header (64 bytes, 0.3), two
/// 256-byte blocks at 256, 1024 bytes named `release` at 768; each block's `input` at 64.
const DEMO_SCRIPT: &str = r#"
import struct, sys
import demo

img = bytearray(1792)
struct.pack_into("<IHHIII", img, 0, demo.DEMO_MAGIC, 0, 3, 64, 1792, 3)
for i, row in enumerate([(0, 64), (256, 512), (768, 1024)]):
    struct.pack_into("<II", img, 24 + 8 * i, *row)
for k in range(2):
    struct.pack_into("<IIII", img, 256 + 256 * k, 256, 1, 64, 8)
h = demo.attach(bytes(img))
block = h.blocks(1)
print(h.producer, type(h.header()).__name__, type(block.input()).__name__)
print(type(h.release_()).__name__, len(h.release_()), block.region("input"), h.blocks(2))
old = demo.Header.read_versioned(bytes(img[:56]))
print(old.size, old.clock, demo.Header.read_versioned(bytes(img)).clock)
struct.pack_into("<II", img, 256 + 8, 16, 8)
lazy = demo.attach(img)
print(type(lazy.blocks(1)).__name__)
try:
    lazy.blocks(0)
except demo.AttachError as e:
    print(e)
h.release()
"#;

#[test]
fn a_small_schema_attaches_with_and_without_live_views() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/attach/demo.toml");
    let shared = std::fs::read_to_string(path).expect("demo.toml");
    let plain = shared
        .replace("writer = \"host\"\n", "")
        .replace("writer = \"client\"\n", "");
    for (name, src, header, input) in [
        ("live", &shared, "LiveHeader", "LiveInput"),
        ("plain", &plain, "memoryview", "memoryview"),
    ] {
        let schema =
            abi_codegen::load_schema(src).unwrap_or_else(|e| panic!("{}", e.render("demo", src)));
        let module =
            abi_codegen::testing::language_backend::python::render_python(&schema, "demo.toml")
                .expect("the demo module renders");
        let dir = common::tools::scratch(&format!("python_attach_demo_{name}"));
        std::fs::write(dir.join("demo.py"), module).expect("write demo.py");
        let out = common::tools::run_ok("python3", &["-B", "-W", "error", "-c", DEMO_SCRIPT], &dir);
        assert_eq!(
            out,
            format!(
                "(0, 3) {header} {input}\nmemoryview 1024 (576, 8) None\n56 None 0\nBlock\n\
                 attach: regions_overlap: blocks[0].input overlaps blocks[0].block_header, expected apart\n"
            ),
            "{name}"
        );
    }
}

/// The demo image with a writer's state (u16 at 20, `running` = 1) and generation (u16 at
/// 22): attach refuses it while starting, keeps the generation, and `reloaded()` sees a
/// reload, with and without the live layer.
const DEMO_STATE_SCRIPT: &str = r#"
import struct
import demo

img = bytearray(1792)
struct.pack_into("<IHHIIIHH", img, 0, demo.DEMO_MAGIC, 0, 3, 64, 1792, 3, 0, 0)
for i, row in enumerate([(0, 64), (256, 512), (768, 1024)]):
    struct.pack_into("<II", img, 24 + 8 * i, *row)
for k in range(2):
    struct.pack_into("<IIII", img, 256 + 256 * k, 256, 1, 64, 8)
try:
    demo.attach(img)
except demo.AttachError as e:
    print(e.check, e.retryable)
struct.pack_into("<HH", img, 20, 1, 5)
h = demo.attach(img)
print(h.generation, h.reloaded(), type(h.blocks(1)).__name__)
struct.pack_into("<H", img, 20, 0)
print(h.reloaded())
struct.pack_into("<HH", img, 20, 1, 6)
print(h.reloaded(), demo.attach(img).generation)
h.release()
"#;

#[test]
fn a_small_schema_with_a_writers_state_attaches_with_and_without_live_views() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/attach/demo.toml");
    let shared = std::fs::read_to_string(path)
        .expect("demo.toml")
        .replace(
            "{ name = \"_pad20\", type = \"u8[4]\" },",
            "{ name = \"state\", type = \"u16\" },\n  { name = \"generation\", type = \"u16\" },",
        )
        .replace(
            "size = \"header_size\" }",
            "size = \"header_size\", state = \"state\", running = \"running\", generation = \"generation\" }",
        )
        .replace(
            "[[const]]\nname = \"max_regions\"",
            "[[const]]\nname = \"running\"\nvalue = 1\n\n[[const]]\nname = \"max_regions\"",
        );
    assert!(shared.contains("running = \"running\"") && shared.contains("name = \"running\""));
    let plain = shared
        .replace("writer = \"host\"\n", "")
        .replace("writer = \"client\"\n", "");
    for (name, src) in [("live", &shared), ("plain", &plain)] {
        let schema =
            abi_codegen::load_schema(src).unwrap_or_else(|e| panic!("{}", e.render("demo", src)));
        let module =
            abi_codegen::testing::language_backend::python::render_python(&schema, "demo.toml")
                .expect("the demo module renders");
        assert_eq!(module.contains("_Mem(buffer)"), name == "live", "{name}");
        let dir = common::tools::scratch(&format!("python_attach_demo_state_{name}"));
        std::fs::write(dir.join("demo.py"), module).expect("write demo.py");
        let out = common::tools::run_ok(
            "python3",
            &["-B", "-W", "error", "-c", DEMO_STATE_SCRIPT],
            &dir,
        );
        assert_eq!(
            out, "host_not_running True\n5 False Block\nTrue\nTrue 6\n",
            "{name}"
        );
    }
}

#[test]
fn the_header_view_lacks_the_fields_past_its_producers_header_size() {
    // (minor, header_size, controls run_mode sim_state lockstep_timeout_ms present), as
    // tests/attach.rs checks the Rust view: the bytes past header_size are another region's.
    let dir = common::tools::scratch("python_attach_header_fields");
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
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let out: Value = serde_json::from_str(&script("header_fields", &dir, &args)).unwrap();
    for (file, (minor, size, present)) in files.iter().zip(cases) {
        let facts = &out[file.as_str()];
        assert_eq!(facts["present"], present, "0.{minor}: {facts}");
        assert_eq!(facts["minor"], minor);
        assert_eq!(
            facts["after_untouched"], true,
            "0.{minor}: nothing past the header written"
        );
        if size < 1297 {
            let write = facts["write"].as_str().unwrap();
            assert!(
                write.contains("run_mode is absent") && write.contains(&size.to_string()),
                "{write}"
            );
        } else {
            assert_eq!(facts["write"], "ok");
        }
    }
}

/// A row a later minor version added (bot_blocks, since 0.5) may be absent from an older
/// producer's table, and must be there in one of our minor (tests/attach.rs checks the Rust
/// handle alike).
#[test]
fn python_takes_an_older_producer_without_the_newer_row() {
    let dir = common::tools::scratch("python_attach_older_rows");
    for minor in [4u16, 9] {
        let mut bytes = image::valid();
        image::put16(&mut bytes, at::ABI_MINOR, minor);
        image::put32(&mut bytes, at::REGION_COUNT, 4);
        image::put32(&mut bytes, at::HEADER_SIZE, 1280);
        std::fs::write(dir.join(format!("corrupt_0_{minor}.bin")), bytes).unwrap();
    }
    let out = script("corruptions", &dir, &[]);
    let verdicts: Vec<(&str, &str)> = (out.lines())
        .map(|l| {
            let mut words = l.split(' ');
            (words.next().unwrap(), words.next().unwrap())
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("corrupt_0_4.bin", "ok"),
            ("corrupt_0_9.bin", "region_missing")
        ],
        "{out}"
    );
}
