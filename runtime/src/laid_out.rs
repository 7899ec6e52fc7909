//! The host's own geometry: the image it laid out, kept by its handle, with every table placed
//! (the root's and each block's) from those bytes, never from the mapping. A client can write
//! every byte of its blocks (their tables, capacities and geometry among them), so the host's
//! side of each protocol reads its geometry here, and a free stores the host's words of a
//! row's blocks back from here ([`crate::restore::host_words`]).

use crate::attach::PlacedTable;
use crate::attach_spec::{HandshakeSpec, TableSpec};
use crate::produce::{Image, ProduceError};
pub use crate::spec::GeometryFrom;

/// An image as its host laid it out, every table placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaidOut {
    bytes: Vec<u8>,
    table: PlacedTable,
}

impl LaidOut {
    /// The image `image` of `root` (whose header has `handshake`), every block checked and
    /// placed now from its bytes. `Refused` when it would not attach.
    pub fn new(
        image: &Image,
        handshake: &HandshakeSpec<'_>,
        root: &TableSpec<'_>,
    ) -> Result<Self, ProduceError> {
        let mut bytes = image.bytes.clone();
        // Checked as a reader sees it: running (the image keeps its state not running).
        if let Some((f, running)) = handshake.state {
            f.put(&mut bytes, running);
        }
        let report = crate::attach_check::report(bytes.as_slice(), Some(handshake), root);
        if let Some(e) = report.first_error() {
            return Err(ProduceError::Refused(e.clone()));
        }
        let Some(table) = &report.table else {
            unreachable!("without a problem, the root table was checked")
        };
        Ok(Self {
            table: crate::attach::placed_table(table),
            bytes: image.bytes.clone(),
        })
    }

    /// The image's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The root table, every block placed.
    pub fn table(&self) -> &PlacedTable {
        &self.table
    }

    /// Block `k` of blocks row `row`, as laid out: `None` when there is no such block.
    pub fn block(&self, row: usize, k: usize) -> Option<PlacedTable> {
        self.table.block(row, k).cloned()
    }

    /// The geometry of the header at `offset` (from the image's start), `size` bytes, as laid
    /// out: what the host's side of a protocol there reads its geometry from.
    pub fn header(&self, offset: usize, size: usize) -> GeometryFrom<'_> {
        let end = offset.saturating_add(size).min(self.bytes.len());
        GeometryFrom::LaidOut(self.bytes.get(offset..end).unwrap_or(&[]))
    }
}

/// What a side reads the geometry of the header at `offset` (`size` bytes) from: the host's
/// own `laid_out` copy when its handle has one, else the mapping.
pub fn geometry_of(laid_out: Option<&LaidOut>, offset: usize, size: usize) -> GeometryFrom<'_> {
    laid_out.map_or(GeometryFrom::Mapping, |l| l.header(offset, size))
}
