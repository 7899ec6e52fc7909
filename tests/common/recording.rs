//! `.ibfrec` recordings built with the generated Rust types and flate2, for the inspect
//! tests: each tick's snapshot and extras ([`tick_data`]), encoded as the recorder does (a
//! keyframe as is, a delta XORed with the tick before it in its chunk), chunks of zlib
//! streams, the footer with its index and marks, the trailer. Every offset is computed from
//! the records written, none by hand; tests change a field and write the file again.

use std::io::Write as _;

use bridge_abi::*;
use flate2::Compression;
use flate2::write::ZlibEncoder;
use zerocopy::IntoBytes;

pub fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

/// Bytes of extras after tick `t`'s snapshot: 32, and none every fifth tick.
pub fn extras_len(t: u64) -> usize {
    if t % 5 == 0 { 0 } else { 32 }
}

/// Tick `t`'s decoded data, as the host published it: a snapshot whose header names the
/// tick (frame `2t`, size the whole data), some game state that changes from tick to tick,
/// then [`extras_len`] bytes of extras.
pub fn tick_data(t: u64) -> Vec<u8> {
    let mut s = Snapshot::default();
    s.header.magic = SNAPSHOT_MAGIC;
    s.header.schema_minor = 9;
    s.header.tick = t;
    s.header.frame = t * 2;
    s.event_total = t * 3 + 1;
    s.ship_count = (t % 4) as u8;
    for (i, ship) in s.ships.iter_mut().enumerate().take(s.ship_count as usize) {
        ship.reload_progress = t as f32 + i as f32;
    }
    let mut data = s.as_bytes().to_vec();
    data.extend((0..extras_len(t)).map(|i| (i as u64 * 7 + t) as u8));
    let size = data.len() as u32;
    data[8..12].copy_from_slice(&size.to_le_bytes());
    data
}

/// One tick record as stored: its header and its data (encoded).
#[derive(Clone)]
pub struct Tick {
    pub header: RecTickHeader,
    pub data: Vec<u8>,
}

impl Tick {
    /// A record of `kind` holding `data` as stored.
    pub fn new(tick: u64, kind: RecRecordKind, data: Vec<u8>) -> Tick {
        let mut h = RecTickHeader {
            data_size: data.len() as u32,
            kind,
            tick,
            frame: tick * 2,
            host_time_ns: tick * 16_666_667,
            ..Default::default()
        };
        h.size = (h.as_bytes().len() + data.len()) as u32;
        h.pads[0].source = RecPadSource::BOT;
        h.pads[0].for_tick = tick;
        Tick { header: h, data }
    }

    pub fn bytes(&self) -> Vec<u8> {
        let mut out = self.header.as_bytes().to_vec();
        out.extend(&self.data);
        out
    }
}

pub fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// One chunk's ticks, encoded as the recorder does: a keyframe first, every third tick and
/// whenever the data's length changes; a delta otherwise.
pub fn encode(ticks: &[u64]) -> Vec<Tick> {
    let mut prev: Option<Vec<u8>> = None;
    ticks
        .iter()
        .map(|&t| {
            let data = tick_data(t);
            let tick = match &prev {
                Some(p) if t % 3 != 0 && p.len() == data.len() => {
                    Tick::new(t, RecRecordKind::DELTA, xor(p, &data))
                }
                _ => Tick::new(t, RecRecordKind::KEYFRAME, data.clone()),
            };
            prev = Some(data);
            tick
        })
        .collect()
}

/// A recording's records, as the recorder would write them; [`Recording::bytes`] lays them
/// out in order.
pub struct Recording {
    pub header: RecFileHeader,
    pub chunks: Vec<(RecChunkHeader, Vec<u8>)>,
    pub footer: RecFooter,
    pub entries: Vec<RecChunkEntry>,
    pub marks: Vec<RecMark>,
    pub trailer: RecTrailer,
}

impl Recording {
    /// One chunk per list of ticks, encoded by [`encode`].
    pub fn new(chunks: &[&[u64]]) -> Recording {
        Recording::of(chunks.iter().map(|c| encode(c)).collect())
    }

    /// One chunk per list of tick records, as given.
    pub fn of(chunks: Vec<Vec<Tick>>) -> Recording {
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
        for ticks in &chunks {
            let raw: Vec<u8> = ticks.iter().flat_map(Tick::bytes).collect();
            let stream = zlib(&raw);
            let h = RecChunkHeader {
                magic: REC_CHUNK_MAGIC,
                stored_size: stream.len() as u32,
                raw_size: raw.len() as u32,
                tick_count: ticks.len() as u32,
                first_tick: ticks[0].header.tick,
                last_tick: ticks.last().unwrap().header.tick,
            };
            entries.push(RecChunkEntry {
                offset: at,
                first_tick: h.first_tick,
                last_tick: h.last_tick,
            });
            at += (h.as_bytes().len() + stream.len()) as u64;
            out.push((h, stream));
        }
        let first = chunks[0][0].header.tick;
        let marks = vec![
            RecMark {
                tick: first,
                kind: EventKind::MATCH_STARTED,
                a: 0,
                ..Default::default()
            },
            RecMark {
                tick: chunks[0].get(1).map_or(first, |t| t.header.tick),
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
            first_tick: first,
            last_tick: chunks.last().unwrap().last().unwrap().header.tick,
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

    pub fn three() -> Recording {
        Recording::new(&[&[1, 2, 3, 4], &[5, 6, 7], &[9, 10, 11, 12, 13]])
    }

    /// The bytes before the footer: the header and the chunks.
    pub fn body(&self) -> Vec<u8> {
        let mut out = self.header.as_bytes().to_vec();
        for (h, stream) in &self.chunks {
            out.extend(h.as_bytes());
            out.extend(stream);
        }
        out
    }

    pub fn bytes(&self) -> Vec<u8> {
        let mut out = self.body();
        out.extend(self.footer.as_bytes());
        out.extend(self.entries.as_bytes());
        out.extend(self.marks.as_bytes());
        out.extend(self.trailer.as_bytes());
        out
    }

    /// After a chunk's stream changed length: the entries and the trailer follow it.
    pub fn footer_fix(&mut self) {
        let mut at = self.header.as_bytes().len() as u64;
        for (e, (h, s)) in self.entries.iter_mut().zip(&self.chunks) {
            e.offset = at;
            at += (h.as_bytes().len() + s.len()) as u64;
        }
        self.trailer.footer_offset = at;
    }
}
