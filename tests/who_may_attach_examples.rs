//! README "Who may attach": its Rust, C and Python examples are real code. The Rust one is
//! the body of [`rust_host`] (checked line for line), the C one is compiled by gcc and g++
//! with warnings as errors and run, the Python one is run by python3 with warnings as errors;
//! the C and Python ones under umask 000. Each makes owner-only files (0600), a group's
//! (0660) and a read-only group's (0640), with the group's id, whatever the umask; an unknown
//! group creates nothing. This user's own primary group stands in for a shared one (the
//! second-user tests are `runtime/tests/who_may_attach.rs`). Needs gcc, g++ and python3;
//! fails, never skips, without them. (The Windows C example is in `tests/windows.rs`.)
#![cfg(all(target_os = "linux", not(miri)))]

use crate::common;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bridge_abi::runtime::{Mapping, ReadOnlyMapping};
use common::readme::block_after;
use common::tools::{run_ok, scratch};

const SECTION: &str = "## Who may attach";

/// This user's primary group: its name and id.
fn own_group() -> (String, u32) {
    let text = |args: &[&str]| {
        let out = Command::new("id").args(args).output().expect("id");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    (text(&["-gn"]), text(&["-g"]).parse().unwrap())
}

/// The mode (octal, as `ls` shows it) and the group id of `path`.
fn mode_and_gid(path: &Path) -> (String, u32) {
    let m = std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (format!("{:04o}", m.mode() & 0o7777), m.gid())
}

/// README's Rust example: the function body between the markers is README's `rust` block of
/// [`SECTION`], as [`the_rust_block_is_the_one_tested`] checks, with `path("NAME")` for
/// `"/dev/shm/NAME"` and the groups `games` and `observers` as variables.
#[allow(clippy::type_complexity)]
fn rust_host(
    dir: &Path,
    games: &str,
    observers: &str,
    len: usize,
) -> Result<(Mapping, Mapping, Mapping, ReadOnlyMapping), Box<dyn std::error::Error>> {
    let path = |name: &str| dir.join(name);
    // README begin
    use bridge_abi::runtime::{Mapping, ReadOnlyMapping, Share}; // features = ["mmap"]

    // The host: owner-only (0600), for a group of bots (0660), for observers (0640).
    let bridge = Mapping::create(path("ibf.bridge"), len)?;
    let bots = Mapping::create_with(path("ibf.bots"), len, &Share::group(games))?;
    let shown = Share::group_read_only(observers);
    let watched = Mapping::create_with(path("ibf.watched"), len, &shown)?;
    // An observer maps it read-only: its region has no store methods.
    let view = ReadOnlyMapping::open(path("ibf.watched"))?;
    // README end
    Ok((bridge, bots, watched, view))
}

/// README's block is the body of [`rust_host`], line for line (less its indent).
#[test]
fn the_rust_block_is_the_one_tested() {
    let source = include_str!("who_may_attach_examples.rs");
    let begin = source.find("    // README begin\n").unwrap() + "    // README begin\n".len();
    let end = source.find("    // README end\n").unwrap();
    let mut body: String = source[begin..end]
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
        .collect();
    for name in ["ibf.bridge", "ibf.bots", "ibf.watched"] {
        body = body.replace(
            &format!("path(\"{name}\")"),
            &format!("\"/dev/shm/{name}\""),
        );
    }
    let body = body
        .replace("(games)", "(\"games\")")
        .replace("(observers)", "(\"observers\")");
    assert_eq!(block_after("docs/security.md", SECTION, "rust"), body);
}

#[test]
fn the_rust_example_makes_its_files_with_the_shares_modes() {
    let dir = scratch("who_may_attach_rust");
    let (group, gid) = own_group();
    let (bridge, bots, watched, view) = rust_host(&dir, &group, &group, 4096).unwrap();
    assert_eq!(mode_and_gid(&dir.join("ibf.bridge")), ("0600".into(), gid));
    assert_eq!(mode_and_gid(&dir.join("ibf.bots")), ("0660".into(), gid));
    assert_eq!(mode_and_gid(&dir.join("ibf.watched")), ("0640".into(), gid));
    assert_eq!(
        (bridge.len(), bots.len(), watched.len(), view.len()),
        (4096, 4096, 4096, 4096)
    );
}

/// `program ARGS` run by `sh` under umask 000, in `dir`.
fn under_open_umask(dir: &Path, program: &[&str]) -> Output {
    Command::new("sh")
        .args(["-c", "umask 000 && exec \"$@\"", "sh"])
        .args(program)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run sh: {e}"))
}

/// Runs a built example `program` (its arguments: PATH [GROUP [read-only]]) for each share
/// and checks the files it makes, then an unknown group, which must fail, naming the cause
/// in `unknown_says`, and create nothing.
fn check_example(dir: &Path, program: &[&str], unknown_says: &str) {
    let (group, gid) = own_group();
    let cases: [(&str, &[&str], &str); 3] = [
        ("owner.bridge", &[], "0600"),
        ("group.bridge", &[&group], "0660"),
        ("observed.bridge", &[&group, "read-only"], "0640"),
    ];
    for (name, extra, mode) in cases {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let mut args: Vec<&str> = program.to_vec();
        args.push(path.to_str().unwrap());
        args.extend(extra);
        let out = under_open_umask(dir, &args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(mode_and_gid(&path), (mode.to_string(), gid), "{args:?}");
    }
    let path: PathBuf = dir.join("unknown.bridge");
    let _ = std::fs::remove_file(&path);
    let mut args: Vec<&str> = program.to_vec();
    args.extend([path.to_str().unwrap(), "abi-no-such-group"]);
    let out = under_open_umask(dir, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains(unknown_says),
        "{args:?}: {err}"
    );
    assert!(!path.exists(), "an unknown group left {}", path.display());
}

#[test]
fn the_c_example_makes_owner_only_and_group_files_under_any_umask() {
    let dir = scratch("who_may_attach_c");
    let snippet = block_after("docs/security.md", SECTION, "c");
    let program = format!(
        "{snippet}\n#include <stdio.h>\n#include <string.h>\n\n\
         int main(int argc, char **argv) {{\n    \
         unsigned char *base = create_bridge(argv[1], 4096, argc > 2 ? argv[2] : NULL, argc > 3);\n    \
         if (base == NULL) {{\n        perror(\"create_bridge\");\n        return 1;\n    }}\n    \
         base[8] = 7;\n    return 0;\n}}\n"
    );
    std::fs::write(dir.join("create.c"), program).unwrap();
    for (compiler, std, out) in [
        ("gcc", "-std=c11", "create_c"),
        ("g++", "-std=c++17", "create_cpp"),
    ] {
        let mut args = vec![std, "-Wall", "-Wextra", "-Werror", "-pedantic"];
        if compiler == "g++" {
            args.extend(["-x", "c++"]);
        }
        args.extend(["create.c", "-o", out]);
        run_ok(compiler, &args, &dir);
        let exe = dir.join(out);
        check_example(
            &dir,
            &[exe.to_str().unwrap()],
            "create_bridge: No such file or directory",
        );
    }
}

#[test]
fn the_python_example_makes_owner_only_and_group_files_under_any_umask() {
    let dir = scratch("who_may_attach_python");
    let snippet = block_after("docs/security.md", SECTION, "python");
    let program = format!(
        "{snippet}\n\nimport sys\n\n\
         shared = create_bridge(sys.argv[1], 4096, sys.argv[2] if len(sys.argv) > 2 else None,\n\
         \x20                      len(sys.argv) > 3)\n\
         shared[8] = 7\nshared.close()\n"
    );
    std::fs::write(dir.join("create.py"), program).unwrap();
    check_example(
        &dir,
        &["python3", "-B", "-W", "error", "create.py"],
        "KeyError",
    );
}
