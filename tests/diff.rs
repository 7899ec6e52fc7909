//! `abi-codegen diff` through the library: one fixture pair per classification rule
//! (`tests/fixtures/diff/<rule>/old.toml` and `new.toml`), each with the exact changes it
//! must report and a snapshot of its text report; the real 0.8 → 0.9 history of the bridge
//! ABI, and the same history broken on purpose; the JSON, markdown and GitHub formats.
//! Exit codes and `--base` are tested through the binary, in codegen/tests/diff_cli.rs.

use abi_codegen::diff::{
    Bump, ChangeKind as K, Diff, Severity as S, Sources, compute_diff, render_github, render_json,
    render_markdown, render_text,
};
use abi_codegen::{Schema, load_schema};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(relative: &str) -> String {
    let path = format!("{ROOT}/{relative}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn load(name: &str, src: &str) -> Schema {
    load_schema(src).unwrap_or_else(|e| panic!("{}", e.render(name, src)))
}

/// Two schema texts and the names the reports show for them.
struct Pair {
    old_name: String,
    old_src: String,
    new_name: String,
    new_src: String,
}

impl Pair {
    fn files(old: &str, new: &str) -> Pair {
        Pair {
            old_name: old.to_string(),
            old_src: read(old),
            new_name: new.to_string(),
            new_src: read(new),
        }
    }

    fn fixture(rule: &str) -> Pair {
        Pair::files(
            &format!("tests/fixtures/diff/{rule}/old.toml"),
            &format!("tests/fixtures/diff/{rule}/new.toml"),
        )
    }

    fn diff(&self) -> Diff {
        compute_diff(
            &load(&self.old_name, &self.old_src),
            &load(&self.new_name, &self.new_src),
        )
    }

    /// As `abi-codegen diff OLD NEW` shows them: the old schema is a file.
    fn sources(&self) -> Sources<'_> {
        Sources {
            old_file: Some(&self.old_name),
            old_name: &self.old_name,
            old_src: &self.old_src,
            new_file: &self.new_name,
            new_src: &self.new_src,
        }
    }
}

/// Each change as (severity, kind, path).
fn changes(diff: &Diff) -> Vec<(S, K, String)> {
    diff.changes
        .iter()
        .map(|c| (c.severity, c.kind, c.path.clone()))
        .collect()
}

/// The 1-based line of the first line of `src` that contains `needle`.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle:?}"))
        + 1
}

/// One test per fixture pair: the changes it must report, in order, whether the version
/// policy holds, and a snapshot of the text report.
macro_rules! rule {
    ($name:ident, policy_holds: $ok:expr, [$(($s:ident, $k:ident, $p:literal)),* $(,)?]) => {
        #[test]
        fn $name() {
            let pair = Pair::fixture(stringify!($name));
            let diff = pair.diff();
            let text = render_text(&diff, &pair.sources(), false);
            let expected: Vec<(S, K, String)> = vec![$((S::$s, K::$k, $p.to_string())),*];
            assert_eq!(changes(&diff), expected, "{text}");
            assert_eq!(diff.verdict.ok(), $ok, "{text}");
            insta::assert_snapshot!(stringify!($name), text);
        }
    };
}

/// Every fixture folder, so that none goes untested.
const RULES: &[&str] = &[
    "array_element_grows",
    "const_added",
    "const_array_size_changed",
    "const_magic_changed",
    "const_removed",
    "const_renamed",
    "doc_changed",
    "embedded_struct_grows",
    "enum_added",
    "enum_repr_changed",
    "extensible_embedded",
    "extensible_growth",
    "field_moved",
    "field_removed",
    "field_renamed",
    "field_resized",
    "field_retyped",
    "flag_added",
    "flag_removed",
    "flag_renumbered",
    "flag_reused",
    "padding_reused",
    "policy_missing_major_bump",
    "policy_missing_minor_bump",
    "policy_missing_since",
    "policy_version_backwards",
    "policy_wrong_since",
    "struct_added",
    "struct_align_changed",
    "struct_grows",
    "struct_removed",
    "struct_renamed",
    "tail_padding_reused",
    "value_added",
    "value_removed",
    "value_renamed",
    "value_renumbered",
];

