//! README.md's "Your first shared-memory ABI in five minutes", run as written: in a scratch
//! folder, `abi-codegen init` and `generate` (the command this workspace builds), the C
//! producer compiled by the README's own gcc line and run, the Python client and the Rust
//! client crate (its path dependency pointed at this workspace's runtime) run against the
//! file it made; together they print what the README says they print.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::readme::block_after;
use common::tools::{output_text, scratch};

const DOC: &str = "README.md";
const SECTION: &str = "## Your first shared-memory ABI in five minutes";

/// The abi-codegen command of this workspace: a script in `dir` that runs it through cargo.
fn abi_codegen(root: &Path, dir: &Path) -> std::path::PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let bin = dir.join("abi-codegen");
    // The workspace's own target folder (the client crate's build gets another).
    let target = std::env::var("CARGO_TARGET_DIR").map_or_else(
        |_| "-u CARGO_TARGET_DIR".to_string(),
        |t| format!("CARGO_TARGET_DIR='{t}'"),
    );
    std::fs::write(
        &bin,
        format!(
            "#!/bin/sh\nexec env {target} '{cargo}' run -q --manifest-path '{}' -p abi-codegen -- \"$@\"\n",
            root.join("Cargo.toml").display()
        ),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&bin).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&bin, permissions).unwrap();
    bin
}

/// Runs each line of a shell block with bash, `abi-codegen` on the PATH, in `dir`; the
/// README's /dev/shm file is `image` here. Returns what the lines printed.
fn run_lines(block: &str, dir: &Path, bin: &Path, image: &Path, target: &Path) -> String {
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = block.replace("/dev/shm/starter", image.to_str().unwrap());
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .current_dir(dir)
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "the README's lines failed:\n{script}\n{}",
        output_text(&out)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_five_minute_path_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // A folder of the user's, outside this workspace (cargo would take the client crate for
    // one of its members).
    let dir = std::env::temp_dir().join(format!("abi-codegen-five-minutes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bin = abi_codegen(root, &scratch("five_minutes_bin"));
    let image = dir.join("starter.shm");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("five-minutes-client");
    // abi-codegen init, generate.
    let setup = block_after(DOC, SECTION, "sh");
    run_lines(&setup, &dir, &bin, &image, &target);
    assert!(
        dir.join("generated/starter.h").is_file(),
        "generate wrote the header"
    );
    // The three programs, as the README names them.
    std::fs::write(
        dir.join("producer.c"),
        block_after(DOC, "The producer, `producer.c`", "c"),
    )
    .unwrap();
    std::fs::write(
        dir.join("client.py"),
        block_after(DOC, "The Python client", "python"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("client/src")).unwrap();
    let manifest = block_after(DOC, "The Rust client is a crate", "toml");
    let runtime = "path = \"../../abi-codegen/runtime\"";
    assert!(manifest.contains(runtime), "{manifest}");
    let manifest = manifest.replace(
        runtime,
        &format!("path = \"{}\"", root.join("runtime").display()),
    );
    std::fs::write(dir.join("client/Cargo.toml"), manifest).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("client/Cargo.lock")).unwrap();
    std::fs::write(
        dir.join("client/src/main.rs"),
        block_after(DOC, "and whose `src/main.rs`", "rust"),
    )
    .unwrap();
    // Build and run: the README's lines, the README's output.
    let run = block_after(DOC, "Build and run the three:", "sh");
    let printed = run_lines(&run, &dir, &bin, &image, &target);
    assert_eq!(printed, block_after(DOC, "which prints", "text"));
    assert!(!image.exists(), "the last line removed the file");
    std::fs::remove_dir_all(&dir).unwrap();
}
