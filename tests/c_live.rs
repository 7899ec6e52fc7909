//! The C header's live access helpers, compiled with gcc and clang as C11 and with g++ and
//! clang++ as C++17 (every warning an error, optimized) and run on a heap buffer: the bytes
//! they write and read are checked at the offsets of the reference text, never the
//! generator's own numbers. One program calls every public helper the header has: each atomic
//! field's load, store, fetch_add, compare-exchange and exchange, the word and element
//! compare-and-swap of `pad_owner`, a write and read of every seqlock, the snapshot ring (11
//! publications into 8 slots, a shorter and a longer payload) and the events since a count.
//! It runs as 64-bit code (gcc, g++, clang, clang++) and as i386 code (-m32), which must all
//! print and leave the same. These tests need gcc, g++ and clang on PATH, with gcc-multilib
//! and g++-multilib for -m32, and fail, never skip, without them.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use common::c_live_program::{
    PAD, PARAMS, PROGRAM, RING, Ref, SLOT, STATS, STRICT, bridge_header, input_image, le,
    public_helpers, sweep,
};
use common::reference::load_reference;
use common::tools::{run_ok, scratch};

/// Compiles the program with `compiler` (and `bits`: `-m64`, or `-m32` for i386) and runs
/// it on the input image: its output lines and the buffer it leaves.
fn compile_and_run(dir: &Path, compiler: &str, std: &str, bits: &str) -> (String, Vec<u8>) {
    let lang = if compiler.ends_with("++") { "c++" } else { "c" };
    let exe = format!("live_{compiler}{bits}");
    let mut args = vec![std, bits, "-x", lang];
    args.extend(STRICT.split(' '));
    args.extend(["live.c", "-o", &exe]);
    run_ok(compiler, &args, dir);
    let out_image = format!("out_{compiler}{bits}.bin");
    let exe = dir.join(exe);
    let stdout = run_ok(exe.to_str().unwrap(), &["in.bin", &out_image], dir);
    (
        stdout,
        std::fs::read(dir.join(out_image)).expect("the program's image"),
    )
}

