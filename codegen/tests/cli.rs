//! The `codegen` command line, run as a real process: `layout`, `generate` and `check` on
//! the bridge schema, and what happens on a schema with errors or a path it cannot read.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

/// The workspace root, where `schema.toml` and the shared fixtures live.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen sits in the workspace")
        .to_path_buf()
}

fn bridge_schema() -> PathBuf {
    workspace().join("schema.toml")
}

fn codegen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
        .args(args)
        .output()
        .expect("the codegen binary runs")
}

fn path_arg(p: &Path) -> &str {
    p.to_str().expect("test paths are UTF-8")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the temp dir");
    dir
}

/// Every file in `dir`: its bytes and modification time.
fn dir_state(dir: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    fs::read_dir(dir)
        .expect("readable dir")
        .map(|e| {
            let e = e.expect("readable entry");
            let meta = e.metadata().expect("metadata");
            (
                e.file_name().to_string_lossy().into_owned(),
                (
                    fs::read(e.path()).expect("readable file"),
                    meta.modified().expect("mtime"),
                ),
            )
        })
        .collect()
}

/// Size and alignment of `name` in the plain-text reference: `name (N bytes, align A)`.
fn reference_size_align(name: &str) -> (u64, u64) {
    let path = workspace().join("tests/fixtures/bridge-abi-0.9-reference.txt");
    let text = fs::read_to_string(path).expect("the reference is readable");
    let prefix = format!("{name} (");
    let line = text
        .lines()
        .find(|l| l.starts_with(&prefix) && l.contains(" bytes, align "))
        .unwrap_or_else(|| panic!("no heading for {name} in the reference"));
    let rest = line[prefix.len()..].trim_end_matches(')');
    let (bytes, align) = rest.split_once(" bytes, align ").expect("heading shape");
    (bytes.parse().expect("size"), align.parse().expect("align"))
}

