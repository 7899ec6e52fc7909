//! `abi-codegen inspect` on blobs built by the Rust bindings, in both formats, and on hostile
//! input: truncated files, random bytes, a wrong magic, out-of-range enums and counts.

use abi_codegen::testing::inspect::{
    Extent, Inspection, Level, Plan, decode, inspect, inspect_bytes, render_dump, render_issues,
    render_json,
};
use bridge_abi::*;
use zerocopy::IntoBytes;

fn schema() -> abi_codegen::Schema {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml")).unwrap();
    abi_codegen::load_schema(&src).unwrap()
}

fn run(ty: &str, bytes: &[u8]) -> (Inspection, String, String) {
    let schema = schema();
    let i = inspect(&schema, ty, bytes, 0, 1).expect("known type");
    let dump = render_dump(&schema, &i);
    let json = serde_json::to_string_pretty(&render_json(&schema, &i)).unwrap();
    (i, dump, json)
}

/// A snapshot with two ships, three projectiles, an event and a spawn marker.
pub fn snapshot_blob() -> Vec<u8> {
    let mut s = Snapshot::default();
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.schema_major = 0;
    s.header.schema_minor = 9;
    s.header.size = 12104;
    s.header.flags = SnapshotFlags::VALID | SnapshotFlags::IN_MATCH;
    s.header.frame = 1000;
    s.header.tick = 990;
    s.header.game_time = 12.5;
    s.header.tick_source = TickSource::SIM_STEP;
    s.game.menu_id = 5;
    s.game.phase = Phase::PLAYING;
    s.game.player_count = 2;
    s.ship_count = 2;
    s.projectile_count = 3;
    s.players = [0, 1, NO_PLAYER, NO_PLAYER];
    s.board.width = 2;
    s.board.height = 2;
    s.board.tiles[..4].copy_from_slice(&[Tile::WHITE, Tile::BLACK, Tile::BLACK, Tile::WHITE]);
    s.board.tiles[4..].fill(Tile::NONE);
    s.ships[0].pos = Vec2 { x: 1.5, y: -2.0 };
    s.ships[0].valid = ShipValid::POS | ShipValid::COLOR;
    s.ships[0].flags = ShipFlags::MOVING;
    s.ships[0].color = Color::BLACK;
    s.ships[0].alive = 1;
    s.ships[1].pos = Vec2 { x: -3.0, y: 0.25 };
    s.ships[1].player_id = 1;
    s.ships[1].alive = 1;
    s.ships[1].charge_dir = Dir::LEFT;
    for (i, p) in s.projectiles[..3].iter_mut().enumerate() {
        p.pos = Vec2 {
            x: i as f32,
            y: 1.0,
        };
        p.speed = 9.0;
        p.dir = Dir::UP;
    }
    s.event_total = 1;
    s.events[0] = Event {
        tick: 985,
        a: 1,
        b: 0,
        kind: EventKind::ROUND_STARTED,
        player: NO_PLAYER,
        ..Default::default()
    };
    s.r#match.game_type = GameType::VERSUS;
    s.r#match.round_state = RoundState::PLAYING;
    s.r#match.teams = 2;
    s.spawn_marker_count = 1;
    s.spawn_markers[0] = SpawnMarker {
        pos: Vec2 { x: 4.0, y: 4.0 },
        time_left: 1.5,
        kind: EnemyKind::SHOOT,
        ..Default::default()
    };
    s.as_bytes().to_vec()
}

fn bridge_header_blob() -> Vec<u8> {
    let mut h = BridgeHeader {
        magic: BRIDGE_MAGIC,
        abi_major: ABI_VERSION_MAJOR,
        abi_minor: ABI_VERSION_MINOR,
        header_size: 1304,
        host_pid: 4242,
        host_state: HostState::RUNNING,
        region_count: 2,
        ring_slots: RING_SLOTS,
        max_clients: MAX_CLIENTS as u32,
        pad_owner: [0, NO_PAD, PAD_NOT_BOT, PAD_NOT_BOT],
        run_mode: RunMode::LOCKSTEP,
        ..Default::default()
    };
    h.set_host_version("1.2.0-dev");
    h.regions[0] = RegionEntry {
        offset: 0,
        size: 1304,
    };
    h.regions[1] = RegionEntry {
        offset: 4096,
        size: RING_SLOTS * RING_SLOT_SIZE,
    };
    h.clients[0].state = ClientState::ACTIVE;
    h.clients[0].caps = ClientCaps::TICKS;
    h.clients[0].pid = 777;
    h.clients[0].set_name("bot-alpha");
    h.clients[1].state = ClientState::ACTIVE;
    h.clients[1].caps = ClientCaps::TOOL | ClientCaps::REMOTE;
    h.clients[1].set_name("ibf-cli");
    h.as_bytes().to_vec()
}

