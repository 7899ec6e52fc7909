//! `abi-codegen init`: it writes the starter schema with the kinds asked for (all by
//! default), which `generate` then takes; it leaves an existing file alone unless
//! `--force`; an unknown kind is a usage error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use abi_codegen::init::{Kind, starter_schema};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

fn codegen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run abi-codegen")
}

#[test]
fn init_writes_the_starter_and_generate_takes_it() {
    let dir = scratch("init_cli");
    let out = codegen(&dir, &["init", "--kinds", "seqlock,queue,layout"]);
    assert!(out.status.success(), "{out:?}");
    let written = std::fs::read_to_string(dir.join("schema.toml")).expect("schema.toml");
    assert_eq!(
        written,
        starter_schema(&[Kind::Seqlock, Kind::Queue, Kind::Layout])
    );
    assert!(written.contains("[[seqlock]]") && written.contains("[[queue]]"));
    assert!(!written.contains("[[mailbox]]") && !written.contains("[[file]]"));
    let out = codegen(&dir, &["generate", "--out", "gen"]);
    assert!(out.status.success(), "{out:?}");
    for file in [
        "starter.rs",
        "starter.h",
        "starter.py",
        "starter.pyi",
        "starter.md",
    ] {
        assert!(dir.join("gen").join(file).is_file(), "{file}");
    }

    // An existing file stays; --force overwrites it, with every kind by default.
    let out = codegen(&dir, &["init"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("schema.toml exists"),
        "{out:?}"
    );
    let kept = std::fs::read_to_string(dir.join("schema.toml")).unwrap();
    assert_eq!(kept, written);
    let out = codegen(&dir, &["init", "--force"]);
    assert!(out.status.success(), "{out:?}");
    let all = std::fs::read_to_string(dir.join("schema.toml")).unwrap();
    assert_eq!(all, starter_schema(&[]));
    for table in [
        "[[seqlock]]",
        "[[ring]]",
        "[[queue]]",
        "[[mailbox]]",
        "[[session]]",
        "[[file]]",
        "[[layout]]",
    ] {
        assert_eq!(all.matches(table).count(), 1, "{table}");
    }

    let out = codegen(
        &dir,
        &["init", "--kinds", "semaphore", "--schema", "x.toml"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.join("x.toml").exists());
}
