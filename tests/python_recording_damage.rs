//! The Python module's recording reader on damaged files (issue 27): cut at every record
//! boundary and at random lengths, bytes flipped (seeded, a few hundred cases): issues or
//! `FileFormatError`, never another exception or a hang, and every tick still handed out is
//! the tick written; a zlib bomb and a raw size past the cap, never inflated whole; each
//! check fired by a crafted file, with its message.
//!
//! Every test fails, never skips, when python3 is missing.

use crate::common;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use abi_codegen::testing::inspect::{find_file, seek_records};
use bridge_abi::*;
use common::python_recording::{PRELUDE, module_dir, python, recording, write_expected};
use common::recording::{Recording, tick_data, zlib};
use common::rng::Rng;
use zerocopy::IntoBytes;

/// Runs the reader over every case of `cases.txt` (`cut N` or `flip AT XOR ...`) applied to
/// `sys.argv[1]`, each under an alarm: it must raise FileFormatError or finish, iterating,
/// seeking and reading every record; anything else (another exception, a hang) is listed.
/// Prints the counts and the failures.
const CORRUPT: &str = r#"
import signal
import traceback


class Hang(Exception):
    pass


def alarm(*_):
    raise Hang()


signal.signal(signal.SIGALRM, alarm)
with open(sys.argv[1], "rb") as f:
    good = f.read()
with open(sys.argv[2]) as f:
    cases = [line.split() for line in f if line.strip()]
raised = flagged = clean = 0
cut_clean = []
failures = []
wrong = []
want = expected(sys.argv[3])
for case in cases:
    data = bytearray(good)
    if case[0] == "cut":
        data = data[:int(case[1])]
    else:
        for at, x in zip(case[1::2], case[2::2]):
            data[int(at)] ^= int(x)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        try:
            r = bridge.IbfrecReader(bytes(data))
        except bridge.FileFormatError:
            raised += 1
            continue
        ticks = []
        for item in r:
            t = item[0].tick
            # Every stream is behind its adler-32: what is handed out is what was written.
            if whole(item)[1] != want.get(t):
                wrong.append("%s: tick %d is not the tick written" % (" ".join(case), t))
            ticks.append(t)
        for t in ticks[:3] + ticks[-3:] + [0, 2**64 - 1]:
            item = r.seek_tick(t)
            if item is not None and whole(item)[1] != want.get(item[0].tick):
                wrong.append("%s: seek_tick(%d) is not the tick written" % (" ".join(case), t))
        r.header, r.trailer, r.footer, r.chunk_index, r.marks, r.chunks
        print("keys", " ".join(case), ":", " ".join(map(str, ticks)))
        r.check()
        assert all(isinstance(i, bridge.FileIssue) for i in r.issues)
        if r.issues:
            flagged += 1
        else:
            clean += 1
            if case[0] == "cut":
                cut_clean.append(case[1])
    except Hang:
        failures.append("%s: hung" % " ".join(case))
    except Exception:
        failures.append("%s: %s" % (" ".join(case), traceback.format_exc()))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
print("cases", len(cases), "raised", raised, "flagged", flagged, "clean", clean)
print("cut_clean", " ".join(cut_clean))
for f in failures + wrong:
    print("FAIL", f)
print("ok")
"#;

