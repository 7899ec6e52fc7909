//! The Python target, checked by CPython: the module generated from `schema.toml` imports,
//! lays out every struct as the plain-text reference says, reads a snapshot blob written
//! byte by byte here, and refuses to import when its layout table is wrong. Small fixtures
//! in `tests/fixtures/python/` pin the module's text (insta) and must import cleanly.
//!
//! Every test that runs python3 fails, never skips, when python3 is missing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use abi_codegen::Schema;
use abi_codegen::testing::language_backend::python::{
    PYTHON_CAMEL_BUILTINS, PYTHON_KEYWORDS, python_type_name, render_python,
};
use abi_codegen::testing::language_backend::{generate_all, generated_line};
use serde_json::{Value, json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    let path = Path::new(ROOT).join(path);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn load(path: &str) -> Schema {
    let src = read(path);
    abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render(path, &src)))
}

fn bridge_module() -> String {
    render_python(&load("schema.toml"), "schema.toml").expect("the bridge module renders")
}

/// A fresh folder for one test's files, under cargo's scratch folder for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("python_module")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// What a python3 run printed.
struct PyRun {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs `script` with python3 in `dir`, where the generated modules are, every warning an
/// error. Panics when python3 cannot be started: these tests need it and must not pass
/// without it.
fn python(dir: &Path, script: &str) -> PyRun {
    let out = Command::new("python3")
        .args(["-B", "-W", "error", "-c"])
        .arg(format!("{PRELUDE}\n{script}"))
        .current_dir(dir)
        .env("PYTHONPATH", dir)
        .env("PYTHONIOENCODING", "utf-8")
        .env_remove("PYTHONOPTIMIZE")
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 is required for the Python target's tests but could not be run: {e}")
        });
    PyRun {
        success: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `script` and panics with its output unless it succeeds and prints `ok` last.
/// Returns what it printed before `ok`.
fn python_ok(dir: &Path, script: &str) -> String {
    let run = python(dir, script);
    let body = run.stdout.trim_end().strip_suffix("ok");
    match body {
        Some(body) if run.success => body.to_string(),
        _ => panic!(
            "python3 failed\n--- stdout\n{}\n--- stderr\n{}",
            run.stdout, run.stderr
        ),
    }
}

/// Checks that do not depend on `assert` (which `-O` would remove).
const PRELUDE: &str = r#"
import ctypes, enum, inspect, json, sys

def check(cond, what):
    if not cond:
        raise SystemExit("FAILED: " + what)

def eq(actual, expected, what):
    if actual != expected:
        raise SystemExit("FAILED: %s: got %r, expected %r" % (what, actual, expected))
"#;

use crate::common;

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) {
    let path = dir.join(name);
    fs::write(&path, contents).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

// ---------------------------------------------------------------------------------------
// The plain-text reference, read independently of the generator.

#[derive(Debug, Default)]
struct Reference {
    consts: BTreeMap<String, u64>,
    enums: BTreeMap<String, RefEnum>,
    structs: BTreeMap<String, RefStruct>,
}

#[derive(Debug)]
struct RefEnum {
    /// `enum` or `flags`.
    kind: String,
    repr: String,
    /// (name, value) in order.
    values: Vec<(String, i64)>,
}

#[derive(Debug)]
struct RefStruct {
    size: u64,
    align: u64,
    fields: Vec<RefField>,
}

#[derive(Debug)]
struct RefField {
    offset: u64,
    name: String,
    /// As the reference writes it: `u32`, `client_state`, `char[client_name_len]`.
    ty: String,
}

impl Reference {
    fn strukt(&self, s: &str) -> &RefStruct {
        self.structs
            .get(s)
            .unwrap_or_else(|| panic!("no struct {s} in the reference"))
    }

    fn field(&self, s: &str, field: &str) -> &RefField {
        self.strukt(s)
            .fields
            .iter()
            .find(|f| f.name == field)
            .unwrap_or_else(|| panic!("no field {s}.{field} in the reference"))
    }

    fn size(&self, s: &str) -> u64 {
        self.strukt(s).size
    }

    fn offset(&self, s: &str, field: &str) -> u64 {
        self.field(s, field).offset
    }

    /// The offset of a path such as `snapshot.ships[2].pos.x`: each step names a field of
    /// the struct its type names, and `[i]` steps over whole elements.
    fn path(&self, path: &str) -> u64 {
        let mut parts = path.split('.');
        let mut current = parts.next().expect("a struct name").to_string();
        let mut offset = 0;
        for part in parts {
            let (name, index) = match part.split_once('[') {
                Some((n, i)) => (n, i.trim_end_matches(']').parse::<u64>().expect("an index")),
                None => (part, 0),
            };
            let field = self.field(&current, name);
            offset += field.offset;
            let elem = field.ty.split('[').next().unwrap_or(&field.ty).to_string();
            if index > 0 {
                offset += index * self.size(&elem);
            }
            current = elem;
        }
        offset
    }
}

fn parse_number(s: &str) -> Option<i64> {
    match s.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The reference text, read by the shared parser of `tests/common/reference.rs`, in the
/// shape the checks below use.
fn parse_reference() -> Reference {
    let parsed = common::reference::load_reference();
    let number = |text: &str| {
        parse_number(text).unwrap_or_else(|| panic!("`{text}` in the reference is not a number"))
    };
    let mut r = Reference::default();
    for c in &parsed.constants {
        // Expression constants (board_max_tiles) are written as their value.
        r.consts.insert(c.name.clone(), number(&c.value) as u64);
    }
    for e in &parsed.enums {
        let values = e
            .values
            .iter()
            .map(|v| (v.name.clone(), number(&v.value)))
            .collect();
        r.enums.insert(
            e.name.clone(),
            RefEnum {
                kind: e.kind.clone(),
                repr: e.repr.clone(),
                values,
            },
        );
    }
    for st in &parsed.structs {
        let fields = st
            .fields
            .iter()
            .map(|f| RefField {
                offset: f.offset,
                name: f.name.clone(),
                ty: f.ty.clone(),
            })
            .collect();
        r.structs.insert(
            st.name.clone(),
            RefStruct {
                size: st.size,
                align: st.align,
                fields,
            },
        );
    }
    r
}

#[test]
fn reference_parses() {
    let r = parse_reference();
    assert_eq!(r.consts.len(), 48);
    assert_eq!(r.enums.len(), 44);
    // rec_footer's lost heading is restored by the shared parser.
    assert_eq!(r.structs.len(), 46);
    assert_eq!(r.size("snapshot"), 12104);
    assert_eq!(r.offset("client_entry", "name"), 0x28);
    assert_eq!(r.path("snapshot.ships[2].pos.y"), 0x1064 + 2 * 64 + 4);
}

// ---------------------------------------------------------------------------------------
// The bridge module.

#[test]
fn bridge_module_starts_with_the_generated_line_and_is_in_generate_all() {
    let module = bridge_module();
    assert_eq!(
        module.lines().next(),
        Some(format!("# {}", generated_line("schema.toml")).as_str())
    );
    let outputs = generate_all(&load("schema.toml"), "schema.toml").expect("renders");
    let py = outputs
        .iter()
        .find(|o| o.file_name == "bridge.py")
        .expect("generate_all writes bridge.py");
    assert_eq!(py.contents, module);
}

#[test]
fn bridge_module_imports_with_the_reference_numbers() {
    let dir = scratch("reference_numbers");
    write(&dir, "bridge.py", bridge_module());
    let r = parse_reference();
    let py_name = |n: &String| python_type_name(n);
    let expected = json!({
        "consts": r.consts.iter().map(|(n, v)| (n.to_ascii_uppercase(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "enums": r.enums.iter().map(|(n, e)| json!({
            "name": py_name(n), "kind": e.kind, "repr": e.repr,
            "values": e.values.iter().map(|(v, x)| json!([v.to_ascii_uppercase(), x])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "structs": r.structs.iter().map(|(n, s)| json!({
            "name": py_name(n), "size": s.size, "align": s.align,
            "fields": s.fields.iter().map(|f| json!([f.offset, f.name, f.ty])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "py_names": r.enums.keys().chain(r.structs.keys()).map(|n| (n.clone(), json!(py_name(n)))).collect::<serde_json::Map<_, _>>(),
    });
    write(&dir, "expected.json", expected.to_string());
    let printed = python_ok(
        &dir,
        r#"
import bridge as m
x = json.load(open("expected.json", encoding="utf-8"))

# The numbers the brief names, spelled out.
eq(ctypes.sizeof(m.Snapshot), 12104, "sizeof(Snapshot)")
eq(ctypes.alignment(m.Snapshot), 8, "alignment(Snapshot)")
eq(m.ClientEntry.name.offset, 0x28, "ClientEntry.name.offset")
eq(m.Phase.PLAYING, 6, "Phase.PLAYING")
eq(m.SnapshotFlags.IN_MATCH, 2, "SnapshotFlags.IN_MATCH")
eq(m.MAX_CLIENTS, 8, "MAX_CLIENTS")
eq((m.ABI_VERSION_MAJOR, m.ABI_VERSION_MINOR), (0, 9), "ABI version")
eq(m.ABI_VERSION, "0.9", "ABI version as text")
check(issubclass(m.Match, ctypes.LittleEndianStructure), "Match is a LittleEndianStructure")

for name, value in x["consts"].items():
    eq(getattr(m, name), value, "constant " + name)

prims = {"u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32,
         "u64": ctypes.c_uint64, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
         "i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float,
         "f64": ctypes.c_double, "char": ctypes.c_char}
reprs = {}
for e in x["enums"]:
    cls = getattr(m, e["name"])
    base = enum.IntFlag if e["kind"] == "flags" else enum.IntEnum
    check(issubclass(cls, base), "%s is an %s" % (e["name"], base.__name__))
    eq([(k, int(v)) for k, v in cls.__members__.items()], [tuple(v) for v in e["values"]],
       "members of " + e["name"])
    reprs[e["name"]] = prims[e["repr"]]

def expected_ctype(t):
    base, _, count = t.partition("[")
    if base in prims:
        elem = prims[base]
    elif x["py_names"][base] in reprs:
        elem = reprs[x["py_names"][base]]
    else:
        elem = getattr(m, x["py_names"][base])
    if count:
        count = count.rstrip("]")
        n = int(count) if count.isdigit() else x["consts"][count.upper()]
        return (elem, n)
    return (elem, None)

fields_checked = 0
for s in x["structs"]:
    cls = getattr(m, s["name"])
    check(issubclass(cls, ctypes.LittleEndianStructure), s["name"] + " is little-endian")
    eq(ctypes.sizeof(cls), s["size"], "sizeof(%s)" % s["name"])
    eq(ctypes.alignment(cls), s["align"], "alignment(%s)" % s["name"])
    eq([f[0] for f in cls._fields_], [f[1] for f in s["fields"]], "fields of " + s["name"])
    for (offset, name, t), (_, ctype) in zip(s["fields"], cls._fields_):
        eq(getattr(cls, name).offset, offset, "%s.%s offset" % (s["name"], name))
        elem, count = expected_ctype(t)
        if count is None:
            check(ctype is elem, "%s.%s is %r, not %r" % (s["name"], name, ctype, elem))
        else:
            check(ctype._type_ is elem and ctype._length_ == count,
                  "%s.%s is %r, not %r[%d]" % (s["name"], name, ctype, elem, count))
        fields_checked += 1
print(len(x["structs"]), fields_checked)
print("ok")
"#,
    );
    let counts: Vec<u64> = printed
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let fields: usize = r.structs.values().map(|s| s.fields.len()).sum();
    assert_eq!(counts, [r.structs.len() as u64, fields as u64]);
}

// ---------------------------------------------------------------------------------------
// A snapshot blob written byte by byte from the reference, read back by Python.

#[derive(Clone, Copy)]
enum Endian {
    Little,
    Big,
}

struct Blob {
    bytes: Vec<u8>,
    endian: Endian,
}

impl Blob {
    fn new(size: u64, endian: Endian) -> Blob {
        Blob {
            bytes: vec![0; size as usize],
            endian,
        }
    }

    fn put(&mut self, offset: u64, le: &[u8]) {
        let mut b = le.to_vec();
        if let Endian::Big = self.endian {
            b.reverse();
        }
        let at = offset as usize;
        self.bytes[at..at + b.len()].copy_from_slice(&b);
    }

    fn raw(&mut self, offset: u64, b: &[u8]) {
        let at = offset as usize;
        self.bytes[at..at + b.len()].copy_from_slice(b);
    }
}

/// The values the blob holds, as Python should report them.
fn write_snapshot(r: &Reference, endian: Endian) -> (Blob, Value) {
    let mut b = Blob::new(r.size("snapshot"), endian);
    b.put(
        r.path("snapshot.header.magic"),
        &(r.consts["snapshot_magic"] as u32).to_le_bytes(),
    );
    b.put(r.path("snapshot.header.flags"), &0x82u32.to_le_bytes());
    b.put(
        r.path("snapshot.header.tick"),
        &0x0102_0304_0506_0708u64.to_le_bytes(),
    );
    b.put(r.path("snapshot.game.phase"), &[6]);
    b.put(r.path("snapshot.game.lives"), &(-3i16).to_le_bytes());
    b.put(
        r.path("snapshot.ships[2].pos.x"),
        &1.5f32.to_bits().to_le_bytes(),
    );
    b.put(
        r.path("snapshot.ships[2].pos.y"),
        &(-2.25f32).to_bits().to_le_bytes(),
    );
    b.put(r.path("snapshot.ships[2].charge_dir"), &[9]);
    b.put(r.path("snapshot.projectiles[5].kind"), &[1]);
    b.put(r.path("snapshot.events[7].a"), &(-123_456i32).to_le_bytes());
    b.put(r.path("snapshot.events[7].kind"), &4u16.to_le_bytes());
    b.put(r.path("snapshot.match.round_state"), &[2]);
    b.put(
        r.path("snapshot.spawn_markers[3].time_left"),
        &0.75f32.to_bits().to_le_bytes(),
    );
    b.put(r.path("snapshot.spawn_marker_count"), &[4]);
    let expected = json!({
        "magic": r.consts["snapshot_magic"],
        "flags": 0x82,
        "in_match": true,
        "tick": 0x0102_0304_0506_0708u64,
        "phase": 6,
        "phase_name": "PLAYING",
        "lives": -3,
        "pos": [1.5, -2.25],
        "charge_dir": 9,
        "charge_dir_name": null,
        "projectile_kind": "FAST",
        "event_a": -123_456,
        "event_kind": "ROUND_ENDED",
        "round_state": "DECIDED",
        "time_left": 0.75,
        "spawn_marker_count": 4,
    });
    (b, expected)
}

/// Python that reads the values `write_snapshot` wrote from a `Snapshot`, the module being `m`.
const READ_SNAPSHOT: &str = r#"
def read_snapshot(s):
    ship = s.ships[2]
    return {
        "magic": s.header.magic,
        "flags": int(m.SnapshotFlags(s.header.flags)),
        "in_match": m.SnapshotFlags.IN_MATCH in m.SnapshotFlags(s.header.flags),
        "tick": s.header.tick,
        "phase": s.game.phase,
        "phase_name": m.Phase(s.game.phase).name,
        "lives": s.game.lives,
        "pos": [ship.pos.x, ship.pos.y],
        "charge_dir": int(m.Dir(ship.charge_dir)),
        "charge_dir_name": m.Dir(ship.charge_dir).name,
        "projectile_kind": m.ProjectileKind(s.projectiles[5].kind).name,
        "event_a": s.events[7].a,
        "event_kind": m.EventKind(s.events[7].kind).name,
        "round_state": m.RoundState(s.match.round_state).name,
        "time_left": s.spawn_markers[3].time_left,
        "spawn_marker_count": s.spawn_marker_count,
    }
"#;

fn snapshot_round_trip(endian: Endian, name: &str, patch: &str) {
    let r = parse_reference();
    let dir = scratch(name);
    write(&dir, "bridge.py", bridge_module());
    let (blob, expected) = write_snapshot(&r, endian);
    write(&dir, "snapshot.bin", &blob.bytes);
    let offsets = json!({
        "phase": r.path("snapshot.game.phase"),
        "spawn_marker_count": r.path("snapshot.spawn_marker_count"),
    });
    write(&dir, "offsets.json", offsets.to_string());
    let printed = python_ok(
        &dir,
        &format!(
            r#"
{patch}
import bridge as m
{READ_SNAPSHOT}
off = json.load(open("offsets.json"))
data = open("snapshot.bin", "rb").read()
eq(len(data), ctypes.sizeof(m.Snapshot), "blob size")

copied = m.Snapshot.from_buffer_copy(data)
buf = bytearray(data)
view = m.Snapshot.from_buffer(buf)
out = {{"copy": read_snapshot(copied), "view": read_snapshot(view)}}

# Zero copy: a write to the buffer shows in the struct, and the other way round; the
# copy keeps what it read.
buf[off["phase"]] = 7
out["view_phase_after_buffer_write"] = view.game.phase
out["copy_phase_after_buffer_write"] = copied.game.phase
view.spawn_marker_count = 9
out["buffer_after_struct_write"] = buf[off["spawn_marker_count"]]
print(json.dumps(out))
print("ok")
"#
        ),
    );
    let got: Value = serde_json::from_str(printed.trim()).expect("python printed JSON");
    assert_eq!(got["copy"], expected, "from_buffer_copy");
    assert_eq!(got["view"], expected, "from_buffer");
    assert_eq!(got["view_phase_after_buffer_write"], 7);
    assert_eq!(got["copy_phase_after_buffer_write"], 6);
    assert_eq!(got["buffer_after_struct_write"], 9);
}

#[test]
fn snapshot_blob_round_trips_through_from_buffer_and_from_buffer_copy() {
    snapshot_round_trip(Endian::Little, "snapshot_little", "");
}

/// On a big-endian host `LittleEndianStructure` is the byte-swapping class. Swap the roles
/// here: with `LittleEndianStructure` made `BigEndianStructure`, every struct, nested ones
/// included, must read a big-endian blob, which holds only if every class derives from it.
#[test]
fn every_struct_follows_the_little_endian_base_class() {
    snapshot_round_trip(
        Endian::Big,
        "snapshot_swapped",
        "ctypes.LittleEndianStructure = ctypes.BigEndianStructure",
    );
}

#[test]
fn text_fields_read_and_write_as_str() {
    let r = parse_reference();
    let dir = scratch("text_fields");
    write(&dir, "bridge.py", bridge_module());
    let name_at = r.offset("client_entry", "name");
    let name_len = r.consts["client_name_len"];
    let mut b = Blob::new(r.size("client_entry"), Endian::Little);
    // "bot-ä", its NUL, then bytes that are not text and must not be read.
    b.raw(name_at, "bot-ä\0garbage".as_bytes());
    b.raw(name_at + name_len, &[0xAA]);
    write(&dir, "entry.bin", &b.bytes);
    let mut bad = Blob::new(r.size("client_entry"), Endian::Little);
    bad.raw(name_at, b"ab\xffc");
    write(&dir, "bad.bin", &bad.bytes);
    let printed = python_ok(
        &dir,
        &format!(
            r#"
import bridge as m
buf = bytearray(open("entry.bin", "rb").read())
e = m.ClientEntry.from_buffer(buf)
bad = m.ClientEntry.from_buffer_copy(open("bad.bin", "rb").read())
out = {{"name": m.text(e.name), "bad": m.text(bad.name)}}

m.set_text(e, "name", "short")
out["short"] = m.text(e.name)
out["short_bytes"] = list(buf[{name_at}:{name_at} + {name_len}])

# 30 ASCII bytes then a two-byte character: 32 bytes do not fit 31, and the character
# must not be split.
m.set_text(e, "name", "x" * 30 + "é")
out["long"] = m.text(e.name)
out["long_last"] = buf[{name_at} + {name_len} - 1]
out["after"] = buf[{name_at} + {name_len}]
print(json.dumps(out, ensure_ascii=False))
print("ok")
"#
        ),
    );
    let got: Value = serde_json::from_str(printed.trim()).expect("python printed JSON");
    assert_eq!(got["name"], "bot-ä");
    assert_eq!(got["bad"], "ab\u{fffd}c");
    assert_eq!(got["short"], "short");
    let mut short = b"short".to_vec();
    short.resize(name_len as usize, 0);
    assert_eq!(got["short_bytes"], json!(short), "the rest is NUL-filled");
    assert_eq!(got["long"], "x".repeat(30));
    assert_eq!(got["long_last"], 0, "a NUL always ends the text");
    assert_eq!(got["after"], 0xAA, "the field after it is untouched");
}

// ---------------------------------------------------------------------------------------
// The import-time check.

fn import_error_of(name: &str, module: &str) -> String {
    let dir = scratch(name);
    write(&dir, "bridge.py", module);
    let printed = python_ok(
        &dir,
        r#"
try:
    import bridge
except ImportError as e:
    print(e)
else:
    raise SystemExit("FAILED: the module imported")
print("ok")
"#,
    );
    printed.trim().to_string()
}

/// The module text with one line of its layout table changed. The table entry for
/// `struct_line` is found after `_layout_table`, then `old` after it.
fn with_table_edit(module: &str, struct_line: &str, old: &str, new: &str) -> String {
    let table = module.find("_layout_table = (").expect("the layout table");
    let entry = table
        + module[table..]
            .find(struct_line)
            .expect("the struct's entry");
    let at = entry + module[entry..].find(old).expect("the line to change");
    format!("{}{new}{}", &module[..at], &module[at + old.len()..])
}

#[test]
fn a_wrong_offset_in_the_layout_table_fails_the_import() {
    let module = bridge_module();
    let edited = with_table_edit(
        &module,
        "(ClientEntry, 128, 8, (",
        "(\"name\", 0x0028),",
        "(\"name\", 0x0030),",
    );
    assert_ne!(edited, module);
    let message = import_error_of("wrong_offset", &edited);
    assert_eq!(
        message,
        "bridge: field ClientEntry.name is at offset 40 (0x28) under ctypes, but the schema's \
         layout puts it at 48 (0x30)"
    );
}

#[test]
fn a_wrong_size_or_alignment_in_the_layout_table_fails_the_import() {
    let module = bridge_module();
    let size = with_table_edit(
        &module,
        "(Snapshot, ",
        "(Snapshot, 12104, 8,",
        "(Snapshot, 12112, 8,",
    );
    assert_eq!(
        import_error_of("wrong_size", &size),
        "bridge: struct Snapshot is 12104 bytes under ctypes, but the schema's layout makes it 12112"
    );
    let align = with_table_edit(&module, "(Vec2, ", "(Vec2, 8, 4,", "(Vec2, 8, 8,");
    assert_eq!(
        import_error_of("wrong_align", &align),
        "bridge: struct Vec2 has alignment 4 under ctypes, but the schema's layout gives it 8"
    );
}

// ---------------------------------------------------------------------------------------
// Small fixtures: the module's text, and CPython's opinion of it.

/// Renders fixture `name`, checks its snapshot, writes it, byte-compiles it with
/// `python3 -m py_compile` and imports it; then runs `script` with the module as `m`.
fn fixture_module(name: &str, script: &str) -> String {
    fixture_module_with(name, &[], script)
}

/// [`fixture_module`], with more files beside the module for the script to read.
fn fixture_module_with(name: &str, files: &[(&str, String)], script: &str) -> String {
    let file = format!("{name}.toml");
    let schema = load(&format!("tests/fixtures/python/{file}"));
    let module = render_python(&schema, &file).expect("renders");
    insta::assert_snapshot!(format!("python_{name}"), module);
    assert_eq!(
        module.lines().next(),
        Some(format!("# {}", generated_line(&file)).as_str())
    );
    let dir = scratch(&format!("fixture_{name}"));
    write(&dir, &format!("{name}.py"), &module);
    for (file, contents) in files {
        write(&dir, file, contents);
    }
    let compile = Command::new("python3")
        .args(["-W", "error", "-m", "py_compile"])
        .arg(format!("{name}.py"))
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 is required for the Python target's tests but could not be run: {e}")
        });
    assert!(
        compile.status.success(),
        "py_compile {name}.py failed: {}",
        String::from_utf8_lossy(&compile.stderr)
    );
    python_ok(
        &dir,
        &format!("import {name} as m\nfrom {name} import *\n{script}\nprint(\"ok\")\n"),
    );
    module
}

#[test]
fn fixture_one_struct() {
    fixture_module(
        "one_struct",
        r#"
eq(NAME_LEN, 16, "NAME_LEN")
eq(ctypes.sizeof(Point), 40, "sizeof(Point)")
eq(ctypes.alignment(Point), 8, "alignment(Point)")
eq([(n, getattr(Point, n).offset) for n, _ in Point._fields_],
   [("x", 0), ("y", 4), ("weight", 8), ("name", 16), ("tags", 32)], "offsets")
p = Point(x=-7, y=0.5, weight=2.25)
set_text(p, "name", "pt")
p.tags[3] = 0xBEEF
q = Point.from_buffer_copy(bytes(p))
eq((q.x, q.y, q.weight, text(q.name), q.tags[3]), (-7, 0.5, 2.25, "pt", 0xBEEF), "round trip")
check("A named point" in Point.__doc__, "struct doc")
check("0x0008 weight: f64, since ABI 1.1" in Point.__doc__, "field list")
eq(sorted(m.__all__), sorted(["NAME_LEN", "ABI_VERSION_MAJOR", "ABI_VERSION_MINOR", "ABI_VERSION", "text",
   "set_text", "Point"]), "__all__")
"#,
    );
}

#[test]
fn fixture_one_enum() {
    fixture_module(
        "one_enum",
        r#"
check(issubclass(Mood, enum.IntEnum), "Mood is an IntEnum")
eq([(k, int(v)) for k, v in Mood.__members__.items()], [("SAD", -1), ("CALM", 0), ("HAPPY", 16)],
   "members")
eq(Mood(-1), Mood.SAD, "Mood(-1)")
odd = Mood(300)
eq(int(odd), 300, "an undeclared value reads as its number")
check(isinstance(odd, Mood) and odd.name is None, "as a pseudo-member without a name")
eq(repr(odd), "<Mood: 300>", "repr")
eq(Mood(300) == 300, True, "equal to its number")
check(300 not in Mood._value2member_map_, "pseudo-members are not declared")
eq(len(Mood), 3, "no member added")
try:
    Mood("x")
except ValueError:
    pass
else:
    raise SystemExit("FAILED: Mood('x') converted")
check("How it feels" in Mood.__doc__ and "SAD = -1" in Mood.__doc__, "docstring")
"#,
    );
}

#[test]
fn fixture_one_flags() {
    fixture_module(
        "one_flags",
        r#"
check(issubclass(Caps, enum.IntFlag), "Caps is an IntFlag")
eq(int(Caps.TOP), 0x80000000, "TOP")
both = Caps(3)
check(Caps.READ in both and Caps.WRITE in both, "bits")
odd = Caps(0x100 | 1)
eq(int(odd), 0x101, "undeclared bits are kept")
check(Caps.READ in odd, "with the declared ones")
"#,
    );
}

#[test]
fn fixture_struct_order() {
    let module = fixture_module(
        "struct_order",
        r#"
eq(ctypes.sizeof(Outer), 20, "sizeof(Outer)")
eq(Outer.inners.offset, 8, "Outer.inners")
eq([n for n in m.__all__ if n[0].isupper() and not n.isupper()], ["Inner", "Middle", "Loose", "Outer"], "order")
"#,
    );
    let at = |class: &str| {
        module
            .find(&format!("\nclass {class}("))
            .unwrap_or_else(|| panic!("class {class}"))
    };
    assert!(at("Inner") < at("Middle"));
    assert!(at("Middle") < at("Loose"));
    assert!(at("Loose") < at("Outer"));
}

#[test]
fn fixture_hostile_names() {
    fixture_module(
        "hostile_names",
        r#"
eq(GLOBAL, 5, "GLOBAL")
check(m.None_ is not None and issubclass(m.None_, ctypes.LittleEndianStructure), "None_")
check(issubclass(m.True_, enum.IntEnum), "True_")
check(issubclass(m.False_, enum.IntFlag), "False_")
import builtins
check(Exception is builtins.Exception and ImportError is builtins.ImportError,
      "import * shadows no builtin")
eq([k for k in m.True_.__members__],
   ["BOOL", "INT", "FLOAT", "ENUM", "NONE", "BUTTON", "CLASS", "TRUE", "FALSE", "_HIDDEN",
    "NAME", "VALUE"], "enum members")
eq((int(m.True_.BOOL), int(m.True_.NONE), int(m.True_.VALUE)), (0, 4, 11), "values")
eq(m.True_(10).name, "NAME", "a member named NAME")
eq(m.False_.FROM | m.False_.SELF, 3, "flags")

n = m.None_()
for i, kw in enumerate(["class", "def", "lambda", "import", "from", "global", "pass"]):
    setattr(n, kw + "_", i + 1)
    eq(getattr(n, kw), i + 1, kw + " through its alias")
    eq(getattr(type(n), kw).offset, i, kw + " offset")
n.self = 9
eq(n.self, 9, "self needs no alias")
check(not hasattr(m.None_, "self_"), "no alias for self")

t = m.Match()
t.type = m.True_.CLASS
t.none = n
t.print = 1
t.id = 2
m.set_text(t, "yield", "héllo")
eq(m.text(t.yield_), "hél", "text through the alias")
eq(bytes(t)[11:16], "hél".encode() + b"\0", "cut at a character boundary")
eq(getattr(t.none, "class"), 1, "nested")
eq(m.True_(t.type), m.True_.CLASS, "enum field")

e = m.ImportError_()
e.return_[1].async_ = 7
e.return_[1].is_ = m.False_.FROM
e.match.id = 3
eq(bytes(e)[12], 7, "async at 12")
eq(bytes(e)[8], 2, "is at 8")
eq(ctypes.sizeof(e), 32, "sizeof(ImportError_)")
"#,
    );
}

#[test]
fn fixture_hostile_docs() {
    let schema = load("tests/fixtures/python/hostile_docs.toml");
    let abi = schema.abi();
    let expected = json!({
        "title": abi.title,
        "module": abi.doc,
        "enum": abi.enums[0].doc,
        "values": abi.enums[0].values.iter().map(|v| v.doc.clone()).collect::<Vec<_>>(),
        "struct": abi.structs.first().expect("a struct").doc,
        "field": abi.structs.first().expect("a struct").fields[0].doc,
    });
    // The fixture holds what it is meant to.
    let all = expected.to_string();
    for nasty in [
        r#"\"\"\""#,
        "'''",
        r"\\",
        "{{",
        "{%",
        "é",
        "\\n#\\n",
        r#"\\\n"#,
        r#"\""#,
    ] {
        assert!(all.contains(nasty), "the fixture lacks {nasty}");
    }
    fixture_module_with(
        "hostile_docs",
        &[("expected.json", expected.to_string())],
        r#"
x = json.load(open("expected.json", encoding="utf-8"))
doc = m.__doc__
check(doc.startswith(x["title"] + ":"), "title")
check(x["module"] in doc, "module doc")
def has_lines(docstring, text, what):
    lines = [l.strip() for l in inspect.cleandoc(docstring).split("\n")]
    for line in text.split("\n"):
        check(line.strip() in lines, "%s: %r not in %r" % (what, line, lines))
check(x["struct"] in inspect.cleandoc(m.Record.__doc__), "struct doc")
check(x["enum"] in inspect.cleandoc(m.Quoting.__doc__), "enum doc")
has_lines(m.Record.__doc__, x["field"], "field doc")
for v in x["values"]:
    has_lines(m.Quoting.__doc__, v, "value doc")
eq(m.ANSWER, 42, "ANSWER")
"#,
    );
}

#[test]
fn fixture_odd_literals() {
    let module = fixture_module(
        "odd_literals",
        r#"
eq((LEADING_ZERO, DOUBLE_UNDERSCORE, PYTHON_UNDERSCORE, TOML_UNDERSCORE), (7, 16, 255, 1000), "fixed")
eq((OCTAL, BINARY, PRODUCT), (15, 5, 75), "kept")
eq([(k, int(v)) for k, v in Odd.__members__.items()], [("ZERO", 0), ("MINUS", -1)], "enum")
"#,
    );
    // The radix stays as the schema wrote it.
    for line in [
        "OCTAL = 0o17",
        "BINARY = 0b101",
        "PYTHON_UNDERSCORE = 0x_ff",
        "DOUBLE_UNDERSCORE = 0x10",
        "ZERO = 00",
    ] {
        assert!(module.contains(line), "{line}");
    }
}

// ---------------------------------------------------------------------------------------
// Names.

#[test]
fn a_constant_and_a_type_with_one_python_name_are_a_schema_error() {
    let path = "tests/fixtures/python/python_name_clash.toml";
    let src = read(path);
    let errors = abi_codegen::load_schema(&src).expect_err("the names clash");
    let rendered = errors.render("python_name_clash.toml", &src);
    assert!(
        rendered.contains(
            "python_name_clash.toml:13:1: error: struct `a_b` and constant `ab` both become `AB` in the Python module"
        ),
        "{rendered}"
    );
}

#[test]
fn keyword_and_builtin_lists_cover_the_installed_python() {
    let dir = scratch("names");
    let printed = python_ok(
        &dir,
        r#"
import builtins, keyword
print(json.dumps({"kw": keyword.kwlist,
                  "camel": [n for n in dir(builtins) if n[:1].isupper()]}))
print("ok")
"#,
    );
    let got: Value = serde_json::from_str(printed.trim()).expect("JSON");
    for kw in got["kw"].as_array().unwrap() {
        let kw = kw.as_str().unwrap();
        assert!(PYTHON_KEYWORDS.contains(&kw), "keyword {kw} is missing");
    }
    for name in got["camel"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert!(
            PYTHON_CAMEL_BUILTINS.contains(&name),
            "builtin {name} is missing"
        );
    }
}
