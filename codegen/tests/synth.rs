//! The synthetic schemas of the scale benchmarks (`benches/synth`) are valid: they load
//! without errors, hold the structs, enums and constants they are meant to, every struct has
//! the size the generator's design gives it (48-byte leaves; records of a 16-byte head, 2 to
//! 4 leaves and a 16-byte tail; the shared-memory shapes), they declare shared memory in the
//! bridge's proportions (seqlocks, rings, layouts nested under one root, atomic fields), the
//! Rust target gains its live layer, and gcc compiles the C header, live and attach helpers
//! included, whose static asserts check the layout against a real compiler. Needs gcc on
//! PATH; fails, never skips, without it.

use std::path::Path;
use std::process::Command;

use abi_codegen::testing::ir::access::{AccessKind, RingKind};
use abi_codegen::testing::ir::attach::Holds;

#[path = "../benches/synth/mod.rs"]
mod synth_schemas;

#[test]
fn synthetic_schemas_load_with_the_designed_sizes() {
    for n in [1, 2, 3, 4, 5, 16, 17, 33, 100] {
        let text = synth_schemas::synth_schema(n);
        let schema = abi_codegen::load_schema(&text)
            .unwrap_or_else(|e| panic!("synth({n}):\n{}", e.render("synth.toml", &text)));
        let abi = schema.abi();
        assert_eq!(abi.structs.len(), n, "synth({n}) structs");
        // kind_{i} per even i, a flag set per leaf, an index enum per layout.
        assert_eq!(
            abi.enums.len(),
            n.div_ceil(2) + n.div_ceil(4) + n / 16,
            "synth({n}) enums"
        );
        let consts: usize = (0..n).map(|i| synth_schemas::role(i).consts()).sum();
        assert_eq!(abi.consts.len(), consts, "synth({n}) consts");
        for (id, s) in abi.structs_with_ids() {
            let i = id.index();
            assert_eq!(s.name, format!("unit_{i}"));
            let l = schema.layout().of(id);
            assert_eq!(
                (l.size, l.align),
                (
                    synth_schemas::struct_size(i),
                    synth_schemas::struct_align(i)
                ),
                "unit_{i}"
            );
        }
        // The hubs (i % 16 == 2) are the extensible records, each with a handshake.
        let extensible = abi.structs.iter().filter(|s| s.extensible).count();
        assert_eq!(extensible, (n + 13) / 16, "synth({n}) extensible records");
        assert_eq!(
            schema.attach().handshakes.len(),
            extensible,
            "synth({n}) handshakes"
        );
    }
}

/// Seqlocks, rings, layouts, atomic and compare-and-swap fields of `schema`.
fn shared_counts(schema: &abi_codegen::Schema) -> (usize, usize, usize, usize, usize) {
    let fields = || schema.access().structs.iter().flat_map(|s| &s.fields);
    let atomic = fields().filter(|f| f.kind.is_atomic()).count();
    let cas = fields()
        .filter(|f| matches!(f.kind, AccessKind::Cas { .. }))
        .count();
    (
        schema.access().seqlocks.len(),
        schema.access().rings.len(),
        schema.attach().layouts.len(),
        atomic,
        cas,
    )
}

#[test]
fn synthetic_schemas_share_memory_in_the_bridges_proportions() {
    // (N, seqlocks, rings, layouts, atomic fields, of them cas). Per 48 structs: 5, 2, 3, 32
    // and 6, where the bridge's 46 declare 5, 2, 3, 30 and 4.
    let expected = [
        (1, 0, 0, 0, 0, 0),
        (2, 0, 0, 0, 0, 0),
        (3, 0, 0, 0, 4, 1),
        (5, 0, 0, 0, 4, 1),
        (16, 2, 1, 1, 10, 2),
        (17, 2, 1, 1, 10, 2),
        (33, 3, 2, 2, 20, 4),
        (40, 4, 2, 2, 27, 5),
        (100, 10, 4, 6, 68, 13),
        (480, 50, 20, 30, 320, 60),
    ];
    for (n, seqlocks, rings, layouts, atomic, cas) in expected {
        let text = synth_schemas::synth_schema(n);
        let schema = abi_codegen::load_schema(&text)
            .unwrap_or_else(|e| panic!("synth({n}):\n{}", e.render("synth.toml", &text)));
        let counts = (seqlocks, rings, layouts, atomic, cas);
        assert_eq!(shared_counts(&schema), counts, "synth({n}) shared memory");
        assert_eq!(
            (
                synth_schemas::seqlocks(n),
                synth_schemas::rings(n),
                synth_schemas::layouts(n),
                synth_schemas::atomic_fields(n),
                synth_schemas::cas_fields(n),
            ),
            counts,
            "synth({n}): the generator's own counts"
        );
        let slots = schema
            .access()
            .rings
            .iter()
            .filter(|r| matches!(r.kind, RingKind::Slots { .. }))
            .count();
        assert_eq!(
            slots,
            n / 48 + usize::from(n % 48 > 5),
            "synth({n}) slot rings"
        );
        // One root, the first layout; every other one held as blocks by exactly one row.
        let attach = schema.attach();
        assert_eq!(
            attach.root.map(|r| r.index()),
            (layouts > 0).then_some(0),
            "synth({n}) root"
        );
        let mut held = vec![0; attach.layouts.len()];
        for row in attach.layouts.iter().flat_map(|l| &l.rows) {
            if let Holds::Blocks { layout, .. } = row.holds {
                held[layout.index()] += 1;
            }
        }
        for (k, times) in held.iter().enumerate() {
            assert_eq!(*times, usize::from(k > 0), "synth({n}) layout {k} held");
        }
    }
}

#[test]
fn synthetic_schema_rust_has_a_live_layer() {
    let text = synth_schemas::synth_schema(40);
    let schema = abi_codegen::load_schema(&text).expect("synth(40) loads");
    let rust = abi_codegen::testing::language_backend::rust::expand_rust(&schema, "synth.toml");
    assert!(
        rust.contains("pub mod live"),
        "no live module in synth(40).rs"
    );
    for item in [
        // A seqlock's reads are a line of `abi_runtime::seqlock_reads!`.
        "read_unit_9_input, read_unit_9_input_counted, read_unit_9_input_into, copy_unit_9_input:",
        "pub fn write_unit_9_input(",
        // A ring of seqlocked slots (its type, `read_newest`) is a line of
        // `abi_runtime::slots_ring!`.
        "] Unit5Slots: head ",
        "pub fn unit_21_events_since(",
        // The root layout's handle (its type, `attach`, `produce`) is a line of
        // `abi_runtime::layout_handle!`.
        "root Unit2Area: handshake UNIT_2_HANDSHAKE, table UNIT_2_AREA_TABLE;",
        // A compare-and-swap is a line of `abi_runtime::view_accessors!`.
        "compare_exchange compare_exchange_state @ ",
    ] {
        assert!(rust.contains(item), "synth(40).rs lacks `{item}`");
    }
}

#[test]
fn synthetic_schema_c_header_compiles_with_its_static_asserts() {
    let text = synth_schemas::synth_schema(40);
    let schema = abi_codegen::load_schema(&text).expect("synth(40) loads");
    let header = abi_codegen::testing::language_backend::c::render_c_header(&schema, "synth.toml")
        .expect("renders");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("synth");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("synth.h");
    std::fs::write(&path, header).expect("write synth.h");
    let out = Command::new("gcc")
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
            "-x",
            "c",
        ])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run gcc ({e}): this test needs gcc on PATH (Debian: apt-get install gcc)"
            )
        });
    assert!(
        out.status.success(),
        "gcc rejects the synthetic header:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
