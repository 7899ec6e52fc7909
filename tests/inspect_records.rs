//! `abi-codegen inspect ibfrec FILE --tick N`: recordings of many chunks with keyframes and
//! XOR deltas (tests/common/recording.rs), each tick sought and decoded through the schema's
//! `encoding` and compared with the snapshot and extras the test wrote; ranges, the walk
//! when the trailer is missing, the command line's dump and JSON; crafted files for each
//! check of the chain, with its message; cut and corrupted files, which never panic.

use crate::common;

use abi_codegen::testing::inspect::{
    Decoded, Level, SeekInspection, find_file, inspect_file, parse_keys, seek_records,
};
use bridge_abi::*;
use common::recording::{Recording, Tick, encode, extras_len, tick_data, xor};
use zerocopy::IntoBytes;

/// The bridge schema, loaded once.
fn schema() -> &'static abi_codegen::Schema {
    static SCHEMA: std::sync::OnceLock<abi_codegen::Schema> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(common::bridge_schema)
}

/// The records `--ticks from..=to` hands out, and what the seek found.
fn seek(bytes: &[u8], keys: (u64, u64)) -> (Vec<Decoded>, SeekInspection) {
    let schema = schema();
    let format = find_file(schema, "ibfrec").unwrap();
    let mut out = Vec::new();
    let found = seek_records(schema, format, &bytes, keys, &mut |d| out.push(d)).unwrap();
    (out, found)
}

fn snapshot_size() -> usize {
    Snapshot::default().as_bytes().len()
}

/// Ticks 1..=80 in 8 chunks of 10, but tick 47 dropped.
fn long() -> (Recording, Vec<Vec<u64>>) {
    let chunks: Vec<Vec<u64>> = (0..8)
        .map(|c| (c * 10 + 1..=c * 10 + 10).filter(|t| *t != 47).collect())
        .collect();
    let refs: Vec<&[u64]> = chunks.iter().map(Vec::as_slice).collect();
    (Recording::new(&refs), chunks)
}

/// The kind the recorder wrote for tick `t` of `chunk`.
fn written_kind(chunk: &[u64], t: u64) -> &'static str {
    let ticks = encode(chunk);
    let tick = ticks.iter().find(|x| x.header.tick == t).unwrap();
    if tick.header.kind == RecRecordKind::DELTA {
        "delta"
    } else {
        "keyframe"
    }
}

#[test]
fn every_tick_of_a_multi_chunk_recording_decodes_to_the_snapshot_written() {
    let (r, chunks) = long();
    let bytes = r.bytes();
    let mut deltas = 0;
    for (c, chunk) in chunks.iter().enumerate() {
        for &t in chunk {
            let (got, found) = seek(&bytes, (t, t));
            assert!(found.issues.is_empty(), "tick {t}: {:?}", found.issues);
            assert_eq!(found.exit_code(true), 0);
            assert_eq!(found.inflated, [format!("chunks[{c}]")], "tick {t}");
            assert_eq!(got.len(), 1, "tick {t}");
            let d = &got[0];
            assert_eq!(d.key, t);
            assert_eq!(d.stream, format!("chunks[{c}]"));
            let i = chunk.iter().position(|x| *x == t).unwrap();
            assert_eq!(d.path, format!("ticks[{c}][{i}]"));
            assert_eq!(d.data, tick_data(t), "tick {t}: the decoded data");
            assert_eq!(d.extras_at, snapshot_size());
            assert_eq!(d.data.len() - d.extras_at, extras_len(t));
            assert_eq!(d.kind, written_kind(chunk, t), "tick {t}");
            deltas += usize::from(d.kind == "delta");
        }
    }
    assert!(deltas >= 30, "only {deltas} deltas");
    let (got, found) = seek(&bytes, (47, 47));
    assert!(got.is_empty());
    assert_eq!(found.inflated, ["chunks[4]"]);
    assert_eq!(
        found.issues.last().unwrap().message,
        "no `ticks` record with tick = 47 was decoded"
    );
    assert_eq!(found.exit_code(false), 1);
    // The whole file decodes through the same chains, clean.
    let schema = schema();
    let whole = inspect_file(schema, find_file(schema, "ibfrec").unwrap(), &bytes);
    assert!(whole.issues.is_empty(), "{:?}", whole.issues);
}

