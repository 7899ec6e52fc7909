//! The writer: records into chunks (each record's data as is, or XORed with the record
//! before it in its chunk; every chunk starts plain), each chunk compressed with zlib and
//! written when full or on [`Writer::flush`], then on [`Writer::finish`] the footer with the
//! fields the spec ties (expected values, table counts, totals), its tables (the index's
//! offsets filled in) and the trailer. Only `Write` is needed: offsets are counted.

use std::io::{self, Write};

use flate2::Compression;
use flate2::write::ZlibEncoder;

use super::spec::{Field, MAX_RAW, Part, RecordingSpec, Step};

/// How a [`Writer`] cuts and encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterOptions {
    /// Records per chunk (at least 1).
    pub chunk_records: u32,
    /// Also write a plain record every this many records of a chain (`None`: only at the
    /// start of each chunk and when the data's length changes).
    pub plain_every: Option<u32>,
    /// The zlib level, 0 to 9.
    pub level: u32,
}

impl WriterOptions {
    /// `chunk_records` per chunk, plain records only where needed, zlib's default level.
    pub fn new(chunk_records: u32) -> Self {
        WriterOptions {
            chunk_records: chunk_records.max(1),
            plain_every: None,
            level: 6,
        }
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Writes `value` into `field` of `bytes`, if it fits the field's width.
fn put(bytes: &mut [u8], field: Field, value: u64, what: &str) -> io::Result<()> {
    if field.width < 8 && value >> (8 * field.width) != 0 {
        return Err(invalid(format!(
            "{what} = {value} does not fit in {} bytes",
            field.width
        )));
    }
    field.put(bytes, value);
    Ok(())
}

/// A copy of `bytes` (of `part`'s size) with the expected fields filled in.
fn with_expects(part: &Part, bytes: &[u8]) -> io::Result<Vec<u8>> {
    if bytes.len() != part.size {
        return Err(invalid(format!(
            "{}: {} bytes, not {}",
            part.name,
            bytes.len(),
            part.size
        )));
    }
    let mut out = bytes.to_vec();
    for (f, v) in part.expects {
        f.put(&mut out, *v);
    }
    Ok(out)
}

/// A recording being written.
pub struct Writer<W: Write> {
    spec: &'static RecordingSpec,
    out: Option<W>,
    options: WriterOptions,
    pos: u64,
    /// The open chunk's records, encoded.
    raw: Vec<u8>,
    count: u64,
    bounds: Option<(u64, u64)>,
    /// The previous record's data, decoded, while the open chunk's chain holds.
    prev: Option<Vec<u8>>,
    chain: u32,
    last_key: Option<u64>,
    /// Each chunk written: its offset and header.
    chunks: Vec<(u64, Vec<u8>)>,
    /// Rows of each table but the index.
    tables: Vec<Vec<u8>>,
    /// The first and the last record's struct, as written (empty before the first).
    first_record: Vec<u8>,
    last_record: Vec<u8>,
}

impl<W: Write> Writer<W> {
    /// Starts a recording on `out` (at its offset 0) with `header`, whose expected fields
    /// are filled in.
    pub fn create(
        spec: &'static RecordingSpec,
        mut out: W,
        header: &[u8],
        options: WriterOptions,
    ) -> io::Result<Self> {
        let header = with_expects(&spec.header, header)?;
        out.write_all(&header)?;
        Ok(Writer {
            spec,
            out: Some(out),
            options: WriterOptions {
                chunk_records: options.chunk_records.max(1),
                ..options
            },
            pos: header.len() as u64,
            raw: Vec::new(),
            count: 0,
            bounds: None,
            prev: None,
            chain: 0,
            last_key: None,
            chunks: Vec::new(),
            tables: vec![Vec::new(); spec.tables.len()],
            first_record: Vec::new(),
            last_record: Vec::new(),
        })
    }

    fn out(&mut self) -> io::Result<&mut W> {
        self.out
            .as_mut()
            .ok_or_else(|| io::Error::other("the recording was finished"))
    }

    /// Adds a record: `record` is its struct (the fields the spec ties are filled in: sizes
    /// and kind), `data` its decoded data. Its key must follow the previous record's.
    pub fn push(&mut self, record: &[u8], data: &[u8]) -> io::Result<()> {
        let r = &self.spec.record;
        if record.len() != r.size {
            return Err(invalid(format!(
                "{}: {} bytes, not {}",
                r.name,
                record.len(),
                r.size
            )));
        }
        let key = r.key.read(record).unwrap_or(0);
        if let Some(last) = self.last_key
            && key <= last
        {
            return Err(invalid(format!(
                "{}: key {key} does not follow {last}",
                r.name
            )));
        }
        let total = (r.size + data.len()) as u64;
        if total > MAX_RAW {
            return Err(invalid(format!(
                "{}: {total} bytes, more than a chunk holds",
                r.name
            )));
        }
        let mut head = record.to_vec();
        put(&mut head, r.data_size, data.len() as u64, "data_size")?;
        if let Some(t) = r.total_size {
            put(&mut head, t, total, "size")?;
        }
        if self.count >= u64::from(self.options.chunk_records)
            || self.raw.len() as u64 + total > MAX_RAW
        {
            self.close_chunk()?;
        }
        let plain_due = self.options.plain_every.is_some_and(|k| self.chain >= k);
        let step = match &self.prev {
            Some(p) if p.len() == data.len() && !plain_due => Step::Xor,
            _ => Step::Plain,
        };
        let Some(kind) = r.kind_of(step).or_else(|| r.kind_of(Step::Plain)) else {
            return Err(invalid(format!(
                "{}: the format lists no plain kind",
                r.name
            )));
        };
        let step = if r.kind_of(step).is_some() {
            step
        } else {
            Step::Plain
        };
        put(&mut head, r.kind, kind, "kind")?;
        self.raw.extend_from_slice(&head);
        if self.first_record.is_empty() {
            self.first_record.clone_from(&head);
        }
        self.last_record = head;
        match (step, &self.prev) {
            (Step::Xor, Some(p)) => {
                self.raw.extend(data.iter().zip(p).map(|(a, b)| a ^ b));
                self.chain += 1;
            }
            _ => {
                self.raw.extend_from_slice(data);
                self.chain = 1;
            }
        }
        match &mut self.prev {
            Some(p) => {
                p.clear();
                p.extend_from_slice(data);
            }
            None => self.prev = Some(data.to_vec()),
        }
        self.count += 1;
        self.bounds = Some((self.bounds.map_or(key, |b| b.0), key));
        self.last_key = Some(key);
        Ok(())
    }

    /// Adds a row to table `table` (not the index, which the writer fills).
    pub fn add_row(&mut self, table: usize, row: &[u8]) -> io::Result<()> {
        let Some(t) = self.spec.tables.get(table) else {
            return Err(invalid(format!("no table {table}")));
        };
        if table == self.spec.index.table || row.len() != t.size {
            return Err(invalid(format!(
                "{}: not a row of {} bytes the caller writes",
                t.name, t.size
            )));
        }
        self.tables[table].extend_from_slice(row);
        Ok(())
    }

    /// Compresses and writes the open chunk, if it holds a record.
    fn close_chunk(&mut self) -> io::Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        let c = &self.spec.chunk;
        let mut z = ZlibEncoder::new(Vec::new(), Compression::new(self.options.level.min(9)));
        z.write_all(&self.raw)?;
        let stream = z.finish()?;
        let mut head = with_expects(&c.part, &vec![0; c.part.size])?;
        put(&mut head, c.stored, stream.len() as u64, "stored")?;
        put(&mut head, c.raw, self.raw.len() as u64, "raw")?;
        if let Some(f) = c.count {
            put(&mut head, f, self.count, "count")?;
        }
        if let (Some((f, l)), Some((first, last))) = (c.bounds, self.bounds) {
            put(&mut head, f, first, "first")?;
            put(&mut head, l, last, "last")?;
        }
        let at = self.pos;
        let out = self.out()?;
        out.write_all(&head)?;
        out.write_all(&stream)?;
        self.pos += (head.len() + stream.len()) as u64;
        self.chunks.push((at, head));
        self.raw.clear();
        self.count = 0;
        self.bounds = None;
        self.prev = None;
        self.chain = 0;
        Ok(())
    }

    /// Closes the open chunk and flushes `out`: the file is readable up to here (by the
    /// walk, until [`finish`](Self::finish) writes the footer).
    pub fn flush(&mut self) -> io::Result<()> {
        self.close_chunk()?;
        self.out()?.flush()
    }

    /// Records written so far (in chunks and in the open one).
    pub fn records(&self) -> u64 {
        let written: u64 = self
            .chunks
            .iter()
            .filter_map(|(_, h)| self.spec.chunk.count.and_then(|f| f.read(h)))
            .sum();
        written + self.count
    }

    /// Closes the open chunk, writes `footer` (the fields the spec ties filled in), the
    /// tables and the trailer, and gives `out` back.
    pub fn finish(mut self, footer: &[u8]) -> io::Result<W> {
        self.close_chunk()?;
        let spec = self.spec;
        let mut footer = with_expects(&spec.footer, footer)?;
        let index = &spec.tables[spec.index.table];
        let mut index_rows = vec![0u8; self.chunks.len() * index.size];
        for ((at, h), row) in self
            .chunks
            .iter()
            .zip(index_rows.chunks_exact_mut(index.size))
        {
            put(row, spec.index.offset, *at, "offset")?;
            for (entry, field) in spec.index.copies {
                put(row, *entry, field.read(h).unwrap_or(0), "an index field")?;
            }
        }
        self.tables[spec.index.table] = index_rows;
        for (t, rows) in spec.tables.iter().zip(&self.tables) {
            put(&mut footer, t.count, (rows.len() / t.size) as u64, t.name)?;
        }
        for total in spec.totals {
            let (field, value) = match *total {
                super::spec::Total::Sum { total, of } => (
                    total,
                    self.chunks
                        .iter()
                        .map(|(_, h)| of.read(h).unwrap_or(0))
                        .sum(),
                ),
                super::spec::Total::Count { total } => (total, self.chunks.len() as u64),
                super::spec::Total::First { total, of } => {
                    (total, of.read(&self.first_record).unwrap_or(0))
                }
                super::spec::Total::Last { total, of } => {
                    (total, of.read(&self.last_record).unwrap_or(0))
                }
            };
            put(&mut footer, field, value, "total")?;
        }
        let mut trailer = with_expects(&spec.trailer.part, &vec![0; spec.trailer.part.size])?;
        put(
            &mut trailer,
            spec.trailer.footer_offset,
            self.pos,
            "footer offset",
        )?;
        let tables = std::mem::take(&mut self.tables);
        let mut out = self
            .out
            .take()
            .ok_or_else(|| io::Error::other("finished"))?;
        out.write_all(&footer)?;
        for rows in &tables {
            out.write_all(rows)?;
        }
        out.write_all(&trailer)?;
        out.flush()?;
        Ok(out)
    }
}

impl<W: Write> Drop for Writer<W> {
    /// Without [`finish`](Writer::finish): the open chunk is written (errors are lost), and
    /// the file ends with its last chunk, for a reader to walk.
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = self.flush();
        }
    }
}
