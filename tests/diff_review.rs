//! `abi-codegen diff` as a reviewer reads it in a pull request: one field inserted in the
//! middle of the bridge's `client_entry` is one root cause with its effects (checked against
//! the 0.9 reference's offsets), the verdict comes first in every format and the GitHub
//! output stays within 10 annotations, the `since` asked for is the version asked for, the
//! `cargo` version policy, and a schema that is new at the base. Every format of the
//! inserted-field case is pinned with insta.

use crate::common;

use abi_codegen::diff::{
    Bump, ChangeKind as K, Diff, MAX_ANNOTATIONS, Sources, compute_diff, compute_new_abi,
    render_github, render_json, render_markdown, render_text,
};
use abi_codegen::testing::ir::VersionPolicy;
use abi_codegen::{Schema, load_schema};
use common::reference::{RefStruct, load_reference};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(relative: &str) -> String {
    let path = format!("{ROOT}/{relative}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn load(name: &str, src: &str) -> Schema {
    load_schema(src).unwrap_or_else(|e| panic!("{}", e.render(name, src)))
}

/// Replaces the one occurrence of `from` in `src`; panics when there is not exactly one.
fn replace_once(src: &str, from: &str, to: &str) -> String {
    assert_eq!(
        src.matches(from).count(),
        1,
        "schema.toml changed; update this test: {from:?}"
    );
    src.replacen(from, to, 1)
}

/// schema.toml with `latency_us: u64` inserted after `client_entry.connected_ns`, the two
/// stated sizes it changes updated, no `since` and no version bump: what a contributor
/// writes first.
fn inserted_field() -> String {
    let src = read("schema.toml");
    let connected = "  { name = \"connected_ns\", type = \"u64\", writer = \"client\", doc = \"Host clock at the claim\" },\n";
    let src = replace_once(
        &src,
        connected,
        &format!(
            "{connected}  {{ name = \"latency_us\", type = \"u64\", writer = \"client\", doc = \"Round trip of the last tick\" }},\n"
        ),
    );
    let entry = "name = \"client_entry\"\nwriter = [\"host\", \"client\"]\n";
    let at = src.find(entry).expect("client_entry");
    let (head, tail) = src.split_at(at);
    let tail = replace_once(tail, "size = 128\n", "size = 136\n");
    replace_once(&format!("{head}{tail}"), "size = 1304\n", "size = 1368\n")
}

struct Case {
    old_src: String,
    new_src: String,
    diff: Diff,
}

impl Case {
    fn new(old_src: String, new_src: String) -> Case {
        let diff = compute_diff(&load("old.toml", &old_src), &load("new.toml", &new_src));
        Case {
            old_src,
            new_src,
            diff,
        }
    }

    /// As `abi-codegen diff --base main` shows it in a pull request.
    fn sources(&self) -> Sources<'_> {
        Sources {
            old_file: None,
            old_name: "main:schema.toml",
            old_src: &self.old_src,
            new_file: "schema.toml",
            new_src: &self.new_src,
        }
    }
}

fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle:?}"))
        + 1
}

fn reference_struct(name: &str) -> RefStruct {
    load_reference()
        .structs
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no struct {name} in the reference"))
}

fn reference_offset(s: &RefStruct, field: &str) -> u64 {
    s.fields
        .iter()
        .find(|f| f.name == field)
        .unwrap_or_else(|| panic!("no field {}.{field} in the reference", s.name))
        .offset
}