#[test]
fn every_helper_runs_in_c11_and_cxx17_at_the_reference_offsets() {
    let r = Ref(load_reference());
    let (header, stored) = bridge_header();
    let helpers = public_helpers(&header);
    let source = PROGRAM.replace("SWEEP", &sweep(&helpers));
    let missing: Vec<&str> = (helpers.iter().map(|(name, _)| name.as_str()))
        .filter(|name| !source.contains(&format!("{name}(")))
        .collect();
    assert!(missing.is_empty(), "the program never calls {missing:?}");
    for name in [
        "ibf_bridge_header_compare_exchange_pad_owner_at",
        "ibf_events_since",
    ] {
        assert!(helpers.iter().any(|(n, _)| n == name), "no {name}");
    }
    let dir = scratch("c_live");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    std::fs::write(dir.join("live.c"), &source).unwrap();
    std::fs::write(dir.join("in.bin"), input_image(&r)).unwrap();
    let (c_out, c_image) = compile_and_run(&dir, "gcc", "-std=c11", "-m64");
    let (cxx_out, cxx_image) = compile_and_run(&dir, "g++", "-std=c++17", "-m64");
    assert_eq!(c_out, cxx_out, "C11 and C++17 agree");
    assert!(c_image == cxx_image, "C11 and C++17 leave the same bytes");
    // Clang takes the same branch of the header: the same output and bytes.
    for (compiler, std) in [("clang", "-std=c11"), ("clang++", "-std=c++17")] {
        let (out, image) = compile_and_run(&dir, compiler, std, "-m64");
        assert_eq!(out, c_out, "{compiler} agrees with gcc");
        assert!(image == c_image, "{compiler} leaves the bytes of gcc");
    }
    // As i386 code (gcc-multilib), where only the header's alignas keeps the 8-byte atomic
    // words 8-aligned inside the structs: the same output and bytes.
    for (compiler, std) in [("gcc", "-std=c11"), ("g++", "-std=c++17")] {
        let (out, image) = compile_and_run(&dir, compiler, std, "-m32");
        assert_eq!(out, c_out, "{compiler} -m32 agrees with -m64");
        assert!(image == c_image, "{compiler} -m32 leaves the bytes of -m64");
    }

    let lines: HashMap<&str, &str> = c_out.lines().filter_map(|l| l.split_once('=')).collect();
    let expect = [
        ("failures", "0"),
        ("host_generation", "7"),
        ("heartbeat5", "aabbccddeeff0011"),
        ("row5", "4242,1,102030405060708,2,8:row-five,4:row-"),
        ("pad_owner", "1,2,3,4"),
        ("run_mode", "1"),
        ("pad_odd", "1"),
        ("pad_odd_retries", "50"),
        (
            "slot1",
            "0 size=11840 publish_seq=77 event_total=41 markers=0 extra=0",
        ),
        (
            "slot3",
            "0 extra=20600 extra_ok=1 small_cap_extra=20600 small_cap_untouched=1",
        ),
        ("stats", "0 count=3 name2=fps"),
        ("values", "0 value1=2.5 changes1=9"),
        ("ring_head", "11"),
        ("events30", "10,30,0"),
        ("events0", "32,8,8 tick=8"),
        ("events100", "0,40"),
    ];
    for (key, value) in expect {
        assert_eq!(lines.get(key).copied(), Some(value), "{key}\n{c_out}");
    }
    assert!(c_out.contains("seqlocks written\n"), "{c_out}");

    // Every store of the sweep changed exactly the bytes of its field in the reference.
    let mut swept = 0;
    for l in c_out.lines().filter_map(|l| l.strip_prefix("sweep ")) {
        let parts: Vec<&str> = l.split(' ').collect();
        let field = r.field(parts[0]);
        assert_eq!(parts[1].parse::<u64>().unwrap(), field.offset, "{l}");
        assert_eq!(
            parts[2].parse::<usize>().unwrap(),
            r.width(&field.ty),
            "{l}"
        );
        swept += 1;
    }
    assert_eq!(swept, stored, "every atomic field a writer stores is swept");

    // What the program wrote, at the reference offsets.
    let b = &c_image;
    let at = |path: &str| r.at(path);
    let row3 = at("bridge_header.clients") + 3 * r.size("client_entry");
    let exiting = r.enum_value("host_state", "exiting");
    assert_eq!(le(b, at("bridge_header.host_state"), 4), exiting);
    let lockstep = r.enum_value("run_mode", "lockstep");
    assert_eq!(le(b, at("bridge_header.run_mode"), 1), lockstep);
    let active = r.enum_value("client_state", "active");
    assert_eq!(le(b, row3 + at("client_entry.state"), 4), active);
    assert_eq!(
        le(b, row3 + at("client_entry.heartbeat_ns"), 8),
        0xAABB_CCDD_EEFF_0011
    );
    let generation: u64 = lines["generation3"]
        .parse()
        .expect("the claim's generation");
    assert!(generation > 0, "each claim bumps the generation");
    assert_eq!(le(b, row3 + at("client_entry.generation"), 4), generation);
    let (no_pad, not_bot) = (r.constant("no_pad") as u8, r.constant("pad_not_bot") as u8);
    let owners = at("bridge_header.pad_owner");
    assert_eq!(b[owners..owners + 4], [no_pad, 3, 5, not_bot]);
    assert_eq!(le(b, at("bridge_header.snapshot_seq"), 8), 11);
    // 11 publications in 8 slots: the newest is in slot (11 - 1) % 8 = 2.
    let (hdr, snap) = (r.size("ring_slot_header"), r.size("snapshot"));
    let slot = |i: usize| RING + i * SLOT;
    for (i, n) in [(2, 11), (1, 10), (3, 4)] {
        assert_eq!(le(b, slot(i) + at("ring_slot_header.publish_seq"), 8), n);
        assert_eq!(le(b, slot(i) + at("ring_slot_header.seq"), 4) % 2, 0);
    }
    assert_eq!(
        le(b, slot(2) + at("ring_slot_header.size"), 4),
        snap as u64 + 3
    );
    let tick = at("snapshot.header") + at("snapshot_header.tick");
    assert_eq!(le(b, slot(2) + hdr + tick, 8), 110);
    assert_eq!(b[slot(2) + hdr + snap..][..3], [11, 11, 11]);
    // The seqlocked areas: counters even, fields and trailer parts in place.
    assert_eq!(le(b, PARAMS + at("params_header.defs_seq"), 4), 2);
    assert_eq!(le(b, PARAMS + at("params_header.def_count"), 4), 2);
    let def1 = PARAMS + r.size("params_header") + r.size("param_def");
    assert_eq!(&b[def1 + at("param_def.name")..][..5], b"gain\0");
    assert_eq!(b[def1 + at("param_def.max")..][..8], 4.5f64.to_le_bytes());
    assert_eq!(le(b, STATS + at("stats_header.count"), 4), 64);
    assert_eq!(le(b, PAD + at("pad_input.seq"), 4), 8);
    assert_eq!(
        le(b, PAD + at("pad_input.lx"), 2),
        u64::from((-1234i16) as u16)
    );
    assert_eq!(
        le(b, PAD + at("pad_input.for_tick"), 8),
        0x0102_0304_0506_0708
    );
}

/// A schema without shared memory gets no live section and no extra includes.
#[test]
fn a_schema_without_shared_memory_has_no_live_section() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/c/one_struct.toml"
    );
    let src = std::fs::read_to_string(path).unwrap();
    let schema =
        abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render(path, &src)));
    let header =
        abi_codegen::testing::language_backend::c::render_c_header(&schema, "one_struct.toml")
            .unwrap();
    assert!(!header.contains("Live access helpers"));
    assert!(!header.contains("stdbool.h"));
    assert!(!header.contains("static inline"));
}
