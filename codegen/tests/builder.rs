//! `abi_codegen::Builder` outside cargo's build-script environment: every target it can
//! write, writing only on change, and its errors (a schema mistake with the command line's
//! diagnostics, an unreadable schema, a template error naming its line, no `OUT_DIR`).

use std::fs;
use std::path::{Path, PathBuf};

use abi_codegen::testing::language_backend::user_template::TemplateError;
use abi_codegen::{BuildError, Builder};

const SCHEMA: &str = r#"
[abi]
name = "demo"
version = "0.3"
c_prefix = "demo"
byte_order = "little"

[[struct]]
name = "point"
doc = "A point"
fields = [
  { name = "x", type = "i32" },
  { name = "y", type = "i32" },
]
"#;

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("builder-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

fn schema_in(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("schema.toml");
    fs::write(&path, text).expect("write the schema");
    path
}

#[test]
fn writes_every_target_asked_for_and_only_on_change() {
    let dir = dir("all");
    let schema = schema_in(&dir, SCHEMA);
    let template = dir.join("sizes.txt.j2");
    fs::write(
        &template,
        "{% for s in structs %}{{ s.name }} {{ s.size }}\n{% endfor %}",
    )
    .expect("write a template");
    let builder = Builder::new(&schema)
        .cargo_instructions(false)
        .rust_file(dir.join("out/demo.rs"))
        .c_header(dir.join("include/demo.h"))
        .python(dir.join("py/demo.py"))
        .markdown(dir.join("demo.md"))
        .template(&template, dir.join("sizes.txt"))
        .generated_dir(dir.join("generated"));
    let first = builder.clone().generate().expect("generates");
    assert_eq!(first.rust, Some(dir.join("out/demo.rs")));
    // Five targets named one by one (the Python module with its stub beside it), and
    // generate's own set (rs, h, py, pyi, md: no templates in this schema).
    assert_eq!(first.files.len(), 11, "{:?}", first.files);
    assert!(
        first.files.contains(&dir.join("py/demo.pyi")),
        "{:?}",
        first.files
    );
    // The stub beside the module is generate's stub, to the byte.
    assert_eq!(
        fs::read_to_string(dir.join("py/demo.pyi")).expect("py/demo.pyi"),
        fs::read_to_string(dir.join("generated/demo.pyi")).expect("generated/demo.pyi")
    );
    assert_eq!(first.written, first.files);
    let rust = fs::read_to_string(dir.join("out/demo.rs")).expect("the Rust file");
    assert!(rust.starts_with("// generated from schema.toml; do not edit\n"));
    assert!(rust.contains("pub struct Point"), "{rust}");
    // No shared memory in this schema: zerocopy is all it needs.
    assert!(rust.contains("//   zerocopy = { version = \"0.8\", features = [\"derive\"] }\n"));
    assert!(!rust.contains("abi-runtime"));
    let header = fs::read_to_string(dir.join("include/demo.h")).expect("the header");
    assert!(header.contains("demo_point"), "{header}");
    assert_eq!(
        fs::read_to_string(dir.join("sizes.txt")).expect("the template output"),
        "point 8\n"
    );
    // The same text as the command line's generate.
    assert_eq!(
        fs::read_to_string(dir.join("generated/demo.rs")).expect("generated/demo.rs"),
        rust
    );
    let again = builder.generate().expect("generates again");
    assert!(again.written.is_empty(), "{:?}", again.written);
}

#[test]
fn python_without_stub_writes_the_module_alone() {
    let dir = dir("no_stub");
    let schema = schema_in(&dir, SCHEMA);
    let built = Builder::new(&schema)
        .cargo_instructions(false)
        .no_rust()
        .python_without_stub(dir.join("demo.py"))
        .generate()
        .expect("generates");
    assert_eq!(built.files, vec![dir.join("demo.py")]);
    assert!(!dir.join("demo.pyi").exists());
}

#[test]
fn a_schema_mistake_is_the_command_lines_diagnostics() {
    let dir = dir("mistake");
    let schema = schema_in(
        &dir,
        &SCHEMA.replace(
            "\"i32\" },\n  { name = \"y\"",
            "\"i33\" },\n  { name = \"y\"",
        ),
    );
    let err = Builder::new(&schema)
        .cargo_instructions(false)
        .rust_file(dir.join("demo.rs"))
        .generate()
        .expect_err("a mistake");
    let shown = schema.display().to_string();
    let BuildError::Schema {
        rendered,
        headlines,
    } = &err
    else {
        panic!("not a schema error: {err}");
    };
    assert_eq!(headlines.len(), 1, "{headlines:?}");
    assert!(
        headlines[0].starts_with(&format!("{shown}:12:")),
        "{headlines:?}"
    );
    assert!(
        headlines[0].ends_with("unknown type `i33`"),
        "{headlines:?}"
    );
    assert!(rendered.starts_with(&format!("{shown}:12:")), "{rendered}");
    assert!(
        rendered.contains(": error: field `point.x`: unknown type `i33`"),
        "{rendered}"
    );
    assert!(rendered.contains("^^^"), "{rendered}");
    // Debug shows the same text, for `fn main() -> Result<(), Box<dyn Error>>`.
    assert_eq!(format!("{err:?}"), format!("{err}"));
    assert!(!dir.join("demo.rs").exists(), "wrote despite the mistake");
}

#[test]
fn other_failures_name_what_failed() {
    let dir = dir("failures");
    let missing = dir.join("nope.toml");
    let err = Builder::new(&missing)
        .cargo_instructions(false)
        .generate()
        .expect_err("no schema");
    assert!(matches!(err, BuildError::Read { .. }), "{err}");
    assert!(err.to_string().contains("nope.toml"), "{err}");
    // The cause, for `?` chains and error reporters: the io::Error of the read.
    let io = std::error::Error::source(&err)
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .unwrap_or_else(|| panic!("a read failure's source is its io::Error: {err}"));
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);

    let schema = schema_in(&dir, SCHEMA);
    let template = dir.join("broken.j2");
    fs::write(&template, "fine\n{{ structs[0].nope }}\n").expect("write a template");
    let err = Builder::new(&schema)
        .cargo_instructions(false)
        .no_rust()
        .template(&template, dir.join("out.txt"))
        .generate()
        .expect_err("an undefined value");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("{}:2: error: undefined value", template.display())),
        "{text}"
    );
    assert!(matches!(err, BuildError::Template(_)), "{err}");
    let source = std::error::Error::source(&err)
        .and_then(|s| s.downcast_ref::<TemplateError>())
        .unwrap_or_else(|| panic!("a template failure's source is its TemplateError: {err}"));
    assert_eq!(source.line, Some(2));
    assert_eq!(source.to_string(), err.to_string());
    // What cargo::error shows: the place and the reason, without a second `error:`.
    let headline = format!("{}:2: undefined value", template.display());
    assert!(
        matches!(&err.headlines()[..], [one] if one.starts_with(&headline)),
        "{:?}",
        err.headlines()
    );
    assert!(!dir.join("out.txt").exists());

    // Outside a build script, the Rust file needs a path.
    if std::env::var_os("OUT_DIR").is_none() {
        let err = Builder::new(&schema)
            .cargo_instructions(false)
            .generate()
            .expect_err("no OUT_DIR");
        assert!(matches!(err, BuildError::NoOutDir), "{err}");
    }
}

#[test]
fn a_schema_mistake_has_no_source_beneath_it() {
    use std::error::Error;
    let dir = dir("sources");
    // A schema's mistakes are the diagnostics themselves: nothing beneath them.
    let schema = schema_in(&dir, "[abi]\nname = 1\n");
    let err = Builder::new(&schema)
        .cargo_instructions(false)
        .no_rust()
        .generate()
        .expect_err("a schema mistake");
    assert!(matches!(err, BuildError::Schema { .. }), "{err}");
    assert!(err.source().is_none());
}