#[test]
fn an_inserted_field_is_one_root_cause_with_its_effects() {
    let case = Case::new(read("schema.toml"), inserted_field());
    let diff = &case.diff;
    // Before grouping, the report listed all 12 changes as top-level breaking entries.
    assert_eq!(diff.changes.len(), 12);
    assert_eq!(diff.groups.len(), 1, "{:#?}", diff.groups);
    let group = &diff.groups[0];
    let root = &diff.changes[group.root];
    assert_eq!(
        (root.kind, root.path.as_str(), root.summary.as_str()),
        (K::FieldAdded, "client_entry.latency_us", "field inserted")
    );
    let effects: Vec<(K, &str)> = group
        .effects
        .iter()
        .map(|i| (diff.changes[*i].kind, diff.changes[*i].path.as_str()))
        .collect();
    assert_eq!(
        effects,
        [
            (K::StructSizeChanged, "client_entry"),
            (K::FieldMoved, "client_entry.pad"),
            (K::FieldMoved, "client_entry.waiting"),
            (K::FieldMoved, "client_entry.name"),
            (K::StructSizeChanged, "bridge_header"),
            (K::FieldResized, "bridge_header.clients"),
            (K::FieldMoved, "bridge_header.controls"),
            (K::FieldMoved, "bridge_header.run_mode"),
            (K::FieldMoved, "bridge_header.sim_state"),
            (K::FieldMoved, "bridge_header.lockstep_timeout_ms"),
            // The `bridge` layout's header region needs the bytes of the grown header.
            (K::LayoutRowChanged, "bridge.header"),
        ]
    );
    // The numbers against the 0.9 reference: the new field takes 8 bytes where `pad` was,
    // so each later field of `client_entry` moves 8 bytes, and each field after the
    // `clients` table moves 8 bytes per row.
    let entry = reference_struct("client_entry");
    let header = reference_struct("bridge_header");
    let rows: u64 = load_reference()
        .constants
        .iter()
        .find(|c| c.name == "max_clients")
        .and_then(|c| c.value.parse().ok())
        .expect("max_clients in the reference");
    let new = root.new.as_ref().unwrap();
    assert_eq!(new.offset, Some(reference_offset(&entry, "pad")));
    for i in &group.effects {
        let c = &diff.changes[*i];
        let (old, new) = (c.old.as_ref().unwrap(), c.new.as_ref().unwrap());
        let (owner, field) = c.path.split_once('.').unwrap_or((&c.path, ""));
        if c.kind == K::LayoutRowChanged {
            // The header region needs the header's bytes: 8 more per row of `clients`.
            let least = |v: &Option<String>| -> u64 {
                v.as_deref()
                    .and_then(|v| v.strip_prefix("least size = "))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{v:?}"))
            };
            assert_eq!(
                least(&new.value),
                least(&old.value) + 8 * rows,
                "{}",
                c.path
            );
            continue;
        }
        let (s, shift) = match owner {
            "client_entry" => (&entry, 8),
            "bridge_header" => (&header, 8 * rows),
            other => panic!("unexpected effect in {other}"),
        };
        if field.is_empty() {
            assert_eq!((old.size, new.size), (Some(s.size), Some(s.size + shift)));
        } else if c.kind == K::FieldMoved {
            let at = reference_offset(s, field);
            assert_eq!(
                (old.offset, new.offset),
                (Some(at), Some(at + shift)),
                "{field}"
            );
        }
    }
    // The advice is consistent: the version it asks for is the `since` it asks for.
    assert_eq!(diff.verdict.required, Bump::Major);
    assert_eq!(diff.verdict.target.to_string(), "1.0");
    assert_eq!(
        diff.verdict.problems.len(),
        2,
        "{:?}",
        diff.verdict.problems
    );
    assert!(diff.verdict.problems[0].contains("version = \"1.0\""));
    assert_eq!(
        diff.verdict.problems[1],
        "`client_entry.latency_us`: a new field must carry since = \"1.0\""
    );
}

#[test]
fn the_inserted_field_in_every_format() {
    let case = Case::new(read("schema.toml"), inserted_field());
    let sources = case.sources();
    let text = render_text(&case.diff, &sources, false);
    assert!(
        text.lines().nth(1).unwrap().starts_with("FAILED: "),
        "{text}"
    );
    insta::assert_snapshot!("inserted_field_text", text);

    let markdown = render_markdown(&case.diff, &sources).expect("the template renders");
    assert!(markdown.lines().nth(1).unwrap().starts_with("❌ "));
    insta::assert_snapshot!("inserted_field_markdown", markdown);

    let json = render_json(&case.diff, &sources);
    let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert!(json.starts_with("{\n  \"verdict\": {"));
    assert_eq!(value["changes"].as_array().unwrap().len(), 1);
    let effects = value["changes"][0]["effects"].as_array().unwrap();
    assert_eq!(effects.len(), 11);
    // Each effect names its direct cause: the moved fields of bridge_header follow from
    // `clients` resized, which follows from client_entry's growth.
    let id = |path: &str| {
        effects
            .iter()
            .find(|e| e["path"] == path)
            .map(|e| e["id"].clone())
            .unwrap()
    };
    assert_eq!(
        effects
            .iter()
            .find(|e| e["path"] == "bridge_header.controls")
            .unwrap()["cause"],
        id("bridge_header.clients")
    );
    assert_eq!(
        effects
            .iter()
            .find(|e| e["path"] == "bridge_header.clients")
            .unwrap()["cause"],
        id("client_entry")
    );
    insta::assert_snapshot!("inserted_field_json", json);

    let github = render_github(&case.diff, &sources);
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), 2, "{github}");
    let version = line_of(&case.new_src, "version = \"0.9\"");
    assert!(lines[0].starts_with(&format!(
        "::error file=schema.toml,line={version},col=12,title=ABI version policy violated::"
    )));
    let at = line_of(&case.new_src, "{ name = \"latency_us\"");
    assert!(lines[1].starts_with(&format!(
        "::error file=schema.toml,line={at},col=3,title=ABI breaking change FIELD_ADDED::client_entry.latency_us: field inserted"
    )));
    insta::assert_snapshot!("inserted_field_github", github);
}

