//! The recording core on a small format of its own: write and read back, seek to every key,
//! a dropped writer recovered by the walk, and cut and flipped files that give issues, never
//! a panic. Small enough for Miri.

use std::io::Cursor;

use super::spec::*;
use super::{IssueKind, Reader, Writer, WriterOptions};

const fn f(offset: usize, width: usize) -> Field {
    Field { offset, width }
}

static SPEC: RecordingSpec = RecordingSpec {
    name: "demo",
    header: Part {
        name: "header",
        size: 16,
        expects: &[(f(0, 4), 0x4448_4452)],
    },
    trailer: TrailerSpec {
        part: Part {
            name: "trailer",
            size: 16,
            expects: &[(f(12, 4), 0x4c49_4154)],
        },
        footer_offset: f(0, 8),
    },
    footer: Part {
        name: "footer",
        size: 40,
        expects: &[(f(0, 4), 0x544f_4f46)],
    },
    tables: &[
        TableSpec {
            name: "index",
            size: 16,
            count: f(4, 4),
        },
        TableSpec {
            name: "marks",
            size: 8,
            count: f(8, 4),
        },
    ],
    index: IndexSpec {
        table: 0,
        offset: f(0, 8),
        copies: &[(f(8, 8), f(16, 8))],
    },
    chunk: ChunkSpec {
        part: Part {
            name: "chunk",
            size: 32,
            expects: &[(f(0, 4), 0x4b4e_4843)],
        },
        stored: f(4, 4),
        raw: f(8, 4),
        count: Some(f(12, 4)),
        bounds: Some((f(16, 8), f(24, 8))),
    },
    record: RecordSpec {
        name: "rec",
        size: 24,
        total_size: Some(f(0, 4)),
        data_size: f(4, 4),
        kind: f(8, 1),
        steps: &[(1, Step::Plain), (2, Step::Xor)],
        key: f(16, 8),
        decoded_size: 8,
        same: &[(f(0, 8), f(16, 8))],
    },
    totals: &[
        Total::Sum {
            total: f(16, 8),
            of: f(12, 4),
        },
        Total::Count { total: f(4, 4) },
        Total::First {
            total: f(24, 8),
            of: f(16, 8),
        },
        Total::Last {
            total: f(32, 8),
            of: f(16, 8),
        },
    ],
};

/// Key `k`'s data: the key, then bytes that change a little from key to key, longer every
/// seventh key.
fn data(k: u64) -> Vec<u8> {
    let mut d = k.to_le_bytes().to_vec();
    let extra = if k % 7 == 0 { 12 } else { 20 };
    d.extend((0..extra).map(|i| (i as u64 + k / 3) as u8));
    d
}

fn record(k: u64) -> Vec<u8> {
    let mut r = vec![0; 24];
    r[16..24].copy_from_slice(&k.to_le_bytes());
    r
}

const KEYS: u64 = if cfg!(miri) { 8 } else { 40 };

fn write(finish: bool, options: WriterOptions) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = Writer::create(&SPEC, Cursor::new(&mut out), &[0; 16], options).unwrap();
        for k in 1..=KEYS {
            w.push(&record(k * 2), &data(k * 2)).unwrap();
            if k == 3 {
                w.add_row(1, &k.to_le_bytes()).unwrap();
            }
        }
        if finish {
            w.finish(&[0; 40]).unwrap();
        }
    }
    out
}

/// Each record's struct and decoded data.
type Records = Vec<(Vec<u8>, Vec<u8>)>;

fn replay(bytes: &[u8]) -> (Records, Vec<super::Issue>) {
    let mut r = Reader::open(&SPEC, Cursor::new(bytes)).unwrap();
    let mut got = Vec::new();
    while let Some((h, d)) = r.next_record().unwrap() {
        got.push((h.to_vec(), d.to_vec()));
        assert!(got.len() <= 10_000, "a reader that does not end");
    }
    (got, r.issues().to_vec())
}

