//! Random changes to tests/fixtures/diff_verdicts/base.toml, from a seed: a mix of the
//! changes a minor version may make (new constants, enum values, fields in declared padding,
//! a field at the end of an extensible handshake header, new layout rows with `since` or
//! `optional`, parties and a seqlock's reader, docs, unrelated structs), or one change that
//! breaks readers (a required new row, two fields swapped, a new magic). The text is a pure
//! function of the seed; what `diff` makes of it is for the test to check, not for this
//! module to say.

use std::fmt::Write as _;

use super::random_schema::Rng;

/// One changed schema.
pub struct Changed {
    pub seed: u64,
    /// The new schema's text (version "1.1").
    pub toml: String,
    /// What was done, one short phrase per change.
    pub changes: Vec<String>,
    /// Whether one of the changes breaks readers (the control cases).
    pub breaking: bool,
}

/// `src` with `from` replaced by `to`; `from` must be in the text exactly once.
fn replace_once(src: &mut String, from: &str, to: &str) {
    assert_eq!(
        src.matches(from).count(),
        1,
        "{from:?} is not in the base once"
    );
    *src = src.replacen(from, to, 1);
}

const NAMES: &[&str] = &[
    "viewers", "budget", "latency", "quota", "spare", "cursor", "weight", "epoch", "limit",
];

/// A field name not in the base, from the seed.
fn field_name(rng: &mut Rng, taken: &mut Vec<String>) -> String {
    loop {
        let name = format!(
            "{}_{}",
            rng.pick(NAMES),
            rng.pick(&["count", "level", "mark", "hint"])
        );
        if !taken.contains(&name) {
            taken.push(name.clone());
            return name;
        }
    }
}

/// Fields that fill 4 bytes of declared padding at `offset` (a multiple of 4), `since` given.
fn fill_four(rng: &mut Rng, name: &str, offset: u64, since: &str) -> String {
    match rng.below(4) {
        0 => format!("  {{ name = \"{name}\", type = \"u32\"{since} }},\n"),
        1 => format!("  {{ name = \"{name}\", type = \"i32\"{since} }},\n"),
        2 => format!("  {{ name = \"{name}\", type = \"f32\"{since} }},\n"),
        _ => format!(
            "  {{ name = \"{name}\", type = \"u16\"{since} }},\n  {{ name = \"_pad{}\", type = \"u8[2]\" }},\n",
            offset + 2
        ),
    }
}

