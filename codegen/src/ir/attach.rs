//! Attaching to a live image: the version handshake of extensible records (magic, major,
//! minor, producer size, and which fields each minor version added), and the layout tables
//! that say where each region is and what it holds. Lowered after the layout and the
//! access declarations, with every offset and least size computed here, once.

use crate::diagnostics::Span;
use crate::ir::file::FileFormat;
use crate::ir::geometry::{Follows, Geometry, Liveness, Need, TableGeometry};
use crate::ir::id::{LayoutId, ProtocolId, StructId};
use crate::ir::scalar::Scalar;
use crate::ir::version::Version;

/// Everything the schema says about attaching.
#[derive(Debug, Clone, Default)]
pub struct Attach {
    /// The structs that declare `version`, in schema order.
    pub handshakes: Vec<Handshake>,
    /// The `[[layout]]` tables, in schema order.
    pub layouts: Vec<LayoutTable>,
    /// The layout a mapping starts with (its header declares `version` and no other layout
    /// nests it as blocks), by index into `layouts`.
    pub root: Option<LayoutId>,
    /// The `[[file]]` formats, in schema order: read with the same scalars as the tables.
    pub files: Vec<FileFormat>,
    /// Every field with `geometry`, in schema order (by struct, then field).
    pub geometry: Vec<Geometry>,
}

impl Attach {
    /// The layout table named `name`.
    pub fn layout_id(&self, name: &str) -> Option<LayoutId> {
        (self.layouts.iter().position(|l| l.name == name)).map(LayoutId::new)
    }
}

/// How a reader learns who produced an extensible record.
#[derive(Debug, Clone)]
pub struct Handshake {
    /// The record, by index into `Abi::structs`.
    pub struct_index: StructId,
    /// The field that holds the magic number, and the constant (by index) it must hold.
    pub magic: Option<(Scalar, usize)>,
    pub major: Scalar,
    pub minor: Scalar,
    /// The field that holds the producer's record size in bytes.
    pub size: Option<Scalar>,
    /// Bytes every producer of this major version writes: up to the first field a later
    /// minor version added. The handshake's fields lie inside it.
    pub base_size: u64,
    /// The fields a minor version added, in order.
    pub added: Vec<AddedField>,
    /// The writer's state and generation (`state`, `running`, `generation`).
    pub liveness: Option<Liveness>,
    /// Who produced the record (`pid`, `producer_version`, `clock_mono_ns`,
    /// `clock_unix_ns`): each field the schema names, stamped by the producer.
    pub identity: Identity,
}

/// Where a record keeps who produced it; a character field's `width` is its bytes.
#[derive(Debug, Clone, Default)]
pub struct Identity {
    pub pid: Option<Scalar>,
    pub version: Option<Scalar>,
    pub mono_ns: Option<Scalar>,
    pub unix_ns: Option<Scalar>,
}

impl Identity {
    /// Whether the schema names any of the fields.
    pub fn is_empty(&self) -> bool {
        self.pid.is_none()
            && self.version.is_none()
            && self.mono_ns.is_none()
            && self.unix_ns.is_none()
    }
}

/// A field that a minor version added to an extensible record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedField {
    /// Index into the struct's fields.
    pub field: usize,
    pub since: Version,
    /// From the start of the record: its first byte, and the byte after it.
    pub offset: u64,
    pub end: u64,
}

impl Handshake {
    /// The bytes a producer of minor version `minor` (of this major) writes: up to the first
    /// field added after it, or the whole record when it is as new as ours.
    pub fn size_at(&self, major: u32, minor: u32, full: u64) -> u64 {
        self.added
            .iter()
            .find(|a| a.since.major == major && a.since.minor > minor)
            .map_or(full, |a| a.offset)
    }
}

/// The most rows a layout lays out: every language checks a table's regions for overlap with
/// a 64-bit mask per row (lowering refuses more).
pub const MAX_LAYOUT_ROWS: usize = 64;

/// The most levels of blocks below a layout (a layout whose rows hold blocks laid out by a
/// layout whose rows hold blocks, ...): lowering refuses deeper nesting, so that every
/// language's accessors take one index per level from a fixed list.
pub const MAX_BLOCK_NESTING: usize = 8;

