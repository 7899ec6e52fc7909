//! The generated Rust bindings in use: a snapshot built, written to bytes and read back with
//! no copy; enums and flags with undeclared values; text fields. Expected sizes come from
//! the reference text (tests/fixtures/bridge-abi-0.9-reference.txt).

use bridge_abi::*;
use zerocopy::{FromBytes, IntoBytes};

/// A buffer whose start is 8-aligned, as shared memory is.
#[repr(C, align(8))]
struct Aligned<const N: usize>([u8; N]);

fn sample_snapshot() -> Snapshot {
    let mut s = Snapshot::default();
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.schema_major = ABI_VERSION_MAJOR;
    s.header.schema_minor = ABI_VERSION_MINOR;
    s.header.size = 12104;
    s.header.flags = SnapshotFlags::VALID | SnapshotFlags::IN_MATCH;
    s.header.tick = 123_456_789_012;
    s.header.game_time = 42.5;
    s.header.invalid_reason = InvalidReason::NONE;
    s.header.tick_source = TickSource::SIM_STEP;
    s.game.menu_id = -7;
    s.game.phase = Phase::PLAYING;
    s.game.lives = -1;
    s.ship_count = 2;
    s.ships[0].pos = Vec2 { x: 1.5, y: -2.25 };
    s.ships[0].flags = ShipFlags::SHIELD | ShipFlags::MOVING;
    s.ships[0].valid = ShipValid::POS | ShipValid::CHARGE_DIR;
    s.ships[0].color = Color::BLACK;
    s.ships[0].charge_dir = Dir::LEFT;
    s.ships[1].pos = Vec2 { x: -3.0, y: 4.0 };
    s.ships[1].player_id = NO_PLAYER;
    s.ships[MAX_SHIPS - 1].score = 99;
    s.projectile_count = 3;
    s.projectiles[2].kind = ProjectileKind::FAST;
    s.projectiles[2].dir = Dir::UP;
    s.projectiles[MAX_PROJECTILES - 1].speed = 12.0;
    s.event_total = 40;
    s.events[40 % MAX_EVENTS] = Event {
        tick: 77,
        a: -1,
        b: 3,
        kind: EventKind::ROUND_ENDED,
        player: 1,
        ..Event::default()
    };
    s.r#match.round_state = RoundState::DECIDED;
    s.r#match.game_type = GameType::ARCADE;
    s.board.width = 3;
    s.board.tiles[BOARD_MAX_TILES - 1] = Tile::NONE;
    s.spawn_markers[3].time_left = 1.25;
    s.spawn_markers[3].kind = EnemyKind::SMASH_SHOOT;
    s.spawn_marker_count = 4;
    s
}

