//! The diff step of .github/workflows/abi.yml, run locally: tests/workflow/abi-diff-step.sh
//! builds a scratch git repository with a base and a head commit, runs the step's commands
//! as the workflow file writes them, and checks the job summary and the annotations (at
//! most 10, the verdict first). Needs bash and git: a missing one fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_abi-codegen");
const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn read(relative: &str) -> String {
    let path = Path::new(REPO).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn replace_once(src: &str, from: &str, to: &str) -> String {
    assert_eq!(
        src.matches(from).count(),
        1,
        "schema.toml changed; update this test: {from:?}"
    );
    src.replacen(from, to, 1)
}

/// What the step did: its exit code, its annotations (stdout) and the job summary.
struct Step {
    exit: i32,
    annotations: String,
    summary: String,
}

/// Runs the step with `base` and `head` as schema.toml's two commits; panics when the
/// script's own checks fail.
fn run_step(name: &str, base: &str, head: &str) -> Step {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diff_workflow-{name}"));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("a scratch folder");
    let inputs: PathBuf = work.with_extension("inputs");
    std::fs::create_dir_all(&inputs).expect("a scratch folder");
    let (b, h) = (inputs.join("base.toml"), inputs.join("head.toml"));
    std::fs::write(&b, base).unwrap();
    std::fs::write(&h, head).unwrap();
    let script = Path::new(REPO).join("tests/workflow/abi-diff-step.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(BIN)
        .arg(&b)
        .arg(&h)
        .arg(&work)
        .output()
        .unwrap_or_else(|e| panic!("this test needs bash on PATH, and running it failed: {e}"));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    assert!(
        out.status.success(),
        "{} failed:\n{}{}",
        script.display(),
        text(&out.stdout),
        text(&out.stderr)
    );
    let file =
        |n: &str| std::fs::read_to_string(work.join(n)).unwrap_or_else(|e| panic!("{n}: {e}"));
    Step {
        exit: file("step-exit").trim().parse().expect("an exit code"),
        annotations: file("annotations.txt"),
        summary: file("summary.md"),
    }
}

/// schema.toml with a field inserted in the middle of `client_entry`, and no version bump.
fn inserted_field() -> String {
    let src = read("schema.toml");
    let c = "  { name = \"connected_ns\", type = \"u64\", writer = \"client\", doc = \"Host clock at the claim\" },\n";
    let src = replace_once(
        &src,
        c,
        &format!("{c}  {{ name = \"latency_us\", type = \"u64\", writer = \"client\" }},\n"),
    );
    let at = src
        .find("name = \"client_entry\"\nwriter")
        .expect("client_entry");
    let (head, tail) = src.split_at(at);
    let tail = replace_once(tail, "size = 128\n", "size = 136\n");
    replace_once(&format!("{head}{tail}"), "size = 1304\n", "size = 1368\n")
}

#[test]
fn a_breaking_pull_request_fails_with_the_verdict_first() {
    let step = run_step("breaking", &read("schema.toml"), &inserted_field());
    assert_eq!(step.exit, 1, "{}", step.annotations);
    let lines: Vec<&str> = step.annotations.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "the verdict and one root cause: {}",
        step.annotations
    );
    assert!(lines[0].contains("title=ABI version policy violated::"));
    assert!(lines[1].contains("::client_entry.latency_us: field inserted"));
    assert!(
        step.summary
            .contains("| `client_entry.latency_us` | field inserted `FIELD_ADDED` |")
    );
    // 10 in the structs, and the `bridge` layout's header row, which needs 64 more bytes.
    assert!(step.summary.contains("<summary>11 effects</summary>"));
}

#[test]
fn the_real_0_8_to_0_9_pull_request_passes() {
    let step = run_step(
        "history",
        &read("tests/fixtures/diff/bridge-0.8.toml"),
        &read("schema.toml"),
    );
    assert_eq!(step.exit, 0, "{}", step.annotations);
    assert!(
        step.annotations
            .starts_with("::notice file=schema.toml,line=")
    );
    assert!(
        step.summary
            .contains("✅ **ABI diff of `bridge` 0.8 → 0.9**")
    );
}

/// More root causes than annotations: 10 lines, and the verdict counts the rest.
#[test]
fn many_changes_keep_to_10_annotations() {
    let base = read("schema.toml");
    // Every `since` dropped: one change per item that had one. Cosmetic, but for the fields
    // of the structs with a version handshake, where `since` says which producers write
    // them (HANDSHAKE_SINCE_CHANGED, breaking).
    let head = (1..=9).fold(base.clone(), |src, minor| {
        src.replace(&format!(", since = \"0.{minor}\""), "")
    });
    let step = run_step("many", &base, &head);
    assert_eq!(
        step.exit, 1,
        "a handshake's since is no documentation: {}",
        step.annotations
    );
    assert!(
        step.annotations
            .contains("title=ABI breaking change HANDSHAKE_SINCE_CHANGED::bridge_header.controls: since changed"),
        "{}",
        step.annotations
    );
    assert_eq!(step.annotations.lines().count(), 10, "{}", step.annotations);
    assert!(
        step.annotations
            .lines()
            .next()
            .unwrap()
            .contains("not annotated here")
    );
}

/// docs/reviewing-changes.md's "The pull-request workflow" shows the diff step as abi.yml has it.
#[test]
fn the_readme_shows_the_workflow_diff_step() {
    let workflow = read(".github/workflows/abi.yml");
    let start = workflow
        .find("      - name: ABI diff against the base")
        .expect("the diff step");
    let step: Vec<String> = workflow[start..]
        .lines()
        .take_while(|l| !l.starts_with("      - name: Tests"))
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.strip_prefix("      ").unwrap_or(l).to_string())
        .collect();
    let readme = read("docs/reviewing-changes.md");
    let section = readme
        .find("### The pull-request workflow")
        .expect("the docs/reviewing-changes.md section");
    let block = &readme[section..];
    let block = &block[block.find("```yaml\n").expect("a yaml block") + 8..];
    let block = &block[..block.find("```").expect("the block's end")];
    let shown: Vec<&str> = block.lines().collect();
    assert_eq!(
        shown, step,
        "docs/reviewing-changes.md's diff step differs from abi.yml's"
    );
}
