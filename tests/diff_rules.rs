//! The rules of `abi-codegen diff` for the declarations beyond structs, enums and constants,
//! as one table a reviewer reads: each row is a change to tests/fixtures/diff_rules/base.toml
//! (text edits and the new version), the rule it must fall under, at which item, its class,
//! and the advice it must give. Every row's report is pinned in every output format. Then
//! the advice of the rows that ask for something is applied, and the result checked: the
//! schema loads, and the diff's verdict holds. The robot cases (tests/common/robot_cases.rs)
//! check that references are resolved and geometry classified by its rule; and every case
//! of every rule checks that a change speaks with one voice.

use crate::common;

use abi_codegen::diff::{
    Diff, Severity as S, Sources, compute_diff, render_github, render_json, render_markdown,
    render_text,
};
use abi_codegen::{Schema, load_schema};
use common::robot_cases::{CASES, ROBOT, case_src, robot_base};
use common::rule_cases::{BASE, TABLE, V, base, edit, new_src};

fn load(name: &str, src: &str) -> Schema {
    load_schema(src).unwrap_or_else(|e| panic!("{}", e.render(name, src)))
}

fn diff_of(new: &str) -> Diff {
    compute_diff(&load(BASE, &base()), &load("new.toml", new))
}

/// Every format of a row's report, one after the other.
fn reports(diff: &Diff, new: &str) -> String {
    let old = base();
    let sources = Sources {
        old_file: Some(BASE),
        old_name: BASE,
        old_src: &old,
        new_file: "new.toml",
        new_src: new,
    };
    format!(
        "==== text\n{}\n==== markdown\n{}\n==== json\n{}\n==== github\n{}",
        render_text(diff, &sources, false),
        render_markdown(diff, &sources).expect("the markdown renders"),
        render_json(diff, &sources),
        render_github(diff, &sources)
    )
}