#[test]
fn sizes_match_the_reference() {
    assert_eq!(size_of::<Snapshot>(), 12104);
    assert_eq!(align_of::<Snapshot>(), 8);
    assert_eq!(size_of::<BridgeHeader>(), 1304);
    assert_eq!(size_of::<ClientEntry>(), 128);
    assert_eq!(size_of::<RecFooter>(), 48);
    assert_eq!(align_of::<RecFooter>(), 8);
    assert_eq!(core::mem::offset_of!(Snapshot, spawn_markers), 0x2E40);
    assert_eq!(core::mem::offset_of!(Snapshot, r#match), 0x2768);
}

#[test]
fn snapshot_round_trips_through_bytes_without_a_copy() {
    let s = sample_snapshot();
    let mut buf = Aligned([0u8; 12104]);
    buf.0.copy_from_slice(s.as_bytes());
    // Spot-check the bytes at offsets from the reference, little-endian.
    assert_eq!(&buf.0[0..4], &0x5346_4249u32.to_le_bytes());
    assert_eq!(buf.0[0x30 + 0x12], 6, "game.phase at 0x0042");
    assert_eq!(
        &buf.0[0x1064..0x1068],
        &1.5f32.to_le_bytes(),
        "ships[0].pos.x"
    );
    assert_eq!(buf.0[0x2768 + 0x0F], 2, "match.round_state");
    assert_eq!(buf.0[0x2F40], 4, "spawn_marker_count");

    let r = Snapshot::ref_from_bytes(&buf.0).expect("an aligned buffer of the right size");
    assert!(
        std::ptr::eq(r.as_bytes().as_ptr(), buf.0.as_ptr()),
        "no copy"
    );
    assert_eq!(*r, s);
    assert_eq!(r.header.magic, SNAPSHOT_MAGIC);
    assert!(r.header.flags.contains(SnapshotFlags::IN_MATCH));
    assert!(!r.header.flags.contains(SnapshotFlags::STALE));
    assert_eq!(r.header.tick, 123_456_789_012);
    assert_eq!(r.header.game_time, 42.5);
    assert_eq!(r.header.tick_source, TickSource::SIM_STEP);
    assert_eq!(r.game.menu_id, -7);
    assert_eq!(r.game.lives, -1);
    assert_eq!(r.game.phase, Phase::PLAYING);
    assert_eq!(r.ships[0].pos, Vec2 { x: 1.5, y: -2.25 });
    assert_eq!(r.ships[0].flags, ShipFlags::SHIELD | ShipFlags::MOVING);
    assert_eq!(r.ships[0].charge_dir, Dir::LEFT);
    assert_eq!(r.ships[1].player_id, NO_PLAYER);
    assert_eq!(r.ships[15].score, 99);
    assert_eq!(r.projectiles[2].kind, ProjectileKind::FAST);
    assert_eq!(r.projectiles[127].speed, 12.0);
    let e = &r.events[(r.event_total % MAX_EVENTS as u64) as usize];
    assert_eq!(
        (e.tick, e.a, e.b, e.kind, e.player),
        (77, -1, 3, EventKind::ROUND_ENDED, 1)
    );
    assert_eq!(r.r#match.round_state, RoundState::DECIDED);
    assert_eq!(r.board.tiles[4095], Tile::NONE);
    assert_eq!(r.spawn_markers[3].time_left, 1.25);
    assert_eq!(r.spawn_markers[3].kind, EnemyKind::SMASH_SHOOT);
    assert_eq!(r.spawn_marker_count, 4);
}

#[test]
fn wrong_size_or_alignment_is_an_error_not_a_panic() {
    let buf = Aligned([0u8; 12112]);
    assert!(
        Snapshot::ref_from_bytes(&buf.0[..12103]).is_err(),
        "too short"
    );
    assert!(
        Snapshot::ref_from_bytes(&buf.0[..12105]).is_err(),
        "too long"
    );
    assert!(
        Snapshot::ref_from_bytes(&buf.0[1..12105]).is_err(),
        "misaligned"
    );
    assert!(Snapshot::ref_from_bytes(&buf.0[8..12112]).is_ok());
    // A longer buffer: the prefix is the snapshot, the rest (its extras) is returned.
    let (snap, rest) = Snapshot::ref_from_prefix(&buf.0).expect("prefix");
    assert_eq!(snap.header.magic, 0);
    assert_eq!(rest.len(), 8);
}

#[test]
fn undeclared_enum_values_print_as_numbers_and_round_trip() {
    let mut s = Snapshot::default();
    s.game.phase = Phase(200);
    let bytes = s.as_bytes().to_vec();
    let back = Snapshot::read_from_bytes(&bytes).expect("right size");
    assert_eq!(back.game.phase, Phase(200));
    assert_eq!(back.game.phase.name(), None);
    assert_eq!(format!("{:?}", back.game.phase), "Phase(200)");
    assert_eq!(format!("{:?}", Phase::PLAYING), "Phase::PLAYING");
    assert_eq!(Phase::PLAYING.name(), Some("playing"));
    assert_eq!(Phase::from_name("round_over"), Some(Phase::ROUND_OVER));
    assert_eq!(Phase::values().len(), 10);
    // pickup_kind keeps the schema's order: unknown = 255 before shield = 2.
    assert_eq!(
        PickupKind::values(),
        &[
            PickupKind::FAST_SHOTS,
            PickupKind::BLOCK_EAT,
            PickupKind::UNKNOWN,
            PickupKind::SHIELD
        ]
    );
    assert_eq!(u8::from(PickupKind::UNKNOWN), 255);
}

#[test]
fn flags_operate_on_bits_and_keep_undeclared_ones() {
    let f = SnapshotFlags::VALID | SnapshotFlags::IN_MATCH | SnapshotFlags(0x100);
    assert_eq!(format!("{f:?}"), "SnapshotFlags(VALID | IN_MATCH | 0x100)");
    assert_eq!(
        format!("{:?}", SnapshotFlags::empty()),
        "SnapshotFlags(0x0)"
    );
    assert_eq!(SnapshotFlags::all().bits(), 0x7F);
    assert_eq!(f.unknown_bits(), 0x100);
    assert_eq!(
        (f & !SnapshotFlags::VALID).bits(),
        0x102,
        "`!` keeps undeclared bits"
    );
    assert_eq!((f ^ SnapshotFlags::VALID).bits(), 0x102);
    let bits: Vec<u32> = f.iter().map(|b| b.bits()).collect();
    assert_eq!(bits, vec![0x1, 0x2, 0x100]);
    let mut g = SnapshotFlags::empty();
    assert!(g.is_empty());
    g |= SnapshotFlags::STALE;
    g.insert(SnapshotFlags::LOCKSTEP);
    g.remove(SnapshotFlags::STALE);
    assert_eq!(g, SnapshotFlags::LOCKSTEP);
    assert!(f.intersects(SnapshotFlags::IN_MATCH | SnapshotFlags::STALE));
    // A flag named `flags` (ship_valid) does not collide with the helpers.
    assert_eq!(ShipValid::FLAGS.bits(), 0x200);
    assert_eq!(ShipValid::named()[9], (ShipValid::FLAGS, "flags"));
    assert_eq!(PadButtons::all().bits(), 0xF3FF);
}

#[test]
fn text_fields_read_and_write_with_truncation() {
    let mut c = ClientEntry::default();
    c.set_name("bot-7");
    assert_eq!(c.name_str(), Ok("bot-7"));
    assert_eq!(&c.name[..6], b"bot-7\0");
    let long = "é".repeat(40); // 80 bytes, 2 per character
    c.set_name(&long);
    assert_eq!(c.name[CLIENT_NAME_LEN - 1], 0, "the NUL always fits");
    assert_eq!(
        c.name_str().map(|s| s.chars().count()),
        Ok(15),
        "cut at a character boundary"
    );
    c.name = [b'x'; CLIENT_NAME_LEN];
    assert_eq!(
        c.name_str().map(str::len),
        Ok(CLIENT_NAME_LEN),
        "no NUL: the whole field"
    );
    c.name[0] = 0xFF;
    assert!(c.name_str().is_err());
    let dbg = format!(
        "{:?}",
        ClientEntry {
            name: *b"alpha\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
            state: ClientState::ACTIVE,
            ..Default::default()
        }
    );
    assert!(dbg.contains(r#"name: "alpha""#), "{dbg}");
    assert!(dbg.contains("state: ClientState::ACTIVE"), "{dbg}");
    assert!(!dbg.contains("_pad33"), "padding is left out: {dbg}");
    assert!(
        dbg.ends_with(", .. }"),
        "padding left out shows as `..`: {dbg}"
    );
}

#[test]
fn debug_names_fields_as_derive_debug_would() {
    // `move` is a keyword, so the field is `r#move`; derive(Debug) would show `move`.
    let dbg = format!("{:?}", Controls::default());
    assert!(dbg.starts_with("Controls { move: "), "{dbg}");
    assert!(!dbg.contains("r#"), "{dbg}");
    assert!(
        dbg.ends_with(" }") && !dbg.contains(".."),
        "no padding: {dbg}"
    );
}

#[test]
fn constants_compare_with_their_fields_without_casts() {
    let h = BridgeHeader {
        magic: BRIDGE_MAGIC,
        abi_major: ABI_VERSION_MAJOR,
        pad_owner: [NO_PAD, PAD_NOT_BOT, 0, 1],
        ..Default::default()
    };
    assert_eq!(h.magic, BRIDGE_MAGIC);
    assert_eq!(h.clients.len(), MAX_CLIENTS);
    assert_eq!(h.pad_owner[0], NO_PAD);
    let f = RecFileHeader {
        format: REC_FORMAT,
        ..Default::default()
    };
    assert_eq!(f.format, REC_FORMAT);
    assert_eq!(BOARD_MAX_TILES, 4096, "board_max_dim squared");
    assert_eq!(CLIENT_BLOCK_SIZE, 0x10000);
    assert_eq!(ABI_VERSION, "0.9");
}

/// `Debug` shows a counted array up to its count field and says how many it holds, as
/// `codegen inspect` does, so a default snapshot prints in a few KB rather than 99 KB.
#[test]
fn debug_follows_count_fields() {
    let s = sample_snapshot();
    let dbg = format!("{s:?}");
    let ships = format!("..; 2 of {MAX_SHIPS}]");
    let projectiles = format!("..; 3 of {MAX_PROJECTILES}]");
    let spawns = format!("pickup_spawns: [..; 0 of {MAX_PICKUP_SPAWNS}]");
    for shown in [&ships, &projectiles, &spawns] {
        assert!(dbg.contains(shown.as_str()), "{shown} missing: {dbg}");
    }
    // ships[0] and ships[1] are shown; ships[15], past the count, is not.
    assert_eq!(dbg.matches("Ship {").count(), 2, "{dbg}");
    assert!(dbg.contains("x: 1.5, y: -2.25"), "{dbg}");
    assert!(
        !dbg.contains("score: 99"),
        "an entry past ship_count: {dbg}"
    );
    assert!(
        !dbg.contains("speed: 12.0"),
        "an entry past projectile_count: {dbg}"
    );
    // spawn_markers[3] is the fourth of spawn_marker_count = 4: shown.
    assert!(dbg.contains("time_left: 1.25"), "{dbg}");
    assert!(
        dbg.contains(&format!("..; 4 of {MAX_SPAWN_MARKERS}]")),
        "{dbg}"
    );

    // Equal entries in a row show once: board.tiles[4095] differs from the rest.
    assert!(
        dbg.contains(&format!(
            "tiles: [Tile::WHITE ×{}, Tile::NONE]",
            BOARD_MAX_TILES - 1
        )),
        "{dbg}"
    );

    let size = format!("{:?}", Snapshot::default()).len();
    println!("Debug of Snapshot::default(): {size} bytes");
    assert!(size < 8_000, "Debug of a default snapshot is {size} bytes");

    // A full table shows every entry and no marker; a count past the length shows every
    // entry and the count.
    let mut h = BridgeHeader {
        region_count: u32::try_from(MAX_REGIONS).unwrap(),
        ..Default::default()
    };
    for (i, r) in (0..).zip(&mut h.regions) {
        r.offset = i;
    }
    let full = format!("{h:?}");
    assert_eq!(full.matches("RegionEntry {").count(), MAX_REGIONS, "{full}");
    assert!(!full.contains("..;"), "{full}");
    h.region_count = 99;
    let over = format!("{h:?}");
    assert_eq!(over.matches("RegionEntry {").count(), MAX_REGIONS, "{over}");
    assert!(
        over.contains(&format!("..; 99 of {MAX_REGIONS}]")),
        "{over}"
    );
}

/// `log_level` is `ordered = true` in the schema (the reference: "lowest first"), so its
/// values compare; other enums do not derive an order.
#[test]
fn ordered_enums_compare_lowest_first() {
    assert!(LogLevel::TRACE < LogLevel::DEBUG && LogLevel::WARN < LogLevel::ERROR);
    let mut levels = vec![LogLevel::ERROR, LogLevel::INFO, LogLevel::TRACE];
    levels.sort();
    assert_eq!(levels, [LogLevel::TRACE, LogLevel::INFO, LogLevel::ERROR]);
    assert_eq!(LogLevel::values().iter().max(), Some(&LogLevel::ERROR));
}
