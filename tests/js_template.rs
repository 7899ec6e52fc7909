//! The repository's user template, `templates/bridge.mjs.j2` ([[template]] in schema.toml),
//! checked by node: `generated/bridge.mjs` decodes blobs that the Rust value types wrote.
//!
//! Every struct of the schema gets a blob written by its Rust type from a byte pattern, and
//! node decodes it with the module's reader; every leaf field of the result (through arrays
//! and nested structs) is compared with the value of the pattern's bytes at the field's
//! offset. The offsets come from the layout, which rustc verifies (the generated Rust
//! asserts `offset_of!` of every field). A few structs are also filled field by field with
//! values from the reference text (tests/fixtures/bridge-abi-0.9-reference.txt). The
//! JavaScript snippet of docs/templates.md runs, and the template rendered over a small
//! schema of edge
//! cases (64-bit and negative enums, a u64 constant past i64) gives node exact values.
//!
//! The test fails, never skips, when node is missing.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

use bridge_abi::{
    BRIDGE_MAGIC, BridgeHeader, ClientState, RegionEntry, Ship, ShipFlags, Vec2, text,
};
use serde_json::{Value, json};
use zerocopy::{FromBytes, FromZeros, IntoBytes};

use crate::common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Where each blob sits in its file: not at 0, so that the readers' `offset` counts.
const BLOB_OFFSET: usize = 8;

/// The pattern every struct is written from: byte i is (i * 31 + 7) % 0x7f. No byte reaches
/// 0x7f, so no f32 or f64 read from it has an all-ones exponent (never a NaN or infinity),
/// and some bytes are 0, so char[N] fields end early.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((i * 31 + 7) % 0x7f) as u8).collect()
}

/// Lists every struct of the schema, by its schema name, with its Rust value type.
macro_rules! struct_blobs {
    ($($name:literal => $ty:ident),* $(,)?) => {
        /// Each struct's name, and the blob its Rust type wrote: the pattern read into the
        /// value type and written back out.
        fn rust_blobs() -> Vec<(&'static str, Vec<u8>)> {
            vec![$({
                let bytes = pattern(size_of::<bridge_abi::$ty>());
                let value = bridge_abi::$ty::read_from_bytes(&bytes)
                    .expect(concat!("the pattern reads as ", stringify!($ty)));
                ($name, value.as_bytes().to_vec())
            }),*]
        }
    };
}

struct_blobs! {
    "region_entry" => RegionEntry,
    "client_entry" => ClientEntry,
    "controls" => Controls,
    "bridge_header" => BridgeHeader,
    "draw_header" => DrawHeader,
    "draw_list_header" => DrawListHeader,
    "params_header" => ParamsHeader,
    "param_def" => ParamDef,
    "param_value" => ParamValue,
    "stats_header" => StatsHeader,
    "stat_entry" => StatEntry,
    "mailbox_header" => MailboxHeader,
    "ring_slot_header" => RingSlotHeader,
    "log_entry" => LogEntry,
    "log_ring_header" => LogRingHeader,
    "log_queue_header" => LogQueueHeader,
    "client_block_header" => ClientBlockHeader,
    "directory_entry" => DirectoryEntry,
    "directory_header" => DirectoryHeader,
    "heatmap_header" => HeatmapHeader,
    "draw_cmd" => DrawCmd,
    "vec2" => Vec2,
    "pad_input" => PadInput,
    "rec_pad" => RecPad,
    "rec_tick_header" => RecTickHeader,
    "rec_file_header" => RecFileHeader,
    "rec_chunk_header" => RecChunkHeader,
    "rec_chunk_entry" => RecChunkEntry,
    "rec_mark" => RecMark,
    "rec_footer" => RecFooter,
    "rec_trailer" => RecTrailer,
    "snapshot_header" => SnapshotHeader,
    "game" => Game,
    "board" => Board,
    "ship" => Ship,
    "projectile" => Projectile,
    "pickup" => Pickup,
    "event" => Event,
    "match" => Match,
    "pickup_spawn" => PickupSpawn,
    "spawn_marker" => SpawnMarker,
    "ship_ext" => ShipExt,
    "projectile_ext" => ProjectileExt,
    "snapshot" => Snapshot,
    "extra_entry" => ExtraEntry,
    "extras_header" => ExtrasHeader,
}

