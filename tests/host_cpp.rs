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

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use abi_codegen::testing::language_backend::c::render_c_header;
use bridge_abi::live::Hosts;
use bridge_abi::runtime::{DirectoryMapping, process_time_of};
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
/// `static inline` function kept that `preprocessed` (the header through this platform's
/// preprocessor) still defines: a Windows-only helper is built by tests/windows.rs.
fn host_unit(header: &str, preprocessed: &str, file: &str) -> String {
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
            let defined = preprocessed
                .match_indices(&format!("{name}("))
                .any(|(at, _)| {
                    !preprocessed[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                });
            if !name.ends_with('_') && defined {
                functions.insert(name.to_string());
            } else if !name.ends_with('_') {
                // Only the directory's Windows open-or-create is Windows-only.
                assert!(
                    name.ends_with("_open_or_create_named"),
                    "{name} is not defined"
                );
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
        let preprocessed = run_ok("g++", &["-std=c++17", "-E", "-P", &file], &dir);
        let unit = host_unit(&header, &preprocessed, &file);
        std::fs::write(dir.join(format!("{stem}.cpp")), &unit).unwrap();
        // One thread per compiler, each at -O0 then -O2.
        std::thread::scope(|s| {
            for (compiler, extra) in CXX_COMPILERS {
                let (dir, stem) = (&dir, &stem);
                s.spawn(move || {
                    for opt in ["-O0", "-O2"] {
                        let mut args: Vec<&str> = CXX_FLAGS.to_vec();
                        args.extend(extra);
                        let cpp = format!("{stem}.cpp");
                        let obj = format!("{stem}_{compiler}{opt}.o");
                        // -O0 warns from the front end only: no object needed.
                        if opt == "-O0" {
                            args.extend([opt, "-fsyntax-only", cpp.as_str()]);
                        } else {
                            args.extend([opt, "-c", cpp.as_str(), "-o", obj.as_str()]);
                        }
                        run_ok(compiler, &args, dir);
                    }
                });
            }
        });
        compiled += 2 * CXX_COMPILERS.len();
    }
    println!(
        "{compiled} strict C++17 builds of {} headers in {:.1?}",
        SCHEMAS.len(),
        started.elapsed()
    );
}

/// The C++ host example (`examples/host_cpp/host.cpp`), built with g++ and clang++ at -O2
/// with the strict flags, raced by the protocol torture's C and Python clients
/// (`tests/torture/protocols.c`, `protocols.py`, their contract in tests/torture/PROTOCOLS.md)
/// and its Rust client (`examples/torture_protocols.rs`)
/// and a Python bot (`tests/host_cpp/bot.py`) that sends a malformed request, claims a row,
/// binds a pad and is SIGKILLed while active: the host answers the malformed request with
/// status `failed`, frees the killed bot's row as dead by its pid (and its pad), reloads
/// once while a client holds a row, re-lays out once 50 ticks later (8 to 16 ring slots: the
/// clients, in whatever phase, follow their blocks to the new places; PROTOCOLS.md), and
/// prints its `host cpp:` line, whose counts must all
/// show activity and whose wrong, stuck and leaked counts must be 0, and a line of the frees
/// by reason, which must count the dead one; every client's lines meet the contract.
#[test]
fn the_cxx_host_serves_rust_c_and_python_clients_and_frees_a_killed_one() {
    let started = Instant::now();
    let dir = scratch("host_cpp_race");
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), &header).unwrap();
    std::fs::copy(manifest("generated/bridge.py"), dir.join("bridge.py")).unwrap();
    std::fs::copy(manifest("examples/host_cpp/host.cpp"), dir.join("host.cpp")).unwrap();
    let failed_status = header
        .lines()
        .find_map(|l| {
            l.strip_prefix("#define IBF_COMMAND_STATUS_FAILED IBF_VALUE_(ibf_command_status, ")
        })
        .map(|v| v.trim_end_matches("U)").to_string())
        .expect("command_status failed");
    build_c_client(&dir);
    // Both builds at once; the g++ one races (the clang++ one is the same source, checked
    // for warnings).
    std::thread::scope(|s| {
        for (compiler, extra) in CXX_COMPILERS {
            let dir = &dir;
            s.spawn(move || {
                let exe = format!("host_{}", compiler.replace('+', "x"));
                let mut args: Vec<&str> = CXX_FLAGS.to_vec();
                args.extend(extra);
                args.extend(["-O2", "-I.", "host.cpp", "-o", exe.as_str()]);
                run_ok(compiler, &args, dir);
            });
        }
    });
    println!("built in {:.1?}", started.elapsed());
    let exe = dir.join("host_gxx");
    let line = race(&dir, (exe.to_str().unwrap(), &[]), "cpp", &failed_status);
    println!("{line}");
    println!("built and raced in {:.1?}", started.elapsed());
}

