//! File formats (`[[file]]`): which records a file holds and where each sits: at a fixed
//! offset, at an offset from the end, at an offset another record holds, right after another
//! record, or inside the zlib stream that follows each copy of another record. Plus the
//! facts that tie them together: totals and ordered fields. Every path is resolved to a
//! [`Scalar`] of the layout, once, so that a reader (`abi-codegen inspect`) computes nothing.

use crate::diagnostics::Span;
use crate::ir::id::StructId;
use crate::ir::scalar::Scalar;

/// One `[[file]]`.
#[derive(Debug, Clone)]
pub struct FileFormat {
    pub name: String,
    pub doc: String,
    /// In the schema's order, which is the order they are found in: a record is placed only
    /// by records before it.
    pub records: Vec<FileRecord>,
    pub totals: Vec<Total>,
    pub ordered: Vec<Ordered>,
    pub span: Span,
}

/// A record of a file (one copy or many).
#[derive(Debug, Clone)]
pub struct FileRecord {
    pub name: String,
    pub doc: String,
    /// The struct, by index into `Abi::structs`.
    pub struct_index: StructId,
    /// The struct's size.
    pub size: u64,
    pub place: Place,
    /// How many copies sit back to back (`at` or `after`): a field of an earlier record.
    pub count: Option<FieldRef>,
    /// When the record that places each copy (`Place::Each`) is missing: find the copies
    /// from the end of this record (by index) forward.
    pub walk: Option<usize>,
    /// Records inside zlib streams: how their `data` decodes.
    pub encoding: Option<Encoding>,
    /// Records inside zlib streams: how one is found by a key.
    pub seek: Option<Seek>,
    /// Placed by an index (`Place::Each`): fields of each index copy that repeat fields of
    /// the copy it places (`indexed = ["first_tick = first_tick"]`).
    pub indexed: Vec<Indexed>,
}

/// `entry_field = field`: a field of the index copy that places a record, and the field of
/// the record it repeats.
#[derive(Debug, Clone)]
pub struct Indexed {
    pub entry: Scalar,
    pub record: Scalar,
}

/// How a record's `data` decodes, record after record (`encoding = {...}`): each record's
/// kind says whether its data is the decoded data as is, or XORed with the decoded data of
/// the record before it in the chain. A chain restarts with every zlib stream, and needs a
/// plain record before any other.
#[derive(Debug, Clone)]
pub struct Encoding {
    /// The record's enum field that says how its data is encoded.
    pub kind: Scalar,
    /// That field's enum, by index into `Abi::enums`.
    pub kind_enum: usize,
    /// Each kind the schema lists (its value, as the field's bytes hold it) and its step.
    pub steps: Vec<(u64, Step)>,
    /// The record whose copies each start a chain: the one the zlib streams follow.
    pub restart: usize,
    /// The struct the decoded data starts with (extras follow it, up to `data`).
    pub decoded: StructId,
    pub decoded_size: u64,
    /// Fields of the decoded struct that must equal fields of the record.
    pub same: Vec<Same>,
}

/// How a record's data becomes its decoded data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// As is: the chain (re)starts here.
    Plain,
    /// XORed byte for byte with the previous record's decoded data, of the same length.
    Xor,
}

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::Plain => "plain",
            Step::Xor => "xor",
        }
    }
}

impl Encoding {
    /// The step of a record whose kind field holds `kind`, or `None` for a kind not listed.
    pub fn step(&self, kind: u64) -> Option<Step> {
        self.steps.iter().find(|(v, _)| *v == kind).map(|(_, s)| *s)
    }
}

/// `decoded.field = record.field`, as the schema wrote it (`header.tick = tick`).
#[derive(Debug, Clone)]
pub struct Same {
    pub decoded: Scalar,
    pub record: Scalar,
}

/// How a record is found by a key (`seek = {...}`): its field `key`, and the fields of the
/// stream's record that bound the keys its stream holds, when the schema names them (then a
/// seek inflates only the stream that holds the key).
#[derive(Debug, Clone)]
pub struct Seek {
    pub key: Scalar,
    pub bounds: Option<(Scalar, Scalar)>,
}

/// An unsigned integer field of an earlier record (its first copy, unless said).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRef {
    /// By index into `FileFormat::records`.
    pub record: usize,
    pub field: Scalar,
}

/// Where a record sits.
#[derive(Debug, Clone)]
pub enum Place {
    /// At this offset from the file's start.
    At(u64),
    /// This many bytes before the file's end.
    FromEnd(u64),
    /// At the offset a field of an earlier record holds.
    Field(FieldRef),
    /// One copy per copy of an earlier record, at the offset each holds in a field.
    Each(FieldRef),
    /// Right after the last copy of an earlier record.
    After(usize),
    /// Inside the zlib stream that follows each copy of an earlier record.
    Zlib(Zlib),
}

/// Records packed in zlib streams.
#[derive(Debug, Clone)]
pub struct Zlib {
    /// The record each stream follows, by index into `FileFormat::records`.
    pub source: usize,
    /// The source's fields: the stream's bytes, its inflated bytes, the records inside.
    pub stored: Scalar,
    pub raw: Scalar,
    pub count: Option<Scalar>,
    /// The record's own fields: its whole size, and the bytes that follow the struct.
    pub size: Option<Scalar>,
    pub data: Option<Scalar>,
}

/// A field that must equal a fact of other records.
#[derive(Debug, Clone)]
pub struct Total {
    pub total: FieldRef,
    pub of: TotalOf,
    /// As the schema wrote it: `chunks.tick_count`, `chunks`.
    pub text: String,
}

#[derive(Debug, Clone)]
pub enum TotalOf {
    /// The sum of a field over every copy of a record.
    Sum(FieldRef),
    /// How many copies of a record the file holds.
    Count(usize),
    /// A field of the first copy of a record in the file (0 when it holds none).
    First(FieldRef),
    /// A field of the last copy of a record in the file (0 when it holds none).
    Last(FieldRef),
}

/// A field whose value increases strictly from one copy of a record to the next.
#[derive(Debug, Clone)]
pub struct Ordered {
    pub record: usize,
    pub field: Scalar,
}

/// The largest zlib stream inflated, whatever `raw` says: 256 MiB.
pub const MAX_INFLATED: u64 = 256 << 20;
