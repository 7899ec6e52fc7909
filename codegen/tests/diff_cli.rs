//! `abi-codegen diff` through the binary: exit codes (0 policy holds, 1 it does not, 2 unreadable
//! input or schema errors; the bits of `--exit-bits`), the output formats, and `--base` against a git repository made
//! in a temporary folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_abi-codegen");
const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn repo_file(relative: &str) -> PathBuf {
    Path::new(REPO).join(relative)
}

fn old_08() -> PathBuf {
    repo_file("tests/fixtures/diff/bridge-0.8.toml")
}

fn schema_09() -> PathBuf {
    repo_file("schema.toml")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A fresh folder for one test under Cargo's temporary folder for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diff_cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("run codegen")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("codegen exits with a code")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// schema.toml with `match.round_state` and `match.rounds_to_win` swapped: both move.
fn broken_09() -> String {
    let src = read(&schema_09());
    let a = "  { name = \"rounds_to_win\", type = \"u8\", doc = \"Versus: round wins that take the match\" },\n";
    let b = "  { name = \"round_state\", type = \"round_state\" },\n";
    assert_eq!(
        src.matches(&format!("{a}{b}")).count(),
        1,
        "schema.toml changed; update this test"
    );
    src.replace(&format!("{a}{b}"), &format!("{b}{a}"))
}

fn path_arg(p: &Path) -> &str {
    p.to_str().expect("UTF-8 paths")
}

#[test]
fn the_real_0_8_to_0_9_change_obeys_the_policy() {
    let out = run(
        Path::new(REPO),
        &["diff", path_arg(&old_08()), path_arg(&schema_09())],
    );
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(
        text.contains("10 changes: 10 compatible (and 1 effect)"),
        "{text}"
    );
    assert!(text.contains("the version policy holds"), "{text}");
    assert!(
        !text.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn a_moved_field_without_a_major_bump_exits_1() {
    let dir = scratch("moved");
    std::fs::write(dir.join("schema.toml"), broken_09()).unwrap();
    let out = run(&dir, &["diff", path_arg(&old_08()), "schema.toml"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}{}", stderr(&out));
    assert!(text.contains("match.round_state: field moved"), "{text}");
    assert!(
        text.contains("a major bump is needed (version = \"1.0\")"),
        "{text}"
    );
}

#[test]
fn every_format_reports_the_same_verdict() {
    let (old, new) = (old_08(), schema_09());
    let args = |format| vec!["diff", "--format", format, path_arg(&old), path_arg(&new)];
    let out = run(Path::new(REPO), &args("markdown"));
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("✅ **ABI diff of `bridge` 0.8 → 0.9**"));
    let out = run(Path::new(REPO), &args("json"));
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("\"required_bump\": \"minor\""));
    let out = run(Path::new(REPO), &args("github"));
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out)
            .lines()
            .all(|l| l.starts_with("::notice file="))
    );
    let out = run(Path::new(REPO), &args("text"));
    assert_eq!(code(&out), 0);

    let dir = scratch("formats");
    std::fs::write(dir.join("schema.toml"), broken_09()).unwrap();
    let out = run(
        &dir,
        &[
            "diff",
            "--format",
            "github",
            path_arg(&old_08()),
            "schema.toml",
        ],
    );
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("::error file=schema.toml,line="));
}

