//! Portability guards: on a 32-bit host the bridge bindings keep the ABI's layout, and a
//! big-endian host is refused when it compiles them. Every expected number comes from the
//! reference text (`tests/fixtures/bridge-abi-0.9-reference.txt`), never from the generator.
//!
//! - C on i386: gcc -m32 as C11 and g++ -m32 as C++17, every warning an error, compile the
//!   bridge header with all its static asserts, and a -m32 program prints sizeof, alignof and
//!   offsetof of every struct and field of the reference.
//! - C on a big-endian target: with `__BYTE_ORDER__` set to big the header stops at its
//!   `#error`, and at nothing else.
//! - Rust on i686: a program that cargo builds for `i686-unknown-linux-gnu`, and so compiles
//!   the bindings' const asserts for it, prints size_of, align_of and offset_of of every
//!   struct and field.
//! - Rust on a big-endian target: `cargo check --target s390x-unknown-linux-gnu` of the
//!   bridge-abi crate stops at the bindings' `compile_error!`, and at nothing else.
//! - Python on i386: Debian's 32-bit CPython (its libpython, run by a gcc -m32 program of one
//!   line) lays every struct out at the reference's offsets and sizes; before Python 3.13
//!   its ctypes cannot raise a struct's alignment to 8, and the import says so.
//! - Python on a big-endian host: the live views refuse to start (the structs themselves are
//!   `LittleEndianStructure`s, right on any host).
//!
//! They need gcc-multilib and g++-multilib, Debian's libpython3-dev:i386, and the rustup
//! targets i686-unknown-linux-gnu and s390x-unknown-linux-gnu (`.ci/run` installs them all),
//! and fail, never skip, without them.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use abi_codegen::testing::ir::names::camel;
use abi_codegen::testing::language_backend::c::{c_field_name, c_type_name};
use abi_codegen::testing::language_backend::generate_all;
use abi_codegen::testing::language_backend::python::python_type_name;
use abi_codegen::testing::language_backend::rust::rust_ident;
use common::reference::{Reference, load_reference};
use common::tools::{python_i386, run, run_ok, scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The bridge target file `name` (`bridge.h`, `bridge.py`), rendered from `schema.toml`.
fn bridge_output(name: &str) -> String {
    let src = std::fs::read_to_string(root().join("schema.toml")).expect("read schema.toml");
    let schema = abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render("schema.toml", &src)));
    generate_all(&schema, "schema.toml")
        .expect("render the outputs")
        .into_iter()
        .find(|o| o.file_name == name)
        .unwrap_or_else(|| panic!("generate_all makes {name}"))
        .contents
}

/// What the layout programs print: a line per struct (`struct client_entry size 128 align
/// 8`) followed by a line per field (`field client_entry.state offset 0`), in the
/// reference's order. Here, the reference's own numbers.
fn reference_lines(r: &Reference) -> Vec<String> {
    let mut lines = Vec::new();
    for s in &r.structs {
        lines.push(format!(
            "struct {} size {} align {}",
            s.name, s.size, s.align
        ));
        for f in &s.fields {
            lines.push(format!("field {}.{} offset {}", s.name, f.name, f.offset));
        }
    }
    lines
}

/// Compares a program's layout lines with the expected ones and names every line that
/// differs.
fn assert_layout(what: &str, printed: &str, expected: &[String]) {
    let printed: Vec<&str> = printed.lines().filter(|l| !l.starts_with('#')).collect();
    let differ: Vec<String> = expected
        .iter()
        .zip(&printed)
        .filter(|(e, p)| e != p)
        .map(|(e, p)| format!("  reference: {e}\n  {what}: {p}"))
        .collect();
    assert!(
        differ.is_empty() && printed.len() == expected.len(),
        "{what} disagrees with the reference on {} of {} lines ({} printed):\n{}",
        differ.len(),
        expected.len(),
        printed.len(),
        differ.join("\n")
    );
}

/// How many structs and fields the reference has, for the counts the tests print.
fn counts(r: &Reference) -> (usize, usize) {
    let fields = r.structs.iter().map(|s| s.fields.len()).sum();
    (r.structs.len(), fields)
}

/// The statements of a layout program, a line each, that print the lines of
/// [`reference_lines`]: `struct_line(s)` prints struct `s`'s, `field_line(s, f)` field `f`'s.
fn layout_statements(
    r: &Reference,
    struct_line: impl Fn(&str) -> String,
    field_line: impl Fn(&str, &str) -> String,
) -> String {
    let mut body = String::new();
    for s in &r.structs {
        body.push_str(&struct_line(&s.name));
        body.push('\n');
        for f in &s.fields {
            body.push_str(&field_line(&s.name, &f.name));
            body.push('\n');
        }
    }
    body
}

// ---------------------------------------------------------------------------------------
// C

