//! The conformance runner (`tests/conformance/README.md`): reads every scenario of
//! `tests/conformance/scenarios/`, resolves its raw ops' field names to offsets from the
//! schema's layout, runs the same driver input through the Rust driver (in this process), the
//! C driver (`driver.c` over `generated/bridge.h`, built with gcc) and the Python driver
//! (`driver.py` over `generated/bridge.py`), and compares every step's answer with the
//! scenario's expected one. A difference fails the test, naming the scenario, the step and the
//! language, unless `known.toml` lists the pair, which must then still fail.
//!
//! Needs gcc and python3; fails, never skips, without them.
#![cfg(not(miri))]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::common;
use crate::common::tools::{run, run_ok, scratch};

/// The languages, in the order they are reported.
const LANGUAGES: [&str; 3] = ["rust", "c", "python"];

/// The geometry every `host produce` gets unless the step gives it: the mailbox's areas,
/// which no constant of the schema sizes.
const DEFAULT_GEOMETRY: [(&str, u64); 2] = [
    ("mailbox.request_capacity", 256),
    ("mailbox.response_capacity", 256),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scenario as written.
#[derive(Debug)]
struct Scenario {
    file: String,
    name: String,
    /// Each step: the driver line (raw ops resolved) and the expected answer.
    steps: Vec<(String, String)>,
}

/// The known failures: (scenario, language) → why.
type Known = BTreeMap<(String, String), String>;

/// Field names to offsets, from the schema's layout: struct → field → (offset, size, access
/// width).
struct Fields {
    structs: BTreeMap<String, Vec<FieldInfo>>,
    /// Block set (`client_blocks`) → (its header struct, region name → struct).
    blocks: BTreeMap<String, (String, BTreeMap<String, String>)>,
    /// The root header struct.
    root: String,
}

#[derive(Clone, Debug)]
struct FieldInfo {
    name: String,
    offset: u64,
    size: u64,
    access_width: Option<u64>,
}

impl Fields {
    fn of_bridge() -> Self {
        let json = abi_codegen::testing::report::layout_json(&common::bridge_schema());
        let mut structs = BTreeMap::new();
        for s in json["structs"].as_array().expect("structs") {
            let fields = s["fields"]
                .as_array()
                .expect("fields")
                .iter()
                .map(|f| FieldInfo {
                    name: f["name"].as_str().expect("a name").to_string(),
                    offset: f["offset"].as_u64().expect("an offset"),
                    size: f["size"].as_u64().expect("a size"),
                    access_width: f["access_width"].as_u64(),
                })
                .collect();
            structs.insert(s["name"].as_str().expect("a name").to_string(), fields);
        }
        let layouts = json["layouts"].as_array().expect("layouts");
        let by_name = |name: &str| {
            layouts
                .iter()
                .find(|l| l["name"] == name)
                .unwrap_or_else(|| panic!("layout {name}"))
        };
        let root = layouts
            .iter()
            .find(|l| l["root"] == true)
            .expect("a root layout");
        let mut blocks = BTreeMap::new();
        for row in root["rows"].as_array().expect("rows") {
            // A blocks row names the layout its blocks follow.
            let Some(layout) = row["holds"]["blocks"].as_str() else {
                continue;
            };
            let l = by_name(layout);
            let regions = l["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .filter_map(|r| {
                    Some((
                        r["name"].as_str()?.to_string(),
                        r["holds"]["struct"].as_str()?.to_string(),
                    ))
                })
                .collect();
            blocks.insert(
                row["name"].as_str().expect("a name").to_string(),
                (l["header"].as_str().expect("a header").to_string(), regions),
            );
        }
        Fields {
            structs,
            blocks,
            root: root["header"].as_str().expect("a header").to_string(),
        }
    }

    /// The struct a place holds: `header`, `SET/ROW` (the block's header), `SET/ROW/REGION`.
    fn struct_of(&self, place: &str) -> Result<&str, String> {
        if place == "header" {
            return Ok(&self.root);
        }
        let parts: Vec<&str> = place.split('/').collect();
        let (header, regions) = self.blocks.get(parts[0]).ok_or_else(|| {
            format!(
                "no block set `{}` (there are {:?})",
                parts[0],
                self.blocks.keys()
            )
        })?;
        match parts.as_slice() {
            [_, _] => Ok(header),
            [_, _, region] => regions
                .get(*region)
                .map(String::as_str)
                .ok_or_else(|| format!("no region `{region}` in `{}`", parts[0])),
            _ => Err(format!(
                "place `{place}`: header, SET/ROW or SET/ROW/REGION"
            )),
        }
    }

    /// `PLACE.FIELD` → (place, offset, width): an atomic field's access width, else its size
    /// (which must be a word's).
    fn resolve(&self, path: &str) -> Result<(String, u64, u64), String> {
        let (place, field) = path
            .split_once('.')
            .ok_or_else(|| format!("`{path}`: PLACE.FIELD"))?;
        let s = self.struct_of(place)?;
        let f = self.structs[s]
            .iter()
            .find(|f| f.name == field)
            .ok_or_else(|| format!("struct `{s}` has no field `{field}`"))?;
        let width = f.access_width.unwrap_or(f.size);
        if ![1, 2, 4, 8].contains(&width) {
            return Err(format!("`{path}` is {width} bytes: not a word"));
        }
        Ok((place.to_string(), f.offset, width))
    }

    /// Every word the host alone writes in row `row`'s blocks, as the generator's plan
    /// decides them once for every target (`abi_codegen::testing::plan::host_words`: the block headers
    /// and each region's header, each word with the one size all its accesses have), the
    /// restored ones and the positions a free carries alike. The vandal's targets.
    fn host_words(&self, row: &str) -> Vec<(String, u64, u64)> {
        let schema = common::bridge_schema();
        let session = (schema.protocols().iter())
            .find(|p| p.kind.table() == "session")
            .and_then(|p| schema.protocol_id(&p.name))
            .expect("the bridge's session");
        let mut out = Vec::new();
        for o in abi_codegen::testing::plan::session::owned_blocks(&schema, session) {
            let set = &schema.attach().layouts[o.layout].rows[o.row].name;
            assert!(self.blocks.contains_key(set), "block set {set}");
            let rows = &schema.attach().layouts[o.block_layout].rows;
            for w in &o.words {
                let place = match w.region {
                    None => format!("{set}/{row}"),
                    Some(r) => format!("{set}/{row}/{}", rows[r].name),
                };
                out.push((place, w.at, w.width));
            }
        }
        out
    }
}

