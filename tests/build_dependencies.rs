//! The build script's dependency tree stays lean: every crate that `cargo build -p
//! bridge-abi` compiles, the build script's included, comes in one version only. Two
//! versions of syn (serde_derive on syn 3 while zerocopy-derive is on syn 2, say) would
//! compile syn twice in every clean build, which is most of what the build script costs
//! (bench/README.md, benchmark 3).

use std::process::Command;

#[test]
fn build_compiles_one_version_of_each_crate() {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--locked",
            "-p",
            "bridge-abi",
            "-e",
            "normal,build",
            "--duplicates",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo tree failed:\n{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.trim().is_empty(),
        "a clean build of bridge-abi compiles these crates in more than one version; \
         align the versions (Cargo.toml, or `cargo update -p NAME --precise VERSION`):\n{stdout}"
    );
}
