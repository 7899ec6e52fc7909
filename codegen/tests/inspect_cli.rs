//! `codegen inspect` as a process: formats, stdin, offsets and the exit codes (0 clean,
//! 1 errors, 2 unreadable input or `--strict` with any error or warning).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn schema() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("schema.toml");
    p.to_str().unwrap().to_string()
}

fn inspect(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let schema = schema();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_codegen"));
    cmd.arg("inspect").args(args).args(["--schema", &schema]);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("codegen runs");
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
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
        text.contains("@0x000C magic u32 0x45464249 (rec_trailer_magic)"),
        "{text}"
    );
    let out = inspect(
        &["rec_trailer", f.to_str().unwrap(), "--json", "--strict"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["data"]["magic"], 0x4546_4249);
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
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("# warn: @0x000C magic: holds 0xdeadbeef, expected rec_trailer_magic")
    );
    let out = inspect(&["rec_trailer", f.to_str().unwrap(), "--strict"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn short_input_exits_1_and_unreadable_input_exits_2() {
    let f = file("trailer-short.bin", &trailer(0x4546_4249)[..10]);
    let out = inspect(&["rec_trailer", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("# error:"));
    let out = inspect(&["rec_trailer", "/nonexistent/blob.bin"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = inspect(&["no_such_type", f.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no struct named `no_such_type`"));
    let out = inspect(
        &["rec_trailer", f.to_str().unwrap(), "--offset", "zz"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}
