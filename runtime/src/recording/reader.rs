//! The reader: drives the [core](super::core) over any `Read + Seek`. Opening reads the
//! header, then the trailer, footer, its tables and every chunk header the index places
//! (or, when any of that is missing or bad, walks the chunks from the header's end). Reading
//! inflates one chunk at a time; a seek inflates only the chunk its bounds say holds the key.

use std::io::{self, Read, Seek, SeekFrom};

use super::core::{
    ChunkInfo, DecodedChunk, check_part, decode_chunk, footer_offset, is_part, lay_out_tables,
    parse_chunk_header,
};
use super::issue::{Issue, IssueKind};
use super::spec::{RecordingSpec, Total};

/// A recording opened for reading: its header, footer and tables, the chunks found, and
/// a position (a chunk and a record in it).
pub struct Reader<R> {
    spec: &'static RecordingSpec,
    src: R,
    header: Vec<u8>,
    footer: Option<Vec<u8>>,
    tables: Vec<Vec<u8>>,
    chunks: Vec<ChunkInfo>,
    issues: Vec<Issue>,
    /// Whether each chunk's issues were collected already (a chunk read again adds none).
    checked: Vec<bool>,
    stored: Vec<u8>,
    current: Option<usize>,
    decoded: DecodedChunk,
    next_chunk: usize,
    next_record: usize,
    /// The last key of the current chunk.
    current_last: Option<u64>,
}

fn read_at<R: Read + Seek>(src: &mut R, at: u64, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    src.seek(SeekFrom::Start(at))?;
    buf.clear();
    buf.resize(len, 0);
    src.read_exact(buf)
}

impl<R: Read + Seek> Reader<R> {
    /// Opens the recording `src` holds. Damage is recorded in [`issues`](Self::issues);
    /// only an I/O error fails.
    pub fn open(spec: &'static RecordingSpec, mut src: R) -> io::Result<Self> {
        let len = src.seek(SeekFrom::End(0))?;
        let mut header = Vec::new();
        let head_len = (spec.header.size as u64).min(len) as usize;
        read_at(&mut src, 0, head_len, &mut header)?;
        let mut reader = Reader {
            spec,
            src,
            header,
            footer: None,
            tables: Vec::new(),
            chunks: Vec::new(),
            issues: Vec::new(),
            checked: Vec::new(),
            stored: Vec::new(),
            current: None,
            decoded: DecodedChunk::default(),
            next_chunk: 0,
            next_record: 0,
            current_last: None,
        };
        if let Err(issue) = check_part(&spec.header, &reader.header, 0, IssueKind::Header) {
            reader.issues.push(issue);
            return Ok(reader);
        }
        let end = match reader.read_summary(len) {
            Ok(()) => None,
            Err((issue, end)) => {
                let message = format!("{}; the chunks were found by walking", issue.message);
                reader
                    .issues
                    .push(Issue::new(issue.kind, issue.offset, message));
                reader.footer = None;
                reader.tables.clear();
                reader.chunks.clear();
                Some(end)
            }
        };
        if let Some(end) = end {
            reader.walk(end)?;
        }
        reader.check_totals();
        reader.checked = vec![false; reader.chunks.len()];
        Ok(reader)
    }

