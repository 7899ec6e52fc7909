//! The reader core: no I/O. Given the bytes a driver read, it checks a header, finds the
//! footer from the trailer, lays out the tables after the footer, parses a chunk's header
//! (every length against the bytes the file has, the inflated size capped), and inflates and
//! decodes one chunk: plain and xor records, restarting at each chunk, with the decoded
//! struct's `same` checks. Problems become [`Issue`]s, never panics.

use flate2::{Decompress, FlushDecompress, Status};

use super::issue::{Issue, IssueKind};
use super::spec::{Part, RecordingSpec, Step, raw_cap};

/// Checks `bytes` (at `offset`) against `part`: long enough, every expected field as
/// expected.
pub fn check_part(part: &Part, bytes: &[u8], offset: u64, kind: IssueKind) -> Result<(), Issue> {
    if bytes.len() < part.size {
        let message = format!(
            "{}: {} bytes are there, short of its {}",
            part.name,
            bytes.len(),
            part.size
        );
        return Err(Issue::new(kind, offset, message));
    }
    for (field, want) in part.expects {
        let got = field.read(bytes);
        if got != Some(*want) {
            let message = format!(
                "{}: the field at +{} holds {:#x}, not {want:#x}",
                part.name,
                field.offset,
                got.unwrap_or(0)
            );
            return Err(Issue::new(kind, offset, message));
        }
    }
    Ok(())
}

/// Whether `bytes` hold a copy of `part` (long enough, every expected field as expected).
pub fn is_part(part: &Part, bytes: &[u8]) -> bool {
    check_part(part, bytes, 0, IssueKind::Header).is_ok()
}

/// The footer's offset, from the trailer (`bytes`, the file's last bytes) of a file of
/// `len` bytes: it must leave room for the header before it and itself before the trailer.
pub fn footer_offset(spec: &RecordingSpec, bytes: &[u8], len: u64) -> Result<u64, Issue> {
    let t = &spec.trailer;
    let at = len.saturating_sub(t.part.size as u64);
    check_part(&t.part, bytes, at, IssueKind::Trailer)?;
    let offset = t.footer_offset.read(bytes).unwrap_or(u64::MAX);
    let fits = offset >= spec.header.size as u64
        && offset
            .checked_add(spec.footer.size as u64)
            .is_some_and(|end| end <= at);
    if fits {
        Ok(offset)
    } else {
        let message = format!("the footer's offset {offset:#x} is outside the file ({len} bytes)");
        Err(Issue::new(IssueKind::Trailer, at, message))
    }
}

/// Where each table after the footer sits and how many rows it holds: `(offset, rows)`.
/// Every table must end before `end` (the trailer's offset).
pub fn lay_out_tables(
    spec: &RecordingSpec,
    footer: &[u8],
    footer_at: u64,
    end: u64,
) -> Result<Vec<(u64, u64)>, Issue> {
    check_part(&spec.footer, footer, footer_at, IssueKind::Footer)?;
    let mut at = footer_at + spec.footer.size as u64;
    let mut out = Vec::with_capacity(spec.tables.len());
    for t in spec.tables {
        let rows = t.count.read(footer).unwrap_or(u64::MAX);
        let bytes = rows.checked_mul(t.size as u64);
        let table_end = bytes.and_then(|b| at.checked_add(b));
        match table_end {
            Some(e) if e <= end => {
                out.push((at, rows));
                at = e;
            }
            _ => {
                let message = format!(
                    "{}: {rows} rows of {} bytes at {at:#x} run past the trailer at {end:#x}",
                    t.name, t.size
                );
                return Err(Issue::new(IssueKind::Footer, footer_at, message));
            }
        }
    }
    if at != end {
        let message = format!("{} bytes between the last table and the trailer", end - at);
        return Err(Issue::new(IssueKind::Footer, footer_at, message));
    }
    Ok(out)
}

