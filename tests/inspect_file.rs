//! `abi-codegen inspect ibfrec`: real recordings written with the generated Rust types and
//! flate2 (several zlib chunks, marks, snapshots with extras; every offset computed from the
//! records written, none by hand), decoded whole through the schema's `[[file]]`; then
//! truncated and corrupted copies, each firing its check with its message.

use crate::common;

use abi_codegen::testing::inspect::{
    FileInspection, Level, find_file, inspect_file, render_file_dump, render_file_json,
};
use bridge_abi::*;
use common::recording::{Recording, zlib};
use serde_json::Value;
use zerocopy::IntoBytes;

fn schema() -> abi_codegen::Schema {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml")).unwrap();
    abi_codegen::load_schema(&src).unwrap()
}

fn run(bytes: &[u8]) -> (FileInspection, Value) {
    let schema = schema();
    let format = find_file(&schema, "ibfrec").expect("schema.toml declares ibfrec");
    let i = inspect_file(&schema, format, &bytes);
    let _ = render_file_dump(&schema, &i);
    let json = render_file_json(&schema, &i);
    (i, json)
}

/// The issues as stderr shows them.
fn issues(i: &FileInspection) -> String {
    abi_codegen::testing::inspect::render_file_issues(i)
}

/// Inspects `bytes` and checks that an error at `path` says `message` (a part of it).
fn fires(bytes: &[u8], path: &str, message: &str) -> FileInspection {
    let (i, _) = run(bytes);
    assert!(
        i.issues
            .iter()
            .any(|x| x.level == Level::Error && x.path == path && x.message.contains(message)),
        "expected an error at `{path}` saying `{message}`, got:\n{}",
        issues(&i)
    );
    assert_eq!(i.exit_code(false), 1);
    i
}

fn copies<'a>(json: &'a Value, record: &str) -> &'a Vec<Value> {
    json["data"][record].as_array().unwrap()
}

#[test]
fn a_whole_recording_decodes_without_issues() {
    let r = Recording::three();
    let bytes = r.bytes();
    // Left for docs/inspect.md's example: `abi-codegen inspect ibfrec target/tmp/recording.ibfrec`,
    // and a copy cut inside its last chunk.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(tmp.join("recording.ibfrec"), &bytes).unwrap();
    let body = r.body();
    std::fs::write(tmp.join("cut.ibfrec"), &body[..body.len() - 100]).unwrap();
    let (i, json) = run(&bytes);
    assert!(i.issues.is_empty(), "{}", issues(&i));
    assert_eq!(i.exit_code(true), 0);
    assert_eq!(json["file"], "ibfrec");
    assert_eq!(json["size"], bytes.len());
    assert_eq!(copies(&json, "header")[0]["value"]["note"], "three chunks");
    assert_eq!(copies(&json, "trailer")[0]["offset"], bytes.len() - 16);
    assert_eq!(copies(&json, "footer")[0]["value"]["ticks"], 12);
    assert_eq!(copies(&json, "chunk_index").len(), 3);
    let marks = copies(&json, "marks");
    assert_eq!(marks.len(), 2);
    assert_eq!(marks[1]["value"]["kind"], "round_started");
    let chunks = copies(&json, "chunks");
    assert_eq!(chunks.len(), 3);
    for (c, e) in chunks.iter().zip(&r.entries) {
        assert_eq!(c["offset"], e.offset);
    }
    let ticks = copies(&json, "ticks");
    let numbers: Vec<u64> = ticks
        .iter()
        .map(|t| t["value"]["tick"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13]);
    assert_eq!(ticks[7]["in"], "chunks[2]");
    assert_eq!(ticks[7]["path"], "ticks[2][0]");
    assert_eq!(ticks[7]["offset"], 0);
    let snapshot = Snapshot::default().as_bytes().len() as u64;
    assert_eq!(ticks[4]["data_bytes"], snapshot, "tick 5 has no extras");
    assert_eq!(ticks[3]["data_bytes"], snapshot + 4 * 8);
    assert_eq!(ticks[3]["value"]["kind"], "delta");
    assert_eq!(ticks[3]["value"]["pads"][0]["source"], "bot");
}

