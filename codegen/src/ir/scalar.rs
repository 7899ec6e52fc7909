//! The scalar a reader loads: an integer field at a fixed offset of a record, which the
//! attach handshakes and tables (`attach.rs`) and the file formats (`file.rs`) both name.

/// An integer field at a fixed offset of a record, named by its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    /// As the schema wrote it: `header.schema_minor`.
    pub path: String,
    /// From the start of the record.
    pub offset: u64,
    /// Bytes: 1, 2, 4 or 8.
    pub width: u64,
}
