//! Differential testing of the layout against real compilers: random valid schemas
//! (tests/common/random_schema.rs) go through `abi_codegen::load_schema` and every target; one
//! program per language and batch prints what the compiler or interpreter makes of every
//! struct (size, alignment), field (offset, size), enum value, constant and the ABI
//! version: C (gcc -std=c11), C++ (g++ -std=c++17), Rust (rustc, through cargo) and Python
//! (ctypes). Every number must equal the layout engine's (`schema.layout`) or the IR's.
//!
//! `cargo test --test suite differential::` runs a fixed seed. Any number of schemas:
//!
//! ```sh
//! DIFFTEST_SCHEMAS=10000 DIFFTEST_SEED=1 cargo test --release --test suite differential:: -- --ignored --nocapture
//! ```
//!
//! A disagreement prints the seed and that one schema's TOML; schema `i` of a run with
//! seed `S` has seed `S + i`, so `DIFFTEST_SEED=<its seed> DIFFTEST_SCHEMAS=1` runs it alone.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use abi_codegen::Schema;
use abi_codegen::testing::ir::names::camel;
use abi_codegen::testing::language_backend::c::{c_field_name, c_type_name};
use abi_codegen::testing::language_backend::python::python_type_name;
use abi_codegen::testing::language_backend::rust::rust_ident;
use common::bindings_crate::{ZEROCOPY, assert_pedantic_clean, write_bindings_crate};
use common::random_schema::{RandomSchema, random_schema};

/// The strict flags of the C and C++ builds.
const STRICT: [&str; 4] = ["-Wall", "-Wextra", "-Werror", "-pedantic"];

/// One random schema, loaded, with its outputs.
struct Case {
    random: RandomSchema,
    schema: Schema,
    rust: String,
    header: String,
    python: String,
}

impl Case {
    fn prefix(&self) -> &str {
        &self.random.c_prefix
    }
}

/// What a row holds: a key naming one item of one schema, and its numbers.
type Rows = BTreeMap<String, Vec<i128>>;

/// The numbers every language must print: sizes, alignments and offsets from the layout
/// engine, values from the IR.
fn expected_rows(case: &Case) -> Rows {
    let p = case.prefix();
    let abi = case.schema.abi();
    let mut rows = Rows::new();
    rows.insert(
        format!("A {p}"),
        vec![abi.version.major.into(), abi.version.minor.into()],
    );
    for c in &abi.consts {
        rows.insert(format!("C {p} {}", c.name), vec![c.value]);
    }
    for e in &abi.enums {
        for v in &e.values {
            rows.insert(format!("V {p} {} {}", e.name, v.name), vec![v.value]);
        }
    }
    for (s, l) in abi.structs.iter().zip(&case.schema.layout().structs) {
        rows.insert(
            format!("S {p} {}", s.name),
            vec![l.size.into(), l.align.into()],
        );
        for (f, fl) in s.fields.iter().zip(&l.fields) {
            rows.insert(
                format!("F {p} {} {}", s.name, f.name),
                vec![fl.offset.into(), fl.size.into()],
            );
        }
    }
    rows
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Lang {
    C,
    Cxx,
    Rust,
    Python,
}

impl Lang {
    const ALL: [Lang; 4] = [Lang::C, Lang::Cxx, Lang::Rust, Lang::Python];

    fn label(self) -> &'static str {
        match self {
            Lang::C => "C (gcc -std=c11)",
            Lang::Cxx => "C++ (g++ -std=c++17)",
            Lang::Rust => "Rust",
            Lang::Python => "Python (ctypes)",
        }
    }
}