#[test]
fn layout_of_one_struct_starts_with_its_size_and_align() {
    let (size, align) = reference_size_align("snapshot");
    assert_eq!((size, align), (12104, 8));
    let out = codegen(&["layout", "snapshot", "--schema", path_arg(&bridge_schema())]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let first = text.lines().next().expect("a first line");
    assert!(first.starts_with("struct snapshot {"), "{first}");
    assert!(
        first.contains(&format!("size: {size} ({size:#x}), align: {align}")),
        "{first}"
    );
    assert!(text.contains("spawn_marker_count;"));
}

#[test]
fn layout_json_has_every_struct() {
    let out = codegen(&["layout", "--json", "--schema", path_arg(&bridge_schema())]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let structs = json["structs"].as_array().expect("a structs array");
    // 45 headed tables in the reference, plus rec_footer, whose heading it omits.
    assert_eq!(structs.len(), 46);
    let snapshot = structs
        .iter()
        .find(|s| s["name"] == "snapshot")
        .expect("snapshot is listed");
    assert_eq!(snapshot["size"], 12104);
    assert_eq!(snapshot["align"], 8);
}

#[test]
fn layout_of_an_unknown_struct_exits_2() {
    let out = codegen(&["layout", "nosuch", "--schema", path_arg(&bridge_schema())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no struct named `nosuch`"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

/// `--targets` (issue 38, item 7): a crate that generates its Rust at build time checks in
/// the C and Python outputs only; `check --targets c,python` covers exactly those, a file it
/// cannot find is `missing`, one that differs `stale`, and the fix it names keeps the targets.
#[test]
fn check_covers_the_targets_asked_for_and_says_missing_or_stale() {
    let dir = temp_dir("targets");
    let out_dir = dir.join("out");
    let schema = bridge_schema();
    let run = |command: &str, targets: Option<&str>| {
        let mut args = vec![
            command,
            "--schema",
            path_arg(&schema),
            "--out",
            path_arg(&out_dir),
        ];
        if let Some(t) = targets {
            args.extend(["--targets", t]);
        }
        codegen(&args)
    };
    let first = run("generate", Some("c,python"));
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let mut names: Vec<String> = fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bridge.h", "bridge.py", "bridge.pyi"]);
    let ok = run("check", Some("c,python"));
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    // Every target: the Rust, markdown and template outputs are missing, not stale.
    let all = run("check", None);
    assert_eq!(all.status.code(), Some(1));
    let err = stderr(&all);
    assert!(
        err.contains("missing: ") && err.contains("bridge.rs"),
        "{err}"
    );
    assert!(!err.contains("stale: "), "{err}");
    // An edited file is stale, and the fix names the targets.
    let mut h = fs::read_to_string(out_dir.join("bridge.h")).unwrap();
    h.push_str("/* edited */\n");
    fs::write(out_dir.join("bridge.h"), h).unwrap();
    let stale = run("check", Some("c"));
    assert_eq!(stale.status.code(), Some(1));
    let err = stderr(&stale);
    assert!(err.contains("stale: ") && err.contains("bridge.h"), "{err}");
    assert!(err.contains("--targets c` to update them"), "{err}");
    // An unknown target is a usage error that lists the known ones.
    let unknown = run("check", Some("cobol"));
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("rust, c, python, markdown, templates"));
}

/// `generate` twice, then `check`, then one edited file: `check` reports it and writes
/// nothing, and `generate` repairs it.
#[test]
fn generate_writes_once_and_check_finds_stale_files() {
    let dir = temp_dir("generate");
    let out_dir = dir.join("out");
    let schema = bridge_schema();
    let generate = [
        "generate",
        "--schema",
        path_arg(&schema),
        "--out",
        path_arg(&out_dir),
    ];
    let check = [
        "check",
        "--schema",
        path_arg(&schema),
        "--out",
        path_arg(&out_dir),
    ];

    // A missing output folder: check reports every file stale and does not create it.
    let out = codegen(&check);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!out_dir.exists(), "check created {}", out_dir.display());

    let first = codegen(&generate);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let state = dir_state(&out_dir);
    let n = state.len();
    assert!(n >= 1, "nothing was generated");
    assert!(
        stdout(&first).contains(&format!("{n} of {n} files changed")),
        "{}",
        stdout(&first)
    );
    for (name, (bytes, _)) in &state {
        assert!(!name.starts_with('.'), "a temporary file was left: {name}");
        let text = String::from_utf8_lossy(bytes);
        let line = text.lines().next().unwrap_or("");
        assert!(
            line.contains("generated from schema.toml; do not edit"),
            "{name} starts with {line:?}"
        );
    }

    // Backdate the files so that a rewrite would show even on a coarse clock.
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for name in state.keys() {
        let f = fs::File::options()
            .write(true)
            .open(out_dir.join(name))
            .expect("open for set_modified");
        f.set_modified(old).expect("set mtime");
    }
    let before = dir_state(&out_dir);
    let second = codegen(&generate);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert!(
        stdout(&second).contains(&format!("0 of {n} files changed")),
        "{}",
        stdout(&second)
    );
    assert_eq!(
        dir_state(&out_dir),
        before,
        "a second run touched the files"
    );

    let fresh = codegen(&check);
    assert_eq!(fresh.status.code(), Some(0), "{}", stderr(&fresh));

    // Edit one file: check lists it, names the command that fixes it, and writes nothing.
    let (edited, _) = state.iter().next().expect("one file");
    let edited_path = out_dir.join(edited);
    fs::write(&edited_path, "// edited by hand\n").expect("edit a file");
    let before = dir_state(&out_dir);
    let stale = codegen(&check);
    assert_eq!(stale.status.code(), Some(1));
    let err = stderr(&stale);
    assert!(
        err.contains(&format!("stale: {}", edited_path.display())),
        "{err}"
    );
    assert_eq!(err.matches("stale: ").count(), 1, "{err}");
    let fix = format!(
        "cargo run -p abi-codegen -- generate --schema {} --out {}",
        schema.display(),
        out_dir.display()
    );
    assert!(err.contains(&fix), "{err}");
    assert_eq!(dir_state(&out_dir), before, "check wrote");
    // Outside `cargo run` (an installed binary in another repository), the fix names the
    // program itself, which works there; `cargo run -p abi-codegen` would not.
    let mut installed = Command::new(env!("CARGO_BIN_EXE_abi-codegen"));
    installed.args(check).env_remove("CARGO_MANIFEST_DIR");
    let err = stderr(&installed.output().expect("run abi-codegen"));
    let fix = format!(
        "run `abi-codegen generate --schema {} --out {}`",
        schema.display(),
        out_dir.display()
    );
    assert!(err.contains(&fix), "{err}");

    // The command it names repairs exactly that file.
    let repair = codegen(&generate);
    assert_eq!(repair.status.code(), Some(0));
    assert!(stdout(&repair).contains(&format!("1 of {n} files changed")));
    assert_eq!(codegen(&check).status.code(), Some(0));
}

/// A schema with errors: exit 1, `FILE:LINE:COL` on stderr, and the output folder exactly
/// as it was, whether empty or holding older files.
#[test]
fn schema_errors_exit_1_and_write_nothing() {
    let dir = temp_dir("errors");
    let bad = workspace().join("tests/fixtures/errors/gap_between_fields.toml");
    let out_dir = dir.join("out");

    let out = codegen(&[
        "generate",
        "--schema",
        path_arg(&bad),
        "--out",
        path_arg(&out_dir),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}:12:3: error:", bad.display())),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!out_dir.exists(), "generate created {}", out_dir.display());

    // An output folder with older files stays byte-identical.
    fs::create_dir_all(&out_dir).expect("create out");
    fs::write(out_dir.join("bridge.rs"), "// an older bridge.rs\n").expect("write");
    fs::write(out_dir.join("demo.rs"), "// an older demo.rs\n").expect("write");
    let before = dir_state(&out_dir);
    for command in ["generate", "check"] {
        let out = codegen(&[
            command,
            "--schema",
            path_arg(&bad),
            "--out",
            path_arg(&out_dir),
        ]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(stderr(&out).contains(":12:3: error:"), "{command}");
        assert!(out.stdout.is_empty(), "{command}: {}", stdout(&out));
        assert_eq!(dir_state(&out_dir), before, "{command} touched the folder");
    }

    let out = codegen(&["layout", "--schema", path_arg(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(":12:3: error:"));
}

/// An output path that cannot be a folder is named in the error: a regular file, or a
/// folder under one.
#[test]
fn unwritable_output_names_the_path() {
    let dir = temp_dir("unwritable");
    let file = dir.join("taken.txt");
    fs::write(&file, "not a folder\n").expect("write");
    for out_dir in [file.clone(), file.join("sub")] {
        let out = codegen(&[
            "generate",
            "--schema",
            path_arg(&bridge_schema()),
            "--out",
            path_arg(&out_dir),
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("error: cannot write {}: ", out_dir.display())),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{}", stdout(&out));
    }
    assert_eq!(fs::read_to_string(&file).expect("read"), "not a folder\n");
}

/// `--color always` colours the diagnostics even into a pipe, whatever NO_COLOR says;
/// `never` and the default (auto: stderr is a pipe here) do not.
#[test]
fn color_option_colours_diagnostics() {
    let bad = workspace().join("tests/fixtures/errors/gap_between_fields.toml");
    let run = |color: Option<&str>, no_color: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_abi-codegen"));
        cmd.args(["layout", "--schema", path_arg(&bad)]);
        if let Some(c) = color {
            cmd.args(["--color", c]);
        }
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let out = cmd.output().expect("the codegen binary runs");
        assert_eq!(out.status.code(), Some(1));
        stderr(&out)
    };
    let always = run(Some("always"), false);
    assert!(always.contains("\u{1b}["), "{always}");
    assert_eq!(run(Some("always"), true), always);
    for (color, no_color) in [(Some("never"), false), (None, false), (None, true)] {
        let err = run(color, no_color);
        assert!(!err.contains('\u{1b}'), "{color:?}: {err}");
        assert!(err.contains(":12:3: error:"), "{err}");
    }
}

#[test]
fn unreadable_schema_exits_2() {
    let dir = temp_dir("unreadable");
    let missing = dir.join("no-such-schema.toml");
    let out_dir = dir.join("out");
    for command in ["generate", "check"] {
        let out = codegen(&[
            command,
            "--schema",
            path_arg(&missing),
            "--out",
            path_arg(&out_dir),
        ]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = stderr(&out);
        assert!(err.contains("cannot read"), "{command}: {err}");
        assert!(err.contains("no-such-schema.toml"), "{command}: {err}");
        assert!(!out_dir.exists());
    }
    let out = codegen(&["layout", "--schema", path_arg(&missing)]);
    assert_eq!(out.status.code(), Some(2));

    // A folder where the schema should be cannot be read either.
    let out = codegen(&["layout", "--schema", path_arg(&dir)]);
    assert_eq!(out.status.code(), Some(2));

    // Bytes that are not UTF-8 are not a schema.
    let binary = dir.join("binary.toml");
    fs::write(&binary, [0xff, 0xfe, 0x00, 0x80]).expect("write");
    let out = codegen(&["layout", "--schema", path_arg(&binary)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `--version` names the program and its version; `completions SHELL` prints a script the
/// shell accepts, offering every command.
#[test]
fn version_and_completions() {
    let version = codegen(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        stdout(&version),
        format!("abi-codegen {}\n", env!("CARGO_PKG_VERSION"))
    );
    let bash = codegen(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0), "{}", stderr(&bash));
    let script = stdout(&bash);
    for command in [
        "generate",
        "check",
        "layout",
        "inspect",
        "diff",
        "render",
        "schema-json",
        "completions",
    ] {
        assert!(
            script.contains(command),
            "no `{command}` in the bash script"
        );
    }
    let dir = temp_dir("completions");
    let path = dir.join("abi-codegen.bash");
    fs::write(&path, script).expect("write the script");
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .expect("bash is needed for this test");
    assert!(syntax.status.success(), "{}", stderr(&syntax));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = codegen(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        assert!(stdout(&out).contains("abi-codegen"), "{shell}");
    }
}

/// A `[[template]]` target: generate writes it (in a subfolder), check finds it stale, a
/// template error names the template's file and line and writes nothing, and a template
/// that cannot be read is a schema error at its `path`.
#[test]
fn user_templates_are_targets() {
    let dir = temp_dir("templates");
    fs::create_dir_all(dir.join("t")).expect("template folder");
    let schema = dir.join("schema.toml");
    let out = dir.join("out");
    let base = "[abi]\nname = \"demo\"\nversion = \"0.1\"\nc_prefix = \"demo\"\nbyte_order = \"little\"\n\n[[struct]]\nname = \"point\"\nfields = [{ name = \"x\", type = \"u32\" }, { name = \"y\", type = \"u16\" }, { name = \"_pad6\", type = \"u8[2]\" }]\n";
    let with_template =
        format!("{base}\n[[template]]\npath = \"t/sizes.txt.j2\"\noutput = \"text/sizes.txt\"\n");
    fs::write(&schema, &with_template).expect("write the schema");
    let template = dir.join("t/sizes.txt.j2");
    fs::write(
        &template,
        "# {{ generated_line }}\n{% for s in structs %}\n{{ s.name | pascal_case }}: {{ s.size }} bytes{% for f in s.fields %}, {{ f.name }} at {{ f.offset | hex }}{% endfor +%}\n{% endfor %}\n",
    )
    .expect("write the template");
    let (schema_arg, out_arg) = (schema.to_str().unwrap(), out.to_str().unwrap());
    let generate = ["generate", "--schema", schema_arg, "--out", out_arg];
    let check = ["check", "--schema", schema_arg, "--out", out_arg];
    let first = codegen(&generate);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(
        fs::read_to_string(out.join("text/sizes.txt")).expect("the template's output"),
        "# generated from schema.toml; do not edit\nPoint: 8 bytes, x at 0x0, y at 0x4, _pad6 at 0x6\n"
    );
    assert_eq!(codegen(&check).status.code(), Some(0));
    fs::write(out.join("text/sizes.txt"), "edited\n").expect("edit the output");
    let stale = codegen(&check);
    assert_eq!(stale.status.code(), Some(1));
    assert!(stderr(&stale).contains("sizes.txt"), "{}", stderr(&stale));
    assert_eq!(codegen(&generate).status.code(), Some(0));

    // A template error: exit 1, the template's path and line, nothing written.
    fs::write(&template, "line one\n{{ structs[0].nope }}\n").expect("break the template");
    let before = fs::read(out.join("demo.rs")).expect("demo.rs");
    fs::write(&schema, format!("{with_template}# changed\n")).expect("touch the schema");
    let broken = codegen(&generate);
    assert_eq!(broken.status.code(), Some(1));
    let err = stderr(&broken);
    assert!(
        err.starts_with(&format!("{}:2: error: undefined value", template.display())),
        "{err}"
    );
    assert_eq!(fs::read(out.join("demo.rs")).expect("demo.rs"), before);

    // A template that is not there: a schema error at its path.
    fs::write(
        &schema,
        with_template.replace("t/sizes.txt.j2", "t/missing.j2"),
    )
    .expect("write");
    let missing = codegen(&generate);
    assert_eq!(missing.status.code(), Some(1));
    let err = stderr(&missing);
    let line = with_template
        .lines()
        .position(|l| l.starts_with("path = "))
        .expect("the path line")
        + 1;
    assert!(
        err.starts_with(&format!(
            "{schema_arg}:{line}:9: error: template `t/missing.j2`: cannot read it"
        )),
        "{err}"
    );
}

/// Words of the bridge, this repository's own schema, that no other schema's outputs may
/// hold (issue 28): its names, its file format, its documents' paths.
const BRIDGE_WORDS: [&str; 8] = [
    "bridge",
    "client_blocks",
    "pad_input",
    "snapshot",
    "ibfrec",
    "ibf_",
    "ring_slots",
    "codegen/ATTACH.md",
];

/// Every output of three schemas unlike the bridge (a handshake with layouts, every protocol
/// kind, the consumer crate's telemetry), and the help of every command, mention nothing of
/// the bridge: what is generated comes from the schema, or is neutral.
#[test]
fn other_schemas_outputs_and_the_help_hold_nothing_of_the_bridge() {
    let out = temp_dir("no-bridge");
    let mut seen = 0;
    for fixture in [
        "tests/fixtures/attach/demo.toml",
        "tests/fixtures/protocols/demo.toml",
        "tests/consumer/schema.toml",
    ] {
        let dir = out.join(fixture.replace('/', "_"));
        let schema = workspace().join(fixture);
        let o = codegen(&[
            "generate",
            "--schema",
            path_arg(&schema),
            "--out",
            path_arg(&dir),
        ]);
        assert!(o.status.success(), "{fixture}: {}", stderr(&o));
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = fs::read_to_string(&path).unwrap().to_lowercase();
            for word in BRIDGE_WORDS {
                let word = word.to_lowercase();
                if let Some(at) = text.find(&word) {
                    let line = text[..at].lines().count().max(1);
                    panic!("{} line {line} holds `{word}`", path.display());
                }
            }
            seen += 1;
        }
    }
    assert!(seen >= 15, "five outputs a schema, {seen} read");
    for command in ["generate", "check", "layout", "diff", "inspect"] {
        let help = stdout(&codegen(&[command, "--help"])).to_lowercase();
        assert!(help.len() > 100, "{command} --help");
        for word in BRIDGE_WORDS {
            assert!(
                !help.contains(&word.to_lowercase()),
                "`{command} --help` holds `{word}`"
            );
        }
    }
}
