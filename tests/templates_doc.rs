//! codegen/TEMPLATES.md stays true: it lists every key of the layout context (as
//! `structs[].fields[].offset`), states the current format version, and its filter table,
//! error example and worked example are what the generator and templates/bridge.mjs.j2
//! really do.

use std::collections::BTreeSet;
use std::path::Path;

use abi_codegen::testing::language_backend::user_template::{
    render_user_template, template_context,
};
use serde_json::Value;

use crate::common;
use common::readme::block_in;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn schema() -> abi_codegen::Schema {
    let src = read("schema.toml");
    abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render("schema.toml", &src)))
}

/// Every key path of `value`: `a.b` for a key of an object, `a[].b` for a key of a list's
/// elements.
fn key_paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                key_paths(v, &path, out);
                out.insert(path);
            }
        }
        Value::Array(items) => {
            for v in items {
                key_paths(v, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_key_of_the_context_is_documented() {
    let doc = read("codegen/TEMPLATES.md");
    let mut paths = BTreeSet::new();
    let schema = schema();
    let context =
        serde_json::to_value(template_context(&schema, "schema.toml")).expect("serializes");
    key_paths(&context, "", &mut paths);
    assert!(paths.len() > 100, "{} key paths", paths.len());
    let missing: Vec<&String> = paths
        .iter()
        .filter(|p| !doc.contains(&format!("| `{p}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "codegen/TEMPLATES.md documents no row for these keys of the layout context \
         (add a table row `| `KEY` | type | meaning | example |`, and raise \
         LAYOUT_FORMAT_VERSION if a key was renamed or removed): {missing:?}"
    );
    println!("{} key paths of the context documented", paths.len());
}

#[test]
fn the_documented_format_version_is_the_current_one() {
    let doc = read("codegen/TEMPLATES.md");
    let version = abi_codegen::testing::report::LAYOUT_FORMAT_VERSION;
    assert!(
        doc.contains(&format!("the current format version is **{version}**")),
        "TEMPLATES.md must state the current format version, {version}"
    );
}

#[test]
fn the_filter_table_is_what_the_filters_do() {
    let doc = read("codegen/TEMPLATES.md");
    let schema = schema();
    let mut rows = 0;
    for line in doc
        .lines()
        .filter(|l| l.starts_with("| `") && l.contains("{{"))
    {
        let cells: Vec<&str> = line.split(" | ").collect();
        let example = cells[2].trim_matches('`').replace("\\|", "|");
        let result = cells[3].trim_end_matches(" |").trim_matches('`');
        let got = render_user_template(&schema, "schema.toml", "filter.j2", &example)
            .unwrap_or_else(|e| panic!("{example}: {e}"));
        assert_eq!(got, result, "{example}");
        rows += 1;
    }
    assert_eq!(rows, 4, "pascal_case, camel_case, upper_snake_case, hex");
}

#[test]
fn the_error_example_is_the_real_message() {
    let doc = read("codegen/TEMPLATES.md");
    let errors = block_in(&doc, "## Errors", "text");
    let schema = schema();
    for (template, line) in [("a\n{{ structs[0].nope }}\n", 0), ("{% for %}\n", 1)] {
        let err = render_user_template(&schema, "schema.toml", "templates/bridge.mjs.j2", template)
            .expect_err("fails");
        assert_eq!(errors.lines().nth(line), Some(&*err.to_string()));
    }
}

#[test]
fn the_worked_example_is_the_template_and_its_output() {
    let doc = read("codegen/TEMPLATES.md");
    let template = read("templates/bridge.mjs.j2");
    let output = read("generated/bridge.mjs");
    let example = block_in(&doc, "## A worked example", "jinja");
    assert!(
        template.contains(example),
        "TEMPLATES.md's worked example is not in templates/bridge.mjs.j2:\n{example}"
    );
    let printed = block_in(&doc, "For `client_entry` it prints:", "js");
    assert!(
        output.contains(printed),
        "TEMPLATES.md's readClientEntry is not in generated/bridge.mjs:\n{printed}"
    );
}
