//! The cross-target integration of hostile names and text: `tests/fixtures/hostile/schema.toml`
//! names its items with keywords and builtins of the four targets (`type`, `match`, `class`,
//! `none`, `true`, `int`, `template`, `register`, `default`, `self`, `async`, `struct`,
//! `union`, `new`, `delete`) and fills its docs with what each target must escape (`*/`, `/*`,
//! `"""`, `'''`, backslashes, `|`, backticks, `{{ }}`, `{% %}`, a line of only `#`, a trailing
//! backslash, non-ASCII text). All four outputs are built from it and then:
//!
//! - the C header compiles with gcc -std=c11 and g++ -std=c++17, every warning an error;
//! - the Rust bindings compile in a scratch cargo project with every warning denied, and
//!   rustdoc documents them with every warning denied;
//! - the Python module imports under python3 and its docstrings hold the docs;
//! - the markdown's table cells, read back, hold the docs.
//!
//! The tests that need gcc, g++ or python3 fail, never skip, when one is missing.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use abi_codegen::Schema;
use abi_codegen::testing::language_backend::generate_all;
use abi_codegen::testing::write::Output;

use common::markdown_blocks::table_rows;
use common::tools;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load() -> Schema {
    let path = root().join("tests/fixtures/hostile/schema.toml");
    let src = std::fs::read_to_string(&path).expect("the hostile fixture");
    abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render("tests/fixtures/hostile/schema.toml", &src)))
}

fn outputs() -> Vec<Output> {
    generate_all(&load(), "schema.toml").expect("every target renders")
}

fn output(ext: &str) -> String {
    outputs()
        .into_iter()
        .find(|o| o.file_name == format!("hostile.{ext}"))
        .unwrap_or_else(|| panic!("no hostile.{ext}"))
        .contents
}

/// Every doc of the schema, with the item it belongs to.
fn docs(schema: &Schema) -> Vec<(String, String)> {
    let abi = schema.abi();
    let mut out = vec![("abi".to_string(), abi.doc.clone())];
    out.extend(
        abi.consts
            .iter()
            .map(|c| (format!("const {}", c.name), c.doc.clone())),
    );
    for e in &abi.enums {
        out.push((format!("{} {}", e.kind.keyword(), e.name), e.doc.clone()));
        out.extend(
            e.values
                .iter()
                .map(|v| (format!("value {}.{}", e.name, v.name), v.doc.clone())),
        );
    }
    for s in &abi.structs {
        out.push((format!("struct {}", s.name), s.doc.clone()));
        out.extend(
            s.fields
                .iter()
                .map(|f| (format!("field {}.{}", s.name, f.name), f.doc.clone())),
        );
    }
    out.retain(|(_, doc)| !doc.is_empty());
    out
}

/// The fixture is as hostile as it says: every name in every role the schema language
/// allows, and every character class in the docs.
#[test]
fn the_fixture_is_hostile() {
    let schema = load();
    let abi = schema.abi();
    let names = [
        "type", "match", "class", "none", "true", "int", "template", "register", "default", "self",
        "async", "struct", "union", "new", "delete",
    ];
    let selfish = abi
        .structs
        .iter()
        .find(|s| s.name == "self")
        .expect("struct self");
    let int = abi
        .enums
        .iter()
        .find(|e| e.name == "int")
        .expect("enum int");
    for name in names {
        assert!(
            selfish.fields.iter().any(|f| f.name == name),
            "field {name}"
        );
        assert!(int.values.iter().any(|v| v.name == name), "value {name}");
        let is_type =
            abi.structs.iter().any(|s| s.name == name) || abi.enums.iter().any(|e| e.name == name);
        let is_const = abi.consts.iter().any(|c| c.name == name);
        assert!(is_type != is_const, "{name} names a type or a constant");
    }
    let all_docs: String = docs(&schema).into_iter().map(|(_, d)| d + "\n").collect();
    for needle in [
        "*/", "/*", "\"\"\"", "'''", "\\", "|", "`", "{{", "}}", "{%", "%}", "\n#\n", "\\\n", "é",
        "漢字",
    ] {
        assert!(all_docs.contains(needle), "no doc holds {needle:?}");
    }
    assert!(docs(&schema).iter().any(|(_, d)| d.ends_with('\\')));
}

