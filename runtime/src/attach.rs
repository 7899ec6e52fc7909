//! Attaching to a live image: the version handshake, then every layout table (the root's
//! and each block's), checked row by row, as `codegen/ATTACH.md` specifies. Generated code
//! describes its tables as static [`TableSpec`]s and wraps [`attach`] in typed handles; a
//! tool that lists every problem of an image asks [`report`], the same checks.
//!
//! Every read goes through a [`Source`] (for a [`Region`], relaxed atomic loads), after a
//! bounds check of its own: hostile bytes give an [`AttachError`], never a panic or a read
//! outside the mapping.

pub use crate::attach_check::{Report, RowReport, Source, TableReport, check_handshake, report};
pub use crate::attach_error::AttachError;
pub use crate::attach_spec::{Field, GeometryRule, Version};
use crate::raw::Region;

/// The descriptions with a lifetime, for tables and handshakes built at run time; the
/// aliases below are their `'static` forms, which generated code writes as `static` data.
pub mod spec {
    pub use crate::attach_spec::{
        AddedField, Field, GeometryRule, GeometrySpec, HandshakeSpec, NeedSpec, NeedTerm,
        RowContents, RowSpec, TableSpec, Version,
    };
}

/// A field a later minor version added to an extensible record ([`spec::AddedField`]).
pub type AddedField = spec::AddedField<'static>;
/// How a reader learns who produced an extensible record ([`spec::HandshakeSpec`]).
pub type HandshakeSpec = spec::HandshakeSpec<'static>;
/// What a row's region holds ([`spec::RowContents`]).
pub type RowContents = spec::RowContents<'static>;
/// One row of a layout table ([`spec::RowSpec`]).
pub type RowSpec = spec::RowSpec<'static>;
/// A layout table ([`spec::TableSpec`]).
pub type TableSpec = spec::TableSpec<'static>;
/// A geometry field ([`spec::GeometrySpec`]).
pub type GeometrySpec = spec::GeometrySpec<'static>;
/// What a region needs of the writer's geometry ([`spec::NeedSpec`]).
pub type NeedSpec = spec::NeedSpec<'static>;
/// One term of a need ([`spec::NeedTerm`]).
pub type NeedTerm = spec::NeedTerm<'static>;

/// A region that attach placed: its offset from the start of the mapping, and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// From the start of the mapping.
    pub offset: usize,
    /// Bytes.
    pub size: usize,
}

/// One checked table: each row's region (absent ones `None`), the writer's geometry, and
/// for a blocks row checked up front ([`report`]), each block's own table. [`attach`] leaves
/// the blocks for their first use: [`block`] checks one then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedTable {
    /// Where the table's header starts, from the start of the mapping.
    pub base: usize,
    /// Like [`TableSpec::rows`].
    pub rows: Vec<Option<Placed>>,
    /// Like [`TableSpec::rows`]: the blocks of a blocks row, empty for the others (and for
    /// every row of a table whose blocks are checked when first used).
    pub blocks: Vec<Vec<PlacedTable>>,
    /// Like [`TableSpec::geometry`]: the writer's value of each field that passed its check.
    pub geometry: Vec<Option<u64>>,
    /// The table's name prefix in error messages: `""` for the root, `bot_blocks[7].` for a block.
    pub path: String,
    checked: TableReport,
}

impl PlacedTable {
    /// Row `row`'s region, or `None` when it is absent.
    pub fn row(&self, row: usize) -> Option<Placed> {
        self.rows.get(row).copied().flatten()
    }

    /// Row `row`'s region and its bytes in `mapping`, aligned to `align`, or `None` when the
    /// row is absent or its bytes are out of bounds or misaligned: what a generated handle's
    /// accessor of the row starts with (`handle_accessors!`).
    pub fn row_region<'a, A: crate::raw::Access>(
        &self,
        mapping: Region<'a, A>,
        row: usize,
        align: usize,
    ) -> Option<(Placed, Region<'a, A>)> {
        let p = self.row(row)?;
        Some((p, mapping.sub(p.offset, p.size, align).ok()?))
    }

    /// Block `k` of row `row`, or `None` when the row is absent or `k` is out of range.
    pub fn block(&self, row: usize, k: usize) -> Option<&PlacedTable> {
        self.blocks.get(row)?.get(k)
    }

    /// Geometry field `g`'s value as the writer built it (checked), or `value`, the schema's,
    /// when there is no such field or it did not pass.
    pub fn geometry_or(&self, g: Option<usize>, value: usize) -> usize {
        crate::attach_check::followed(value, g, &self.geometry)
    }
}