/// Many root causes: the verdict and 9 of them, and the verdict says how many are left out.
#[test]
fn github_output_keeps_to_10_annotations() {
    let old = read("tests/fixtures/diff/const_added/old.toml");
    let mut new = replace_once(&old, "version = \"1.0\"", "version = \"1.1\"");
    for i in 0..12 {
        new.push_str(&format!("\n[[const]]\nname = \"extra_{i}\"\nvalue = {i}\n"));
    }
    let case = Case::new(old, new);
    assert_eq!(case.diff.groups.len(), 12);
    let github = render_github(&case.diff, &case.sources());
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), MAX_ANNOTATIONS);
    assert!(
        lines[0].contains("title=ABI version policy holds::"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("3 more changes are not annotated here"));
    assert!(lines[1].contains("::extra_0: constant added"));
}

/// The field_moved fixture (two fields swapped: breaking) at versions `old` and `new`, with
/// `policy` written in the new schema when given.
fn moved_fields(old: &str, new: &str, policy: Option<&str>) -> Diff {
    let at = |src: String, v: &str, policy: Option<&str>| {
        let line = match policy {
            Some(p) => format!("version = \"{v}\"\nversion_policy = \"{p}\""),
            None => format!("version = \"{v}\""),
        };
        let current = src
            .lines()
            .find(|l| l.starts_with("version = "))
            .expect("a version line")
            .to_string();
        replace_once(&src, &current, &line)
    };
    let dir = "tests/fixtures/diff/field_moved";
    Case::new(
        at(read(&format!("{dir}/old.toml")), old, None),
        at(read(&format!("{dir}/new.toml")), new, policy),
    )
    .diff
}

#[test]
fn the_cargo_policy_lets_a_0_x_minor_bump_break() {
    let strict = moved_fields("0.3", "0.4", None);
    assert_eq!(strict.verdict.policy, VersionPolicy::Strict);
    assert_eq!(strict.verdict.required, Bump::Major);
    assert!(!strict.verdict.ok());
    assert!(strict.verdict.problems[0].contains("version = \"1.0\""));
    let explicit = moved_fields("0.3", "0.4", Some("strict"));
    assert_eq!(explicit.verdict, strict.verdict);

    let cargo = moved_fields("0.3", "0.4", Some("cargo"));
    assert_eq!(cargo.verdict.policy, VersionPolicy::Cargo);
    assert_eq!(cargo.verdict.required, Bump::Minor);
    assert!(cargo.verdict.ok(), "{:?}", cargo.verdict.problems);
    assert!(
        cargo
            .verdict_line()
            .ends_with("under version_policy = \"cargo\"")
    );

    // No bump: the cargo policy asks for the next minor version, and says why.
    let cargo = moved_fields("0.3", "0.3", Some("cargo"));
    assert!(!cargo.verdict.ok());
    let problem = &cargo.verdict.problems[0];
    assert!(
        problem.contains("at least a minor bump is needed (version = \"0.4\")"),
        "{problem}"
    );
    assert!(problem.contains("a 0.x minor bump may break"), "{problem}");

    // From 1.0 on, cargo is strict: a break needs a major bump.
    let cargo = moved_fields("1.0", "1.1", Some("cargo"));
    assert_eq!(cargo.verdict.required, Bump::Major);
    assert!(cargo.verdict.problems[0].contains("version = \"2.0\""));
}

#[test]
fn a_schema_new_at_the_base_is_a_new_abi() {
    let src = read("schema.toml");
    let schema = load("schema.toml", &src);
    let diff = compute_new_abi(&schema);
    assert!(diff.verdict.ok());
    assert_eq!(diff.verdict.exit_code(), 0);
    let n = diff.new_abi.expect("a new ABI");
    assert_eq!(
        (n.consts, n.enums, n.structs),
        (
            schema.abi().consts.len(),
            schema.abi().enums.len(),
            schema.abi().structs.len()
        )
    );
    let sources = Sources {
        old_file: None,
        old_name: "main:schema.toml",
        old_src: "",
        new_file: "schema.toml",
        new_src: &src,
    };
    let text = render_text(&diff, &sources, false);
    assert!(
        text.starts_with("New ABI: bridge 0.9 (schema.toml), not in main:schema.toml: a new ABI\nOK: a new ABI at 0.9 ("),
        "{text}"
    );
    let github = render_github(&diff, &sources);
    assert_eq!(github.lines().count(), 1, "{github}");
    assert!(github.starts_with("::notice file=schema.toml,"));
}
