//! Windows code, built here and run under wine (issue 29): the C live-helper program of
//! tests/c_live.rs built with mingw-w64, which must print and leave what the Linux build
//! does; the C attach example by name (`tests/c_attach/attach_named.c`: OpenFileMappingA,
//! MapViewOfFile) against a stand-in host holding a named mapping (`tests/windows/hold.c`),
//! with its bad inputs (no such name, too small, access denied), each a clear error naming
//! the mapping; and the cross-process torture (examples/torture.rs with `--named`): a Windows
//! host creates `Local\…` and publishes at full speed while Rust clients (`Mapping` by name)
//! and C clients (tests/torture/client.c, by name) race it and claim rows; and README "Who
//! may attach"'s C example (an owner-only section, its descriptor read back); and the C++
//! host example (examples/host_cpp/host.cpp, built with mingw-w64's g++) by name against two
//! Windows bots (tests/host_cpp/win_bot.c); and the host directory's process probe with the
//! header alone, against a child killed by TerminateProcess (tests/windows/probe.c), and its
//! named section's open-or-create (tests/windows/directory.c, also listing the C++ host's
//! row); and the commands' event by name (tests/windows/commands.c, a C host and C clients);
//! and the tick event by name (examples/events_windows.rs waking a Rust bot and the C bot
//! tests/windows/events_bot.c).
//!
//! Needs wine64, gcc-mingw-w64-x86-64, g++-mingw-w64-x86-64-win32 and the rustup target
//! x86_64-pc-windows-gnu (.ci/setup
//! installs them) and fails, never skips, without them. Every program runs through
//! tests/windows/run-under-wine.sh (headless, its own prefix, the test-only ProcessPrng
//! shim next to Rust programs). `cargo test --workspace` leaves this file out (Cargo.toml:
//! `test = false`, to keep the suite's time); `.ci/run`'s "windows" step runs it with
//! `cargo test -p bridge-abi --test windows`.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::c_live_program::{PROGRAM, STRICT, bridge_header, input_image, public_helpers, sweep};
use common::image;
use common::reference::load_reference;
use common::tools::{run_ok, scratch};

const MINGW: &str = "x86_64-w64-mingw32-gcc";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The wine runner script (it fails naming the package when wine or mingw-w64 is missing).
fn runner() -> PathBuf {
    root().join("tests/windows/run-under-wine.sh")
}

/// Compiles C11 `sources` for Windows with mingw-w64, every warning an error.
fn mingw(dir: &Path, out: &str, sources: &[&Path], extra: &[&str]) -> PathBuf {
    let generated = root().join("generated");
    let mut args: Vec<&str> = vec![
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-O2",
    ];
    args.extend(extra);
    args.extend(["-I", generated.to_str().unwrap()]);
    args.extend(sources.iter().map(|s| s.to_str().unwrap()));
    args.extend(["-o", out]);
    run_mingw(dir, &args);
    dir.join(out)
}

