//! The Python module's recordings (issue 27): `IbfrecReader` replays recordings built by the
//! Rust builder (tests/common/recording.rs), every snapshot and its extras equal byte for
//! byte to `tick_data(t)`, and `seek_tick(n)` equals the sequential replay while inflating
//! one chunk; `IbfrecWriter`'s files pass `abi-codegen inspect ibfrec FILE --strict`, and
//! every tick the inspector decodes is the one pushed; a writer flushed then abandoned
//! leaves a file whose flushed ticks the reader recovers by walking; the README's snippet
//! runs and passes mypy --strict; another schema's format gets its own reader and writer.
//! Damaged files are tests/python_recording_damage.rs's.
//!
//! The module is rendered from `schema.toml` into a scratch folder. Every test fails, never
//! skips, when python3 is missing.

use crate::common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use abi_codegen::testing::inspect::{find_file, seek_records};
use abi_codegen::testing::language_backend::python::render_python;
use bridge_abi::*;
use common::python_recording::{
    PRELUDE, long_chunks, module_dir, python, recording, write_expected,
};
use common::recording::{extras_len, tick_data};
use zerocopy::{FromBytes, IntoBytes};

/// Replays `file` in every way the reader opens one and compares with `expected.bin`:
/// the ticks in order, each snapshot and extras byte for byte, each `seek_tick` equal to the
/// replay and inflating one chunk, absent ticks `None`. Prints the footer's and the marks'
/// figures for the test to check against the builder's.
const REPLAY: &str = r#"
want = expected(sys.argv[2])
path = sys.argv[1]
with open(path, "rb") as f:
    raw = f.read()
inflations = [0]
real = bridge._zlib.decompressobj


def counting():
    inflations[0] += 1
    return real()


bridge._zlib.decompressobj = counting
with open(path, "rb") as fobj:
    for source in (path, raw, bytearray(raw), memoryview(raw), fobj):
        r = bridge.IbfrecReader(source)
        replay = [whole(x) for x in r]
        ticks = [bridge.RecTickHeader.from_buffer_copy(h).tick for h, _ in replay]
        assert ticks == sorted(want), (ticks, sorted(want))
        for (h, data), t in zip(replay, ticks):
            assert data == want[t], "tick %d: the snapshot and extras differ" % t
            assert len(data) - SIZE == (0 if t % 5 == 0 else 32)
        assert r.check() == [], r.issues
        assert not r.walked
        if source is path:
            for (h, data), t in zip(replay, ticks):
                before = inflations[0]
                got = r.seek_tick(t)
                assert inflations[0] - before == 1, "seek_tick(%d) inflated %d chunks" % (t, inflations[0] - before)
                assert whole(got) == (h, data), "seek_tick(%d) differs from the replay" % t
            for t in range(0, max(ticks) + 3):
                if t not in want:
                    assert r.seek_tick(t) is None, t
        r.close()
r = bridge.IbfrecReader(path)
f = r.footer
print("footer", f.ticks, f.chunk_count, f.mark_count, f.first_tick, f.last_tick)
print("marks", " ".join("%d:%d:%d" % (m.tick, m.kind, m.a) for m in r.marks))
print("index", " ".join("%d:%d:%d" % (e.offset, e.first_tick, e.last_tick) for e in r.chunk_index))
print("chunks", len(r.chunks), bridge.text(r.header.note))
r.close()
print("ok")
"#;