/// The torture's C client (`tests/torture/protocols.c`), built in `dir` over its `bridge.h`.
fn build_c_client(dir: &Path) {
    for file in ["protocols.c", "clock.h"] {
        std::fs::copy(manifest(&format!("tests/torture/{file}")), dir.join(file)).unwrap();
    }
    let args = [
        "-std=c11",
        "-O2",
        "-I.",
        "-pthread",
        "protocols.c",
        "-o",
        "protocols",
    ];
    run_ok("gcc", &args, dir);
}

/// The torture's Rust client (`examples/torture_protocols.rs`, `client PATH ROW MILLIS`), built
/// in this target directory (a no-op after `cargo test`, which builds the examples).
fn rust_client() -> PathBuf {
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let args = [
        "build",
        "-q",
        "--example",
        "torture_protocols",
        "--target-dir",
    ];
    let mut args = args.to_vec();
    args.push(target_dir.to_str().unwrap());
    run_ok(&cargo, &args, &manifest(""));
    target_dir.join("debug/examples/torture_protocols")
}

/// The C++ host's lines by category (issue 48: its protocol and bookkeeping at most 150, where
/// an outside author's host needed about 580), blanks and comments included, each category
/// from its `// --- NAME` marker to the next; the header comment is what comes before the
/// first.
#[test]
fn the_cxx_hosts_protocol_and_bookkeeping_are_at_most_150_lines() {
    let source = std::fs::read_to_string(manifest("examples/host_cpp/host.cpp")).unwrap();
    let mut counts: Vec<(String, usize)> = vec![("header comment".into(), 0)];
    for line in source.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("// --- ") {
            let name = rest.split([':', ' ']).next().unwrap_or(rest);
            let name = if name == "protocol" {
                "protocol and bookkeeping"
            } else {
                name
            };
            match counts.iter().position(|(n, _)| n == name) {
                Some(at) => {
                    let entry = counts.remove(at);
                    counts.push(entry);
                }
                None => counts.push((name.to_string(), 0)),
            }
        }
        counts.last_mut().unwrap().1 += 1;
    }
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    assert_eq!(total, source.lines().count());
    let line = counts
        .iter()
        .map(|(name, n)| format!("{name} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    println!("host cpp lines: {line} (total {total})");
    let count = |name: &str| counts.iter().find(|(n, _)| n == name).map(|(_, n)| *n);
    for name in [
        "platform",
        "protocol and bookkeeping",
        "game",
        "driver",
        "note",
    ] {
        assert!(
            count(name).is_some_and(|n| n > 0),
            "no {name} lines: {line}"
        );
    }
    let protocol = count("protocol and bookkeeping").unwrap();
    assert!(protocol <= 150, "{line}");
}

/// One race of the host `program` run with `args` first (`PYTHONPATH` the scratch dir), whose
/// lines start `host NAME:`: its counts' line. The host registers in a host directory of
/// its own (a file beside its mapping): Rust lists its row while it runs (its pid, process
/// time and version) and none after it exits.
fn race(dir: &Path, (program, args): (&str, &[&str]), name: &str, failed_status: &str) -> String {
    let exe = format!("host_{name}");
    // The Rust client is built before the host starts: a build during the race (the first,
    // or one waiting for another test's, on a loaded machine) once started the clients after
    // the host's MAX_MS.
    let rust_client = rust_client();
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        dir.to_path_buf()
    };
    let mapping = base.join(format!("ibf-host-{}-{exe}", std::process::id()));
    let stop = dir.join(format!("{exe}.stop"));
    // The host's own directory (a real host's is Hosts::LINUX_PATH, shared by every host).
    let directory = base.join(format!("ibf-host-{}-{exe}.directory", std::process::id()));
    let _ = std::fs::remove_file(&directory);
    let _ = std::fs::remove_file(&mapping);
    let _ = std::fs::remove_file(&stop);
    let mapping_s = mapping.to_str().unwrap().to_string();
    // MAX_MS only stops a host whose test died: 120 s, as a loaded CI machine once kept the
    // Python host's race past 30 s and it left before its clients attached.
    let mut host = Command::new(program)
        .args(args)
        .args([
            mapping_s.as_str(),
            stop.to_str().unwrap(),
            "120000",
            directory.to_str().unwrap(),
        ])
        .env("PYTHONPATH", dir)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the host");
    let mut host_out = BufReader::new(host.stdout.take().unwrap());
    let mut ready = String::new();
    host_out.read_line(&mut ready).unwrap();
    assert_eq!(
        ready,
        format!("host {name}: ready\n"),
        "the host did not start"
    );
    // Registered in its directory once ready: Rust lists its row (its pid, its process
    // creation time as the probe reads it, its version).
    let listed = |directory: &Path| {
        let map = DirectoryMapping::open(directory, Hosts::SPEC).expect("the host's directory");
        let hosts = map.directory(Hosts::SPEC).unwrap().list().hosts;
        hosts.into_iter().map(|h| h.host).collect::<Vec<_>>()
    };
    let hosts = listed(&directory);
    assert_eq!(hosts.len(), 1, "{hosts:?}");
    assert_eq!(hosts[0].pid, host.id());
    assert_eq!(hosts[0].process_time, process_time_of(host.id()));
    assert_eq!(hosts[0].host_version, format!("host-{name} 1.0"));
    let python = |args: &[&str]| {
        Command::new("python3")
            .arg("-W")
            .arg("error")
            .args(args)
            .env("PYTHONPATH", dir)
            .current_dir(dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 (apt python3)")
    };
    // The bot on row 2: its malformed request answered, then active, then killed.
    let bot_py = manifest("tests/host_cpp/bot.py");
    let mut bot = python(&[bot_py.to_str().unwrap(), mapping_s.as_str(), "2"]);
    let mut bot_out = BufReader::new(bot.stdout.take().unwrap());
    let mut lines = String::new();
    for _ in 0..2 {
        bot_out.read_line(&mut lines).unwrap();
    }
    assert_eq!(
        lines,
        format!("malformed {failed_status}\nactive\n"),
        "the bot"
    );
    bot.kill().expect("SIGKILL the bot");
    let _ = bot.wait();
    // The torture's clients on rows 0 and 1, 500 ms a phase: their sessions start after
    // the bot's row is hung (1 s), so the host's reload finds one of them active.
    let protocols_py = manifest("tests/torture/protocols.py");
    let clients = vec![
        Command::new(dir.join("protocols"))
            .args([mapping_s.as_str(), "0", "500"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the C client"),
        Command::new(&rust_client)
            .args(["client", mapping_s.as_str(), "3", "500"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the Rust client"),
        python(&[
            protocols_py.to_str().unwrap(),
            mapping_s.as_str(),
            "1",
            "500",
        ]),
    ];
    let mut reloads_noticed = 0;
    for client in clients {
        let out = client.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "a client failed: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let numbers = |name: &str| -> Vec<u64> {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("no {name} line: {text}"));
            // The Rust client's mailbox line names its waits (`waits N`).
            line.split(' ')
                .skip(1)
                .filter_map(|n| n.parse().ok())
                .collect()
        };
        let (mailbox, ring, draw, life) = (
            numbers("mailbox"),
            numbers("log_ring"),
            numbers("draw"),
            numbers("lifecycle"),
        );
        assert!(
            mailbox[0] > 0 && mailbox[1] == mailbox[0] && mailbox[2] == 0,
            "{text}"
        );
        assert_eq!(ring[3], 0, "corrupt ring entries: {text}");
        assert!(draw[0] > 0, "{text}");
        assert!(life[0] >= 1, "{text}");
        reloads_noticed += life[2];
    }
    std::fs::write(&stop, b"").unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut host_out, &mut rest).unwrap();
    let status = host.wait().unwrap();
    let _ = std::fs::remove_file(&mapping);
    assert_eq!(listed(&directory), [], "the host unregistered at its exit");
    let _ = std::fs::remove_file(&directory);
    let line = rest
        .lines()
        .find(|l| l.contains(" ticks, "))
        .unwrap_or_else(|| panic!("no host {name} line: {rest}"))
        .to_string();
    assert!(status.success(), "the host failed: {rest}");
    let counts: Vec<u64> = line
        .trim_start_matches(&format!("host {name}: "))
        .split(", ")
        .map(|part| part.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 10, "{line}");
    assert!(
        counts[..7].iter().all(|&n| n > 0),
        "every count shows activity (a reload and a re-layout among them): {line}"
    );
    assert_eq!(counts[7..], [0, 0, 0], "{line}");
    assert!(
        line.ends_with(" wrong, 0 stuck rows, 0 leaked pads"),
        "{line}"
    );
    assert!(reloads_noticed >= 1, "a client noticed the reload");
    // The killed bot set its pid: the service turn's probe frees its row as dead (each turn
    // probes, long before its hung time).
    let freed = rest
        .lines()
        .find(|l| l.contains(" goodbyes, "))
        .unwrap_or_else(|| panic!("no host {name} goodbyes line: {rest}"));
    let dead: u64 = freed
        .split(", ")
        .find_map(|part| part.strip_suffix(" dead"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no dead count: {freed}"));
    assert!(dead >= 1, "the killed bot's row freed by its pid: {freed}");
    println!("{freed}");
    line
}

/// The same host in Python (`examples/host_py/host.py` on `HostService`, issue 48), raced as
/// the C++ one is (the same clients, the same killed bot, the same checks of its lines), under
/// `python3 -W error`.
#[test]
fn the_python_host_serves_rust_c_and_python_clients_and_frees_a_killed_one() {
    let started = Instant::now();
    let dir = scratch("host_py_race");
    std::fs::copy(manifest("generated/bridge.py"), dir.join("bridge.py")).unwrap();
    std::fs::copy(manifest("examples/host_py/host.py"), dir.join("host.py")).unwrap();
    std::fs::copy(manifest("generated/bridge.h"), dir.join("bridge.h")).unwrap();
    build_c_client(&dir);
    let failed = "2"; // command_status failed, as the Python host answers a malformed request
    let host = dir.join("host.py");
    let line = race(
        &dir,
        ("python3", &["-W", "error", host.to_str().unwrap()]),
        "py",
        failed,
    );
    println!("{line}");
    println!("built and raced in {:.1?}", started.elapsed());
}