    /// The trailer, footer, tables and the chunks the index places; `Err` with the issue
    /// and where the chunks end (the footer, when the trailer gave it) for the walk.
    fn read_summary(&mut self, len: u64) -> Result<(), (Issue, u64)> {
        let spec = self.spec;
        let t = spec.trailer.part.size as u64;
        if len < spec.header.size as u64 + t {
            let message = "the file is too short to hold a trailer".to_string();
            return Err((Issue::new(IssueKind::Trailer, len, message), len));
        }
        let mut buf = Vec::new();
        let io = |e: io::Error, at: u64| (Issue::new(IssueKind::Footer, at, e.to_string()), len);
        read_at(&mut self.src, len - t, t as usize, &mut buf).map_err(|e| io(e, len - t))?;
        let footer_at = footer_offset(spec, &buf, len).map_err(|i| (i, len))?;
        let mut footer = Vec::new();
        read_at(&mut self.src, footer_at, spec.footer.size, &mut footer)
            .map_err(|e| io(e, footer_at))?;
        let layout =
            lay_out_tables(spec, &footer, footer_at, len - t).map_err(|i| (i, footer_at))?;
        for &(at, rows) in &layout {
            let mut table = Vec::new();
            // Every table was checked to end before the trailer: rows * size <= len.
            let size = spec.tables[self.tables.len()].size;
            read_at(&mut self.src, at, rows as usize * size, &mut table).map_err(|e| io(e, at))?;
            self.tables.push(table);
        }
        self.footer = Some(footer);
        let index = &spec.tables[spec.index.table];
        let offsets: Vec<u64> = self.tables[spec.index.table]
            .chunks_exact(index.size)
            .map(|row| spec.index.offset.read(row).unwrap_or(u64::MAX))
            .collect();
        let mut head = Vec::new();
        let mut end_of_last = spec.header.size as u64;
        for (i, at) in offsets.into_iter().enumerate() {
            let size = spec.chunk.part.size as u64;
            let placed = at >= end_of_last && at.checked_add(size).is_some_and(|e| e <= footer_at);
            if !placed {
                let message = format!(
                    "{}[{i}] places a chunk at {at:#x}, not after the one before it and before the footer at {footer_at:#x}",
                    index.name
                );
                return Err((Issue::new(IssueKind::Footer, footer_at, message), footer_at));
            }
            read_at(&mut self.src, at, size as usize, &mut head).map_err(|e| io(e, at))?;
            let chunk =
                parse_chunk_header(spec, &head, at, footer_at).map_err(|i| (i, footer_at))?;
            let row = &self.tables[spec.index.table][i * index.size..(i + 1) * index.size];
            for (entry, field) in spec.index.copies {
                let (e, c) = (entry.read(row), field.read(&chunk.header));
                if e != c {
                    let message = format!(
                        "{}[{i}]: the field at +{} holds {}, its chunk's at +{} {}",
                        index.name,
                        entry.offset,
                        e.unwrap_or(0),
                        field.offset,
                        c.unwrap_or(0)
                    );
                    self.issues.push(Issue::new(IssueKind::Footer, at, message));
                }
            }
            end_of_last = chunk.end();
            self.chunks.push(chunk);
        }
        if end_of_last != footer_at {
            let message = format!(
                "{} bytes between the last indexed chunk and the footer",
                footer_at - end_of_last
            );
            return Err((Issue::new(IssueKind::Footer, footer_at, message), footer_at));
        }
        Ok(())
    }

    /// Finds the chunks from the header's end forward, up to `end`.
    fn walk(&mut self, end: u64) -> io::Result<()> {
        let spec = self.spec;
        let size = spec.chunk.part.size as u64;
        let mut at = spec.header.size as u64;
        let mut head = Vec::new();
        while at < end {
            let n = (end - at).min(size.max(spec.footer.size as u64)) as usize;
            read_at(&mut self.src, at, n, &mut head)?;
            if is_part(&spec.footer, &head) {
                break;
            }
            match parse_chunk_header(spec, &head, at, end) {
                Ok(chunk) => {
                    at = chunk.end();
                    self.chunks.push(chunk);
                }
                Err(issue) => {
                    let message = format!(
                        "{}; the {} bytes from here on are not read",
                        issue.message,
                        end - at
                    );
                    self.issues.push(Issue::new(issue.kind, at, message));
                    break;
                }
            }
        }
        Ok(())
    }

