//! The Python target's live section, run by CPython with every warning an error: atomic
//! words at the offsets the plain-text reference gives, compare-and-swap claims, seqlock
//! round trips, the snapshot ring, a short payload, a counter left odd, a read-only mapping,
//! each atomics backend (libatomic, the `atomics` package, none), the bot example of the
//! module, and two processes racing over one mapped file (a Rust writer and a Python writer,
//! each against a Python reader that checks every copy it accepts).
//!
//! Every test fails, never skips, when python3 is missing. The offsets come from
//! `tests/fixtures/bridge-abi-0.9-reference.txt` (the copy of the shared spec): for example
//! `snapshot_seq` at 0xC0, `pad_owner` at 0xA4, `clients` at 0x100, 128 bytes a row.
#![cfg(not(miri))]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use abi_codegen::testing::language_backend::python::render_python;
use bridge_abi::live;
use bridge_abi::runtime::Mapping;
use serde_json::{Map, Value, json};
use zerocopy::{FromBytes, IntoBytes};

use common::reference::load_reference;

/// Where the ring's slots start in the test mappings, and the mapping's length.
const SLOTS_AT: usize = 4096;
const LEN: usize = SLOTS_AT + 8 * 32768;
/// How long each racing test runs.
const RACE_SECONDS: f64 = 2.0;

/// The racing tests take both cores; they run one at a time.
static RACE: Mutex<()> = Mutex::new(());

fn bridge_module() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema.toml");
    let src = std::fs::read_to_string(&path).expect("read schema.toml");
    let schema = abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render("schema.toml", &src)));
    render_python(&schema, "schema.toml").expect("the bridge module renders")
}

/// The reference's numbers as JSON: `{"structs": {name: {"size", "fields": {f: offset}}},
/// "consts": {name: value}}`, for the Python side.
fn reference_json() -> Value {
    let r = load_reference();
    let mut structs = Map::new();
    for s in &r.structs {
        let fields: Map<String, Value> = (s.fields.iter())
            .map(|f| (f.name.clone(), json!(f.offset)))
            .collect();
        structs.insert(s.name.clone(), json!({ "size": s.size, "fields": fields }));
    }
    let consts: Map<String, Value> = (r.constants.iter())
        .map(|c| {
            let v = match c.value.strip_prefix("0x") {
                Some(hex) => i64::from_str_radix(hex, 16),
                None => c.value.parse(),
            };
            (c.name.clone(), json!(v.expect("a number")))
        })
        .collect();
    json!({ "structs": structs, "consts": consts })
}

/// A fresh folder holding `bridge.py`, `ref.json` and the `atomics` stand-in (in `stub/`).
fn setup(name: &str) -> PathBuf {
    let dir = common::tools::scratch(&format!("python_live_{name}"));
    std::fs::write(dir.join("bridge.py"), bridge_module()).expect("write bridge.py");
    std::fs::write(dir.join("ref.json"), reference_json().to_string()).expect("write ref.json");
    std::fs::create_dir_all(dir.join("stub")).expect("create stub/");
    std::fs::write(dir.join("stub/atomics.py"), ATOMICS_STUB).expect("write the stub");
    dir
}

/// A python3 command in `dir` that runs `script` after the prelude, every warning an error.
fn python_command(dir: &Path, script: &str, args: &[&str]) -> Command {
    let mut path = dir.display().to_string();
    if let Ok(more) = std::env::var("PYTHONPATH") {
        path = format!("{path}:{more}");
    }
    let mut cmd = Command::new("python3");
    cmd.args(["-B", "-W", "error", "-c", &format!("{PRELUDE}\n{script}")])
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", path)
        .env_remove("PYTHONOPTIMIZE");
    cmd
}

fn finish(out: Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed\n--- stdout\n{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Runs `script`; panics with its output unless it succeeds. Returns what it printed.
fn python_ok(dir: &Path, script: &str) -> String {
    let out = python_command(dir, script, &[])
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 is required for the Python target's tests but could not be run: {e}")
        });
    finish(out, "python3")
}

const PRELUDE: &str = r#"
import ctypes, json, mmap, os, struct, sys, time
import bridge

with open("ref.json") as f:
    REF = json.load(f)
S, C = REF["structs"], REF["consts"]

def off(struct_name, field):
    return S[struct_name]["fields"][field]

def raises(cls, needles, fn, *args):
    try:
        fn(*args)
    except cls as e:
        for needle in needles:
            assert needle in str(e), (needle, str(e))
        return str(e)
    raise AssertionError("expected %s from %r" % (cls.__name__, fn))

def mapped(size, name="map.bin", access=mmap.ACCESS_WRITE):
    if not os.path.exists(name):
        with open(name, "wb") as f:
            f.truncate(size)
    with open(name, "r+b") as f:
        return mmap.mmap(f.fileno(), 0, access=access)

def u(buf, offset, fmt="<I"):
    return struct.unpack_from(fmt, buf, offset)[0]
"#;

/// A stand-in for the `atomics` package with its documented API (`atomicview(buffer=,
/// atype=)` as a context, `cmpxchg_strong` returning `(success, expected)`, `exchange`,
/// `fetch_add`, `atomic(width=, atype=)`), counting its calls. Not atomic: one thread.
const ATOMICS_STUB: &str = r#"
UINT = "uint"
calls = []

