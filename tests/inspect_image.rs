//! `abi-codegen inspect bridge`: the whole bridge image of the attach tests decoded through the
//! schema's `[[layout]]` tables, and every corrupted copy refused with the check attach names:
//! inspect asks the runtime's attach engine, with specs converted from the attach plan the
//! Rust bindings print, so both give every image the same verdict.

use crate::common;

use abi_codegen::testing::inspect::{
    AttachSpecs, FileInspection, Level, find_layout, inspect_image, render_file_dump,
    render_file_json,
};
use bridge_abi::live;
use bridge_abi::runtime::SharedBuf;
use common::image;

fn run(schema: &abi_codegen::Schema, bytes: &[u8]) -> FileInspection {
    let root = schema.attach().root.expect("the bridge is the root layout");
    assert_eq!(find_layout(schema, "bridge"), Some(root));
    inspect_image(schema, root, &bytes)
}

/// The issues as stderr shows them.
fn issues(i: &FileInspection) -> String {
    abi_codegen::testing::inspect::render_file_issues(i)
}

#[test]
fn the_valid_image_decodes_every_region() {
    let schema = common::bridge_schema();
    let bytes = image::valid();
    // Left for docs/inspect.md's example: `abi-codegen inspect bridge target/tmp/bridge.bin`.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(tmp.join("bridge.bin"), &bytes).unwrap();
    let i = run(&schema, &bytes);
    assert!(!i.has(Level::Error), "{}", issues(&i));
    let json = render_file_json(&schema, &i);
    let data = &json["data"];
    assert_eq!(data["header"][0]["value"]["total_size"], image::TOTAL);
    assert_eq!(
        data["snapshot_ring"].as_array().unwrap().len(),
        8,
        "one slot header per slot"
    );
    assert_eq!(data["client_blocks.header"].as_array().unwrap().len(), 8);
    assert_eq!(data["client_blocks.pad_input"].as_array().unwrap().len(), 8);
    assert_eq!(
        data["client_blocks.pad_input"][2]["path"],
        "client_blocks[2].pad_input"
    );
    assert_eq!(
        data["client_blocks.pad_input"][2]["offset"],
        image::CLIENT_BLOCKS.0 + 2 * 0x10000 + image::CLIENT_ROWS[1].0
    );
    assert_eq!(data["bot_blocks.stats"].as_array().unwrap().len(), 8);
    assert_eq!(data["log_ring"][0]["type"], "log_ring_header");
    let dump = render_file_dump(&schema, &i);
    assert!(
        dump.contains("## bot_blocks[7].params params_header"),
        "{dump}"
    );
}

/// The words inspect's error says for each check of attach.
fn words(check: &str) -> &'static str {
    match check {
        "mapping_too_short" => "lies past the end of the file",
        "bad_magic" => "bad magic",
        "major_mismatch" => "major version",
        "header_too_small" => "header too small",
        "header_beyond_mapping" => "header beyond the mapping",
        "extent_beyond_mapping" => "spans past the end of the file",
        "extent_too_small" => "extent too small",
        "extent_beyond_block" => "spans past the end of its block",
        "too_many_rows" => "past the table's",
        "region_missing" => "region missing",
        "region_out_of_bounds" => "region out of bounds",
        "region_misaligned" => "region misaligned",
        "region_too_small" => "region too small",
        "regions_overlap" => "regions overlap",
        "host_not_running" => "attach: host_not_running:",
        "host_reloaded" => "attach: host_reloaded:",
        "geometry_mismatch" => "attach: geometry_mismatch:",
        "geometry_zero" => "attach: geometry_zero:",
        "geometry_misaligned" => "attach: geometry_misaligned:",
        "geometry_too_small" => "attach: geometry_too_small:",
        "geometry_too_large" => "attach: geometry_too_large:",
        other => panic!("no words for {other}"),
    }
}