/// Runs mingw-w64's gcc; panics with its errors, or naming the package when it is missing.
fn run_mingw(dir: &Path, args: &[&str]) {
    let out = Command::new(MINGW)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {MINGW} ({e}): apt-get install gcc-mingw-w64-x86-64 (.ci/setup does)"
            )
        });
    assert!(
        out.status.success(),
        "{MINGW} {} failed:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs a Windows program under wine in `dir`: exit code, stdout, stderr.
///
/// Every program here prints a line before it exits non-zero, so a failure that printed
/// nothing at all is wine's (a CI run once saw exit 1 with empty output under load): it is
/// reported on stderr and run again, at most twice.
fn wine(dir: &Path, exe: &Path, args: &[&str]) -> (i32, String, String) {
    let mut tries = 0;
    loop {
        let out = Command::new(runner())
            .arg(exe)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", runner().display()));
        let code = out.status.code().unwrap_or(-1);
        let silent = out.stdout.is_empty() && out.stderr.is_empty();
        if code != 0 && silent && tries < 2 {
            tries += 1;
            eprintln!(
                "{} {args:?} exited {code} printing nothing: run again",
                exe.display()
            );
            continue;
        }
        return (
            code,
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
    }
}

/// A Linux path as wine's Z: drive names it, for a Windows program's arguments.
fn wine_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

/// A `Local\` name unique to this process and test.
fn local_name(test: &str) -> String {
    format!("Local\\ibf.test-{test}-{}", std::process::id())
}

#[test]
fn the_c_live_program_built_by_mingw_prints_and_leaves_what_the_linux_build_does() {
    let r = common::c_live_program::Ref(load_reference());
    let (header, _) = bridge_header();
    let swept = sweep(&public_helpers(&header));
    // One line of output per field the sweep stores (each prints `sweep <struct>.<field>`).
    let fields = swept.matches("changed(\"").count();
    let source = PROGRAM.replace("SWEEP", &swept);
    let dir = scratch("windows_c_live");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    std::fs::write(dir.join("live.c"), &source).unwrap();
    std::fs::write(dir.join("in.bin"), input_image(&r)).unwrap();

    let mut args = vec!["-std=c11", "-x", "c"];
    args.extend(STRICT.split(' '));
    run_ok(
        "gcc",
        &[&args[..], &["live.c", "-o", "live_linux"]].concat(),
        &dir,
    );
    let linux_out = run_ok(
        dir.join("live_linux").to_str().unwrap(),
        &["in.bin", "out_linux.bin"],
        &dir,
    );
    run_ok(
        MINGW,
        &[&args[..], &["live.c", "-o", "live.exe"]].concat(),
        &dir,
    );
    let (code, windows_out, stderr) =
        wine(&dir, &dir.join("live.exe"), &["in.bin", "out_windows.bin"]);
    assert_eq!(code, 0, "live.exe under wine\n{windows_out}\n{stderr}");
    // The C runtime of Windows writes text-mode stdout: "\r\n" line ends, nothing else.
    let windows_out = windows_out.replace("\r\n", "\n");
    assert!(linux_out.contains("failures=0\n"), "{linux_out}");
    assert!(
        fields >= 15,
        "the sweep covers the header's stored fields: {fields}"
    );
    assert_eq!(
        linux_out
            .lines()
            .filter(|l| l.starts_with("sweep "))
            .count(),
        fields,
        "every field swept: {linux_out}"
    );
    assert_eq!(windows_out, linux_out, "Windows and Linux print the same");
    let (linux, windows) = (
        std::fs::read(dir.join("out_linux.bin")).unwrap(),
        std::fs::read(dir.join("out_windows.bin")).unwrap(),
    );
    assert_eq!(linux.len(), windows.len());
    assert!(linux == windows, "Windows and Linux leave the same bytes");
}

/// The whole generated header (every section: live helpers, protocols, attach, produce)
/// compiles for Windows with mingw-w64 as C11 under the strict flags, and with every inline
/// helper forced out as a function (-fkeep-inline-functions), so each body is compiled.
#[test]
fn the_whole_header_compiles_with_mingw_under_strict_flags() {
    let dir = scratch("windows_header");
    std::fs::write(
        dir.join("main.c"),
        "#include \"bridge.h\"\n#include \"bridge.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    let generated = root().join("generated");
    let mut args = vec![
        "-std=c11",
        "-c",
        "-fkeep-inline-functions",
        "-I",
        generated.to_str().unwrap(),
    ];
    args.extend(STRICT.split(' '));
    args.extend(["main.c", "-o", "main.o"]);
    run_mingw(&dir, &args);
    assert!(dir.join("main.o").exists());
}

/// A stand-in host under wine holding a named mapping until dropped.
struct Held(Child);

impl Held {
    /// `hold NAME SIZE IMAGE [read-only]`, once it says `ready`.
    fn start(dir: &Path, name: &str, size: usize, image: &str, read_only: bool) -> Held {
        let hold = dir.join("hold.exe");
        let mut cmd = Command::new(runner());
        cmd.arg(&hold).arg(name).arg(size.to_string()).arg(image);
        if read_only {
            cmd.arg("read-only");
        }
        let mut child = cmd
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start hold.exe under wine");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let ready = lines.find(|l| l.as_ref().is_ok_and(|l| l.trim() == "ready"));
        assert!(ready.is_some(), "hold.exe {name} never said ready");
        Held(child)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        drop(self.0.stdin.take());
        let _ = self.0.wait();
    }
}

#[test]
fn the_c_attach_example_opens_a_named_mapping_and_names_it_in_every_error() {
    let dir = scratch("windows_attach_named");
    mingw(
        &dir,
        "hold.exe",
        &[&root().join("tests/windows/hold.c")],
        &[],
    );
    let attach = mingw(
        &dir,
        "attach_named.exe",
        &[&root().join("tests/c_attach/attach_named.c")],
        &[],
    );
    let valid = image::valid();
    std::fs::write(dir.join("bridge.bin"), &valid).unwrap();

    // A host's bridge: it attaches, with the geometry the host wrote.
    let name = local_name("valid");
    let held = Held::start(&dir, &name, valid.len(), "bridge.bin", false);
    let (code, out, err) = wine(&dir, &attach, &[&name]);
    assert_eq!(code, 0, "{out}{err}");
    let expected = format!(
        "{name} attached len={} total_size={} ring_slots=8 ring_stride=32768 host_state={}",
        valid.len().next_multiple_of(4096),
        image::TOTAL,
        image::RUNNING
    );
    assert_eq!(out.trim_end(), expected);
    drop(held);

    // The host is gone: the mapping went with its last handle.
    let (code, out, err) = wine(&dir, &attach, &[&name]);
    assert_eq!(code, 2, "code {code}: {out}{err}");
    assert!(err.contains(&format!("no mapping named `{name}`")), "{err}");

    // Smaller than the bridge: one page of a bridge whose header says it is bigger.
    let small = local_name("small");
    let held = Held::start(&dir, &small, 4096, "bridge.bin", false);
    let (code, out, err) = wine(&dir, &attach, &[&small]);
    assert_eq!(code, 1, "code {code}: {out}{err}");
    assert!(
        err.starts_with(&format!(
            "the mapping named `{small}` (4096 bytes) does not attach: "
        )),
        "{err}"
    );
    assert!(err.contains("extent_beyond_mapping"), "{err}");
    assert!(
        err.contains(&format!("expected 4096, found {}", image::TOTAL)),
        "{err}"
    );
    drop(held);

    // A host that shares its bridge read-only: a read-write open is denied.
    let denied = local_name("denied");
    let held = Held::start(&dir, &denied, valid.len(), "bridge.bin", true);
    let (code, out, err) = wine(&dir, &attach, &[&denied]);
    assert_eq!(code, 2, "code {code}: {out}{err}");
    assert!(
        err.contains(&format!("access denied to the mapping named `{denied}`")),
        "{err}"
    );
    drop(held);
}

/// Builds examples/`name`.rs for Windows (debug: a quick build; the race is what counts).
fn build_example_for_windows(name: &str) -> PathBuf {
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "-q", "--example", name])
        .args(["--target", "x86_64-pc-windows-gnu"])
        .env("CARGO_TARGET_DIR", &target_dir)
        .current_dir(root())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build --example {name} --target x86_64-pc-windows-gnu failed (rustup target add \
         x86_64-pc-windows-gnu; apt-get install gcc-mingw-w64-x86-64):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    target_dir.join(format!("x86_64-pc-windows-gnu/debug/examples/{name}.exe"))
}

#[test]
fn the_torture_races_rust_and_c_clients_on_a_named_mapping_under_wine() {
    let dir = scratch("windows_torture");
    let client = mingw(
        &dir,
        "client.exe",
        &[&root().join("tests/torture/client.c")],
        &[],
    );
    let torture = build_example_for_windows("torture");
    let name = local_name("torture");
    let (code, out, err) = wine(
        &dir,
        &torture,
        &[
            "--named",
            &name,
            "--langs",
            "rust,c",
            "--c-client",
            &wine_path(&client),
            "--seconds",
            "2",
            "--rounds",
            "30",
        ],
    );
    println!("{out}");
    assert_eq!(code, 0, "the torture failed:\n{out}\n{err}");
    // `torture LANG: R reads, T torn accepted, X retries, C claim rounds, D double claims`
    let lines: HashMap<&str, Vec<u64>> = out
        .lines()
        .filter_map(|l| l.trim_end().strip_prefix("torture "))
        .filter_map(|l| l.split_once(": "))
        .map(|(lang, rest)| {
            let numbers = rest
                .split(", ")
                .map(|part| part.split(' ').next().unwrap().parse().unwrap_or(u64::MAX))
                .collect();
            (lang, numbers)
        })
        .collect();
    for lang in ["rust", "c"] {
        let n = lines
            .get(lang)
            .unwrap_or_else(|| panic!("no line for {lang}:\n{out}"));
        let [reads, torn, retries, rounds, doubles] = n[..] else {
            panic!("{lang}: {n:?}");
        };
        assert!(reads > 0, "{lang} read nothing:\n{out}");
        assert_eq!(
            (torn, doubles),
            (0, 0),
            "{lang}: torn, double claims:\n{out}"
        );
        assert!(retries > 0, "{lang} never raced (0 retries):\n{out}");
        assert_eq!(
            rounds,
            30 * 2,
            "{lang}: two clients, 30 rounds each:\n{out}"
        );
    }
    let host = out
        .lines()
        .find(|l| l.starts_with("torture host: "))
        .expect("the host's line");
    assert!(host.contains(" 30 claim rounds, 4 clients"), "{host}");
}

/// Python on Windows maps the host's bridge with `mmap.mmap(-1, size, tagname=NAME)`: an
/// `mmap` over the pagefile. There is no Windows CPython here, so this checks what can be
/// checked on Linux: the generated `attach` takes an anonymous `mmap.mmap(-1, size)`, the
/// same type, attaching a bridge in it and naming the check when it is too small for the
/// bridge its header describes.
#[test]
fn python_attach_takes_a_pagefile_style_mmap() {
    let dir = scratch("windows_python_mmap");
    std::fs::write(dir.join("bridge.bin"), image::valid()).unwrap();
    let script = r#"
import mmap, sys
import bridge
image = open("bridge.bin", "rb").read()
buf = mmap.mmap(-1, len(image))   # on Windows: mmap.mmap(-1, size, tagname="Local\\ibf.bridge")
buf[:] = image
attached = bridge.attach(buf)
print("attached", attached.header().host_state(), attached.snapshot_ring() is not None)
attached.release()
small = mmap.mmap(-1, 4096)
small[:] = image[:4096]
try:
    bridge.attach(small)
except bridge.AttachError as e:
    print("small", e)
"#;
    std::fs::write(dir.join("check.py"), script).unwrap();
    let out = Command::new("python3")
        .arg("check.py")
        .env("PYTHONPATH", root().join("generated"))
        .current_dir(&dir)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("attached {} True", image::RUNNING));
    assert!(lines[1].starts_with("small "), "{stdout}");
    assert!(lines[1].contains("extent_beyond_mapping"), "{stdout}");
    assert!(lines[1].contains(&image::TOTAL.to_string()), "{stdout}");
}