/// A chunk found in the file: where it is and what its header says, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Of its header, from the file's start.
    pub offset: u64,
    /// Its header's bytes.
    pub header: Vec<u8>,
    /// Bytes of its zlib stream (they follow the header).
    pub stored: u64,
    /// Bytes it inflates to (at most [`raw_cap`] of `stored`).
    pub raw: u64,
    /// Records it holds, when the spec names the field.
    pub count: Option<u64>,
    /// The first and last key of its records, when the spec names the fields.
    pub bounds: Option<(u64, u64)>,
}

impl ChunkInfo {
    /// Where its stream starts.
    pub fn stream_offset(&self) -> u64 {
        self.offset + self.header.len() as u64
    }

    /// Where the next chunk would start.
    pub fn end(&self) -> u64 {
        self.stream_offset() + self.stored
    }

    /// Whether its bounds say it may hold `key` (or it has none).
    pub fn may_hold(&self, key: u64) -> bool {
        self.bounds
            .is_none_or(|(first, last)| first <= key && key <= last)
    }
}

/// Parses the chunk header `bytes` found at `offset`; its stream must end by `end`.
pub fn parse_chunk_header(
    spec: &RecordingSpec,
    bytes: &[u8],
    offset: u64,
    end: u64,
) -> Result<ChunkInfo, Issue> {
    let c = &spec.chunk;
    check_part(&c.part, bytes, offset, IssueKind::Chunk)?;
    let header = bytes[..c.part.size].to_vec();
    let read = |f: super::spec::Field| f.read(&header).unwrap_or(0);
    let stored = read(c.stored);
    let raw = read(c.raw);
    let stream = offset + c.part.size as u64;
    if stream.checked_add(stored).is_none_or(|e| e > end) {
        let message = format!(
            "its stream of {stored} bytes at {stream:#x} runs past {end:#x}, where the chunks end"
        );
        return Err(Issue::new(IssueKind::Chunk, offset, message));
    }
    if raw > raw_cap(stored) {
        let message = format!(
            "it says its {stored} bytes inflate to {raw}: more than the {} a stream that long can (or the reader allows)",
            raw_cap(stored)
        );
        return Err(Issue::new(IssueKind::Chunk, offset, message));
    }
    let bounds = c.bounds.map(|(f, l)| (read(f), read(l)));
    let count = c.count.map(read);
    if let Some((first, last)) = bounds
        && first > last
    {
        let message = format!("its first key {first} is after its last {last}");
        return Err(Issue::new(IssueKind::Chunk, offset, message));
    }
    Ok(ChunkInfo {
        offset,
        header,
        stored,
        raw,
        count,
        bounds,
    })
}

/// One decoded record of a chunk: where its struct and its decoded data sit in
/// [`DecodedChunk::bytes`], and its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordAt {
    /// Of the record's struct.
    pub at: usize,
    /// Of its decoded data (right after the struct).
    pub data: usize,
    /// Bytes of decoded data.
    pub len: usize,
    /// Its key.
    pub key: u64,
}

/// A chunk inflated, with every record's data decoded in place.
#[derive(Debug, Default)]
pub struct DecodedChunk {
    /// The inflated bytes, each record's data decoded (so memory is the chunk's raw size).
    pub bytes: Vec<u8>,
    /// The records that decoded, in order.
    pub records: Vec<RecordAt>,
}

impl DecodedChunk {
    /// Record `i`'s struct bytes and decoded data.
    pub fn record(&self, i: usize, struct_size: usize) -> Option<(&[u8], &[u8])> {
        let r = self.records.get(i)?;
        Some((
            &self.bytes[r.at..r.at + struct_size],
            &self.bytes[r.data..r.data + r.len],
        ))
    }
}

/// Why a stream is not exactly a complete stream of `raw` bytes that uses all of `stored`.
struct InflateError {
    message: String,
    /// Whether the bytes inflated can be trusted: only when the stream ended with its
    /// checksum verified. A damaged stream inflates to garbage before its checksum fails,
    /// and one cut short was never checked.
    keep: bool,
}

impl InflateError {
    /// A stream that ended with its checksum verified, but not as its header says.
    fn kept(message: String) -> Self {
        InflateError {
            message,
            keep: true,
        }
    }
}