/// Inspect's verdict on `bytes` is attach's: no error when the image attaches; when it does
/// not, an error saying attach's check.
fn same_verdict(schema: &abi_codegen::Schema, name: &str, bytes: &[u8]) {
    let i = run(schema, bytes);
    let buf = SharedBuf::from_bytes(bytes);
    let errors: Vec<_> = i
        .issues
        .iter()
        .filter(|x| x.level == Level::Error)
        .collect();
    match common::verdict::rust_verdict(buf.region()) {
        Ok(_) => assert!(errors.is_empty(), "{name}: attached, but:\n{}", issues(&i)),
        Err(e) => assert!(
            errors.iter().any(|x| x.message.contains(words(e.check()))),
            "{name}: expected an error saying `{}` ({e}), got:\n{}",
            words(e.check()),
            issues(&i)
        ),
    }
}

#[test]
fn every_corrupted_image_is_refused_with_its_check() {
    let schema = common::bridge_schema();
    for c in image::corruptions()
        .into_iter()
        .chain(image::geometry_corruptions())
    {
        let words = words(c.check);
        let i = run(&schema, &c.image);
        let first = i.issues.iter().find(|x| x.level == Level::Error);
        assert!(
            first.is_some_and(|x| x.message.contains(words)),
            "{}: expected a first error saying `{words}`, got:\n{}",
            c.name,
            issues(&i)
        );
        same_verdict(&schema, c.name, &c.image);
    }
}

/// The bridge table and handshake as the reference gives them: the same numbers in the
/// `static` specs the Rust bindings print from the attach plan, and in the specs inspect
/// converts from it.
fn check_reference_numbers(
    what: &str,
    t: &abi_runtime::attach::spec::TableSpec<'_>,
    h: &abi_runtime::attach::spec::HandshakeSpec<'_>,
) {
    use abi_runtime::attach::spec::{Field, RowContents};
    use image::at;
    let f = |offset: usize, width: usize| Field { offset, width };
    assert_eq!(t.header_size, image::HEADER_SIZE as usize, "{what}");
    assert_eq!(t.table_offset, at::REGIONS, "{what}");
    assert_eq!(t.row_count, Some(f(at::REGION_COUNT, 4)), "{what}");
    assert_eq!(t.extent, Some(f(at::TOTAL_SIZE, 4)), "{what}");
    assert_eq!((t.row_offset, t.row_len), (f(0, 4), f(4, 4)), "{what}");
    let rows: Vec<(&str, usize, Option<u32>)> = t
        .rows
        .iter()
        .map(|r| (r.name, r.index, r.since_minor))
        .collect();
    // bridge_region: bot_blocks 4, "(ABI 0.5)"; the others in every 0.x producer's.
    assert_eq!(
        rows,
        [
            ("header", 0, None),
            ("snapshot_ring", 1, None),
            ("client_blocks", 2, None),
            ("log_ring", 3, None),
            ("bot_blocks", 4, Some(5)),
        ],
        "{what}"
    );
    assert!(matches!(t.rows[0].contents, RowContents::Header), "{what}");
    for (k, stride) in [(2, 0x10000), (4, 0x49000)] {
        match t.rows[k].contents {
            RowContents::Blocks {
                count,
                stride: s,
                table,
                ..
            } => {
                assert_eq!((count, s), (8, stride), "{what}: row {k}");
                assert_eq!(
                    table.header_size,
                    at::BLOCK_REGIONS + 8 * 8,
                    "{what}: row {k}"
                );
                assert_eq!(table.table_offset, at::BLOCK_REGIONS, "{what}: row {k}");
            }
            other => panic!("{what}: row {k} holds {other:?}"),
        }
    }
    let geometry: Vec<(&str, Field)> = t.geometry.iter().map(|g| (g.name, g.field)).collect();
    for (name, offset) in [
        ("ring_slots", at::RING_SLOTS),
        ("ring_slot_size", at::RING_SLOT_SIZE),
        ("max_clients", at::MAX_CLIENTS),
        ("client_block_size", at::CLIENT_BLOCK_SIZE),
    ] {
        assert!(
            geometry.contains(&(name, f(offset, 4))),
            "{what}: {name} in {geometry:?}"
        );
    }
    assert_eq!(h.record, "bridge_header", "{what}");
    assert_eq!((h.ours.major, h.ours.minor), (0, 9), "{what}");
    assert_eq!(
        h.magic,
        Some((f(at::MAGIC, 4), u64::from(image::BRIDGE_MAGIC))),
        "{what}"
    );
    assert_eq!(
        (h.major, h.minor),
        (f(at::ABI_MAJOR, 2), f(at::ABI_MINOR, 2)),
        "{what}"
    );
    assert_eq!(h.size, Some(f(at::HEADER_SIZE, 4)), "{what}");
    assert_eq!(h.full_size, image::HEADER_SIZE as usize, "{what}");
    assert_eq!(
        h.state,
        Some((f(at::HOST_STATE, 4), u64::from(image::RUNNING))),
        "{what}"
    );
    assert_eq!(h.generation, Some(f(at::HOST_GENERATION, 4)), "{what}");
}

