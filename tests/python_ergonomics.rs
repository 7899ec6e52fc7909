//! The Python module in everyday use, under CPython and mypy: `repr` of a struct follows
//! count fields as Rust's `Debug` does, an enum or flag field reads as its class through
//! its `<field>_enum` property, the stub `bridge.pyi` types an example and a bot on the
//! live and attach API for `mypy --strict` (and catches wrong types, misspelt methods and
//! a compare-and-swap result used as a number), every fixture's stub passes
//! `mypy --strict` and matches its module (mypy's stubtest), and a read-only mapping takes
//! `from_buffer_copy` and the live views but not `from_buffer`.
//!
//! Every test fails, never skips, when python3 or mypy is missing (`.ci/run` installs mypy).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use abi_codegen::testing::language_backend::generate_all;

use crate::common;

/// A scratch folder holding the generated `bridge.py` and `bridge.pyi`, and the reference
/// bridge image as `bridge.bin`.
fn setup(name: &str) -> PathBuf {
    let dir = common::tools::scratch(&format!("python_ergonomics_{name}"));
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema.toml"))
        .expect("read schema.toml");
    write_module(&dir, &src, "bridge");
    std::fs::write(dir.join("bridge.bin"), common::image::valid()).expect("write the image");
    dir
}

/// Writes the Python module of schema `src` and its stub into `dir` as `<module>.py` and
/// `<module>.pyi`.
fn write_module(dir: &Path, src: &str, module: &str) {
    let schema = abi_codegen::load_schema(src)
        .unwrap_or_else(|e| panic!("{}", e.render(&format!("{module}.toml"), src)));
    let name = &schema.abi().name;
    for out in generate_all(&schema, "schema.toml").expect("renders") {
        for extension in ["py", "pyi"] {
            if out.file_name == format!("{name}.{extension}") {
                let path = dir.join(format!("{module}.{extension}"));
                std::fs::write(path, &out.contents).expect("write the module");
            }
        }
    }
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

/// Writes `program` into `dir` as `file`, checks it with mypy --strict and runs it on
/// `bridge.bin`, every warning an error; panics unless both succeed. Returns what it printed.
fn typed_run(dir: &Path, file: &str, program: &str) -> String {
    std::fs::write(dir.join(file), program).expect("write the program");
    let checked = mypy(dir, file);
    assert!(
        checked.status.success(),
        "mypy --strict refused {file}\n{}",
        text(&checked)
    );
    let out = run(dir, "python3", &["-B", "-W", "error", file, "bridge.bin"]);
    assert!(out.status.success(), "{file} failed\n{}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes `program` into `dir` as `wrong.py` and checks it with mypy --strict; panics unless
/// mypy refuses it. Returns its whole report and what it printed.
fn refused(dir: &Path, program: &str) -> (String, String) {
    std::fs::write(dir.join("wrong.py"), program).expect("write the wrong program");
    let refused = mypy(dir, "wrong.py");
    let report = text(&refused);
    assert!(
        !refused.status.success(),
        "mypy accepted wrong.py\n{report}"
    );
    (
        report,
        String::from_utf8_lossy(&refused.stdout).into_owned(),
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

/// The host's side: publishes a snapshot, with two events, into the ring of `bridge.bin`
/// (not type-checked).
fn publish_snapshot(dir: &Path) {
    python_ok(
        dir,
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
s.event_total = 2
s.events[0].kind = bridge.EventKind.MATCH_STARTED
s.events[1].kind = bridge.EventKind.SHIP_SPAWNED
s.events[1].tick = 40
ring = b.snapshot_ring()
ring.publish(bridge.RingSlot(size=12104, publish_seq=1, payload=s))
ring.release()
b.release()
m.close()
"#,
    );
}

#[test]
fn mypy_strict_accepts_an_example_and_refuses_wrong_types() {
    let dir = setup("mypy");
    publish_snapshot(&dir);
    assert_eq!(
        typed_run(&dir, "example.py", EXAMPLE),
        "PLAYING valid=True ships=1 x=2.50 tile0=BLACK\nDEAD valid=True ships=1 x=2.50 tile0=BLACK\n"
    );

    let (report, _) = refused(&dir, WRONG);
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

/// A bot on the live and attach API, as the README's Python section uses it: attach to the
/// mapping, read the newest snapshot and its events, claim a client row by compare-and-swap,
/// write and read back its pad under the seqlock, use the atomics helpers and read a record
/// by its producer's size. mypy --strict accepts it with the stub, and it runs.
const BOT: &str = r#""""A bot on the bridge's shared memory, typed by bridge.pyi."""

import mmap
import sys

import bridge


def claim(header: bridge.LiveBridgeHeader) -> int | None:
    """The first free client row, claimed by the session's compare-and-swap, then active."""
    for i in range(bridge.MAX_CLIENTS):
        row: bridge.LiveClientEntry = header.clients(i)
        session: bridge.Client | None = bridge.Client.claim(header, i, header.host_generation())
        if session is None:
            print("row", i, "is", row.state().name)
            continue
        row.set_name("typed bot")
        assert session.activate()
        name: str = row.name()
        state: bridge.ClientState = row.state()
        print("claimed row", i, name, state.name, row.generation())
        return i
    return None


def steer(block: bridge.ClientBlock, tick: int) -> bridge.PadInput:
    """Writes the pad under its seqlock and reads it back."""
    pad = block.pad_input()
    wanted = bridge.PadInput()
    wanted.for_tick = tick
    wanted.lx = -100
    wanted.flags_enum = bridge.PadInputFlags.CONNECTED
    pad.write_pad_input_unscoped(wanted)
    back, retries = pad.read_pad_input_counted(100)
    assert retries == 0 and pad.seq() % 2 == 0
    return back


def main() -> None:
    with open(sys.argv[1], "r+b") as f:
        buf = mmap.mmap(f.fileno(), 0)
    backend: str | None = bridge.atomics_backend()
    assert backend is not None
    try:
        b = bridge.attach(buf)
    except bridge.AttachError as e:
        raise SystemExit("not a bridge: %s (%s)" % (e, e.check))
    with b:
        major, minor = b.producer
        print("producer %d.%d" % (major, minor))
        header = b.header()
        newest = b.snapshot_ring().read_newest()
        if newest is not None:
            snap: bridge.Snapshot = newest.payload
            events, lost = bridge.events_since(snap, 0)
            for number, event in events:
                kind: bridge.EventKind = event.kind_enum
                print("event", number, kind.name, "tick", event.tick)
            later, _ = snap.events_since(snap.event_total)
            print("lost", lost, "then", len(later), "publication", newest.publish_seq)
        row = claim(header)
        block = None if row is None else b.client_blocks(row)
        if block is not None:
            pad = steer(block, 7)
            print("pad", pad.for_tick, pad.lx, pad.flags_enum.name)
        magic = bridge.atomic_load(buf, 0, 4)
        ok, found = bridge.atomic_compare_exchange(buf, 0, 4, magic, magic)
        print("magic", hex(found), ok)
        record = bridge.read_versioned(bridge.BridgeHeader, buf)
        value: bridge.BridgeHeader = record.value
        print("header record", record.producer, record.size, value.abi_minor)
    buf.close()


main()
"#;

/// What mypy must refuse in the live and attach API: (line, what it says).
const BOT_WRONG: &str = r#"import bridge

buf = bytearray(4096)
header = bridge.LiveBridgeHeader(buf)
row = header.clients(0)
row.compare_exchange_stat(bridge.ClientState.FREE, bridge.ClientState.CLAIMED)
row.set_heartbeat_ns("1")
claimed: int = header.compare_exchange_pad_owner_at(0, 255, 1)
state: bridge.RunMode = row.state()
newest = bridge.SnapshotRing(header, buf).read_newest()
tick = newest.tick
pad = bridge.LivePadInput(buf)
pad.write_pad_input_unscoped(bridge.Snapshot())
bridge.attach(buf).client_blocks(0).pad_input()
bridge.set_atomics_backend("libatomics")
bridge.LiveClientEntry("buf")
"#;

#[test]
fn mypy_strict_types_a_bot_on_the_live_and_attach_api() {
    let dir = setup("bot");
    publish_snapshot(&dir);
    assert_eq!(
        typed_run(&dir, "bot.py", BOT),
        "producer 0.9\n\
         event 0 MATCH_STARTED tick 0\n\
         event 1 SHIP_SPAWNED tick 40\n\
         lost 0 then 0 publication 1\n\
         claimed row 0 typed bot ACTIVE 1\n\
         pad 7 -100 CONNECTED\n\
         magic 0x42464249 True\n\
         header record (0, 9) 1304 9\n"
    );

    let (report, stdout) = refused(&dir, BOT_WRONG);
    // Each line's error, by its code and what its message names.
    let expected = [
        (
            6,
            "attr-defined",
            "\"LiveClientEntry\" has no attribute \"compare_exchange_stat\"",
        ),
        (
            7,
            "arg-type",
            "\"set_heartbeat_ns\" of \"LiveClientEntry\" has incompatible type \"str\"; expected \"int\"",
        ),
        (
            8,
            "assignment",
            "expression has type \"tuple[bool, int]\", variable has type \"int\"",
        ),
        (
            9,
            "assignment",
            "expression has type \"ClientState\", variable has type \"RunMode\"",
        ),
        (
            11,
            "union-attr",
            "Item \"None\" of \"RingSlot | None\" has no attribute \"tick\"",
        ),
        (
            13,
            "arg-type",
            "\"write_pad_input_unscoped\" of \"LivePadInput\" has incompatible type \"Snapshot\"; expected \"PadInput\"",
        ),
        (
            14,
            "union-attr",
            "Item \"None\" of \"ClientBlock | None\" has no attribute \"pad_input\"",
        ),
        (
            15,
            "arg-type",
            "\"set_atomics_backend\" has incompatible type \"Literal['libatomics']\"",
        ),
        (
            16,
            "arg-type",
            "\"LiveClientEntry\" has incompatible type \"str\"; expected \"bytes | bytearray | memoryview",
        ),
    ];
    let errors: Vec<(usize, String, String)> = stdout
        .lines()
        .filter_map(|l| {
            let (line, message) = l.strip_prefix("wrong.py:")?.split_once(": error: ")?;
            let (message, code) = message.rsplit_once("  [")?;
            let code = code.strip_suffix(']')?.to_string();
            Some((line.parse().ok()?, code, message.to_string()))
        })
        .collect();
    let found: Vec<(usize, &str)> = errors.iter().map(|(l, c, _)| (*l, c.as_str())).collect();
    let wanted: Vec<(usize, &str)> = expected.iter().map(|(l, c, _)| (*l, *c)).collect();
    assert_eq!(found, wanted, "mypy's errors\n{report}");
    for ((line, _, message), (_, _, says)) in errors.iter().zip(&expected) {
        assert!(
            message.contains(says),
            "line {line}: mypy did not say {says:?}\n{report}"
        );
    }
}

/// The schemas whose stubs are checked: the bridge, every fixture of the Python, C, Rust,
/// attach, live and hostile tests, and the attach demo without writers (its regions as
/// bytes, no live section).
fn stub_schemas() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &Path| std::fs::read_to_string(path).expect("read a schema");
    let mut schemas = vec![("bridge".to_string(), read(&root.join("schema.toml")))];
    for folder in [
        "python",
        "c",
        "rust",
        "attach",
        "live",
        "hostile",
        "markdown",
        "layout",
        "protocols",
        "recording",
    ] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("tests/fixtures").join(folder))
            .expect("a fixture folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        for path in paths {
            let src = read(&path);
            // A fixture the generator refuses (a clash the tests expect) has no stub.
            if abi_codegen::load_schema(&src).is_ok() {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                schemas.push((format!("{folder}_{stem}"), src));
            }
        }
    }
    let demo = read(&root.join("tests/fixtures/attach/demo.toml"));
    let plain = demo
        .replace("writer = \"host\"\n", "")
        .replace("writer = \"client\"\n", "");
    schemas.push(("attach_demo_plain".to_string(), plain));
    schemas
}

/// Python's keywords: a struct field named after one has no line in the stub (`class: int`
/// does not parse), only its alias property (`class_`).
const KEYWORDS: &str = "False|None|True|and|as|assert|async|await|break|class|continue|def|del|\
                        elif|else|except|finally|for|from|global|if|import|in|is|lambda|\
                        nonlocal|not|or|pass|raise|return|try|while|with|yield";

#[test]
fn every_stub_passes_mypy_strict_and_matches_its_module() {
    let dir = common::tools::scratch("python_ergonomics_stubs");
    let schemas = stub_schemas();
    let mut modules = Vec::new();
    for (module, src) in &schemas {
        write_module(&dir, src, module);
        modules.push(module.as_str());
    }
    assert!(
        modules.contains(&"live_kinds") && modules.contains(&"live_edge"),
        "{modules:?}"
    );
    let stubs: Vec<String> = modules.iter().map(|m| format!("{m}.pyi")).collect();
    let mut args = vec!["-m", "mypy", "--strict", "--no-incremental"];
    args.extend(stubs.iter().map(String::as_str));
    let checked = run(&dir, "python3", &args);
    assert!(
        checked.status.success(),
        "mypy --strict refused a stub\n{}",
        text(&checked)
    );
    // stubtest imports each module and compares every name and signature with the stub,
    // `__all__` too. Plain, as a user runs it, over every module but those with a field
    // named after a Python keyword, which is its alias in the stub (`class: int` does not
    // parse): those with an allowlist of the keywords alone.
    let keyword = |src: &str| {
        let schema = abi_codegen::load_schema(src).expect("it rendered");
        schema.abi().structs.iter().any(|s| {
            s.fields
                .iter()
                .any(|f| KEYWORDS.split('|').any(|k| k == f.name))
        })
    };
    let (with_keywords, plain): (Vec<_>, Vec<_>) =
        schemas.iter().partition(|(_, src)| keyword(src));
    assert!(
        plain.iter().any(|(m, _)| m == "bridge") && !with_keywords.is_empty(),
        "{plain:?}"
    );
    let mut args = vec!["-m", "mypy.stubtest"];
    args.extend(plain.iter().map(|(m, _)| m.as_str()));
    let compared = run(&dir, "python3", &args);
    assert!(
        compared.status.success(),
        "a stub differs from its module\n{}",
        text(&compared)
    );
    let allowlist = format!(".*\\.({KEYWORDS})\n");
    std::fs::write(dir.join("allowlist.txt"), allowlist).expect("write the allowlist");
    let mut args = vec![
        "-m",
        "mypy.stubtest",
        "--concise",
        "--allowlist",
        "allowlist.txt",
    ];
    args.extend(with_keywords.iter().map(|(m, _)| m.as_str()));
    let compared = run(&dir, "python3", &args);
    assert!(
        compared.status.success(),
        "a stub differs from its module\n{}",
        text(&compared)
    );
}

/// Issue 38, item 9: a `[[session]]` without `bind` has no pad methods in the module or the
/// stub (the robot fixture's session), where one with `bind` has all three (the protocols
/// demo's); the robot stub matches its module under a plain stubtest, and a program that
/// binds a pad through the robot's session is refused by `mypy --strict` (which checks the
/// stub it imports as well) instead of raising at run time.
#[test]
fn a_session_without_bind_has_no_pad_methods() {
    let dir = common::tools::scratch("python_ergonomics_no_bind");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("read a fixture");
    write_module(&dir, &read("tests/fixtures/diff_rules/robot.toml"), "robot");
    write_module(&dir, &read("tests/fixtures/protocols/demo.toml"), "demo");
    let methods = ["bind_pad", "unbind_pad", "pad_owner"];
    for (module, binds) in [("robot", false), ("demo", true)] {
        let stub = std::fs::read_to_string(dir.join(format!("{module}.pyi"))).expect("the stub");
        for m in methods {
            assert_eq!(
                stub.contains(&format!("def {m}(")),
                binds,
                "{module}.pyi: {m}"
            );
        }
    }
    let out = python_ok(
        &dir,
        "import robot, demo\n\
         for m in ('bind_pad', 'unbind_pad', 'pad_owner'):\n    \
         print(m, hasattr(robot.Client, m), hasattr(demo.Client, m))",
    );
    assert_eq!(
        out,
        "bind_pad False True\nunbind_pad False True\npad_owner False True\n"
    );
    let compared = run(&dir, "python3", &["-m", "mypy.stubtest", "robot"]);
    assert!(compared.status.success(), "{}", text(&compared));
    // mypy --strict checks the imported stub too: its only errors are the program's.
    let (_, report) = refused(
        &dir,
        "import robot\n\ndef bind(c: robot.Client) -> bool:\n    return c.bind_pad(0)\n",
    );
    assert_eq!(
        report,
        "wrong.py:4: error: Returning Any from function declared to return \"bool\"  [no-any-return]\n\
         wrong.py:4: error: \"Client\" has no attribute \"bind_pad\"  [attr-defined]\n"
    );
}