#[test]
fn the_reader_replays_and_seeks_every_tick_of_a_rust_built_recording() {
    let dir = module_dir("replay");
    let chunks = long_chunks();
    let r = recording(&chunks);
    let ticks: Vec<u64> = chunks.concat();
    std::fs::write(dir.join("long.ibfrec"), r.bytes()).unwrap();
    write_expected(&dir.join("expected.bin"), &ticks);
    let script = format!("{PRELUDE}{REPLAY}");
    let out = python(
        &dir,
        "replay.py",
        &script,
        &["long.ibfrec", "expected.bin"],
        Duration::from_secs(60),
    );
    let f = &r.footer;
    let marks: Vec<String> = (r.marks.iter())
        .map(|m| format!("{}:{}:{}", m.tick, m.kind.0, m.a))
        .collect();
    let index: Vec<String> = (r.entries.iter())
        .map(|e| format!("{}:{}:{}", e.offset, e.first_tick, e.last_tick))
        .collect();
    let want = format!(
        "footer {} {} {} {} {}\nmarks {}\nindex {}\nchunks {} {}\nok\n",
        f.ticks,
        f.chunk_count,
        f.mark_count,
        f.first_tick,
        f.last_tick,
        marks.join(" "),
        index.join(" "),
        r.chunks.len(),
        "three chunks"
    );
    assert_eq!(out, want);
    // The file holds deltas: the replay decoded XOR chains, not keyframes alone.
    let mut count = 0;
    for (h, stream) in &r.chunks {
        let raw = inflate(stream);
        count += kinds(&raw, h.tick_count)
            .iter()
            .filter(|k| **k == RecRecordKind::DELTA)
            .count();
    }
    assert!(count >= 30, "only {count} deltas");
}

/// The other direction: a recording written by the Rust writer (`IbfrecWriter`) is replayed
/// and sought by the Python reader, every snapshot and extras byte for byte, with the
/// footer's totals and first and last ticks the Rust writer filled.
#[test]
fn the_python_reader_replays_a_recording_the_rust_writer_wrote() {
    use bridge_abi::recording::{IbfrecWriter, WriterOptions};
    let dir = module_dir("rust_writer");
    let ticks: Vec<u64> = long_chunks().concat();
    let mut options = WriterOptions::new(10);
    options.plain_every = Some(4);
    let mut header = RecFileHeader::default();
    header.set_note("rust writer");
    let mut out = Vec::new();
    let mut w = IbfrecWriter::create(std::io::Cursor::new(&mut out), &header, options).unwrap();
    let snap = std::mem::size_of::<Snapshot>();
    for &t in &ticks {
        let data = tick_data(t);
        let s = Snapshot::read_from_bytes(&data[..snap]).unwrap();
        let h = RecTickHeader {
            tick: t,
            frame: 2 * t,
            ..Default::default()
        };
        w.push(&h, &s, &data[snap..]).unwrap();
    }
    w.finish(&RecFooter::default()).unwrap();
    std::fs::write(dir.join("rust.ibfrec"), &out).unwrap();
    write_expected(&dir.join("expected.bin"), &ticks);
    let script = format!("{PRELUDE}{REPLAY}");
    let got = python(
        &dir,
        "replay.py",
        &script,
        &["rust.ibfrec", "expected.bin"],
        Duration::from_secs(60),
    );
    let lines: Vec<&str> = got.lines().collect();
    let chunks = ticks.len().div_ceil(10);
    assert_eq!(
        lines[0],
        format!(
            "footer {} {chunks} 0 {} {}",
            ticks.len(),
            ticks[0],
            ticks.last().unwrap()
        )
    );
    assert_eq!(lines[3], format!("chunks {chunks} rust writer"));
    assert_eq!(lines.last(), Some(&"ok"));
}