class _View:
    def __init__(self, buffer):
        self.buffer = buffer
    def __enter__(self):
        if len(self.buffer) not in (1, 2, 4, 8):
            raise ValueError("width")
        return self
    def __exit__(self, *exc):
        self.buffer.release()
    def load(self):
        return int.from_bytes(self.buffer, "little")
    def _put(self, value):
        self.buffer[:] = (value % (1 << (8 * len(self.buffer)))).to_bytes(len(self.buffer), "little")
    def cmpxchg_strong(self, expected, desired):
        calls.append("cmpxchg_strong")
        found = self.load()
        if found == expected:
            self._put(desired)
        return found == expected, found
    def exchange(self, desired):
        calls.append("exchange")
        found = self.load()
        self._put(desired)
        return found
    def fetch_add(self, value):
        calls.append("fetch_add")
        found = self.load()
        self._put(found + value)
        return found

def atomicview(buffer, atype):
    assert atype == UINT
    return _View(buffer)

def atomic(width, atype):
    return _View(memoryview(bytearray(width)))
"#;

/// Atomic fields, claims and the module's word functions at the reference's offsets, on a
/// bytearray and on a shared mapping of a file; run once per backend.
const ATOMICS_SCRIPT: &str = r#"
def exercise(buf):
    h = bridge.LiveBridgeHeader(buf)
    seq, pads, rows = off("bridge_header", "snapshot_seq"), off("bridge_header", "pad_owner"), off("bridge_header", "clients")
    row_size, state = S["client_entry"]["size"], off("client_entry", "state")
    assert (seq, pads, rows, row_size) == (0xC0, 0xA4, 0x100, 128)
    h.set_snapshot_seq(0x1122334455667788)
    assert bytes(buf[seq:seq + 8]) == (0x1122334455667788).to_bytes(8, "little")
    struct.pack_into("<Q", buf, seq, 41)
    assert h.snapshot_seq() == 41 and h.fetch_add_snapshot_seq(2) == 41 and u(buf, seq, "<Q") == 43
    h.set_host_generation(7)
    assert u(buf, off("bridge_header", "host_generation")) == 7
    h.set_host_state(bridge.HostState(2))
    assert h.host_state() == 2 and u(buf, off("bridge_header", "host_state")) == 2
    # Claims: a row by the session's compare-and-swap of its (state, generation) word, once;
    # the view has loads of that word only (no store, swap or add of the row's state).
    h.set_host_state(bridge.HostState(0))
    row = h.clients(3)
    at = rows + 3 * row_size + state
    for method in ("set_state", "compare_exchange_state", "swap_state", "set_generation", "fetch_add_generation"):
        assert not hasattr(row, method), method
    me = bridge.Client.claim(h, 3, 7)
    assert me is not None and u(buf, at) == bridge.ClientState.CLAIMED and row.state() == bridge.ClientState.CLAIMED
    assert isinstance(row.state(), bridge.ClientState)
    assert bridge.Client.claim(h, 3, 7) is None
    assert me.activate() and u(buf, at) == 2 and row.state() == bridge.ClientState.ACTIVE
    generation = u(buf, at - state + off("client_entry", "generation"))
    assert generation == me.generation == row.generation() == 1
    h.set_host_state(bridge.HostState(2))
    row.set_heartbeat_ns(2 ** 63 + 5)
    assert u(buf, rows + 3 * row_size + off("client_entry", "heartbeat_ns"), "<Q") == 2 ** 63 + 5
    row.set_pid(4242)
    row.set_name("bot")
    assert row.name() == "bot" and u(buf, rows + 3 * row_size + off("client_entry", "pid")) == 4242
    # Pads: the four bytes as one word, and one byte through the word.
    no_pad, not_bot = C["no_pad"], C["pad_not_bot"]
    assert h.compare_exchange_pad_owner((0, 0, 0, 0), (no_pad, no_pad, no_pad, not_bot)) == (True, (0, 0, 0, 0))
    assert bytes(buf[pads:pads + 4]) == bytes([no_pad, no_pad, no_pad, not_bot])
    assert h.compare_exchange_pad_owner((0, 0, 0, 0), (1, 1, 1, 1)) == (False, (no_pad, no_pad, no_pad, not_bot))
    assert h.compare_exchange_pad_owner_at(1, no_pad, 3) == (True, no_pad)
    assert bytes(buf[pads:pads + 4]) == bytes([no_pad, 3, no_pad, not_bot]) and h.pad_owner() == (no_pad, 3, no_pad, not_bot)
    assert h.compare_exchange_pad_owner_at(1, no_pad, 5) == (False, 3)
    assert h.compare_exchange_pad_owner_at(3, no_pad, 5) == (False, not_bot)
    raises(IndexError, ["4"], h.compare_exchange_pad_owner_at, 4, 0, 1)
    # The module's word functions, at the same offsets.
    assert bridge.atomic_load(buf, seq, 8) == 43
    bridge.atomic_store(buf, seq, 8, 50)
    assert bridge.atomic_fetch_add(buf, seq, 8, -1) == 50 and bridge.atomic_exchange(buf, seq, 8, 9) == 49
    assert bridge.atomic_compare_exchange(buf, seq, 8, 9, 10) == (True, 9) and bridge.atomic_compare_exchange(buf, seq, 8, 9, 11) == (False, 10)
    assert bridge.atomic_compare_exchange(buf, pads, 4, 0, 1)[0] is False
    raises(ValueError, ["not aligned"], bridge.atomic_load, buf, seq + 4, 8)
    raises(ValueError, ["does not fit"], bridge.atomic_load, buf, len(buf) - 4, 8)
    # Views check where they are.
    raises(ValueError, ["multiple of 8"], bridge.LiveBridgeHeader, buf, 4)
    raises(ValueError, ["1304", "1000"], bridge.LiveBridgeHeader, bytearray(1000))
    raises(IndexError, ["8 entries"], h.clients, 8)
    h.release()