/// Block `k` of blocks row `row` of `table` (laid out by `spec`), checked now, when first
/// used: `Ok(None)` when the row is absent or `k` out of range, an error naming the block
/// (`bot_blocks[7].draw`) when it fails a check. Other blocks are not looked at.
pub fn block(
    region: Region<'_>,
    producer: Version,
    spec: &spec::TableSpec<'_>,
    table: &PlacedTable,
    row: usize,
    k: usize,
) -> Result<Option<PlacedTable>, AttachError> {
    let name = spec.rows.get(row).map_or("", |r| r.name);
    let found = crate::attach_check::check_block(
        &region,
        Some(producer),
        spec,
        &table.checked,
        &table.path,
        row,
        k,
    )?;
    Ok(found.map(|t| placed(&t, format!("{}{name}[{k}].", table.path))))
}

/// Whether the writer of the image attach checked has reloaded or left running since: its
/// state (acquire) is no longer `running`, or its generation differs from `generation`.
/// Cheap: one or two loads. A handle whose writer reloaded must attach again.
pub fn reloaded(
    region: Region<'_>,
    handshake: &spec::HandshakeSpec<'_>,
    generation: Option<u64>,
) -> bool {
    still_running(region, handshake, generation).is_err()
}

/// [`reloaded`] as an error, for what a handle hands out after attach (a block checked on
/// first use): `HostNotRunning` when the writer's state (acquire) is no longer `running`,
/// `HostReloaded` when its generation differs from `generation`; both retryable. A block of
/// a reloaded host's old tables is never handed out.
pub fn still_running(
    region: Region<'_>,
    handshake: &spec::HandshakeSpec<'_>,
    generation: Option<u64>,
) -> Result<(), AttachError> {
    let load = |f: Field| region.read_uint_acquire(f.offset, f.width);
    if let Some((state, running)) = handshake.state {
        let found = load(state).unwrap_or(u64::MAX);
        if found != running {
            return Err(AttachError::HostNotRunning {
                expected: running,
                found,
            });
        }
    }
    if let (Some(g), Some(before)) = (handshake.generation, generation) {
        let now = load(g).unwrap_or(u64::MAX);
        if now != before {
            return Err(AttachError::HostReloaded {
                expected: before,
                found: now,
            });
        }
    }
    Ok(())
}

/// [`still_running`] after reading tables the writer placed (a block checked on first use):
/// an acquire fence orders those reads before these loads, as a seqlock reader's re-check and
/// the root attach's do, so tables read while the writer reloaded (a re-layout writing new
/// ones) are refused, retryably, never handed out torn.
pub fn still_running_after_read(
    region: Region<'_>,
    handshake: &spec::HandshakeSpec<'_>,
    generation: Option<u64>,
) -> Result<(), AttachError> {
    crate::sync::fence(crate::sync::Ordering::Acquire);
    still_running(region, handshake, generation)
}

/// A mapping that passed every check.
#[derive(Debug, Clone)]
pub struct Attached {
    /// The producer's version.
    pub producer: Version,
    /// The producer's header size.
    pub header_size: usize,
    /// The bytes the image spans (at most the mapping's length).
    pub extent: usize,
    /// The root table.
    pub table: PlacedTable,
    /// The writer's generation when attach checked it.
    pub generation: Option<u64>,
}

/// Reads the unsigned little-endian field `f` of a record copied into `bytes`.
fn read_copy(bytes: &[u8], f: Field) -> Result<u64, AttachError> {
    bytes
        .read_uint(f.offset, f.width)
        .ok_or(AttachError::MappingTooShort {
            expected: f.offset.saturating_add(f.width) as u64,
            found: bytes.len() as u64,
        })
}

