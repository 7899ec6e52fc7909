//! Zero-copy reads: a 12,104-byte snapshot in a byte buffer (as it sits in shared memory),
//! read through `Snapshot::ref_from_bytes` and the ships' positions summed, against a
//! field-by-field parse of the same bytes with `from_le_bytes`: once reading only the
//! positions, once parsing every field of the header and of each ship into owned values
//! (what a hand-written or serde-style decoder does). Offsets for the parsers come from
//! `offset_of!` on the bindings, so both read the same bytes.
//! Run with `cargo bench -p bridge-abi --bench zero_copy`.

use std::hint::black_box;
use std::mem::{offset_of, size_of};

use bridge_abi::{MAX_SHIPS, SNAPSHOT_MAGIC, Ship, Snapshot, Vec2};
use criterion::{Criterion, criterion_group, criterion_main};
use zerocopy::{FromBytes, IntoBytes};

/// A snapshot with every ship slot in use and distinct positions.
fn sample_snapshot() -> Box<Snapshot> {
    let mut s = Box::new(Snapshot::default());
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.size = size_of::<Snapshot>() as u32;
    s.ship_count = MAX_SHIPS as u8;
    for (i, ship) in s.ships.iter_mut().enumerate() {
        ship.pos = Vec2 {
            x: i as f32 * 1.5,
            y: 100.0 - i as f32,
        };
        ship.vel = Vec2 { x: 1.0, y: 0.0 };
        ship.score = i as i32;
        ship.alive = 1;
    }
    s
}

/// Zero-copy: the bytes are the struct.
fn sum_zero_copy(bytes: &[u8]) -> f64 {
    let s = Snapshot::ref_from_bytes(bytes).expect("a whole, aligned snapshot");
    let n = usize::from(s.ship_count).min(MAX_SHIPS);
    s.ships[..n]
        .iter()
        .map(|ship| f64::from(ship.pos.x) + f64::from(ship.pos.y))
        .sum()
}

fn u8_at(b: &[u8], at: usize) -> u8 {
    b[at]
}
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

const SHIPS: usize = offset_of!(Snapshot, ships);
const SHIP_COUNT: usize = offset_of!(Snapshot, ship_count);

/// The minimal hand-written reader: `ship_count`, then each ship's `pos.x` and `pos.y`.
fn sum_positions_le(bytes: &[u8]) -> f64 {
    assert!(bytes.len() >= size_of::<Snapshot>(), "short snapshot");
    let n = usize::from(u8_at(bytes, SHIP_COUNT)).min(MAX_SHIPS);
    (0..n)
        .map(|i| {
            let at = SHIPS + i * size_of::<Ship>() + offset_of!(Ship, pos);
            f64::from(f32_at(bytes, at)) + f64::from(f32_at(bytes, at + 4))
        })
        .sum()
}

/// What a decoder makes: owned values, every field read on its own.
#[allow(dead_code)]
struct HeaderOwned {
    magic: u32,
    schema_major: u16,
    schema_minor: u16,
    size: u32,
    flags: u32,
    frame: u64,
    tick: u64,
    host_time_ns: u64,
    game_time: f32,
    invalid_reason: u8,
    tick_source: u8,
}

#[allow(dead_code)]
struct ShipOwned {
    pos: (f32, f32),
    vel: (f32, f32),
    last_shot_pos: (f32, f32),
    reload_progress: f32,
    reload_time: f32,
    time_alive: f32,
    time_since_shot: f32,
    score: i32,
    multiplier: i32,
    valid: u32,
    flags: u16,
    player_id: u8,
    color: u8,
    alive: u8,
    ammo: u8,
    max_ammo: u8,
    fast_ammo: u8,
    charge_dir: u8,
}

