//! Running the outside tools some tests need (gcc, g++, python3), failing loudly when one
//! is missing, and scratch folders for their files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty folder under the target directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

/// Runs `program` with `args` in `dir`. Panics, naming the package that provides it, when
/// the program cannot be started: a test that needs it must fail, never skip.
pub fn run(program: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{program}` ({e}): this test needs gcc, g++, clang and python3 on \
                 PATH (Debian: apt-get install gcc g++ clang python3)"
            )
        })
}

/// Like [`run`], and panics with its output when the program fails.
pub fn run_ok(program: &str, args: &[&str], dir: &Path) -> String {
    let out = run(program, args, dir);
    assert!(
        out.status.success(),
        "`{program} {}` failed\n--- stdout\n{}\n--- stderr\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Checks `file` (in `dir`) with `python3 -m mypy --strict`, the modules and stubs it
/// imports found in `path` (`generated/`, for `bridge.pyi`; on MYPYPATH, since mypy reads
/// no stub beside a module it finds on PYTHONPATH); panics with mypy's report unless it
/// passes, or when mypy is not installed (`.ci/run` installs it).
pub fn mypy_strict_ok(dir: &Path, file: &str, path: &Path) {
    let out = Command::new("python3")
        .args(["-m", "mypy", "--strict", "--no-error-summary", file])
        .env("MYPYPATH", path)
        .env("MYPY_CACHE_DIR", dir.join(".mypy_cache"))
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): this test needs python3 and mypy"));
    assert!(
        out.status.success(),
        "mypy --strict refused {file} (python3 -m pip install --user mypy)\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles `header` (a file in `dir`) as C11 with gcc and clang and as C++17 with g++ and
/// clang++, every warning an error.
pub fn compile_c_header(dir: &Path, header: &str) {
    let source = format!("#include \"{header}\"\nint main(void) {{ return 0; }}\n");
    std::fs::write(dir.join("main.c"), &source).expect("write main.c");
    std::fs::write(dir.join("main.cpp"), source.replace("(void)", "()")).expect("write main.cpp");
    let strict = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only"];
    for (compiler, std, file) in [
        ("gcc", "-std=c11", "main.c"),
        ("g++", "-std=c++17", "main.cpp"),
        ("clang", "-std=c11", "main.c"),
        ("clang++", "-std=c++17", "main.cpp"),
    ] {
        let mut args = vec![std];
        args.extend(strict);
        args.push(file);
        run_ok(compiler, &args, dir);
    }
}

/// Every `static inline` function of a C header, in order: its name and its first
/// parameter's declaration (`const ibf_pad_input *shared`).
pub fn c_inline_functions(header: &str) -> Vec<(String, String)> {
    header
        .lines()
        .filter_map(|l| l.strip_prefix("static inline "))
        .filter_map(|l| {
            let (head, params) = l.split_once('(')?;
            let name = head.rsplit([' ', '*']).next()?.to_string();
            let first = params.split([',', ')']).next()?.trim().to_string();
            Some((name, first))
        })
        .collect()
}

/// A 32-bit CPython: Debian's libpython for i386, run by a one-line gcc -m32 program, its
/// flags from Debian's `i386-linux-gnu-python3-config`.
pub fn python_i386(dir: &Path) -> PathBuf {
    let config = "i386-linux-gnu-python3-config";
    let out = Command::new(config)
        .args(["--includes", "--ldflags", "--embed"])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{config}` ({e}): this test needs Debian's 32-bit libpython \
                 (dpkg --add-architecture i386; apt-get install libpython3-dev:i386)"
            )
        });
    assert!(out.status.success(), "{config} failed");
    let flags = String::from_utf8(out.stdout).expect("UTF-8");
    std::fs::write(
        dir.join("python32.c"),
        "#include <Python.h>\nint main(int argc, char **argv) { return Py_BytesMain(argc, argv); }\n",
    )
    .unwrap();
    let mut args = vec!["-m32", "python32.c", "-o", "python32"];
    args.extend(flags.split_whitespace());
    run_ok("gcc", &args, dir);
    dir.join("python32")
}

/// Runs `tests/python_attach/attach.py MODE DIR ARGS...` with CPython (every warning an
/// error) against `generated/`; panics with its output unless it succeeds, or when python3
/// is missing. Returns what it printed.
pub fn attach_py(mode: &str, dir: &Path, args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args(["-B", "-W", "error"])
        .arg(root.join("tests/python_attach/attach.py"))
        .args([mode, dir.to_str().expect("a UTF-8 path")])
        .args(args)
        .env("PYTHONPATH", root.join("generated"))
        .env_remove("PYTHONOPTIMIZE")
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 is required for the Python target's tests but could not be run: {e}")
        });
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "attach.py {mode} failed\n--- stdout\n{stdout}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Warnings on, as errors, in C and C++.
pub const STRICT_WARNINGS: [&str; 7] = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-Wconversion",
    "-Wsign-conversion",
    "-Wshadow",
];

/// Builds `source` (in `dir`) with gcc's ThreadSanitizer as C11 and runs it: its stdout.
/// Panics when gcc has no TSan runtime, when the build or the run fails, or when TSan warns.
/// -Wno-tsan: TSan does not model fences (gcc says so); every shared access of the live
/// helpers is atomic, so TSan needs none to find no race.
pub fn run_tsan(dir: &Path, source: &str) -> String {
    let tsan = run_ok("gcc", &["-print-file-name=libtsan.so"], dir);
    assert!(
        tsan.trim().starts_with('/'),
        "gcc has no ThreadSanitizer runtime (libtsan.so): install it (Debian: apt-get install \
         libtsan2)"
    );
    run_ok(
        "gcc",
        &[
            "-fsanitize=thread",
            "-O1",
            "-g",
            "-std=c11",
            "-pthread",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-Wno-tsan",
            source,
            "-o",
            "tsan_program",
        ],
        dir,
    );
    let out = Command::new(dir.join("tsan_program"))
        .env("TSAN_OPTIONS", "halt_on_error=1:exitcode=66")
        .output()
        .expect("run the ThreadSanitizer program");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success() && !stderr.contains("WARNING: ThreadSanitizer"),
        "{}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    stdout
}

/// `cargo ARGS` in `dir`, a crate outside this workspace, with `target` as its target
/// folder; this test's own build settings (its manifest folder, its RUSTFLAGS) left out.
pub fn cargo_outside(dir: &Path, target: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo (needed for this test): {e}"))
}

/// A command's stdout, then its stderr, as text.
pub fn output_text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