backend = bridge.set_atomics_backend(sys.argv[1] if len(sys.argv) > 1 else "auto")
exercise(bytearray(8192))
m = mapped(8192)
exercise(m)
m.close()
print(backend, bridge.atomics_backend())
"#;

#[test]
fn atomics_at_the_reference_offsets_with_libatomic() {
    let dir = setup("atomics_libatomic");
    let out = python_ok(
        &dir,
        &format!("sys.argv[1:] = ['libatomic']\n{ATOMICS_SCRIPT}"),
    );
    assert_eq!(out.trim(), "libatomic libatomic");
}

#[test]
fn atomics_at_the_reference_offsets_with_the_atomics_package() {
    let dir = setup("atomics_package");
    // The real package when it imports, else the stand-in of its documented API.
    let script = format!(
        "try:\n    import atomics\nexcept ImportError:\n    sys.path.insert(0, 'stub')\n    import atomics\n\
         sys.argv[1:] = ['atomics']\n{ATOMICS_SCRIPT}\n\
         print('stub' if hasattr(atomics, 'calls') else 'real', sorted(set(getattr(atomics, 'calls', []))))\n\
         {ONLY_THE_PACKAGE}"
    );
    let out = python_ok(&dir, &script);
    assert!(out.starts_with("atomics atomics\n"), "{out}");
    assert!(
        out.contains("real") || out.contains("['cmpxchg_strong', 'exchange', 'fetch_add']"),
        "the stand-in saw every read-modify-write: {out}"
    );
}

/// With the package and no libatomic, loads and stores are struct copies of the word, with no
/// fence: this is x86-64, where TSO orders them (tests/python_platforms.rs: elsewhere the
/// module refuses).
const ONLY_THE_PACKAGE: &str = r#"
def no_library(*args, **kwargs):
    raise OSError("no libatomic here")
ctypes.CDLL = no_library
ctypes.util.find_library = lambda name: None
assert bridge.set_atomics_backend("atomics") == "atomics"
assert bridge._Backend.lib is None and bridge._Backend.fence is None
exercise(bytearray(8192))
pads = bridge.LivePadInput(bytearray(64))
pads.write_pad_input_unscoped(bridge.PadInput(for_tick=5))
assert pads.read_pad_input().for_tick == 5 and pads.seq() == 2
"#;

#[test]
fn without_atomics_a_read_modify_write_is_a_clear_error_never_a_silent_one() {
    let dir = setup("no_atomics");
    python_ok(
        &dir,
        r#"
def unavailable(fn, *args):
    msg = raises(bridge.AtomicsUnavailableError, ["pip install atomics", "libatomic1", "never falls back"], fn, *args)
    assert issubclass(bridge.AtomicsUnavailableError, RuntimeError), msg

def check(buf):
    h = bridge.LiveBridgeHeader(buf)
    row = h.clients(0)
    before = bytes(buf[:8192])
    unavailable(bridge.Client.claim, h, 0, 0)
    unavailable(row.swap_waiting, 1) if hasattr(row, "swap_waiting") else None
    unavailable(row.fetch_add_waiting, 1)
    unavailable(h.compare_exchange_pad_owner_at, 0, 0, 1)
    unavailable(bridge.atomic_compare_exchange, buf, 0xC0, 8, 0, 1)
    assert bytes(buf[:8192]) == before, "nothing was written"
    # Loads and stores still work, as struct copies of the word.
    h.set_snapshot_seq(3)
    assert h.snapshot_seq() == 3 and u(buf, 0xC0, "<Q") == 3
    h.release()

# Chosen by hand...
assert bridge.set_atomics_backend(None) is None and bridge.atomics_backend() is None
check(bytearray(8192))
# ...and found missing: no libatomic to load, no atomics package to import.
def no_library(*args, **kwargs):
    raise OSError("no libatomic here")
ctypes.CDLL = no_library
ctypes.util.find_library = lambda name: None
sys.modules["atomics"] = None
assert bridge.set_atomics_backend("auto") is None
check(bytearray(8192))
raises(bridge.AtomicsUnavailableError, ["pip install atomics"], bridge.set_atomics_backend, "atomics")
raises(bridge.AtomicsUnavailableError, ["libatomic1"], bridge.set_atomics_backend, "libatomic")
print("ok")
"#,
    );
    // And the module imports with the standard library alone (no site-packages).
    let out = Command::new("python3")
        .args(["-B", "-I", "-S", "-W", "error", "-c"])
        .arg("import sys; sys.path.insert(0, '.'); import bridge; print(bridge.atomics_backend())")
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    assert!(finish(out, "an isolated import").starts_with("libatomic"));
}

#[test]
fn a_read_only_mapping_reads_and_refuses_to_swap() {
    let dir = setup("read_only");
    python_ok(
        &dir,
        r#"
m = mapped(8192)
h = bridge.LiveBridgeHeader(m)
h.set_snapshot_seq(12)
h.release()
m.close()
ro = mapped(8192, access=mmap.ACCESS_READ)
for buf in (ro, bytes(8192)):
    h = bridge.LiveBridgeHeader(buf)
    h.snapshot_seq()
    for fn, args in ((bridge.Client.claim, (h, 1, 0)), (h.compare_exchange_pad_owner_at, (0, 0, 1)),
                     (h.fetch_add_snapshot_seq, (1,)), (bridge.atomic_compare_exchange, (buf, 0xC0, 8, 12, 13))):
        raises(TypeError, ["read-only", "read-write"], fn, *args)
    raises(TypeError, ["read-only"], h.set_snapshot_seq, 1)
    h.release()
h = bridge.LiveBridgeHeader(ro)
assert h.snapshot_seq() == 12
assert bridge.SnapshotRing(h, bytes(bridge.SnapshotRing.SLOT_COUNT * bridge.SnapshotRing.SLOT_SIZE)).read_newest() is not None
h.release()
ro.close()
"#,
    );
}

