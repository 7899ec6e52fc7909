//! The C header target: the bridge header and small fixtures compile cleanly with gcc as C11
//! and with g++ as C++17, a C program reads a blob laid out by the reference text through
//! the header, the fixture headers are snapshots, and the header's static asserts bite.
//! These tests need gcc and g++ on PATH and fail, never skip, without them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use abi_codegen::Schema;
use abi_codegen::testing::language_backend::c::{c_field_name, render_c_header};
use abi_codegen::testing::language_backend::{generate_all, generated_line};

use crate::common;

use common::tools::STRICT_WARNINGS;

#[derive(Clone, Copy, Debug)]
enum Lang {
    C11,
    Cxx17,
}

impl Lang {
    fn compiler(self) -> &'static str {
        match self {
            Lang::C11 => "gcc",
            Lang::Cxx17 => "g++",
        }
    }

    fn args(self) -> [&'static str; 3] {
        match self {
            Lang::C11 => ["-std=c11", "-x", "c"],
            Lang::Cxx17 => ["-std=c++17", "-x", "c++"],
        }
    }
}

/// A fresh folder for one test's files.
fn work_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_header")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test folder");
    dir
}

/// Runs the compiler of `lang` on `source` (saved in `dir` as `file`) with the strict
/// warnings and `extra` arguments. Panics when the compiler is missing.
fn run_compiler(
    lang: Lang,
    dir: &Path,
    file: &str,
    source: &str,
    extra: &[&str],
) -> std::process::Output {
    let path = dir.join(file);
    std::fs::write(&path, source).expect("write the test source");
    let compiler = lang.compiler();
    Command::new(compiler)
        .args(lang.args())
        .args(STRICT_WARNINGS)
        .arg("-I")
        .arg(dir)
        .arg(&path)
        .args(extra)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{compiler}` ({e}): the C header tests need gcc and g++ on PATH \
                 (Debian: apt-get install gcc g++)"
            )
        })
}

/// Compiles `source` to an object file; panics with the compiler's messages when it fails.
fn assert_compiles(lang: Lang, dir: &Path, file: &str, source: &str, extra: &[&str]) {
    let object = dir.join(format!("{file}.{lang:?}.o"));
    let out = run_compiler(
        lang,
        dir,
        file,
        source,
        &[&["-c", "-o", object.to_str().unwrap()], extra].concat(),
    );
    assert!(
        out.status.success(),
        "{} rejected {file} as {lang:?}:\n{}",
        lang.compiler(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles and links `source` into a program and runs it with `args`; returns its output.
fn compile_and_run(lang: Lang, dir: &Path, file: &str, source: &str, args: &[&Path]) -> String {
    let exe = dir.join(format!("{file}.{lang:?}.exe"));
    let out = run_compiler(lang, dir, file, source, &["-o", exe.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{} rejected {file} as {lang:?}:\n{}",
        lang.compiler(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .args(args)
        .output()
        .expect("run the compiled program");
    assert!(
        run.status.success(),
        "{file} ({lang:?}) failed: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).expect("the program prints UTF-8")
}

fn load(src: &str) -> Schema {
    abi_codegen::load_schema(src).unwrap_or_else(|e| panic!("{}", e.render("schema.toml", src)))
}

fn bridge_header() -> String {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml"))
        .expect("read schema.toml");
    let outputs = generate_all(&load(&src), "schema.toml").expect("render the outputs");
    outputs
        .into_iter()
        .find(|o| o.file_name == "bridge.h")
        .expect("generate_all makes bridge.h")
        .contents
}

fn fixture_header(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/c/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    render_c_header(&load(&src), &format!("{name}.toml")).expect("render the header")
}

/// Defines CHECK(condition) as the static assert and ALIGNOF(type) as the alignof of
/// either language.
const CHECK_MACRO: &str = "\
#ifdef __cplusplus
#define CHECK(c) static_assert(c, #c)
#define ALIGNOF(t) alignof(t)
#else
#define CHECK(c) _Static_assert(c, #c)
#define ALIGNOF(t) _Alignof(t)
#endif
";

// ---------------------------------------------------------------------------------------
// The reference text, read independently of the generator.

#[derive(Debug, Default)]
struct RefStruct {
    /// Size and alignment from the heading.
    size_align: Option<(u64, u64)>,
    /// Name, offset and type, in order.
    fields: Vec<(String, u64, String)>,
}

#[derive(Debug, Default)]
struct Reference {
    consts: Vec<(String, String)>,
    /// Enum or flag set name and its values as written.
    enums: Vec<(String, Vec<(String, String)>)>,
    structs: HashMap<String, RefStruct>,
    struct_order: Vec<String>,
}

/// The reference text, read by the shared parser of `tests/common/reference.rs` (which
/// restores `rec_footer`'s lost heading), in the shape the checks below use.
fn reference() -> Reference {
    let parsed = common::reference::load_reference();
    let mut r = Reference {
        consts: parsed
            .constants
            .iter()
            .map(|c| (c.name.clone(), c.value.clone()))
            .collect(),
        enums: parsed
            .enums
            .iter()
            .map(|e| {
                let values = e
                    .values
                    .iter()
                    .map(|v| (v.name.clone(), v.value.clone()))
                    .collect();
                (e.name.clone(), values)
            })
            .collect(),
        ..Reference::default()
    };
    for s in &parsed.structs {
        let fields = s
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.offset, f.ty.clone()))
            .collect();
        r.structs.insert(
            s.name.clone(),
            RefStruct {
                size_align: Some((s.size, s.align)),
                fields,
            },
        );
        r.struct_order.push(s.name.clone());
    }
    assert_eq!(r.structs.len(), 46, "the reference has 46 structs");
    assert_eq!(
        r.enums.len(),
        44,
        "the reference has 44 enums and flag sets"
    );
    assert_eq!(r.consts.len(), 48, "the reference has 48 constants");
    r
}

impl Reference {
    fn constant(&self, name: &str) -> u64 {
        let (_, v) = self
            .consts
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no constant {name} in the reference"));
        parse_u64(v)
    }

    fn enum_value(&self, enum_name: &str, value: &str) -> u64 {
        let (_, values) = self
            .enums
            .iter()
            .find(|(n, _)| n == enum_name)
            .unwrap_or_else(|| panic!("no enum {enum_name} in the reference"));
        let (_, v) = values
            .iter()
            .find(|(n, _)| n == value)
            .unwrap_or_else(|| panic!("no value {enum_name}.{value} in the reference"));
        parse_u64(v)
    }

    /// The size of one element of a reference type such as `ship[max_ships]` or `u8`.
    fn elem_size(&self, ty: &str) -> u64 {
        let base = ty.split('[').next().unwrap();
        if let Some(s) = self.structs.get(base) {
            return s.size_align.expect("a struct with a heading").0;
        }
        match base {
            "u8" | "i8" | "char" => 1,
            "u16" | "i16" => 2,
            "u32" | "i32" | "f32" => 4,
            "u64" | "i64" | "f64" => 8,
            _ => panic!("element size of {ty}: the test only needs structs and primitives"),
        }
    }

    /// The offset of a path such as `ships[2].pos.x` inside struct `root`, and the type
    /// it ends at, from the reference tables alone.
    fn locate(&self, root: &str, path: &str) -> (u64, String) {
        let mut ty = root.to_string();
        let mut offset = 0;
        for part in path.split('.') {
            let (name, index) = match part.split_once('[') {
                Some((n, i)) => (n, Some(i.trim_end_matches(']').parse::<u64>().unwrap())),
                None => (part, None),
            };
            let s = &self.structs[ty.split('[').next().unwrap()];
            let (_, field_offset, field_ty) = s
                .fields
                .iter()
                .find(|(n, _, _)| n == name)
                .unwrap_or_else(|| panic!("no field {name} in {ty}"));
            offset += field_offset;
            if let Some(i) = index {
                offset += i * self.elem_size(field_ty);
            }
            ty = field_ty.clone();
        }
        (offset, ty)
    }
}

fn parse_u64(text: &str) -> u64 {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    }
    .unwrap_or_else(|_| panic!("`{text}` is not a number"))
}

// ---------------------------------------------------------------------------------------
// The bridge header.

#[test]
fn bridge_header_first_line_and_file_name() {
    let header = bridge_header();
    assert_eq!(
        header.lines().next(),
        Some(format!("/* {} */", generated_line("schema.toml")).as_str())
    );
    assert!(header.contains("#ifndef IBF_BRIDGE_H_\n#define IBF_BRIDGE_H_\n"));
    assert!(header.contains("typedef struct ibf_client_entry {"));
    assert!(header.contains("} ibf_client_entry;"));
    assert!(header.contains("    char name[IBF_CLIENT_NAME_LEN];\n"));
    assert!(header.contains("typedef uint8_t ibf_phase;\n"));
    assert!(header.contains("#define IBF_PHASE_PLAYING IBF_VALUE_(ibf_phase, 6U)\n"));
    assert!(
        header
            .contains("#define IBF_SNAPSHOT_FLAGS_IN_MATCH IBF_VALUE_(ibf_snapshot_flags, 0x2U)\n")
    );
    assert!(header.contains("#define IBF_CLIENT_BLOCK_SIZE 0x10000U\n"));
    assert!(
        header.contains("#define IBF_ABI_VERSION_MAJOR 0U\n#define IBF_ABI_VERSION_MINOR 9U\n")
    );
    // The version as text too, as every target defines it (the schema says 0.9).
    assert!(header.contains("\n#define IBF_ABI_VERSION \"0.9\"\n"));
}

/// The bridge header as a C11 and a C++17 translation unit: included twice (the guard),
/// with a `switch` on enum values, enum values and constants in constant expressions and
/// `#if`, comparisons of fields with the macros that describe them, and a static assert of
/// every constant, enum value, struct size and alignment and field offset of the reference
/// text, so a real compiler checks the header against the reference.
#[test]
fn bridge_header_compiles_as_c11_and_cxx17_and_matches_the_reference() {
    let r = reference();
    let dir = work_dir("bridge_compiles");
    std::fs::write(dir.join("bridge.h"), bridge_header()).unwrap();
    let mut checks = String::new();
    for (name, value) in &r.consts {
        checks.push_str(&format!("CHECK(IBF_{} == {value});\n", name.to_uppercase()));
    }
    for (name, values) in &r.enums {
        for (value_name, value) in values {
            checks.push_str(&format!(
                "CHECK(IBF_{}_{} == {value});\n",
                name.to_uppercase(),
                value_name.to_uppercase()
            ));
        }
    }
    for name in &r.struct_order {
        let s = &r.structs[name];
        let c = format!("ibf_{name}");
        if let Some((size, align)) = s.size_align {
            checks.push_str(&format!("CHECK(sizeof({c}) == {size});\n"));
            checks.push_str(&format!("CHECK(ALIGNOF({c}) == {align});\n"));
        }
        for (field, offset, _) in &s.fields {
            let field = c_field_name(field, "ibf");
            checks.push_str(&format!("CHECK(offsetof({c}, {field}) == {offset});\n"));
        }
    }
    let source = format!(
        r#"#include "bridge.h"
#include "bridge.h"
{CHECK_MACRO}{checks}
#if IBF_MAX_CLIENTS != 8 || IBF_ABI_VERSION_MAJOR != 0 || IBF_ABI_VERSION_MINOR != 9
#error "constants in #if"
#endif
CHECK(sizeof(ibf_phase) == 1 && sizeof(ibf_event_kind) == 2 && sizeof(ibf_client_caps) == 4);
CHECK((IBF_SNAPSHOT_FLAGS_VALID | IBF_SNAPSHOT_FLAGS_IN_MATCH) == 3);
enum {{ DECIDED = IBF_ROUND_STATE_DECIDED, IN_MATCH = IBF_SNAPSHOT_FLAGS_IN_MATCH }};
static char names[IBF_MAX_CLIENTS][IBF_CLIENT_NAME_LEN];
static int table[IBF_EVENT_KIND_SCORE_CHANGED + 1];

static int phase_score(ibf_phase phase) {{
    switch (phase) {{
    case IBF_PHASE_PLAYING:
        return 6;
    case IBF_PHASE_DEAD:
        return 7;
    default:
        return 0;
    }}
}}

static int flag_score(ibf_snapshot_flags flags) {{
    switch (flags) {{
    case IBF_SNAPSHOT_FLAGS_IN_MATCH:
        return 2;
    case IBF_SNAPSHOT_FLAGS_IN_MATCH | IBF_SNAPSHOT_FLAGS_VALID:
        return 3;
    default:
        return 0;
    }}
}}

static int use_fields(const ibf_snapshot *s, const ibf_client_entry *e) {{
    unsigned markers = 0;
    ibf_snapshot_flags flags = s->header.flags;
    ibf_stat_flags small = 0;
    size_t i;
    for (i = 0; i < IBF_MAX_SPAWN_MARKERS; i++) {{
        if (i < s->spawn_marker_count && s->spawn_markers[i].kind == IBF_ENEMY_KIND_SMASH) {{
            markers++;
        }}
    }}
    flags |= IBF_SNAPSHOT_FLAGS_LOCKSTEP;
    flags &= ~IBF_SNAPSHOT_FLAGS_STALE;
    small |= IBF_STAT_FLAGS_PLOT;
    return (s->game.phase == IBF_PHASE_PLAYING) + (e->pad == IBF_NO_PAD)
        + (s->header.magic == IBF_SNAPSHOT_MAGIC) + (markers < IBF_MAX_SPAWN_MARKERS)
        + ((flags & IBF_SNAPSHOT_FLAGS_IN_MATCH) != 0) + (s->match.round_state == DECIDED)
        + (s->events[0].kind == IBF_EVENT_KIND_SHOT_FIRED) + (small != 0)
        + (s->ship_count <= IBF_MAX_SHIPS);
}}

int main(void) {{
    static ibf_snapshot snapshot;
    static ibf_client_entry entry;
    names[0][0] = 'a';
    table[0] = IN_MATCH;
    return phase_score(snapshot.game.phase) + flag_score(snapshot.header.flags)
        + use_fields(&snapshot, &entry) + names[0][1] + table[1] - 4;
}}
"#
    );
    assert_compiles(Lang::C11, &dir, "uses_bridge.c", &source, &[]);
    assert_compiles(Lang::Cxx17, &dir, "uses_bridge.c", &source, &[]);
}

/// Every macro of the header is prefixed and uppercase and every field lowercase, so no
/// field name can be a macro of the header. The counts come from the reference: a macro
/// per constant and enum value, the two version macros, the include guard and the four
/// helpers (static assert, alignof, alignas, an enum value's conversion), each defined once
/// for C and once for C++; a member per field.
#[test]
fn bridge_fields_and_macros_cannot_meet() {
    let r = reference();
    let whole = bridge_header();
    // The live access helpers after the structs (tests/c_live.rs) have macros and value
    // types of their own: the counts are of what comes before them.
    let (header, live) = whole
        .split_once("\n * Live access helpers\n")
        .expect("the bridge has live access helpers");
    for m in live.lines().filter_map(|l| l.strip_prefix("#define ")) {
        assert!(m.starts_with("IBF_"), "{m}");
        assert!(
            !m.split(['(', ' '])
                .next()
                .unwrap()
                .chars()
                .any(|c| c.is_ascii_lowercase()),
            "{m}"
        );
    }
    // A macro the header undefines again (NOMINMAX, around its <windows.h> for the host
    // directory's process probe) is not the header's.
    let undone: Vec<&str> = (header.lines())
        .filter_map(|l| l.strip_prefix("#undef "))
        .collect();
    let macros: Vec<&str> = header
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .map(|l| l.split(['(', ' ']).next().unwrap())
        .filter(|m| !undone.contains(m))
        .collect();
    let values: usize = r.enums.iter().map(|(_, v)| v.len()).sum();
    // The version macros: major, minor and the text.
    assert_eq!(macros.len(), r.consts.len() + values + 3 + 1 + 4 * 2);
    for m in &macros {
        assert!(m.starts_with("IBF_"), "{m}");
        assert!(!m.chars().any(|c| c.is_ascii_lowercase()), "{m}");
    }
    let mut fields = 0;
    let mut in_struct = false;
    for line in header.lines() {
        if line.starts_with("typedef struct ") {
            in_struct = true;
        } else if line.starts_with('}') {
            in_struct = false;
        } else if in_struct && !line.trim_start().starts_with(['/', '*']) {
            let decl = line.trim().trim_end_matches(';');
            let name = decl.rsplit(' ').next().unwrap().split('[').next().unwrap();
            assert!(!name.chars().any(|c| c.is_ascii_uppercase()), "{name}");
            assert!(!macros.contains(&name), "{name}");
            fields += 1;
        }
    }
    let reference_fields: usize = r.structs.values().map(|s| s.fields.len()).sum();
    assert_eq!(fields, reference_fields);
}

/// The test writes a snapshot and a bridge header byte by byte at offsets it takes from
/// the reference text, and a C program, compiled with gcc (and once with g++) against the
/// generated header, reads them back into the structs and prints the fields.
#[test]
fn c_program_reads_blobs_laid_out_by_the_reference() {
    let r = reference();
    let dir = work_dir("blob");
    std::fs::write(dir.join("bridge.h"), bridge_header()).unwrap();

    let mut snapshot = vec![0u8; r.elem_size("snapshot") as usize];
    let mut bridge = vec![0u8; r.elem_size("bridge_header") as usize];
    let put = |blob: &mut Vec<u8>, root: &str, path: &str, ty: &str, bytes: &[u8]| {
        let (offset, found) = r.locate(root, path);
        assert!(
            found.starts_with(ty),
            "{root}.{path} is {found} in the reference"
        );
        blob[offset as usize..offset as usize + bytes.len()].copy_from_slice(bytes);
    };
    let magic = r.constant("snapshot_magic") as u32;
    let playing = r.enum_value("phase", "playing") as u8;
    let fast = r.enum_value("projectile_kind", "fast") as u8;
    let decided = r.enum_value("round_state", "decided") as u8;
    let shot_fired = r.enum_value("event_kind", "shot_fired") as u16;
    put(
        &mut snapshot,
        "snapshot",
        "header.magic",
        "u32",
        &magic.to_le_bytes(),
    );
    put(&mut snapshot, "snapshot", "game.phase", "phase", &[playing]);
    put(
        &mut snapshot,
        "snapshot",
        "event_total",
        "u64",
        &0x0123_4567_89AB_CDEFu64.to_le_bytes(),
    );
    put(
        &mut snapshot,
        "snapshot",
        "ships[2].pos.x",
        "f32",
        &(-12.5f32).to_bits().to_le_bytes(),
    );
    put(
        &mut snapshot,
        "snapshot",
        "projectiles[5].kind",
        "projectile_kind",
        &[fast],
    );
    put(
        &mut snapshot,
        "snapshot",
        "events[3].a",
        "i32",
        &(-123_456i32).to_le_bytes(),
    );
    put(
        &mut snapshot,
        "snapshot",
        "events[3].kind",
        "event_kind",
        &shot_fired.to_le_bytes(),
    );
    put(
        &mut snapshot,
        "snapshot",
        "match.round_state",
        "round_state",
        &[decided],
    );
    put(
        &mut snapshot,
        "snapshot",
        "match.wrap_shift_x",
        "i8",
        &(-3i8).to_le_bytes(),
    );
    put(
        &mut snapshot,
        "snapshot",
        "spawn_markers[3].time_left",
        "f32",
        &1.25f32.to_bits().to_le_bytes(),
    );
    put(&mut snapshot, "snapshot", "spawn_marker_count", "u8", &[4]);
    let bridge_magic = r.constant("bridge_magic") as u32;
    put(
        &mut bridge,
        "bridge_header",
        "magic",
        "u32",
        &bridge_magic.to_le_bytes(),
    );
    put(
        &mut bridge,
        "bridge_header",
        "host_version",
        "char",
        b"1.2.3-test\0",
    );
    put(
        &mut bridge,
        "bridge_header",
        "clients[3].name",
        "char",
        b"navigator-7\0",
    );
    put(
        &mut bridge,
        "bridge_header",
        "clients[3].heartbeat_ns",
        "u64",
        &u64::MAX.to_le_bytes(),
    );
    put(
        &mut bridge,
        "bridge_header",
        "clock_unix_ns",
        "i64",
        &(-5_000_000_000i64).to_le_bytes(),
    );
    put(
        &mut bridge,
        "bridge_header",
        "regions[2].size",
        "u32",
        &0xDEAD_BEEFu32.to_le_bytes(),
    );
    put(
        &mut bridge,
        "bridge_header",
        "lockstep_timeout_ms",
        "u32",
        &250u32.to_le_bytes(),
    );
    let snapshot_path = dir.join("snapshot.bin");
    let bridge_path = dir.join("bridge.bin");
    std::fs::write(&snapshot_path, &snapshot).unwrap();
    std::fs::write(&bridge_path, &bridge).unwrap();

    let program = r#"#include <inttypes.h>
#include <stdio.h>
#include "bridge.h"

static ibf_snapshot snap;
static ibf_bridge_header bridge;

/* Reads exactly `size` bytes: the file must be neither shorter nor longer. */
static int read_exact(const char *path, void *dst, size_t size) {
    FILE *f = fopen(path, "rb");
    size_t got;
    int extra;
    if (!f) {
        return 0;
    }
    got = fread(dst, 1, size, f);
    extra = fgetc(f);
    fclose(f);
    return got == size && extra == EOF;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        return 2;
    }
    if (!read_exact(argv[1], &snap, sizeof snap) || !read_exact(argv[2], &bridge, sizeof bridge)) {
        fprintf(stderr, "a blob is not sizeof its struct\n");
        return 3;
    }
    printf("sizeof(ibf_snapshot)=%zu\n", sizeof snap);
    printf("header.magic=0x%08" PRIX32 " is_snapshot_magic=%d\n", snap.header.magic,
           snap.header.magic == IBF_SNAPSHOT_MAGIC);
    printf("game.phase=%u is_playing=%d\n", (unsigned)snap.game.phase,
           snap.game.phase == IBF_PHASE_PLAYING);
    printf("event_total=0x%016" PRIX64 "\n", snap.event_total);
    printf("ships[2].pos.x=%.9g\n", (double)snap.ships[2].pos.x);
    printf("projectiles[5].kind=%u is_fast=%d\n", (unsigned)snap.projectiles[5].kind,
           snap.projectiles[5].kind == IBF_PROJECTILE_KIND_FAST);
    printf("events[3].a=%" PRId32 "\n", snap.events[3].a);
    printf("events[3].kind=%u is_shot_fired=%d\n", (unsigned)snap.events[3].kind,
           snap.events[3].kind == IBF_EVENT_KIND_SHOT_FIRED);
    printf("match.round_state=%u is_decided=%d\n", (unsigned)snap.match.round_state,
           snap.match.round_state == IBF_ROUND_STATE_DECIDED);
    printf("match.wrap_shift_x=%d\n", (int)snap.match.wrap_shift_x);
    printf("spawn_markers[3].time_left=%.9g\n", (double)snap.spawn_markers[3].time_left);
    printf("spawn_marker_count=%u\n", (unsigned)snap.spawn_marker_count);
    printf("ships[1].pos.x=%.9g\n", (double)snap.ships[1].pos.x);
    printf("sizeof(ibf_bridge_header)=%zu\n", sizeof bridge);
    printf("bridge.magic=0x%08" PRIX32 "\n", bridge.magic);
    printf("bridge.host_version=%.*s\n", (int)IBF_VERSION_LEN, bridge.host_version);
    printf("bridge.clients[3].name=%.*s\n", (int)IBF_CLIENT_NAME_LEN, bridge.clients[3].name);
    printf("bridge.clients[3].heartbeat_ns=%" PRIu64 "\n", bridge.clients[3].heartbeat_ns);
    printf("bridge.clients[2].name=%.*s|\n", (int)IBF_CLIENT_NAME_LEN, bridge.clients[2].name);
    printf("bridge.clock_unix_ns=%" PRId64 "\n", bridge.clock_unix_ns);
    printf("bridge.regions[2].size=0x%08" PRIX32 "\n", bridge.regions[2].size);
    printf("bridge.lockstep_timeout_ms=%" PRIu32 "\n", bridge.lockstep_timeout_ms);
    return 0;
}
"#;
    let expected = format!(
        "sizeof(ibf_snapshot)={}
header.magic=0x{magic:08X} is_snapshot_magic=1
game.phase={playing} is_playing=1
event_total=0x0123456789ABCDEF
ships[2].pos.x=-12.5
projectiles[5].kind={fast} is_fast=1
events[3].a=-123456
events[3].kind={shot_fired} is_shot_fired=1
match.round_state={decided} is_decided=1
match.wrap_shift_x=-3
spawn_markers[3].time_left=1.25
spawn_marker_count=4
ships[1].pos.x=0
sizeof(ibf_bridge_header)={}
bridge.magic=0x{bridge_magic:08X}
bridge.host_version=1.2.3-test
bridge.clients[3].name=navigator-7
bridge.clients[3].heartbeat_ns=18446744073709551615
bridge.clients[2].name=|
bridge.clock_unix_ns=-5000000000
bridge.regions[2].size=0xDEADBEEF
bridge.lockstep_timeout_ms=250
",
        snapshot.len(),
        bridge.len()
    );
    for lang in [Lang::C11, Lang::Cxx17] {
        let printed = compile_and_run(
            lang,
            &dir,
            "read_blobs.c",
            program,
            &[&snapshot_path, &bridge_path],
        );
        assert_eq!(printed, expected, "as {lang:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Fixtures: snapshots, and each header compiled in both languages with code that uses it.

/// Snapshots the fixture's header and compiles it, with `code` after the include, as C11
/// and as C++17.
fn check_fixture(name: &str, file: &str, prelude: &str, code: &str) -> String {
    let header = fixture_header(name);
    insta::assert_snapshot!(format!("c_{name}"), header);
    assert_eq!(
        header.lines().next(),
        Some(format!("/* {} */", generated_line(&format!("{name}.toml"))).as_str())
    );
    let dir = work_dir(name);
    std::fs::write(dir.join(file), &header).unwrap();
    let source = format!("{prelude}#include \"{file}\"\n#include \"{file}\"\n{CHECK_MACRO}{code}");
    assert_compiles(Lang::C11, &dir, "uses.c", &source, &[]);
    assert_compiles(Lang::Cxx17, &dir, "uses.c", &source, &[]);
    header
}

#[test]
fn one_struct() {
    // The numbers are the C layout of the fixture's fields, worked out by hand.
    let header = check_fixture(
        "one_struct",
        "demo.h",
        "",
        r#"CHECK(sizeof(demo_sample) == 40 && ALIGNOF(demo_sample) == 8);
CHECK(offsetof(demo_sample, level) == 4 && offsetof(demo_sample, stamp) == 8);
CHECK(offsetof(demo_sample, ratio) == 16 && offsetof(demo_sample, label) == 20);
CHECK(offsetof(demo_sample, history) == 32 && sizeof(((demo_sample *)0)->history) == 8);
CHECK(sizeof(((demo_sample *)0)->label) == DEMO_LABEL_LEN && DEMO_LABEL_LEN == 12);
CHECK(DEMO_ABI_VERSION_MAJOR == 1 && DEMO_ABI_VERSION_MINOR == 2);
CHECK(sizeof(DEMO_ABI_VERSION) == sizeof("1.2"));
int main(void) {
    static demo_sample s;
    s.label[0] = 'x';
    s.history[7] = -1;
    return s.label[1] + s.history[7] + 1;
}
"#,
    );
    assert!(header.contains("    char label[DEMO_LABEL_LEN];\n"));
    assert!(header.contains("\n#define DEMO_ABI_VERSION \"1.2\"\n"));
    assert!(
        header.contains("    int8_t history[0x8];\n"),
        "hex length kept"
    );
}

#[test]
fn one_enum_signed() {
    let header = check_fixture(
        "one_enum",
        "weather.h",
        "",
        r#"CHECK(WX_FREEZING == -5);
CHECK(WX_TEMPERATURE_ARCTIC == -128 && WX_TEMPERATURE_COLD == -40);
CHECK(WX_TEMPERATURE_MILD == 0 && WX_TEMPERATURE_HOT == 127);
CHECK(sizeof(wx_temperature) == 1 && (wx_temperature)-1 < 0);
CHECK(WX_SPAN_MIN == INT64_MIN && WX_SPAN_MINUS_ONE == -1 && WX_SPAN_MAX == INT64_MAX);
CHECK(sizeof(wx_span) == 8 && (wx_span)-1 < 0);
enum { COLD = WX_TEMPERATURE_COLD };
static int score(wx_temperature t) {
    switch (t) {
    case WX_TEMPERATURE_ARCTIC:
        return 1;
    case WX_TEMPERATURE_COLD:
        return 2;
    case WX_TEMPERATURE_HOT:
        return 3;
    default:
        return 0;
    }
}
static int span_score(wx_span s) {
    switch (s) {
    case WX_SPAN_MIN:
        return 1;
    case WX_SPAN_MINUS_ONE:
        return 2;
    case WX_SPAN_MAX:
        return 3;
    default:
        return 0;
    }
}
int main(void) {
    wx_temperature t = WX_TEMPERATURE_COLD;
    int below = t < WX_FREEZING;
    return score(t) + span_score(WX_SPAN_MIN) + below - 4 + (COLD + 40);
}
"#,
    );
    assert!(header.contains("#define WX_TEMPERATURE_ARCTIC WX_VALUE_(wx_temperature, (-128))\n"));
    assert!(
        header.contains("#define WX_SPAN_MIN WX_VALUE_(wx_span, (-9223372036854775807LL - 1))\n")
    );
    assert!(header.contains("#define WX_SPAN_MAX WX_VALUE_(wx_span, 0x7FFFFFFFFFFFFFFFLL)\n"));
    assert!(header.contains("#define WX_FREEZING (-5)\n"));
}

#[test]
fn flags_with_a_u64_bit() {
    let header = check_fixture(
        "flags_u64",
        "caps.h",
        "",
        r#"CHECK(CP_FEATURES_TOP == 0x8000000000000000ULL);
CHECK(CP_FEATURES_WIDE == 0x10000000000ULL && CP_FEATURES_BINARY == 4);
CHECK((CP_FEATURES_BASIC | CP_FEATURES_TOP) == 0x8000000000000001ULL);
CHECK(sizeof(cp_features) == 8 && sizeof(cp_small) == 1 && CP_SMALL_HIGH == 0x80);
CHECK(sizeof(cp_peer) == 16 && offsetof(cp_peer, small) == 8);
static int score(cp_features f) {
    switch (f) {
    case CP_FEATURES_TOP:
        return 1;
    case CP_FEATURES_TOP | CP_FEATURES_WIDE:
        return 2;
    default:
        return 0;
    }
}
int main(void) {
    cp_peer p = {0, 0, {0}};
    p.features |= CP_FEATURES_TOP;
    p.features &= ~CP_FEATURES_BASIC;
    p.small |= CP_SMALL_HIGH;
    p.small &= (cp_small)~CP_SMALL_LOW;
    return score(p.features) - 1 + ((p.features & CP_FEATURES_WIDE) != 0)
        + (p.small != CP_SMALL_HIGH);
}
"#,
    );
    assert!(
        header.contains("#define CP_FEATURES_TOP CP_VALUE_(cp_features, 0x8000000000000000ULL)\n")
    );
    assert!(header.contains("#define CP_FEATURES_BINARY CP_VALUE_(cp_features, 0x4ULL)\n"));
}

/// Keyword and macro field names come out valid, also after the standard headers that
/// define `bool`, `and`, `alignof`, `noreturn`, `errno`, `complex` ... as macros, and in the
/// GNU modes, which define `linux` and `unix`.
#[test]
fn hostile_names() {
    let code = r#"CHECK(sizeof(and_match) == 58 && offsetof(and_match, andx) == 57);
int main(void) {
    and_match m;
    and_kind k = AND_KIND_CLASS;
    m.class_ = 1;
    m.bool_[AND_BOOL - 1] = 2;
    m.and_kind_ = AND_KIND_DEFAULT;
    m.kind = k;
    m.inner.x = 3;
    m.and_inner_ = 4;
    m.linux_ = m.unix_ = m.errno_ = m.complex_ = 5;
    m.type = m.match = m.final = m.override = m.assert = m.main = m.std = 6;
    switch (m.kind) {
    case AND_KIND_BOOL:
    case AND_KIND_INT:
    case AND_KIND_FLOAT:
    case AND_KIND_ENUM:
        return 1;
    case AND_KIND_CLASS:
        return m.class_ - 1;
    default:
        return 2;
    }
}
"#;
    let header = check_fixture("hostile_names", "hostile.h", "", code);
    for field in [
        "class_",
        "template_",
        "register_",
        "default_",
        "new_",
        "delete_",
        "struct_",
        "union_",
        "int_",
        "auto_",
        "this_",
        "operator_",
        "and_",
        "or_",
        "not_",
        "xor_",
        "not_eq_",
        "and_eq_",
        "static_assert_",
        "alignof_",
        "linux_",
        "errno_",
        "size_t_",
        "uint8_t_",
        "and_kind_",
        "and_inner_",
    ] {
        assert!(header.contains(&format!(" {field};\n")), "{field}");
    }
    assert!(header.contains("    uint8_t bool_[AND_BOOL];\n"));
    for kept in [
        "type", "match", "final", "override", "assert", "main", "std", "andx",
    ] {
        assert!(header.contains(&format!("    uint8_t {kept};\n")), "{kept}");
    }

    let dir = work_dir("hostile_names_macros");
    std::fs::write(dir.join("hostile.h"), &header).unwrap();
    let c_prelude = "#include <assert.h>\n#include <complex.h>\n#include <errno.h>\n\
         #include <iso646.h>\n#include <stdalign.h>\n#include <stdbool.h>\n\
         #include <stdnoreturn.h>\n";
    let c_source = format!("{c_prelude}#include \"hostile.h\"\n{CHECK_MACRO}{code}");
    for std in ["-std=c11", "-std=gnu11"] {
        assert_compiles(Lang::C11, &dir, "macros.c", &c_source, &[std]);
    }
    let cxx_source = format!(
        "#include <cassert>\n#include <cerrno>\n#include \"hostile.h\"\n{CHECK_MACRO}{code}"
    );
    assert_compiles(
        Lang::Cxx17,
        &dir,
        "macros.cpp",
        &cxx_source,
        &["-std=gnu++17"],
    );
}

/// Doc text cannot end or nest a comment, splice lines or form trigraphs; control and
/// bidirectional characters are spelled out. The compilers check the first and the last
/// (`-Wcomment`, `-Wtrigraphs` in C11, `-Wbidi-chars`); a splice inside a comment is
/// silent, so the text is checked for it.
#[test]
fn hostile_docs() {
    let header = check_fixture(
        "hostile_docs",
        "docs.h",
        "",
        "CHECK(sizeof(dx_record) == 24 && offsetof(dx_record, next) == 8);\n\
         int main(void) { dx_record r = {0, 0, {0}, {0}}; return (int)r.value; }\n",
    );
    for (i, line) in header.lines().enumerate() {
        assert!(!line.trim_end().ends_with('\\'), "line {}: {line}", i + 1);
        for trigraph in [
            "??=", "??/", "??'", "??(", "??)", "??!", "??<", "??>", "??-",
        ] {
            assert!(!line.contains(trigraph), "line {}: {line}", i + 1);
        }
        assert!(
            !line.chars().any(|c| (c.is_control() && c != '\t')
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')),
            "line {}: {line:?}",
            i + 1
        );
        let inside = line.trim_start();
        if let Some(text) = inside
            .strip_prefix("/**")
            .map(|t| t.strip_suffix("*/").unwrap_or(t))
            .or_else(|| inside.strip_prefix("* "))
        {
            assert!(
                !text.contains("*/") && !text.contains("/*"),
                "line {}: {line}",
                i + 1
            );
        }
    }
    assert!(header.contains(" * A line that ends with a backslash \\.\n"));
    assert!(header.contains(" * Non-ASCII: café, 日本語, 🦀; a star at the end *\n"));
    assert!(header.contains("{{ abi.name }} {% if x %}block{% endif %} {# note #}"));
    assert!(header.contains("NUL <U+0000>, bell <U+0007>"));
    assert!(
        header.contains("    uint8_t next[010];\n"),
        "octal length kept"
    );
    // An unescaped `*/` would end the comment and declare `int injected;`.
    assert!(header.contains("/** offset 0x0000 (0), size 4: * / int injected; / * */"));
}

// ---------------------------------------------------------------------------------------
// The static asserts, and schema errors.

/// Changing one asserted number in the generated header makes both compilers reject it.
#[test]
fn static_asserts_bite() {
    let header = fixture_header("one_struct");
    let dir = work_dir("static_asserts_bite");
    let source = "#include \"demo.h\"\nint main(void) { return 0; }\n";
    std::fs::write(dir.join("demo.h"), &header).unwrap();
    for lang in [Lang::C11, Lang::Cxx17] {
        assert_compiles(lang, &dir, "ok.c", source, &[]);
    }
    for (asserted, changed, message) in [
        (
            "offsetof(demo_sample, stamp) == 8,",
            "offsetof(demo_sample, stamp) == 9,",
            "demo_sample.stamp: offset 8",
        ),
        (
            "sizeof(demo_sample) == 40,",
            "sizeof(demo_sample) == 36,",
            "demo_sample: size 40",
        ),
        (
            "DEMO_ALIGNOF_(demo_sample) == 8,",
            "DEMO_ALIGNOF_(demo_sample) == 4,",
            "demo_sample: align 8",
        ),
    ] {
        assert_eq!(header.matches(asserted).count(), 1, "{asserted}");
        std::fs::write(dir.join("demo.h"), header.replace(asserted, changed)).unwrap();
        for lang in [Lang::C11, Lang::Cxx17] {
            let out = run_compiler(lang, &dir, "bad.c", source, &["-c", "-o", "/dev/null"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{lang:?} accepted `{changed}`");
            assert!(
                stderr.contains("static assert") && stderr.contains(message),
                "{lang:?} rejected `{changed}` for another reason:\n{stderr}"
            );
        }
    }
}

#[test]
fn c_names_the_header_cannot_take_are_schema_errors() {
    let cases = [
        (
            "[[struct]]\nname = \"eq\"\nfields = [{ name = \"x\", type = \"u8\" }]\n",
            "and",
            "struct `eq` becomes `and_eq` in the C header, a reserved word or standard name in C or C++",
        ),
        (
            "[[enum]]\nname = \"abi\"\nrepr = \"u8\"\nvalues = [{ name = \"version_major\", value = 0 }]\n",
            "ibf",
            "enum value `abi.version_major` becomes `IBF_ABI_VERSION_MAJOR` in the C header, the name of an ABI version macro",
        ),
    ];
    for (items, prefix, message) in cases {
        let src = format!(
            "[abi]\nname = \"x\"\nversion = \"1.0\"\nc_prefix = \"{prefix}\"\nbyte_order = \"little\"\n\n{items}"
        );
        let errors = abi_codegen::load_schema(&src).expect_err("the schema is rejected");
        let text = errors.render("schema.toml", &src);
        assert!(text.contains(message), "{text}");
        assert!(text.starts_with("schema.toml:"), "{text}");
    }
}