/// What one language made of a batch: its rows, and the schemas it could not build or
/// import, with the messages.
#[derive(Default)]
struct LangResult {
    rows: Rows,
    failed: BTreeMap<String, String>,
    /// Seconds spent building and running.
    secs: f64,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd`, panicking with a clear message when the tool cannot be started: the test
/// needs every compiler and must not pass without one.
fn run_tool(cmd: &mut Command, tool: &str) -> Output {
    cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run `{tool}` ({e}): the differential test needs gcc, g++, cargo (rustc) and \
             python3 on PATH (Debian: apt-get install gcc g++ python3)"
        )
    })
}

fn parse_rows(stdout: &str, lang: Lang, out: &mut LangResult) {
    for line in stdout.lines().filter(|l| !l.is_empty()) {
        let mut parts = line.split('\t');
        let key = parts.next().expect("a key").to_string();
        if let Some(prefix) = key.strip_prefix("X ") {
            let message = parts.collect::<Vec<_>>().join("\t");
            out.failed.insert(prefix.to_string(), message);
            continue;
        }
        let values: Vec<i128> = parts
            .map(|v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("{lang:?} printed `{line}`: `{v}` is not a number"))
            })
            .collect();
        assert!(
            out.rows.insert(key, values).is_none(),
            "{lang:?} printed a key twice: `{line}`"
        );
    }
}

/// The prefixes of `cases` that `text` mentions: the schemas a compiler error is about.
fn blamed<'a>(cases: &[&'a Case], text: &str) -> Vec<&'a str> {
    cases
        .iter()
        .map(|c| c.prefix())
        .filter(|p| text.contains(p))
        .collect()
}

/// The compiler messages that mention `prefix`: rustc's and gcc's messages start at a
/// line that begins with `error`, `warning` or `In file included`, or holds `: error:`.
fn messages_about(stderr: &str, prefix: &str) -> String {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in stderr.lines() {
        let starts = line.starts_with("error")
            || line.starts_with("warning")
            || line.starts_with("In file included")
            || (line.contains(": error:")
                && !blocks.last().is_some_and(|b| b[0].starts_with("In file")));
        match blocks.last_mut() {
            Some(block) if !starts => block.push(line),
            _ => blocks.push(vec![line]),
        }
    }
    let lines: Vec<&str> = blocks
        .into_iter()
        .filter(|b| b.iter().any(|l| l.contains(prefix)))
        .flatten()
        .take(60)
        .collect();
    lines.join("\n")
}

/// Builds and runs the program of `lang` for `cases`. A schema whose code does not build
/// is recorded as failed and left out, and the rest is built again.
fn run_language(lang: Lang, cases: &[&Case], dir: &Path) -> LangResult {
    let mut result = LangResult::default();
    let mut remaining: Vec<&Case> = cases.to_vec();
    std::fs::create_dir_all(dir).unwrap();
    loop {
        if remaining.is_empty() {
            return result;
        }
        let built = match lang {
            Lang::C | Lang::Cxx => build_c(lang, &remaining, dir),
            Lang::Rust => build_rust(&remaining, dir, rust_jobs()),
            Lang::Python => Ok(run_python(&remaining, dir)),
        };
        match built {
            Ok(stdout) => {
                parse_rows(&stdout, lang, &mut result);
                return result;
            }
            Err(stderr) => {
                let culprits = blamed(&remaining, &stderr);
                assert!(
                    !culprits.is_empty(),
                    "the {} build of the differential test failed, and not in a schema's \
                     code: is the compiler installed? Otherwise a bug in the test:\n{stderr}",
                    lang.label()
                );
                for p in &culprits {
                    result.failed.insert(
                        p.to_string(),
                        format!("does not build:\n{}", messages_about(&stderr, p)),
                    );
                }
                remaining.retain(|c| !culprits.contains(&c.prefix()));
            }
        }
    }
}

/// How many library crates share a batch's Rust modules, so that cargo builds them on
/// several cores: DIFFTEST_RUST_JOBS, default 2.
fn rust_jobs() -> usize {
    env_u64("DIFFTEST_RUST_JOBS", 2).clamp(1, 64) as usize
}

/// A C string literal of ASCII text.
fn c_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes every header and one program that prints the rows; compiles it as C11 or C++17
/// with every warning an error, and runs it. `Err` holds the compiler's messages.
fn build_c(lang: Lang, cases: &[&Case], dir: &Path) -> Result<String, String> {
    let mut src = String::new();
    // Standard headers first, as a program would include them before a generated header:
    // their lowercase macros (bool, alignas, and, ...) must not break a field.
    src.push_str(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <stddef.h>\n\
         #include <stdint.h>\n#include <inttypes.h>\n#include <limits.h>\n#include <errno.h>\n\
         #include <assert.h>\n#include <stdbool.h>\n#include <iso646.h>\n#include <stdalign.h>\n\
         #ifndef __cplusplus\n#include <stdnoreturn.h>\n#include <complex.h>\n#endif\n",
    );
    for case in cases {
        std::fs::write(dir.join(format!("{}.h", case.prefix())), &case.header).unwrap();
        let _ = writeln!(src, "#include \"{}.h\"", case.prefix());
    }
    src.push_str(
        "\n#ifdef __cplusplus\n#define DT_ALIGNOF(t) alignof(t)\n#else\n\
         #define DT_ALIGNOF(t) _Alignof(t)\n#endif\n\
         #define DT_FIELD_SIZE(t, f) sizeof(((t *)0)->f)\n\n\
         struct dt_urow { const char *key; int n; unsigned long long a, b; };\n\
         struct dt_srow { const char *key; long long a; };\n\n\
         static const struct dt_urow dt_urows[] = {\n",
    );
    let mut signed_rows = String::new();
    for case in cases {
        let p = case.prefix();
        let abi = case.schema.abi();
        let upper_p = p.to_ascii_uppercase();
        let _ = writeln!(
            src,
            "    {{ {}, 2, {upper_p}_ABI_VERSION_MAJOR, {upper_p}_ABI_VERSION_MINOR }},",
            c_string(&format!("A {p}"))
        );
        let mut value_row = |key: String, expr: String, value: i128| {
            if value < 0 {
                let _ = writeln!(
                    signed_rows,
                    "    {{ {}, (long long)({expr}) }},",
                    c_string(&key)
                );
            } else {
                let _ = writeln!(
                    src,
                    "    {{ {}, 1, (unsigned long long)({expr}), 0 }},",
                    c_string(&key)
                );
            }
        };
        for c in &abi.consts {
            let m = format!("{upper_p}_{}", c.name.to_ascii_uppercase());
            value_row(format!("C {p} {}", c.name), m, c.value);
        }
        for e in &abi.enums {
            for v in &e.values {
                let m = format!(
                    "{upper_p}_{}_{}",
                    e.name.to_ascii_uppercase(),
                    v.name.to_ascii_uppercase()
                );
                value_row(format!("V {p} {} {}", e.name, v.name), m, v.value);
            }
        }
        for s in &abi.structs {
            let t = c_type_name(&s.name, p);
            let _ = writeln!(
                src,
                "    {{ {}, 2, sizeof({t}), DT_ALIGNOF({t}) }},",
                c_string(&format!("S {p} {}", s.name))
            );
            for f in &s.fields {
                let m = c_field_name(&f.name, p);
                let _ = writeln!(
                    src,
                    "    {{ {}, 2, offsetof({t}, {m}), DT_FIELD_SIZE({t}, {m}) }},",
                    c_string(&format!("F {p} {} {}", s.name, f.name))
                );
            }
        }
    }
    src.push_str("    { NULL, 0, 0, 0 }\n};\n\nstatic const struct dt_srow dt_srows[] = {\n");
    src.push_str(&signed_rows);
    src.push_str(
        "    { NULL, 0 }\n};\n\n\
         int main(void) {\n\
         \x20   size_t i;\n\
         \x20   for (i = 0; dt_urows[i].key != NULL; i++) {\n\
         \x20       printf(\"%s\\t%llu\", dt_urows[i].key, dt_urows[i].a);\n\
         \x20       if (dt_urows[i].n == 2) printf(\"\\t%llu\", dt_urows[i].b);\n\
         \x20       printf(\"\\n\");\n\
         \x20   }\n\
         \x20   for (i = 0; dt_srows[i].key != NULL; i++) {\n\
         \x20       printf(\"%s\\t%lld\\n\", dt_srows[i].key, dt_srows[i].a);\n\
         \x20   }\n\
         \x20   return 0;\n\
         }\n",
    );
    let (compiler, std, ext) = match lang {
        Lang::C => ("gcc", "-std=c11", "c"),
        _ => ("g++", "-std=c++17", "cpp"),
    };
    let file = dir.join(format!("layout.{ext}"));
    std::fs::write(&file, src).unwrap();
    let exe = dir.join(format!("layout-{ext}"));
    let out = run_tool(
        Command::new(compiler)
            .arg(std)
            .args(STRICT)
            .arg("-I")
            .arg(dir)
            .arg(&file)
            .arg("-o")
            .arg(&exe),
        compiler,
    );
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let run = run_tool(&mut Command::new(&exe), "the compiled C program");
    assert!(
        run.status.success(),
        "the {compiler} program failed: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    Ok(String::from_utf8(run.stdout).expect("the program prints UTF-8"))
}

/// A cargo workspace: `jobs` library crates that share the schemas, one module per schema
/// (`include!` of its bindings, every warning denied), built in parallel, and a program
/// that prints the rows from `size_of`, `align_of` and `offset_of!`. Dependencies build
/// once, in `target/difftest-crate`, with optimized proc macros. `Err` holds cargo's
/// messages.
fn build_rust(cases: &[&Case], dir: &Path, jobs: usize) -> Result<String, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let shards: Vec<String> = (0..jobs).map(|i| format!("dt{i}")).collect();
    let mut manifest = String::from(
        "[package]\nname = \"difftest\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[dependencies]\n",
    );
    for shard in &shards {
        let _ = writeln!(manifest, "{shard} = {{ path = \"{shard}\" }}");
    }
    let _ = write!(
        manifest,
        "\n[workspace]\nmembers = [{}]\n\n\
         [profile.dev]\ndebug = 0\nincremental = false\n\n\
         [profile.dev.build-override]\nopt-level = 3\n",
        shards
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file pins the same zerocopy, so this builds offline.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let mut libs: Vec<String> =
        vec![String::from("#![forbid(unsafe_code)]\n#![deny(warnings)]\n"); jobs];
    let mut main = String::from(
        "#![deny(warnings)]\n\
         use std::io::Write as _;\n\
         use std::mem::{align_of, offset_of, size_of};\n\n\
         /// The size of the field a closure selects.\n\
         const fn field_size<T, F>(_: fn(&T) -> &F) -> usize {\n\
         \x20   size_of::<F>()\n\
         }\n\n\
         static ROWS: &[(&str, &[i128])] = &[\n",
    );
    for (i, case) in cases.iter().enumerate() {
        let p = case.prefix();
        let shard = &shards[i % jobs];
        let src = dir.join(shard).join("src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join(format!("{p}.rs")), &case.rust).unwrap();
        let _ = writeln!(
            libs[i % jobs],
            "pub mod {p} {{\n    include!(\"{p}.rs\");\n}}"
        );
        let abi = case.schema.abi();
        let m = format!("{shard}::{p}");
        let _ = writeln!(
            main,
            "    (\"A {p}\", &[{m}::ABI_VERSION_MAJOR as i128, {m}::ABI_VERSION_MINOR as i128]),"
        );
        for c in &abi.consts {
            let ident = rust_ident(&c.name.to_ascii_uppercase());
            let _ = writeln!(main, "    (\"C {p} {}\", &[{m}::{ident} as i128]),", c.name);
        }
        for e in &abi.enums {
            let ty = rust_ident(&camel(&e.name));
            for v in &e.values {
                let ident = rust_ident(&v.name.to_ascii_uppercase());
                let _ = writeln!(
                    main,
                    "    (\"V {p} {} {}\", &[{m}::{ty}::{ident}.0 as i128]),",
                    e.name, v.name
                );
            }
        }
        for s in &abi.structs {
            let ty = format!("{m}::{}", rust_ident(&camel(&s.name)));
            let _ = writeln!(
                main,
                "    (\"S {p} {}\", &[size_of::<{ty}>() as i128, align_of::<{ty}>() as i128]),",
                s.name
            );
            for f in &s.fields {
                let field = rust_ident(&f.name);
                let _ = writeln!(
                    main,
                    "    (\"F {p} {} {}\", &[offset_of!({ty}, {field}) as i128, \
                     field_size(|v: &{ty}| &v.{field}) as i128]),",
                    s.name, f.name
                );
            }
        }
    }
    main.push_str(
        "];\n\n\
         fn main() {\n\
         \x20   let mut out = String::new();\n\
         \x20   for (key, values) in ROWS {\n\
         \x20       out.push_str(key);\n\
         \x20       for v in *values {\n\
         \x20           out.push('\\t');\n\
         \x20           out.push_str(&v.to_string());\n\
         \x20       }\n\
         \x20       out.push('\\n');\n\
         \x20   }\n\
         \x20   std::io::stdout().write_all(out.as_bytes()).unwrap();\n\
         }\n",
    );
    for (shard, lib) in shards.iter().zip(&libs) {
        let shard_dir = dir.join(shard);
        std::fs::create_dir_all(shard_dir.join("src")).unwrap();
        std::fs::write(
            shard_dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{shard}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
                 [dependencies]\nzerocopy = {{ version = \"0.8\", features = [\"derive\"] }}\n"
            ),
        )
        .unwrap();
        std::fs::write(shard_dir.join("src/lib.rs"), lib).unwrap();
    }
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let target = root().join("target/difftest-crate");
    let out = run_tool(
        Command::new(env!("CARGO"))
            .args(["build", "--offline", "--quiet", "--keep-going"])
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", &target),
        "cargo",
    );
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let exe = target.join("debug/difftest");
    let run = run_tool(&mut Command::new(&exe), "the compiled Rust program");
    assert!(
        run.status.success(),
        "the Rust program failed: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    Ok(String::from_utf8(run.stdout).expect("the program prints UTF-8"))
}

/// A Python string literal of ASCII text.
fn py_string(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Writes every module and imports them all in one python3 process (every warning an
/// error), which prints the rows from `ctypes.sizeof`, `ctypes.alignment` and each
/// field's descriptor. A module that fails to import, or lacks a name, prints an `X` row.
fn run_python(cases: &[&Case], dir: &Path) -> String {
    let mut table = String::from("SCHEMAS = [\n");
    for case in cases {
        let p = case.prefix();
        let path = dir.join(format!("{p}.py"));
        std::fs::write(&path, &case.python).unwrap();
        let abi = case.schema.abi();
        let _ = writeln!(
            table,
            "  ({}, {}, [",
            py_string(p),
            py_string(path.to_str().expect("a UTF-8 path"))
        );
        for c in &abi.consts {
            let _ = writeln!(
                table,
                "    ({}, {}),",
                py_string(&c.name),
                py_string(&c.name.to_ascii_uppercase())
            );
        }
        table.push_str("  ], [\n");
        for e in &abi.enums {
            let _ = write!(
                table,
                "    ({}, {}, [",
                py_string(&e.name),
                py_string(&python_type_name(&e.name))
            );
            for v in &e.values {
                let _ = write!(
                    table,
                    "({}, {}), ",
                    py_string(&v.name),
                    py_string(&v.name.to_ascii_uppercase())
                );
            }
            table.push_str("]),\n");
        }
        table.push_str("  ], [\n");
        for s in &abi.structs {
            let _ = write!(
                table,
                "    ({}, {}, [",
                py_string(&s.name),
                py_string(&python_type_name(&s.name))
            );
            for f in &s.fields {
                let _ = write!(table, "{}, ", py_string(&f.name));
            }
            table.push_str("]),\n");
        }
        table.push_str("  ]),\n");
    }
    table.push_str("]\n");
    let script = format!("{table}{PYTHON_DRIVER}");
    std::fs::write(dir.join("layout.py"), &script).unwrap();
    let out = run_tool(
        Command::new("python3")
            .args(["-B", "-W", "error"])
            .arg(dir.join("layout.py"))
            .env("PYTHONIOENCODING", "utf-8")
            .env_remove("PYTHONOPTIMIZE"),
        "python3",
    );
    assert!(
        out.status.success(),
        "the Python program of the differential test failed (a bug in the test):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("python3 prints UTF-8")
}

const PYTHON_DRIVER: &str = r#"
import ctypes
import importlib.util
import sys

out = []
for prefix, path, consts, enums, structs in SCHEMAS:
    try:
        spec = importlib.util.spec_from_file_location(prefix, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[prefix] = module
        spec.loader.exec_module(module)
        rows = ["A %s\t%d\t%d" % (prefix, module.ABI_VERSION_MAJOR, module.ABI_VERSION_MINOR)]
        for name, attr in consts:
            rows.append("C %s %s\t%d" % (prefix, name, getattr(module, attr)))
        for name, cls, values in enums:
            enum_class = getattr(module, cls)
            for value, attr in values:
                member = getattr(enum_class, attr)
                rows.append("V %s %s %s\t%d" % (prefix, name, value, int(member)))
        for name, cls, fields in structs:
            struct_class = getattr(module, cls)
            rows.append("S %s %s\t%d\t%d" % (
                prefix, name, ctypes.sizeof(struct_class), ctypes.alignment(struct_class)))
            for field in fields:
                place = getattr(struct_class, field)
                rows.append("F %s %s %s\t%d\t%d" % (prefix, name, field, place.offset, place.size))
        out.extend(rows)
    except Exception as e:
        out.append("X %s\t%s: %s" % (prefix, type(e).__name__, str(e).replace("\n", " ")))
sys.stdout.write("\n".join(out) + "\n")
"#;

/// Totals of a run.
#[derive(Default)]
struct Summary {
    schemas: usize,
    structs: usize,
    fields: usize,
    disagreements: usize,
    /// Seconds each language took, build and run, in the order of `Lang::ALL`.
    lang_secs: [f64; 4],
    /// One report per schema that disagrees: the seed, what differs, and its TOML.
    reports: Vec<String>,
}

/// Generates and loads the schema with `seed`; an invalid one is a bug in the generator
/// (or a front end that rejects a valid schema), reported with its text.
fn load_case(run_seed: u64, seed: u64) -> Case {
    let random = random_schema(seed);
    let schema = abi_codegen::load_schema(&random.toml).unwrap_or_else(|e| {
        panic!(
            "random schema with seed {seed} (run seed {run_seed}) does not load; the \
             generator must make valid schemas:\n{}\n--- schema ---\n{}",
            e.render("schema.toml", &random.toml),
            random.toml
        )
    });
    let outputs = abi_codegen::testing::language_backend::generate_all(&schema, "schema.toml")
        .unwrap_or_else(|e| {
            panic!(
                "random schema with seed {seed}: a target does not render: {e}\n--- schema ---\n{}",
                random.toml
            )
        });
    let of = |ext: &str| {
        outputs
            .iter()
            .find(|o| o.file_name.ends_with(ext))
            .unwrap_or_else(|| panic!("generate_all makes a {ext} file"))
            .contents
            .clone()
    };
    Case {
        rust: of(".rs"),
        header: of(".h"),
        python: of(".py"),
        random,
        schema,
    }
}

/// Checks one batch in the four languages and adds it to `summary`.
fn check_batch(run_seed: u64, cases: &[Case], dir: &Path, summary: &mut Summary) {
    let refs: Vec<&Case> = cases.iter().collect();
    let results: Vec<(Lang, LangResult)> = std::thread::scope(|scope| {
        let handles: Vec<_> = Lang::ALL
            .iter()
            .map(|&lang| {
                let dir = dir.join(format!("{lang:?}").to_lowercase());
                let refs = &refs;
                scope.spawn(move || {
                    let start = Instant::now();
                    let mut result = run_language(lang, refs, &dir);
                    result.secs = start.elapsed().as_secs_f64();
                    (lang, result)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    for (lang, result) in &results {
        summary.lang_secs[*lang as usize] += result.secs;
    }
    for case in cases {
        let p = case.prefix();
        let expected = expected_rows(case);
        let mut problems: Vec<String> = Vec::new();
        for (lang, result) in &results {
            if let Some(message) = result.failed.get(p) {
                problems.push(format!("{}: {message}", lang.label()));
                continue;
            }
            let mine = |k: &&String| k.split(' ').nth(1) == Some(p);
            let got_keys: BTreeSet<&String> = result.rows.keys().filter(mine).collect();
            for (key, want) in &expected {
                match result.rows.get(key) {
                    None => problems.push(format!("{}: no row `{key}`", lang.label())),
                    Some(got) if got != want => problems.push(format!(
                        "{}: `{key}`: {got:?}, but the layout/IR says {want:?}",
                        lang.label()
                    )),
                    Some(_) => {}
                }
            }
            for key in got_keys {
                if !expected.contains_key(key) {
                    problems.push(format!("{}: unexpected row `{key}`", lang.label()));
                }
            }
        }
        summary.schemas += 1;
        summary.structs += case.schema.abi().structs.len();
        summary.fields += case
            .schema
            .abi()
            .structs
            .iter()
            .map(|s| s.fields.len())
            .sum::<usize>();
        if !problems.is_empty() {
            summary.disagreements += problems.len();
            let seed = case.random.seed;
            summary.reports.push(format!(
                "schema with seed {seed} (run seed {run_seed}): {} disagreements\n  {}\n\
                 --- schema (alone: DIFFTEST_SEED={seed} DIFFTEST_SCHEMAS=1 cargo test --test suite \
                 differential:: -- --ignored --nocapture) ---\n{}",
                problems.len(),
                problems.join("\n  "),
                case.random.toml
            ));
        }
    }
}

/// Runs `count` schemas from `seed` in batches of `batch`, in `dir`; stops early, after a
/// whole batch, once `max_secs` have passed.
fn run(seed: u64, count: u64, batch: u64, dir: &Path, progress: bool, max_secs: u64) -> Summary {
    let mut summary = Summary::default();
    let start = Instant::now();
    let mut next = 0u64;
    while next < count && start.elapsed().as_secs() < max_secs {
        let n = batch.min(count - next);
        let cases: Vec<Case> = (next..next + n)
            .map(|i| load_case(seed, seed.wrapping_add(i)))
            .collect();
        check_batch(seed, &cases, dir, &mut summary);
        next += n;
        if progress {
            let [c, cxx, rust, python] = summary.lang_secs;
            eprintln!(
                "differential: {next}/{count} schemas, {} disagreements, {:.0} s \
                 (C {c:.0} s, C++ {cxx:.0} s, Rust {rust:.0} s, Python {python:.0} s)",
                summary.disagreements,
                start.elapsed().as_secs_f64()
            );
        }
    }
    summary
}

fn summary_line(s: &Summary, seed: u64, secs: f64) -> String {
    format!(
        "differential: {} schemas ({} structs, {} fields), 4 languages, {} disagreements, seed {seed}, {secs:.0} s",
        s.schemas, s.structs, s.fields, s.disagreements
    )
}

fn assert_agreement(s: &Summary, line: &str) {
    if s.reports.is_empty() {
        return;
    }
    let shown: Vec<&String> = s.reports.iter().take(5).collect();
    panic!(
        "{line}\n{} schemas disagree; the first {}:\n\n{}",
        s.reports.len(),
        shown.len(),
        shown
            .iter()
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("differential")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 240 random schemas, in 4 batches of 60: every struct, field, value and constant agrees
/// in C, C++, Rust and Python with the layout engine.
#[test]
fn random_schemas_agree_in_four_languages() {
    let seed = 0x5EED;
    let start = Instant::now();
    let summary = run(seed, 240, 60, &scratch("fixed"), false, u64::MAX);
    let line = summary_line(&summary, seed, start.elapsed().as_secs_f64());
    println!("{line}");
    assert_agreement(&summary, &line);
    assert_eq!(summary.schemas, 240);
}

/// A sample of 40 random schemas' Rust, as a crate that uses it would lint it: every
/// warning denied and clippy's pedantic lints errors too (doc_markdown aside, as in this
/// workspace's src/lib.rs: the docs quote the schema's prose). The random schemas of
/// tests/diff_verdicts.rs (handshakes, layouts, blocks, seqlocks) are linted the same way.
#[test]
fn a_sample_is_clean_under_clippy_pedantic() {
    let dir = scratch("pedantic");
    let modules: Vec<(String, String)> = (0x9ED0..0x9ED0 + 40)
        .map(|seed| {
            let case = load_case(0x9ED0, seed);
            (case.prefix().to_string(), case.rust)
        })
        .collect();
    write_bindings_crate(&dir, "difftest-pedantic", ZEROCOPY, &modules);
    let target = root().join("target/difftest-pedantic");
    assert_pedantic_clean(&dir, &target, "random schemas' Rust");
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => {
            let v = v.trim().replace('_', "");
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            }
            .unwrap_or_else(|_| panic!("{name}={v} is not a number"))
        }
        Err(_) => default,
    }
}

/// Any number of schemas: DIFFTEST_SCHEMAS (default 1000), DIFFTEST_SEED (default 1),
/// DIFFTEST_BATCH (schemas per program, default 200), DIFFTEST_MAX_SECS (stop after the
/// batch that passes this time; the summary says how many ran). Prints one summary line.
#[test]
#[ignore = "long: run with DIFFTEST_SCHEMAS=N DIFFTEST_SEED=S ... -- --ignored --nocapture"]
fn many_random_schemas() {
    let count = env_u64("DIFFTEST_SCHEMAS", 1000);
    let seed = env_u64("DIFFTEST_SEED", 1);
    let batch = env_u64("DIFFTEST_BATCH", 200).max(1);
    let max_secs = env_u64("DIFFTEST_MAX_SECS", u64::MAX);
    let start = Instant::now();
    let summary = run(seed, count, batch, &scratch("many"), true, max_secs);
    let line = summary_line(&summary, seed, start.elapsed().as_secs_f64());
    println!("{line}");
    assert_agreement(&summary, &line);
}
