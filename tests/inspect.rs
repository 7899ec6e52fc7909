//! `codegen inspect` on blobs built by the Rust bindings, in both formats, and on hostile
//! input: truncated files, random bytes, a wrong magic, out-of-range enums and counts.

use bridge_abi::*;
use codegen::inspect::{Inspection, Level, inspect, render_dump, render_json};
use zerocopy::IntoBytes;

fn schema() -> codegen::Schema {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml")).unwrap();
    codegen::load_schema(&src).unwrap()
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
    // Left for the README's example: `codegen inspect snapshot target/tmp/snapshot.bin`.
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
        dump.contains("@0x000C header.flags snapshot_flags valid|in_match"),
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
        v["data"]["board"]["tiles"].as_array().map(Vec::len),
        Some(4096)
    );
    assert_eq!(v["data"]["board"]["tiles"][4], "none");
    let parts = serde_json::json!({
        "header": v["data"]["header"],
        "game": v["data"]["game"],
        "ships": v["data"]["ships"],
        "events[0]": v["data"]["events"][0],
        "spawn_markers": v["data"]["spawn_markers"],
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
    let (i, dump, _) = run("snapshot", &blob[..12000]);
    assert!(i.has(Level::Error));
    assert!(i.records.is_empty());
    assert_eq!(i.exit_code(false), 1);
    assert_eq!(i.exit_code(true), 2);
    assert!(dump.contains("12104 bytes, 12000 are there"), "{dump}");
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
    // Counts that would overflow are an error too, not a panic.
    let huge = inspect(&schema, "snapshot", &blob, u64::MAX - 1, u64::MAX).unwrap();
    assert!(huge.has(Level::Error));
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
        dump.contains("holds 0x58585858, expected snapshot_magic (0x53464249)"),
        "{dump}"
    );
    assert!(dump.contains("game.phase phase 200 (undeclared)"), "{dump}");
    assert!(
        dump.contains("header.flags snapshot_flags valid|0x80"),
        "{dump}"
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["data"]["game"]["phase"], 200);
    assert_eq!(
        v["data"]["ships"].as_array().unwrap().len(),
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
    for s in &schema.abi.structs {
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
            }
        }
    }
}