#[test]
fn seqlocks_round_trip_and_an_odd_counter_gives_up() {
    let dir = setup("seqlocks");
    python_ok(
        &dir,
        r#"
def exercise(buf):
    pads = bridge.LivePadInput(buf, 64)
    value = bridge.PadInput(flags=1, for_tick=77, lx=-32768, ry=123, lt=9)
    pads.write_pad_input_unscoped(value)
    copy, retries = pads.read_pad_input_counted(3)
    assert retries == 0 and pads.seq() == 2 and u(buf, 64 + off("pad_input", "seq")) == 2
    assert bytes(copy)[4:] == bytes(value)[4:] and copy.lx == -32768 and copy.for_tick == 77
    assert u(buf, 64 + off("pad_input", "for_tick"), "<Q") == 77
    params = bridge.LiveParamsHeader(buf, 4096)
    defs = bridge.ParamDefs(def_count=2)
    defs.defs[1].min = -1.5
    bridge.set_text(defs.defs[1], "name", "speed")
    params.write_param_defs_unscoped(defs)
    got = params.read_param_defs()
    assert got.def_count == 2 and got.defs[1].min == -1.5 and bridge.text(got.defs[1].name) == "speed"
    assert u(buf, 4096 + off("params_header", "def_count")) == 2 and params.defs_seq() == 2
    at = 4096 + S["params_header"]["size"] + C["max_params"] * S["param_def"]["size"]
    values = bridge.ParamValues()
    values.values[31].value = 2.5
    params.write_param_values(values)
    assert params.read_param_values().values[31].value == 2.5 and u(buf, at + 31 * 16, "<d") == 2.5
    stats = bridge.LiveStatsHeader(buf, 32768)
    s = bridge.Stats(count=1)
    s.entries[0].value = 3.0
    stats.write_stats_unscoped(s)
    assert stats.read_stats().entries[0].value == 3.0 and stats.read_stats().count == 1
    # A counter left odd: a bounded wait, then a clear error.
    struct.pack_into("<I", buf, 4096 + off("params_header", "defs_seq"), 5)
    t = time.monotonic()
    raises(bridge.SeqlockContendedError, ["seqlock param_defs", "50 tries", "counter was 5", "odd"], params.read_param_defs_counted, 50)
    assert time.monotonic() - t < 5
    assert issubclass(bridge.SeqlockContendedError, RuntimeError)
    params.write_param_defs_unscoped(defs)  # a writer after a dead one: odd stays odd, then even
    assert params.defs_seq() == 6 and params.read_param_defs().def_count == 2
    pads.release()

def a_write_during_the_copy_makes_the_read_try_again(buf):
    pads = bridge.LivePadInput(buf, 64)
    pads.write_pad_input_unscoped(bridge.PadInput(for_tick=1, lx=1))
    copy = bridge.LivePadInput._copy_pad_input
    writes = []

    def copy_during_a_write(self):
        value = copy(self)
        if not writes:  # the writer lands between the copy and the re-check, once
            writes.append(self.write_pad_input_unscoped(bridge.PadInput(for_tick=2, lx=2)))
        return value

    bridge.LivePadInput._copy_pad_input = copy_during_a_write
    try:
        value, retries = pads.read_pad_input_counted(5)
    finally:
        bridge.LivePadInput._copy_pad_input = copy
    assert (retries, value.for_tick, value.lx) == (1, 2, 2), (retries, value.for_tick)
    pads.release()

a_write_during_the_copy_makes_the_read_try_again(bytearray(4096))
exercise(bytearray(65536))
m = mapped(65536)
exercise(m)
m.close()
"#,
    );
}

/// A seqlock write checks and packs the whole value before the counter goes odd, and a store
/// that raises after that leaves the counter odd: readers give up busy instead of keeping half
/// a record, and the next write stores it whole and makes the counter even.
#[test]
fn a_seqlock_write_that_fails_never_publishes_half_a_record() {
    let dir = setup("seqlock_failures");
    python_ok(
        &dir,
        r#"
buf = bytearray(65536)
params = bridge.LiveParamsHeader(buf, 4096)
defs = bridge.ParamDefs(def_count=1)
defs.defs[0].min = 1.0
params.write_param_defs_unscoped(defs)
assert params.defs_seq() == 2

# A value that does not pack (defs is no array of param_def) raises before the counter moves:
# def_count, stored before defs, is not changed either.
bad = bridge.ParamDefs.__new__(bridge.ParamDefs)
bad.def_count, bad.defs = 9, "not an array"
try:
    params.write_param_defs_unscoped(bad)
    raise AssertionError("a value that does not pack was written")
except (TypeError, ValueError):
    pass
assert params.defs_seq() == 2, params.defs_seq()
got = params.read_param_defs()
assert (got.def_count, got.defs[0].min) == (1, 1.0), (got.def_count, got.defs[0].min)

# A store that raises half way (a KeyboardInterrupt, say): the counter stays odd.
later = bridge.ParamDefs(def_count=2)
later.defs[0].min = 2.0
put = bridge.LiveParamsHeader._put
def put_then_stop(self, offset, data):
    put(self, offset, data)
    raise KeyboardInterrupt("the writer stopped after one store")
bridge.LiveParamsHeader._put = put_then_stop
try:
    params.write_param_defs_unscoped(later)
    raise AssertionError("the store did not raise")
except KeyboardInterrupt:
    pass
finally:
    bridge.LiveParamsHeader._put = put
assert params.defs_seq() == 3, "left odd, not made even over half a record: %d" % params.defs_seq()
raises(bridge.SeqlockContendedError, ["seqlock param_defs", "20 tries", "counter was 3", "odd"], params.read_param_defs_counted, 20)
params.write_param_defs_unscoped(later)
assert params.defs_seq() == 4, "the next write kept 3 and ended even: %d" % params.defs_seq()
got = params.read_param_defs()
assert (got.def_count, got.defs[0].min) == (2, 2.0), (got.def_count, got.defs[0].min)
params.release()
"#,
    );
}

