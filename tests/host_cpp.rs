//! C++ hosts (issue 40, item 10): the generated header is warning-free in a C++17 translation
//! unit under g++ and clang++ with `-Wall -Wextra -Werror -pedantic -Wold-style-cast
//! -Wzero-as-null-pointer-constant` (and g++'s `-Wuseless-cast`), at -O0 and -O2, for the
//! bridge and for every fixture schema the C tests compile; the unit uses each enum and flag
//! value without a cast and takes the address of every public helper, so each is compiled
//! and optimized. The header once gave hundreds of warnings at a host's call sites (its enum
//! values were C casts) and inside it.
//!
//! Needs g++ and clang++; fails, never skips, without them.
#![cfg(not(miri))]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use abi_codegen::language_backend::c::render_c_header;
use common::tools::{run_ok, scratch};

fn manifest(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The flags a strict C++ host builds with; g++ adds `-Wuseless-cast` (clang has no such
/// warning).
pub const CXX_FLAGS: [&str; 8] = [
    "-std=c++17",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-Wold-style-cast",
    "-Wzero-as-null-pointer-constant",
    "-Wshadow",
];

/// The compilers and their own extra flags.
pub const CXX_COMPILERS: [(&str, &[&str]); 2] = [("g++", &["-Wuseless-cast"]), ("clang++", &[])];

/// The schemas: the bridge and the C tests' fixtures.
const SCHEMAS: [&str; 11] = [
    "schema.toml",
    "tests/fixtures/c/flags_u64.toml",
    "tests/fixtures/c/hostile_docs.toml",
    "tests/fixtures/c/hostile_names.toml",
    "tests/fixtures/c/one_enum.toml",
    "tests/fixtures/c/one_struct.toml",
    "tests/fixtures/protocols/demo.toml",
    "tests/fixtures/attach/demo.toml",
    "tests/fixtures/live/edge.toml",
    "tests/fixtures/live/kinds.toml",
    "tests/fixtures/hostile/schema.toml",
];

/// A C++ unit over `header`: every enum value (`#define X <P>_VALUE_(type, literal)`)
/// stored in its type and summed without a cast, and the address of every public
/// `static inline` function kept.
fn host_unit(header: &str, file: &str) -> String {
    let mut values = Vec::new();
    let mut functions = BTreeSet::new();
    for line in header.lines() {
        if let Some(rest) = line.strip_prefix("#define ")
            && let Some((name, value)) = rest.split_once(' ')
            && let Some((_, args)) = value.split_once("_VALUE_(")
            && !name.contains('(')
        {
            let ty = args.split_once(',').unwrap().0;
            values.push((name.to_string(), ty.to_string()));
        }
        if let Some(rest) = line.strip_prefix("static inline ")
            && let Some((before, _)) = rest.split_once('(')
        {
            let name = before.rsplit([' ', '*']).next().unwrap();
            if !name.ends_with('_') {
                functions.insert(name.to_string());
            }
        }
    }
    let mut unit = format!(
        "#include \"{file}\"\n#include \"{file}\"\n\
         using any_function = void (*)();\n\
         any_function keep[] = {{\n"
    );
    for f in &functions {
        unit.push_str(&format!("    reinterpret_cast<any_function>(&{f}),\n"));
    }
    unit.push_str("    nullptr,\n};\nint main() {\n    long long sum = 0;\n");
    for (k, (name, ty)) in values.iter().enumerate() {
        unit.push_str(&format!(
            "    const {ty} v{k} = {name};\n    sum += v{k};\n"
        ));
    }
    unit.push_str("    return sum == 1 && keep[0] == nullptr;\n}\n");
    unit
}

#[test]
fn the_header_is_warning_free_in_a_strict_cxx17_host_for_every_schema() {
    let started = Instant::now();
    let dir = scratch("host_cpp_headers");
    let mut compiled = 0;
    for path in SCHEMAS {
        let src = std::fs::read_to_string(manifest(path)).unwrap();
        let schema =
            abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render(path, &src)));
        let header = render_c_header(&schema, "schema.toml").expect("the header");
        let stem = path.replace(['/', '.'], "_");
        let file = format!("{stem}.h");
        std::fs::write(dir.join(&file), &header).unwrap();
        let unit = host_unit(&header, &file);
        std::fs::write(dir.join(format!("{stem}.cpp")), &unit).unwrap();
        for (compiler, extra) in CXX_COMPILERS {
            for opt in ["-O0", "-O2"] {
                let mut args: Vec<&str> = CXX_FLAGS.to_vec();
                args.extend(extra);
                let cpp = format!("{stem}.cpp");
                let obj = format!("{stem}.o");
                args.extend([opt, "-c", cpp.as_str(), "-o", obj.as_str()]);
                run_ok(compiler, &args, &dir);
                compiled += 1;
            }
        }
    }
    println!(
        "{compiled} strict C++17 builds of {} headers in {:.1?}",
        SCHEMAS.len(),
        started.elapsed()
    );
}
