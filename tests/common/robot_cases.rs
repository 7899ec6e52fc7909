//! The robot cases of `abi-codegen diff` (issue 38): a newcomer's routine changes to
//! tests/fixtures/diff_rules/robot.toml, each with the verdict a reviewer expects. A rename
//! is one source-breaking change wherever the name is used (a seqlock's guards, a
//! protocol's fields); two swapped fields are one breaking root cause; a value readers
//! follow from the header is compatible (a queue's capacity, a blocks stride, a ring's slot
//! count and slot size: never a second, breaking RING_CHANGED), one they must find equal is breaking; a field
//! appended without `since` speaks with one voice. tests/diff_rules.rs checks them, and
//! tests/diff_verdicts.rs reads the bytes of each side with the other's bindings.

use abi_codegen::diff::Severity as S;

use super::rule_cases::Row;

pub const ROBOT: &str = "tests/fixtures/diff_rules/robot.toml";

/// The base schema's text.
pub fn robot_base() -> String {
    let path = format!("{}/{ROBOT}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// One case: a short name (for the proof's modules) and its row, as the rule table has
/// them: what the user did, as text edits of the base and the new version; the rule of the
/// one root cause, the item it names, its class, words of its advice, and whether the
/// policy holds.
pub struct RobotCase {
    pub name: &'static str,
    pub row: Row,
}

const VEL: (&str, &str) = (
    "{ name = \"twist\", type = \"twist\" }",
    "{ name = \"vel\", type = \"twist\" }",
);

#[rustfmt::skip]
pub const CASES: &[RobotCase] = &[
    RobotCase { name: "guarded_field_renamed", row: Row { change: "a field a seqlock guards (guards = [\"rest\"]) renamed",
        edits: &[VEL], version: "1.1",
        rule: "FIELD_RENAMED", path: "state_record.vel", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true } },
    RobotCase { name: "guarded_struct_renamed", row: Row { change: "the struct of a guarded field renamed, the field keeping its name",
        edits: &[("name = \"twist\"\nfields", "name = \"velocity\"\nfields"),
                 ("{ name = \"twist\", type = \"twist\" }", "{ name = \"twist\", type = \"velocity\" }")],
        version: "1.1", rule: "STRUCT_RENAMED", path: "velocity", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true } },
    RobotCase { name: "protocol_field_renamed", row: Row { change: "a queue's field renamed, the [[queue]] naming the new name",
        edits: &[("{ name = \"dropped\", type = \"u64\", access = \"atomic\" }", "{ name = \"dropped_entries\", type = \"u64\", access = \"atomic\" }"),
                 ("dropped = \"dropped\"", "dropped = \"dropped_entries\"")],
        version: "1.1", rule: "FIELD_RENAMED", path: "log_queue_header.dropped_entries", class: S::SourceBreaking,
        advice: "code that names the old name must take the new one", holds: true } },
    RobotCase { name: "guarded_fields_swapped", row: Row { change: "two fields of a seqlocked record swapped",
        edits: &[("  { name = \"battery\", type = \"f32\" },\n  { name = \"temperature\", type = \"f32\" },", "  { name = \"temperature\", type = \"f32\" },\n  { name = \"battery\", type = \"f32\" },")],
        version: "2.0", rule: "FIELD_MOVED", path: "state_record.temperature", class: S::Breaking,
        advice: "bump the major version", holds: true } },
    RobotCase { name: "queue_capacity_grown", row: Row { change: "a log queue's capacity grown, which readers follow from its header",
        edits: &[("name = \"log_queue_capacity\"\nvalue = 256", "name = \"log_queue_capacity\"\nvalue = 512")],
        version: "1.1", rule: "GEOMETRY_FOLLOWED_CHANGED", path: "log_queue_capacity", class: S::Compatible,
        advice: "bump at least the minor version", holds: true } },
    RobotCase { name: "block_size_grown", row: Row { change: "the client block size grown, a stride readers follow from the header",
        edits: &[("name = \"client_block_size\"\nvalue = 0x400", "name = \"client_block_size\"\nvalue = 0x800")],
        version: "1.1", rule: "GEOMETRY_FOLLOWED_CHANGED", path: "client_block_size", class: S::Compatible,
        advice: "bump at least the minor version", holds: true } },
    RobotCase { name: "ring_slots_grown", row: Row { change: "a pose ring's slot count grown, which readers follow from the header",
        edits: &[("name = \"pose_slots\"\nvalue = 4", "name = \"pose_slots\"\nvalue = 8")],
        version: "1.1", rule: "GEOMETRY_FOLLOWED_CHANGED", path: "pose_slots", class: S::Compatible,
        advice: "bump at least the minor version", holds: true } },
    RobotCase { name: "ring_slot_size_grown", row: Row { change: "a pose ring's slot size grown, which readers follow from the header",
        edits: &[("name = \"pose_slot_size\"\nvalue = 64", "name = \"pose_slot_size\"\nvalue = 128")],
        version: "1.1", rule: "GEOMETRY_FOLLOWED_CHANGED", path: "pose_slot_size", class: S::Compatible,
        advice: "bump at least the minor version", holds: true } },
    RobotCase { name: "appended_without_since", row: Row { change: "a field appended to the handshake header with no since and no bump",
        edits: &[("  { name = \"clients\", type = \"client_row[max_clients]\", writer = [\"host\", \"client\"] },\n", "  { name = \"clients\", type = \"client_row[max_clients]\", writer = [\"host\", \"client\"] },\n  { name = \"uptime\", type = \"u64\" },\n")],
        version: "1.0", rule: "FIELD_APPENDED_WITHOUT_SINCE", path: "header.uptime", class: S::Breaking,
        advice: "give the field since = \"1.1\" (then it is compatible and a minor bump does), or bump the major version", holds: false } },
    RobotCase { name: "appended_with_since", row: Row { change: "the same field with since = \"1.1\" and a minor bump",
        edits: &[("  { name = \"clients\", type = \"client_row[max_clients]\", writer = [\"host\", \"client\"] },\n", "  { name = \"clients\", type = \"client_row[max_clients]\", writer = [\"host\", \"client\"] },\n  { name = \"uptime\", type = \"u64\", since = \"1.1\" },\n")],
        version: "1.1", rule: "FIELD_APPENDED", path: "header.uptime", class: S::Compatible,
        advice: "bump at least the minor version", holds: true } },
    RobotCase { name: "owner_dropped", row: Row { change: "a blocks row no longer owned by the session's rows",
        edits: &[(", owner = \"client\" }", " }")],
        version: "1.1", rule: "LAYOUT_ROW_OWNER_CHANGED", path: "robot.clients", class: S::Breaking,
        advice: "bump the major version", holds: false } },
    RobotCase { name: "equal_geometry_changed", row: Row { change: "a number readers must find equal in the header, which sizes nothing",
        edits: &[("name = \"joint_count\"\nvalue = 6", "name = \"joint_count\"\nvalue = 7")],
        version: "1.1", rule: "GEOMETRY_EQUAL_CHANGED", path: "joint_count", class: S::Breaking,
        advice: "bump the major version", holds: false } },
];

/// The base with `edits` applied, each `from` found exactly once, at `version`.
pub fn robot_src(base: &str, edits: &[(&str, &str)], version: &str) -> String {
    let mut s = base.to_string();
    let v = format!("version = \"{version}\"");
    for (from, to) in edits
        .iter()
        .copied()
        .chain([("version = \"1.0\"", v.as_str())])
    {
        assert_eq!(
            s.matches(from).count(),
            1,
            "{from:?} is not in the text once"
        );
        s = s.replacen(from, to, 1);
    }
    s
}

/// A case's new schema text.
pub fn case_src(case: &RobotCase) -> String {
    robot_src(&robot_base(), case.row.edits, case.row.version)
}