#[test]
fn cut_flipped_and_hostile_files_give_issues_or_the_documented_error_only() {
    let dir = module_dir("corrupt");
    let r = recording(&[
        vec![1, 2, 3, 4, 5, 6],
        vec![7, 8, 9, 10],
        vec![12, 13, 14, 15, 16],
    ]);
    let bytes = r.bytes();
    std::fs::write(dir.join("good.ibfrec"), &bytes).unwrap();
    write_expected(
        &dir.join("expected.bin"),
        &(1..=16).filter(|t| *t != 11).collect::<Vec<_>>(),
    );
    // Every record boundary of the file, then random lengths.
    let mut cuts = vec![0, r.header.as_bytes().len()];
    let mut at = r.header.as_bytes().len();
    for (h, stream) in &r.chunks {
        at += h.as_bytes().len();
        cuts.push(at);
        at += stream.len();
        cuts.push(at);
    }
    let footer_at = at;
    at += r.footer.as_bytes().len();
    cuts.push(at);
    for e in &r.entries {
        at += e.as_bytes().len();
        cuts.push(at);
    }
    for m in &r.marks {
        at += m.as_bytes().len();
        cuts.push(at);
    }
    assert_eq!(at + 16, bytes.len());
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..120 {
        cuts.push(rng.below(bytes.len() as u64) as usize);
    }
    let mut cases = String::new();
    for c in &cuts {
        let _ = writeln!(cases, "cut {c}");
    }
    // Flips: anywhere, and in the records outside the streams, where the checks are.
    let outside: Vec<usize> = (0..512).chain(footer_at..bytes.len()).collect();
    for i in 0..300 {
        let mut line = String::from("flip");
        for _ in 0..=rng.below(3) {
            let pos = if i % 2 == 0 {
                rng.below(bytes.len() as u64) as usize
            } else {
                outside[rng.below(outside.len() as u64) as usize]
            };
            let _ = write!(line, " {pos} {}", 1 + rng.below(255));
        }
        let _ = writeln!(cases, "{line}");
    }
    std::fs::write(dir.join("cases.txt"), cases).unwrap();
    let script = format!("{PRELUDE}{CORRUPT}");
    let start = Instant::now();
    let out = python(
        &dir,
        "corrupt.py",
        &script,
        &["good.ibfrec", "cases.txt", "expected.bin"],
        Duration::from_secs(120),
    );
    let took = start.elapsed();
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(fails.is_empty(), "{out}");
    // Every file the reader opened hands out the ticks the inspector decodes from it.
    let schema = common::bridge_schema();
    let format = find_file(&schema, "ibfrec").unwrap();
    let mut compared = 0;
    let mut differ = Vec::new();
    for line in out.lines().filter_map(|l| l.strip_prefix("keys ")) {
        let (case, keys) = line
            .split_once(" : ")
            .unwrap_or((line.trim_end_matches(" :"), ""));
        let words: Vec<usize> = case
            .split(' ')
            .skip(1)
            .map(|w| w.parse().unwrap())
            .collect();
        let mut damaged = bytes.clone();
        if case.starts_with("cut") {
            damaged.truncate(words[0]);
        } else {
            for pair in words.chunks(2) {
                damaged[pair[0]] ^= pair[1] as u8;
            }
        }
        let mut inspected = Vec::new();
        seek_records(
            &schema,
            format,
            &damaged.as_slice(),
            (0, u64::MAX),
            &mut |d| inspected.push(d.key.to_string()),
        )
        .unwrap();
        // A cut file: the same ticks (each stream's whole records, up to the cut). A flipped
        // one: the reader drops a stream that does not inflate whole (its adler-32 fails),
        // where the inspector shows what inflated before the error; never a tick more.
        let same = if case.starts_with("cut") {
            inspected.join(" ") == keys
        } else {
            (keys.split(' ').filter(|k| !k.is_empty())).all(|k| inspected.iter().any(|i| i == k))
        };
        if !same {
            differ.push(format!(
                "{case}: python [{keys}], inspect [{}]",
                inspected.join(" ")
            ));
        }
        compared += 1;
    }
    assert!(
        differ.is_empty(),
        "{compared} compared, {} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    let out: String = out
        .lines()
        .filter(|l| !l.starts_with("keys "))
        .map(|l| format!("{l}\n"))
        .collect();
    // A file cut short is never read as whole: each cut gives an issue or the error.
    assert_eq!(out.lines().nth(1), Some("cut_clean "), "{out}");
    let counts: Vec<u64> = out
        .lines()
        .next()
        .unwrap()
        .split(' ')
        .filter_map(|w| w.parse().ok())
        .collect();
    let [cases, raised, flagged, clean] = counts[..] else {
        panic!("{out}")
    };
    assert_eq!(cases as usize, cuts.len() + 300);
    assert_eq!(raised + flagged + clean, cases);
    assert!(raised > 0 && flagged > 200, "{out}");
    eprintln!("{out}{cases} cases in {took:?}");
}

/// A chunk whose stream inflates to 16 MiB of zeros while its header says a few KiB, and one
/// whose raw size is past the reader's cap: issues, and the reader's memory stays far below
/// the stream's size (tracemalloc's peak).
const BOMB: &str = r#"
import tracemalloc
tracemalloc.start()
r = bridge.IbfrecReader(sys.argv[1])
ticks = [x[0].tick for x in r]
peak = tracemalloc.get_traced_memory()[1]
r.close()
print("ticks", " ".join(map(str, ticks)))
print("peak_under_4MiB", peak < 4 << 20, peak)
for i in r.issues:
    print("issue", i)
print("ok")
"#;

#[test]
fn a_stream_that_inflates_past_its_raw_size_is_never_inflated_whole() {
    let dir = module_dir("bomb");
    let mut r = recording(&[vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]]);
    let bomb = zlib(&vec![0u8; 16 << 20]);
    r.chunks[0].0.stored_size = bomb.len() as u32;
    r.chunks[0].1 = bomb;
    r.chunks[2].0.raw_size = u32::MAX;
    r.footer_fix();
    std::fs::write(dir.join("bomb.ibfrec"), r.bytes()).unwrap();
    let script = format!("{PRELUDE}{BOMB}");
    let out = python(
        &dir,
        "bomb.py",
        &script,
        &["bomb.ibfrec"],
        Duration::from_secs(60),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "ticks 4 5 6", "{out}");
    assert!(lines[1].starts_with("peak_under_4MiB True"), "{out}");
    assert!(
        out.contains("issue chunks[0] @") && out.contains("inflates past its raw size"),
        "{out}"
    );
    assert!(
        out.contains("issue chunks[2] @") && out.contains("past the largest this reader inflates"),
        "{out}"
    );
}

