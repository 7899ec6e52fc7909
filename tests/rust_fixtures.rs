//! The Rust backend on small fixtures, one concern each: an insta snapshot of the emitted
//! code, and the emitted code compiled by rustc (through cargo, with zerocopy) with every
//! warning denied and `unsafe` forbidden.

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: [&str; 5] = [
    "one_struct",
    "one_enum",
    "one_flags",
    "keywords",
    "char_padding",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn expand(name: &str) -> String {
    let path = root().join(format!("tests/fixtures/rust/{name}.toml"));
    let src = std::fs::read_to_string(&path).expect("fixture");
    let schema = abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render(&format!("{name}.toml"), &src)));
    abi_codegen::testing::language_backend::rust::expand_rust(&schema, "schema.toml")
}

#[test]
fn snapshots() {
    for name in FIXTURES {
        insta::assert_snapshot!(format!("rust_{name}"), expand(name));
    }
}

#[test]
fn emitted_code_compiles_without_warnings() {
    let dir = tempdir("rust-fixtures");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"fixture-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nzerocopy = { version = \"0.8\", features = [\"derive\"] }\n\n[workspace]\n",
    )
    .unwrap();
    // The workspace's lock file pins the same zerocopy, so this builds offline.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let mut lib = String::from("#![forbid(unsafe_code)]\n#![deny(warnings)]\n");
    for name in FIXTURES {
        std::fs::write(dir.join("src").join(format!("{name}.rs")), expand(name)).unwrap();
        lib.push_str(&format!(
            "pub mod {name} {{\n    include!(\"{name}.rs\");\n}}\n"
        ));
    }
    // Use the generated API, so a missing item fails to compile too.
    lib.push_str(
        "pub fn uses() {\n\
         \x20   let mut r = one_struct::Record::default();\n\
         \x20   r.set_name(\"x\");\n\
         \x20   assert_eq!(r.name_str(), Ok(\"x\"));\n\
         \x20   assert_eq!(one_enum::Level::DEBUG.0, -1);\n\
         \x20   assert!(one_flags::Caps::all().contains(one_flags::Caps::TOP));\n\
         \x20   let m = keywords::Match { r#type: keywords::Kind::NONE, self_: 1, ..Default::default() };\n\
         \x20   let s = keywords::Self_ { r#match: m, r#type: 0 };\n\
         \x20   assert_eq!(s.r#match.r#type, keywords::Kind::NONE);\n\
         }\n",
    );
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let out = cargo_build(&dir);
    assert!(
        out.status.success(),
        "the emitted Rust does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The layout asserts bite: one wrong offset and the crate no longer compiles.
    let path = dir.join("src/one_struct.rs");
    let good = std::fs::read_to_string(&path).unwrap();
    let bad = good.replacen("stamp : 8", "stamp : 12", 1);
    assert!(
        good != bad,
        "the offset assert of `stamp` is in the emitted code"
    );
    std::fs::write(&path, bad).unwrap();
    let out = cargo_build(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a wrong offset must not compile");
    assert!(stderr.contains("offset_of"), "{stderr}");
}

/// Live layers of schemas unlike the bridge, compiled with every warning denied: atomic
/// fields and no seqlock (no `SeqLock` import to leave unused), plain shared fields only
/// (no `Ordering` either).
const LIVE_FIXTURES: [&str; 2] = ["live_atomics_only", "live_plain_only"];

#[test]
fn live_layers_without_seqlocks_compile_without_warnings() {
    let dir = tempdir("rust-live-fixtures");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"live-fixture-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nzerocopy = {{ version = \"0.8\", features = [\"derive\", \"alloc\"] }}\n\
             abi-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            root().join("runtime")
        ),
    )
    .unwrap();
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let mut lib = String::from("#![forbid(unsafe_code)]\n#![deny(warnings)]\n");
    for name in LIVE_FIXTURES {
        let text = expand(name);
        assert!(text.contains("pub mod live"), "{name}: no live layer");
        std::fs::write(dir.join("src").join(format!("{name}.rs")), text).unwrap();
        lib.push_str(&format!(
            "pub mod {name} {{\n    include!(\"{name}.rs\");\n}}\n"
        ));
    }
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let out = cargo_build(&dir);
    assert!(
        out.status.success(),
        "the emitted live layer does not compile without warnings:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `cargo build --offline` of the crate in `dir`, with a target folder kept under the
/// workspace's so that zerocopy is compiled once.
fn cargo_build(dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", root().join("target/fixture-check"))
        .output()
        .expect("cargo runs")
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