impl From<String> for InflateError {
    fn from(message: String) -> Self {
        InflateError {
            message,
            keep: false,
        }
    }
}

/// The first bytes reserved for a chunk's inflated bytes, and the least each growth adds.
/// The memory grows with what the stream really inflates to (doubling, up to its header's
/// raw size and one byte): a chunk's header cannot reserve more than that by its word alone.
/// (4 KiB under Miri, whose tests then grow through the same steps with a sixteenth of the
/// bytes: inflating 150 KB was a third of the Miri step's run.)
const INFLATE_STEP: usize = if cfg!(miri) { 4 << 10 } else { 64 << 10 };

/// Inflates `stored` into at most `raw` bytes (what was inflated is kept in `out`), `out`
/// growing as the stream inflates.
fn inflate(stored: &[u8], raw: u64, out: &mut Vec<u8>) -> Result<(), InflateError> {
    out.clear();
    // raw <= raw_cap(stored) <= MAX_RAW was checked by parse_chunk_header: a usize.
    let limit = usize::try_from(raw).unwrap_or(usize::MAX).saturating_add(1);
    let mut z = Decompress::new(true);
    loop {
        if out.len() == out.capacity() {
            // out.len() <= raw < limit: room to grow.
            let more = out.len().max(INFLATE_STEP).min(limit - out.len());
            out.reserve_exact(more);
        }
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let result = z.decompress_vec(&stored[in_before as usize..], out, FlushDecompress::None);
        if out.len() as u64 > raw {
            out.truncate(raw as usize);
            return Err(InflateError::from(format!(
                "it inflates to more than the {raw} bytes its header says"
            )));
        }
        match result {
            Ok(Status::StreamEnd)
                if z.total_in() as usize == stored.len() && out.len() as u64 == raw =>
            {
                return Ok(());
            }
            Ok(Status::StreamEnd) if out.len() as u64 != raw => {
                return Err(InflateError::kept(format!(
                    "it inflates to {} bytes, not the {raw} its header says",
                    out.len()
                )));
            }
            Ok(Status::StreamEnd) => {
                let extra = stored.len() - z.total_in() as usize;
                return Err(InflateError::kept(format!(
                    "{extra} bytes follow the end of its zlib stream"
                )));
            }
            Err(e) => {
                return Err(InflateError {
                    message: format!("its zlib stream is damaged ({e})"),
                    keep: false,
                });
            }
            Ok(_) if z.total_in() == in_before && z.total_out() == out_before => {
                return Err(InflateError::from(format!(
                    "its zlib stream ends early, after {} bytes inflated",
                    out.len()
                )));
            }
            Ok(_) => {}
        }
    }
}