/// docs/security.md "Who may attach": the Windows C example, built by mingw-w64 and run under wine,
/// makes an owner-only section (this user's SID and SYSTEM, read back from the section), adds
/// the caller's ACE, refuses a name in use, and creates nothing for a malformed ACE. One wine
/// run: the program takes NAME ACE pairs (`-`: no ACE) and prints a line or two for each.
#[test]
fn the_readmes_windows_c_example_makes_an_owner_only_section() {
    let dir = scratch("windows_who_may_attach");
    let snippet = common::readme::block_after("docs/security.md", "In C on Windows", "c");
    let program = format!(
        "{snippet}\n#include <aclapi.h>\n#include <string.h>\n\n\
         int main(int argc, char **argv) {{\n    \
         for (int i = 1; i + 1 < argc; i += 2) {{\n        \
         const char *name = argv[i];\n        \
         unsigned char *base = create_bridge_named(name, 4096, strcmp(argv[i + 1], \"-\") ? argv[i + 1] : NULL);\n        \
         if (base == NULL) {{\n            \
         DWORD error = GetLastError();\n            \
         HANDLE h = OpenFileMappingA(FILE_MAP_READ, FALSE, name);\n            \
         printf(\"failed %lu exists %d\\n\", (unsigned long)error, h != NULL);\n            \
         continue;\n        }}\n        \
         base[8] = 7;\n        \
         HANDLE h = OpenFileMappingA(READ_CONTROL, FALSE, name);\n        \
         PSECURITY_DESCRIPTOR sd = NULL;\n        \
         char *text = NULL;\n        \
         if (h == NULL || GetSecurityInfo(h, SE_KERNEL_OBJECT, DACL_SECURITY_INFORMATION, NULL, NULL, NULL, NULL, &sd) != ERROR_SUCCESS ||\n            \
         !ConvertSecurityDescriptorToStringSecurityDescriptorA(sd, SDDL_REVISION_1, DACL_SECURITY_INFORMATION, &text, NULL))\n            \
         return 3;\n        \
         printf(\"created %s\\n\", text);\n        \
         base = create_bridge_named(name, 4096, NULL);\n        \
         printf(\"again %s %lu\\n\", base == NULL ? \"refused\" : \"adopted\", (unsigned long)GetLastError());\n    \
         }}\n    return 0;\n}}\n"
    );
    std::fs::write(dir.join("create_named.c"), program).unwrap();
    let exe = mingw(
        &dir,
        "create_named.exe",
        &[&dir.join("create_named.c")],
        &[],
    );
    let (owner, group, bad) = (
        local_name("who-owner"),
        local_name("who-group"),
        local_name("who-bad"),
    );
    let args = [
        owner.as_str(),
        "-",
        group.as_str(),
        "(A;;GR;;;BU)",
        bad.as_str(),
        "(A;;GR;;;NOTASID)",
    ];
    let (code, out, err) = wine(&dir, &exe, &args);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (created, tail) in [(lines[0], ""), (lines[2], "(A;;GR;;;BU)")] {
        let user = created
            .strip_prefix("created D:P(A;;GA;;;")
            .and_then(|rest| rest.strip_suffix(&format!(")(A;;GA;;;SY){tail}")))
            .unwrap_or_else(|| panic!("not this user, SYSTEM and {tail}: {out}"));
        assert!(
            user.starts_with("S-1-5-21-") && !user.contains(')'),
            "{out}"
        );
    }
    assert_eq!(
        (lines[1], lines[3]),
        ("again refused 183", "again refused 183")
    );
    assert_eq!(lines[4], "failed 1336 exists 0", "{out}");
}