#[test]
fn a_range_of_ticks_inflates_the_chunks_that_hold_it() {
    let (r, _) = long();
    let bytes = r.bytes();
    let (got, found) = seek(&bytes, parse_keys("15..35").unwrap());
    let keys: Vec<u64> = got.iter().map(|d| d.key).collect();
    assert_eq!(keys, (15..35).collect::<Vec<_>>());
    assert_eq!(found.inflated, ["chunks[1]", "chunks[2]", "chunks[3]"]);
    for d in &got {
        assert_eq!(d.data, tick_data(d.key));
    }
    let (got, _) = seek(&bytes, parse_keys("40..=50").unwrap());
    let keys: Vec<u64> = got.iter().map(|d| d.key).collect();
    assert_eq!(keys, [40, 41, 42, 43, 44, 45, 46, 48, 49, 50]);
    assert_eq!(parse_keys("7").unwrap(), (7, 7));
    assert_eq!(
        parse_keys("9..9").unwrap_err(),
        "`9..9` is an empty range",
        "B is excluded"
    );
    assert!(parse_keys("a..b").is_err());
}

#[test]
fn without_a_trailer_the_chunks_are_walked() {
    let (r, chunks) = long();
    let body = r.body();
    for chunk in &chunks {
        for &t in chunk {
            let (got, found) = seek(&body, (t, t));
            assert_eq!(got.len(), 1, "tick {t}");
            assert_eq!(got[0].data, tick_data(t));
            assert_eq!(found.inflated.len(), 1);
            assert!(
                found.issues.iter().any(|i| i.level == Level::Warn
                    && i.path == "chunks"
                    && i.message
                        == "`chunk_index` is missing: chunks found by walking from the end of `header`"),
                "{:?}",
                found.issues
            );
        }
    }
    // Cut inside the last chunk: the chunks before it still decode.
    let cut = body.len() - r.chunks[7].1.len() / 2;
    let (got, _) = seek(&body[..cut], (65, 65));
    assert_eq!(got[0].data, tick_data(65));
    let (got, found) = seek(&body[..cut], (75, 75));
    assert!(got.is_empty());
    assert!(found.issues.iter().any(|i| i.message.contains("is short")));
}

/// A recording of one chunk of these tick records, sought for every tick, and inspected
/// whole: the error at `path` says `message` both ways.
fn fires(ticks: Vec<Tick>, path: &str, message: &str) {
    let keys = (0, u64::MAX);
    let bytes = Recording::of(vec![ticks]).bytes();
    let (_, found) = seek(&bytes, keys);
    let schema = schema();
    let whole = inspect_file(schema, find_file(schema, "ibfrec").unwrap(), &bytes);
    for (how, issues) in [("seek", &found.issues), ("whole", &whole.issues)] {
        assert!(
            issues
                .iter()
                .any(|i| i.level == Level::Error && i.path == path && i.message == message),
            "{how}: expected `{path}: {message}`, got {issues:#?}"
        );
    }
}

