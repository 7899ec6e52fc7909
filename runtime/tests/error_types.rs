//! The runtime's error types as a caller sees them: every public error enum is
//! `#[non_exhaustive]` (a new refusal is not a breaking change), and an error that wraps
//! another gives it back through `source()`.
//!
//! The attribute check reads the crate's sources, so it runs in the plain test run only
//! (Miri's isolation has no file system, and wine's paths are not the source tree's).

use std::error::Error;

use abi_runtime::byte_queue::QueueError;
use abi_runtime::entry_parts::PartError;

/// Each `pub enum` of `src` whose name ends in `Error` or `ErrorKind`, with whether its
/// attributes (the lines of `#[...]` and `///` right above it) hold `#[non_exhaustive]`.
#[cfg(not(any(miri, windows)))]
fn error_enums(dir: &std::path::Path, out: &mut Vec<(String, bool)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("runtime/src")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            error_enums(&path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("pub enum ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !(name.ends_with("Error") || name.ends_with("ErrorKind")) {
                continue;
            }
            let marked = lines[..i]
                .iter()
                .rev()
                .map(|l| l.trim_start())
                .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                .any(|l| l == "#[non_exhaustive]");
            out.push((name, marked));
        }
    }
}

#[test]
#[cfg(not(any(miri, windows)))]
fn every_error_enum_is_non_exhaustive() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    error_enums(&src, &mut found);
    let mut names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    names.sort();
    // The scan finds the enums it is about (a scan that found none would pass).
    assert_eq!(
        names,
        [
            "AttachError",
            "DirectoryError",
            "ExchangeError",
            "MailboxError",
            "PartError",
            "ProduceError",
            "QueueError",
            "RegionErrorKind",
            "RingError",
            "SeqLockError",
        ]
    );
    let open: Vec<&str> = found
        .iter()
        .filter(|(_, marked)| !marked)
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(open.is_empty(), "not #[non_exhaustive]: {open:?}");
}

#[test]
fn a_queues_part_error_is_its_source() {
    let part = PartError::TooLong {
        part: 1,
        len: 300,
        max: 255,
    };
    let err = QueueError::from(part);
    let source = err.source().expect("QueueError::Part has a source");
    assert_eq!(source.downcast_ref::<PartError>(), Some(&part));
    assert_eq!(source.to_string(), part.to_string());
    assert!(QueueError::BadEntry { len: 3 }.source().is_none());
}