#[test]
fn the_table() {
    let mut failures = Vec::new();
    for (i, row) in TABLE.iter().enumerate() {
        let new = new_src(row);
        let diff = diff_of(&new);
        let text = reports(&diff, &new);
        // Every change has its rule's class.
        for c in &diff.changes {
            assert_eq!(
                c.severity,
                c.rule().class,
                "{}: {}\n{text}",
                row.change,
                c.path
            );
        }
        let found = diff
            .changes
            .iter()
            .find(|c| c.rule().id == row.rule && c.path == row.path);
        match found {
            None => failures.push(format!(
                "{}: no {} at {}\n{text}",
                row.change, row.rule, row.path
            )),
            Some(c) => {
                if c.severity != row.class {
                    failures.push(format!(
                        "{}: class {:?}, expected {:?}",
                        row.change, c.severity, row.class
                    ));
                }
                if !c.advice.contains(row.advice) {
                    failures.push(format!(
                        "{}: advice {:?} lacks {:?}",
                        row.change, c.advice, row.advice
                    ));
                }
            }
        }
        // The class of the whole change is the row's: nothing else is more severe.
        let worst = diff.groups.iter().map(|g| g.severity).min();
        if worst != Some(row.class) {
            failures.push(format!(
                "{}: the worst group is {worst:?}\n{text}",
                row.change
            ));
        }
        if diff.verdict.ok() != row.holds {
            failures.push(format!(
                "{}: the policy holds: {}\n{text}",
                row.change,
                diff.verdict.ok()
            ));
        }
        insta::assert_snapshot!(
            format!("diff_rules_{i:02}_{}", row.rule.to_ascii_lowercase()),
            text
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A block that grows is one root cause: the block layout's row that holds it needs more
/// bytes as an effect of it, not as a change of its own.
#[test]
fn a_grown_block_row_is_an_effect() {
    let row = TABLE.iter().find(|r| r.rule == "FIELD_ADDED").unwrap();
    let diff = diff_of(&new_src(row));
    let row_change = diff
        .changes
        .iter()
        .position(|c| c.rule().id == "LAYOUT_ROW_CHANGED" && c.path == "block.input")
        .expect("the block's row changes");
    let group = diff
        .groups
        .iter()
        .find(|g| g.effects.contains(&row_change))
        .expect("the row is an effect");
    assert_eq!(diff.changes[group.root].path, "input.axes");
}

/// The advice of the new row without `since` applies: the value with `since`, or the row
/// `optional`, loads, and the diff then holds at 1.1. The verdict's own proof of "breaking"
/// is the reader's refusal: the new reader requires a row the old producer never writes.
#[test]
fn the_advice_for_a_new_required_row_applies() {
    let breaking = TABLE.iter().find(|r| r.rule == "LAYOUT_ROW_ADDED").unwrap();
    let new = new_src(breaking);
    let diff = diff_of(&new);
    assert!(!diff.verdict.ok());
    // Followed: `since` on the value.
    let with_since = edit(
        &new,
        &[(
            "{ name = \"scratch\", value = 5 }",
            "{ name = \"scratch\", value = 5, since = \"1.1\" }",
        )],
    );
    let diff = diff_of(&with_since);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    // Followed: `optional = true` on the row.
    let optional = edit(
        &new,
        &[(
            "{ name = \"scratch\", bytes = 64 }",
            "{ name = \"scratch\", bytes = 64, optional = true }",
        )],
    );
    let diff = diff_of(&optional);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    // The new schema's row is required, and its producer-less image is refused: the row's
    // `since` is what lets a 1.1 reader accept a 1.0 image.
    let schema = load("new.toml", &new);
    let image = schema
        .attach()
        .layouts
        .iter()
        .find(|l| l.name == "image")
        .unwrap();
    let scratch = image.rows.iter().find(|r| r.name == "scratch").unwrap();
    assert!(!scratch.optional && scratch.since.is_none());
    let schema = load("with_since.toml", &with_since);
    let image = schema
        .attach()
        .layouts
        .iter()
        .find(|l| l.name == "image")
        .unwrap();
    let scratch = image.rows.iter().find(|r| r.name == "scratch").unwrap();
    assert_eq!(scratch.since.map(|v| v.to_string()).as_deref(), Some("1.1"));
}

/// A field in a handshake struct's padding: the old advice (`since = "1.1"`) makes the
/// schema invalid; the diff no longer asks for it, and its advice, applied as it reads (no
/// `since`), is a valid schema with the field, for which the policy holds at 1.1.
#[test]
fn the_advice_for_a_field_in_handshake_padding_applies() {
    let row = TABLE.iter().find(|r| r.rule == "PADDING_REUSED").unwrap();
    let new = new_src(row);
    let with_since = edit(
        &new,
        &[(
            "{ name = \"viewers\", type = \"u32\" }",
            "{ name = \"viewers\", type = \"u32\", since = \"1.1\" }",
        )],
    );
    let errors =
        load_schema(&with_since).expect_err("since in the middle of a handshake struct is invalid");
    let text = errors.render("with_since.toml", &with_since);
    assert!(text.contains("follows"), "{text}");
    // The advice as applied: the field, without since.
    let schema = load("new.toml", &new);
    let header = schema
        .abi()
        .structs
        .iter()
        .find(|s| s.name == "header")
        .unwrap();
    assert!(
        header
            .fields
            .iter()
            .any(|f| f.name == "viewers" && f.since.is_none())
    );
    let diff = diff_of(&new);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    // The alternative it names: appended after the last field with since, also valid and
    // compatible.
    let appended = edit(
        &base(),
        &[
            (V.0, "version = \"1.1\""),
            (
                "  { name = \"clock\", type = \"u64\", since = \"1.0\" },\n",
                "  { name = \"clock\", type = \"u64\", since = \"1.0\" },\n  { name = \"viewers\", type = \"u32\", since = \"1.1\" },\n  { name = \"_pad100\", type = \"u8[4]\", since = \"1.1\" },\n",
            ),
        ],
    );
    let diff = diff_of(&appended);
    assert!(diff.verdict.ok(), "{:?}", diff.verdict.problems);
    assert!(
        diff.changes
            .iter()
            .any(|c| c.rule().id == "FIELD_APPENDED" && c.path == "header.viewers")
    );
}

/// Every case a rule has: this table, the robot cases, the fixture pairs of tests/diff.rs,
/// and the bridge's real 0.8 → 0.9 history; each as (what it is, its diff).
fn every_case() -> Vec<(String, Diff)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut cases: Vec<(String, Diff)> = TABLE
        .iter()
        .map(|row| (row.change.to_string(), diff_of(&new_src(row))))
        .collect();
    let robot = load(ROBOT, &robot_base());
    for case in CASES {
        let new = load(case.name, &case_src(case));
        cases.push((case.row.change.to_string(), compute_diff(&robot, &new)));
    }
    let dir = format!("{root}/tests/fixtures/diff");
    let mut pairs: Vec<(String, String, String)> = std::fs::read_dir(&dir)
        .expect("the diff fixtures")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("new.toml").is_file())
        .map(|e| {
            let p = e.path();
            (
                p.display().to_string(),
                std::fs::read_to_string(p.join("old.toml")).unwrap(),
                std::fs::read_to_string(p.join("new.toml")).unwrap(),
            )
        })
        .filter(|(_, _, new)| load_schema(new).is_ok())
        .collect();
    pairs.sort();
    pairs.push((
        "bridge 0.8 → 0.9".to_string(),
        std::fs::read_to_string(format!("{dir}/bridge-0.8.toml")).unwrap(),
        std::fs::read_to_string(format!("{root}/schema.toml")).unwrap(),
    ));
    for (name, old, new) in &pairs {
        let diff = compute_diff(&load("old.toml", old), &load("new.toml", new));
        cases.push((name.clone(), diff));
    }
    cases
}

/// Which rules a case shows. Every rule has one: a new rule fails this test, naming itself,
/// until a case shows it.
#[test]
fn rules_without_a_case_are_listed() {
    let mut seen: Vec<&'static str> = Vec::new();
    for (_, diff) in every_case() {
        for c in &diff.changes {
            if !seen.contains(&c.rule().id) {
                seen.push(c.rule().id);
            }
        }
    }
    let missing: Vec<&str> = abi_codegen::diff::RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !seen.contains(id))
        .collect();
    assert!(missing.is_empty(), "rules with no case: {missing:?}");
}

