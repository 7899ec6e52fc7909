//! `abi-codegen inspect --live` and `--watch` against a real writer: a thread of this test
//! writes `pad_input` records (offsets from the reference text) under their seqlock in a
//! shared file mapping while the `codegen` process reads the same file.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use abi_runtime::{Mapping, Region, SeqLock};

fn schema() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("schema.toml");
    p.to_str().unwrap().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("pad.bin")
}

/// pad_input, as the reference lays it out: seq u32 at 0, for_tick u64 at 8, lx i16 at
/// 0x10, ry i16 at 0x16. Every field of publication `n` derives from `n`.
fn write_pad(region: Region<'_>, n: u64) {
    SeqLock::<u32>::new(region, 0)
        .write(|| {
            region.write_bytes(8, &n.to_le_bytes()).unwrap();
            region.write_bytes(0x10, &(n as i16).to_le_bytes()).unwrap();
            region
                .write_bytes(0x16, &(!(n as i16)).to_le_bytes())
                .unwrap();
        })
        .unwrap();
}

#[test]
fn live_reads_race_a_writer_and_are_never_torn() {
    let path = scratch("inspect_live");
    let mapping = Mapping::create(&path, 4096).unwrap();
    let region = mapping.region().unwrap();
    let stop = AtomicBool::new(false);
    let (mut retries, mut reads, mut torn, mut contended) = (0u64, 0u64, 0u64, 0u64);
    std::thread::scope(|s| {
        s.spawn(|| {
            // Bursts of back-to-back writes (a reader that starts then meets an odd or a
            // changed counter) and pauses (a reader gets through): a writer that never
            // pauses can keep every reader out, which `--live` reports as contended.
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let burst = Instant::now();
                while burst.elapsed() < Duration::from_millis(2) {
                    n += 1;
                    write_pad(region, n);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(3)
            || (retries == 0 && started.elapsed() < Duration::from_secs(30))
        {
            let out = Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
                .args([
                    "inspect",
                    "pad_input",
                    path.to_str().unwrap(),
                    "--live",
                    "--json",
                ])
                .args(["--schema", &schema()])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.code() == Some(2) && stderr.contains("seqlock read gave up") {
                contended += 1;
                continue;
            }
            assert!(out.status.code().is_some_and(|c| c <= 1), "{stderr}");
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            retries += v["live"]["retries"][0].as_u64().unwrap();
            assert_eq!(v["live"]["seqlocks"], 1);
            let d = &v["data"][0];
            let n = d["for_tick"].as_u64().unwrap();
            let whole = d["lx"].as_i64() == Some(i64::from(n as i16))
                && d["ry"].as_i64() == Some(i64::from(!(n as i16)));
            torn += u64::from(!whole);
            reads += 1;
        }
        stop.store(true, Ordering::Relaxed);
    });
    eprintln!(
        "inspect --live: {reads} reads, {retries} retries, {torn} torn, {contended} contended"
    );
    assert!(reads > 0, "no read got through");
    assert_eq!(torn, 0, "a torn pad_input was printed");
    assert!(retries > 0, "the reads never raced the writer");
}

#[test]
fn watch_prints_the_fields_a_writer_changes() {
    let path = scratch("inspect_watch");
    let mapping = Mapping::create(&path, 4096).unwrap();
    let region = mapping.region().unwrap();
    write_pad(region, 1);
    let mut child = Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
        .args([
            "inspect",
            "pad_input",
            path.to_str().unwrap(),
            "--watch",
            "0.05",
        ])
        .args(["--schema", &schema()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let started = Instant::now();
    let mut n = 1;
    while started.elapsed() < Duration::from_secs(30)
        && lines
            .iter()
            .filter(|l: &&String| l.starts_with("for_tick: "))
            .count()
            < 3
    {
        n += 1;
        write_pad(region, n);
        std::thread::sleep(Duration::from_millis(150));
        lines.extend(rx.try_iter());
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(lines[0].starts_with("# watching "), "{lines:?}");
    let ticks: Vec<(u64, u64)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("for_tick: "))
        .map(|l| {
            let (a, b) = l.split_once(" -> ").expect("OLD -> NEW");
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    assert!(ticks.len() >= 3, "{lines:?}");
    assert!(ticks.iter().all(|(a, b)| b > a), "{ticks:?}");
    assert!(lines.iter().any(|l| l.starts_with("lx: ")), "{lines:?}");
    // Fields the writer never touches are never printed.
    assert!(
        !lines.iter().any(|l| l.starts_with("buttons: ")),
        "{lines:?}"
    );
}

/// A `[[layout]]` or `[[file]]` name with `--live` or `--watch` is not "no struct named":
/// the error says what works with it (issue 28).
#[test]
fn live_on_a_layout_or_file_name_says_what_works() {
    let path = scratch("inspect_live_whole");
    Mapping::create(&path, 4096).unwrap();
    for (name, flag, kind, header) in [
        ("bridge", "--live", "[[layout]]", "bridge_header"),
        ("ibfrec", "--watch", "[[file]]", "rec_file_header"),
    ] {
        let mut args = vec!["inspect", name, path.to_str().unwrap(), flag];
        if flag == "--watch" {
            args.push("1");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
            .args(&args)
            .args(["--schema", &schema()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(out.stdout.is_empty());
        assert!(err.contains(&format!("`{name}` is a {kind}")), "{err}");
        assert!(
            err.contains(&format!("`inspect {name} FILE` (without --live)")),
            "{err}"
        );
        assert!(
            err.contains(&format!("`inspect {header} FILE --live`")),
            "{err}"
        );
    }
}

/// `--live` run by another user on an owner-only bridge is refused with the runtime's named
/// error: the path, the owner and the mode (docs/security.md, "Who may attach"). The other user is real:
/// `tests/second-user/run-as.sh` makes it (root or `sudo -n` needed, as CI has) and runs the
/// command as it; the schema is copied where that user can read it.
#[cfg(target_os = "linux")]
#[test]
fn live_as_another_user_names_the_owner_and_mode_of_an_owner_only_bridge() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let shared =
        std::env::temp_dir().join(format!("abi-codegen-inspect-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&shared);
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
    let schema_copy = shared.join("schema.toml");
    std::fs::copy(schema(), &schema_copy).unwrap();
    std::fs::set_permissions(&schema_copy, std::fs::Permissions::from_mode(0o644)).unwrap();
    let bridge = PathBuf::from(format!(
        "/dev/shm/abi-codegen-inspect-live-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&bridge);
    let mapping = Mapping::create(&bridge, 4096).unwrap();
    let meta = std::fs::metadata(&bridge).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/second-user/run-as.sh");
    let out = Command::new(&script)
        .args([
            "peer",
            env!("CARGO_BIN_EXE_abi-codegen"),
            "inspect",
            "pad_input",
        ])
        .arg(&bridge)
        .args(["--live", "--schema"])
        .arg(&schema_copy)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    drop(mapping);
    let _ = std::fs::remove_file(&bridge);
    let _ = std::fs::remove_dir_all(&shared);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    let peer = String::from_utf8(
        Command::new("id")
            .args(["-u", "abi-peer"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let expected = format!(
        "error: --live maps the file shared, for reading and writing: access denied to {} \
         (read-write) for uid {}: it is owned by uid {}, group {}",
        bridge.display(),
        peer.trim(),
        meta.uid(),
        meta.gid()
    );
    assert!(
        err.starts_with(&expected),
        "expected {expected}\nfound {err}"
    );
    assert!(err.contains(", mode 0600 (rw-------); "), "{err}");
}
