//! `abi-codegen inspect` as a process: formats, stdin, offsets and the exit codes (0 clean,
//! 1 errors, 2 unreadable input or `--strict` with any error or warning).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn schema() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("schema.toml");
    p.to_str().unwrap().to_string()
}

/// What the process reads on standard input.
enum Stdin<'a> {
    /// Nothing: closed at once.
    Closed,
    /// These bytes through a pipe, then closed (a writer that finds the pipe closed early
    /// stops there).
    Bytes(&'a [u8]),
    /// These bytes through a pipe that stays open until the process ends: never an EOF.
    Open(&'a [u8]),
    /// A file, as `< FILE` gives it.
    File(&'a Path),
}

/// Longer than any run takes on a loaded machine; a process still running then hangs.
const TIMEOUT: Duration = Duration::from_secs(30);

fn codegen(args: &[&str], stdin: Stdin) -> Output {
    let schema = schema();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_abi-codegen"));
    cmd.arg("inspect").args(args).args(["--schema", &schema]);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(match stdin {
        Stdin::File(path) => Stdio::from(std::fs::File::open(path).unwrap()),
        Stdin::Closed => Stdio::null(),
        Stdin::Bytes(_) | Stdin::Open(_) => Stdio::piped(),
    });
    let mut child = cmd.spawn().expect("codegen runs");
    let mut pipe = child.stdin.take();
    if let (Some(p), Stdin::Bytes(bytes) | Stdin::Open(bytes)) = (&mut pipe, &stdin) {
        // The process may stop reading before the end: a broken pipe is expected then.
        let _ = p.write_all(bytes);
    }
    if matches!(stdin, Stdin::Bytes(_)) {
        drop(pipe.take());
    }
    let output = wait(child, args);
    drop(pipe);
    output
}

/// Waits for the process, or kills it and fails after [`TIMEOUT`]: a test of input that
/// never ends fails instead of hanging.
fn wait(mut child: Child, args: &[&str]) -> Output {
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("abi-codegen inspect {args:?} did not return within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn inspect(args: &[&str], stdin: Option<&[u8]>) -> Output {
    codegen(args, stdin.map_or(Stdin::Closed, Stdin::Bytes))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A 16-byte rec_trailer, written byte by byte from the reference's offsets:
/// footer_offset u64 at 0x0, _pad8 u8[4] at 0x8, magic u32 at 0xC (rec_trailer_magic 0x45464249).
fn trailer(magic: u32) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&4096u64.to_le_bytes());
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&magic.to_le_bytes());
    b
}

fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn clean_record_exits_0_in_both_formats() {
    let f = file("trailer-ok.bin", &trailer(0x4546_4249));
    let out = inspect(&["rec_trailer", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("@0x0000 footer_offset u64 4096"), "{text}");
    assert!(
        text.contains("@0x000c magic u32 0x45464249 (rec_trailer_magic)"),
        "{text}"
    );
    let out = inspect(
        &["rec_trailer", f.to_str().unwrap(), "--json", "--strict"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["data"][0]["magic"], 0x4546_4249);
    assert_eq!(v["size"], 16);
}

#[test]
fn stdin_offset_and_count() {
    let mut bytes = vec![0xEE; 3];
    bytes.extend(trailer(0x4546_4249));
    bytes.extend(trailer(0x4546_4249));
    let out = inspect(
        &["rec_trailer", "-", "--offset", "0x3", "--count", "2"],
        Some(&bytes),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("@0x0013 [1].footer_offset u64 4096"),
        "{text}"
    );
}

#[test]
fn warnings_exit_0_unless_strict() {
    let f = file("trailer-bad.bin", &trailer(0xDEAD_BEEF));
    let out = inspect(&["rec_trailer", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0));
    // The warning is a diagnostic, on stderr; the value is marked in the data.
    assert!(
        stderr(&out).contains("warn: @0x000c magic: holds 0xdeadbeef, expected rec_trailer_magic"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("@0x000c magic u32 0xdeadbeef (expected rec_trailer_magic)"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("warn"), "{}", stdout(&out));
    let out = inspect(&["rec_trailer", f.to_str().unwrap(), "--strict"], None);
    assert_eq!(out.status.code(), Some(2));
}

/// Every error: a message on stderr, nothing on stdout, and the exit code that says which
/// kind (1: the input does not hold the records; 2: unreadable input or a bad request).
#[test]
fn errors_go_to_stderr_with_nothing_on_stdout() {
    let short = file("trailer-short.bin", &trailer(0x4546_4249)[..10]);
    let short = short.to_str().unwrap();
    let ok = file("trailer-ok2.bin", &trailer(0x4546_4249));
    let ok = ok.to_str().unwrap();
    let dir = env!("CARGO_TARGET_TMPDIR");
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["rec_trailer", short],
            1,
            "error: @0x0000: the input is too short: 1 × rec_trailer (16 bytes each) from offset 0x0 need 16 bytes, 10 are there",
        ),
        (
            &["rec_trailer", short, "--json"],
            1,
            "the input is too short",
        ),
        (
            &["rec_trailer", short, "--strict"],
            2,
            "the input is too short",
        ),
        (
            &["rec_trailer", ok, "--offset", "0x100"],
            1,
            "offset 0x100 lies past the end of the input (16 bytes)",
        ),
        (
            &["rec_trailer", ok, "--count", "2", "--stride", "20"],
            1,
            "2 × rec_trailer (16 bytes each, every 20 bytes) from offset 0x0 need 36 bytes, 16 are there (1 whole record)",
        ),
        (
            &["rec_trailer", "/nonexistent/blob.bin"],
            2,
            "error: cannot read /nonexistent/blob.bin: ",
        ),
        (&["rec_trailer", dir], 2, "is a folder, not a file"),
        (
            &["no_such_type", ok],
            2,
            "error: no struct named `no_such_type` in the schema",
        ),
        (
            &["rec_trailer", ok, "--offset", "zz"],
            2,
            "`zz` is not a number of bytes",
        ),
        (&["rec_trailer", ok, "--count", "0"], 2, "--count"),
        (
            &["rec_trailer", ok, "--stride", "8"],
            2,
            "--stride 8 is smaller than `rec_trailer` (16 bytes)",
        ),
        (
            &["rec_trailer", ok, "--offset", "0xFFFFFFFFFFFFFFF8"],
            2,
            "would end past 2^64 bytes",
        ),
    ];
    for (args, code, message) in cases {
        let out = inspect(args, None);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
    }
}

#[test]
fn unknown_types_get_a_did_you_mean() {
    let f = file("trailer-ok3.bin", &trailer(0x4546_4249));
    let out = inspect(&["rec_trailr", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no struct named `rec_trailr` in the schema; did you mean `rec_trailer`?\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn json_data_is_an_array_for_count_1_and_2() {
    let mut bytes = trailer(0x4546_4249);
    bytes.extend(trailer(0x4546_4249));
    let f = file("trailer-two.bin", &bytes);
    for count in ["1", "2"] {
        let out = inspect(
            &[
                "rec_trailer",
                f.to_str().unwrap(),
                "--json",
                "--count",
                count,
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let data = v["data"].as_array().expect("data is an array");
        assert_eq!(data.len().to_string(), count);
        assert!(data.iter().all(|r| r["footer_offset"] == 4096), "{v}");
        assert_eq!(v["stride"], 16);
    }
}

/// The two records of [`strided_trailers`].
const STRIDED: [&str; 6] = ["--offset", "8", "--count", "2", "--stride", "1000"];

/// Two trailers 1000 bytes apart from offset 8, the rest filled with 0xEE.
fn strided_trailers() -> Vec<u8> {
    let mut bytes = vec![0xEE; 8];
    bytes.extend(trailer(0x4546_4249));
    bytes.resize(1008, 0xEE);
    bytes.extend(trailer(0x4546_4249));
    bytes
}

#[test]
fn stride_walks_a_file_and_a_pipe_alike() {
    let bytes = strided_trailers();
    let f = file("trailer-strided.bin", &bytes);
    let args = STRIDED;
    let from_file = inspect(
        &[&["rec_trailer", f.to_str().unwrap()], &args[..]].concat(),
        None,
    );
    let from_pipe = inspect(&[&["rec_trailer", "-"], &args[..]].concat(), Some(&bytes));
    let from_redirect = codegen(
        &[&["rec_trailer", "-"], &args[..]].concat(),
        Stdin::File(&f),
    );
    for out in [&from_file, &from_pipe, &from_redirect] {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        let text = stdout(out);
        assert!(
            text.starts_with("# 2 × rec_trailer (16 bytes) at 0x0008, every 1000 bytes\n"),
            "{text}"
        );
        assert!(
            text.contains("@0x03f0 [1].footer_offset u64 4096"),
            "{text}"
        );
        assert!(
            text.contains("@0x03fc [1].magic u32 0x45464249 (rec_trailer_magic)"),
            "{text}"
        );
    }
    assert_eq!(from_file.stdout, from_pipe.stdout);
    assert_eq!(from_file.stdout, from_redirect.stdout);
    // A file says how much follows; a stream is not read that far.
    assert_eq!(stderr(&from_file), "");
    assert_eq!(stderr(&from_pipe), "");
    let more = inspect(&["rec_trailer", f.to_str().unwrap(), "--offset", "8"], None);
    assert!(
        stderr(&more).contains("info: @0x0018: 1000 more bytes follow the last record"),
        "{}",
        stderr(&more)
    );
}

#[test]
fn dev_zero_with_count_1_returns() {
    let start = Instant::now();
    let out = codegen(
        &["ring_slot_header", "/dev/zero", "--count", "1"],
        Stdin::Closed,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("@0x0018 publish_ns u64 0"),
        "{}",
        stdout(&out)
    );
    let out = codegen(
        &[
            "ring_slot_header",
            "/dev/zero",
            "--offset",
            "0x1000",
            "--count",
            "4",
            "--stride",
            "32768",
            "--json",
        ],
        Stdin::Closed,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["data"].as_array().map(Vec::len), Some(4));
    eprintln!("two runs on /dev/zero: {:?}", start.elapsed());
}

/// A pipe that never reaches its end: the records are read, and the process returns.
#[test]
fn stdin_is_read_only_as_far_as_needed() {
    let bytes = strided_trailers();
    let out = codegen(
        &[&["rec_trailer", "-"], &STRIDED[..]].concat(),
        Stdin::Open(&bytes),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("[1].magic"), "{}", stdout(&out));
    // More input than the records need (1 MiB, past the pipe's buffer): still returns, the
    // writer finds the pipe closed.
    let mut big = strided_trailers();
    big.resize(1 << 20, 0xEE);
    let out = inspect(&["rec_trailer", "-", "--offset", "8"], Some(&big));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A pipe that ends too early.
    let out = inspect(
        &[&["rec_trailer", "-"], &STRIDED[..]].concat(),
        Some(&bytes[..1010]),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("need 1016 bytes, 1002 are there (1 whole record)"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

/// A sparse file of 384 MiB (`set_len`: no disk blocks): records at big offsets are read
/// where they are.
#[test]
fn sparse_large_file_at_a_big_offset() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sparse-384m.bin");
    let len: u64 = 384 << 20;
    {
        use std::io::{Seek, SeekFrom};
        let mut f = std::fs::File::create(&path).unwrap();
        f.set_len(len).unwrap();
        f.seek(SeekFrom::Start(len - 16)).unwrap();
        f.write_all(&trailer(0x4546_4249)).unwrap();
        f.seek(SeekFrom::Start(len / 2)).unwrap();
        f.write_all(&trailer(0x4546_4249)).unwrap();
    }
    let p = path.to_str().unwrap();
    let last = (len - 16).to_string();
    let out = inspect(&["rec_trailer", p, "--offset", &last], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("@0x17fffffc magic u32 0x45464249 (rec_trailer_magic)"),
        "{}",
        stdout(&out)
    );
    let half = format!("{:#x}", len / 2);
    let stride = (len / 2 - 16).to_string();
    let out = inspect(
        &[
            "rec_trailer",
            p,
            "--offset",
            &half,
            "--count",
            "2",
            "--stride",
            &stride,
            "--json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["data"][0]["magic"], 0x4546_4249);
    assert_eq!(v["data"][1]["magic"], 0x4546_4249);
    let _ = std::fs::remove_file(&path);
}

/// `inspect ibfrec` and `inspect bridge` decode a whole file: a file that is neither gives
/// errors on stderr and exit 1, never a panic; a pipe is read (bounded) too; the struct
/// options are refused for them.
#[test]
fn whole_files_through_their_format_or_layout() {
    let path = file("not-a-recording.bin", &[0x5A; 700]);
    let input = path.to_str().unwrap();
    for name in ["ibfrec", "bridge"] {
        let out = codegen(&[name, input, "--json"], Stdin::Closed);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("error: "), "{name}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["file"], name);
        assert_eq!(json["size"], 700);
    }
    let out = codegen(&["ibfrec", "-"], Stdin::Bytes(&[0x5A; 700]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: @0x0000 footer: not found: `trailer` does not hold its expected values"
        ),
        "{stderr}"
    );
    assert!(
        stderr
            .contains("chunks: not found: `chunk_index` is missing, and `header` to walk from too"),
        "{stderr}"
    );
    let out = codegen(&["ibfrec", input, "--offset", "16"], Stdin::Closed);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is decoded whole"));
}

/// An --offset off the struct's alignment is decoded as asked, with a warning on stderr
/// that names the alignment and the nearest aligned offsets: exit 0, or 2 with --strict. An
/// aligned offset has no warning.
#[test]
fn a_misaligned_offset_is_a_warning() {
    let mut bytes = vec![0xEE; 3];
    bytes.extend(trailer(0x4546_4249));
    let f = file("trailer-at-3.bin", &bytes);
    let path = f.to_str().unwrap();
    let out = inspect(&["rec_trailer", path, "--offset", "0x3"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warn: --offset 0x3 is not a multiple of `rec_trailer`'s alignment (8): the records are decoded where asked, but a producer never places one there; the nearest aligned offsets are 0x0 and 0x8\n"
    );
    assert!(
        stdout(&out).contains("@0x0003 footer_offset u64 4096"),
        "{}",
        stdout(&out)
    );
    let out = inspect(&["rec_trailer", path, "--offset", "0x3", "--strict"], None);
    assert_eq!(out.status.code(), Some(2));
    let aligned = file(
        "trailer-at-8.bin",
        &[vec![0; 8], trailer(0x4546_4249)].concat(),
    );
    let out = inspect(
        &["rec_trailer", aligned.to_str().unwrap(), "--offset", "8"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

/// `layout TYPE` with a typo names the closest struct, as `inspect` does, and exits 2;
/// `inspect` also suggests a `[[layout]]`'s or a `[[file]]` format's name.
#[test]
fn layout_and_inspect_suggest_the_closest_name() {
    let out = Command::new(env!("CARGO_BIN_EXE_abi-codegen"))
        .args(["layout", "rec_trailr", "--schema", &schema()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: no struct named `rec_trailr` in {}; did you mean `rec_trailer`?\n",
            schema()
        )
    );
    let f = file("trailer-ok4.bin", &trailer(0x4546_4249));
    let out = inspect(&["bridg", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no struct named `bridg` in the schema; did you mean `bridge`?\n"
    );
}
