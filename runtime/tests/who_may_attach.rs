//! Who may attach, on Linux (docs/security.md): `Mapping::create` is owner-only (mode
//! 0600) whatever the umask, a group share is 0660 or 0640 with the group's id, bad input is
//! refused before anything is created, and readers running as *another user* are refused an
//! owner-only bridge with the named error, admitted to a group-shared one, and only read a
//! read-only share.
//!
//! The other users are real: `tests/second-user/run-as.sh` makes `abi-host` and `abi-peer`
//! (both in the group `abi-bridge`) on first use and runs this test binary as one of them,
//! in the role its environment names (`role`, below). That needs root (or `sudo -n`), as CI
//! has; without it these tests fail, naming what is missing.

#![cfg(all(feature = "mmap", target_os = "linux", not(miri)))]

use std::io::ErrorKind;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::Ordering::{Acquire, Release};

use abi_runtime::{AccessDenied, Mapping, ReadOnlyMapping, Share};

/// What the host stores at offset 8, and a reader at offset 16.
const HOST_WORD: u64 = 0x1234_5678_9abc_def0;
const PEER_WORD: u64 = 0x0fed_cba9_8765_4321;

/// A child's role, when `ABI_RUNTIME_ROLE` names one (otherwise this test does nothing):
/// `create-owner`, `create-group`, `create-group-ro`, `open-rw`, `open-ro`, `check`,
/// `remove`, each on the file `ABI_RUNTIME_PATH`. It prints one line, `role: ...`.
#[test]
fn role() {
    let Ok(role) = std::env::var("ABI_RUNTIME_ROLE") else {
        return;
    };
    let path = PathBuf::from(std::env::var("ABI_RUNTIME_PATH").expect("ABI_RUNTIME_PATH"));
    let group = std::env::var("ABI_RUNTIME_GROUP").unwrap_or_default();
    let answer = match role.as_str() {
        "create-owner" | "create-group" | "create-group-ro" => {
            let share = match role.as_str() {
                "create-owner" => Share::OwnerOnly,
                "create-group" => Share::group(group),
                _ => Share::group_read_only(group),
            };
            match Mapping::create_with(&path, 4096, &share) {
                Ok(map) => {
                    map.region().unwrap().store::<u64>(8, HOST_WORD, Release);
                    "created".to_string()
                }
                Err(err) => format!("refused {err}"),
            }
        }
        "open-rw" => match Mapping::open(&path) {
            Ok(map) => {
                let region = map.region().unwrap();
                region.store::<u64>(16, PEER_WORD, Release);
                format!("ok {:#x}", region.load::<u64>(8, Acquire))
            }
            Err(err) => refused(&err, true),
        },
        "open-ro" => match ReadOnlyMapping::open(&path) {
            Ok(map) => format!("ok {:#x}", map.region().unwrap().load::<u64>(8, Acquire)),
            Err(err) => refused(&err, false),
        },
        "check" => {
            let map = Mapping::open(&path).expect("the host opens its own bridge");
            format!("{:#x}", map.region().unwrap().load::<u64>(16, Acquire))
        }
        "remove" => {
            std::fs::remove_file(&path).expect("remove");
            "removed".to_string()
        }
        other => panic!("no role {other}"),
    };
    println!("role: {answer}");
}

/// A refused open as a role reports it: `denied`, then the error's text; anything but an
/// `AccessDenied` of kind `PermissionDenied` for the way it was opened fails the role.
fn refused(err: &std::io::Error, writable: bool) -> String {
    assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{err}");
    let denied = AccessDenied::of(err).unwrap_or_else(|| panic!("not an AccessDenied: {err}"));
    assert_eq!(denied.writable(), writable);
    format!("denied {err}")
}

/// `tests/second-user/run-as.sh`.
fn run_as_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/second-user/run-as.sh")
}