/// The C++ host example (`examples/host_cpp/host.cpp`) built with mingw-w64's g++ under the
/// strict C++ flags (`-static`), run under wine by name (`Local\…`) against two Windows bots
/// (`tests/host_cpp/win_bot.c`): one sends a malformed request, a request, log entries and a
/// draw list, claims a row with pad 0 bound and ends without goodbye; the other stays active
/// until the host's reload, claims again, stays active until the host's re-layout, claims
/// again and says goodbye. The host answers both requests, frees the dead bot's hung row and
/// its pad, reloads once, re-lays out once, and prints its `host cpp:` line with every
/// activity count above 0 and 0 wrong, stuck rows and leaked pads.
#[test]
fn the_cxx_host_example_runs_under_wine_by_name() {
    const CXX: &str = "x86_64-w64-mingw32-g++";
    let dir = scratch("windows_host_cpp");
    let generated = root().join("generated");
    let host_cpp = root().join("examples/host_cpp/host.cpp");
    let args = [
        "-std=c++17",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-Wold-style-cast",
        "-Wuseless-cast",
        "-Wzero-as-null-pointer-constant",
        "-Wshadow",
        "-O2",
        "-static",
        "-I",
        generated.to_str().unwrap(),
        host_cpp.to_str().unwrap(),
        "-o",
        "host.exe",
    ];
    let out = Command::new(CXX)
        .args(args)
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run {CXX} ({e}): apt-get install g++-mingw-w64-x86-64-win32 (.ci/setup does)")
        });
    assert!(
        out.status.success(),
        "{CXX} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bot = mingw(
        &dir,
        "win_bot.exe",
        &[&root().join("tests/host_cpp/win_bot.c")],
        &[],
    );
    let lister = mingw(
        &dir,
        "directory.exe",
        &[&root().join("tests/windows/directory.c")],
        &[],
    );
    let name = local_name("host-cpp");
    let directory = local_name("host-cpp-directory");
    let stop = dir.join("host.stop");
    let stop_win = wine_path(&stop);
    let mut host = Command::new(runner())
        .args([
            dir.join("host.exe").to_str().unwrap(),
            name.as_str(),
            stop_win.as_str(),
            "60000",
            directory.as_str(),
        ])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start host.exe under wine");
    let mut host_out = BufReader::new(host.stdout.take().unwrap());
    let mut ready = String::new();
    host_out.read_line(&mut ready).unwrap();
    assert_eq!(
        ready.trim_end(),
        "host cpp: ready",
        "host.exe did not start"
    );
    // The host registered in its directory (a section it created owner-only), listed by
    // another process through the header's open-or-create.
    let (code, listed, err) = wine(&dir, &lister, &["list", directory.as_str()]);
    assert_eq!(
        (code, listed.replace('\r', "").as_str()),
        (0, "created 0\n1 hosts\nhost host-cpp 1.0\n"),
        "{err}"
    );
    let (code, died, err) = wine(&dir, &bot, &[name.as_str(), "0", "die"]);
    assert_eq!(code, 0, "{died}{err}");
    assert_eq!(
        died.replace('\r', ""),
        "malformed 2\nanswer 1 ans 7xxxxxxx\nsent\nactive\n",
        "{err}"
    );
    let (code, stayed, err) = wine(&dir, &bot, &[name.as_str(), "1", "stay"]);
    assert_eq!(code, 0, "{stayed}{err}");
    assert_eq!(
        stayed.replace('\r', ""),
        "active\nreloaded\nre-laid out\ngoodbye\n",
        "{err}"
    );
    std::fs::write(&stop, b"").unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut host_out, &mut rest).unwrap();
    let status = host.wait().unwrap();
    let rest = rest.replace('\r', "");
    let line = rest
        .lines()
        .find(|l| l.contains(" ticks, "))
        .unwrap_or_else(|| panic!("no host cpp line: {rest}"))
        .to_string();
    println!("{line}");
    assert!(status.success(), "host.exe failed: {rest}");
    let counts: Vec<u64> = line
        .trim_start_matches("host cpp: ")
        .split(", ")
        .map(|part| part.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 10, "{line}");
    assert!(counts[..7].iter().all(|&n| n > 0), "{line}");
    assert_eq!(
        counts[4..],
        [1, 1, 1, 0, 0, 0],
        "one hung row, one reload, one re-layout: {line}"
    );
    // Unregistered at its exit: its directory held no row, and was gone with its last handle.
    let (code, listed, err) = wine(&dir, &lister, &["list", directory.as_str()]);
    assert_eq!(
        (code, listed.replace('\r', "").as_str()),
        (0, "created 1\n0 hosts\n"),
        "{err}"
    );
}