const STRICT: [&str; 4] = ["-Wall", "-Wextra", "-Werror", "-pedantic"];

/// `-std=c11` with gcc, `-std=c++17` with g++.
fn std_flag(compiler: &str) -> &'static str {
    if compiler == "g++" {
        "-std=c++17"
    } else {
        "-std=c11"
    }
}

/// Runs `compiler` on `file` in `dir` as its language, strict, with `extra` arguments.
/// Panics, naming the packages, when the compiler cannot be started.
fn compile(compiler: &str, dir: &Path, file: &str, extra: &[&str]) -> Output {
    let lang = if compiler == "g++" { "c++" } else { "c" };
    let mut args = vec![std_flag(compiler), "-x", lang];
    args.extend(STRICT);
    args.extend(extra);
    args.push(file);
    run(compiler, &args, dir)
}

fn assert_compiled(compiler: &str, extra: &[&str], out: &Output) {
    assert!(
        out.status.success(),
        "{compiler} {} failed (for -m32, Debian needs gcc-multilib and g++-multilib):\n{}",
        extra.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The header's static asserts: `PREFIX_STATIC_ASSERT_(` at the start of a line.
fn static_asserts(header: &str) -> usize {
    header
        .lines()
        .filter(|l| l.starts_with("IBF_STATIC_ASSERT_("))
        .count()
}

/// gcc -m32 and g++ -m32 accept the header with every static assert of its sizes,
/// alignments and offsets (and of its atomic words), as they do without -m32.
#[test]
fn c_header_compiles_on_i386_with_every_static_assert() {
    let header = bridge_output("bridge.h");
    let asserts = static_asserts(&header);
    // At least a size, an alignment and every field's offset of each struct of the reference.
    let (structs, fields) = counts(&load_reference());
    assert!(
        asserts >= 2 * structs + fields,
        "only {asserts} static asserts in bridge.h"
    );
    let dir = scratch("portability/c_i386");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    std::fs::write(
        dir.join("uses.c"),
        "#include \"bridge.h\"\n#include \"bridge.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    for compiler in ["gcc", "g++"] {
        for bits in ["-m32", "-m64"] {
            let extra = [bits, "-fsyntax-only"];
            assert_compiled(compiler, &extra, &compile(compiler, &dir, "uses.c", &extra));
        }
    }
    println!("{asserts} static asserts pass under gcc and g++, -m32 and -m64");
}

/// A C program, compiled with gcc -m32 and g++ -m32, prints the layout of every struct of
/// the reference through the header: the numbers of the reference, pointers of 4 bytes.
#[test]
fn c_layout_on_i386_is_the_reference() {
    let r = load_reference();
    let dir = scratch("portability/c_layout");
    std::fs::write(dir.join("bridge.h"), bridge_output("bridge.h")).unwrap();
    let ty = |s: &str| c_type_name(s, "ibf");
    let body = layout_statements(
        &r,
        |s| {
            let t = ty(s);
            format!(
                "    printf(\"struct {s} size %zu align %zu\\n\", sizeof({t}), (size_t)ALIGNOF({t}));"
            )
        },
        |s, f| {
            let (t, m) = (ty(s), c_field_name(f, "ibf"));
            format!("    printf(\"field {s}.{f} offset %zu\\n\", offsetof({t}, {m}));")
        },
    );
    let program = format!(
        "#include <stdio.h>\n#include \"bridge.h\"\n\
         #ifdef __cplusplus\n#define ALIGNOF(t) alignof(t)\n#else\n#define ALIGNOF(t) _Alignof(t)\n#endif\n\
         int main(void) {{\n    printf(\"# pointer %zu\\n\", sizeof(void *));\n{body}    return 0;\n}}\n"
    );
    std::fs::write(dir.join("layout.c"), program).unwrap();
    let expected = reference_lines(&r);
    for compiler in ["gcc", "g++"] {
        let exe = format!("layout_{compiler}");
        let extra = ["-m32", "-o", exe.as_str()];
        assert_compiled(
            compiler,
            &extra,
            &compile(compiler, &dir, "layout.c", &extra),
        );
        let printed = run_ok(dir.join(&exe).to_str().unwrap(), &[], &dir);
        assert!(
            printed.starts_with("# pointer 4\n"),
            "not 32-bit: {printed}"
        );
        assert_layout(&format!("{compiler} -m32"), &printed, &expected);
    }
    let (structs, fields) = counts(&r);
    println!(
        "gcc -m32 and g++ -m32: {structs} structs and {fields} field offsets as in the reference"
    );
}

/// A big-endian `__BYTE_ORDER__` stops the header at its `#error`, in C and C++ and with
/// no other error; the little-endian value, set the same way, compiles.
#[test]
fn c_header_refuses_a_big_endian_target() {
    let dir = scratch("portability/c_big_endian");
    std::fs::write(dir.join("bridge.h"), bridge_output("bridge.h")).unwrap();
    std::fs::write(
        dir.join("uses.c"),
        "#include \"bridge.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    let message = "bridge.h: the bridge ABI is little-endian and this header holds its fields \
                   in the target's byte order: a big-endian target is not supported";
    for compiler in ["gcc", "g++"] {
        let as_little = [
            "-fsyntax-only",
            "-U__BYTE_ORDER__",
            "-D__BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
        ];
        let out = compile(compiler, &dir, "uses.c", &as_little);
        assert_compiled(compiler, &as_little, &out);
        let as_big = [
            "-fsyntax-only",
            "-U__BYTE_ORDER__",
            "-D__BYTE_ORDER__=__ORDER_BIG_ENDIAN__",
        ];
        let out = compile(compiler, &dir, "uses.c", &as_big);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "{compiler} accepted a big-endian target"
        );
        assert!(
            stderr.contains(&format!("#error \"{message}\"")),
            "{compiler} failed for another reason:\n{stderr}"
        );
        assert_eq!(
            stderr.matches("error:").count(),
            1,
            "{compiler}: the #error should be the only error:\n{stderr}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Rust

/// Runs cargo with `args` in `dir`, with a target folder of its own under the workspace's
/// (so that it neither waits for the running tests' folder nor rebuilds for each test).
fn cargo(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", root().join("target/portability"))
        .output()
        .expect("cargo runs")
}

/// The rustup hint for a target whose standard library is missing.
fn target_hint(target: &str) -> String {
    format!("(is its standard library installed? rustup target add {target})")
}

/// A program, built by cargo for i686-unknown-linux-gnu against the bridge-abi crate, prints
/// the layout of every struct of the reference: the numbers of the reference. Building it
/// compiles the bindings' const asserts (size, align, every offset) for i686.
#[test]
fn rust_layout_on_i686_is_the_reference() {
    const TARGET: &str = "i686-unknown-linux-gnu";
    let r = load_reference();
    let dir = scratch("portability/rust_i686");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"layout-probe\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[dependencies]\nbridge-abi = {{ path = {:?} }}\n\n[workspace]\n",
            root().display().to_string()
        ),
    )
    .unwrap();
    // The workspace's lock file pins every dependency, so this builds offline.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let ty = |s: &str| rust_ident(&camel(s));
    let body = layout_statements(
        &r,
        |s| {
            let t = ty(s);
            format!(
                "    println!(\"struct {s} size {{}} align {{}}\", size_of::<{t}>(), align_of::<{t}>());"
            )
        },
        |s, f| {
            let (t, m) = (ty(s), rust_ident(f));
            format!("    println!(\"field {s}.{f} offset {{}}\", core::mem::offset_of!({t}, {m}));")
        },
    );
    std::fs::write(
        dir.join("src/main.rs"),
        format!(
            "use bridge_abi::*;\n\nfn main() {{\n    println!(\"# pointer {{}}\", size_of::<usize>());\n{body}}}\n"
        ),
    )
    .unwrap();
    let out = cargo(&dir, &["run", "--offline", "--quiet", "--target", TARGET]);
    assert!(
        out.status.success(),
        "cargo run --target {TARGET} failed {}; linking needs gcc-multilib:\n{}",
        target_hint(TARGET),
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        printed.starts_with("# pointer 4\n"),
        "not 32-bit: {printed}"
    );
    assert_layout(TARGET, &printed, &reference_lines(&r));
    let (structs, fields) = counts(&r);
    println!("{TARGET}: {structs} structs and {fields} field offsets as in the reference");
}

/// `cargo check` of the bridge-abi crate for a big-endian target stops at the bindings'
/// `compile_error!`, and at nothing else: its layout asserts hold there.
#[test]
fn rust_bindings_refuse_a_big_endian_target() {
    const TARGET: &str = "s390x-unknown-linux-gnu";
    let out = cargo(
        root(),
        &[
            "check",
            "--offline",
            "--quiet",
            "-p",
            "bridge-abi",
            "--lib",
            "--target",
            TARGET,
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "bridge-abi compiled for {TARGET}");
    assert!(
        stderr.contains(
            "error: the bridge ABI is little-endian: these bindings hold its fields in the \
             target's byte order, so they do not support a big-endian target"
        ),
        "cargo check --target {TARGET} failed for another reason {}:\n{stderr}",
        target_hint(TARGET)
    );
    assert!(
        stderr.contains("could not compile `bridge-abi` (lib) due to 1 previous error"),
        "the compile_error! should be the only error:\n{stderr}"
    );
}

// ---------------------------------------------------------------------------------------
// Python

/// Under Debian's 32-bit CPython every struct has the reference's size and field offsets.
/// Its ctypes aligns 8-byte fields to 4 inside a structure; from Python 3.13 on, the
/// structs' `_align_` gives them the reference's alignment of 8 all the same, and before it
/// the import fails with a message that says so. The script lays the structs out with the
/// import check taken out, to measure the layout it would refuse.
#[test]
fn python_layout_on_i386() {
    let r = load_reference();
    let dir = scratch("portability/python_i386");
    let python = python_i386(&dir);
    std::fs::write(dir.join("bridge.py"), bridge_output("bridge.py")).unwrap();
    let mut script = String::from(
        "import ctypes, struct, sys\n\
         print('# pointer', struct.calcsize('P'))\n\
         print('# python', sys.version_info[0], sys.version_info[1])\n\
         print('# uint64 align', ctypes.alignment(ctypes.c_uint64))\n\
         try:\n    import bridge\nexcept ImportError as e:\n    print('# import error', e)\nelse:\n    print('# imported')\n\
         text = open('bridge.py').read()\n\
         assert text.count('\\n_check_layout()\\n') == 1\n\
         m = {'__name__': 'bridge'}\n\
         exec(compile(text.replace('\\n_check_layout()\\n', '\\n'), 'bridge.py', 'exec'), m)\n",
    );
    // The schema's field names, which `_fields_` keeps even when they are Python keywords.
    script.push_str(&layout_statements(
        &r,
        |s| {
            let c = python_type_name(s);
            format!("c = m[{c:?}]\nprint('struct {s} size %d align %d' % (ctypes.sizeof(c), ctypes.alignment(c)))")
        },
        |s, f| format!("print('field {s}.{f} offset %d' % getattr(c, {f:?}).offset)"),
    ));
    std::fs::write(dir.join("layout.py"), script).unwrap();
    let printed = run_ok(python.to_str().unwrap(), &["layout.py"], &dir);
    let header = |key: &str| {
        printed
            .lines()
            .find_map(|l| l.strip_prefix(&format!("# {key} ")))
            .unwrap_or_else(|| panic!("no `# {key}` line in:\n{printed}"))
            .to_string()
    };
    assert_eq!(header("pointer"), "4", "not a 32-bit CPython");
    assert_eq!(header("uint64 align"), "4", "i386 ctypes aligns u64 to 4");
    let version: Vec<u32> = header("python")
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    let honours_align = version >= vec![3, 13];
    // Before 3.13, every struct the reference aligns to 8 has ctypes' 4, and nothing else
    // differs; the import names the first of them.
    let mut expected = reference_lines(&r);
    let mut lowered = 0;
    if !honours_align {
        for line in &mut expected {
            if line.starts_with("struct ") && line.ends_with(" align 8") {
                *line = format!("{} align 4", line.strip_suffix(" align 8").unwrap());
                lowered += 1;
            }
        }
        let first = r.structs.iter().find(|s| s.align == 8).unwrap();
        assert_eq!(
            header("import error"),
            format!(
                "bridge: struct {} has alignment 4 under ctypes, but the schema's layout gives it \
                 8 (its _align_ = 8 is honoured by ctypes only from Python 3.13 on: on a host that \
                 aligns 8-byte fields to 4, such as 32-bit x86, use Python 3.13 or later)",
                python_type_name(&first.name)
            )
        );
    } else {
        assert!(printed.contains("\n# imported\n"), "{printed}");
    }
    assert_layout(&format!("CPython {version:?} on i386"), &printed, &expected);
    let (structs, fields) = counts(&r);
    println!(
        "CPython {version:?} on i386: {structs} structs and {fields} field offsets as in the \
         reference, {lowered} structs aligned to 4 instead of 8"
    );
}

/// On a big-endian host (`sys.byteorder` set to "big" before the module is used) the live
/// views and atomic helpers refuse to start, with the ABI's byte order in the message.
#[test]
fn python_live_views_refuse_a_big_endian_host() {
    let dir = scratch("portability/python_big_endian");
    std::fs::write(dir.join("bridge.py"), bridge_output("bridge.py")).unwrap();
    let printed = run_ok(
        "python3",
        &[
            "-c",
            r#"
import ctypes, sys
import bridge
buf = bytearray(ctypes.sizeof(bridge.BridgeHeader))
bridge.LiveBridgeHeader(buf).release()
print("little: ok")
sys.byteorder = "big"
for start in (lambda: bridge.LiveBridgeHeader(buf), lambda: bridge.atomic_load(buf, 0, 4)):
    try:
        start()
    except RuntimeError as e:
        print("big:", e)
    else:
        raise SystemExit("FAILED: a live view started on a big-endian host")
"#,
        ],
        &dir,
    );
    assert_eq!(
        printed,
        "little: ok\n\
         big: bridge: live access needs a little-endian host, as the ABI is\n\
         big: bridge: live access needs a little-endian host, as the ABI is\n"
    );
}