#[test]
fn a_recording_cut_short_decodes_its_chunks_by_walking_and_says_what_is_missing() {
    let r = Recording::three();
    let body = r.body();
    // The recorder died inside the last chunk's stream: no footer, no trailer.
    let cut = body.len() - r.chunks[2].1.len() / 2;
    let i = fires(
        &body[..cut],
        "footer",
        "not found: `trailer` does not hold its expected values",
    );
    let (_, json) = run(&body[..cut]);
    let text = issues(&i);
    for (path, message) in [
        ("chunk_index", "not found: `footer` is missing"),
        ("marks", "not found: `chunk_index` is missing"),
        ("chunks[2]", "runs past the end of the file"),
        ("chunks[2]", "is short"),
    ] {
        assert!(
            i.issues
                .iter()
                .any(|x| x.path == path && x.message.contains(message)),
            "{path}: {message}\n{text}"
        );
    }
    assert!(
        i.issues.iter().any(|x| x.level == Level::Warn
            && x.offset == 0x200
            && x.path == "chunks"
            && x.message
                == "`chunk_index` is missing: chunks found by walking from the end of `header`"),
        "{text}"
    );
    assert_eq!(copies(&json, "chunks").len(), 3);
    let ticks: Vec<u64> = copies(&json, "ticks")
        .iter()
        .map(|t| t["value"]["tick"].as_u64().unwrap())
        .collect();
    assert_eq!(
        &ticks[..7],
        [1, 2, 3, 4, 5, 6, 7],
        "the whole chunks decode"
    );
    // Cut between two chunks: the walk ends cleanly at the end of the file.
    let between = r.entries[2].offset as usize;
    let (i, json) = run(&body[..between]);
    assert_eq!(copies(&json, "chunks").len(), 2);
    assert!(
        !i.issues.iter().any(|x| x.path.starts_with("chunks[")),
        "{}",
        issues(&i)
    );
    // Cut inside a chunk header: the walk stops and says so, no resync.
    fires(
        &body[..between + 8],
        "chunks[2]",
        "the walk stops: the file ends 8 bytes into a rec_chunk_header",
    );
    // Garbage after a chunk: not a chunk header, the rest is not decoded.
    let mut garbage = body[..between].to_vec();
    garbage.extend([0xAB; 100]);
    fires(&garbage, "chunks[2]", "the walk stops: the bytes at");
}

#[test]
fn offsets_past_the_end_are_errors() {
    let mut r = Recording::three();
    r.trailer.footer_offset = 1 << 40;
    fires(
        &r.bytes(),
        "footer",
        "rec_footer (48 bytes) at 0x10000000000 lies past the end of the file",
    );
    let mut r = Recording::three();
    r.entries[1].offset = 1 << 33;
    fires(&r.bytes(), "chunks[1]", "lies past the end of the file");
}

#[test]
fn overlapping_records_are_errors() {
    let mut r = Recording::three();
    r.entries[1].offset = r.entries[0].offset;
    fires(&r.bytes(), "chunks[1]", "overlaps chunks[0]");
    let mut r = Recording::three();
    r.trailer.footer_offset = r.entries[1].offset + 16;
    let bytes = r.bytes();
    let (i, _) = run(&bytes);
    // The bytes there are no footer: it is shown, flagged, and not followed.
    assert!(
        issues(&i).contains("not found: `footer` does not hold its expected values"),
        "{}",
        issues(&i)
    );
}

#[test]
fn a_count_past_the_space_is_an_error() {
    let mut r = Recording::three();
    r.footer.mark_count = 1_000_000;
    fires(
        &r.bytes(),
        "marks",
        "footer.mark_count = 1000000: 1000000 × rec_mark (16 bytes)",
    );
}