#[test]
fn every_fixture_folder_has_a_test() {
    let mut dirs: Vec<String> = std::fs::read_dir(format!("{ROOT}/tests/fixtures/diff"))
        .expect("the diff fixtures exist")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs, RULES);
}

// ---- breaking (ABI) ----

rule!(struct_grows, policy_holds: true, [
    (Breaking, StructSizeChanged, "record"),
    (Breaking, FieldAdded, "record.extra"),
]);
rule!(struct_align_changed, policy_holds: true, [
    (Breaking, StructAlignChanged, "item"),
    (Breaking, FieldRetyped, "item.id"),
]);
rule!(field_moved, policy_holds: true, [
    (Breaking, FieldMoved, "record.tag"),
    (Breaking, FieldMoved, "record.value"),
]);
rule!(field_resized, policy_holds: true, [(Breaking, FieldResized, "record.tag")]);
rule!(field_retyped, policy_holds: true, [(Breaking, FieldRetyped, "record.value")]);
rule!(field_removed, policy_holds: true, [(Breaking, FieldRemoved, "record.value")]);
rule!(struct_removed, policy_holds: true, [(Breaking, StructRemoved, "record")]);
rule!(value_removed, policy_holds: true, [(Breaking, ValueRemoved, "state.busy")]);
rule!(flag_removed, policy_holds: true, [(Breaking, ValueRemoved, "caps.write")]);
rule!(const_removed, policy_holds: true, [(Breaking, ConstRemoved, "timeout_ms")]);
rule!(value_renumbered, policy_holds: true, [(Breaking, ValueRenumbered, "state.busy")]);
rule!(flag_renumbered, policy_holds: true, [(Breaking, ValueRenumbered, "caps.write")]);
rule!(flag_reused, policy_holds: true, [
    (Breaking, ValueReused, "caps.exec"),
    (Breaking, ValueRenumbered, "caps.write"),
]);
rule!(const_array_size_changed, policy_holds: true, [
    (Breaking, ConstValueChanged, "max_items"),
    (Breaking, StructSizeChanged, "header"),
    (Breaking, FieldResized, "header.items"),
    (Breaking, FieldMoved, "header.count"),
]);
rule!(const_magic_changed, policy_holds: true, [(Breaking, ConstValueChanged, "demo_magic")]);
rule!(enum_repr_changed, policy_holds: true, [
    (Breaking, EnumReprChanged, "state"),
    (Breaking, FieldResized, "item.state"),
    (Breaking, FieldMoved, "item.caps"),
]);
rule!(embedded_struct_grows, policy_holds: true, [
    (Breaking, StructSizeChanged, "vec2"),
    (Breaking, FieldAdded, "vec2.z"),
    (Breaking, StructSizeChanged, "record"),
    (Breaking, FieldResized, "record.pos"),
]);
rule!(array_element_grows, policy_holds: true, [
    (Breaking, StructSizeChanged, "item"),
    (Breaking, FieldAdded, "item.weight"),
    (Breaking, StructSizeChanged, "header"),
    (Breaking, FieldResized, "header.items"),
    (Breaking, FieldMoved, "header.count"),
]);

/// The diff names the struct that holds a struct whose growth breaks it.
#[test]
fn growth_of_a_held_struct_names_its_holder() {
    let diff = Pair::fixture("embedded_struct_grows").diff();
    assert_eq!(diff.changes[0].embedded_in, ["record.pos"]);
    assert!(diff.changes[0].reason.contains("`record.pos`"));
    let diff = Pair::fixture("array_element_grows").diff();
    assert_eq!(diff.changes[0].embedded_in, ["header.items[]"]);
    assert!(diff.changes[0].reason.contains("array element"));
}