#[test]
fn round_trip_with_xor_chains_and_chunks() {
    let mut options = WriterOptions::new(5);
    options.plain_every = Some(3);
    let bytes = write(true, options);
    let (got, issues) = replay(&bytes);
    assert_eq!(issues, vec![]);
    assert_eq!(got.len() as u64, KEYS);
    let mut xors = 0;
    for (k, (h, d)) in (1..=KEYS).zip(&got) {
        assert_eq!(d, &data(k * 2));
        assert_eq!(SPEC.record.key.read(h), Some(k * 2));
        xors += usize::from(h[8] == 2);
    }
    assert!(xors > 0, "no xor record was written");
    let r = Reader::open(&SPEC, Cursor::new(&bytes)).unwrap();
    assert_eq!(r.chunks().len() as u64, KEYS.div_ceil(5));
    assert_eq!(r.table(1), 3u64.to_le_bytes());
    let footer = r.footer().unwrap();
    assert_eq!(
        SPEC.totals[2..]
            .iter()
            .map(|t| match t {
                Total::First { total, .. } | Total::Last { total, .. } => total.read(footer),
                _ => None,
            })
            .collect::<Vec<_>>(),
        [Some(2), Some(KEYS * 2)]
    );
    // Each index row repeats its chunk's first key.
    let index = r.table(0);
    for (k, c) in r.chunks().iter().enumerate() {
        assert_eq!(f(8, 8).read(&index[k * 16..]), c.bounds.map(|b| b.0));
    }
}

#[test]
fn seek_to_every_key_equals_the_replay() {
    let bytes = write(true, WriterOptions::new(4));
    let mut r = Reader::open(&SPEC, Cursor::new(&bytes)).unwrap();
    for k in (0..=KEYS * 2 + 1).rev() {
        r.seek(k).unwrap();
        let want = if k > KEYS * 2 {
            None
        } else {
            Some(k.div_ceil(2).max(1) * 2)
        };
        let got = r.next_record().unwrap().map(|(h, d)| {
            assert_eq!(d, data(SPEC.record.key.read(h).unwrap()));
            SPEC.record.key.read(h).unwrap()
        });
        assert_eq!(got, want, "seek {k}");
    }
    assert_eq!(r.issues(), &[]);
}

#[test]
fn a_dropped_writer_is_recovered_by_the_walk() {
    let bytes = write(false, WriterOptions::new(6));
    let (got, issues) = replay(&bytes);
    assert_eq!(got.len() as u64, KEYS);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind, IssueKind::Trailer);
}

