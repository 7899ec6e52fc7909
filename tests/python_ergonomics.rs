//! The Python module in everyday use, under CPython and mypy: `repr` of a struct follows
//! count fields as Rust's `Debug` does, an enum or flag field reads as its class through
//! its `<field>_enum` property, the stub `bridge.pyi` types an example for
//! `mypy --strict` (and catches a wrong type), and a read-only mapping takes
//! `from_buffer_copy` and the live views but not `from_buffer`.
//!
//! Every test fails, never skips, when python3 or mypy is missing (`.ci/run` installs mypy).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use abi_codegen::language_backend::generate_all;

mod common;

/// A scratch folder holding the generated `bridge.py` and `bridge.pyi`, and the reference
/// bridge image as `bridge.bin`.
fn setup(name: &str) -> PathBuf {
    let dir = common::tools::scratch(&format!("python_ergonomics_{name}"));
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema.toml"))
        .expect("read schema.toml");
    let schema = abi_codegen::load_schema(&src).expect("the bridge schema loads");
    for out in generate_all(&schema, "schema.toml").expect("renders") {
        if out.file_name.starts_with("bridge.py") {
            std::fs::write(dir.join(&out.file_name), out.contents).expect("write the module");
        }
    }
    std::fs::write(dir.join("bridge.bin"), common::image::valid()).expect("write the image");
    dir
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", dir)
        .env("PYTHONIOENCODING", "utf-8")
        .env("MYPY_CACHE_DIR", dir.join(".mypy_cache"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): these tests need python3"))
}

fn text(out: &Output) -> String {
    format!(
        "--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `script` with python3 in `dir`, every warning an error; panics unless it succeeds.
/// Returns what it printed.
fn python_ok(dir: &Path, script: &str) -> String {
    let out = run(dir, "python3", &["-B", "-W", "error", "-c", script]);
    assert!(out.status.success(), "python3 failed\n{}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `python3 -m mypy --strict file` in `dir`. Panics when mypy is not installed.
fn mypy(dir: &Path, file: &str) -> Output {
    let version = run(dir, "python3", &["-m", "mypy", "--version"]);
    assert!(
        version.status.success(),
        "mypy is required (python3 -m pip install --user mypy; .ci/run installs it)\n{}",
        text(&version)
    );
    run(
        dir,
        "python3",
        &["-m", "mypy", "--strict", "--no-error-summary", file],
    )
}

#[test]
fn repr_follows_count_fields_and_shows_enums_by_name() {
    let dir = setup("repr");
    let out = python_ok(
        &dir,
        r#"
import bridge
s = bridge.Snapshot()
print("default repr: %d bytes" % len(repr(s)))
assert len(repr(s)) < 2000, repr(s)
s.ship_count = 2
s.ships[0].pos.x = 1.5
s.ships[1].player_id = bridge.NO_PLAYER
s.ships[bridge.MAX_SHIPS - 1].score = 99
s.projectile_count = 3
s.projectiles[bridge.MAX_PROJECTILES - 1].speed = 12.0
s.spawn_marker_count = 4
s.spawn_markers[3].time_left = 1.25
s.game.phase = bridge.Phase.PLAYING
s.header.flags = bridge.SnapshotFlags.VALID | bridge.SnapshotFlags.IN_MATCH | 0x100000
s.ships[0].flags = 0
s.board.tiles[bridge.BOARD_MAX_TILES - 1] = bridge.Tile.NONE
s.game.lives = -1
r = repr(s)
for part in (
    "ships=[Ship(pos=Vec2(x=1.5, y=0.0)",
    "..; 2 of %d]" % bridge.MAX_SHIPS,
    "..; 3 of %d]" % bridge.MAX_PROJECTILES,
    "pickup_spawns=[..; 0 of %d]" % bridge.MAX_PICKUP_SPAWNS,
    "time_left=1.25",
    "..; 4 of %d]" % bridge.MAX_SPAWN_MARKERS,
    "phase=Phase.PLAYING",
    "flags=SnapshotFlags.VALID | SnapshotFlags.IN_MATCH | SnapshotFlags(0x100000)",
    "flags=ShipFlags(0x0)",
    "tiles=[Tile.WHITE ×%d, Tile.NONE]" % (bridge.BOARD_MAX_TILES - 1),
    "lives=-1",
):
    assert part in r, (part, r)
assert r.count("Ship(") == 2, r
assert "score=99" not in r and "speed=12.0" not in r, r
assert "_pad" not in r, r
s.game.phase = 200
assert "phase=Phase(200)" in repr(s.game), repr(s.game)
print(r)
"#,
    );
    println!("{out}");
}

#[test]
fn enum_and_flag_fields_read_as_their_classes() {
    let dir = setup("enums");
    python_ok(
        &dir,
        r#"
import bridge
s = bridge.Snapshot()
s.game.phase = bridge.Phase.PLAYING
assert type(s.game.phase) is int
assert s.game.phase_enum is bridge.Phase.PLAYING
s.game.phase_enum = bridge.Phase.DEAD
assert s.game.phase == bridge.Phase.DEAD and type(s.game.phase) is int
s.game.phase = 200
assert isinstance(s.game.phase_enum, bridge.Phase) and s.game.phase_enum == 200
s.header.flags = int(bridge.SnapshotFlags.VALID) | 0x100000
f = s.header.flags_enum
assert isinstance(f, bridge.SnapshotFlags) and bridge.SnapshotFlags.VALID in f and f & 0x100000
s.board.tiles[0] = bridge.Tile.BLACK
tiles = s.board.tiles_enum
assert len(tiles) == bridge.BOARD_MAX_TILES and tiles[0] is bridge.Tile.BLACK
assert all(isinstance(t, bridge.Tile) for t in tiles)
assert "phase_enum" in bridge.Game.__doc__ and "As Phase: phase_enum." in bridge.Game.__doc__
"#,
    );
}

/// The example a bot might write: attach to a read-only mapping, read the newest snapshot,
/// an enum field as its class and a flag. mypy --strict accepts it with the stub, and it
/// runs.
const EXAMPLE: &str = r#""""Reads the newest snapshot of a bridge, typed by bridge.pyi."""

import mmap
import sys

import bridge


def newest_snapshot(path: str) -> bridge.Snapshot | None:
    with open(path, "rb") as f:
        ro = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    handle = bridge.attach(ro)
    slot = handle.snapshot_ring().read_newest()
    if slot is None:
        return None
    snapshot: bridge.Snapshot = slot.payload
    return snapshot


def describe(s: bridge.Snapshot) -> str:
    phase: bridge.Phase = s.game.phase_enum
    flags: bridge.SnapshotFlags = s.header.flags_enum
    valid = bridge.SnapshotFlags.VALID in flags
    ships = [s.ships[i] for i in range(min(s.ship_count, bridge.MAX_SHIPS))]
    x: float = ships[0].pos.x if ships else 0.0
    tiles: list[bridge.Tile] = s.board.tiles_enum
    return "%s valid=%s ships=%d x=%.2f tile0=%s" % (phase.name, valid, len(ships), x, tiles[0].name)


def main() -> None:
    s = newest_snapshot(sys.argv[1])
    if s is None:
        print("nothing published")
        return
    print(describe(s))
    s.game.phase_enum = bridge.Phase.DEAD
    print(describe(s))


main()
"#;

/// What mypy must refuse: a field read as the wrong type, an enum property as another
/// enum, a field that does not exist (read and written), a constant that does not exist.
const WRONG: &str = r#"import bridge

s = bridge.Snapshot()
count: str = s.ship_count
tile: bridge.Tile = s.game.phase_enum
z = s.ships[0].pos.z
n = bridge.MAX_SHIPZ
s.ship_cuont = 3
"#;

#[test]
fn mypy_strict_accepts_an_example_and_refuses_wrong_types() {
    let dir = setup("mypy");
    // The host's side: publish a snapshot into the image's ring (not type-checked).
    python_ok(
        &dir,
        r#"
import mmap, bridge
with open("bridge.bin", "r+b") as f:
    m = mmap.mmap(f.fileno(), 0)
b = bridge.attach(m)
s = bridge.Snapshot()
s.ship_count = 1
s.ships[0].pos.x = 2.5
s.game.phase = bridge.Phase.PLAYING
s.header.flags = bridge.SnapshotFlags.VALID
s.board.tiles[0] = bridge.Tile.BLACK
ring = b.snapshot_ring()
ring.publish(bridge.RingSlot(size=12104, payload=s))
ring.release()
b.release()
m.close()
"#,
    );
    std::fs::write(dir.join("example.py"), EXAMPLE).expect("write the example");
    let checked = mypy(&dir, "example.py");
    assert!(
        checked.status.success(),
        "mypy --strict refused the example\n{}",
        text(&checked)
    );
    let out = run(
        &dir,
        "python3",
        &["-B", "-W", "error", "example.py", "bridge.bin"],
    );
    assert!(out.status.success(), "the example failed\n{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "PLAYING valid=True ships=1 x=2.50 tile0=BLACK\nDEAD valid=True ships=1 x=2.50 tile0=BLACK\n"
    );

    std::fs::write(dir.join("wrong.py"), WRONG).expect("write the wrong example");
    let refused = mypy(&dir, "wrong.py");
    let report = text(&refused);
    assert!(
        !refused.status.success(),
        "mypy accepted wrong types\n{report}"
    );
    for needle in [
        "wrong.py:4: error: Incompatible types in assignment (expression has type \"int\", variable has type \"str\")",
        "wrong.py:5: error: Incompatible types in assignment (expression has type \"Phase\", variable has type \"Tile\")",
        "wrong.py:6: error: \"Vec2\" has no attribute \"z\"",
        "wrong.py:7: error: Module has no attribute \"MAX_SHIPZ\"",
        "wrong.py:8: error: \"Snapshot\" has no attribute \"ship_cuont\"",
    ] {
        assert!(
            report.contains(needle),
            "mypy did not say {needle:?}\n{report}"
        );
    }
}

#[test]
fn a_read_only_mapping_takes_from_buffer_copy_but_not_from_buffer() {
    let dir = setup("read_only");
    python_ok(
        &dir,
        r#"
import mmap, bridge
s = bridge.Snapshot()
s.ship_count = 2
with open("snap.bin", "wb") as f:
    f.write(bytes(s))

with open("snap.bin", "rb") as f:
    ro = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
try:
    bridge.Snapshot.from_buffer(ro)
    raise SystemExit("from_buffer took a read-only mapping")
except TypeError as e:
    assert "writable" in str(e), e
# The read path for read-only memory: a copy.
copy = bridge.Snapshot.from_buffer_copy(ro)
assert copy.ship_count == 2
ro.close()

with open("snap.bin", "r+b") as f:
    rw = mmap.mmap(f.fileno(), 0)
view = bridge.Snapshot.from_buffer(rw)
view.ship_count = 3
try:
    rw.close()
    raise SystemExit("close succeeded with a view alive")
except BufferError as e:
    assert "exported pointers exist" in str(e), e
del view
rw.close()
with open("snap.bin", "rb") as f:
    assert bridge.Snapshot.from_buffer_copy(f.read()).ship_count == 3

# A bridge mapped read-only: attach and the live views read it.
with open("bridge.bin", "rb") as f:
    ro = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
b = bridge.attach(ro)
assert b.header().ring_slots() == 8
assert b.snapshot_ring().read_newest() is None
b.release()
ro.close()
assert "BufferError" in bridge.__doc__ and "read-only" in bridge.__doc__
"#,
    );
}