/// One voice per change, over every case of every rule: a change's class is its rule's; a
/// root cause is as severe as its group (no effect is worse than its cause, so the heading
/// it is listed under is its own class); a breaking root's fix names a major bump (beside
/// what would make it compatible) and no other root's fix asks for one but as an
/// alternative; a cosmetic one asks for nothing; the policy asks for the bump the worst root needs, and the `since` it asks of a
/// change is the version the verdict asks for, the one the change's own fix names if any.
#[test]
fn every_change_speaks_with_one_voice() {
    let mut failures = Vec::new();
    for (case, diff) in every_case() {
        for c in &diff.changes {
            let rule = c.rule();
            if c.severity != rule.class {
                failures.push(format!(
                    "{case}: {} is {:?}, its rule {} {:?}",
                    c.path, c.severity, rule.id, rule.class
                ));
            }
        }
        for g in &diff.groups {
            let root = &diff.changes[g.root];
            let (id, advice) = (root.rule().id, root.advice.as_str());
            if g.severity != root.severity {
                failures.push(format!(
                    "{case}: {} ({id}, {:?}) heads a {:?} group",
                    root.path, root.severity, g.severity
                ));
            }
            let major = advice.contains("major version");
            let ok = match root.severity {
                S::Breaking => major,
                // A major bump only as an alternative or under a condition.
                S::SourceBreaking | S::Compatible => !advice.starts_with("bump the major"),
                S::Cosmetic => advice.starts_with("nothing"),
            };
            if !ok {
                failures.push(format!(
                    "{case}: {} ({id}, {}) advises {advice:?}",
                    root.path,
                    root.severity.label()
                ));
            }
            if let Some(v) = &root.violation {
                let target = format!("since = \"{}\"", diff.verdict.target);
                if !v.contains(&target)
                    || (advice.contains("since = \"") && !advice.contains(&target))
                {
                    failures.push(format!(
                        "{case}: {}: the policy says {v:?}, the fix {advice:?}, the verdict {target}",
                        root.path
                    ));
                }
            }
        }
        let need = diff
            .groups
            .iter()
            .map(|g| {
                abi_codegen::diff::required_bump(diff.verdict.policy, g.severity, diff.old_version)
            })
            .max()
            .unwrap_or(abi_codegen::diff::Bump::None);
        if need != diff.verdict.required {
            failures.push(format!(
                "{case}: the groups need {need:?}, the verdict {:?}",
                diff.verdict.required
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The robot cases: references resolved before comparing (a rename is one source-breaking
/// change wherever the name is used), two swapped fields one root cause, geometry by its
/// rule, and an appended field's one voice. Each case has one root cause, the one named.
#[test]
fn the_robot_cases() {
    let robot = load(ROBOT, &robot_base());
    let mut failures = Vec::new();
    for case in CASES {
        let new = case_src(case);
        let diff = compute_diff(&robot, &load(case.name, &new));
        let sources = Sources {
            old_file: Some(ROBOT),
            old_name: ROBOT,
            old_src: &robot_base(),
            new_file: "new.toml",
            new_src: &new,
        };
        let text = render_text(&diff, &sources, false);
        let roots: Vec<(&str, &str)> = diff
            .groups
            .iter()
            .map(|g| {
                (
                    diff.changes[g.root].rule().id,
                    diff.changes[g.root].path.as_str(),
                )
            })
            .collect();
        if roots != [(case.row.rule, case.row.path)] {
            failures.push(format!(
                "{}: root causes {roots:?}, expected {}\n{text}",
                case.row.change, case.row.rule
            ));
            continue;
        }
        let root = &diff.changes[diff.groups[0].root];
        if root.severity != case.row.class || diff.groups[0].severity != case.row.class {
            failures.push(format!("{}: {:?}\n{text}", case.row.change, root.severity));
        }
        if !root.advice.contains(case.row.advice) {
            failures.push(format!(
                "{}: advice {:?} lacks {:?}",
                case.row.change, root.advice, case.row.advice
            ));
        }
        if diff.verdict.ok() != case.row.holds {
            failures.push(format!(
                "{}: the policy holds: {}\n{text}",
                case.row.change,
                diff.verdict.ok()
            ));
        }
        insta::assert_snapshot!(format!("diff_robot_{}", case.name), text);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the verdicts of the new-row cases claim, done by the generated Python bindings:
/// an image a 1.0 producer lays out is refused by the 1.1 reader whose new row is required
/// (LAYOUT_ROW_ADDED, breaking), and accepted by the 1.1 reader whose row has `since`
/// (LAYOUT_ROW_ADDED_OPTIONAL, compatible); both 1.1 images attach in the 1.0 reader.
#[test]
fn the_new_row_verdicts_are_what_attach_does() {
    let required = TABLE.iter().find(|r| r.rule == "LAYOUT_ROW_ADDED").unwrap();
    let with_since = TABLE
        .iter()
        .find(|r| r.rule == "LAYOUT_ROW_ADDED_OPTIONAL" && r.edits[0].1.contains("since"))
        .unwrap();
    let dir = common::tools::scratch("diff_rules_attach");
    for (module, src) in [
        ("v10", base()),
        ("v11_required", new_src(required)),
        ("v11_since", new_src(with_since)),
    ] {
        let schema = load(module, &src);
        let text =
            abi_codegen::testing::language_backend::python::render_python(&schema, "schema.toml")
                .expect("the module renders");
        std::fs::write(dir.join(format!("{module}.py")), text).expect("write the module");
    }
    let script = r#"
import v10, v11_required, v11_since
old = v10.lay_out()
try:
    v11_required.attach(bytes(old))
    print("required: attached")
except v11_required.AttachError as e:
    print("required:", e.check)
print("since:", v11_since.attach(bytes(old)).producer)
print("old reads new:", v10.attach(bytes(v11_required.lay_out())).producer, v10.attach(bytes(v11_since.lay_out())).producer)
"#;
    let out = common::tools::run_ok("python3", &["-B", "-W", "error", "-c", script], &dir);
    assert_eq!(
        out,
        "required: region_missing\nsince: (1, 0)\nold reads new: (1, 1) (1, 1)\n"
    );
}

/// The verdicts that say "compatible" (every row whose worst class is compatible,
/// source-breaking or cosmetic), done by the generated Python bindings: the image each side
/// lays out attaches in the other side's reader, every block included.
#[test]
fn compatible_rows_attach_both_ways() {
    let dir = common::tools::scratch("diff_rules_both_ways");
    let base_text = abi_codegen::testing::language_backend::python::render_python(
        &load(BASE, &base()),
        "schema.toml",
    )
    .expect("the base module renders");
    std::fs::write(dir.join("old.py"), base_text).expect("write old.py");
    let mut names = Vec::new();
    for (i, row) in TABLE.iter().enumerate() {
        if row.class == S::Breaking {
            continue;
        }
        let src = new_src(row);
        let diff = diff_of(&src);
        assert!(
            diff.groups.iter().all(|g| g.severity != S::Breaking),
            "{}",
            row.change
        );
        let text = abi_codegen::testing::language_backend::python::render_python(
            &load("new.toml", &src),
            "schema.toml",
        )
        .expect("the module renders");
        let name = format!("new_{i:02}");
        std::fs::write(dir.join(format!("{name}.py")), text).expect("write the module");
        names.push(name);
    }
    assert!(names.len() >= 10, "{names:?}");
    let script = format!(
        r#"
import importlib, old
def every_block(h):
    n = 0
    for i in range(2):
        h.blocks(i)
        n += 1
    return n
for name in {names:?}:
    new = importlib.import_module(name)
    a = new.attach(bytes(old.lay_out()))
    b = old.attach(bytes(new.lay_out()))
    print(name, a.producer, b.producer, every_block(a) + every_block(b))
"#
    );
    let out = common::tools::run_ok("python3", &["-B", "-W", "error", "-c", &script], &dir);
    let expected: String = names
        .iter()
        .map(|n| {
            let new = TABLE[n[4..].parse::<usize>().unwrap()].version;
            let (major, minor) = new.split_once('.').unwrap();
            format!("{n} (1, 0) ({major}, {minor}) 4\n")
        })
        .collect();
    assert_eq!(out, expected);
}

/// An array that grows is one root cause: the struct that holds it grows, and the ring over
/// it, the region that holds it and the file record of it follow.
#[test]
fn a_grown_array_is_one_root_cause_for_ring_region_and_file() {
    let row = TABLE.iter().find(|r| r.rule == "RING_CHANGED").unwrap();
    let diff = diff_of(&new_src(row));
    assert_eq!(diff.groups.len(), 1, "{:#?}", diff.changes);
    let g = &diff.groups[0];
    assert_eq!(diff.changes[g.root].path, "journal.entries");
    let effects: Vec<(&str, &str)> = g
        .effects
        .iter()
        .map(|i| (diff.changes[*i].rule().id, diff.changes[*i].path.as_str()))
        .collect();
    assert_eq!(
        effects,
        [
            ("STRUCT_SIZE_CHANGED", "journal"),
            ("RING_CHANGED", "events"),
            ("LAYOUT_ROW_CHANGED", "image.journal"),
            ("FILE_CHANGED", "dump"),
        ]
    );
}