/// Reads every scenario file, in name order.
fn scenarios(fields: &Fields) -> Vec<Scenario> {
    let dir = root().join("tests/conformance/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/conformance/scenarios")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    let mut names = BTreeSet::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        for s in doc["scenario"]
            .as_array()
            .unwrap_or_else(|| panic!("{file}: [[scenario]]"))
        {
            let name = s["name"]
                .as_str()
                .unwrap_or_else(|| panic!("{file}: a name"))
                .to_string();
            assert!(
                s.get("doc")
                    .and_then(|d| d.as_str())
                    .is_some_and(|d| !d.is_empty()),
                "{file}: scenario {name} has no doc"
            );
            assert!(names.insert(name.clone()), "{file}: scenario {name} twice");
            let mut steps = Vec::new();
            for step in s["steps"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: steps"))
            {
                let step = step
                    .as_str()
                    .unwrap_or_else(|| panic!("{name}: a step is a string"));
                let (line, expected) = step
                    .split_once(" => ")
                    .unwrap_or_else(|| panic!("{name}: `{step}` has no `=> EXPECTED`"));
                for line in expand(fields, line.trim())
                    .unwrap_or_else(|e| panic!("{file}: {name}: `{step}`: {e}"))
                {
                    steps.push((line, expected.trim().to_string()));
                }
            }
            assert!(!steps.is_empty(), "{name}: no steps");
            out.push(Scenario {
                file: file.clone(),
                name,
                steps,
            });
        }
    }
    out
}