/// The `role: ...` line of a child's output, or a failure with all of it.
fn answer(what: &str, out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    match stdout.lines().find_map(|l| l.strip_prefix("role: ")) {
        Some(line) if out.status.success() => line.to_string(),
        _ => panic!(
            "{what}: {}\n{stdout}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// This test binary in `role` on `path`, as the test user `who` (run-as.sh), sharing with
/// abi-bridge.
fn as_user(who: &str, role: &str, path: &Path) -> String {
    as_user_with(who, role, path, "abi-bridge")
}

/// [`as_user`], sharing with `group`.
fn as_user_with(who: &str, role: &str, path: &Path, group: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    let script = run_as_script();
    let out = Command::new(&script)
        .arg(who)
        .arg(format!("ABI_RUNTIME_ROLE={role}"))
        .arg(format!("ABI_RUNTIME_PATH={}", path.display()))
        .arg(format!("ABI_RUNTIME_GROUP={group}"))
        .arg(&exe)
        .args(["--exact", "who_may_attach::role", "--nocapture", "-q"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    answer(&format!("{role} as {who}"), &out)
}

/// A user's or a group's id (`id -u NAME`, `getent group NAME`).
fn id_of(args: &[&str]) -> u32 {
    let out = Command::new(args[0]).args(&args[1..]).output().unwrap();
    assert!(out.status.success(), "{args:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let field = if args[0] == "getent" {
        text.split(':').nth(2).unwrap()
    } else {
        text.trim()
    };
    field.trim().parse().unwrap()
}

/// A bridge in /dev/shm (which every user may reach), removed by its owner on drop.
struct Bridge(PathBuf);

impl Bridge {
    fn new(test: &str) -> Bridge {
        let path = PathBuf::from(format!(
            "/dev/shm/abi-runtime-{test}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        Bridge(path)
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        if self.0.exists() {
            let _ = Command::new(run_as_script())
                .args(["host", "/bin/rm", "-f"])
                .arg(&self.0)
                .output();
        }
    }
}

/// The mode (in octal, as `ls` and the errors show it) and the group id of `path`.
fn mode_and_gid(path: &Path) -> (String, u32) {
    let m = std::fs::metadata(path).unwrap();
    (format!("{:04o}", m.mode() & 0o7777), m.gid())
}

#[test]
fn an_owner_only_bridge_refuses_another_user_with_the_named_error() {
    let bridge = Bridge::new("owner-only");
    let path = &bridge.0;
    assert_eq!(as_user("host", "create-owner", path), "created");
    let (host, host_group) = (
        id_of(&["id", "-u", "abi-host"]),
        id_of(&["id", "-g", "abi-host"]),
    );
    let peer = id_of(&["id", "-u", "abi-peer"]);
    assert_eq!(mode_and_gid(path), ("0600".to_string(), host_group));
    assert_eq!(std::fs::metadata(path).unwrap().uid(), host);
    // The peer is in abi-bridge, as the host is: an owner-only bridge refuses it all the same.
    let owner = format!(
        "for uid {peer}: it is owned by uid {host}, group {host_group} (abi-host), mode 0600 (rw-------)"
    );
    for (role, how) in [("open-rw", "read-write"), ("open-ro", "read-only")] {
        let said = as_user("peer", role, path);
        assert_eq!(
            said.split_once(';').map(|(head, _)| head),
            Some(format!("denied access denied to {} ({how}) {owner}", path.display()).as_str()),
            "{said}"
        );
        assert!(
            said.contains("docs/security.md: \"Who may attach\""),
            "{said}"
        );
    }
    // Its owner is admitted.
    assert_eq!(
        as_user("host", "open-rw", path),
        format!("ok {HOST_WORD:#x}")
    );
}

#[test]
fn a_group_shared_bridge_admits_a_member_and_refuses_a_stranger() {
    let bridge = Bridge::new("group");
    let path = &bridge.0;
    assert_eq!(as_user("host", "create-group", path), "created");
    let group = id_of(&["getent", "group", "abi-bridge"]);
    assert_eq!(mode_and_gid(path), ("0660".to_string(), group));
    // A member maps it read-write: it reads the host's word and the host reads its store.
    assert_eq!(
        as_user("peer", "open-rw", path),
        format!("ok {HOST_WORD:#x}")
    );
    assert_eq!(as_user("host", "check", path), format!("{PEER_WORD:#x}"));
    // The same user without the group is refused, told the group and the mode.
    let said = as_user("stranger", "open-rw", path);
    assert!(said.starts_with("denied access denied to "), "{said}");
    assert!(
        said.contains(&format!(
            "group {group} (abi-bridge), mode 0660 (rw-rw----)"
        )),
        "{said}"
    );
}

#[test]
fn a_read_only_share_lets_a_member_read_and_the_os_refuses_its_writes() {
    let bridge = Bridge::new("read-only");
    let path = &bridge.0;
    assert_eq!(as_user("host", "create-group-ro", path), "created");
    let group = id_of(&["getent", "group", "abi-bridge"]);
    assert_eq!(mode_and_gid(path), ("0640".to_string(), group));
    // A member maps it read-only (a Region<ReadOnly>: no store methods) and reads it ...
    assert_eq!(
        as_user("peer", "open-ro", path),
        format!("ok {HOST_WORD:#x}")
    );
    // ... and the OS refuses it a read-write mapping, with the named error.
    let said = as_user("peer", "open-rw", path);
    assert!(
        said.contains("(read-write) for uid ")
            && said.contains(&format!(
                "group {group} (abi-bridge), mode 0640 (rw-r-----)"
            )),
        "{said}"
    );
    // Nothing was written: the host's check finds offset 16 still zero.
    assert_eq!(as_user("host", "check", path), "0x0");
    // Outside the group, not even that.
    let said = as_user("stranger", "open-ro", path);
    assert!(said.starts_with("denied access denied to "), "{said}");
}

/// A creator that may not give the file to the group (it is not a member, and not root) is
/// refused, told why, and leaves no file behind.
#[test]
fn a_creator_outside_the_group_is_refused_and_leaves_nothing() {
    let bridge = Bridge::new("not-a-member");
    let path = &bridge.0;
    let said = as_user_with("host", "create-group", path, "abi-peer");
    assert!(
        said.starts_with(&format!(
            "refused cannot give {} to the group `abi-peer` (gid ",
            path.display()
        )) && said.contains("a group it belongs to"),
        "{said}"
    );
    assert!(!path.exists(), "left behind: {}", path.display());
}

/// A child of this test binary in `role` on `path`, started by `sh` under `umask`.
fn under_umask(umask: &str, role: &str, path: &Path, group: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", &format!("umask {umask} && exec \"$0\" \"$@\"")])
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "who_may_attach::role", "--nocapture", "-q"])
        .env("ABI_RUNTIME_ROLE", role)
        .env("ABI_RUNTIME_PATH", path)
        .env("ABI_RUNTIME_GROUP", group)
        .output()
        .unwrap();
    answer(&format!("{role} under umask {umask}"), &out)
}

/// The mode is the share's, whatever the umask: 0600 by default under the usual 022 and an
/// open 000, and a group's 0660 or 0640 under 000 and a closed 077. This user's own primary
/// group stands in for a shared one (no second user needed).
#[test]
fn the_mode_is_the_shares_whatever_the_umask() {
    let out = Command::new("id").arg("-gn").output().unwrap();
    let own_group = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let own_gid = id_of(&["id", "-g"]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("who_may_attach_umask");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (umask, role, mode) in [
        ("022", "create-owner", "0600"),
        ("000", "create-owner", "0600"),
        ("077", "create-owner", "0600"),
        ("000", "create-group", "0660"),
        ("077", "create-group", "0660"),
        ("000", "create-group-ro", "0640"),
        ("077", "create-group-ro", "0640"),
    ] {
        let path = dir.join(format!("{role}-{umask}"));
        assert_eq!(under_umask(umask, role, &path, &own_group), "created");
        assert_eq!(
            mode_and_gid(&path),
            (mode.to_string(), own_gid),
            "{role} under umask {umask}"
        );
    }
}

/// An unknown group, a name no group can have, or an SDDL string (Windows only) is a clear
/// error naming it and the path, and no file is created.
#[test]
fn bad_shares_are_refused_before_anything_is_created() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("who_may_attach_bad");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bridge");
    let cases = [
        (
            "no group named `abi-no-such-group`",
            Share::group("abi-no-such-group"),
        ),
        (
            "no group named `nul\0inside`",
            Share::group_read_only("nul\0inside"),
        ),
        ("Share::Sddl", Share::sddl("D:P(A;;GA;;;SY)")),
    ];
    for (says, share) in &cases {
        let err = Mapping::create_with(&path, 64, share).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{share:?}: {err}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("cannot create {}: ", path.display())) && text.contains(says),
            "{share:?}: {text}"
        );
        assert!(!path.exists(), "{share:?} created {}", path.display());
    }
}