/// Inflates chunk `info`'s stream (`stored`, its bytes) and decodes its records into `out`,
/// reusing its buffers. Records whose data cannot be decoded are left out; every problem is
/// pushed onto `issues`. `last_key` is the key before the chunk, for the order check; the
/// chunk's last key is returned.
pub fn decode_chunk(
    spec: &RecordingSpec,
    info: &ChunkInfo,
    stored: &[u8],
    last_key: Option<u64>,
    out: &mut DecodedChunk,
    issues: &mut Vec<Issue>,
) -> Option<u64> {
    let at = info.offset;
    let issue = |issues: &mut Vec<Issue>, kind, message: String| {
        issues.push(Issue::new(kind, at, message));
    };
    out.records.clear();
    if let Err(e) = inflate(stored, info.raw, &mut out.bytes) {
        if !e.keep {
            let message = format!("{}: none of its records is read", e.message);
            issue(issues, IssueKind::Inflate, message);
            out.bytes.clear();
            return last_key;
        }
        issue(issues, IssueKind::Inflate, e.message);
    }
    let r = &spec.record;
    let buf = &mut out.bytes;
    let mut pos = 0usize;
    let mut seen = 0u64;
    let mut last = last_key;
    let mut first_key = None;
    // The previous record's decoded data, while the chain holds.
    let mut prev: Option<(usize, usize)> = None;
    while pos < buf.len() {
        let n = seen;
        seen += 1;
        let left = buf.len() - pos;
        if left < r.size {
            let message = format!(
                "{} bytes at +{pos} of its records: short of a {} ({} bytes)",
                left, r.name, r.size
            );
            issue(issues, IssueKind::Record, message);
            break;
        }
        let head = &buf[pos..pos + r.size];
        let read = |f: super::spec::Field| f.read(head).unwrap_or(0);
        let data_size = read(r.data_size);
        let total = (r.size as u64).saturating_add(data_size);
        if let Some(t) = r.total_size
            && read(t) != total
        {
            let message = format!(
                "{}[{n}]: its size {} is not {} + its data's {data_size}",
                r.name,
                read(t),
                r.size
            );
            issue(issues, IssueKind::Record, message);
            break;
        }
        if total > left as u64 {
            let message = format!(
                "{}[{n}]: {total} bytes at +{pos} run past the chunk's {} bytes",
                r.name,
                buf.len()
            );
            issue(issues, IssueKind::Record, message);
            break;
        }
        let key = read(r.key);
        let kind = read(r.kind);
        let data = pos + r.size;
        let len = data_size as usize;
        pos = data + len;
        if let Some((first, lastb)) = info.bounds
            && (key < first || key > lastb)
        {
            let message = format!(
                "{}[{n}]: key {key} is outside the chunk's {first}..={lastb}",
                r.name
            );
            issue(issues, IssueKind::Record, message);
        }
        if let Some(l) = last
            && key <= l
        {
            let message = format!("{}[{n}]: key {key} does not follow {l}", r.name);
            issue(issues, IssueKind::Order, message);
        }
        last = Some(key);
        first_key.get_or_insert(key);
        match r.step(kind) {
            None => {
                let message = format!("{}[{n}]: kind {kind} is none the format lists", r.name);
                issue(issues, IssueKind::Record, message);
                prev = None;
                continue;
            }
            Some(Step::Plain) => {}
            Some(Step::Xor) => match prev {
                None => {
                    let message = format!(
                        "{}[{n}] (key {key}): an xor record with no plain one before it in its chunk",
                        r.name
                    );
                    issue(issues, IssueKind::Chain, message);
                    continue;
                }
                Some((_, plen)) if plen != len => {
                    let message = format!(
                        "{}[{n}] (key {key}): {len} bytes of data XORed with the {plen} before it",
                        r.name
                    );
                    issue(issues, IssueKind::Chain, message);
                    prev = None;
                    continue;
                }
                Some((p, _)) => {
                    let (before, rest) = buf.split_at_mut(data);
                    for (b, a) in rest[..len].iter_mut().zip(&before[p..p + len]) {
                        *b ^= *a;
                    }
                }
            },
        }
        prev = Some((data, len));
        if len < r.decoded_size {
            let message = format!(
                "{}[{n}] (key {key}): {len} bytes of data, short of the decoded struct's {}",
                r.name, r.decoded_size
            );
            issue(issues, IssueKind::Record, message);
            continue;
        }
        let decoded = &buf[data..data + r.decoded_size];
        let head = &buf[data - r.size..data];
        for (d, f) in r.same {
            let (dv, fv) = (d.read(decoded), f.read(head));
            if dv != fv {
                let message = format!(
                    "{}[{n}] (key {key}): the decoded field at +{} holds {}, the record's at +{} {}",
                    r.name,
                    d.offset,
                    dv.unwrap_or(0),
                    f.offset,
                    fv.unwrap_or(0)
                );
                issue(issues, IssueKind::Same, message);
            }
        }
        out.records.push(RecordAt {
            at: data - r.size,
            data,
            len,
            key,
        });
    }
    if let Some(c) = info.count
        && c != seen
    {
        issue(
            issues,
            IssueKind::Record,
            format!("it holds {seen} records, its header says {c}"),
        );
    }
    if let (Some((f, l)), Some(fk)) = (info.bounds, first_key)
        && (f != fk || Some(l) != last)
    {
        let message = format!(
            "its header's keys {f}..={l} are not its records' {fk}..={}",
            last.unwrap_or(0)
        );
        issue(issues, IssueKind::Record, message);
    }
    last
}