/// One access size per byte within Python (issue 46 item 7): every atomic access of the
/// module's word functions is recorded while the session's helpers run over a row and every
/// atomic method of the bridge header's, its rows' and the directory rows' views is called on
/// the same bytes. A row's state and generation, which the claim swaps as one 8-byte word,
/// were loaded and swapped as 4-byte words by the row view; no byte may see two sizes.
#[test]
fn the_views_and_the_session_helpers_access_each_byte_with_one_size() {
    let dir = setup("access_sizes");
    python_ok(
        &dir,
        r#"
seen, call = [], ["setup"]
def wrap(name):
    real = getattr(bridge, name)
    def recorded(mem, offset, width, *args, **kwargs):
        assert mem.address is not None, "libatomic gives each word an address"
        seen.append((mem.address + offset, width, call[0]))
        return real(mem, offset, width, *args, **kwargs)
    setattr(bridge, name, recorded)
for name in ("_load", "_store", "_compare_exchange", "_exchange", "_fetch_add"):
    wrap(name)

def run(name, fn, *args):
    call[0] = name
    return fn(*args)

ARGS = {"load": (), "lane_load": (), "counter": (), "store": (0,), "fetch_add": (0,),
        "cas": (0, 0), "swap": (0,), "word_load": ()}
def every_method(view):
    called = set()
    for name, kind, field, offset, arg, extra, writers, ends in type(view)._methods:
        if kind in ARGS:
            run(name, getattr(view, name), *ARGS[kind])
        elif kind == "word_cas":
            run(name, getattr(view, name), (0,) * extra[1], (0,) * extra[1])
        elif kind == "word_cas_at":
            run(name, getattr(view, name), 0, 0, 0)
        else:
            continue
        called.add(name)
    return called

buf = bytearray(8192)
h = bridge.LiveBridgeHeader(buf)
struct.pack_into("<4B", buf, off("bridge_header", "pad_owner"), 255, 255, 255, 255)
me = run("claim", bridge.Client.claim, h, 1, 0)
assert me is not None
run("activate", me.activate)
run("heartbeat", me.heartbeat, 5)
run("set_waiting", me.set_waiting, True)
run("bind_pad", me.bind_pad, 0)
run("unbind_pad", me.unbind_pad, 0)
run("standing", me.standing)
run("row_state", bridge.Client.row_state, h, 1)
run("host_waiting", bridge.Client.host_waiting, h, 1)
run("hung", bridge.Client.hung, h, 1, bridge.Client.watch(), 10)
run("close", me.close)
called = every_method(h) | every_method(h.clients(1))
for name in ("state", "generation", "heartbeat_ns", "compare_exchange_pad_owner_at", "snapshot_seq"):
    assert name in called, name

hosts = bytearray(bridge.Hosts.SIZE)
d = run("lay_out", bridge.Hosts.lay_out, hosts)
alive = lambda pid: (bridge.PROCESS_RUNNING, 5000)
row, _ = run("register", d.register, 100, 5000, "h", alive)
run("list", d.list)
run("directory_state", d.state, 0)
run("remove_stale", d.remove_stale, 1, alive)
entry = bridge.LiveDirectoryEntry(hosts, 64)
assert "state" in every_method(entry)
run("unregister", d.unregister, row, 100, 5000)

sizes = {}
for at, width, name in seen:
    for b in range(at, at + width):
        sizes.setdefault(b, {}).setdefault(width, set()).add(name)
clashes = sorted((b, {w: sorted(n) for w, n in s.items()}) for b, s in sizes.items() if len(s) > 1)
assert any(w == 8 and n == "claim" for _, w, n in seen), "the claim swaps the row's 8-byte word"
assert not clashes, "bytes accessed with two sizes: %r" % clashes[:8]
print("accesses", len(seen))
"#,
    );
}