#[test]
fn c_header_compiles_as_c11_and_cxx17() {
    let dir = tools::scratch("hostile-c");
    let header = output("h");
    std::fs::write(dir.join("hostile.h"), &header).unwrap();
    tools::compile_c_header(&dir, "hostile.h");

    // The names C and C++ cannot take as members get a trailing underscore; the others stay.
    for kept in ["type", "match", "none", "self", "async"] {
        let declared = [format!(" {kept};"), format!(" {kept}[")];
        assert!(declared.iter().any(|d| header.contains(d)), "field {kept}");
    }
    for escaped in [
        "class_",
        "int_",
        "template_",
        "register_",
        "default_",
        "true_",
    ] {
        assert!(header.contains(&format!(" {escaped};")), "field {escaped}");
    }
    for escaped in ["struct_", "union_", "new_", "delete_"] {
        assert!(header.contains(&format!(" {escaped};")), "field {escaped}");
    }

    // A program that uses the header's names and reads the layout back.
    let program = r#"#include <stdio.h>
#include <string.h>
#include "hostile.h"
int main(void) {
    hx_self s;
    memset(&s, 0, sizeof s);
    s.class_.none.true_ = 7;
    s.int_ = HX_INT_DEFAULT;
    s.template_ = HX_TEMPLATE_SELF | HX_TEMPLATE_CLASS;
    s.register_ = HX_REGISTER_NEW;
    s.self[HX_ASYNC - 1] = HX_NEW;
    s.delete_ = HX_DELETE;
    s.true_ = HX_TRUE_NONE;
    printf("%u %u %u %u %u %u %d %u\n", (unsigned)sizeof(hx_self), (unsigned)s.class_.none.true_,
           (unsigned)s.int_, (unsigned)s.template_, (unsigned)s.register_, (unsigned)s.self[3],
           (int)s.true_, (unsigned)HX_STRUCT);
    return s.delete_ == 0xDE1E7E ? 0 : 1;
}
"#;
    std::fs::write(dir.join("use.c"), program).unwrap();
    let strict = ["-Wall", "-Wextra", "-Werror", "-pedantic"];
    for (compiler, std, file) in [
        ("gcc", "-std=c11", "use.c"),
        ("g++", "-std=c++17", "use.cpp"),
    ] {
        std::fs::write(dir.join(file), program).unwrap();
        let mut args = vec![std];
        args.extend(strict);
        args.extend([file, "-o", "use"]);
        tools::run_ok(compiler, &args, &dir);
        let printed = tools::run_ok("./use", &[], &dir);
        assert_eq!(printed, "32 7 8 129 8 127 -1 32\n", "{compiler}");
    }
}

/// A scratch cargo project that includes the bindings and uses their hostile names.
fn rust_project() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostile-rust-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"hostile-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nzerocopy = { version = \"0.8\", features = [\"derive\"] }\n\n[workspace]\n",
    )
    .unwrap();
    // The workspace's lock file pins the same zerocopy, so this builds offline.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/hostile.rs"), output("rs")).unwrap();
    let lib = r#"//! The hostile bindings, used by their names.
#![forbid(unsafe_code)]
#![deny(warnings)]

/// The generated bindings.
pub mod hostile {
    include!("hostile.rs");
}

/// Uses every kind of generated item under its hostile name.
pub fn uses() -> ::core::primitive::u32 {
    let mut s = <hostile::Self_ as ::core::default::Default>::default();
    s.r#type = hostile::Type { r#type: 1 };
    s.r#match.r#match = 2;
    s.class.none.r#true = 7;
    s.none = hostile::None { r#true: 3 };
    s.r#true = hostile::True::NONE;
    s.int = hostile::Int::DEFAULT;
    s.template = hostile::Template::SELF | hostile::Template::CLASS;
    s.register = hostile::Register::NEW;
    s.default = hostile::Default { default: 4 };
    s.self_[hostile::ASYNC - 1] = hostile::NEW;
    s.set_async("héllo");
    s.r#struct = 5;
    s.union = 6;
    s.new = 1;
    s.delete = hostile::DELETE;
    assert_eq!(s.async_str(), Ok("héllo"));
    assert_eq!(hostile::Int::SELF.name(), Some("self"));
    assert_eq!(hostile::True::from_name("none"), Some(hostile::True::NONE));
    assert!(hostile::Template::all().contains(hostile::Template::TRUE));
    assert_eq!(hostile::STRUCT, 32);
    assert_eq!(::core::mem::size_of::<hostile::Self_>(), 32);
    let _ = format!("{s:?}");
    s.delete
}
"#;
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    dir
}

