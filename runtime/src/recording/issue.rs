//! What a reader found wrong with a recording: typed issues with a message and the offset
//! they concern, collected instead of raised, so that a damaged file still gives what it can.

use core::fmt;

/// What kind of problem an [`Issue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IssueKind {
    /// The header is short or a field does not hold its expected value.
    Header,
    /// The trailer is missing or bad: the chunks were found by walking from the header.
    Trailer,
    /// The footer or a table after it is missing, bad or runs past the end.
    Footer,
    /// A chunk's header is bad, or it does not fit in the file.
    Chunk,
    /// A chunk's stream does not inflate to what its header says.
    Inflate,
    /// A record inside a chunk is bad (sizes, counts, key bounds, unknown kind).
    Record,
    /// A record's data cannot be decoded: an xor record with no plain one before it in its
    /// chunk, or of a length other than the record it applies to.
    Chain,
    /// A decoded struct's field disagrees with its record's.
    Same,
    /// Keys are not strictly increasing.
    Order,
    /// A footer total disagrees with the chunks.
    Total,
}

/// One problem found in a recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// What kind of problem.
    pub kind: IssueKind,
    /// The file offset it concerns (for a record inside a chunk, its chunk's).
    pub offset: u64,
    /// What is wrong, for a person.
    pub message: String,
}

impl Issue {
    pub(crate) fn new(kind: IssueKind, offset: u64, message: impl Into<String>) -> Issue {
        Issue {
            kind,
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} at {:#x}: {}", self.kind, self.offset, self.message)
    }
}