fn parse_header(b: &[u8]) -> HeaderOwned {
    use bridge_abi::SnapshotHeader as H;
    HeaderOwned {
        magic: u32_at(b, offset_of!(H, magic)),
        schema_major: u16_at(b, offset_of!(H, schema_major)),
        schema_minor: u16_at(b, offset_of!(H, schema_minor)),
        size: u32_at(b, offset_of!(H, size)),
        flags: u32_at(b, offset_of!(H, flags)),
        frame: u64_at(b, offset_of!(H, frame)),
        tick: u64_at(b, offset_of!(H, tick)),
        host_time_ns: u64_at(b, offset_of!(H, host_time_ns)),
        game_time: f32_at(b, offset_of!(H, game_time)),
        invalid_reason: u8_at(b, offset_of!(H, invalid_reason)),
        tick_source: u8_at(b, offset_of!(H, tick_source)),
    }
}

fn parse_ship(b: &[u8]) -> ShipOwned {
    let vec2 = |at: usize| (f32_at(b, at), f32_at(b, at + 4));
    ShipOwned {
        pos: vec2(offset_of!(Ship, pos)),
        vel: vec2(offset_of!(Ship, vel)),
        last_shot_pos: vec2(offset_of!(Ship, last_shot_pos)),
        reload_progress: f32_at(b, offset_of!(Ship, reload_progress)),
        reload_time: f32_at(b, offset_of!(Ship, reload_time)),
        time_alive: f32_at(b, offset_of!(Ship, time_alive)),
        time_since_shot: f32_at(b, offset_of!(Ship, time_since_shot)),
        score: i32_at(b, offset_of!(Ship, score)),
        multiplier: i32_at(b, offset_of!(Ship, multiplier)),
        valid: u32_at(b, offset_of!(Ship, valid)),
        flags: u16_at(b, offset_of!(Ship, flags)),
        player_id: u8_at(b, offset_of!(Ship, player_id)),
        color: u8_at(b, offset_of!(Ship, color)),
        alive: u8_at(b, offset_of!(Ship, alive)),
        ammo: u8_at(b, offset_of!(Ship, ammo)),
        max_ammo: u8_at(b, offset_of!(Ship, max_ammo)),
        fast_ammo: u8_at(b, offset_of!(Ship, fast_ammo)),
        charge_dir: u8_at(b, offset_of!(Ship, charge_dir)),
    }
}

/// The decoder: the header (its magic checked), `ship_count`, and every field of each
/// ship in use into an owned `Vec`, then the sum.
fn sum_decoded_le(bytes: &[u8]) -> f64 {
    assert!(bytes.len() >= size_of::<Snapshot>(), "short snapshot");
    let header = parse_header(bytes);
    assert_eq!(header.magic, SNAPSHOT_MAGIC, "not a snapshot");
    let n = usize::from(u8_at(bytes, SHIP_COUNT)).min(MAX_SHIPS);
    let ships: Vec<ShipOwned> = (0..n)
        .map(|i| {
            let at = SHIPS + i * size_of::<Ship>();
            parse_ship(&bytes[at..at + size_of::<Ship>()])
        })
        .collect();
    ships
        .iter()
        .map(|s| f64::from(s.pos.0) + f64::from(s.pos.1))
        .sum()
}

fn bench_zero_copy(c: &mut Criterion) {
    let snapshot = sample_snapshot();
    // The struct's own memory: 8-aligned, like a mapping of shared memory.
    let bytes: &[u8] = snapshot.as_bytes();
    assert_eq!(bytes.len(), 12_104);
    let want = sum_zero_copy(bytes);
    assert_eq!(sum_positions_le(bytes), want);
    assert_eq!(sum_decoded_le(bytes), want);

    let mut g = c.benchmark_group("snapshot_ship_positions");
    g.bench_function("ref_from_bytes", |b| {
        b.iter(|| sum_zero_copy(black_box(bytes)))
    });
    g.bench_function("from_le_bytes_positions", |b| {
        b.iter(|| sum_positions_le(black_box(bytes)))
    });
    g.bench_function("from_le_bytes_decode", |b| {
        b.iter(|| sum_decoded_le(black_box(bytes)))
    });
    g.finish();
}

criterion_group!(benches, bench_zero_copy);
criterion_main!(benches);