/// A layout table: a header's array of `{ offset, size }` rows, indexed by an enum.
#[derive(Debug, Clone)]
pub struct LayoutTable {
    pub name: String,
    pub doc: String,
    /// The header struct, by index into `Abi::structs`.
    pub header: StructId,
    /// The table field, by index into the header's fields.
    pub table_field: usize,
    /// From the start of the header.
    pub table_offset: u64,
    /// Rows the table holds.
    pub max_rows: u64,
    /// Bytes per row.
    pub row_size: u64,
    /// The row struct's `offset` and `size` fields, from the start of a row.
    pub row_offset: Scalar,
    pub row_size_field: Scalar,
    /// The header's field that counts the rows in use (the table's `count`).
    pub row_count: Option<Scalar>,
    /// The header's field that holds the bytes the bridge or block spans.
    pub extent: Option<Scalar>,
    /// The index enum, by index into `Abi::enums`.
    pub index_enum: usize,
    /// In the index enum's order.
    pub rows: Vec<Row>,
    /// The alignment a bridge or block laid out by this table needs: its header's, and
    /// every region's whose offset is relative to it.
    pub align: u64,
    /// The geometry fields this table's checks read: its header's, then each struct row's.
    pub geometry: Vec<TableGeometry>,
    pub span: Span,
}

/// One region of a layout table.
#[derive(Debug, Clone)]
pub struct Row {
    /// The index enum's value name.
    pub name: String,
    pub doc: String,
    /// The row's index in the table: the enum value.
    pub index: u64,
    /// The version that added the row (its enum value's `since`): an older producer may
    /// leave it out.
    pub since: Option<Version>,
    /// Whether any producer may leave it out.
    pub optional: bool,
    pub holds: Holds,
    /// Bytes the region needs at least for what it holds (with the least of each value it
    /// follows from the writer's geometry).
    pub min_size: u64,
    /// For a struct row: the bytes of one struct with its trailer; 0 for the others.
    pub each: u64,
    /// The alignment its offset needs.
    pub align: u64,
    /// Rows (by position in `LayoutTable::rows`) it may overlap.
    pub overlaps: Vec<usize>,
    /// What the region needs for the writer's values it follows (checked against its size).
    pub need: Option<Need>,
    /// The geometry that sizes a ring's slots or the stride between blocks.
    pub follows: Follows,
    /// A blocks row's owner: the session (by index into the schema's protocols) whose row i
    /// owns block i.
    pub owner: Option<ProtocolId>,
}

/// What a region holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holds {
    /// `count` structs back to back (one, unless said), each with its trailer, then `bytes`
    /// more bytes.
    Struct {
        struct_index: StructId,
        count: u64,
        bytes: u64,
    },
    /// A `[[ring]]` of slots, by index into `Access::rings`.
    Ring { ring: usize },
    /// `count` blocks, `stride` bytes apart, each laid out by a layout table.
    Blocks {
        layout: LayoutId,
        count: u64,
        stride: u64,
    },
    /// A byte buffer of at least `bytes`.
    Bytes { bytes: u64 },
}

impl Holds {
    /// The schema's word for it.
    pub fn keyword(&self) -> &'static str {
        match self {
            Holds::Struct { .. } => "struct",
            Holds::Ring { .. } => "ring",
            Holds::Blocks { .. } => "blocks",
            Holds::Bytes { .. } => "bytes",
        }
    }
}

/// The checks an attach makes, by the snake_case names every target reports them with
/// (`codegen/ATTACH.md`), in that document's order: a target numbers them from 1 in this order.
pub const CHECKS: [&str; 21] = [
    "mapping_too_short",
    "bad_magic",
    "major_mismatch",
    "header_too_small",
    "header_beyond_mapping",
    "extent_beyond_mapping",
    "extent_too_small",
    "extent_beyond_block",
    "too_many_rows",
    "region_missing",
    "region_out_of_bounds",
    "region_misaligned",
    "region_too_small",
    "regions_overlap",
    "host_not_running",
    "host_reloaded",
    "geometry_mismatch",
    "geometry_zero",
    "geometry_misaligned",
    "geometry_too_small",
    "geometry_too_large",
];

crate::ir::id::index_by!(LayoutId => LayoutTable);