/// A scenario's step as the drivers see it: raw ops' field names resolved, `host produce`'s
/// default geometry added, `vandal scribble ROW VALUE` expanded into one poke per host-written
/// word of row ROW's blocks (each expecting the step's answer).
fn expand(fields: &Fields, line: &str) -> Result<Vec<String>, String> {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["host", "produce", geometry @ ..] => {
            let mut all: Vec<String> = DEFAULT_GEOMETRY
                .iter()
                .filter(|(n, _)| !geometry.iter().any(|g| g.starts_with(&format!("{n}="))))
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            all.extend(geometry.iter().map(|g| g.to_string()));
            Ok(vec![format!("host produce {}", all.join(" "))])
        }
        [actor, "poke", path, value] => {
            let (place, at, width) = fields.resolve(path)?;
            Ok(vec![format!("{actor} poke {place} {at} {width} {value}")])
        }
        [actor, "peek", path] => {
            let (place, at, width) = fields.resolve(path)?;
            Ok(vec![format!("{actor} peek {place} {at} {width}")])
        }
        [actor, "scribble", row, value] => {
            let words = fields.host_words(row);
            if words.is_empty() {
                return Err("no host-written field in the blocks".to_string());
            }
            // Every place is located first, so that no poke moves where a later one goes.
            let places: BTreeSet<&String> = words.iter().map(|(place, _, _)| place).collect();
            Ok(places
                .into_iter()
                .map(|place| format!("{actor} locate {place}"))
                .chain(
                    words.iter().map(|(place, at, width)| {
                        format!("{actor} poke {place} {at} {width} {value}")
                    }),
                )
                .collect())
        }
        _ => Ok(vec![line.to_string()]),
    }
}

fn known() -> Known {
    let text = std::fs::read_to_string(root().join("tests/conformance/known.toml")).unwrap();
    let doc: toml::Table = toml::from_str(&text).expect("known.toml");
    let mut out = Known::new();
    for k in doc
        .get("known")
        .and_then(|k| k.as_array())
        .into_iter()
        .flatten()
    {
        let scenario = k["scenario"].as_str().expect("a scenario").to_string();
        let why = k["why"].as_str().expect("a why").to_string();
        for l in k["languages"].as_array().expect("languages") {
            let l = l.as_str().expect("a language").to_string();
            assert!(LANGUAGES.contains(&l.as_str()), "known.toml: language {l}");
            out.insert((scenario.clone(), l), why.clone());
        }
    }
    out
}

/// The driver input of every scenario.
fn input(scenarios: &[Scenario]) -> String {
    let mut out = String::new();
    for s in scenarios {
        writeln!(out, "scenario {}", s.name).unwrap();
        for (line, _) in &s.steps {
            writeln!(out, "{line}").unwrap();
        }
        out.push_str("end\n");
    }
    out
}

/// A driver's answers, by scenario: its answer lines.
fn answers(output: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in output.lines() {
        if let Some(name) = line.strip_prefix("scenario ") {
            current = Some((name.to_string(), Vec::new()));
        } else if line == "end" {
            if let Some((name, lines)) = current.take() {
                out.insert(name, lines);
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line.to_string());
        }
    }
    out
}

