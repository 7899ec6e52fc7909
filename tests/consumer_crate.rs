//! The generator as another team uses it: `tests/consumer/` is a crate outside this
//! workspace, with its own small schema, whose build script is one `abi_codegen::Builder`
//! call. It is copied to a temporary folder (its path dependencies made absolute, nothing
//! else of this workspace visible), built and tested with cargo; then a copy with a schema
//! mistake must fail to build with the generator's diagnostics in cargo's output.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of `tests/consumer` in a fresh folder named `name`, as package `package`, with
/// `edit` applied to its schema. Its Cargo.lock is this workspace's, so it resolves the same versions.
fn copy_consumer(name: &str, package: &str, edit: impl FnOnce(String) -> String) -> PathBuf {
    let from = root().join("tests/consumer");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    for sub in ["src", "tests"] {
        fs::create_dir_all(dir.join(sub)).expect("create the consumer's folders");
    }
    for file in ["build.rs", "src/lib.rs", "tests/bindings.rs"] {
        fs::copy(from.join(file), dir.join(file)).expect("copy a consumer file");
    }
    let schema = fs::read_to_string(from.join("schema.toml")).expect("read the consumer schema");
    fs::write(dir.join("schema.toml"), edit(schema)).expect("write the schema");
    let manifest = fs::read_to_string(from.join("Cargo.toml")).expect("read its Cargo.toml");
    let absolute = format!("path = \"{}/", root().display());
    assert!(manifest.contains("path = \"../../"), "{manifest}");
    // Cargo leaves a root package's path out of its build hash: two copies that share a
    // target folder need names of their own, or one would reuse the other's build.
    assert!(manifest.contains("name = \"telemetry\"\n"), "{manifest}");
    let manifest = manifest
        .replace("path = \"../../", &absolute)
        .replace("name = \"telemetry\"\n", &format!("name = \"{package}\"\n"));
    fs::write(dir.join("Cargo.toml"), manifest).expect("write Cargo.toml");
    fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    dir
}

/// `cargo ARGS` in `dir`, with a target folder of its own that the two copies share (the
/// dependencies build once).
fn cargo(dir: &Path, args: &[&str]) -> Output {
    common::tools::cargo_outside(
        dir,
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("consumer-target"),
        args,
    )
}

fn text(output: &Output) -> String {
    common::tools::output_text(output)
}

#[test]
fn an_outside_crate_builds_through_the_builder() {
    let dir = copy_consumer("consumer-ok", "telemetry", |s| s);
    let out = cargo(&dir, &["test", "--quiet"]);
    let all = text(&out);
    assert!(out.status.success(), "the consumer crate failed:\n{all}");
    // Its own tests ran: the layout and the seqlock round trip.
    assert!(all.contains("test result: ok. 2 passed"), "{all}");
    // The build script wrote the bindings into OUT_DIR, named after the ABI, and they say
    // what they need.
    // This package's build script's OUT_DIR (target/debug/build/telemetry-HASH/out): the
    // other consumers share the target folder and may write a telemetry.rs of their own.
    let own = |p: &Path| {
        let dir = p.parent().and_then(Path::parent).and_then(Path::file_name);
        dir.and_then(|d| d.to_str()?.strip_prefix("telemetry-"))
            .is_some_and(|hash| hash.chars().all(|c| c.is_ascii_hexdigit()))
    };
    let generated = walk(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("consumer-target"))
        .into_iter()
        .find(|p| p.ends_with("out/telemetry.rs") && own(p))
        .expect("telemetry.rs in the build script's OUT_DIR");
    let rust = fs::read_to_string(generated).expect("read telemetry.rs");
    assert!(
        rust.starts_with("// generated from schema.toml; do not edit\n"),
        "{}",
        &rust[..200.min(rust.len())]
    );
    assert!(
        rust.contains("//   abi-runtime = \"0.1\"\n"),
        "{}",
        &rust[..400]
    );
}