/// The layout context of schema.toml, as templates see it (`abi-codegen layout --json`).
fn layout() -> Value {
    let src = std::fs::read_to_string(Path::new(ROOT).join("schema.toml")).expect("schema.toml");
    let schema = abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render("schema.toml", &src)));
    abi_codegen::testing::report::layout_json(&schema)
}

fn struct_named<'a>(layout: &'a Value, name: &str) -> &'a Value {
    layout["structs"]
        .as_array()
        .expect("structs")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no struct `{name}` in the layout"))
}

/// The primitive a field's elements are stored as: its own, or its enum's representation.
fn primitive<'a>(layout: &'a Value, field: &'a Value) -> &'a str {
    let elem = &field["elem"];
    match elem["kind"].as_str().expect("elem.kind") {
        "primitive" => elem["name"].as_str().expect("elem.name"),
        "enum" | "flags" => layout["enums"]
            .as_array()
            .expect("enums")
            .iter()
            .find(|e| e["name"] == elem["name"])
            .and_then(|e| e["repr"].as_str())
            .expect("the enum's repr"),
        other => panic!("not a primitive element: {other}"),
    }
}

/// How many leaf values a reader returns for `name`: every non-padding field, an array's
/// elements one by one, a nested struct's leaves, a char[N] field as one string.
fn leaf_count(layout: &Value, name: &str) -> usize {
    let s = struct_named(layout, name);
    s["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .filter(|f| f["padding"] == false)
        .map(|f| {
            let one = match f["elem"]["kind"].as_str() {
                Some("char") => return 1,
                Some("struct") => leaf_count(layout, f["elem"]["name"].as_str().expect("name")),
                _ => 1,
            };
            one * f["count"].as_u64().map_or(1, |n| n as usize)
        })
        .sum()
}

/// Compares what node decoded (`got`, a struct `name` read at 0 of `bytes`) with the bytes,
/// field by field; returns the number of leaves compared.
fn check_struct(layout: &Value, name: &str, bytes: &[u8], got: &Value, path: &str) -> usize {
    let s = struct_named(layout, name);
    assert_eq!(
        bytes.len() as u64,
        s["size"].as_u64().expect("size"),
        "{path}: the blob's size"
    );
    let fields: Vec<&Value> = s["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .filter(|f| f["padding"] == false)
        .collect();
    let keys: BTreeSet<&str> = got
        .as_object()
        .unwrap_or_else(|| panic!("{path}: not an object: {got}"))
        .keys()
        .map(String::as_str)
        .collect();
    let want: BTreeSet<&str> = fields
        .iter()
        .map(|f| f["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        keys, want,
        "{path}: the reader's keys are the non-padding fields"
    );
    let mut leaves = 0;
    for f in fields {
        let field = f["name"].as_str().expect("name");
        let offset = f["offset"].as_u64().expect("offset") as usize;
        let size = f["size"].as_u64().expect("size") as usize;
        let bytes = &bytes[offset..offset + size];
        let got = &got[field];
        let path = format!("{path}.{field}");
        if f["elem"]["kind"] == "char" {
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            let want = String::from_utf8_lossy(&bytes[..end]);
            assert_eq!(got.as_str(), Some(&*want), "{path}");
            leaves += 1;
            continue;
        }
        let elem_size = f["elem_size"].as_u64().expect("elem_size") as usize;
        let one = |bytes: &[u8], got: &Value, path: &str| -> usize {
            if f["elem"]["kind"] == "struct" {
                let elem = f["elem"]["name"].as_str().expect("name");
                check_struct(layout, elem, bytes, got, path)
            } else {
                check_primitive(primitive(layout, f), bytes, got, path);
                1
            }
        };
        match f["count"].as_u64() {
            None => leaves += one(bytes, got, &path),
            Some(count) => {
                let items = got
                    .as_array()
                    .unwrap_or_else(|| panic!("{path}: not an array: {got}"));
                assert_eq!(items.len() as u64, count, "{path}: elements");
                for (i, item) in items.iter().enumerate() {
                    let at = i * elem_size;
                    leaves += one(&bytes[at..at + elem_size], item, &format!("{path}[{i}]"));
                }
            }
        }
    }
    leaves
}

/// One number: integers up to 32 bits as JSON numbers, 64-bit integers as BigInt (printed
/// as a decimal string), floats as numbers (non-integers printed as `{"float": String(x)}`,
/// which Rust parses exactly).
fn check_primitive(prim: &str, bytes: &[u8], got: &Value, path: &str) {
    macro_rules! le {
        ($t:ty) => {
            <$t>::from_le_bytes(bytes.try_into().unwrap_or_else(|_| {
                panic!(
                    "{path}: {prim} is {} bytes, not {}",
                    size_of::<$t>(),
                    bytes.len()
                )
            }))
        };
    }
    let int = |want: i128| {
        assert_eq!(
            got.as_i64().map(i128::from),
            Some(want),
            "{path} ({prim}): {got}"
        );
    };
    let big = |want: i128| {
        let text = got
            .as_str()
            .unwrap_or_else(|| panic!("{path} ({prim}): not a BigInt: {got}"));
        assert_eq!(text.parse::<i128>().ok(), Some(want), "{path} ({prim})");
    };
    let float = |want: f64| {
        let value = match got {
            Value::Number(n) => n.as_i64().map(|n| n as f64),
            Value::Object(o) => o
                .get("float")
                .and_then(Value::as_str)
                .and_then(|s| s.parse::<f64>().ok()),
            _ => None,
        };
        assert!(!want.is_nan(), "{path}: the pattern made a NaN");
        assert_eq!(value, Some(want), "{path} ({prim}): {got}");
    };
    match prim {
        "u8" => int(i128::from(le!(u8))),
        "i8" => int(i128::from(le!(i8))),
        "u16" => int(i128::from(le!(u16))),
        "i16" => int(i128::from(le!(i16))),
        "u32" => int(i128::from(le!(u32))),
        "i32" => int(i128::from(le!(i32))),
        "u64" => big(i128::from(le!(u64))),
        "i64" => big(i128::from(le!(i64))),
        "f32" => float(f64::from(le!(f32))),
        "f64" => float(le!(f64)),
        other => panic!("{path}: a primitive this test does not know: {other}"),
    }
}

/// The node program: imports the module, reads each job's blob at `offset` of its file
/// with `READERS[struct]`, and prints JSON.
const DRIVER: &str = r#"
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, jobsPath] = process.argv.slice(2);
const bridge = await import(pathToFileURL(modulePath).href);
const jobs = JSON.parse(readFileSync(jobsPath, "utf8"));
const results = {};
for (const job of jobs) {
  const file = readFileSync(job.file);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  results[job.key] = bridge.READERS[job.struct](view, job.offset);
}
const out = {
  readers: Object.keys(bridge.READERS),
  results,
  constants: { BRIDGE_MAGIC: bridge.BRIDGE_MAGIC, MAX_CLIENTS: bridge.MAX_CLIENTS, CLIENT_NAME_LEN: bridge.CLIENT_NAME_LEN },
  client_state_active: bridge.ClientState.ACTIVE,
  client_state_name_2: bridge.ClientStateNames[2],
  ship_flags_frozen: Object.isFrozen(bridge.ShipFlags),
  bridge_header_layout: { size: bridge.BridgeHeaderLayout.size, clients: bridge.BridgeHeaderLayout.fields.clients.offset },
  short_view: (() => {
    try { bridge.readShip(new DataView(new ArrayBuffer(63))); return "read"; } catch (e) { return e.name; }
  })(),
};
process.stdout.write(JSON.stringify(out, (key, value) => {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && !Number.isSafeInteger(value)) return { float: String(value) };
  return value;
}));
"#;

/// Runs node with `args`. Panics when node cannot be started: the test must not pass
/// without it.
fn node(args: &[&OsStr]) -> Output {
    Command::new("node")
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `node` ({e}): this test needs node on PATH \
             (Debian: apt-get install nodejs; .ci/run installs it)"
            )
        })
}

