//! `abi-codegen init`: it writes the starter schema with the kinds asked for (all by
//! default), which `generate` then takes; it leaves an existing file alone unless
//! `--force`; an unknown kind is a usage error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use abi_codegen::testing::init::{Kind, starter_schema};

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

/// Every `--kinds` the starter can be asked for (each kind alone and with a layout, and all
/// of them) loads without a warning: no protocol reads a capacity that lay_out leaves 0,
/// and no row declares `bytes` nothing reads. The mailbox's capacities carry geometry in a
/// layout, so lay_out writes them and its row's `bytes` holds them.
#[test]
fn every_starter_loads_without_a_warning() {
    let mut asks: Vec<Vec<Kind>> = vec![Vec::new()];
    for k in Kind::ALL {
        asks.push(vec![k]);
        asks.push(vec![k, Kind::Layout]);
    }
    for kinds in asks {
        let src = starter_schema(&kinds);
        let schema = abi_codegen::load_schema(&src)
            .unwrap_or_else(|e| panic!("{kinds:?}: {}", e.render("schema.toml", &src)));
        let warnings = abi_codegen::testing::diagnostics::render_warnings(
            schema.warnings(),
            "schema.toml",
            &src,
        );
        assert_eq!(warnings, "", "{kinds:?}");
    }
}

/// The mailbox of the starter as it was (capacities without geometry, a row of `bytes =
/// 512`): lowering warns at each capacity and at the row's `bytes`, and `generate` prints
/// the warnings and still writes the outputs (exit 0).
#[test]
fn a_capacity_no_one_writes_is_a_warning() {
    let src = starter_schema(&[Kind::Mailbox, Kind::Layout]);
    let old = src
        .replace(", geometry = \"mailbox_request_capacity\"", "")
        .replace(", geometry = \"mailbox_response_capacity\"", "")
        .replace(
            "bytes = \"mailbox_request_capacity + mailbox_response_capacity\"",
            "bytes = 512",
        );
    assert_ne!(old, src);
    let line_col = |needle: &str| {
        let at = old.find(needle).unwrap_or_else(|| panic!("{needle}"));
        let line = old[..at].matches('\n').count() + 1;
        let col = at - old[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("schema.toml:{line}:{col}")
    };
    let request = line_col("{ name = \"request_capacity\"");
    let response = line_col("{ name = \"response_capacity\"");
    let bytes = line_col("512");
    let expected = format!(
        "{request}: warning: struct `mailbox_header`, field `request_capacity`: mailbox `commands` reads it as its `request_capacity`, and it has no `geometry`: the generated lay_out leaves it 0, so the mailbox has no room\n  \
         = help: give `request_capacity` `geometry = \"CONSTANT\"` (lay_out writes the constant's value) or `geometry = \"*\"` (the producer passes the size to lay_out)\n\
         {response}: warning: struct `mailbox_header`, field `response_capacity`: mailbox `commands` reads it as its `response_capacity`, and it has no `geometry`: the generated lay_out leaves it 0, so the mailbox has no room\n  \
         = help: give `response_capacity` `geometry = \"CONSTANT\"` (lay_out writes the constant's value) or `geometry = \"*\"` (the producer passes the size to lay_out)\n\
         {bytes}: warning: layout `image`, row `mailbox`: `bytes` gives 512 bytes after `mailbox_header` that nothing reads (no protocol over `mailbox_header` sizes an area by them, and it has no trailer)\n  \
         = help: drop `bytes`, or give the capacities of the protocol over the struct a `geometry` the bytes hold\n"
    );
    let dir = scratch("init_cli_warning");
    std::fs::write(dir.join("schema.toml"), &old).unwrap();
    let out = codegen(&dir, &["generate", "--out", "gen"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), expected);
    assert!(dir.join("gen/starter.h").is_file());
    // A build script's Builder: the same warnings, one per entry, and the outputs written.
    let built = abi_codegen::Builder::new(dir.join("schema.toml"))
        .cargo_instructions(false)
        .rust_file(dir.join("built/starter.rs"))
        .generate()
        .expect("a warning does not fail the build");
    assert_eq!(built.warnings.len(), 3, "{:?}", built.warnings);
    let path = abi_codegen::testing::diagnostics::display_path(&dir.join("schema.toml"));
    assert_eq!(
        built.warnings.concat(),
        expected.replace("schema.toml:", &format!("{path}:"))
    );
    assert!(dir.join("built/starter.rs").is_file());
}

/// A protocol's Python class whose name a struct holds takes the protocol's table word
/// (`LogQueueQueueEntry`), never a trailing `_`: here the queue `log_queue`'s entry class
/// meets the struct `log_queue_entry` (the starter's `log_entry`, renamed).
#[test]
fn a_taken_protocol_class_name_gets_no_trailing_underscore() {
    let src = starter_schema(&[Kind::Queue]).replace("log_entry", "log_queue_entry");
    let schema = abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render("schema.toml", &src)));
    let outputs = abi_codegen::testing::language_backend::generate_all(&schema, "schema.toml")
        .expect("generates");
    let py = &outputs
        .iter()
        .find(|o| o.file_name.ends_with(".py"))
        .expect("the Python module")
        .contents;
    let classes: Vec<&str> = py
        .lines()
        .filter_map(|l| l.strip_prefix("class "))
        .map(|l| l.split(['(', ':']).next().unwrap_or(l))
        .collect();
    assert!(classes.contains(&"LogQueueEntry"), "{classes:?}");
    assert!(classes.contains(&"LogQueueQueueEntry"), "{classes:?}");
    let underscored: Vec<&&str> = classes.iter().filter(|c| c.ends_with('_')).collect();
    assert!(underscored.is_empty(), "{underscored:?}");
}
