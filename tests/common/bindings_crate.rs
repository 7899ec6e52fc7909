//! A cargo package of generated Rust bindings, outside this workspace, as a crate that uses
//! them would build and lint it: one public module per schema, unsafe forbidden and every
//! warning denied; and clippy over it with its pedantic lints as errors too.

use std::fmt::Write as _;
use std::path::Path;

use super::tools::{cargo_outside, output_text};

/// The `[dependencies]` line of zerocopy, which every output needs.
pub const ZEROCOPY: &str = "zerocopy = { version = \"0.8\", features = [\"derive\"] }\n";

/// The `[dependencies]` line of this workspace's abi-runtime, with `features`.
pub fn runtime_dependency(features: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let features: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
    format!(
        "abi-runtime = {{ path = \"{}\", features = [{}] }}\n",
        root.join("runtime").display(),
        features.join(", ")
    )
}

/// Writes package `package` in `dir` (its `src/` emptied first): `dependencies` as its
/// `[dependencies]`, this workspace's Cargo.lock (so it builds offline), and a `src/lib.rs`
/// with `pub mod NAME` for each `(NAME, rust)` of `modules` (public, so that an accessor the
/// crate does not call is no dead code). The docs quote the schema's prose, which clippy's
/// `doc_markdown` cannot tell from code: allowed, as in this workspace's src/lib.rs.
pub fn write_bindings_crate(
    dir: &Path,
    package: &str,
    dependencies: &str,
    modules: &[(String, String)],
) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let _ = std::fs::remove_dir_all(dir.join("src"));
    std::fs::create_dir_all(dir.join("src")).expect("create the crate's src/");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{package}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\n{dependencies}\n[profile.dev]\ndebug = 0\n\n[workspace]\n"
        ),
    )
    .expect("write Cargo.toml");
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    let mut lib = String::from(
        "//! Generated bindings under test.\n#![forbid(unsafe_code)]\n#![deny(warnings)]\n\
         #![allow(clippy::doc_markdown, reason = \"the docs quote the schema's prose\")]\n",
    );
    for (name, rust) in modules {
        std::fs::write(dir.join("src").join(format!("{name}.rs")), rust).expect("write a module");
        let _ = writeln!(lib, "pub mod {name} {{\n    include!(\"{name}.rs\");\n}}");
    }
    std::fs::write(dir.join("src/lib.rs"), lib).expect("write lib.rs");
}

/// `cargo clippy -- -D warnings -D clippy::pedantic` over the crate in `dir` (its target
/// folder `target`); panics with clippy's messages, naming `what`, unless it is clean.
pub fn assert_pedantic_clean(dir: &Path, target: &Path, what: &str) {
    let args = ["clippy", "--offline", "--quiet", "--", "-D", "warnings"];
    let out = cargo_outside(
        dir,
        target,
        &[&args[..], &["-D", "clippy::pedantic"]].concat(),
    );
    assert!(
        out.status.success(),
        "{what} (in {}) is not clean under -D warnings -D clippy::pedantic:\n{}",
        dir.display(),
        output_text(&out)
    );
}