/// Runs node on the driver over `jobs` (key, struct, blob); returns its JSON.
fn run_node(jobs: &[(String, &str, Vec<u8>)]) -> Value {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("js_template");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let mut list = Vec::new();
    for (i, (key, name, blob)) in jobs.iter().enumerate() {
        let file = dir.join(format!("{i}-{name}.bin"));
        let mut bytes = vec![0xa5u8; BLOB_OFFSET];
        bytes.extend_from_slice(blob);
        bytes.extend_from_slice(&[0x5a; 8]);
        std::fs::write(&file, bytes).expect("write a blob");
        list.push(json!({ "key": key, "struct": name, "file": file, "offset": BLOB_OFFSET }));
    }
    let jobs_path = dir.join("jobs.json");
    std::fs::write(&jobs_path, Value::from(list).to_string()).expect("write jobs.json");
    let driver = dir.join("driver.mjs");
    std::fs::write(&driver, DRIVER).expect("write driver.mjs");
    let module = Path::new(ROOT).join("generated").join("bridge.mjs");
    let out = node(&[
        driver.as_os_str(),
        module.as_os_str(),
        jobs_path.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "node failed\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "node printed no JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// A bridge header as a host fills it, with values from the reference text.
fn filled_header() -> BridgeHeader {
    let mut h = BridgeHeader::new_zeroed();
    h.magic = BRIDGE_MAGIC;
    h.abi_major = 0;
    h.abi_minor = 9;
    h.header_size = size_of::<BridgeHeader>() as u32;
    h.region_count = 5;
    h.set_host_version("0.9.0-rc.1");
    h.regions[1] = RegionEntry {
        offset: 4096,
        size: 8 * 32768,
    };
    h.clock_mono_ns = 0x0123_4567_89ab_cdef;
    h.clock_unix_ns = -1_700_000_000_123_456_789;
    h.pad_owner = [3, 255, 254, 255];
    h.clients[3].state = ClientState::ACTIVE;
    h.clients[3].generation = 7;
    h.clients[3].heartbeat_ns = u64::MAX;
    h.clients[3].set_name("bot-β ünï");
    h
}

/// A ship with floats, a negative score and two flags.
fn filled_ship() -> Ship {
    let mut s = Ship::new_zeroed();
    s.pos = Vec2 { x: 1.5, y: -2.25 };
    s.reload_progress = 0.1;
    s.score = -7;
    s.flags = ShipFlags::SHIELD | ShipFlags::MOVING;
    s.player_id = 2;
    s
}

#[test]
fn node_reads_every_struct_the_rust_types_wrote() {
    let layout = layout();
    let schema_structs: Vec<&str> = layout["structs"]
        .as_array()
        .expect("structs")
        .iter()
        .map(|s| s["name"].as_str().expect("name"))
        .collect();
    let blobs = rust_blobs();
    let listed: Vec<&str> = blobs.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        listed, schema_structs,
        "struct_blobs! must list every struct of schema.toml, in its order"
    );
    for (name, blob) in &blobs {
        assert_eq!(
            blob,
            &pattern(blob.len()),
            "{name}: the Rust type wrote the pattern"
        );
    }

    let header = filled_header();
    let ship = filled_ship();
    let mut jobs: Vec<(String, &str, Vec<u8>)> = blobs
        .iter()
        .map(|(name, blob)| (format!("pattern:{name}"), *name, blob.clone()))
        .collect();
    jobs.push(("header".into(), "bridge_header", header.as_bytes().to_vec()));
    jobs.push(("ship".into(), "ship", ship.as_bytes().to_vec()));
    let out = run_node(&jobs);

    let readers: Vec<&str> = out["readers"]
        .as_array()
        .expect("readers")
        .iter()
        .map(|r| r.as_str().expect("a name"))
        .collect();
    assert_eq!(readers, schema_structs, "READERS has every struct");

    // Every leaf of every struct, and of the two filled ones, against the bytes.
    let mut checked = 0;
    let mut expected = 0;
    for (key, name, blob) in &jobs {
        let got = &out["results"][key.as_str()];
        checked += check_struct(&layout, name, blob, got, key);
        expected += leaf_count(&layout, name);
    }
    assert!(checked > 0);
    assert_eq!(checked, expected, "leaves compared");
    println!(
        "node decoded {} structs ({} of the schema's, 2 filled by hand): {checked} leaves checked",
        jobs.len(),
        schema_structs.len()
    );

    // The filled structs, against the reference's values.
    let h = &out["results"]["header"];
    assert_eq!(h["magic"], json!(0x42464249), "bridge_magic, 'IBFB'");
    assert_eq!(h["abi_major"], json!(0));
    assert_eq!(h["abi_minor"], json!(9));
    assert_eq!(
        h["header_size"],
        json!(1304),
        "bridge_header (1304 bytes, align 8)"
    );
    assert_eq!(h["region_count"], json!(5));
    assert_eq!(h["host_version"], json!("0.9.0-rc.1"));
    assert_eq!(h["regions"][1], json!({ "offset": 4096, "size": 262144 }));
    assert_eq!(h["regions"][0], json!({ "offset": 0, "size": 0 }));
    assert_eq!(
        h["clock_mono_ns"],
        json!("81985529216486895"),
        "a u64 past 2^53, exact"
    );
    assert_eq!(
        h["clock_unix_ns"],
        json!("-1700000000123456789"),
        "a negative i64"
    );
    assert_eq!(h["pad_owner"], json!([3, 255, 254, 255]));
    let c = &h["clients"][3];
    assert_eq!(c["state"], json!(2), "client_state active 2");
    assert_eq!(c["generation"], json!(7));
    assert_eq!(c["heartbeat_ns"], json!("18446744073709551615"));
    assert_eq!(c["name"], json!("bot-β ünï"), "UTF-8 text up to the NUL");
    assert_eq!(h["clients"][0]["name"], json!(""));
    let mut name = [0u8; 32];
    text::set(&mut name, "bot-β ünï");
    assert_eq!(&header.clients[3].name, &name);
    let s = &out["results"]["ship"];
    assert_eq!(
        s["pos"],
        json!({ "x": { "float": "1.5" }, "y": { "float": "-2.25" } })
    );
    assert_eq!(
        s["reload_progress"],
        json!({ "float": "0.10000000149011612" }),
        "0.1f32"
    );
    assert_eq!(s["score"], json!(-7));
    assert_eq!(s["flags"], json!(0x9), "ship_flags shield 0x1 | moving 0x8");
    assert_eq!(s["player_id"], json!(2));

    // Constants, enums and layouts, against the reference.
    assert_eq!(
        out["constants"],
        json!({ "BRIDGE_MAGIC": 0x42464249, "MAX_CLIENTS": 8, "CLIENT_NAME_LEN": 32 })
    );
    assert_eq!(out["client_state_active"], json!(2));
    assert_eq!(out["client_state_name_2"], json!("active"));
    assert_eq!(out["ship_flags_frozen"], json!(true));
    assert_eq!(
        out["bridge_header_layout"],
        json!({ "size": 1304, "clients": 0x100 })
    );
    assert_eq!(
        out["short_view"],
        json!("RangeError"),
        "63 bytes are not a ship"
    );
}

#[test]
fn node_is_installed() {
    let out = node(&[OsStr::new("--version")]);
    assert!(out.status.success());
    println!("node {}", String::from_utf8_lossy(&out.stdout).trim());
}

/// docs/templates.md's JavaScript snippet ("A fifth language") runs: over a header the Rust type
/// filled it reads the header, and over one without the magic it throws.
#[test]
fn the_readme_snippet_runs() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("js_template_readme");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let module = Path::new(ROOT).join("generated").join("bridge.mjs");
    let snippet = common::readme::block_after("docs/templates.md", "## A fifth language", "js");
    assert!(snippet.contains("\"./generated/bridge.mjs\""), "{snippet}");
    let module_url = format!("file://{}", module.display());
    let script = format!(
        "import {{ readFileSync }} from \"node:fs\";\n\
         const buffer = new Uint8Array(readFileSync(process.argv[2])).buffer;\n\
         {}\nconsole.log(header.host_version, typeof header.clock_mono_ns);\n",
        snippet.replace("./generated/bridge.mjs", &module_url)
    );
    let script_path = dir.join("readme.mjs");
    std::fs::write(&script_path, script).expect("write readme.mjs");
    let mut header = filled_header();
    for (name, bytes) in [
        ("good", header.as_bytes().to_vec()),
        ("bad", {
            header.magic = 0;
            header.as_bytes().to_vec()
        }),
    ] {
        let blob = dir.join(format!("{name}.bin"));
        std::fs::write(&blob, bytes).expect("write a blob");
        let out = node(&[script_path.as_os_str(), blob.as_os_str()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if name == "good" {
            assert!(out.status.success(), "{stderr}");
            assert_eq!(stdout, "0.9.0-rc.1 bigint\n");
        } else {
            assert!(!out.status.success(), "{stdout}");
            assert!(stderr.contains("not a bridge"), "{stderr}");
        }
    }
}

/// A schema the bridge does not exercise: a u64 constant past i64 (the context's `value`
/// wraps it), negative and 64-bit enums, an enum array, an f64 array, a doc holding `*/`.
const EDGE_SCHEMA: &str = r#"
[abi]
name = "edge"
version = "1.0"
c_prefix = "edge"
byte_order = "little"

[[const]]
name = "big"
value = "0xFFFFFFFFFFFFFFFE"
type = "u64"
doc = "A u64 past i64; a doc with */ inside"

[[const]]
name = "neg"
value = -5
type = "i64"

[[enum]]
name = "signed"
repr = "i64"
values = [{ name = "minus", value = -1 }, { name = "top", value = 0x7FFFFFFFFFFFFFFF }]

[[enum]]
name = "small"
repr = "i8"
values = [{ name = "a", value = -2 }, { name = "b", value = 3 }]

[[struct]]
name = "rec"
fields = [
  { name = "s", type = "signed" },
  { name = "smalls", type = "small[4]" },
  { name = "_pad", type = "u8[4]" },
  { name = "f", type = "f64[2]" },
]
"#;

#[test]
fn the_template_renders_edge_cases_that_node_reads_exactly() {
    let schema = abi_codegen::load_schema(EDGE_SCHEMA)
        .unwrap_or_else(|e| panic!("{}", e.render("edge.toml", EDGE_SCHEMA)));
    let template = std::fs::read_to_string(Path::new(ROOT).join("templates/bridge.mjs.j2"))
        .expect("templates/bridge.mjs.j2");
    let module = abi_codegen::testing::language_backend::user_template::render_user_template(
        &schema,
        "edge.toml",
        "templates/bridge.mjs.j2",
        &template,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("js_template_edge");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::write(dir.join("edge.mjs"), module).expect("write edge.mjs");
    // 8 bytes of `s` (-1), four i8 (-2, 3, 0, 0x7f), padding, two f64 (0.5, -1e300).
    let script = r#"
import * as edge from "./edge.mjs";
const view = new DataView(new ArrayBuffer(32));
view.setBigInt64(0, -1n, true);
[-2, 3, 0, 127].forEach((v, i) => view.setInt8(8 + i, v));
view.setFloat64(16, 0.5, true);
view.setFloat64(24, -1e300, true);
const out = { BIG: edge.BIG, NEG: edge.NEG, Signed: edge.Signed, SmallNames: edge.SmallNames,
  rec: edge.readRec(view), size: edge.RecLayout.size, f: edge.RecLayout.fields.f.offset };
process.stdout.write(JSON.stringify(out, (k, v) => typeof v === "bigint" ? `${v}n` : v));
"#;
    let script_path = dir.join("edge_test.mjs");
    std::fs::write(&script_path, script).expect("write the script");
    let out = node(&[script_path.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        got,
        json!({
            "BIG": "18446744073709551614n",
            "NEG": "-5n",
            "Signed": { "MINUS": "-1n", "TOP": "9223372036854775807n" },
            "SmallNames": { "3": "b", "-2": "a" },
            "rec": { "s": "-1n", "smalls": [-2, 3, 0, 127], "f": [0.5, -1e300] },
            "size": 32,
            "f": 16,
        })
    );
}