fn cargo(dir: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", root().join("target/fixture-check"))
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {} failed on the hostile bindings:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn rust_compiles_and_documents_without_warnings() {
    let dir = rust_project();
    cargo(&dir, &["build", "--offline", "--quiet"]);
    // rustdoc reads the docs as markdown: a doc whose escaping broke would be a broken
    // link or unclosed HTML, which -D warnings turns into a failure.
    cargo(&dir, &["doc", "--offline", "--quiet", "--no-deps"]);
}

#[test]
fn python_module_imports_and_keeps_the_docs() {
    let schema = load();
    let dir = tools::scratch("hostile-python");
    std::fs::write(dir.join("hostile.py"), output("py")).unwrap();
    let script = r#"import inspect, json, sys, warnings
warnings.simplefilter("error")
sys.path.insert(0, ".")
import hostile as m

for name in m.__all__:
    assert hasattr(m, name), name
s = m.Self()
s.class_.none.true = 7
assert getattr(s, "class").none.true == 7
s.int = m.Int.DEFAULT
assert m.Int(s.int) is m.Int.DEFAULT and m.Int.NONE == 3 and m.Int.SELF == 9
assert m.True_(-1) is m.True_.NONE
assert m.Template.SELF | m.Template.CLASS == 0x81
m.set_text(s, "async", "héllo")
assert m.text(getattr(s, "async")) == "héllo"
assert s.async_ == getattr(s, "async")
assert (m.ASYNC, m.UNION, m.STRUCT, m.NEW, m.DELETE) == (4, 8, 32, 0x7F, 0xDE1E7E)
assert m.None_ is not None and m.True_ is not True and m.Self.__name__ == "Self"
docs = {"module": inspect.cleandoc(m.__doc__)}
for name in ("Self", "Class", "Type", "Match", "Default", "None_", "Int", "True_", "Template", "Register"):
    docs[name] = inspect.cleandoc(getattr(m, name).__doc__)
print(json.dumps(docs))
"#;
    std::fs::write(dir.join("check.py"), script).unwrap();
    let printed = tools::run_ok("python3", &["check.py"], &dir);
    let docstrings: serde_json::Value = serde_json::from_str(&printed).expect("JSON");
    let docstring = |key: &str| docstrings[key].as_str().expect("a docstring").to_string();
    let python_name =
        |name: &str| abi_codegen::testing::language_backend::python::python_type_name(name);
    // A member's doc sits under its entry, eight columns in (after cleandoc).
    let indented = |doc: &str| -> String {
        doc.lines()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("        {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };

    // Each item's docstring holds its doc, and each member's doc, as the schema wrote them.
    assert!(
        docstring("module").contains(&schema.abi().doc),
        "module docstring"
    );
    for e in &schema.abi().enums {
        let text = docstring(&python_name(&e.name));
        assert!(text.contains(&e.doc), "docstring of {}:\n{text}", e.name);
        for v in e.values.iter().filter(|v| !v.doc.is_empty()) {
            assert!(
                text.contains(&indented(&v.doc)),
                "value {}.{} in\n{text}",
                e.name,
                v.name
            );
        }
    }
    for s in &schema.abi().structs {
        let text = docstring(&python_name(&s.name));
        assert!(text.contains(&s.doc), "docstring of {}:\n{text}", s.name);
        for f in s.fields.iter().filter(|f| !f.doc.is_empty()) {
            assert!(
                text.contains(&indented(&f.doc)),
                "field {}.{} in\n{text}",
                s.name,
                f.name
            );
        }
    }
}

#[test]
fn markdown_cells_hold_the_docs() {
    let schema = load();
    let rows = table_rows(&output("md"));
    let abi = schema.abi();
    // The last cell of a constant's, a value's and a field's row is its doc.
    let mut expected: Vec<(String, String)> = Vec::new();
    expected.extend(abi.consts.iter().map(|c| (c.name.clone(), c.doc.clone())));
    for e in &abi.enums {
        expected.extend(e.values.iter().map(|v| (v.name.clone(), v.doc.clone())));
    }
    for s in &abi.structs {
        expected.extend(s.fields.iter().map(|f| (f.name.clone(), f.doc.clone())));
    }
    let mut found = 0;
    expected.retain(|(_, doc)| !doc.is_empty());
    for (name, doc) in &expected {
        // (A constant's name cell starts with its anchor, which renders as no text.)
        let row = rows
            .iter()
            .find(|r| r.iter().any(|c| c == name) && r.last() == Some(doc))
            .unwrap_or_else(|| panic!("no row of {name} with the doc {doc:?}"));
        assert!(!row.is_empty());
        found += 1;
    }
    assert_eq!(found, expected.len());
    assert!(found > 30, "{found} rows");
}