/// Marking a held struct extensible is a schema error, not a diff.
#[test]
fn extensible_embedded() {
    let pair = Pair::fixture("extensible_embedded");
    let errors = load_schema(&pair.new_src).expect_err("a held struct cannot be extensible");
    let text = errors.render(&pair.new_name, &pair.new_src);
    let line = line_of(&pair.new_src, "extensible = true");
    assert!(
        text.contains(&format!(
            "new.toml:{line}:14: error: struct `item` is marked extensible but `header.items` embeds it"
        )),
        "{text}"
    );
}

// ---- compatible (ABI) ----

rule!(struct_added, policy_holds: true, [(Compatible, StructAdded, "stats")]);
rule!(enum_added, policy_holds: true, [(Compatible, EnumAdded, "mode")]);
rule!(const_added, policy_holds: true, [(Compatible, ConstAdded, "max_users")]);
rule!(value_added, policy_holds: true, [(Compatible, ValueAdded, "state.done")]);
rule!(flag_added, policy_holds: true, [(Compatible, ValueAdded, "caps.exec")]);
rule!(padding_reused, policy_holds: true, [(Compatible, PaddingReused, "record.flags")]);
rule!(tail_padding_reused, policy_holds: true, [
    (Compatible, TailPaddingReused, "item.level"),
]);
rule!(extensible_growth, policy_holds: true, [
    (Compatible, StructGrown, "header"),
    (Compatible, FieldAppended, "header.total"),
]);

// ---- source-breaking, ABI-compatible ----

rule!(field_renamed, policy_holds: true, [(SourceBreaking, FieldRenamed, "record.amount")]);
rule!(value_renamed, policy_holds: true, [(SourceBreaking, ValueRenamed, "state.working")]);
rule!(struct_renamed, policy_holds: true, [(SourceBreaking, StructRenamed, "point")]);
rule!(const_renamed, policy_holds: true, [(SourceBreaking, ConstRenamed, "timeout_millis")]);

/// A rename pairs the old and the new name instead of reporting a removal and an addition.
#[test]
fn a_rename_pairs_the_old_and_new_names() {
    let diff = Pair::fixture("field_renamed").diff();
    let c = &diff.changes[0];
    let (old, new) = (c.old.as_ref().unwrap(), c.new.as_ref().unwrap());
    assert_eq!((old.name.as_str(), new.name.as_str()), ("value", "amount"));
    assert_eq!((old.offset, old.size), (new.offset, new.size));
    assert_eq!(old.ty, new.ty);
}

// ---- cosmetic ----

rule!(doc_changed, policy_holds: true, [
    (Cosmetic, DocChanged, "record"),
    (Cosmetic, DocChanged, "record.stamp"),
]);

// ---- the version policy ----

rule!(policy_missing_minor_bump, policy_holds: false, [(Compatible, ConstAdded, "max_users")]);
rule!(policy_missing_major_bump, policy_holds: false, [
    (Breaking, FieldMoved, "record.tag"),
    (Breaking, FieldMoved, "record.value"),
]);
rule!(policy_missing_since, policy_holds: false, [
    (Compatible, StructGrown, "header"),
    (Compatible, FieldAppended, "header.total"),
]);
rule!(policy_wrong_since, policy_holds: false, [
    (Compatible, StructGrown, "header"),
    (Compatible, FieldAppended, "header.total"),
]);
rule!(policy_version_backwards, policy_holds: false, []);

