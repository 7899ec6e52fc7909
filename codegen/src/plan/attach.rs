//! The attach plan: every number and decision a reader's attach checks with, computed once
//! from `Schema::attach` and the layout. Each layout table (its header, table geometry,
//! rows with what they hold, and geometry fields) and each version handshake, in the shape
//! of `abi_runtime::attach::spec`, but owned and language-neutral: the Rust backend prints
//! it as `static` specs, the C and Python backends as their tables, and `inspect` converts
//! it into the runtime's spec types. No backend re-derives any of it.

use crate::ir::Abi;
use crate::ir::StructId;
use crate::ir::Version;
use crate::ir::attach::Attach;
use crate::ir::attach::{Handshake, Holds, LayoutTable, Row};
use crate::ir::geometry::{self, TableGeometry};
use crate::ir::scalar::Scalar;
use crate::layout::Layout;

/// Every layout table and handshake, in schema order (as `Attach::layouts` and
/// `Attach::handshakes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachPlan {
    pub tables: Vec<TablePlan>,
    pub handshakes: Vec<HandshakePlan>,
}

/// An integer field: its first byte (from the start of its struct) and its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    pub offset: u64,
    pub width: u64,
}

impl From<&Scalar> for Word {
    fn from(s: &Scalar) -> Self {
        Word {
            offset: s.offset,
            width: s.width,
        }
    }
}

fn word(s: &Scalar) -> Word {
    s.into()
}

/// One `[[layout]]` table as attach checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablePlan {
    pub name: String,
    /// The header struct's name, and its size.
    pub header: String,
    pub header_size: u64,
    /// From the start of the header.
    pub table_offset: u64,
    pub max_rows: u64,
    /// Bytes per row, and a row's `offset` and `size` fields.
    pub row_size: u64,
    pub row_offset: Word,
    pub row_len: Word,
    /// The header's fields that count the rows in use and hold the bytes the image spans.
    pub row_count: Option<Word>,
    pub extent: Option<Word>,
    /// In the index enum's order.
    pub rows: Vec<RowPlan>,
    /// The geometry fields the checks read: the header's, then each struct row's.
    pub geometry: Vec<GeometryPlan>,
}

/// One region of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowPlan {
    pub name: String,
    pub index: u64,
    /// The minor version (of ours major) that added the row, which a producer of an older
    /// minor leaves out; `None` when every producer of our major has it.
    pub since_minor: Option<u32>,
    pub optional: bool,
    pub min_size: u64,
    pub align: u64,
    /// Rows (positions in `TablePlan::rows`) it may overlap.
    pub overlaps: Vec<usize>,
    pub contents: Contents,
    pub need: Option<NeedPlan>,
    /// The geometry fields (positions in `TablePlan::geometry`) that size a ring's slot
    /// count, and its slot size or the stride between blocks.
    pub follows_count: Option<usize>,
    pub follows_size: Option<usize>,
}

/// What attach does with a region beyond its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contents {
    /// The layout's header struct itself: it may overlap the header bytes.
    Header,
    /// `count` blocks `stride` bytes apart, each laid out by table `table` (a position in
    /// `AttachPlan::tables`); the writer's stride is in geometry field `stride_geometry`.
    Blocks {
        table: crate::ir::LayoutId,
        count: u64,
        stride: u64,
        stride_geometry: Option<usize>,
    },
    /// A struct, a ring or bytes: checked by size.
    Plain,
}

/// The bytes a region needs: `fixed` plus each term's factor times the product of the
/// writer's values of its geometry fields (positions in `TablePlan::geometry`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeedPlan {
    pub fixed: u64,
    pub terms: Vec<(u64, Vec<usize>)>,
}

/// A geometry field of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeometryPlan {
    pub name: String,
    /// `None`: in the table's header. `Some(r)`: in the struct row `r` holds.
    pub row: Option<usize>,
    pub field: Word,
    pub rule: Rule,
    /// What a producer writes unless told another; `None` for an area no constant sizes.
    pub default: Option<u64>,
}

/// What a reader requires of the writer's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Equal to this value.
    Equal(u64),
    /// Not 0, a multiple of `align`, at least `least`.
    Follow { least: u64, align: u64 },
}

/// An extensible record's version handshake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandshakePlan {
    /// The record, by index into `Abi::structs`, and its name.
    pub struct_index: StructId,
    pub record: String,
    /// The reader's version: the schema's.
    pub ours: Version,
    pub magic: Option<Magic>,
    pub major: Word,
    pub minor: Word,
    pub size: Option<Word>,
    pub base_size: u64,
    pub full_size: u64,
    pub added: Vec<AddedPlan>,
    /// The writer's state field and its running value.
    pub state: Option<(Word, u64)>,
    pub generation: Option<Word>,
}

/// The field that holds the magic number, and the constant (by index into `Abi::consts`,
/// and its value) it must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Magic {
    pub field: Word,
    pub constant: usize,
    pub value: u64,
}

/// A field a minor version of ours major added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedPlan {
    pub name: String,
    pub since_minor: u32,
    pub offset: u64,
    pub end: u64,
}