#[test]
fn a_delta_with_no_keyframe_before_it_in_its_chunk() {
    let d = xor(&tick_data(1), &tick_data(2));
    let mut ticks = vec![Tick::new(2, RecRecordKind::DELTA, d)];
    ticks.push(Tick::new(3, RecRecordKind::KEYFRAME, tick_data(3)));
    fires(
        ticks,
        "ticks[0][0]",
        "a delta with no keyframe before it in the stream of chunks[0]: its data is not decoded",
    );
    // The delta after it decodes: the keyframe restarted the chain.
    let mut ticks = vec![
        Tick::new(2, RecRecordKind::DELTA, tick_data(2)),
        Tick::new(3, RecRecordKind::KEYFRAME, tick_data(3)),
        Tick::new(4, RecRecordKind::DELTA, xor(&tick_data(3), &tick_data(4))),
    ];
    let bytes = Recording::of(vec![ticks.clone()]).bytes();
    let (got, found) = seek(&bytes, (4, 4));
    assert_eq!(got[0].data, tick_data(4));
    assert_eq!(found.issues.len(), 1, "{:?}", found.issues);
    // Each chunk restarts the chain: a delta first in the second chunk has nothing before it.
    ticks.truncate(2);
    let second = vec![Tick::new(
        4,
        RecRecordKind::DELTA,
        xor(&tick_data(3), &tick_data(4)),
    )];
    let bytes = Recording::of(vec![ticks, second]).bytes();
    let (got, found) = seek(&bytes, (4, 4));
    assert!(got.is_empty());
    assert!(found.issues.iter().any(|i| i.path == "ticks[1][0]"
        && i.message
            == "a delta with no keyframe before it in the stream of chunks[1]: its data is not decoded"));
}

#[test]
fn a_delta_whose_data_size_differs_from_the_record_before() {
    // Tick 5 has no extras, tick 4 has 32 bytes.
    let d = tick_data(5);
    let ticks = vec![
        Tick::new(4, RecRecordKind::KEYFRAME, tick_data(4)),
        Tick::new(5, RecRecordKind::DELTA, d.clone()),
    ];
    let message = format!(
        "data_size = {}, but the record before it holds {}: a delta XORs data of the same length; its data is not decoded",
        d.len(),
        tick_data(4).len()
    );
    fires(ticks, "ticks[0][1]", &message);
}

