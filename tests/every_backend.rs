//! Every schema the generator accepts renders with every backend (issue 39): each fixture
//! under `tests/fixtures/` and `schema.toml` either loads, and then renders with the built-in
//! targets (Rust, the C header, the Python module and its stub, markdown), the JavaScript
//! module's template and its own `[[template]]`s without an error or a panic, or is
//! rejected with schema errors that point into it (never a panic). Each Python module and
//! stub rendered also compiles (one python3 for all, warnings as errors). Lowering decides
//! validity: a backend that fails on an accepted schema is a bug, to be made a spanned
//! schema error in lowering (with a fixture under `tests/fixtures/errors/`).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::every_backend::{BUILT_IN, check_errors, render_every_backend, run_caught};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `schema.toml` and every `.toml` under `tests/fixtures/`, sorted.
fn schemas() -> Vec<PathBuf> {
    let mut out = vec![root().join("schema.toml")];
    let mut dirs = vec![root().join("tests/fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_accepted_fixture_renders_with_every_backend() {
    let run = |f: &mut dyn FnMut()| run_caught(f);
    let (mut rendered, mut rejected, mut outputs) = (Vec::new(), Vec::new(), 0);
    // Each Python module and stub, for one compile at the end.
    let python = common::tools::scratch("every_backend_python");
    let mut modules = Vec::new();
    let mut failures = Vec::new();
    for path in schemas() {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let src = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let loaded = match run_caught_value(|| abi_codegen::load_schema(&src)) {
            Ok(loaded) => loaded,
            Err(p) => {
                failures.push(format!(
                    "{name}: load_schema panicked: {}",
                    common::every_backend::panic_text(&p)
                ));
                continue;
            }
        };
        match loaded {
            Ok(schema) => {
                let dir = path.parent().expect("a folder");
                match render_every_backend(&schema, &src, dir, &run, &|src, errors| {
                    // A [[template]] a fixture declares must be there to be rendered.
                    Err(format!(
                        "a [[template]] cannot be read:\n{}",
                        errors.render("schema.toml", src)
                    ))
                }) {
                    Ok(texts) => {
                        // The built-in targets, the JavaScript module and its own templates.
                        assert!(
                            texts.len() > BUILT_IN.len(),
                            "{name}: {} outputs",
                            texts.len()
                        );
                        outputs += texts.len();
                        for (file, text) in texts
                            .iter()
                            .filter(|(f, _)| f.ends_with(".py") || f.ends_with(".pyi"))
                        {
                            let to = format!("m{}_{file}", rendered.len());
                            fs::write(python.join(&to), text).expect("write a module");
                            modules.push(to);
                        }
                        rendered.push(name);
                    }
                    Err(e) => failures.push(format!("{name}: {e}")),
                }
            }
            Err(errors) => match check_errors(&src, &errors, &run) {
                Ok(()) => rejected.push(name),
                Err(e) => failures.push(format!("{name}: a rejection without proper errors: {e}")),
            },
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    println!(
        "{} schemas rendered with every backend ({outputs} outputs), {} rejected",
        rendered.len(),
        rejected.len()
    );
    // Every fixture of the error catalogue is rejected (a few others are too: fuzz
    // regressions, a diff's broken side, a Python name clash).
    let loaded_errors: Vec<&String> = rendered
        .iter()
        .filter(|n| n.starts_with("tests/fixtures/errors/"))
        .collect();
    assert!(
        loaded_errors.is_empty(),
        "error fixtures that load: {loaded_errors:?}"
    );
    // Not an empty set: 107 rendered and 212 rejected when this was written.
    assert!(
        rendered.len() >= 100,
        "only {} schemas rendered",
        rendered.len()
    );
    assert!(
        rejected.len() >= 200,
        "only {} schemas rejected",
        rejected.len()
    );
    assert!(rendered.iter().any(|n| n == "schema.toml"));
    // Rendered is not enough: each Python module and stub compiles (warnings are errors).
    let mut args = vec![
        "-W",
        "error",
        "-c",
        "import sys, py_compile\nfor f in sys.argv[1:]: py_compile.compile(f, doraise=True)",
    ];
    args.extend(modules.iter().map(String::as_str));
    assert!(modules.len() >= 2 * rendered.len());
    common::tools::run_ok("python3", &args, &python);
}

/// `f`'s value, or its panic.
fn run_caught_value<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
}
