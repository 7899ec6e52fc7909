//! What the recording core reads and writes: a chunked file described as constant data
//! (offsets and widths of the fields it needs), which generated code emits from a schema's
//! `[[file]]` declaration, the way attach has its table specs. The core knows nothing else of
//! the format.

pub use crate::spec::Field;

/// A fixed-size record and the values some of its fields must hold (`expect` in the schema).
#[derive(Debug, Clone, Copy)]
pub struct Part {
    /// The record's name in the schema (`header`, `footer`), for messages.
    pub name: &'static str,
    /// Its size in bytes.
    pub size: usize,
    /// Fields and the value each must hold; the writer fills them in.
    pub expects: &'static [(Field, u64)],
}

/// The record at a fixed distance from the file's end that holds the footer's offset.
#[derive(Debug, Clone, Copy)]
pub struct TrailerSpec {
    /// The trailer itself (it sits `part.size` bytes before the end).
    pub part: Part,
    /// Its field holding the footer's offset from the file's start.
    pub footer_offset: Field,
}

/// Records that sit back to back after the footer, each array counted by a footer field.
#[derive(Debug, Clone, Copy)]
pub struct TableSpec {
    /// The array's name in the schema (`chunk_index`, `marks`).
    pub name: &'static str,
    /// One row's size.
    pub size: usize,
    /// The footer's field counting the rows.
    pub count: Field,
}

/// The chunk index: the table whose rows place each chunk.
#[derive(Debug, Clone, Copy)]
pub struct IndexSpec {
    /// Which of [`RecordingSpec::tables`] it is.
    pub table: usize,
    /// The row's field holding its chunk's offset from the file's start.
    pub offset: Field,
    /// Fields of the row that repeat fields of the chunk header it places (row, chunk).
    pub copies: &'static [(Field, Field)],
}

/// A chunk: a header record, then a zlib stream of records.
#[derive(Debug, Clone, Copy)]
pub struct ChunkSpec {
    /// The chunk's header record.
    pub part: Part,
    /// Bytes of the zlib stream after the header.
    pub stored: Field,
    /// Bytes the stream inflates to.
    pub raw: Field,
    /// Records in the stream, when the schema names the field.
    pub count: Option<Field>,
    /// The first and last key of the records in the stream, when the schema names them.
    pub bounds: Option<(Field, Field)>,
}

/// How a record's data becomes its decoded data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// As is: the chain (re)starts here.
    Plain,
    /// XORed byte for byte with the previous record's decoded data, of the same length.
    Xor,
}

/// A record inside a chunk's stream: a fixed struct, then `data` bytes.
#[derive(Debug, Clone, Copy)]
pub struct RecordSpec {
    /// The record's name in the schema (`ticks`).
    pub name: &'static str,
    /// The struct's size.
    pub size: usize,
    /// Its field holding the whole record's size (the struct and its data), if any.
    pub total_size: Option<Field>,
    /// Its field holding the bytes of data that follow the struct.
    pub data_size: Field,
    /// Its field saying how the data is encoded.
    pub kind: Field,
    /// Each kind's value and its step; the first plain and the first xor one are written.
    pub steps: &'static [(u64, Step)],
    /// Its key: strictly increasing through the file, and what a seek looks for.
    pub key: Field,
    /// The size of the struct the decoded data starts with (extras follow it).
    pub decoded_size: usize,
    /// Fields of the decoded struct that must equal fields of the record (decoded, record).
    pub same: &'static [(Field, Field)],
}

impl RecordSpec {
    /// The step of a record whose kind field holds `kind`.
    pub fn step(&self, kind: u64) -> Option<Step> {
        self.steps.iter().find(|(v, _)| *v == kind).map(|(_, s)| *s)
    }

    /// The key of a record whose struct is `record`.
    pub fn key_of(&self, record: &[u8]) -> Option<u64> {
        self.key.read(record)
    }

    /// The kind value written for `step`.
    pub fn kind_of(&self, step: Step) -> Option<u64> {
        self.steps.iter().find(|(_, s)| *s == step).map(|(v, _)| *v)
    }
}

/// A footer field that must equal a fact of the chunks or of the records.
#[derive(Debug, Clone, Copy)]
pub enum Total {
    /// The sum of a chunk header field over every chunk.
    Sum {
        /// The footer's field.
        total: Field,
        /// The chunk header's field.
        of: Field,
    },
    /// How many chunks the file holds.
    Count {
        /// The footer's field.
        total: Field,
    },
    /// A field of the file's first record (0 without records).
    First {
        /// The footer's field.
        total: Field,
        /// The record's field.
        of: Field,
    },
    /// A field of the file's last record (0 without records).
    Last {
        /// The footer's field.
        total: Field,
        /// The record's field.
        of: Field,
    },
}

/// A whole recording format: the header at offset 0, chunks from its end on, then the
/// footer, its tables and the trailer that points at the footer.
#[derive(Debug, Clone, Copy)]
pub struct RecordingSpec {
    /// The format's name in the schema.
    pub name: &'static str,
    /// The record at offset 0.
    pub header: Part,
    /// The record at the end that points at the footer.
    pub trailer: TrailerSpec,
    /// The footer.
    pub footer: Part,
    /// The arrays after the footer, in file order.
    pub tables: &'static [TableSpec],
    /// Which table places the chunks.
    pub index: IndexSpec,
    /// A chunk's header and stream.
    pub chunk: ChunkSpec,
    /// A record in a chunk's stream.
    pub record: RecordSpec,
    /// Footer fields tied to the chunks.
    pub totals: &'static [Total],
}

/// The most a chunk is inflated to, whatever its header says: 256 MiB (as `inspect`).
pub const MAX_RAW: u64 = 256 << 20;

/// The most a zlib stream of `stored` bytes can inflate to, with some slack: deflate's best
/// ratio is about 1032 to 1.
pub fn raw_cap(stored: u64) -> u64 {
    stored.saturating_mul(1032).saturating_add(64).min(MAX_RAW)
}