/// The host directory's named section from C with the header alone (issue 48):
/// `ibf_hosts_open_or_create_named` creates it owner-only and lays it out, a second open
/// finds it (not created) and lists the row the first registered, the section is gone with
/// its last handle, and a section nobody laid out is refused as not ready, nothing left
/// mapped (tests/windows/directory.c).
#[test]
fn the_directory_section_opens_or_creates_from_c() {
    let dir = scratch("windows_directory");
    let exe = mingw(
        &dir,
        "directory.exe",
        &[&root().join("tests/windows/directory.c")],
        &[],
    );
    let (code, out, err) = wine(&dir, &exe, &["self", &local_name("directory")]);
    assert_eq!(
        (code, out.replace("\r\n", "\n").as_str()),
        (
            0,
            "first created 1, 16 rows\nsecond created 0, 16 rows\n\
             registered row 0, listed through the second\nunregistered, listed 0\n\
             after the last close created 1\nbare: directory_not_ready, mapped 0\n"
        ),
        "stderr: {err}"
    );
}

/// `ibf_process_probe` works on Windows with the header alone (issue 48): no macro to define
/// and no `<windows.h>` to include first (the header includes it, without min and max).
/// tests/windows/probe.c includes `<windows.h>` after bridge.h, the order that used to leave
/// every process "unknown", and kills a child with TerminateProcess; the header also builds as
/// C++17 after `<windows.h>` and before `<algorithm>`'s `std::min`.
#[test]
fn the_process_probe_needs_no_macro_and_sees_a_killed_child() {
    let dir = scratch("windows_probe");
    let exe = mingw(
        &dir,
        "probe.exe",
        &[&root().join("tests/windows/probe.c")],
        &[],
    );
    let (code, out, err) = wine(&dir, &exe, &[]);
    assert_eq!(
        (code, out.replace("\r\n", "\n").as_str()),
        (
            0,
            "self running created\nself-again running created\npid-0 gone\nno-such gone\n\
             child running created\nkilled-held gone\nkilled gone\n"
        ),
        "stderr: {err}"
    );
    std::fs::write(
        dir.join("order.cpp"),
        "#include <windows.h>\n#include \"bridge.h\"\n#include <algorithm>\n\
         int main() { uint64_t t = 0; return std::min(ibf_process_probe(0, &t, nullptr), 0); }\n",
    )
    .unwrap();
    let generated = root().join("generated");
    let out = Command::new("x86_64-w64-mingw32-g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(&generated)
        .args(["order.cpp", "-o", "order.exe"])
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run x86_64-w64-mingw32-g++ ({e}): apt-get install g++-mingw-w64-x86-64-win32"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The tick event by name under wine (issue 47): examples/events_windows.rs creates the
/// bridge `Local\…` and one named auto-reset tick event per row before the bridge runs, then
/// wakes a Rust bot (itself) and a C bot (tests/windows/events_bot.c, <windows.h> from
/// bridge.h with no macro) that open their row's event by the schema's name and sleep on it.
/// Every tick must reach both, none by a wait that ran to its deadline, and each must have
/// been woken from a sleep, at most two waits per tick.
#[test]
fn named_tick_events_wake_a_c_and_a_rust_bot_under_wine() {
    let dir = scratch("windows_events");
    let bot = mingw(
        &dir,
        "events_bot.exe",
        &[&root().join("tests/windows/events_bot.c")],
        &[],
    );
    let host = build_example_for_windows("events_windows");
    let name = format!("ibf.test-events-{}", std::process::id());
    let ticks = 500;
    let (code, out, err) = wine(
        &dir,
        &host,
        &["host", &name, &ticks.to_string(), &wine_path(&bot)],
    );
    let out = out.replace("\r\n", "\n");
    println!("{out}");
    assert_eq!(code, 0, "the events host failed:\n{out}\n{err}");
    for lang in ["rust", "c"] {
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix(&format!("events windows {lang}: ")))
            .unwrap_or_else(|| panic!("no line for {lang}:\n{out}"));
        let n: Vec<u64> = line
            .split([' ', '('])
            .filter_map(|x| x.parse().ok())
            .collect();
        let [t, woken, lost, waits] = n[..] else {
            panic!("{lang}: {line}");
        };
        assert_eq!((t, lost), (ticks, 0), "{lang}: {line}");
        // A wait that returns at once (a poll, as the C header's Windows branch did without
        // a macro defined after <windows.h>) would count thousands per tick.
        assert!(
            woken > 0 && waits > 0 && waits <= 2 * ticks,
            "{lang} never slept, or polled: {line}"
        );
    }
}

/// The commands' event by name under wine (issue 47): a C host (tests/windows/commands.c)
/// creates one named auto-reset event per row before its bridge runs and sleeps on every
/// active row's at once (`ibf_client_host_wait_commands`, `WaitForMultipleObjects`, 2 s a
/// round); two C clients open their row's event by the header's name
/// (`ibf_event_name_commands`) and set it after each of their 100 requests
/// (`ibf_client_request_commands`). Every request is answered, no round's wait runs to its
/// deadline and then finds a request (a lost wake-up), and most rounds start with nothing
/// pending and are woken.
#[test]
fn the_commands_event_wakes_a_c_host_by_name_under_wine() {
    let dir = scratch("windows_commands");
    let exe = mingw(
        &dir,
        "commands.exe",
        &[&root().join("tests/windows/commands.c")],
        &[],
    );
    let name = format!("ibf.test-commands-{}", std::process::id());
    let mut host = Command::new(runner())
        .arg(&exe)
        .args(["host", name.as_str(), "200"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start commands.exe host under wine");
    let mut out = BufReader::new(host.stdout.take().unwrap());
    let mut ready = String::new();
    out.read_line(&mut ready).unwrap();
    assert_eq!(ready.trim_end(), "ready", "the host did not start");
    let clients: Vec<_> = (0..2)
        .map(|_| {
            Command::new(runner())
                .arg(&exe)
                .args(["client", name.as_str(), "100"])
                .current_dir(&dir)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start commands.exe client under wine")
        })
        .collect();
    for c in clients {
        let c = c.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&c.stdout).replace('\r', "");
        println!("{text}");
        assert!(
            c.status.success(),
            "a client failed: {text}{}",
            String::from_utf8_lossy(&c.stderr)
        );
        assert!(text.starts_with("client: 100 requests, worst "), "{text}");
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert!(host.wait().unwrap().success(), "the host failed: {rest}");
    let line = rest.replace('\r', "");
    println!("{line}");
    let counts: Vec<u64> = line
        .trim()
        .trim_start_matches("host: ")
        .split(", ")
        .filter_map(|p| p.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(counts.len(), 3, "{line}");
    assert_eq!(counts[0], 200, "every request answered: {line}");
    assert!(counts[1] >= 100, "the host slept and was woken: {line}");
    assert_eq!(counts[2], 0, "lost wake-ups: {line}");
}
