//! `abi-codegen init`'s starter schema (codegen/src/init.rs), proved as the issue asks: with
//! all its kinds, and with each kind alone (and each beside a layout), it loads, and its
//! outputs are warning-free in every language: the Rust under `-D warnings -D
//! clippy::pedantic`, the C header as C11 and C++17 under `-Wall -Wextra -Werror
//! -pedantic`, and the Python stub under `mypy --strict` and a plain `mypy.stubtest`.

use crate::common;

use std::path::Path;

use abi_codegen::load_schema;
use abi_codegen::testing::init::{Kind, starter_schema};
use abi_codegen::testing::language_backend::generate_all;
use common::bindings_crate::{
    ZEROCOPY, assert_pedantic_clean, runtime_dependency, write_bindings_crate,
};

/// Each variant: its name, and the kinds asked for.
fn variants() -> Vec<(String, Vec<Kind>)> {
    let mut v = vec![("all".to_string(), Vec::new())];
    for k in Kind::ALL {
        v.push((k.word().to_string(), vec![k]));
        if k != Kind::Layout {
            v.push((format!("{}_layout", k.word()), vec![k, Kind::Layout]));
        }
    }
    v
}

/// The generated file of `schema` that ends with `.extension`.
fn output(outputs: &[abi_codegen::testing::write::Output], extension: &str) -> String {
    outputs
        .iter()
        .find(|o| o.file_name == format!("starter.{extension}"))
        .unwrap_or_else(|| panic!("no starter.{extension}"))
        .contents
        .clone()
}

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", dir)
        .env("MYPY_CACHE_DIR", dir.join(".mypy_cache"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): this test needs it"));
    let text = common::tools::output_text(&out);
    assert!(out.status.success(), "{program} {args:?} failed:\n{text}");
    text
}

#[test]
fn the_starter_schema_loads_and_its_outputs_are_warning_free() {
    let dir = common::tools::scratch("init_starter");
    let mut rust = Vec::new();
    let mut modules = Vec::new();
    for (name, kinds) in variants() {
        let src = starter_schema(&kinds);
        assert!(src.starts_with("# A starter schema"), "{name}: commented");
        let schema =
            load_schema(&src).unwrap_or_else(|e| panic!("{name}: {}", e.render(&name, &src)));
        // One of each kind asked for.
        let counts = [
            (Kind::Seqlock, schema.access().seqlocks.len()),
            (Kind::Ring, schema.access().rings.len()),
            (Kind::File, schema.attach().files.len()),
            (Kind::Layout, schema.attach().layouts.len()),
        ];
        for (k, n) in counts {
            let asked = kinds.is_empty() || kinds.contains(&k);
            assert_eq!(n, usize::from(asked), "{name}: {k:?}");
        }
        let protocols = kinds.is_empty() as usize * 3
            + kinds
                .iter()
                .filter(|k| matches!(k, Kind::Queue | Kind::Mailbox | Kind::Session))
                .count();
        assert_eq!(schema.protocols().len(), protocols, "{name}: protocols");
        let outputs = generate_all(&schema, "schema.toml").expect("renders");
        let module = format!("init_{name}");
        std::fs::write(dir.join(format!("{module}.py")), output(&outputs, "py")).unwrap();
        std::fs::write(dir.join(format!("{module}.pyi")), output(&outputs, "pyi")).unwrap();
        let header = format!("{module}.h");
        std::fs::write(dir.join(&header), output(&outputs, "h")).unwrap();
        let source = format!("#include \"{header}\"\nint main(void) {{ return 0; }}\n");
        let c = format!("{module}.c");
        std::fs::write(dir.join(&c), source).unwrap();
        for (compiler, std, lang) in [("gcc", "-std=c11", "c"), ("g++", "-std=c++17", "c++")] {
            let object = format!("{module}.{lang}.o");
            run(
                &dir,
                compiler,
                &[
                    std,
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-pedantic",
                    "-x",
                    lang,
                    "-c",
                    &c,
                    "-o",
                    &object,
                ],
            );
        }
        rust.push((module.clone(), output(&outputs, "rs")));
        modules.push(module);
    }
    let stubs: Vec<String> = modules.iter().map(|m| format!("{m}.pyi")).collect();
    let mut args = vec!["-m", "mypy", "--strict", "--no-incremental"];
    args.extend(stubs.iter().map(String::as_str));
    run(&dir, "python3", &args);
    let mut args = vec!["-m", "mypy.stubtest"];
    args.extend(modules.iter().map(String::as_str));
    run(&dir, "python3", &args);

    let crate_dir = dir.join("rust");
    let dependencies = format!("{}{ZEROCOPY}", runtime_dependency(&["recording"]));
    write_bindings_crate(&crate_dir, "init-starter", &dependencies, &rust);
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("init-starter-target");
    assert_pedantic_clean(&crate_dir, &target, "the starter schema's Rust");
}