#[test]
fn the_snapshot_ring_keeps_the_newest_eight_publications() {
    let dir = setup("ring");
    python_ok(
        &dir,
        &format!(
            "SLOTS_AT = {SLOTS_AT}\nLEN = {LEN}\n{}",
            r#"
def exercise(buf):
    h = bridge.LiveBridgeHeader(buf)
    ring = bridge.SnapshotRing(h, buf, SLOTS_AT)
    assert ring.SLOT_COUNT == C["ring_slots"] == 8 and ring.SLOT_SIZE == C["ring_slot_size"]
    assert ring.read_newest() is None and ring.read_newest_counted(1) is None
    for n in range(1, 12):
        # publish stamps publish_seq with the head it publishes (issue 40, item 4).
        value = bridge.RingSlot(publish_seq=1000 + n, tick=1000 + n, publish_ns=7 * n)
        value.payload.header.tick = 1000 + n
        assert ring.publish(value) == n and value.publish_seq == n
    assert h.snapshot_seq() == 11 and u(buf, off("bridge_header", "snapshot_seq"), "<Q") == 11
    # Publication 11 went to slot (11 - 1) % 8 = 2; slots 3..7 still hold 4..8.
    slot2 = SLOTS_AT + 2 * C["ring_slot_size"]
    assert u(buf, slot2 + off("ring_slot_header", "publish_seq"), "<Q") == 11
    assert u(buf, slot2 + off("ring_slot_header", "seq")) == 4  # written twice
    assert u(buf, slot2 + off("ring_slot_header", "size")) == S["snapshot"]["size"]
    assert [ring.slot(i).read_ring_slot().publish_seq for i in range(8)] == [9, 10, 11, 4, 5, 6, 7, 8]
    newest, retries = ring.read_newest_counted(3)
    assert (newest.publish_seq, newest.tick, newest.publish_ns, retries) == (11, 1011, 77, 0)
    assert newest.payload.header.tick == 1011 and newest.size == 12104 and newest.payload_extra == b""
    # An older producer's shorter payload: what it wrote, the rest zero.
    payload = SLOTS_AT + 2 * C["ring_slot_size"] + S["ring_slot_header"]["size"]
    buf[payload:payload + 12104] = b"\xab" * 12104
    struct.pack_into("<I", buf, slot2 + off("ring_slot_header", "size"), 11840)
    short = ring.read_newest()
    raw = bytes(short.payload)
    assert short.size == 11840 and raw[:11840] == b"\xab" * 11840 and raw[11840:] == bytes(264)
    # A newer producer's longer one: the bytes past the snapshot come as payload_extra.
    struct.pack_into("<I", buf, slot2 + off("ring_slot_header", "size"), 12104 + 16)
    buf[payload + 12104:payload + 12120] = bytes(range(16))
    assert ring.read_newest().payload_extra == bytes(range(16))
    value = bridge.RingSlot(publish_seq=12, payload_extra=b"x" * 24)
    ring.publish(value)
    assert ring.read_newest().payload_extra == b"x" * 24 and ring.read_newest().size == 12128
    raises(ValueError, ["do not fit"], ring.publish, bridge.RingSlot(payload_extra=bytes(32768)))
    # The refused write left its slot's counter even: every slot still reads (issue 36, item 11).
    for i in range(8):
        ring.slot(i).read_ring_slot_counted(3)
    # A slot left odd by a dead writer: the newest read gives up, and says why.
    struct.pack_into("<I", buf, SLOTS_AT + 3 * C["ring_slot_size"], 9)
    raises(bridge.SeqlockContendedError, ["ring SnapshotRing", "20 tries", "odd"], ring.read_newest_counted, 20)
    raises(IndexError, ["8 slots"], ring.slot, 8)
    raises(ValueError, ["needs 262144 bytes"], bridge.SnapshotRing, h, bytearray(1000))
    # The events ring of a snapshot: the last 32 of 40, 3 of those since 5 lost.
    # Written through the ring's writer (issue 40, item 8): numbered from event_total.
    other = bridge.Snapshot()
    assert bridge.push_events(other, bridge.Event()) == 0 and other.event_total == 1
    snap = bridge.Snapshot()
    for i in range(40):
        e = bridge.Event()
        e.a = i % 32
        assert snap.push_events(e) == i
    assert snap.event_total == 40 and snap.events[39 % 32].a == 39 % 32
    events, lost = snap.events_since(5)
    assert lost == 3 and [n for n, _ in events] == list(range(8, 40)) and events[0][1].a == 8
    assert bridge.events_since(snap, 38)[0][1][1].a == 39 % 32 and bridge.events_since(snap, 41) == ([], 0)
    ring.release()

exercise(bytearray(LEN))
m = mapped(LEN)
exercise(m)
m.close()
"#
        ),
    );
}

#[test]
fn the_bot_example_in_the_module_runs() {
    let dir = setup("bot_example");
    let module = bridge_module();
    let start = module
        .find("# A bot attaches to the host's mapping")
        .expect("the module has the bot example");
    let snippet: String = (module[start..].lines().skip(2))
        .take_while(|l| l.starts_with('#'))
        .map(|l| {
            format!(
                "{}\n",
                l.strip_prefix("#     ")
                    .unwrap_or(l.trim_start_matches('#'))
            )
        })
        .collect();
    assert!(snippet.contains("mmap.mmap(f.fileno(), 0)"), "{snippet}");
    let path = dir.join("bridge.shm");
    // A host: the file, one publication.
    python_ok(
        &dir,
        &format!(
            "m = mapped({LEN}, {:?})\nh = bridge.LiveBridgeHeader(m)\n\
             bridge.SnapshotRing(h, m, {SLOTS_AT}).publish(bridge.RingSlot(publish_seq=1))\nh.release()\nm.close()",
            path.display().to_string()
        ),
    );
    let snippet = snippet
        .replace(
            "\"/dev/shm/bridge\"",
            &format!("{:?}", path.display().to_string()),
        )
        .replace("slots_offset = 4096", &format!("slots_offset = {SLOTS_AT}"));
    let out = python_ok(&dir, &snippet);
    assert_eq!(out, "publication 1 Snapshot\nclaimed row 0\n");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[0x100..0x104], &2u32.to_le_bytes(), "row 0 is ACTIVE");
    assert_eq!(
        &bytes[0x104..0x108],
        &1u32.to_le_bytes(),
        "the claim bumped its generation"
    );
}

