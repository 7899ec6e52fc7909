//! No partial output: when writing or rendering fails, the output folder stays byte-for-byte
//! (and timestamp-for-timestamp) as it was, and no temporary file is left in it. Failures
//! are injected with a folder where a file should go (which stops a write even as root)
//! and with a template that does not render; the library path and the `codegen` command
//! are both checked.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use abi_codegen::testing::language_backend::RenderError;
use abi_codegen::testing::language_backend::text::{self, Template};
use abi_codegen::testing::write::{self, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen sits in the workspace")
        .to_path_buf()
}

/// What `abi-codegen generate` writes for the bridge: every built-in target, and the
/// outputs of the schema's `[[template]]` tables (generated/bridge.mjs).
fn bridge_outputs() -> Vec<Output> {
    let src = fs::read_to_string(workspace().join("schema.toml")).expect("schema.toml");
    let schema = abi_codegen::load_schema(&src).expect("the bridge schema loads");
    abi_codegen::generated_outputs(&schema, "schema.toml", &src, "schema.toml", &workspace())
        .unwrap_or_else(|e| panic!("every target renders: {e}"))
}

/// A fresh folder for one test, holding an older version of every output, each dated in
/// the past so that a rewrite would show even on a coarse clock.
fn old_outputs(name: &str, outputs: &[Output]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("atomic-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the folder");
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for o in outputs {
        let path = dir.join(&o.file_name);
        fs::write(&path, format!("// an older {}\n", o.file_name)).expect("write");
        fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(old))
            .expect("set mtime");
    }
    dir
}

/// Every entry under `dir`, recursively: its bytes (none for a folder) and mtime.
fn state(dir: &Path) -> BTreeMap<PathBuf, (Option<Vec<u8>>, SystemTime)> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in fs::read_dir(&d).expect("readable folder").flatten() {
            let meta = e.metadata().expect("metadata");
            let bytes = if meta.is_dir() {
                pending.push(e.path());
                None
            } else {
                Some(fs::read(e.path()).expect("readable file"))
            };
            out.insert(e.path(), (bytes, meta.modified().expect("mtime")));
        }
    }
    out
}

fn assert_no_temporary_files(dir: &Path) {
    for path in state(dir).keys() {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            !name.contains(".tmp"),
            "a temporary file was left: {}",
            path.display()
        );
    }
}

/// A folder where an output file should go, at each output's place in turn: the write
/// fails before any output is replaced (renaming the earlier ones first would have left
/// them new and the rest old).
#[test]
fn a_folder_in_place_of_an_output_changes_nothing() {
    let outputs = bridge_outputs();
    assert_eq!(
        outputs.len(),
        6,
        "rs, h, py, pyi, md and the template's mjs"
    );
    for blocked in &outputs {
        let dir = old_outputs("folder", &outputs);
        let path = dir.join(&blocked.file_name);
        fs::remove_file(&path).expect("remove");
        fs::create_dir(&path).expect("a folder in its place");
        fs::write(path.join("keep.txt"), "inside\n").expect("write");
        let before = state(&dir);

        let err = write::write_outputs(&dir, &outputs).expect_err("the write fails");
        assert!(
            err.to_string().contains(&blocked.file_name) && err.to_string().contains("not a file"),
            "{err}"
        );
        assert_eq!(state(&dir), before, "{} blocked", blocked.file_name);
        assert_no_temporary_files(&dir);
    }
}

/// A temporary file that cannot be created (a folder holds its name): the outputs staged
/// before it are removed and nothing is renamed.
#[test]
fn a_temporary_file_that_cannot_be_written_changes_nothing() {
    let outputs = bridge_outputs();
    let dir = old_outputs("staging", &outputs);
    let last = &outputs.last().unwrap().file_name;
    let blocker = dir.join(format!(".{last}.tmp{}", std::process::id()));
    fs::create_dir(&blocker).expect("a folder where the last temporary file goes");
    let before = state(&dir);

    let err = write::write_outputs(&dir, &outputs).expect_err("the write fails");
    assert!(err.to_string().contains(last.as_str()), "{err}");
    assert_eq!(state(&dir), before);
    fs::remove_dir(&blocker).expect("remove the blocker");
    assert_no_temporary_files(&dir);

    // Unblocked, the same call writes every output.
    let written = write::write_outputs(&dir, &outputs).expect("the write succeeds");
    assert_eq!(written.len(), outputs.len());
    assert!(write::stale_outputs(&dir, &outputs).is_empty());
    assert_no_temporary_files(&dir);
}

/// A template that does not render, after the real outputs rendered: the path `codegen
/// generate` takes writes nothing, into an existing folder or a missing one.
#[test]
fn a_render_failure_writes_nothing() {
    let broken = Template {
        name: "broken.j2",
        source: "{% for x in %}",
    };
    let render = || -> Result<Vec<Output>, Box<dyn std::error::Error>> {
        let mut outputs = bridge_outputs();
        let mut env = text::environment();
        let contents = text::render(&mut env, &broken, ())?;
        outputs.push(Output {
            file_name: "bridge.extra".into(),
            contents,
        });
        Ok(outputs)
    };
    let dir = old_outputs("render", &bridge_outputs());
    let before = state(&dir);
    let err = write::render_then_write(&dir, render).expect_err("rendering fails");
    let err = err.downcast::<RenderError>().expect("a render error");
    assert!(err.0.starts_with("template broken.j2:"), "{err}");
    assert_eq!(state(&dir), before);

    let missing = dir.join("missing");
    assert!(write::render_then_write(&missing, render).is_err());
    assert!(
        !missing.exists(),
        "a render failure created the output folder"
    );
    assert_no_temporary_files(&dir);
}

fn codegen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
        .args(args)
        .output()
        .expect("the codegen binary runs")
}

/// `abi-codegen generate` with a folder where an output should go: exit 2, the error names
/// the path, and the folder is as it was. `abi-codegen check` reports the output stale and
/// writes nothing either.
#[test]
fn the_command_writes_nothing_when_an_output_is_blocked() {
    let outputs = bridge_outputs();
    let dir = old_outputs("cli", &outputs);
    let blocked = dir.join("bridge.md");
    fs::remove_file(&blocked).expect("remove");
    fs::create_dir(&blocked).expect("a folder in its place");
    let before = state(&dir);
    let schema = workspace().join("schema.toml");
    let args = |command: &'static str| {
        vec![
            command.to_string(),
            "--schema".into(),
            schema.display().to_string(),
            "--out".into(),
            dir.display().to_string(),
        ]
    };
    let run = |command| {
        let a = args(command);
        codegen(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };

    let out = run("generate");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert!(
        stderr.contains("bridge.md: exists and is not a file"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(state(&dir), before);
    assert_no_temporary_files(&dir);

    let out = run("check");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("stale: ").count(), outputs.len(), "{stderr}");
    assert_eq!(state(&dir), before);

    // Once the folder is gone, generate writes them all.
    fs::remove_dir(&blocked).expect("remove the folder");
    let out = run("generate");
    assert_eq!(out.status.code(), Some(0));
    let all = format!("{0} of {0} files changed", outputs.len());
    assert!(String::from_utf8_lossy(&out.stdout).contains(&all));
    assert!(write::stale_outputs(&dir, &outputs).is_empty());
    assert_no_temporary_files(&dir);
}