/// Attaches to `region`: the handshake of the root header, then every table. The first
/// failed check, in the order of `codegen/ATTACH.md`, is the error.
pub fn attach(
    region: Region<'_>,
    handshake: &spec::HandshakeSpec<'_>,
    root: &spec::TableSpec<'_>,
) -> Result<Attached, AttachError> {
    let report = crate::attach_check::check_image(&region, Some(handshake), root, true);
    if let Some(e) = report.first_error() {
        return Err(e.clone());
    }
    let (Some(producer), Some(table)) = (report.producer, &report.table) else {
        unreachable!("without a problem, the handshake passed and the root table was checked")
    };
    Ok(Attached {
        producer,
        header_size: report.header_size as usize,
        extent: report.extent as usize,
        table: placed(table, String::new()),
        generation: report.generation,
    })
}

/// A checked table of [`report`] (its blocks checked up front) as a [`PlacedTable`].
pub(crate) fn placed_table(t: &TableReport) -> PlacedTable {
    placed(t, String::new())
}

/// The regions of a table (and its blocks) that passed, from the start of the mapping.
fn placed(t: &TableReport, path: String) -> PlacedTable {
    let mut table = PlacedTable {
        base: t.base,
        rows: Vec::with_capacity(t.rows.len()),
        blocks: Vec::with_capacity(t.rows.len()),
        geometry: t.geometry.clone(),
        path,
        checked: t.clone(),
    };
    for row in &t.rows {
        let (place, blocks) = match row {
            RowReport::Placed {
                offset,
                size,
                blocks,
            } => (
                Some(Placed {
                    offset: t.base + *offset as usize,
                    size: *size as usize,
                }),
                blocks.iter().map(|b| placed(b, String::new())).collect(),
            ),
            _ => (None, Vec::new()),
        };
        table.rows.push(place);
        table.blocks.push(blocks);
    }
    table
}

/// A record read by its producer's size: our struct's bytes, zero-extended or cut to our
/// size, the producer's version and size, and the bytes past our size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordBytes {
    /// Exactly [`HandshakeSpec::full_size`] bytes; the fields absent for the producer are zero.
    pub bytes: Vec<u8>,
    /// The producer's version.
    pub producer: Version,
    /// The producer's record size, as far as the bytes given hold it.
    pub size: usize,
    /// The bytes past our record size, which a newer producer wrote.
    pub extra: Vec<u8>,
}

impl spec::HandshakeSpec<'_> {
    /// Whether the added field `f` is present in a record of `size` bytes from `producer`.
    pub fn present(&self, f: &spec::AddedField<'_>, producer: Version, size: usize) -> bool {
        producer.major == self.ours.major && f.since_minor <= producer.minor && f.end <= size
    }

    /// The bytes a producer of minor `minor` writes, by the fields each minor added.
    pub fn size_at(&self, minor: u32) -> usize {
        self.added
            .iter()
            .find(|a| a.since_minor > minor)
            .map_or(self.full_size, |a| a.offset)
    }

    /// Reads a record from `bytes` (a copy, not live memory) by its producer's size.
    pub fn read_bytes(&self, bytes: &[u8]) -> Result<RecordBytes, AttachError> {
        let producer = check_handshake(self, bytes.len(), |f| read_copy(bytes, f))?;
        let size = match self.size {
            Some(f) => usize::try_from(read_copy(bytes, f)?).unwrap_or(usize::MAX),
            None if producer.minor > self.ours.minor => bytes.len(),
            None => self.size_at(producer.minor),
        }
        .min(bytes.len());
        let mut out = vec![0u8; self.full_size];
        let keep = size.min(self.full_size);
        out[..keep].copy_from_slice(&bytes[..keep]);
        for f in self.added {
            if !self.present(f, producer, size) {
                out[f.offset..f.end].fill(0);
            }
        }
        let extra = bytes.get(self.full_size..size).unwrap_or(&[]).to_vec();
        Ok(RecordBytes {
            bytes: out,
            producer,
            size,
            extra,
        })
    }
}
