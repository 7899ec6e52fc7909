//! `abi-codegen inspect ibfrec`: real recordings written with the generated Rust types and
//! flate2 (several zlib chunks, marks, snapshots with extras; every offset computed from the
//! records written, none by hand), decoded whole through the schema's `[[file]]`; then
//! truncated and corrupted copies, each firing its check with its message.

use std::io::Write as _;

use abi_codegen::inspect::{
    FileInspection, Level, find_file, inspect_file, render_file_dump, render_file_json,
};
use bridge_abi::*;
use flate2::Compression;
use flate2::write::ZlibEncoder;
use serde_json::Value;
use zerocopy::IntoBytes;

fn schema() -> abi_codegen::Schema {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml")).unwrap();
    abi_codegen::load_schema(&src).unwrap()
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

/// One tick record: its header, a snapshot, and `extras` bytes after it.
fn tick_record(tick: u64, extras: usize) -> Vec<u8> {
    let mut s = Snapshot::default();
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.tick = tick;
    s.header.frame = tick * 2;
    let mut data = s.as_bytes().to_vec();
    data.extend((0..extras).map(|i| (i % 251) as u8));
    let mut h = RecTickHeader {
        data_size: data.len() as u32,
        kind: if tick % 3 == 0 {
            RecRecordKind::KEYFRAME
        } else {
            RecRecordKind::DELTA
        },
        tick,
        frame: tick * 2,
        host_time_ns: tick * 16_666_667,
        ..Default::default()
    };
    h.size = (h.as_bytes().len() + data.len()) as u32;
    h.pads[0].source = RecPadSource::BOT;
    h.pads[0].for_tick = tick;
    let mut out = h.as_bytes().to_vec();
    out.extend(data);
    out
}

/// A recording's records, as the recorder would write them; [`Recording::bytes`] lays them
/// out in order. Tests change a field and write it again.
struct Recording {
    header: RecFileHeader,
    chunks: Vec<(RecChunkHeader, Vec<u8>)>,
    footer: RecFooter,
    entries: Vec<RecChunkEntry>,
    marks: Vec<RecMark>,
    trailer: RecTrailer,
}

impl Recording {
    /// One chunk per list of ticks; tick `t` carries `t % 5 * 8` bytes of extras.
    fn new(chunks: &[&[u64]]) -> Recording {
        let mut header = RecFileHeader {
            magic: REC_MAGIC,
            format: REC_FORMAT,
            schema_minor: 9,
            snapshot_size: Snapshot::default().as_bytes().len() as u32,
            chunk_ticks: REC_CHUNK_TICKS,
            ..Default::default()
        };
        header.header_size = header.as_bytes().len() as u16;
        header.set_note("three chunks");
        let mut at = header.as_bytes().len() as u64;
        let mut out = Vec::new();
        let mut entries = Vec::new();
        for ticks in chunks {
            let raw: Vec<u8> = ticks
                .iter()
                .flat_map(|t| tick_record(*t, (*t % 5 * 8) as usize))
                .collect();
            let stream = zlib(&raw);
            let h = RecChunkHeader {
                magic: REC_CHUNK_MAGIC,
                stored_size: stream.len() as u32,
                raw_size: raw.len() as u32,
                tick_count: ticks.len() as u32,
                first_tick: ticks[0],
                last_tick: *ticks.last().unwrap(),
            };
            entries.push(RecChunkEntry {
                offset: at,
                first_tick: h.first_tick,
                last_tick: h.last_tick,
            });
            at += (h.as_bytes().len() + stream.len()) as u64;
            out.push((h, stream));
        }
        let marks = vec![
            RecMark {
                tick: chunks[0][0],
                kind: EventKind::MATCH_STARTED,
                a: 0,
                ..Default::default()
            },
            RecMark {
                tick: chunks[0][1],
                kind: EventKind::ROUND_STARTED,
                a: 1,
                ..Default::default()
            },
        ];
        let footer = RecFooter {
            magic: REC_FOOTER_MAGIC,
            chunk_count: entries.len() as u32,
            mark_count: marks.len() as u32,
            ticks: chunks.iter().map(|c| c.len() as u64).sum(),
            first_tick: chunks[0][0],
            last_tick: *chunks.last().unwrap().last().unwrap(),
            ..Default::default()
        };
        let trailer = RecTrailer {
            footer_offset: at,
            magic: REC_TRAILER_MAGIC,
            ..Default::default()
        };
        Recording {
            header,
            chunks: out,
            footer,
            entries,
            marks,
            trailer,
        }
    }

    fn three() -> Recording {
        Recording::new(&[&[1, 2, 3, 4], &[5, 6, 7], &[9, 10, 11, 12, 13]])
    }

    /// The bytes before the footer: the header and the chunks.
    fn body(&self) -> Vec<u8> {
        let mut out = self.header.as_bytes().to_vec();
        for (h, stream) in &self.chunks {
            out.extend(h.as_bytes());
            out.extend(stream);
        }
        out
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = self.body();
        out.extend(self.footer.as_bytes());
        out.extend(self.entries.as_bytes());
        out.extend(self.marks.as_bytes());
        out.extend(self.trailer.as_bytes());
        out
    }
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
    abi_codegen::inspect::render_file_issues(i)
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
    // Left for the README's example: `abi-codegen inspect ibfrec target/tmp/recording.ibfrec`,
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

impl Recording {
    /// After a chunk's stream changed length: the entries and the trailer follow it.
    fn footer_fix(&mut self) {
        let mut at = self.header.as_bytes().len() as u64;
        for (e, (h, s)) in self.entries.iter_mut().zip(&self.chunks) {
            e.offset = at;
            at += (h.as_bytes().len() + s.len()) as u64;
        }
        self.trailer.footer_offset = at;
    }
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
