//! The synthetic schemas of the scale benchmarks (`benches/synth`) are valid: they load
//! without errors, hold the structs, enums and constants they are meant to, every struct has
//! the size the generator's design gives it (48-byte leaves; records of a 16-byte head, 2 to
//! 4 leaves and a 16-byte tail), and gcc compiles the C header, whose static asserts check
//! the layout against a real compiler. Needs gcc on PATH; fails, never skips, without it.

use std::path::Path;
use std::process::Command;

#[path = "../benches/synth/mod.rs"]
mod synth;

#[test]
fn synthetic_schemas_load_with_the_designed_sizes() {
    for n in [1, 2, 3, 4, 5, 16, 17, 33, 100] {
        let text = synth::synth_schema(n);
        let schema = abi_codegen::load_schema(&text)
            .unwrap_or_else(|e| panic!("synth({n}):\n{}", e.render("synth.toml", &text)));
        let abi = &schema.abi;
        assert_eq!(abi.structs.len(), n, "synth({n}) structs");
        assert_eq!(
            abi.enums.len(),
            n.div_ceil(2) + n.div_ceil(4),
            "synth({n}) enums"
        );
        let leaves = n.div_ceil(4);
        assert_eq!(
            abi.consts.len(),
            leaves + 2 * (n - leaves),
            "synth({n}) consts"
        );
        for (i, s) in abi.structs.iter().enumerate() {
            assert_eq!(s.name, format!("unit_{i}"));
            let l = schema.layout.of(i);
            assert_eq!((l.size, l.align), (synth::struct_size(i), 8), "unit_{i}");
        }
        let extensible = abi.structs.iter().filter(|s| s.extensible).count();
        assert_eq!(extensible, (n + 14) / 16, "synth({n}) extensible records");
    }
}

#[test]
fn synthetic_schema_c_header_compiles_with_its_static_asserts() {
    let text = synth::synth_schema(40);
    let schema = abi_codegen::load_schema(&text).expect("synth(40) loads");
    let header =
        abi_codegen::language_backend::c::render_c_header(&schema, "synth.toml").expect("renders");
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