/// A violation says which bump was needed, and why.
#[test]
fn a_violation_names_the_bump_and_the_reason() {
    let diff = Pair::fixture("policy_missing_major_bump").diff();
    assert_eq!(diff.verdict.required, Bump::Major);
    assert_eq!(diff.verdict.actual, Some(Bump::Minor));
    assert_eq!(diff.verdict.exit_code(), 1);
    let problem = &diff.verdict.problems[0];
    assert!(
        problem.contains("a major bump is needed (version = \"2.0\")"),
        "{problem}"
    );
    assert!(problem.contains("`record.tag` (field moved)"), "{problem}");

    let diff = Pair::fixture("policy_missing_minor_bump").diff();
    assert_eq!(diff.verdict.required, Bump::Minor);
    assert_eq!(diff.verdict.actual, Some(Bump::None));
    assert!(
        diff.verdict.problems[0].contains("at least a minor bump is needed (version = \"1.1\")")
    );

    let diff = Pair::fixture("policy_missing_since").diff();
    assert_eq!(
        diff.verdict.problems,
        ["`header.total`: a new field must carry since = \"1.1\""]
    );

    let diff = Pair::fixture("doc_changed").diff();
    assert_eq!(
        (diff.verdict.required, diff.verdict.exit_code()),
        (Bump::None, 0)
    );
}

// ---- the real history: bridge 0.8 → 0.9 ----

const OLD_08: &str = "tests/fixtures/diff/bridge-0.8.toml";
const REFERENCE: &str = "tests/fixtures/bridge-abi-0.9-reference.txt";

/// A struct's size and its fields' offsets as the 0.9 reference prints them.
fn reference_struct(name: &str) -> (u64, Vec<(u64, String)>) {
    let text = read(REFERENCE);
    let heading = format!("{name} (");
    let mut lines = text.lines().skip_while(|l| !l.starts_with(&heading));
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("no struct {name} in the reference"));
    let size: u64 = head[heading.len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the heading gives the size");
    let fields = lines
        .skip_while(|l| !l.starts_with("Offset "))
        .skip(1)
        .take_while(|l| l.starts_with("0x"))
        .map(|l| {
            let mut words = l.split_whitespace();
            let offset = u64::from_str_radix(&words.next().unwrap()[2..], 16).unwrap();
            (offset, words.next().unwrap().to_string())
        })
        .collect();
    (size, fields)
}

fn reference_offset(fields: &[(u64, String)], name: &str) -> u64 {
    fields
        .iter()
        .find(|(_, n)| n == name)
        .unwrap_or_else(|| panic!("no field {name} in the reference"))
        .0
}

#[test]
fn bridge_0_8_to_0_9_adds_exactly_what_the_reference_marks_abi_0_9() {
    let pair = Pair::files(OLD_08, "schema.toml");
    let diff = pair.diff();
    assert_eq!(
        changes(&diff),
        vec![
            (
                S::Compatible,
                K::ConstAdded,
                "max_spawn_markers".to_string()
            ),
            (S::Compatible, K::EnumAdded, "enemy_kind".to_string()),
            (S::Compatible, K::StructAdded, "spawn_marker".to_string()),
            (S::Compatible, K::StructGrown, "snapshot".to_string()),
            (
                S::Compatible,
                K::FieldAppended,
                "snapshot.spawn_markers".to_string()
            ),
            (
                S::Compatible,
                K::FieldAppended,
                "snapshot.spawn_marker_count".to_string()
            ),
            // 0.8 declared no shared memory, handshakes or layouts: 0.9 describes them.
            (
                S::Compatible,
                K::FirstDescribed,
                "abi.shared_memory".to_string()
            ),
            (
                S::Compatible,
                K::FirstDescribed,
                "abi.handshakes".to_string()
            ),
            (S::Compatible, K::FirstDescribed, "abi.layouts".to_string()),
            (S::Compatible, K::FileAdded, "ibfrec".to_string()),
            (
                S::Compatible,
                K::TemplateAdded,
                "templates/bridge.mjs.j2".to_string()
            ),
        ]
    );
    assert_eq!(diff.verdict.required, Bump::Minor);
    assert_eq!(diff.verdict.actual, Some(Bump::Minor));
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);

    // The numbers, against the reference: 0.9 appended spawn_markers where 0.8 ended.
    let (size_09, fields) = reference_struct("snapshot");
    let markers = reference_offset(&fields, "spawn_markers");
    let count = reference_offset(&fields, "spawn_marker_count");
    let grown = &diff.changes[3];
    assert_eq!(grown.old.as_ref().unwrap().size, Some(markers));
    assert_eq!(grown.new.as_ref().unwrap().size, Some(size_09));
    assert_eq!(diff.changes[4].new.as_ref().unwrap().offset, Some(markers));
    assert_eq!(diff.changes[5].new.as_ref().unwrap().offset, Some(count));
    let (marker_size, _) = reference_struct("spawn_marker");
    assert_eq!(
        diff.changes[2].new.as_ref().unwrap().size,
        Some(marker_size)
    );
    assert_eq!(diff.changes[2].embedded_in, ["snapshot.spawn_markers[]"]);

    insta::assert_snapshot!(
        "bridge_0_8_to_0_9_text",
        render_text(&diff, &pair.sources(), false)
    );
}