#[test]
fn corrupt_and_short_zlib_streams_are_errors() {
    let mut r = Recording::three();
    r.chunks[1].1[0] = 0; // not a zlib header
    fires(&r.bytes(), "chunks[1]", "its zlib stream is corrupt");
    let mut r = Recording::three();
    let n = r.chunks[1].1.len();
    r.chunks[1].1.truncate(n - 12);
    r.chunks[1].0.stored_size -= 12;
    r.footer_fix();
    fires(&r.bytes(), "chunks[1]", "its zlib stream is short");
}

#[test]
fn raw_size_and_tick_count_must_match_what_is_inflated() {
    let mut r = Recording::three();
    r.chunks[0].0.raw_size += 5;
    fires(&r.bytes(), "chunks[0]", "raw_size = ");
    let mut r = Recording::three();
    r.chunks[0].0.raw_size -= 5;
    fires(
        &r.bytes(),
        "chunks[0]",
        "but its zlib stream inflates to more",
    );
    let mut r = Recording::three();
    r.chunks[2].0.tick_count = 4;
    fires(
        &r.bytes(),
        "chunks[2]",
        "tick_count = 4, but its zlib stream holds 5 ticks",
    );
}

#[test]
fn a_zlib_bomb_is_inflated_no_further_than_raw_size() {
    let mut r = Recording::three();
    let bomb = zlib(&vec![0u8; 64 << 20]);
    r.chunks[0].0.stored_size = bomb.len() as u32;
    r.chunks[0].1 = bomb;
    r.footer_fix();
    fires(
        &r.bytes(),
        "chunks[0]",
        "but its zlib stream inflates to more",
    );
}

#[test]
fn ticks_out_of_order_and_wrong_totals_are_errors() {
    let r = Recording::new(&[&[1, 2, 3], &[3, 4]]);
    fires(
        &r.bytes(),
        "ticks[1][0].tick",
        "tick 3 follows tick 3: out of order",
    );
    let mut r = Recording::three();
    r.footer.ticks = 13;
    fires(
        &r.bytes(),
        "footer.ticks",
        "holds 13, but chunks.tick_count sums to 12",
    );
}

#[test]
fn hostile_bytes_never_panic() {
    let bytes = Recording::three().bytes();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..200 {
        let mut b = bytes.clone();
        for _ in 0..8 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed % b.len() as u64) as usize;
            b[at] = (seed >> 32) as u8;
        }
        let cut = if round % 4 == 0 {
            (seed >> 40) as usize % b.len()
        } else {
            b.len()
        };
        let _ = run(&b[..cut]);
    }
    let _ = run(&[]);
}

#[test]
fn a_stored_size_past_what_raw_size_allows_is_an_error_and_not_read() {
    let mut r = Recording::three();
    // The next chunk's bytes and the footer follow: stored_size claims them all.
    r.chunks[0].0.stored_size = 100_000;
    r.chunks[0].0.raw_size = 100;
    let i = fires(
        &r.bytes(),
        "chunks[0]",
        "stored_size = 100000: more than a zlib stream of raw_size = 100 bytes can take",
    );
    assert!(
        i.issues
            .iter()
            .any(|x| x.message.contains("runs past the end of the file"))
    );
}

#[test]
fn an_index_entry_or_a_footer_tick_that_disagrees_fires_its_check() {
    // `indexed`: each chunk_index entry repeats its chunk's first and last tick.
    let mut r = Recording::three();
    r.entries[1].last_tick += 1;
    fires(
        &r.bytes(),
        "chunk_index[1].last_tick",
        "holds 8, but chunks[1].last_tick is 7",
    );
    // `first` and `last` totals: the footer's first and last tick are the file's.
    let mut r = Recording::three();
    r.footer.first_tick = 2;
    fires(
        &r.bytes(),
        "footer.first_tick",
        "holds 2, but ticks.tick starts with 1",
    );
    let mut r = Recording::three();
    r.footer.last_tick = 12;
    fires(
        &r.bytes(),
        "footer.last_tick",
        "holds 12, but ticks.tick ends with 13",
    );
}