fn c_driver(dir: &Path, input: &Path) -> String {
    std::fs::copy(root().join("generated/bridge.h"), dir.join("bridge.h")).unwrap();
    std::fs::copy(
        root().join("tests/conformance/driver.c"),
        dir.join("driver.c"),
    )
    .unwrap();
    run_ok(
        "gcc",
        &[
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
            "-I.",
            "driver.c",
            "-o",
            "driver",
            "-latomic",
        ],
        dir,
    );
    let out = run(
        dir.join("driver").to_str().unwrap(),
        &[input.to_str().unwrap()],
        dir,
    );
    assert!(
        out.status.success(),
        "the C driver failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn python_driver(dir: &Path, input: &Path) -> String {
    let out = std::process::Command::new("python3")
        .args(["-B", "-W", "error"])
        .arg(root().join("tests/conformance/driver.py"))
        .arg(input)
        .env("PYTHONPATH", root().join("generated"))
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("python3 is needed for the conformance suite: {e}"));
    assert!(
        out.status.success(),
        "the Python driver failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Each scenario's first difference in one language, `None` when it passed.
fn first_difference(s: &Scenario, got: Option<&Vec<String>>) -> Option<String> {
    let Some(got) = got else {
        return Some("no answers at all".to_string());
    };
    for (i, (line, expected)) in s.steps.iter().enumerate() {
        match got.get(i) {
            Some(answer) if answer == expected => {}
            Some(answer) => {
                return Some(format!(
                    "step {} `{line}`: expected `{expected}`, got `{answer}`",
                    i + 1
                ));
            }
            None => return Some(format!("step {} `{line}`: no answer", i + 1)),
        }
    }
    (got.len() > s.steps.len())
        .then(|| format!("{} answers for {} steps", got.len(), s.steps.len()))
}

#[test]
fn every_scenario_answers_the_same_in_rust_c_and_python() {
    let fields = Fields::of_bridge();
    let scenarios = scenarios(&fields);
    let known = known();
    for (scenario, _) in known.keys() {
        assert!(
            scenarios.iter().any(|s| &s.name == scenario),
            "known.toml names scenario {scenario}, which does not exist"
        );
    }
    let dir = scratch("conformance");
    let input_text = input(&scenarios);
    let input_path = dir.join("input.txt");
    std::fs::write(&input_path, &input_text).unwrap();
    // Each driver's answers are kept beside the input, for a reader of a failure.
    let keep = |language: &str, output: String| {
        std::fs::write(dir.join(format!("{language}.out")), &output).unwrap();
        output
    };
    let outputs = [
        keep("rust", crate::conformance_driver::run(&input_text)),
        keep("c", c_driver(&dir, &input_path)),
        keep("python", python_driver(&dir, &input_path)),
    ];
    let mut failures = Vec::new();
    let mut caught = Vec::new();
    let mut passed = [0usize; 3];
    for (li, (language, output)) in LANGUAGES.iter().zip(&outputs).enumerate() {
        let answers = answers(output);
        for s in &scenarios {
            let diff = first_difference(s, answers.get(&s.name));
            let key = (s.name.clone(), language.to_string());
            match (diff, known.get(&key)) {
                (None, None) => passed[li] += 1,
                (Some(d), None) => {
                    failures.push(format!("{language}: {} ({}): {d}", s.name, s.file))
                }
                (Some(d), Some(why)) => caught.push(format!("{language}: {}: {d} [{why}]", s.name)),
                (None, Some(why)) => failures.push(format!(
                    "{language}: {} now passes: remove it from tests/conformance/known.toml ({why})",
                    s.name
                )),
            }
        }
    }
    eprintln!(
        "conformance: {} scenarios, {} steps; passed: rust {}, c {}, python {}; {} known failures still failing",
        scenarios.len(),
        scenarios.iter().map(|s| s.steps.len()).sum::<usize>(),
        passed[0],
        passed[1],
        passed[2],
        caught.len()
    );
    for c in &caught {
        eprintln!("  known: {c}");
    }
    assert!(
        scenarios.len() >= 40,
        "the suite must hold at least 40 scenarios, it has {}",
        scenarios.len()
    );
    assert!(
        failures.is_empty(),
        "{} conformance differences (the drivers' answers are in {}):\n{}",
        failures.len(),
        dir.display(),
        failures.join("\n")
    );
}

/// The runner itself can fail: a scenario whose expected answer is wrong is reported for
/// every language, and a driver that answers differently is named.
#[test]
fn a_wrong_expectation_is_reported_for_each_language() {
    let fields = Fields::of_bridge();
    let s = Scenario {
        file: "inline".to_string(),
        name: "inline".to_string(),
        steps: vec![
            (
                expand(&fields, "host produce").unwrap().remove(0),
                "ok".to_string(),
            ),
            ("a attach".to_string(), "ok".to_string()),
            ("a claim 0".to_string(), "taken".to_string()),
        ],
    };
    let input_text = input(std::slice::from_ref(&s));
    let rust = answers(&crate::conformance_driver::run(&input_text));
    let d = first_difference(&s, rust.get("inline")).expect("a difference");
    assert!(d.contains("step 3") && d.contains("got `ok`"), "{d}");
    // A driver that answers fewer lines is reported too.
    let mut short = rust["inline"].clone();
    short.pop();
    assert!(
        first_difference(&s, Some(&short))
            .unwrap()
            .contains("no answer")
    );
}

#[test]
fn field_names_resolve_to_the_layout_offsets() {
    let fields = Fields::of_bridge();
    // The reference: mailbox_header.request_capacity at 24, 4 bytes; bridge_header's
    // host_generation at 20 (bridge-abi-0.9-reference.txt).
    assert_eq!(
        fields
            .resolve("client_blocks/0/mailbox.request_capacity")
            .unwrap(),
        ("client_blocks/0/mailbox".to_string(), 24, 4)
    );
    assert_eq!(
        fields.resolve("header.host_generation").unwrap(),
        ("header".to_string(), 20, 4)
    );
    assert!(fields.resolve("client_blocks/0/mailbox.nosuch").is_err());
    let words = fields.host_words("0");
    assert!(words.contains(&("client_blocks/0/log_queue".to_string(), 16, 4)));
    assert!(words.contains(&("bot_blocks/0/draw".to_string(), 4, 4)));
    assert!(
        !words
            .iter()
            .any(|(p, at, _)| p == "client_blocks/0/mailbox" && *at == 0)
    );
}

/// Which `[[file]]` formats get a recording reader is one rule (the plan's
/// `has_recording`), printed by Rust and Python alike: a format with a seek table and both
/// plain and XOR steps gets a reader in both; one without a seek table, or with plain steps
/// only, in neither. Before, Python's own rule gave a format without `seek` a reader that Rust
/// did not have.
#[test]
fn a_recording_reader_is_generated_for_the_same_formats_in_rust_and_python() {
    let fixture =
        std::fs::read_to_string(root().join("tests/fixtures/recording/sensor_log.toml")).unwrap();
    let seek = r#", seek = { key = "seq", first = "low", last = "high" }"#;
    let xor = r#"plain = ["whole", "same_as_before"], xor = ["diff"]"#;
    assert!(
        fixture.contains(seek) && fixture.contains(xor),
        "the fixture moved"
    );
    let cases = [
        ("with a seek table", fixture.clone(), true),
        ("without a seek table", fixture.replace(seek, ""), false),
        (
            "with plain steps only",
            fixture.replace(xor, r#"plain = ["whole", "same_as_before", "diff"]"#),
            false,
        ),
    ];
    for (what, text, expected) in cases {
        let schema = abi_codegen::load_schema(&text)
            .unwrap_or_else(|e| panic!("{what}: {}", e.render("sensor_log.toml", &text)));
        let rust =
            abi_codegen::testing::language_backend::rust::expand_rust(&schema, "schema.toml");
        let python =
            abi_codegen::testing::language_backend::python::render_python(&schema, "schema.toml")
                .unwrap();
        // The reader is a line of `abi_runtime::recording_format!`.
        let in_rust = rust.contains("] reader SensorLogReader: header ");
        let in_python = python.contains("class SensorLogReader(");
        assert_eq!(
            (in_rust, in_python),
            (expected, expected),
            "{what}: a reader in Rust {in_rust}, in Python {in_python}"
        );
    }
}

/// docs/evidence.md's example scenario is one of the suite's, word for word (name, doc and steps).
#[test]
fn the_readme_example_is_a_scenario_of_the_suite() {
    let readme = std::fs::read_to_string(root().join("docs/evidence.md")).unwrap();
    let heading = "### One behaviour in three languages: the conformance suite\n";
    let section = &readme[readme.find(heading).expect("the docs/evidence.md section")..];
    let block = &section[section.find("```toml\n").expect("a toml block") + 8..];
    let block = &block[..block.find("```").expect("a closed block")];
    let readme: toml::Table = toml::from_str(block).expect("the docs/evidence.md scenario is TOML");
    let example = &readme["scenario"].as_array().expect("[[scenario]]")[0];
    let name = example["name"].as_str().expect("a name");
    let dir = root().join("tests/conformance/scenarios");
    let found = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter_map(|text| toml::from_str::<toml::Table>(&text).ok())
        .flat_map(|doc| doc["scenario"].as_array().cloned().unwrap_or_default())
        .find(|s| s["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("the docs/evidence.md scenario {name} is not in the suite"));
    assert_eq!(
        example, &found,
        "docs/evidence.md's {name} differs from the suite's"
    );
}