#[test]
fn a_decoded_snapshot_whose_header_disagrees_with_its_tick_record() {
    let size = tick_data(3).len();
    for (at, value, message) in [
        (
            0,
            0xDEAD_BEEFu64,
            "the decoded snapshot's header.magic holds 0xdeadbeef, expected snapshot_magic (0x53464249)"
                .to_string(),
        ),
        (
            24,
            99,
            "the decoded snapshot's header.tick = 99, but tick = 3".to_string(),
        ),
        (
            16,
            7,
            "the decoded snapshot's header.frame = 7, but frame = 6".to_string(),
        ),
        (
            8,
            12,
            format!("the decoded snapshot's header.size = 12, but data_size = {size}"),
        ),
    ] {
        // The keyframe is right, the delta after it decodes to the wrong header.
        let mut wrong = tick_data(3);
        let width = if at == 0 || at == 8 { 4 } else { 8 };
        wrong[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        let ticks = vec![
            Tick::new(2, RecRecordKind::KEYFRAME, tick_data(2)),
            Tick::new(3, RecRecordKind::DELTA, xor(&tick_data(2), &wrong)),
        ];
        fires(ticks, "ticks[0][1]", &message);
    }
}

#[test]
fn a_kind_the_encoding_does_not_list_and_data_shorter_than_a_snapshot() {
    fires(
        vec![Tick::new(1, RecRecordKind(7), tick_data(1))],
        "ticks[0][0]",
        "kind = 7: not a kind the encoding lists (keyframe = plain, delta = xor); its data is not decoded",
    );
    fires(
        vec![Tick::new(1, RecRecordKind::KEYFRAME, vec![0; 100])],
        "ticks[0][0]",
        "data_size = 100: less than snapshot (12104 bytes), so it is not decoded",
    );
}

#[test]
fn cut_and_corrupted_recordings_never_panic() {
    let (r, _) = long();
    let bytes = r.bytes();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..150 {
        let mut b = bytes.clone();
        for _ in 0..1 + round % 6 {
            let at = (next() % b.len() as u64) as usize;
            b[at] ^= 1 << (next() % 8);
        }
        let cut = if round % 3 == 0 {
            (next() % b.len() as u64) as usize
        } else {
            b.len()
        };
        let t = next() % 90;
        let _ = seek(&b[..cut], (t, t));
        let _ = seek(&b[..cut], (t, t + 15));
    }
    // Lengths that claim everything: capped, never allocated.
    let mut r = Recording::new(&[&[1, 2, 3]]);
    r.chunks[0].0.raw_size = u32::MAX;
    r.chunks[0].0.last_tick = u64::MAX;
    let (got, found) = seek(&r.bytes(), (2, 2));
    assert_eq!(got.len(), 1);
    assert!(!found.issues.is_empty());
    // An index that names one chunk again and again: it is inflated once.
    let mut r = Recording::three();
    let first = r.entries[0].offset;
    for e in &mut r.entries {
        e.offset = first;
        e.first_tick = 0;
        e.last_tick = u64::MAX;
    }
    let (got, found) = seek(&r.bytes(), (2, 2));
    assert_eq!(got.len(), 1);
    assert_eq!(found.inflated, ["chunks[0]"]);
    for cut in 0..bytes.len().min(4000) {
        let _ = seek(&bytes[..cut], (1, 3));
    }
}

/// The command line: `cargo run -p abi-codegen -- inspect ibfrec FILE ARGS`.
fn cli(file: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", "abi-codegen", "--", "inspect", "ibfrec"])
        .arg(file)
        .args(args)
        .current_dir(root)
        .output()
        .expect("cargo runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_command_line_prints_decoded_ticks_as_a_dump_and_as_json() {
    let (r, _) = long();
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = tmp.join("long.ibfrec");
    std::fs::write(&path, r.bytes()).unwrap();
    let (code, out, err) = cli(&path, &["--tick", "13"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let headings: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("# ibfrec") || l.starts_with("## "))
        .collect();
    let size = tick_data(13).len();
    assert_eq!(
        headings,
        [
            "# ibfrec: 13".to_string(),
            format!(
                "## ticks[1][2] rec_tick_header (136 bytes + {size} bytes) at {:#06x} of the inflated stream of chunks[1]",
                2 * (136 + tick_data(11).len())
            ),
            "## ticks[1][2] snapshot (12104 bytes), decoded from a delta".to_string(),
            "## ticks[1][2] extras (32 bytes)".to_string(),
        ]
    );
    assert!(out.contains("\n@0x0018 header.tick u64 13\n"), "{out}");
    assert!(out.contains("\n@0x0010 header.frame u64 26\n"), "{out}");
    let extras: Vec<String> = tick_data(13)[snapshot_size()..snapshot_size() + 16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        out.contains(&format!(
            "\n@{:#06x} {}\n",
            snapshot_size(),
            extras.join(" ")
        )),
        "{out}"
    );
    let (code, out, _) = cli(&path, &["--ticks", "18..=21", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["file"], "ibfrec");
    assert_eq!(v["inflated"], serde_json::json!(["chunks[1]", "chunks[2]"]));
    assert_eq!(v["issues"], serde_json::json!([]));
    let records = v["records"].as_array().unwrap();
    assert_eq!(records.len(), 4);
    for (d, t) in records.iter().zip(18u64..) {
        assert_eq!(d["key"], t);
        assert_eq!(d["value"]["tick"], t);
        assert_eq!(d["decoded"]["type"], "snapshot");
        assert_eq!(d["decoded"]["value"]["header"]["tick"], t);
        assert_eq!(d["decoded"]["value"]["event_total"], t * 3 + 1);
        let hex: String = tick_data(t)[snapshot_size()..]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(d["extras"], hex);
    }
    // No such tick: an error, and the exit code says so.
    let (code, out, err) = cli(&path, &["--tick", "47"]);
    assert_eq!(code, 1);
    assert_eq!(out, "# ibfrec: 47\n");
    assert!(err.ends_with("error: @0x0000 ticks: no `ticks` record with tick = 47 was decoded\n"));
    let (code, _, err) = cli(&path, &["--tick", "3", "--ticks", "1..4"]);
    assert_eq!(code, 2, "{err}");
}