#[test]
fn the_bindings_and_inspect_check_with_the_reference_numbers() {
    let schema = common::bridge_schema();
    check_reference_numbers(
        "the bindings",
        &live::BRIDGE_TABLE,
        &live::BRIDGE_HEADER_HANDSHAKE,
    );
    let plan = schema.attach_plan();
    let specs = AttachSpecs::new(plan);
    let root = find_layout(&schema, "bridge").expect("bridge");
    let header = schema.attach().layouts[root].header;
    let h = specs
        .handshake(header)
        .expect("the bridge header's handshake");
    check_reference_numbers("inspect", specs.table(root.index()), &h);
    let pad_input = schema.abi().find_struct("pad_input");
    assert_eq!(specs.handshake(pad_input.expect("pad_input")), None);
}

#[test]
fn hostile_images_never_panic_and_get_attachs_verdict() {
    let schema = common::bridge_schema();
    let valid = image::valid();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..100 {
        let mut b = valid.clone();
        for _ in 0..6 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly the header's and the blocks' tables, where the offsets are.
            let at = if seed % 2 == 0 {
                (seed >> 8) as usize % 0x100
            } else {
                (seed >> 8) as usize % b.len()
            };
            b[at] = (seed >> 32) as u8;
        }
        let cut = if round % 5 == 0 {
            (seed >> 40) as usize % b.len()
        } else {
            b.len()
        };
        same_verdict(&schema, &format!("round {round}"), &b[..cut]);
    }
    same_verdict(&schema, "no bytes", &[]);
}

