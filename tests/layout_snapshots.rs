//! Layout snapshots: the `abi-codegen layout` tables of every bridge struct (one snapshot of
//! the whole bridge), and the layout JSON of a small fixture. The bridge numbers are
//! checked against the plain-text reference in `reference_layout.rs`; the fixture's against
//! gcc here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use abi_codegen::testing::report::{layout_json, layout_table};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(path: &Path) -> abi_codegen::Schema {
    let src =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    abi_codegen::load_schema(&src).unwrap_or_else(|e| {
        panic!(
            "{} has errors:\n{}",
            path.display(),
            e.render("schema.toml", &src)
        )
    })
}

fn bridge() -> abi_codegen::Schema {
    load(&root().join("schema.toml"))
}

/// One snapshot of the bridge's whole layout, every struct's table in the schema's order:
/// the file a layout change shows up in, whole, in review. (The numbers themselves are
/// checked against the reference in `reference_layout.rs`.)
#[test]
fn bridge_layout_tables() {
    let schema = bridge();
    let tables: Vec<String> = (schema.abi().struct_ids())
        .map(|i| layout_table(&schema, i))
        .collect();
    insta::assert_snapshot!("bridge_layout_tables", tables.join("\n"));
}

/// A snapshot left behind by a renamed test would never be checked again.
#[test]
fn no_snapshot_without_a_test() {
    let mut found: Vec<String> = fs::read_dir(root().join("tests/snapshots"))
        .expect("tests/snapshots exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.starts_with("suite__layout_snapshots__") && n.ends_with(".snap"))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "suite__layout_snapshots__bridge_layout_tables.snap",
            "suite__layout_snapshots__small_layout_json.snap"
        ]
    );
}

fn small_fixture() -> PathBuf {
    root().join("tests/fixtures/layout/small.toml")
}

#[test]
fn small_layout_json() {
    let schema = load(&small_fixture());
    let json = serde_json::to_string_pretty(&layout_json(&schema)).expect("json serializes");
    insta::assert_snapshot!("small_layout_json", json);
}

/// Compiles a program with gcc that prints, for the hand-written `small.h`, each struct's
/// size and alignment and each field's offset and size, and compares them with the JSON.
#[test]
fn small_layout_json_matches_gcc() {
    let schema = load(&small_fixture());
    let json = layout_json(&schema);
    let structs = json["structs"].as_array().expect("structs");
    let mut program = String::from(
        "#include <stdio.h>\n#include <stddef.h>\n#include \"small.h\"\nint main(void) {\n",
    );
    let mut expected = String::new();
    for s in structs {
        let name = s["name"].as_str().expect("name");
        program.push_str(&format!(
            "    printf(\"{name} %zu %zu\\n\", sizeof(struct {name}), _Alignof(struct {name}));\n"
        ));
        expected.push_str(&format!("{name} {} {}\n", s["size"], s["align"]));
        for f in s["fields"].as_array().expect("fields") {
            let field = f["name"].as_str().expect("field name");
            program.push_str(&format!(
                "    printf(\"{name}.{field} %zu %zu\\n\", offsetof(struct {name}, {field}), \
                 sizeof(((struct {name} *)0)->{field}));\n"
            ));
            expected.push_str(&format!("{name}.{field} {} {}\n", f["offset"], f["size"]));
        }
    }
    program.push_str("    return 0;\n}\n");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout_snapshots_gcc");
    fs::create_dir_all(&dir).expect("temp dir");
    let c_file = dir.join("small_layout.c");
    let exe = dir.join("small_layout");
    fs::write(&c_file, program).expect("write the C program");
    let include = root().join("tests/fixtures/layout");
    let status = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg("-I")
        .arg(&include)
        .arg(&c_file)
        .status()
        .unwrap_or_else(|e| panic!("this test needs gcc, which could not be run: {e}"));
    assert!(status.success(), "gcc failed on {}", c_file.display());
    let output = Command::new(&exe)
        .output()
        .expect("run the compiled program");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}