fn rec_file_header_blob() -> Vec<u8> {
    let mut r = RecFileHeader {
        magic: REC_MAGIC,
        format: REC_FORMAT,
        header_size: 512,
        schema_major: 0,
        schema_minor: 9,
        snapshot_size: 12104,
        chunk_ticks: REC_CHUNK_TICKS,
        run_mode: RunMode::REALTIME,
        bot_pads: 0b0011,
        ..Default::default()
    };
    r.controls.r#move = ControlStick::LEFT_STICK;
    r.controls.shoot_up = PadButtons::Y;
    r.controls.confirm = PadButtons::A;
    r.set_host_version("1.2.0");
    r.set_profile_name("inversus-1.2.0");
    r.set_note("a \"quoted\" note");
    r.as_bytes().to_vec()
}

#[test]
fn snapshot_blob_in_both_formats() {
    let blob = snapshot_blob();
    // Left for docs/inspect.md's example: `abi-codegen inspect snapshot target/tmp/snapshot.bin`.
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("snapshot.bin"),
        &blob,
    )
    .unwrap();
    let (i, dump, json) = run("snapshot", &blob);
    assert!(i.issues.is_empty(), "{:?}", i.issues);
    assert_eq!(i.exit_code(true), 0);
    assert!(
        dump.contains("@0x0042 game.phase phase playing (6)"),
        "{dump}"
    );
    assert!(
        dump.contains("@0x000c header.flags snapshot_flags valid|in_match"),
        "{dump}"
    );
    assert!(
        dump.contains("ships[2..16] not in use (ship_count = 2)"),
        "{dump}"
    );
    insta::assert_snapshot!("inspect_snapshot_dump", dump);
    // The whole JSON lists 4096 tiles; pin its shape on the parts that matter.
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["type"], "snapshot");
    assert_eq!(v["size"], 12104);
    assert_eq!(v["issues"], serde_json::json!([]));
    assert_eq!(
        v["data"][0]["board"]["tiles"].as_array().map(Vec::len),
        Some(4096)
    );
    assert_eq!(v["data"][0]["board"]["tiles"][4], "none");
    let parts = serde_json::json!({
        "header": v["data"][0]["header"],
        "game": v["data"][0]["game"],
        "ships": v["data"][0]["ships"],
        "events[0]": v["data"][0]["events"][0],
        "spawn_markers": v["data"][0]["spawn_markers"],
    });
    insta::assert_snapshot!(
        "inspect_snapshot_json",
        serde_json::to_string_pretty(&parts).unwrap()
    );
}