/// schema.toml with `match.round_state` and `match.rounds_to_win` swapped.
fn broken_0_9() -> String {
    let src = read("schema.toml");
    let a = "  { name = \"rounds_to_win\", type = \"u8\", doc = \"Versus: round wins that take the match\" },\n";
    let b = "  { name = \"round_state\", type = \"round_state\" },\n";
    let pair = format!("{a}{b}");
    assert_eq!(
        src.matches(&pair).count(),
        1,
        "schema.toml changed; update this test"
    );
    src.replace(&pair, &format!("{b}{a}"))
}

#[test]
fn bridge_0_9_with_a_moved_field_breaks_the_policy() {
    let old_src = read(OLD_08);
    let new_src = broken_0_9();
    let diff = compute_diff(&load(OLD_08, &old_src), &load("broken.toml", &new_src));
    let breaking: Vec<(S, K, String)> = changes(&diff)
        .into_iter()
        .filter(|(s, _, _)| *s == S::Breaking)
        .collect();
    assert_eq!(
        breaking,
        vec![
            (S::Breaking, K::FieldMoved, "match.round_state".to_string()),
            (
                S::Breaking,
                K::FieldMoved,
                "match.rounds_to_win".to_string()
            ),
        ]
    );
    // The old and new offsets inside `match`, against the reference's 0.9 layout.
    let (_, fields) = reference_struct("match");
    let moved = &diff
        .changes
        .iter()
        .find(|c| c.path == "match.round_state")
        .unwrap();
    assert_eq!(
        moved.old.as_ref().unwrap().offset,
        Some(reference_offset(&fields, "round_state"))
    );
    assert_eq!(
        moved.new.as_ref().unwrap().offset,
        Some(reference_offset(&fields, "rounds_to_win"))
    );
    assert_eq!(diff.verdict.required, Bump::Major);
    assert!(!diff.verdict.ok());
    assert_eq!(diff.verdict.exit_code(), 1);
    assert!(diff.verdict.problems[0].contains("a major bump is needed (version = \"1.0\")"));
}

// ---- output formats ----

#[test]
fn json_report() {
    let pair = Pair::files(OLD_08, "schema.toml");
    let diff = pair.diff();
    let text = render_json(&diff, &pair.sources());
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(value["verdict"]["ok"], true);
    assert_eq!(value["verdict"]["required_bump"], "minor");
    // The verdict comes first; the changes are the root causes, their effects nested.
    assert!(text.starts_with("{\n  \"verdict\": {"), "{text}");
    assert_eq!(value["counts"]["compatible"], 10);
    assert_eq!(value["counts"]["effects"], 1);
    let appended = &value["changes"][3];
    assert_eq!(appended["kind"], "field_appended");
    assert_eq!(
        appended["new_line"],
        line_of(&pair.new_src, "{ name = \"spawn_markers\"")
    );
    assert_eq!(appended["effects"][0]["kind"], "struct_grown");
    assert_eq!(appended["effects"][0]["cause"], appended["id"]);
    insta::assert_snapshot!("bridge_0_8_to_0_9_json", text);
}

