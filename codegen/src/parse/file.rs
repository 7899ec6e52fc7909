//! The raw schema's `[[file]]` formats: the records a file holds, where each sits, and the
//! totals and orders they keep.

use serde::Deserialize;
use toml::Spanned;

use super::value::RawValue;

/// `[[file]]`: a file format, the records it holds and where each sits (`abi-codegen inspect`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    pub name: Spanned<String>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
    pub records: Spanned<Vec<Spanned<RawFileRecord>>>,
    /// Fields that must equal a sum or a count over other records.
    #[serde(default)]
    pub totals: Option<Spanned<Vec<Spanned<RawTotal>>>>,
    /// `record.field` paths whose values must increase from one record to the next.
    #[serde(default)]
    pub ordered: Option<Spanned<Vec<Spanned<String>>>>,
}

/// One record of a `[[file]]`: a struct, and exactly one of `at`, `after` or `zlib`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFileRecord {
    pub name: Spanned<String>,
    #[serde(rename = "struct")]
    pub structure: Spanned<String>,
    /// `0`, `end - 16`, `trailer.footer_offset` or `chunk_index[].offset`.
    #[serde(default)]
    pub at: Option<Spanned<RawValue>>,
    /// Right after this record (all of its copies).
    #[serde(default)]
    pub after: Option<Spanned<String>>,
    /// With `at` or `after`: `record.field`, how many back to back. With `zlib`: a field of
    /// the stream's record that counts the records inside.
    #[serde(default)]
    pub count: Option<Spanned<String>>,
    /// With `at = "x[].field"`: when `x` is missing, find the records from the end of this
    /// record forward, each right after the one before (and its zlib stream).
    #[serde(default)]
    pub walk: Option<Spanned<String>>,
    /// With `at = "x[].field"`: fields of each copy of `x` that repeat fields of the copy it
    /// places, as `"x_field = field"`.
    #[serde(default)]
    pub indexed: Option<Spanned<Vec<Spanned<String>>>>,
    /// The records sit in the zlib stream that follows each copy of this record.
    #[serde(default)]
    pub zlib: Option<Spanned<String>>,
    /// With `zlib`: the stream record's fields for the stream's bytes, and its inflated bytes.
    #[serde(default)]
    pub stored: Option<Spanned<String>>,
    #[serde(default)]
    pub raw: Option<Spanned<String>>,
    /// With `zlib`: this struct's field holding the whole record's bytes, or the bytes that
    /// follow the struct.
    #[serde(default)]
    pub size: Option<Spanned<String>>,
    #[serde(default)]
    pub data: Option<Spanned<String>>,
    /// With `data`: how the bytes after the struct are encoded, record after record.
    #[serde(default)]
    pub encoding: Option<Spanned<RawEncoding>>,
    /// With `zlib`: the field `--tick` selects a record by, and the stream record's fields
    /// bounding it.
    #[serde(default)]
    pub seek: Option<Spanned<RawSeek>>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `encoding = { kind = "kind", plain = ["keyframe"], xor = ["delta"], restart = "chunks",
/// decoded = "snapshot", same = ["header.tick = tick"] }`: a record's `data` is, by the value
/// of its enum field `kind`, the decoded data as is (`plain`) or XORed with the previous
/// record's decoded data (`xor`); the chain restarts at each copy of `restart`; the decoded
/// data is a `decoded` struct then extras; `same` pairs a decoded field with a record field.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEncoding {
    pub kind: Spanned<String>,
    pub plain: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    pub xor: Option<Spanned<Vec<Spanned<String>>>>,
    pub restart: Spanned<String>,
    pub decoded: Spanned<String>,
    #[serde(default)]
    pub same: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `seek = { key = "tick", first = "first_tick", last = "last_tick" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSeek {
    pub key: Spanned<String>,
    #[serde(default)]
    pub first: Option<Spanned<String>>,
    #[serde(default)]
    pub last: Option<Spanned<String>>,
}

/// `{ total = "footer.ticks", sum = "chunks.tick_count" }`, `{ total = ..., count = "chunks" }`,
/// `{ total = "footer.first_tick", first = "ticks.tick" }` or `{ total = ..., last = ... }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTotal {
    pub total: Spanned<String>,
    #[serde(default)]
    pub sum: Option<Spanned<String>>,
    #[serde(default)]
    pub count: Option<Spanned<String>>,
    /// The field of the first copy of a record, in file order.
    #[serde(default)]
    pub first: Option<Spanned<String>>,
    /// The field of the last copy of a record, in file order.
    #[serde(default)]
    pub last: Option<Spanned<String>>,
}