/// The dump folds a copy that is all zero, or equal to the copy of its row shown before it,
/// into its heading; a copy that differs is printed whole. `--json` keeps every value.
#[test]
fn the_dump_folds_zero_and_repeated_copies() {
    let schema = common::bridge_schema();
    let mut bytes = image::valid();
    let pad =
        |block: u32| (image::CLIENT_BLOCKS.0 + block * 0x10000 + image::CLIENT_ROWS[1].0) as usize;
    // pad_input.lx (i16 at 0x10) of client block 3: -2.
    bytes[pad(3) + 0x10..pad(3) + 0x12].copy_from_slice(&(-2i16).to_le_bytes());
    let i = run(&schema, &bytes);
    let dump = render_file_dump(&schema, &i);
    let heading = |path: &str| {
        dump.lines()
            .find(|l| l.starts_with(&format!("## {path} ")))
            .unwrap_or_else(|| panic!("no heading for {path}:\n{dump}"))
    };
    assert!(heading("client_blocks[2].pad_input").ends_with(": all zero"));
    assert!(heading("client_blocks[4].pad_input").ends_with(": all zero"));
    assert!(!heading("client_blocks[3].pad_input").contains(':'));
    assert!(
        dump.contains("client_blocks[3].pad_input.lx i16 -2"),
        "{dump}"
    );
    // Every client block's header is the same but for nothing: each names the first one.
    for b in 1..8 {
        assert!(
            heading(&format!("client_blocks[{b}].header"))
                .ends_with(": same as client_blocks[0].header"),
            "{dump}"
        );
    }
    assert!(!heading("client_blocks[0].header").contains("same as"));
    assert!(dump.lines().count() < 250, "{} lines", dump.lines().count());
    let json = render_file_json(&schema, &i);
    assert_eq!(
        json["data"]["client_blocks.pad_input"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
}

/// A snapshot ring's slots show their payloads, and the log ring its entries, not only
/// their headers (issue 50), on an image the generated Rust wrote into: two
/// snapshots published by the generated host code decode as `snapshot_ring[N].payload`
/// at the offsets the reference gives (slot N at 4096 + N * 32768, its payload 64 bytes
/// in), with their extras as data after the 12,104-byte snapshot; a slot left mid-write
/// (an odd seq) is a warning and is not decoded, and a slot whose size runs past it is an
/// error; slots never written show no payload.
#[test]
fn a_ring_slot_shows_its_payload() {
    let schema = common::bridge_schema();
    let buf = SharedBuf::from_bytes(&image::valid());
    let header = live::BridgeHeader::at(buf.region(), 0).unwrap();
    let (ring_at, ring_len) = (image::SNAPSHOT_RING.0 as usize, image::SNAPSHOT_RING.1);
    let slots = buf.region().sub(ring_at, ring_len as usize, 8).unwrap();
    let ring = live::SnapshotRing::new(header, slots).unwrap();
    for n in 1..=2u64 {
        let mut slot = live::RingSlot::zeroed();
        slot.payload.header.magic = bridge_abi::SNAPSHOT_MAGIC;
        slot.payload.header.tick = 100 + n;
        slot.payload_extra = vec![7; 3];
        assert_eq!(ring.publish(&mut slot), Ok(n));
    }
    // And the host log ring: two entries pushed by the generated writer.
    let (log_at, log_len) = (image::LOG_RING.0 as usize, image::LOG_RING.1 as usize);
    let log = live::LogRingWriter::new(buf.region().sub(log_at, log_len, 8).unwrap()).unwrap();
    for text in [&b"hello"[..], b"a longer line"] {
        log.push(&bridge_abi::LogEntry::default(), b"host", text)
            .unwrap();
    }
    let mut bytes = buf.to_vec();
    let slot = |i: usize| ring_at + i * 32768;
    // ring_slot_header: seq at 0, size at 4 (the reference).
    image::put32(&mut bytes, slot(2), 5);
    image::put32(&mut bytes, slot(2) + 4, 12104);
    image::put32(&mut bytes, slot(3) + 4, 32768);
    let i = run(&schema, &bytes);
    let dump = render_file_dump(&schema, &i);
    let payloads: Vec<&str> = dump
        .lines()
        .filter(|l| l.starts_with("## snapshot_ring[") && l.contains("payload"))
        .collect();
    assert_eq!(
        payloads,
        [
            "## snapshot_ring[0].payload snapshot (12104 bytes + 3 bytes) at 0x1040",
            "## snapshot_ring[1].payload snapshot (12104 bytes + 3 bytes) at 0x9040",
        ],
        "{dump}"
    );
    let entries: Vec<&str> = dump
        .lines()
        .filter(|l| l.starts_with("## log_ring.entries") || l.contains("text_len"))
        .collect();
    // The log ring's area starts after its 64-byte header at 0xc1000; each entry is the
    // 40-byte log_entry and its parts ("host" and the text), padded to 8 bytes.
    assert_eq!(
        entries,
        [
            "## log_ring.entries[0] log_entry (40 bytes + 16 bytes) at 0xc1040",
            "@0xc1046 log_ring.entries[0].text_len u16 5",
            "## log_ring.entries[1] log_entry (40 bytes + 24 bytes) at 0xc1078",
            "@0xc107e log_ring.entries[1].text_len u16 13",
        ],
        "{dump}"
    );
    for (n, tick) in [(0, 101), (1, 102)] {
        let line = format!("snapshot_ring[{n}].payload.header.tick u64 {tick}");
        assert!(dump.lines().any(|l| l.ends_with(&line)), "{line}\n{dump}");
    }
    let found: Vec<(Level, String, u64)> = i
        .issues
        .iter()
        .map(|x| (x.level, x.path.clone(), x.offset))
        .collect();
    assert_eq!(
        found,
        [
            (
                Level::Warn,
                "snapshot_ring[2].payload".into(),
                slot(2) as u64
            ),
            (
                Level::Error,
                "snapshot_ring[3].payload".into(),
                slot(3) as u64
            ),
        ],
        "{}",
        issues(&i)
    );
    assert!(
        issues(&i).contains("size 32768 does not fit"),
        "{}",
        issues(&i)
    );
}