/// The reader's side of the races: reads the newest snapshot (and, with `--slot`, slot 0
/// too) over and over for the given seconds, checking every copy it accepts: each 8-byte
/// word `i` of the payload must be `(i << 40) ^ n` and the header fields `n`, `n` being the
/// publication. Prints `reads torn retries`.
const READER: &str = r#"
path, slots, seconds, fixed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), "--slot" in sys.argv
with open(path, "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
header = bridge.LiveBridgeHeader(buf)
ring = bridge.SnapshotRing(header, buf, slots)
words = S["snapshot"]["size"] // 8
base = int.from_bytes(b"".join(struct.pack("<Q", i << 40) for i in range(words)), "little")
reads = torn = retries = 0
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    got = ring.read_newest_counted(1000000)
    if got is not None and fixed and reads % 2:
        got = ring.slot(0).read_ring_slot_counted(1000000)
    if got is None or got[0].publish_seq == 0:
        continue
    value, r = got
    reads, retries, n = reads + 1, retries + r, value.publish_seq
    whole = int.from_bytes(bytes(value.payload), "little") == base ^ int.from_bytes(struct.pack("<Q", n) * words, "little")
    torn += not (whole and value.tick == n and value.publish_ns == 3 * n and value.size == 8 * words)
header.release()
buf.close()
print(reads, torn, retries)
"#;

/// The Python writer: publishes in bursts for the given seconds, every word of every
/// payload from its publication number as the reader expects.
const WRITER: &str = r#"
path, slots, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
with open(path, "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
header = bridge.LiveBridgeHeader(buf)
ring = bridge.SnapshotRing(header, buf, slots)
words = S["snapshot"]["size"] // 8
base = int.from_bytes(b"".join(struct.pack("<Q", i << 40) for i in range(words)), "little")
value = bridge.RingSlot()
deadline = time.monotonic() + seconds + 0.5
while time.monotonic() < deadline:
    for _ in range(64):
        n = ring.head() + 1
        data = (base ^ int.from_bytes(struct.pack("<Q", n) * words, "little")).to_bytes(8 * words, "little")
        value.payload = bridge.Snapshot.from_buffer_copy(data)
        value.publish_seq, value.tick, value.publish_ns = n, n, 3 * n
        ring.publish(value)
    time.sleep(0.0005)
header.release()
buf.close()
"#;

fn spawn_python(dir: &Path, script: &str, args: &[&str]) -> std::process::Child {
    python_command(dir, script, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts")
}

/// Runs the Python reader over the file at `path` for [`RACE_SECONDS`] while `write` writes
/// it (until the flag it gets is set, and returns a note), then checks the reader's figures:
/// enough reads, none torn, and retries, which show that the run raced.
fn race(dir: &Path, path: &Path, what: &str, write: impl FnOnce(&AtomicBool) -> String + Send) {
    let _one_at_a_time = RACE.lock().unwrap_or_else(|e| e.into_inner());
    let args = [
        path.display().to_string(),
        SLOTS_AT.to_string(),
        RACE_SECONDS.to_string(),
    ];
    let reader = spawn_python(dir, READER, &[&args[0], &args[1], &args[2], "--slot"]);
    let stop = AtomicBool::new(false);
    let (note, out) = std::thread::scope(|s| {
        let writer = s.spawn(|| write(&stop));
        let out = reader.wait_with_output().expect("the reader runs");
        stop.store(true, Ordering::Relaxed);
        (writer.join().expect("the writer runs"), out)
    });
    let out = finish(out, "the Python reader");
    let v: Vec<u64> = out
        .split_whitespace()
        .map(|w| w.parse().expect("a count"))
        .collect();
    let [reads, torn, retries] = v[..] else {
        panic!("{out}")
    };
    eprintln!("{what}: {note}{reads} reads, {torn} torn accepted, {retries} retries");
    assert_eq!(torn, 0, "torn copies accepted");
    assert!(reads > 100, "the reader read: {reads}");
    assert!(retries > 0, "the run did not race: {reads} reads");
}

#[test]
fn a_rust_writer_and_a_python_reader_race_over_one_mapped_file() {
    let dir = setup("race_rust_writer");
    let path = dir.join("race.shm");
    let map = Mapping::create(&path, LEN).expect("create and map the file");
    let region = map.region().expect("a page-aligned mapping");
    let header = live::BridgeHeader::at(region, 0).unwrap();
    let ring = live::SnapshotRing::new(header, region.tail(SLOTS_AT, 8).unwrap()).unwrap();
    race(&dir, &path, "rust writer, python reader", |stop| {
        let (mut slot, mut published) = (live::RingSlot::zeroed(), 0u64);
        while !stop.load(Ordering::Relaxed) {
            // Bursts at full speed, which lap the Python reader's copies, then a pause in
            // which its copies get through.
            let burst_end = Instant::now() + Duration::from_micros(1500);
            while Instant::now() < burst_end {
                let n = ring.head() + 1;
                let words = <[u64]>::mut_from_bytes(slot.payload.as_mut_bytes()).unwrap();
                for (i, word) in words.iter_mut().enumerate() {
                    *word = ((i as u64) << 40) ^ n;
                }
                (slot.publish_seq, slot.tick, slot.publish_ns) = (n, n, 3 * n);
                ring.publish(&mut slot).expect("a slot holds the value");
                published += 1;
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        format!("{published} publications, ")
    });
}

#[test]
fn a_python_writer_and_a_python_reader_race_over_one_mapped_file() {
    let dir = setup("race_python_writer");
    let path = dir.join("race.shm");
    drop(Mapping::create(&path, LEN).expect("create the file"));
    let args = [
        path.display().to_string(),
        SLOTS_AT.to_string(),
        RACE_SECONDS.to_string(),
    ];
    let writer = spawn_python(&dir, WRITER, &[&args[0], &args[1], &args[2]]);
    race(&dir, &path, "python writer, python reader", |_| {
        finish(
            writer.wait_with_output().expect("the writer runs"),
            "the Python writer",
        )
    });
}

/// A schema with what the bridge lacks: a u32 ring head, signed atomics, fields named after
/// a keyword (`class`) and a view method (`release`), a u16 array claimed as one word, and a
/// struct whose class is what a view would be named (`live_header`).
const EDGE_SCHEMA: &str = include_str!("fixtures/live/edge.toml");

#[test]
fn names_that_clash_signed_words_and_a_u32_head() {
    let dir = setup("edge");
    let schema = abi_codegen::load_schema(EDGE_SCHEMA)
        .unwrap_or_else(|e| panic!("{}", e.render("edge.toml", EDGE_SCHEMA)));
    std::fs::write(
        dir.join("edge.py"),
        render_python(&schema, "edge.toml").unwrap(),
    )
    .unwrap();
    python_ok(
        &dir,
        r#"
import edge
assert edge.LiveHeader is not edge.LiveHeader_ and edge.LiveHeader_.SIZE == 24
buf = bytearray(4096)
h = edge.LiveHeader_(buf)
h.set_class(-5)
assert h.class_() == -5 and h.fetch_add_class(-1) == -5 and u(buf, 4, "<i") == -6
assert h.compare_exchange_release(0, -2) == (True, 0) and h.release_() == -2 and h.swap_release(7) == -2
assert h.compare_exchange_flags((0, 0), (0xFFFF, 1)) == (True, (0, 0)) and h.flags() == (0xFFFF, 1)
ring = edge.Snapshots(h, buf, 1024)
h.set_head(0xFFFFFFFE)
slot = edge.Slot()
slot.payload[3] = 9
assert ring.publish(slot) == 0xFFFFFFFF and ring.publish(slot) == 0 and ring.read_newest() is None
assert ring.publish(slot) == 1 and ring.read_newest().payload[3] == 9 and ring.read_newest().size == 248
h.release()
"#,
    );
}

#[test]
fn schemas_without_shared_memory_have_no_live_section() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python");
    for entry in std::fs::read_dir(&dir).expect("the Python fixtures") {
        let path = entry.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(schema) = abi_codegen::load_schema(&src) else {
            continue;
        };
        let module = render_python(&schema, "x.toml").unwrap();
        for absent in [
            "Live access",
            "import struct",
            "AtomicsUnavailableError",
            "atomic_load",
        ] {
            assert!(!module.contains(absent), "{}: {absent}", path.display());
        }
    }
    let module = bridge_module();
    let all = &module[module.find("__all__ = [").unwrap()..];
    for name in [
        "\"LiveBridgeHeader\"",
        "\"SnapshotRing\"",
        "\"RingSlot\"",
        "\"events_since\"",
        "\"atomic_compare_exchange\"",
    ] {
        assert!(
            all[..all.find(']').unwrap()].contains(name),
            "{name} is exported"
        );
    }
}

/// Every compare-and-swap loop that keeps the other bytes of its word (a pad's owner byte,
/// the host's retire of a row beside its client's generation, a pad let go by a free) gives
/// up with ContendedError after `_cas_tries` tries against a peer that changes the word
/// between each load and exchange (`_cas_hook`), and stores nothing; with the peer quiet,
/// each goes through.
#[test]
fn a_peer_that_writes_a_word_nonstop_makes_each_cas_loop_give_up_by_name() {
    let dir = setup("cas_bounds");
    let out = python_ok(
        &dir,
        r#"
buf = bytearray(S["bridge_header"]["size"])
h = bridge.LiveBridgeHeader(buf)
mem, pads = h._mem, off("bridge_header", "pad_owner")
base = bridge.Client._row_base(h, 0)
calls = []
def peer(width, at):
    def hook(m, offset):
        if offset == at:
            calls.append(offset)
            bridge._fetch_add(m, offset, width, 1 << (8 * width - 1))
    return hook
def gives_up(hook, call):
    calls.clear()
    bridge._cas_hook = hook
    try:
        call()
    except bridge.ContendedError as e:
        assert "1024 compare-and-swaps" in str(e), e
        return len(calls)
    finally:
        bridge._cas_hook = None
    raise AssertionError("no ContendedError")
buf[pads:pads + 4] = bytes([0, 255, 255, 255])
assert gives_up(peer(4, h._base + pads), lambda: h.compare_exchange_pad_owner_at(1, 255, 7)) == 1024
assert buf[pads + 1] == 255, "nothing stored"
assert gives_up(peer(4, h._base + pads), lambda: bridge.Client._bind(h, 0, 0, 255)) == 1024
state_at = base + off("client_entry", "state")
struct.pack_into("<I", buf, state_at - h._base, 2)
assert gives_up(peer(8, state_at), lambda: bridge.Client._retire(mem, base)) == 1024
assert struct.unpack_from("<I", buf, state_at - h._base)[0] == 2, "not retired"
assert h.compare_exchange_pad_owner_at(1, 255, 7) == (True, 255)
assert bridge.Client._retire(mem, base) == 2
print("ok")
"#,
    );
    assert_eq!(out.trim(), "ok");
}
