//! File formats (`[[file]]`): which records a file holds and where each sits: at a fixed
//! offset, at an offset from the end, at an offset another record holds, right after another
//! record, or inside the zlib stream that follows each copy of another record. Plus the
//! facts that tie them together: totals and ordered fields. Every path is resolved to a
//! [`Scalar`] of the layout, once, so that a reader (`abi-codegen inspect`) computes nothing.

use crate::diagnostics::Span;
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
    pub struct_index: usize,
    /// The struct's size.
    pub size: u64,
    pub place: Place,
    /// How many copies sit back to back (`at` or `after`): a field of an earlier record.
    pub count: Option<FieldRef>,
    /// When the record that places each copy (`Place::Each`) is missing: find the copies
    /// from the end of this record (by index) forward.
    pub walk: Option<usize>,
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
}

/// A field whose value increases strictly from one copy of a record to the next.
#[derive(Debug, Clone)]
pub struct Ordered {
    pub record: usize,
    pub field: Scalar,
}

/// The largest zlib stream inflated, whatever `raw` says: 256 MiB.
pub const MAX_INFLATED: u64 = 256 << 20;