#[test]
fn markdown_report() {
    let pair = Pair::files(OLD_08, "schema.toml");
    let diff = pair.diff();
    let text = render_markdown(&diff, &pair.sources()).expect("the template renders");
    // A summary line, then one table per severity that has changes.
    let summary = text.lines().nth(1).unwrap();
    assert!(summary.starts_with(
        "✅ **ABI diff of `bridge` 0.8 → 0.9**: 10 changes: 10 compatible (and 1 effect)."
    ));
    assert_eq!(
        text.matches("| Item | Change | Old | New | Why |").count(),
        1
    );
    assert!(text.contains("#### Compatible (ABI): 10"));
    insta::assert_snapshot!("bridge_0_8_to_0_9_markdown", text);

    // A failing change gets its problems and a table per severity.
    let pair = Pair::fixture("policy_missing_major_bump");
    let text = render_markdown(&pair.diff(), &pair.sources()).unwrap();
    assert!(text.lines().nth(1).unwrap().starts_with("❌ "));
    assert!(text.contains("\n- a major bump is needed"));
    // Two fields swapped: one root cause, the other move its effect.
    assert!(text.contains("#### Breaking (ABI): 1"));
}

#[test]
fn github_annotations_point_at_the_changed_lines() {
    let pair = Pair::files(OLD_08, "schema.toml");
    let diff = pair.diff();
    let text = render_github(&diff, &pair.sources());
    let markers = line_of(&pair.new_src, "{ name = \"spawn_markers\"");
    assert!(
        text.contains(&format!(
            "::notice file=schema.toml,line={markers},col=3,title=ABI compatible change FIELD_APPENDED::snapshot.spawn_markers: field appended"
        )),
        "{text}"
    );
    // The verdict first, on the version line.
    let version = line_of(&pair.new_src, "version = \"0.9\"");
    assert!(text.lines().next().unwrap().starts_with(&format!(
        "::notice file=schema.toml,line={version},col=12,title=ABI version policy holds::"
    )));
    insta::assert_snapshot!("bridge_0_8_to_0_9_github", text);

    // Breaking changes the version does not allow are errors, and so is the verdict.
    let pair = Pair::fixture("policy_missing_major_bump");
    let text = render_github(&pair.diff(), &pair.sources());
    assert_eq!(
        text.lines().filter(|l| l.starts_with("::error ")).count(),
        2,
        "{text}"
    );
}

#[test]
fn github_annotations_of_removed_items() {
    let pair = Pair::fixture("field_removed");
    let diff = pair.diff();
    // Two files: the removed field's line in the old file.
    let text = render_github(&diff, &pair.sources());
    let old_line = line_of(&pair.old_src, "{ name = \"value\"");
    let text = text.lines().nth(1).unwrap();
    assert!(
        text.starts_with(&format!(
            "::warning file=tests/fixtures/diff/field_removed/old.toml,line={old_line},col=3,"
        )),
        "{text}"
    );
    // `--base`: the old schema is no file here, so the new file's [abi] table.
    let sources = Sources {
        old_file: None,
        old_name: "HEAD:new.toml",
        ..pair.sources()
    };
    let text = render_github(&diff, &sources);
    let text = text.lines().nth(1).unwrap();
    let abi = line_of(&pair.new_src, "[abi]");
    assert!(
        text.starts_with(&format!(
            "::warning file=tests/fixtures/diff/field_removed/new.toml,line={abi},col=1,"
        )),
        "{text}"
    );
}

#[test]
fn text_is_coloured_only_on_request() {
    let pair = Pair::fixture("field_moved");
    let diff = pair.diff();
    assert!(!render_text(&diff, &pair.sources(), false).contains('\x1b'));
    let coloured = render_text(&diff, &pair.sources(), true);
    assert!(
        coloured.contains("\x1b[1;31mBreaking (ABI)\x1b[0m"),
        "{coloured}"
    );
}