/// Replays each file named on the command line and prints its issues, a line each, after
/// a line `== FILE`.
const ISSUES: &str = r#"
for path in sys.argv[1:]:
    print("==", path)
    with bridge.IbfrecReader(path) as r:
        for i in r.check():
            print(i)
print("ok")
"#;

/// Crafted recordings, one per check, and what the reader must say of each.
#[test]
fn each_check_of_the_reader_fires_on_a_crafted_file() {
    use common::recording::{Tick, xor};
    let dir = module_dir("checks");
    let chunks = || vec![vec![1, 2, 3, 4], vec![5, 6, 7], vec![9, 10, 11, 12, 13]];
    let key = |t| Tick::new(t, RecRecordKind::KEYFRAME, tick_data(t));
    let one = |ticks: Vec<Tick>| Recording::of(vec![ticks]);
    let mut unmagic = tick_data(2);
    unmagic[..4].fill(0);
    let delta_first = vec![Tick::new(1, RecRecordKind::DELTA, tick_data(1)), key(2)];
    let delta_length = vec![
        key(5),
        Tick::new(6, RecRecordKind::DELTA, xor(&tick_data(5), &tick_data(6))),
        Tick::new(7, RecRecordKind::DELTA, tick_data(7)),
    ];
    let mut files: Vec<(&str, Recording, String)> =
        vec![
        (
            "delta_first",
            one(delta_first),
            "ticks[0][0] @0x0: encoded against the record before it, and none decoded before it"
                .into(),
        ),
        (
            "delta_length",
            one(delta_length),
            format!(
                "data of {} bytes encoded against {} bytes before it",
                tick_data(7).len(),
                tick_data(5).len()
            ),
        ),
        (
            "same",
            one(vec![key(1), Tick::new(4, RecRecordKind::KEYFRAME, tick_data(3))]),
            "header.tick = tick does not hold: header.tick is 3, tick is 4".into(),
        ),
        (
            "kind",
            one(vec![key(1), Tick::new(2, RecRecordKind(9), tick_data(2))]),
            "kind 9 is not one the format lists".into(),
        ),
        (
            "magic",
            one(vec![key(1), Tick::new(2, RecRecordKind::KEYFRAME, unmagic)]),
            format!(
                "ticks[0][1] @0x{:x}: the decoded struct does not hold its expected values",
                136 + tick_data(1).len()
            ),
        ),
    ];
    let mut r = recording(&chunks());
    r.footer.ticks += 1;
    let total = format!(
        "footer.ticks @0x{:x}: holds 13, but chunks.tick_count sums to 12",
        r.trailer.footer_offset + 16
    );
    files.push(("total", r, total));
    let mut r = recording(&chunks());
    let first = r.entries[0].offset;
    r.entries[2].offset = first;
    files.push(("overlap", r, "overlaps chunks[0]".into()));
    let mut r = recording(&chunks());
    r.chunks[1].0.first_tick = 99;
    files.push((
        "bounds",
        r,
        "its first key says 99, its records start with 5".into(),
    ));
    let mut r = recording(&chunks());
    r.chunks[1].0.tick_count = 2;
    r.footer.ticks -= 1;
    let after = format!(
        "ticks[1] @0x{:x}: {} bytes after the last record of the stream",
        (136 + tick_data(5).len()) + (136 + tick_data(6).len()),
        136 + tick_data(7).len()
    );
    files.push(("count", r, after));
    let mut r = recording(&chunks());
    r.chunks[2].0.raw_size -= 1;
    files.push(("raw", r, "its stream inflates past its raw size".into()));
    let mut r = recording(&chunks());
    r.chunks.swap(0, 1);
    r.footer_fix();
    let order = format!(
        "chunks[1] @0x{:x}: tick 1 follows 7: out of order",
        r.entries[1].offset
    );
    files.push(("order", r, order));
    let mut args = Vec::new();
    for (name, r, _) in &files {
        let file = format!("{name}.ibfrec");
        std::fs::write(dir.join(&file), r.bytes()).unwrap();
        args.push(file);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let script = format!("{PRELUDE}{ISSUES}");
    let out = python(&dir, "issues.py", &script, &args, Duration::from_secs(60));
    for (name, _, want) in &files {
        let section = out
            .split(&format!("== {name}.ibfrec\n"))
            .nth(1)
            .unwrap()
            .split("\n==")
            .next()
            .unwrap();
        assert!(section.contains(want), "{name}: want {want:?}\n{section}");
    }
    // And the untouched recording has none.
    std::fs::write(dir.join("good.ibfrec"), recording(&chunks()).bytes()).unwrap();
    let out = python(
        &dir,
        "issues.py",
        &script,
        &["good.ibfrec"],
        Duration::from_secs(60),
    );
    assert_eq!(out, "== good.ibfrec\nok\n");
}

/// An index that names one chunk 20000 times: the reader reports the overlaps, inflates
/// the chunk once and hands out its ticks once.
const REPEATED: &str = r#"
inflations = [0]
real = bridge._zlib.decompressobj


def counting():
    inflations[0] += 1
    return real()


bridge._zlib.decompressobj = counting
with bridge.IbfrecReader(sys.argv[1]) as r:
    ticks = [x[0].tick for x in r]
    print("entries", len(r.chunk_index), "ticks", ticks, "inflated", inflations[0])
    print("overlaps", sum("overlaps chunks[0]" in i.message for i in r.issues))
print("ok")
"#;

#[test]
fn an_index_that_names_one_chunk_many_times_gets_it_inflated_once() {
    let dir = module_dir("repeated");
    let mut r = recording(&[vec![1, 2, 3]]);
    let entry = r.entries[0];
    r.entries = vec![entry; 20_000];
    r.footer.chunk_count = 20_000;
    r.footer.ticks = 60_000;
    std::fs::write(dir.join("repeated.ibfrec"), r.bytes()).unwrap();
    let script = format!("{PRELUDE}{REPEATED}");
    let start = Instant::now();
    let out = python(
        &dir,
        "repeated.py",
        &script,
        &["repeated.ibfrec"],
        Duration::from_secs(60),
    );
    assert_eq!(
        out,
        "entries 20000 ticks [1, 2, 3] inflated 1\noverlaps 19999\nok\n",
        "after {:?}",
        start.elapsed()
    );
}