#[test]
fn a_cut_file_gives_issues_and_what_it_holds() {
    let bytes = write(true, WriterOptions::new(4));
    let step = if cfg!(miri) { 97 } else { 1 };
    for len in (0..bytes.len()).step_by(step) {
        let (got, issues) = replay(&bytes[..len]);
        assert!(!issues.is_empty(), "cut at {len}: no issue");
        for (k, (_, d)) in (1..).zip(&got) {
            assert_eq!(d, &data(k * 2), "cut at {len}");
        }
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let bytes = write(true, WriterOptions::new(4));
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let cases = if cfg!(miri) { 3 } else { 300 };
    let mut noticed = 0;
    for _ in 0..cases {
        let mut b = bytes.clone();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let at = (seed % b.len() as u64) as usize;
        b[at] ^= 1 << (seed >> 60 & 7);
        let (_, issues) = replay(&b);
        noticed += usize::from(!issues.is_empty());
    }
    assert!(
        noticed > cases / 2,
        "only {noticed} of {cases} flips noticed"
    );
}

#[test]
fn an_index_row_or_a_total_that_disagrees_is_an_issue() {
    let bytes = write(true, WriterOptions::new(4));
    let r = Reader::open(&SPEC, Cursor::new(&bytes)).unwrap();
    let footer_at = r.chunks().last().unwrap().end() as usize;
    // The footer's last key, then the second index row's first key.
    for (at, kind) in [
        (footer_at + 32, IssueKind::Total),
        (footer_at + 40 + 16 + 8, IssueKind::Footer),
    ] {
        let mut b = bytes.clone();
        b[at] ^= 1;
        let (got, issues) = replay(&b);
        assert_eq!(got.len() as u64, KEYS);
        assert_eq!(
            issues.iter().map(|i| i.kind).collect::<Vec<_>>(),
            [kind],
            "{issues:?}"
        );
    }
}

#[test]
fn the_writer_refuses_keys_out_of_order_and_wrong_sizes() {
    let mut w = Writer::create(&SPEC, Vec::new(), &[0; 16], WriterOptions::new(4)).unwrap();
    w.push(&record(5), &data(5)).unwrap();
    assert!(w.push(&record(5), &data(5)).is_err());
    assert!(w.push(&record(6)[..20], &data(6)).is_err());
    assert!(w.add_row(0, &[0; 8]).is_err());
    assert!(Writer::create(&SPEC, Vec::new(), &[0; 15], WriterOptions::new(4)).is_err());
}

/// A stream that inflates to many growth steps is inflated whole (the memory grows as it
/// inflates, and each call inflates into what is there).
#[test]
fn a_chunk_larger_than_the_first_reservation_inflates_whole() {
    use super::core::{ChunkInfo, DecodedChunk, decode_chunk};
    use flate2::{Compression, write::ZlibEncoder};
    use std::io::Write;
    // Past two growth steps (4 KiB, then 8 KiB) under Miri, past four (1 MiB) otherwise.
    let len = if cfg!(miri) { 10_000 } else { (1 << 20) + 5 };
    let raw: Vec<u8> = (0..len).map(|i: u32| (i % 251) as u8).collect();
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(&raw).unwrap();
    let stored = z.finish().unwrap();
    let info = ChunkInfo {
        offset: 16,
        header: vec![0; 32],
        stored: stored.len() as u64,
        raw: raw.len() as u64,
        count: None,
        bounds: None,
    };
    let mut out = DecodedChunk::default();
    let mut issues = Vec::new();
    decode_chunk(&SPEC, &info, &stored, None, &mut out, &mut issues);
    assert!(
        issues.iter().all(|i| i.kind != IssueKind::Inflate),
        "{issues:?}"
    );
    assert_eq!(out.bytes.len(), raw.len());
}

/// Issue 37: a chunk's header says how many bytes its stream inflates to, up to 1032 times
/// its stored bytes (256 MiB at most); a garbage stream must not get that much memory
/// reserved. 254 KiB of garbage claiming 256 MiB - 16 KiB reserve at most what the stream
/// inflated before it failed, rounded up to one growth step (the whole claim was reserved).
#[test]
fn a_garbage_chunk_reserves_what_it_inflates_to_not_what_it_claims() {
    use super::core::{ChunkInfo, DecodedChunk, decode_chunk};
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    // Under Miri (a thousand times slower) 16 KiB claiming 16.5 MB: the reservation is
    // still what the stream inflates to, not the claim.
    let len = if cfg!(miri) { 16 << 10 } else { 254 << 10 };
    let mut stored: Vec<u8> = (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    // A zlib header (deflate, 32 KiB window), so the garbage is inflated until it fails.
    stored[..2].copy_from_slice(&[0x78, 0x9c]);
    let raw = raw_cap(stored.len() as u64);
    assert!(raw > len as u64 * 1000, "the claim: {raw}");
    assert!(cfg!(miri) || raw > 255 << 20, "the claim: {raw}");
    let info = ChunkInfo {
        offset: 16,
        header: vec![0; 32],
        stored: stored.len() as u64,
        raw,
        count: None,
        bounds: None,
    };
    let mut out = DecodedChunk::default();
    let mut issues = Vec::new();
    decode_chunk(&SPEC, &info, &stored, None, &mut out, &mut issues);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind, IssueKind::Inflate, "{issues:?}");
    let reserved = out.bytes.capacity();
    assert!(
        reserved <= 1 << 20,
        "{reserved} bytes reserved for a garbage chunk"
    );
}
