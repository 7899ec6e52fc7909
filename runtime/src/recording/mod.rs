//! Recordings (feature `recording`): chunked files of zlib streams of records, each record's
//! data as is or XORed with the record before it, with a footer, an index of the chunks and
//! a trailer. Generated code describes a format as a static [`RecordingSpec`] and wraps
//! [`Reader`] and [`Writer`] in typed handles; [`core`] is the reader's logic without I/O.

pub mod core;
mod issue;
mod reader;
pub mod spec;
mod writer;

#[cfg(test)]
mod tests;

pub use issue::{Issue, IssueKind};
pub use reader::Reader;
pub use spec::{
    ChunkSpec, Field, IndexSpec, MAX_RAW, Part, RecordSpec, RecordingSpec, Step, TableSpec, Total,
    TrailerSpec, raw_cap,
};
pub use writer::{Writer, WriterOptions};