/// What the attach plan is computed from: the lowered schema's parts (the `Schema` holds the
/// plan, so the plan is made before it).
struct Lowered<'a> {
    abi: &'a Abi,
    layout: &'a Layout,
    attach: &'a Attach,
}

impl AttachPlan {
    /// The plan of every layout table and handshake; `load_schema` makes it once and the
    /// `Schema` holds it (`Schema::attach_plan`).
    pub fn new(abi: &Abi, layout: &Layout, attach: &Attach) -> Self {
        let schema = &Lowered {
            abi,
            layout,
            attach,
        };
        AttachPlan {
            tables: (attach.layouts.iter()).map(|l| table(schema, l)).collect(),
            handshakes: (attach.handshakes.iter())
                .map(|h| handshake(schema, h))
                .collect(),
        }
    }

    /// The handshake of struct `struct_index`, when it declares `version`.
    pub fn handshake_of(&self, struct_index: StructId) -> Option<&HandshakePlan> {
        self.handshakes
            .iter()
            .find(|h| h.struct_index == struct_index)
    }
}

impl RowPlan {
    /// The version that added the row, as ours major and its minor.
    pub fn since(&self, ours: Version) -> Option<Version> {
        self.since_minor.map(|minor| Version {
            major: ours.major,
            minor,
        })
    }
}

fn table(schema: &Lowered<'_>, l: &LayoutTable) -> TablePlan {
    TablePlan {
        name: l.name.clone(),
        header: schema.abi.structs[l.header].name.clone(),
        header_size: schema.layout.of(l.header).size,
        table_offset: l.table_offset,
        max_rows: l.max_rows,
        row_size: l.row_size,
        row_offset: word(&l.row_offset),
        row_len: word(&l.row_size_field),
        row_count: l.row_count.as_ref().map(word),
        extent: l.extent.as_ref().map(word),
        rows: l.rows.iter().map(|r| row(schema, l, r)).collect(),
        geometry: l.geometry.iter().map(|t| geometry(schema, t)).collect(),
    }
}

fn row(schema: &Lowered<'_>, l: &LayoutTable, r: &Row) -> RowPlan {
    let ours = schema.abi.version;
    let contents = match r.holds {
        Holds::Struct { struct_index, .. } if struct_index == l.header => Contents::Header,
        Holds::Blocks {
            layout,
            count,
            stride,
        } => Contents::Blocks {
            table: layout,
            count,
            stride,
            stride_geometry: r.follows.size,
        },
        _ => Contents::Plain,
    };
    RowPlan {
        name: r.name.clone(),
        index: r.index,
        // A row added at another major, or at minor 0, is in every producer of ours.
        since_minor: (r.since)
            .filter(|v| v.major == ours.major && v.minor > 0)
            .map(|v| v.minor),
        optional: r.optional,
        min_size: r.min_size,
        align: r.align,
        overlaps: r.overlaps.clone(),
        contents,
        need: r.need.as_ref().map(|n| NeedPlan {
            fixed: n.fixed,
            terms: (n.terms.iter())
                .map(|t| (t.factor, t.geometry.clone()))
                .collect(),
        }),
        follows_count: r.follows.count,
        follows_size: r.follows.size,
    }
}

fn geometry(schema: &Lowered<'_>, t: &TableGeometry) -> GeometryPlan {
    let g = &schema.attach.geometry[t.geometry];
    GeometryPlan {
        name: schema.abi.structs[g.struct_index].fields[g.field]
            .name
            .clone(),
        row: t.row,
        field: word(&g.scalar),
        rule: match g.rule {
            // An equal field's value is always a constant's (lowering gives `*` Follow).
            geometry::GeometryRule::Equal => Rule::Equal(g.value.unwrap_or(0)),
            geometry::GeometryRule::Follow { least, align } => Rule::Follow { least, align },
        },
        default: g.value,
    }
}

fn handshake(schema: &Lowered<'_>, h: &Handshake) -> HandshakePlan {
    let abi = &schema.abi;
    let s = &abi.structs[h.struct_index];
    HandshakePlan {
        struct_index: h.struct_index,
        record: s.name.clone(),
        ours: abi.version,
        magic: h.magic.as_ref().map(|(f, c)| Magic {
            field: word(f),
            constant: *c,
            value: abi.consts[*c].value as u64,
        }),
        major: word(&h.major),
        minor: word(&h.minor),
        size: h.size.as_ref().map(word),
        base_size: h.base_size,
        full_size: schema.layout.of(h.struct_index).size,
        // Lowering keeps only fields added at a minor of ours major.
        added: (h.added.iter())
            .map(|a| AddedPlan {
                name: s.fields[a.field].name.clone(),
                since_minor: a.since.minor,
                offset: a.offset,
                end: a.end,
            })
            .collect(),
        state: (h.liveness.as_ref()).map(|l| (word(&l.state), l.running)),
        generation: (h.liveness.as_ref())
            .and_then(|l| l.generation.as_ref())
            .map(word),
    }
}

crate::ir::id::index_by!(crate::ir::id::LayoutId => TablePlan);