#[test]
fn a_schema_mistake_fails_the_build_with_the_diagnostics() {
    let dir = copy_consumer("consumer-error", "telemetry-broken", |s| {
        let broken = s.replace(
            r#"{ name = "tick", type = "u64" }"#,
            r#"{ name = "tick", type = "u46" }"#,
        );
        assert_ne!(broken, s, "the edit applies");
        broken
    });
    let line = fs::read_to_string(dir.join("schema.toml"))
        .expect("read the broken schema")
        .lines()
        .position(|l| l.contains("\"u46\""))
        .expect("the broken line")
        + 1;
    let out = cargo(&dir, &["build", "--quiet"]);
    let all = text(&out);
    assert!(!out.status.success(), "a broken schema built:\n{all}");
    // cargo::error: cargo prints the headline as an error of its own, after the package.
    let headline = format!(
        "telemetry-broken@0.1.0: schema.toml:{line}:28: field `frame.tick`: unknown type `u46`"
    );
    assert!(
        all.lines()
            .any(|l| l.starts_with("error: ") && l.ends_with(&headline)),
        "no error line `{headline}` in:\n{all}"
    );
    assert!(all.contains("unknown type `u46`"), "{all}");
    // The full diagnostics, as `abi-codegen generate` prints them: the line and a caret.
    assert!(all.contains(r#"{ name = "tick", type = "u46" }"#), "{all}");
    assert!(all.contains("^^^"), "{all}");
    assert!(all.contains("1 error in schema.toml"), "{all}");
}

/// A schema whose generated Rust needs an abi-runtime feature the crate did not enable (a
/// `[[file]]` with encoded records needs `recording`; the consumer names abi-runtime without
/// features): the build fails, and its first error names the feature and the line to write,
/// from the `compile_error!` of `abi_runtime::require_recording!()` in the generated module.
#[test]
fn a_missing_runtime_feature_is_named_by_the_build() {
    let recording = fs::read_to_string(root().join("tests/fixtures/recording/sensor_log.toml"))
        .expect("read the recording fixture");
    let dir = copy_consumer("consumer-feature", "telemetry-recording", |_| {
        let renamed = recording.replace("name = \"demo\"\n", "name = \"telemetry\"\n");
        assert_ne!(renamed, recording, "the edit applies");
        renamed
    });
    let out = cargo(&dir, &["build", "--quiet"]);
    let all = text(&out);
    assert!(!out.status.success(), "built without the feature:\n{all}");
    let first = all
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or_else(|| panic!("no error in:\n{all}"));
    assert_eq!(
        first,
        "error: the generated bindings read and write recordings (a [[file]] with encoded records): \
         enable abi-runtime's `recording` feature in Cargo.toml: \
         abi-runtime = { version = \"0.1\", features = [\"recording\"] }",
        "\n{all}"
    );
}

/// docs/schema.md's "Use it in your own project" shows what this consumer does: its build.rs call
/// is the consumer's, its dependency lines are the consumer's (with versions for paths),
/// and its minimal schema loads.
#[test]
fn the_readme_shows_what_the_consumer_does() {
    let section = "## Use it in your own project";
    let build = common::readme::block_after("docs/schema.md", section, "rust,ignore");
    let consumer_build =
        fs::read_to_string(root().join("tests/consumer/build.rs")).expect("read build.rs");
    assert!(
        consumer_build.contains(build.trim()),
        "docs/schema.md:\n{build}\nconsumer:\n{consumer_build}"
    );
    let manifest =
        fs::read_to_string(root().join("tests/consumer/Cargo.toml")).expect("read Cargo.toml");
    let toml_block = common::readme::block_after("docs/schema.md", section, "toml");
    for line in toml_block
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(" = "))
    {
        let name = line.split(" = ").next().expect("a key");
        let ours = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("the consumer has no `{name}` dependency"));
        // The consumer names paths where the guide names versions.
        let as_published = ours
            .replace(r#"{ path = "../../runtime" }"#, r#""0.1""#)
            .replace(r#"path = "../../codegen""#, r#"version = "0.1""#);
        assert_eq!(
            as_published, line,
            "docs/schema.md and tests/consumer/Cargo.toml differ"
        );
    }
    // The src/lib.rs line is the consumer's.
    let include = common::readme::block_after(
        "docs/schema.md",
        "`src/lib.rs`, for a schema",
        "rust,ignore",
    );
    let consumer_lib =
        fs::read_to_string(root().join("tests/consumer/src/lib.rs")).expect("read lib.rs");
    assert!(
        consumer_lib.contains(include.trim()),
        "docs:\n{include}\nconsumer:\n{consumer_lib}"
    );
    let readme = common::readme::doc("docs/schema.md");
    let rest = &readme[readme.find(section).expect("the section")..];
    let schema_at = rest.find("A minimal schema:").expect("the minimal schema");
    let schema = common::readme::block_after("docs/schema.md", "A minimal schema:", "toml");
    assert!(rest[schema_at..].contains(&schema));
    abi_codegen::load_schema(&schema).expect("docs/schema.md's minimal schema loads");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}

/// The requirement the generated Rust names for abi-runtime accepts the runtime of this
/// workspace.
#[test]
fn the_named_runtime_requirement_matches_the_runtime() {
    let manifest =
        fs::read_to_string(root().join("runtime/Cargo.toml")).expect("runtime/Cargo.toml");
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("a version line");
    let requirement = abi_codegen::testing::language_backend::rust::RUNTIME_REQUIREMENT;
    // A caret requirement `0.1` accepts 0.1.x.
    assert!(
        version.starts_with(&format!("{requirement}.")),
        "abi-runtime is {version}; the generated Rust asks for {requirement}"
    );
}