#[test]
fn bridge_header_with_its_client_table() {
    let (i, dump, json) = run("bridge_header", &bridge_header_blob());
    assert!(i.issues.is_empty(), "{:?}", i.issues);
    assert!(
        dump.contains(r#"clients[0].name char[32] "bot-alpha""#),
        "{dump}"
    );
    assert!(
        dump.contains("clients[2..8] client_entry ×6 all zero"),
        "{dump}"
    );
    insta::assert_snapshot!("inspect_bridge_header_dump", dump);
    insta::assert_snapshot!("inspect_bridge_header_json", json);
}

#[test]
fn rec_file_header() {
    let (i, dump, json) = run("rec_file_header", &rec_file_header_blob());
    assert!(i.issues.is_empty(), "{:?}", i.issues);
    assert!(
        dump.contains(r#"note char[256] "a \"quoted\" note""#),
        "{dump}"
    );
    insta::assert_snapshot!("inspect_rec_file_header_dump", dump);
    insta::assert_snapshot!("inspect_rec_file_header_json", json);
}

#[test]
fn truncated_input_is_an_error() {
    let blob = snapshot_blob();
    let (i, _, json) = run("snapshot", &blob[..12000]);
    assert!(i.has(Level::Error));
    assert!(i.records.is_empty());
    assert_eq!(i.exit_code(false), 1);
    assert_eq!(i.exit_code(true), 2);
    let issues = render_issues(&i);
    assert!(issues.contains("12104 bytes, 12000 are there"), "{issues}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["data"], serde_json::json!([]), "data is an array, empty");
    let schema = schema();
    let past = inspect(&schema, "snapshot", &blob, 20000, 1).unwrap();
    assert!(
        past.issues[0].message.contains("past the end"),
        "{:?}",
        past.issues
    );
    let two = inspect(&schema, "snapshot", &blob, 0, 2).unwrap();
    assert!(two.has(Level::Error));
    assert!(inspect(&schema, "nosuch", &blob, 0, 1).is_err());
    // Records that would end past 2^64, and a count of 0, are refused, not a panic.
    let huge = inspect(&schema, "snapshot", &blob, u64::MAX - 1, u64::MAX).unwrap_err();
    assert!(huge.contains("past 2^64"), "{huge}");
    let huge = Plan::new(&schema, "snapshot", 0, u64::MAX, Some(u64::MAX)).unwrap_err();
    assert!(huge.contains("past 2^64"), "{huge}");
    assert!(inspect(&schema, "snapshot", &blob, 0, 0).is_err());
}

#[test]
fn wrong_magic_bad_enums_flags_padding_text_and_counts_are_flagged() {
    let mut blob = snapshot_blob();
    blob[0..4].copy_from_slice(b"XXXX"); // header.magic
    blob[0x0C] = 0x81; // header.flags: valid | an undeclared bit 0x80
    blob[0x42] = 200; // game.phase
    blob[0x2F] = 1; // header._pad47
    blob[0x50] = 17; // ship_count > max_ships
    let (i, dump, json) = run("snapshot", &blob);
    let issues = render_issues(&i);
    let warned = |path: &str| {
        i.issues
            .iter()
            .any(|x| x.level == Level::Warn && x.path == path)
    };
    for path in [
        "header.magic",
        "header.flags",
        "game.phase",
        "header._pad47",
        "ship_count",
    ] {
        assert!(warned(path), "no warning for {path}: {:?}", i.issues);
    }
    assert_eq!(i.exit_code(false), 0, "warnings alone");
    assert_eq!(i.exit_code(true), 2, "--strict");
    assert!(
        issues.contains(
            "warn: @0x0000 header.magic: holds 0x58585858, expected snapshot_magic (0x53464249)"
        ),
        "{issues}"
    );
    assert!(
        dump.contains("header.magic u32 0x58585858 (expected snapshot_magic)"),
        "{dump}"
    );
    assert!(dump.contains("game.phase phase 200 (undeclared)"), "{dump}");
    assert!(
        dump.contains("header.flags snapshot_flags valid|0x80"),
        "{dump}"
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["data"][0]["game"]["phase"], 200);
    assert_eq!(
        v["data"][0]["ships"].as_array().unwrap().len(),
        16,
        "count clamped to capacity"
    );

    let mut h = bridge_header_blob();
    let name = 0x100 + 0x28; // clients[0].name
    h[name..name + 32].fill(b'A');
    let (i, _, _) = run("bridge_header", &h);
    assert!(
        i.issues
            .iter()
            .any(|x| x.path == "clients[0].name" && x.message.contains("no NUL")),
        "{:?}",
        i.issues
    );
}

#[test]
fn random_bytes_never_panic() {
    let schema = schema();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for s in &schema.abi().structs {
        for len in [0usize, 1, 7, 64, 4096, 12104, 20000] {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            for offset in [0u64, 3, 8] {
                let i = inspect(&schema, &s.name, &bytes, offset, 2).unwrap();
                let _ = render_dump(&schema, &i);
                let _ = render_json(&schema, &i);
                let plan = Plan::new(&schema, &s.name, offset, 3, Some(i.size + 5)).unwrap();
                let i = inspect_bytes(&schema, &plan, &bytes);
                let _ = render_dump(&schema, &i);
                let _ = render_json(&schema, &i);
            }
        }
    }
}

/// Ring slots as the host lays them out: a bridge header, then `RING_SLOTS` slots of
/// `RING_SLOT_SIZE` bytes from 0x1000, each a `RingSlotHeader` and a payload of 0xAB bytes
/// (so a walk that does not skip the payloads reads nonsense).
fn ring_blob() -> Vec<u8> {
    let mut blob = bridge_header_blob();
    blob.resize(0x1000, 0);
    for i in 0..RING_SLOTS as u64 {
        let h = RingSlotHeader {
            seq: 2 * (i as u32 + 1),
            size: 12104,
            publish_seq: i + 1,
            tick: 1000 + 10 * i,
            publish_ns: 5_000_000 + i,
            ..Default::default()
        };
        blob.extend_from_slice(h.as_bytes());
        blob.resize(
            blob.len() + RING_SLOT_SIZE as usize - h.as_bytes().len(),
            0xAB,
        );
    }
    blob
}

#[test]
fn stride_walks_ring_slot_headers() {
    let blob = ring_blob();
    // Left for docs/inspect.md's example: `--offset 0x1000 --count 8 --stride 32768`.
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ring.bin");
    std::fs::write(&path, &blob).unwrap();
    let blob = std::fs::read(&path).unwrap();
    let schema = schema();
    let slots = u64::from(RING_SLOTS);
    let stride = u64::from(RING_SLOT_SIZE);
    let plan = Plan::new(&schema, "ring_slot_header", 0x1000, slots, Some(stride)).unwrap();
    assert_eq!(plan.end(), 0x1000 + (slots - 1) * stride + 64);
    let i = inspect_bytes(&schema, &plan, &blob);
    assert!(
        !i.has(Level::Warn) && !i.has(Level::Error),
        "{:?}",
        i.issues
    );
    assert_eq!(i.records.len() as u64, slots);
    let v = render_json(&schema, &i);
    assert_eq!(v["stride"], 32768);
    for (n, record) in v["data"].as_array().unwrap().iter().enumerate() {
        assert_eq!(record["tick"], 1000 + 10 * n as u64, "{record}");
        assert_eq!(record["seq"], 2 * (n as u64 + 1));
        assert_eq!(i.records[n].offset, 0x1000 + n as u64 * stride);
    }
    let dump = render_dump(&schema, &i);
    assert!(
        dump.starts_with("# 8 × ring_slot_header (64 bytes) at 0x1000, every 32768 bytes\n"),
        "{dump}"
    );
    assert!(dump.contains("@0x19010 [3].tick u64 1030"), "{dump}");
    // The slot payloads are never read: a walk back to back decodes them as headers.
    let back_to_back = inspect(&schema, "ring_slot_header", &blob, 0x1000, 2).unwrap();
    assert!(back_to_back.has(Level::Warn), "0xAB padding is flagged");

    // The same records handed over one by one, as the command line reads a stream: the same
    // tree, and no claim about the bytes after the last one.
    let records: Vec<&[u8]> = (0..slots)
        .map(|n| {
            let at = plan.record_offset(n) as usize;
            &blob[at..at + 64]
        })
        .collect();
    let streamed = decode(&schema, &plan, &records, Extent::AtLeast(plan.end()));
    assert!(streamed.issues.is_empty(), "{:?}", streamed.issues);
    assert_eq!(render_json(&schema, &streamed)["data"], v["data"]);
    assert_eq!(i.issues.len(), 1, "info: bytes follow the last record");

    // A walk past the end says how many whole records are there.
    let plan = Plan::new(&schema, "ring_slot_header", 0x1000, slots + 1, Some(stride)).unwrap();
    let short = inspect_bytes(&schema, &plan, &blob);
    assert!(short.records.is_empty());
    let issues = render_issues(&short);
    assert!(issues.contains("every 32768 bytes"), "{issues}");
    assert!(issues.contains("(8 whole records)"), "{issues}");
}

#[test]
fn a_stride_below_the_record_size_is_refused() {
    let schema = schema();
    let e = Plan::new(&schema, "ring_slot_header", 0, 2, Some(32)).unwrap_err();
    assert!(
        e.contains("--stride 32 is smaller than `ring_slot_header` (64 bytes)"),
        "{e}"
    );
    assert!(Plan::new(&schema, "ring_slot_header", 0, 2, Some(64)).is_ok());
}

#[test]
fn json_data_is_an_array_for_any_count() {
    let schema = schema();
    let blob = ring_blob();
    for count in [1, 2] {
        let i = inspect(&schema, "ring_slot_header", &blob, 0x1000, count).unwrap();
        let v = render_json(&schema, &i);
        let data = v["data"].as_array().expect("data is an array");
        assert_eq!(data.len() as u64, count);
        assert_eq!(data[0]["tick"], 1000);
    }
}

#[test]
fn unknown_types_suggest_the_closest_struct() {
    let schema = schema();
    let e = inspect(&schema, "snapshott", &[], 0, 1).unwrap_err();
    assert_eq!(
        e,
        "no struct named `snapshott` in the schema; did you mean `snapshot`?"
    );
    let e = inspect(&schema, "ring_slot_hedaer", &[], 0, 1).unwrap_err();
    assert!(e.ends_with("did you mean `ring_slot_header`?"), "{e}");
    let e = inspect(&schema, "phase", &[], 0, 1).unwrap_err();
    assert!(e.contains("`phase` is an enum or a flag set"), "{e}");
    let e = inspect(&schema, "zzzzzz", &[], 0, 1).unwrap_err();
    assert_eq!(e, "no struct named `zzzzzz` in the schema");
}