    fn check_totals(&mut self) {
        let Some(footer) = &self.footer else { return };
        for t in self.spec.totals {
            let (field, want) = match *t {
                Total::Sum { total, of } => (
                    total,
                    self.chunks
                        .iter()
                        .map(|c| of.read(&c.header).unwrap_or(0))
                        .fold(0u64, u64::wrapping_add),
                ),
                Total::Count { total } => (total, self.chunks.len() as u64),
                // Of the key, the chunks' bounds say; of another field, only a replay would.
                Total::First { total, of } | Total::Last { total, of }
                    if of == self.spec.record.key && self.spec.chunk.bounds.is_some() =>
                {
                    let first = matches!(t, Total::First { .. });
                    let bound = if first {
                        self.chunks.first().and_then(|c| c.bounds).map(|b| b.0)
                    } else {
                        self.chunks.last().and_then(|c| c.bounds).map(|b| b.1)
                    };
                    (total, bound.unwrap_or(0))
                }
                Total::First { .. } | Total::Last { .. } => continue,
            };
            let got = field.read(footer).unwrap_or(0);
            if got != want {
                let message = format!(
                    "{}: the field at +{} holds {got}, the chunks make {want}",
                    self.spec.footer.name, field.offset
                );
                self.issues.push(Issue::new(IssueKind::Total, 0, message));
            }
        }
    }

    /// The header's bytes (shorter than the header when the file is).
    pub fn header(&self) -> &[u8] {
        &self.header
    }

    /// The footer's bytes, when the trailer led to a good one.
    pub fn footer(&self) -> Option<&[u8]> {
        self.footer.as_deref()
    }

    /// Table `i`'s rows, back to back (empty without a footer).
    pub fn table(&self, i: usize) -> &[u8] {
        self.tables.get(i).map_or(&[], Vec::as_slice)
    }

    /// The chunks found, from the index or the walk.
    pub fn chunks(&self) -> &[ChunkInfo] {
        &self.chunks
    }

    /// Every problem found so far: on opening, and in the chunks read since.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// Inflates and decodes chunk `i`, unless it is the current one.
    fn load(&mut self, i: usize) -> io::Result<()> {
        if self.current == Some(i) {
            return Ok(());
        }
        // The key before the chunk, for the order check, when the chunk before it is the
        // one decoded last.
        let before = match self.current {
            Some(c) if c + 1 == i => self.current_last,
            _ => None,
        };
        self.current = None;
        let chunk = &self.chunks[i];
        read_at(
            &mut self.src,
            chunk.stream_offset(),
            chunk.stored as usize,
            &mut self.stored,
        )?;
        let mut issues = Vec::new();
        self.current_last = decode_chunk(
            self.spec,
            chunk,
            &self.stored,
            before,
            &mut self.decoded,
            &mut issues,
        );
        if !self.checked[i] {
            self.checked[i] = true;
            self.issues.extend(issues);
        }
        self.current = Some(i);
        Ok(())
    }

    /// The next record: its struct's bytes and its decoded data, or `None` at the end.
    pub fn next_record(&mut self) -> io::Result<Option<(&[u8], &[u8])>> {
        while self.next_chunk < self.chunks.len() {
            self.load(self.next_chunk)?;
            if self.next_record < self.decoded.records.len() {
                let i = self.next_record;
                self.next_record += 1;
                return Ok(self.decoded.record(i, self.spec.record.size));
            }
            self.next_chunk += 1;
            self.next_record = 0;
        }
        Ok(None)
    }

    /// Moves so that [`next_record`](Self::next_record) gives the first record whose key is
    /// `key` or more. Inflates only the chunk the chunks' bounds say may hold it (without
    /// bounds, each chunk in turn until one does).
    pub fn seek(&mut self, key: u64) -> io::Result<()> {
        let bounded = self.spec.chunk.bounds.is_some();
        let start = if bounded {
            self.chunks
                .partition_point(|c| c.bounds.is_some_and(|(_, last)| last < key))
        } else {
            0
        };
        self.next_chunk = start;
        self.next_record = 0;
        for c in start..self.chunks.len() {
            self.next_chunk = c;
            if bounded && !self.chunks[c].may_hold(key) {
                // The first chunk after the key: start there.
                return Ok(());
            }
            self.load(c)?;
            self.next_record = self.decoded.records.partition_point(|r| r.key < key);
            if self.next_record < self.decoded.records.len() {
                return Ok(());
            }
        }
        self.next_chunk = self.chunks.len();
        Ok(())
    }
}