/// The changes a minor version may make, each applied with some probability (at least one).
fn compatible_changes(rng: &mut Rng, src: &mut String, done: &mut Vec<String>) {
    let mut taken = Vec::new();
    while done.is_empty() {
        if rng.chance(40) {
            let name = format!("{}_max", rng.pick(NAMES));
            let value = rng.range(1, 1 << 20);
            let _ = write!(src, "\n[[const]]\nname = \"{name}\"\nvalue = {value}\n");
            done.push(format!("constant {name} added"));
        }
        if rng.chance(40) {
            let name = rng.pick(&["pending", "retry", "gone"]);
            replace_once(
                src,
                "  { name = \"failed\", value = 1, doc = \"Refused\" },\n",
                &format!(
                    "  {{ name = \"failed\", value = 1, doc = \"Refused\" }},\n  {{ name = \"{name}\", value = {}, since = \"1.1\" }},\n",
                    rng.range(2, 9)
                ),
            );
            done.push(format!("enum value status.{name} added"));
        }
        if rng.chance(40) {
            let name = field_name(rng, &mut taken);
            let fields = fill_four(rng, &name, 20, ", since = \"1.1\"");
            replace_once(
                src,
                "  { name = \"load\", type = \"u32\" },\n  { name = \"_pad20\", type = \"u8[4]\" },\n",
                &format!("  {{ name = \"load\", type = \"u32\" }},\n{fields}"),
            );
            done.push(format!("stats.{name} in declared padding"));
        }
        if rng.chance(40) {
            // A handshake struct's padding: no `since`, as diff advises (the header's
            // minor version is what tells a reader whether the producer wrote it).
            let name = field_name(rng, &mut taken);
            let fields = fill_four(rng, &name, 20, "");
            replace_once(
                src,
                "  { name = \"_pad20\", type = \"u8[4]\" },\n  { name = \"regions\"",
                &format!("{fields}  {{ name = \"regions\""),
            );
            done.push(format!("header.{name} in declared padding"));
        }
        if rng.chance(40) {
            let name = field_name(rng, &mut taken);
            let ty = rng.pick(&["u64", "i64", "f64", "u32[2]", "u16[4]"]);
            replace_once(
                src,
                "  { name = \"clock\", type = \"u64\", since = \"1.0\" },\n",
                &format!(
                    "  {{ name = \"clock\", type = \"u64\", since = \"1.0\" }},\n  {{ name = \"{name}\", type = \"{ty}\", since = \"1.1\" }},\n"
                ),
            );
            done.push(format!("header.{name} appended (extensible)"));
        }
        if rng.chance(35) {
            let name = rng.pick(&["scratch", "overlay", "replay"]);
            let bytes = 8 * rng.range(1, 32);
            let (value_since, optional) = if rng.chance(50) {
                (", since = \"1.1\"", "")
            } else {
                ("", ", optional = true")
            };
            replace_once(
                src,
                "  { name = \"journal\", value = 3 },\n",
                &format!(
                    "  {{ name = \"journal\", value = 3 }},\n  {{ name = \"{name}\", value = 4{value_since} }},\n"
                ),
            );
            replace_once(
                src,
                "  { name = \"journal\", struct = \"journal\" },\n",
                &format!(
                    "  {{ name = \"journal\", struct = \"journal\" }},\n  {{ name = \"{name}\", bytes = {bytes}{optional} }},\n"
                ),
            );
            done.push(format!(
                "layout row image.{name} ({bytes} bytes{value_since}{optional})"
            ));
        }
        if rng.chance(30) {
            let bytes = 8 * rng.range(1, 16);
            replace_once(
                src,
                "  { name = \"input\", value = 0 },\n",
                "  { name = \"input\", value = 0 },\n  { name = \"aim\", value = 1, since = \"1.1\" },\n",
            );
            replace_once(
                src,
                "  { name = \"input\", struct = \"input\" },\n",
                &format!(
                    "  {{ name = \"input\", struct = \"input\" }},\n  {{ name = \"aim\", bytes = {bytes} }},\n"
                ),
            );
            done.push(format!("block row block.aim ({bytes} bytes, since)"));
        }
        if rng.chance(25) {
            let party = rng.pick(&["tool", "viewer", "recorder"]);
            replace_once(
                src,
                "parties = [\"host\", \"client\"]",
                &format!("parties = [\"host\", \"client\", \"{party}\"]"),
            );
            done.push(format!("party {party} added"));
            if rng.chance(50) {
                replace_once(src, "reader = \"client\"", &format!("reader = \"{party}\""));
                done.push(format!("stats_lock read by {party}"));
            }
        }
        if rng.chance(25) {
            replace_once(
                src,
                "name = \"input\"\nwriter = \"client\"",
                "name = \"input\"\ndoc = \"What a client sends each frame.\"\nwriter = \"client\"",
            );
            done.push("input documented".to_string());
        }
        if rng.chance(25) {
            let name = rng.pick(&["sample", "probe", "marker"]);
            let _ = write!(
                src,
                "\n[[struct]]\nname = \"{name}\"\nfields = [\n  {{ name = \"at\", type = \"u64\" }},\n  {{ name = \"value\", type = \"f32\" }},\n  {{ name = \"_pad12\", type = \"u8[4]\" }},\n]\n"
            );
            done.push(format!("struct {name} added"));
        }
    }
}

/// One change that breaks a reader of the other version.
fn breaking_change(kind: u64, src: &mut String, done: &mut Vec<String>) {
    match kind % 3 {
        0 => {
            replace_once(
                src,
                "  { name = \"journal\", value = 3 },\n",
                "  { name = \"journal\", value = 3 },\n  { name = \"scratch\", value = 4 },\n",
            );
            replace_once(
                src,
                "  { name = \"journal\", struct = \"journal\" },\n",
                "  { name = \"journal\", struct = \"journal\" },\n  { name = \"scratch\", bytes = 64 },\n",
            );
            done.push("required layout row image.scratch added".to_string());
        }
        1 => {
            replace_once(
                src,
                "  { name = \"tick\", type = \"u64\" },\n  { name = \"load\", type = \"u32\" },\n  { name = \"_pad20\", type = \"u8[4]\" },\n",
                "  { name = \"tick\", type = \"u64\" },\n  { name = \"_pad16\", type = \"u8[4]\" },\n  { name = \"load\", type = \"u32\" },\n",
            );
            done.push("stats.load moved into its padding".to_string());
        }
        _ => {
            replace_once(src, "value = 0x47554147", "value = 0x32554147");
            done.push("gauge_magic changed".to_string());
        }
    }
}

/// The changed schema of `seed`: every fifth seed is a breaking control (the three kinds in
/// turn), the rest compatible.
pub fn changed_schema(base: &str, seed: u64) -> Changed {
    let mut rng = Rng::new(seed);
    let mut toml = base.replacen("version = \"1.0\"", "version = \"1.1\"", 1);
    let mut changes = Vec::new();
    let breaking = seed % 5 == 0;
    if breaking {
        breaking_change(seed / 5, &mut toml, &mut changes);
    } else {
        compatible_changes(&mut rng, &mut toml, &mut changes);
    }
    Changed {
        seed,
        toml,
        changes,
        breaking,
    }
}