#[test]
fn unreadable_input_exits_2() {
    let dir = scratch("unreadable");
    let out = run(&dir, &["diff", "missing.toml", path_arg(&schema_09())]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("cannot read missing.toml"),
        "{}",
        stderr(&out)
    );

    let out = run(&dir, &["diff", path_arg(&schema_09())]);
    assert_eq!(code(&out), 2, "one schema without --base");
    assert!(
        stderr(&out).contains("give two schemas"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn schema_errors_exit_2_and_print_as_generate_does() {
    let fixture = repo_file("tests/fixtures/diff/extensible_embedded");
    let out = run(&fixture, &["diff", "old.toml", "new.toml"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let err = stderr(&out);
    let line = read(&fixture.join("new.toml"))
        .lines()
        .position(|l| l == "extensible = true")
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!(
            "new.toml:{line}:14: error: struct `item` is marked extensible but `header.items` embeds it"
        )),
        "{err}"
    );
    assert!(
        err.contains("1 error in new.toml; nothing was written"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
}

/// Runs git in `dir` with a fixed identity, so that it works on a clean CI machine. Git is
/// required: a missing git fails the test.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "diff test")
        .env("GIT_AUTHOR_EMAIL", "diff@example.invalid")
        .env("GIT_COMMITTER_NAME", "diff test")
        .env("GIT_COMMITTER_EMAIL", "diff@example.invalid")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap_or_else(|e| panic!("this test needs git on PATH, and running it failed: {e}"));
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository whose last commit has the 0.8 schema as schema.toml.
fn repo_at_0_8(name: &str) -> PathBuf {
    let dir = scratch(name);
    git(&dir, &["init", "--quiet"]);
    std::fs::write(dir.join("schema.toml"), read(&old_08())).unwrap();
    git(&dir, &["add", "schema.toml"]);
    git(&dir, &["commit", "--quiet", "-m", "bridge ABI 0.8"]);
    dir
}

#[test]
fn base_reads_the_old_schema_from_git() {
    let dir = repo_at_0_8("base");
    std::fs::write(dir.join("schema.toml"), read(&schema_09())).unwrap();

    // schema.toml is the default.
    let out = run(&dir, &["diff", "--base", "HEAD"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(
        text.starts_with(
            "ABI diff: bridge 0.8 (HEAD:schema.toml) → 0.9 (schema.toml): 10 changes: 10 compatible (and 1 effect)\nOK: "
        ),
        "{text}"
    );

    // A path from outside the repository works too.
    let outside = scratch("base-outside");
    let absolute = dir.join("schema.toml");
    let out = run(&outside, &["diff", "--base", "HEAD", path_arg(&absolute)]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));

    // Break it: exit 1.
    std::fs::write(dir.join("schema.toml"), broken_09()).unwrap();
    let out = run(&dir, &["diff", "--base", "HEAD", "schema.toml"]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("match.rounds_to_win: field moved"));
}

#[test]
fn base_with_an_unknown_revision_exits_2() {
    let dir = repo_at_0_8("base-unknown");
    let out = run(&dir, &["diff", "--base", "no-such-branch", "schema.toml"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("cannot read schema.toml at revision no-such-branch"),
        "{err}"
    );

    let out = run(&dir, &["diff", "--base", "HEAD", "a.toml", "b.toml"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("with --base, give at most one schema"));
}

#[test]
fn base_outside_a_git_repository_says_so_and_how_to_compare_files() {
    let dir = scratch("base-no-repo");
    std::fs::copy(schema_09(), dir.join("schema.toml")).unwrap();
    // Git looks no higher than the scratch folder: as in a folder outside any repository.
    let out = Command::new(BIN)
        .args(["diff", "--base", "main"])
        .current_dir(&dir)
        .env("GIT_CEILING_DIRECTORIES", dir.parent().unwrap())
        .output()
        .expect("run codegen");
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("is not in a git repository"), "{err}");
    assert!(
        err.contains("to compare two files, run `abi-codegen diff OLD.toml NEW.toml`"),
        "{err}"
    );
}

#[test]
fn schema_names_the_new_schema_as_everywhere_else() {
    let out = run(
        Path::new(REPO),
        &[
            "diff",
            path_arg(&old_08()),
            "--schema",
            path_arg(&schema_09()),
        ],
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("0.8 (") && stdout(&out).contains("→ 0.9 ("));

    let dir = repo_at_0_8("base-schema-flag");
    std::fs::write(dir.join("schema.toml"), read(&schema_09())).unwrap();
    let out = run(&dir, &["diff", "--base", "HEAD", "--schema", "schema.toml"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));

    let out = run(
        &dir,
        &["diff", "--schema", "schema.toml", "a.toml", "b.toml"],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("give two schemas"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_schema_the_base_lacks_is_a_new_abi() {
    let dir = repo_at_0_8("base-new-schema");
    std::fs::write(dir.join("new.toml"), read(&schema_09())).unwrap();
    let out = run(&dir, &["diff", "--base", "HEAD", "new.toml"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(
        text.starts_with("New ABI: bridge 0.9 (new.toml), not in HEAD:new.toml: a new ABI\nOK: "),
        "{text}"
    );
    // Named with --base-schema, a path the base lacks is an error: the user said it is there.
    let out = run(
        &dir,
        &[
            "diff",
            "--base",
            "HEAD",
            "--base-schema",
            "gone.toml",
            "new.toml",
        ],
    );
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stderr(&out).contains("cannot read gone.toml at revision HEAD"));
}

#[test]
fn base_schema_follows_a_renamed_schema() {
    let dir = repo_at_0_8("base-renamed");
    git(&dir, &["mv", "schema.toml", "bridge.toml"]);
    std::fs::write(dir.join("bridge.toml"), read(&schema_09())).unwrap();
    let out = run(
        &dir,
        &[
            "diff",
            "--base",
            "HEAD",
            "--base-schema",
            "schema.toml",
            "bridge.toml",
        ],
    );
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(
        text.starts_with("ABI diff: bridge 0.8 (HEAD:schema.toml) → 0.9 (bridge.toml)"),
        "{text}"
    );
    // --base-schema only makes sense with --base.
    let out = run(
        &dir,
        &["diff", "--base-schema", "schema.toml", "bridge.toml"],
    );
    assert_eq!(code(&out), 2, "{}", stdout(&out));
}

#[test]
fn github_format_writes_the_job_summary() {
    let dir = scratch("step-summary");
    std::fs::write(dir.join("schema.toml"), broken_09()).unwrap();
    let summary = dir.join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let out = Command::new(BIN)
        .args([
            "diff",
            "--format",
            "github",
            path_arg(&old_08()),
            "schema.toml",
        ])
        .current_dir(&dir)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .expect("run codegen");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let annotations = stdout(&out);
    let lines: Vec<&str> = annotations.lines().collect();
    assert!(!lines.is_empty() && lines.len() <= 10, "{annotations}");
    assert!(
        lines[0].contains("title=ABI version policy violated::"),
        "{annotations}"
    );
    let text = read(&summary);
    assert!(
        text.starts_with("earlier step\n<!-- abi-codegen diff -->\n❌ "),
        "{text}"
    );
    assert!(text.contains("`match.round_state`"), "{text}");
}

/// `diff --rules` prints every rule; codegen/README.md's table of rules is its markdown output,
/// byte for byte, between its markers.
#[test]
fn rules_table_in_the_readme_is_diff_rules() {
    let dir = scratch("rules");
    let out = run(&dir, &["diff", "--rules", "--format", "markdown"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let table = stdout(&out);
    let readme = read(&repo_file("codegen/README.md"));
    let (begin, end) = ("<!-- diff-rules:begin -->\n", "<!-- diff-rules:end -->");
    let start = readme
        .find(begin)
        .expect("the README has the rules' begin marker")
        + begin.len();
    let stop = readme[start..].find(end).expect("and their end marker") + start;
    assert_eq!(
        &readme[start..stop],
        table,
        "codegen/README.md's rules are stale: paste the output of\n\
         cargo run -q -p abi-codegen -- diff --rules --format markdown"
    );
    for id in [
        "ACCESS_ATOMIC_TO_PLAIN",
        "LAYOUT_ROW_ADDED",
        "SEQLOCK_PARTIES_CHANGED",
    ] {
        assert!(table.contains(&format!("| `{id}` |")), "{table}");
    }
    // Text: one block per rule, with its example and its fix.
    let out = run(&dir, &["diff", "--rules"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "ACCESS_ATOMIC_TO_PLAIN (ACCESS, breaking)\n    why:    a writer built at the new version stores it without release"
        ),
        "{text}"
    );
    assert_eq!(
        text.matches("\n    fix:    ").count(),
        table.lines().count() - 2
    );
    // JSON: one object per rule, in the table's order.
    let out = run(&dir, &["diff", "--rules", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rules: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let rules = rules.as_array().expect("an array");
    assert_eq!(rules.len(), table.lines().count() - 2);
    let atomic = rules
        .iter()
        .find(|r| r["id"] == "ACCESS_ATOMIC_TO_PLAIN")
        .expect("the rule");
    assert_eq!(
        (&atomic["category"], &atomic["class"], &atomic["kind"]),
        (
            &serde_json::json!("ACCESS"),
            &serde_json::json!("breaking"),
            &serde_json::json!("access_atomic_to_plain")
        )
    );
    // With a schema, --rules is a usage error.
    let out = run(&dir, &["diff", "--rules", "a.toml", "b.toml"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

/// `--exit-bits`, as libabigail's abidiff: a tool error (1) and a usage error (2) apart from
/// the schemas' changes (4), a breaking one (8), and the policy not holding (16).
#[test]
fn exit_bits_keep_tool_errors_apart_from_abi_breaks() {
    let dir = scratch("exit-bits");
    let schema = schema_09();
    let old = old_08();
    let same = path_arg(&schema);
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, broken_09()).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[abi]\nname = 3\n").unwrap();
    let bits = |args: &[&str]| {
        let mut all = vec!["diff", "--exit-bits"];
        all.extend_from_slice(args);
        code(&run(&dir, &all))
    };
    // No change at all.
    assert_eq!(bits(&[same, same]), 0);
    // 0.8 → 0.9: changes, and the policy holds.
    let real = bits(&[path_arg(&old), same]);
    assert_eq!(real & (1 | 2 | 16), 0, "{real}");
    assert_eq!(real & 4, 4, "{real}");
    // Two fields swapped at the same version: changed, breaking, the policy broken.
    assert_eq!(bits(&[same, path_arg(&broken)]), 4 | 8 | 16);
    // A schema with errors, a missing file: the tool failed, nothing else is said.
    assert_eq!(bits(&[same, path_arg(&bad)]), 1);
    assert_eq!(bits(&[same, "missing.toml"]), 1);
    // Three schemas: a usage error.
    assert_eq!(bits(&[same, same, same]), 2);
    // Without the flag, the codes stay 0, 1 and 2.
    assert_eq!(code(&run(&dir, &["diff", same, path_arg(&broken)])), 1);
    assert_eq!(code(&run(&dir, &["diff", same, path_arg(&bad)])), 2);
}