/// The zlib stream `stream`, inflated (flate2, not the code under test).
fn inflate(stream: &[u8]) -> Vec<u8> {
    use std::io::Read as _;
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(stream)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The kinds of the `count` tick records of an inflated chunk.
fn kinds(raw: &[u8], count: u32) -> Vec<RecRecordKind> {
    let mut pos = 0;
    let mut out = Vec::new();
    for _ in 0..count {
        let (h, _) = RecTickHeader::read_from_prefix(&raw[pos..]).unwrap();
        out.push(h.kind);
        pos += h.size as usize;
    }
    out
}

/// Pushes every tick of `expected.bin` through `IbfrecWriter` (chunk_ticks and
/// keyframe_every from the command line), with marks and a footer's untied fields.
const WRITE: &str = r#"
want = expected(sys.argv[2])
chunk_ticks = int(sys.argv[3])
every = int(sys.argv[4]) or None
header = bridge.RecFileHeader(snapshot_size=SIZE, host_pid=4242)
bridge.set_text(header, "note", "written by python")
with bridge.IbfrecWriter(sys.argv[1], header, chunk_ticks=chunk_ticks, keyframe_every=every) as w:
    for t in sorted(want):
        data = want[t]
        # tick and frame left out: the writer takes them from the snapshot's header.
        head = bridge.RecTickHeader(host_time_ns=t * 1000 + 7)
        head.pads[1].lx = -t
        w.push(head, bridge.Snapshot.from_buffer_copy(data[:SIZE]), data[SIZE:])
        if t % 11 == 0:
            w.add_marks(bridge.RecMark(tick=t, kind=bridge.EventKind.ROUND_STARTED, a=t // 11))
    w.finish(bridge.RecFooter(dropped=3, end_unix_ns=-5))
try:
    w.push(head, bridge.Snapshot(), b"")
except bridge.FileFormatError:
    pass
else:
    raise AssertionError("push after finish")
print("ok")
"#;

/// What the Python writer wrote, read back through the inspector (its library and the real
/// command line) and the generated Rust types.
#[test]
fn files_written_by_python_pass_inspect_and_hold_every_tick_pushed() {
    let dir = module_dir("write");
    let ticks: Vec<u64> = (1..=60).filter(|t| t % 13 != 0).collect();
    write_expected(&dir.join("expected.bin"), &ticks);
    let script = format!("{PRELUDE}{WRITE}");
    let (chunk_ticks, every) = (8usize, 3usize);
    python(
        &dir,
        "write.py",
        &script,
        &["py.ibfrec", "expected.bin", "8", "3"],
        Duration::from_secs(60),
    );
    let path = dir.join("py.ibfrec");
    let bytes = std::fs::read(&path).unwrap();

    // The real command line: the whole file, then every tick decoded, with no issue.
    let (code, out, err) = inspect_cli(&path, &["--strict"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let range = format!("{}..={}", ticks[0], ticks.last().unwrap());
    let (code, out, err) = inspect_cli(&path, &["--json", "--strict", "--ticks", &range]);
    assert_eq!((code, err.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["issues"], serde_json::json!([]));
    let records = json["records"].as_array().unwrap();
    assert_eq!(records.len(), ticks.len());
    for (rec, &t) in records.iter().zip(&ticks) {
        assert_eq!(rec["key"], t);
        assert_eq!(rec["value"]["frame"], 2 * t);
        assert_eq!(rec["value"]["host_time_ns"], t * 1000 + 7);
        assert_eq!(rec["value"]["pads"][1]["lx"], -(t as i64));
        let data = tick_data(t);
        let extras: String =
            data[data.len() - extras_len(t)..]
                .iter()
                .fold(String::new(), |mut s, b| {
                    let _ = write!(s, "{b:02x}");
                    s
                });
        assert_eq!(
            rec["extras"].as_str().unwrap().replace(' ', ""),
            extras,
            "tick {t}"
        );
        assert_eq!(rec["decoded"]["value"]["header"]["tick"], t);
        assert_eq!(rec["decoded"]["value"]["event_total"], t * 3 + 1);
    }

    // Byte for byte, through the inspector's library.
    let schema = common::bridge_schema();
    let format = find_file(&schema, "ibfrec").unwrap();
    let mut got = Vec::new();
    let found = seek_records(
        &schema,
        format,
        &bytes.as_slice(),
        (0, u64::MAX),
        &mut |d| got.push(d),
    )
    .unwrap();
    assert!(found.issues.is_empty(), "{:?}", found.issues);
    assert_eq!(got.len(), ticks.len());
    for (i, (d, &t)) in got.iter().zip(&ticks).enumerate() {
        assert_eq!(d.key, t);
        assert_eq!(d.data, tick_data(t), "tick {t}: the decoded data");
        // Every chunk starts with a keyframe, and every third tick pushed is one.
        let must = i % chunk_ticks == 0 || i % every == 0;
        if must {
            assert_eq!(d.kind, "keyframe", "tick {t}");
        }
        let length_changed = i > 0 && tick_data(ticks[i - 1]).len() != tick_data(t).len();
        let expect = if must || length_changed {
            "keyframe"
        } else {
            "delta"
        };
        assert_eq!(d.kind, expect, "tick {t}");
    }

    // The Rust reader reads what the Python writer wrote, byte for byte, and seeks in it.
    let mut reader = bridge_abi::recording::IbfrecReader::from_bytes(bytes.clone()).unwrap();
    let replayed: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    assert!(reader.issues().is_empty(), "{:?}", reader.issues());
    assert_eq!(replayed.len(), ticks.len());
    let snap = std::mem::size_of::<Snapshot>();
    for (r, &t) in replayed.iter().zip(&ticks) {
        let data = tick_data(t);
        assert_eq!(r.record.tick, t);
        assert_eq!(r.snapshot.as_bytes(), &data[..snap], "tick {t}");
        assert_eq!(r.extras, &data[snap..], "tick {t}");
    }
    for &t in ticks.iter().rev() {
        let r = reader
            .read_tick(t)
            .unwrap()
            .expect("every tick written is found");
        assert_eq!(r.record.tick, t);
    }
    assert!(reader.read_tick(13).unwrap().is_none());

    // The records after the chunks: the footer's untied fields from the caller, its totals,
    // the index entries' bounds from their chunks, the marks, the trailer.
    let (trailer, _) = RecTrailer::read_from_prefix(&bytes[bytes.len() - 16..]).unwrap();
    assert_eq!(trailer.magic, REC_TRAILER_MAGIC);
    let at = trailer.footer_offset as usize;
    let (footer, rest) = RecFooter::read_from_prefix(&bytes[at..]).unwrap();
    assert_eq!(footer.magic, REC_FOOTER_MAGIC);
    assert_eq!((footer.dropped, footer.end_unix_ns), (3, -5));
    assert_eq!(footer.ticks, ticks.len() as u64);
    // Declared by the schema (`first` and `last` totals): the writer fills them.
    assert_eq!(
        (footer.first_tick, footer.last_tick),
        (ticks[0], *ticks.last().unwrap())
    );
    let chunks = ticks.len().div_ceil(chunk_ticks);
    assert_eq!(footer.chunk_count as usize, chunks);
    let (entries, rest) = read_many::<RecChunkEntry>(rest, chunks);
    for (c, e) in entries.iter().enumerate() {
        let (h, _) = RecChunkHeader::read_from_prefix(&bytes[e.offset as usize..]).unwrap();
        let mine = &ticks[c * chunk_ticks..((c + 1) * chunk_ticks).min(ticks.len())];
        assert_eq!(h.magic, REC_CHUNK_MAGIC);
        assert_eq!(
            (h.first_tick, h.last_tick),
            (mine[0], *mine.last().unwrap())
        );
        assert_eq!((e.first_tick, e.last_tick), (h.first_tick, h.last_tick));
        assert_eq!(h.tick_count as usize, mine.len());
    }
    let marked: Vec<u64> = ticks.iter().copied().filter(|t| t % 11 == 0).collect();
    assert_eq!(footer.mark_count as usize, marked.len());
    let (marks, rest) = read_many::<RecMark>(rest, marked.len());
    for (m, &t) in marks.iter().zip(&marked) {
        assert_eq!(
            (m.tick, m.kind, m.a),
            (t, EventKind::ROUND_STARTED, (t / 11) as i32)
        );
    }
    assert_eq!(rest.len(), 16, "the trailer follows the marks");
    let (header, _) = RecFileHeader::read_from_prefix(&bytes).unwrap();
    assert_eq!((header.magic, header.format), (REC_MAGIC, REC_FORMAT));
    assert_eq!(header.host_pid, 4242);
}

/// `n` records of `T` from the start of `bytes` (copies), and the bytes after them.
fn read_many<T: FromBytes>(mut bytes: &[u8], n: usize) -> (Vec<T>, &[u8]) {
    let mut out = Vec::new();
    for _ in 0..n {
        let (t, rest) = T::read_from_prefix(bytes).unwrap();
        out.push(t);
        bytes = rest;
    }
    (out, bytes)
}

/// `cargo run -p abi-codegen -- inspect ibfrec FILE ARGS`: exit code, stdout, stderr.
fn inspect_cli(file: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO"))
        .args(["run", "-q", "-p", "abi-codegen", "--", "inspect", "ibfrec"])
        .arg(file)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Pushes ticks 1..=25 in chunks of 10, flushes, pushes three more, and exits without
/// finishing (os._exit: no with block, no finalizer runs).
const ABANDON: &str = r#"
import os
want = expected(sys.argv[2])
w = bridge.IbfrecWriter(sys.argv[1], bridge.RecFileHeader(), chunk_ticks=10)
for t in sorted(want):
    data = want[t]
    w.push(bridge.RecTickHeader(tick=t, frame=2 * t), bridge.Snapshot.from_buffer_copy(data[:SIZE]), data[SIZE:])
    if t == 25:
        w.flush()
sys.stdout.write("ok\n")
sys.stdout.flush()
os._exit(0)
"#;

/// Reads a recording that may be cut short and prints what it recovered: the ticks, each
/// checked against `expected.bin`, and whether the chunks were found by walking.
const RECOVER: &str = r#"
want = expected(sys.argv[2])
r = bridge.IbfrecReader(sys.argv[1])
ticks = []
for item in r:
    head, data = whole(item)
    t = bridge.RecTickHeader.from_buffer_copy(head).tick
    assert data == want[t], "tick %d differs" % t
    ticks.append(t)
r.close()
print("walked", r.walked, "footer", r.footer is not None)
print("ticks", " ".join(map(str, ticks)))
for i in r.issues:
    print("issue", i)
print("ok")
"#;

#[test]
fn a_writer_flushed_then_abandoned_leaves_every_flushed_tick_readable() {
    let dir = module_dir("abandon");
    let pushed: Vec<u64> = (1..=28).collect();
    write_expected(&dir.join("expected.bin"), &pushed);
    let abandon = format!("{PRELUDE}{ABANDON}");
    python(
        &dir,
        "abandon.py",
        &abandon,
        &["cut.ibfrec", "expected.bin"],
        Duration::from_secs(60),
    );
    let recover = format!("{PRELUDE}{RECOVER}");
    let out = python(
        &dir,
        "recover.py",
        &recover,
        &["cut.ibfrec", "expected.bin"],
        Duration::from_secs(60),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "walked True footer False", "{out}");
    let flushed: Vec<String> = (1..=25).map(|t: u64| t.to_string()).collect();
    assert_eq!(lines[1], format!("ticks {}", flushed.join(" ")), "{out}");
    // What the reader says: the trailer is not one, so the footer is not followed and the
    // chunks are walked; nothing about the chunks themselves.
    let issues: Vec<&str> = lines[2..lines.len() - 1].to_vec();
    assert!(
        issues.iter().any(|i| i.contains("found by walking")),
        "{out}"
    );
    assert!(
        issues.iter().all(|i| i.starts_with("issue trailer")
            || i.starts_with("issue footer")
            || i.starts_with("issue chunk_index")
            || i.starts_with("issue marks")
            || i.starts_with("issue chunks @")),
        "{out}"
    );

    // The same from the Rust builder's files, cut after each whole chunk.
    let chunks = long_chunks();
    let r = recording(&chunks);
    write_expected(&dir.join("expected.bin"), &chunks.concat());
    let mut end = r.header.as_bytes().len();
    let body = r.body();
    for (c, (h, stream)) in r.chunks.iter().enumerate() {
        end += h.as_bytes().len() + stream.len();
        std::fs::write(dir.join("cut.ibfrec"), &body[..end]).unwrap();
        let out = python(
            &dir,
            "recover.py",
            &recover,
            &["cut.ibfrec", "expected.bin"],
            Duration::from_secs(60),
        );
        let want: Vec<String> = chunks[..=c].concat().iter().map(u64::to_string).collect();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0], "walked True footer False",
            "cut after chunk {c}: {out}"
        );
        assert_eq!(
            lines[1],
            format!("ticks {}", want.join(" ")),
            "cut after chunk {c}"
        );
    }
}

/// The README's block under "In Python" (of "Replaying and writing a recording"), run on a recording built
/// here: it prints every tick, and the copy it writes holds every tick's data unchanged.
#[test]
fn the_readme_snippet_replays_and_copies_a_recording() {
    let dir = module_dir("readme");
    let chunks = long_chunks();
    let r = recording(&chunks);
    std::fs::write(dir.join("recording.ibfrec"), r.bytes()).unwrap();
    let snippet = common::readme::block_after("docs/recordings.md", "### In Python", "python");
    let out = python(&dir, "snippet.py", &snippet, &[], Duration::from_secs(60));
    let ticks = chunks.concat();
    let printed: Vec<u64> = (out.lines().take(ticks.len()))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(printed, ticks, "{out}");
    assert!(out.contains(&format!("\n{}\n", ticks.len())), "{out}");
    let copy = std::fs::read(dir.join("copy.ibfrec")).unwrap();
    let schema = common::bridge_schema();
    let format = find_file(&schema, "ibfrec").unwrap();
    let mut got = Vec::new();
    let found = seek_records(&schema, format, &copy.as_slice(), (0, u64::MAX), &mut |d| {
        got.push((d.key, d.data))
    })
    .unwrap();
    assert!(found.issues.is_empty(), "{:?}", found.issues);
    let want: Vec<(u64, Vec<u8>)> = ticks.iter().map(|&t| (t, tick_data(t))).collect();
    assert_eq!(got, want);
}

/// What mypy --strict must refuse with the stub: the record and the snapshot swapped, a
/// reader's record read as the wrong class, a seek's result used without its None check, a
/// writer's method that does not exist.
const WRONG: &str = r#"import bridge

rec = bridge.IbfrecReader(b"")
w = bridge.IbfrecWriter("x.ibfrec", bridge.RecFileHeader())
w.push(bridge.Snapshot(), bridge.RecTickHeader())
footer: bridge.RecTrailer | None = rec.footer
tick = rec.seek_tick(3)[0].tick
w.add_mark(bridge.RecMark())
"#;

/// The README's block and the recordings' stub under `mypy --strict`: accepted, and the
/// wrong uses refused, each where it is.
#[test]
fn mypy_strict_checks_the_readme_snippet_and_refuses_wrong_uses() {
    let dir = module_dir("mypy");
    let stubs = dir.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    let stub = abi_codegen::testing::language_backend::python::render_python_stub(
        &common::bridge_schema(),
        "schema.toml",
    )
    .unwrap();
    std::fs::write(stubs.join("bridge.pyi"), stub).unwrap();
    let snippet = common::readme::block_after("docs/recordings.md", "### In Python", "python");
    std::fs::write(dir.join("snippet.py"), snippet).unwrap();
    std::fs::write(dir.join("wrong.py"), WRONG).unwrap();
    common::tools::mypy_strict_ok(&dir, "snippet.py", &stubs);
    let out = Command::new("python3")
        .args(["-m", "mypy", "--strict", "--no-error-summary", "wrong.py"])
        .env("MYPYPATH", &stubs)
        .env("MYPY_CACHE_DIR", dir.join(".mypy_cache"))
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "mypy accepted wrong.py\n{report}");
    for line in [5, 6, 7, 8] {
        assert!(
            report.contains(&format!("wrong.py:{line}: error:")),
            "mypy said nothing of line {line}\n{report}"
        );
    }
    assert_eq!(report.matches(": error:").count(), 5, "{report}");
}

/// Writes 40 entries of another schema's format (tests/fixtures/recording/sensor_log.toml)
/// with its generated writer, reads them back with its reader (replay, every seek, the
/// index entries' bounds from their blocks), and prints the file's name.
const SENSOR: &str = r#"
import ctypes
import sys

import demo

SIZE = ctypes.sizeof(demo.State)
pushed = {}
with demo.SensorLogWriter("sensor.log", demo.LogHead(version=2), chunk_entries=6, keyframe_every=4) as w:
    for i in range(40):
        seq = 3 * i + 1
        state = demo.State(seq=seq, temperature=20 - i % 7, bytes=SIZE + (i // 10) * 4)
        extras = bytes(range(i // 10 * 4))
        w.push(demo.Entry(seq=seq), state, extras)
        pushed[seq] = bytes(state) + extras
    w.finish(demo.Summary(note=77))
r = demo.SensorLogReader("sensor.log")
got = {e.seq: bytes(s) + x for e, s, x in r}
assert got == pushed
assert r.check() == [], r.issues
for seq in range(0, 125):
    item = r.seek_seq(seq)
    if seq in pushed:
        assert bytes(item[1]) + item[2] == pushed[seq], seq
    else:
        assert item is None, seq
assert r.summary.note == 77 and r.summary.entries == 40 and r.summary.block_count == 7
assert [p.low for p in r.places] == [b.low for b in r.blocks] == [3 * 6 * k + 1 for k in range(7)]
r.close()
print(" ".join(str(s) for s in sorted(pushed)))
print("ok")
"#;

#[test]
fn another_schemas_format_gets_its_own_reader_and_writer() {
    let dir = common::tools::scratch("python_recording/sensor");
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recording/sensor_log.toml");
    let src = std::fs::read_to_string(&fixture).unwrap();
    let schema = abi_codegen::load_schema(&src).unwrap();
    let module = render_python(&schema, "sensor_log.toml").unwrap();
    for word in [
        "bridge",
        "snapshot",
        "ibfrec",
        "tick",
        "recording",
        "chunk_index",
    ] {
        assert!(
            !module.to_lowercase().contains(word),
            "the module says {word:?}"
        );
    }
    std::fs::write(dir.join("demo.py"), module).unwrap();
    let out = python(&dir, "sensor.py", SENSOR, &[], Duration::from_secs(60));
    let seqs: Vec<u64> = (0..40).map(|i| 3 * i + 1).collect();
    let want: Vec<String> = seqs.iter().map(u64::to_string).collect();
    assert_eq!(out, format!("{}\nok\n", want.join(" ")));

    // The inspector reads it through the same schema: whole and strict, then every entry.
    let file = dir.join("sensor.log");
    let schema_arg = fixture.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO"))
            .args([
                "run",
                "-q",
                "-p",
                "abi-codegen",
                "--",
                "inspect",
                "sensor_log",
            ])
            .arg(&file)
            .args(["--schema", schema_arg])
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo runs");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            (out.status.code(), stderr.as_str()),
            (Some(0), ""),
            "{stdout}"
        );
        stdout
    };
    run(&["--strict"]);
    let json: serde_json::Value =
        serde_json::from_str(&run(&["--json", "--strict", "--ticks", "0..=200"])).unwrap();
    assert_eq!(json["issues"], serde_json::json!([]));
    let records = json["records"].as_array().unwrap();
    let keys: Vec<u64> = records.iter().map(|r| r["key"].as_u64().unwrap()).collect();
    assert_eq!(keys, seqs);
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    for (i, kind) in kinds.iter().enumerate() {
        // A block of 6 starts with a plain record, and so does every 4th and every length
        // change (i = 10, 20, 30); the others are XORed.
        let plain = i % 6 == 0 || i % 4 == 0 || i % 10 == 0;
        assert_eq!(*kind, if plain { "whole" } else { "diff" }, "entry {i}");
        assert_eq!(records[i]["decoded"]["value"]["seq"], seqs[i]);
    }
}
