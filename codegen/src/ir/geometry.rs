//! Geometry: the header fields that hold, as the writer built it, a number the schema also
//! writes (`geometry = "ring_slots"` on a field), whether a reader must find the schema's
//! value there or follows the writer's, and what each region needs of the values it follows.

use crate::ir::id::StructId;
use crate::ir::scalar::Scalar;

/// A field that holds a number of the schema as the writer built it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    /// The struct that holds it (a layout's header, or a struct a layout row holds), by
    /// index into `Abi::structs`.
    pub struct_index: StructId,
    /// Index into the struct's fields.
    pub field: usize,
    /// The field, from the start of its struct.
    pub scalar: Scalar,
    /// As the schema wrote it: `ring_slots`, `draw_list_header + draw_max_commands * draw_cmd`,
    /// or `*` (an area the writer sizes, which no constant names).
    pub expr: String,
    /// The value of `expr`; `None` for `*`.
    pub value: Option<u64>,
    pub rule: GeometryRule,
}

/// What a reader does with the writer's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeometryRule {
    /// It must equal the schema's value: the number sizes something whose layout is fixed
    /// (an array inside a struct, or the least size of a region the views read by constant).
    Equal,
    /// The views size themselves from it: it must not be 0, must be a multiple of `align`,
    /// at least `least`, and the region it sizes must hold what it asks for.
    Follow { least: u64, align: u64 },
}

/// A geometry field as one layout table reads it: the table's header's own fields, then
/// those of the struct each row holds, in row order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableGeometry {
    /// Index into `Attach::geometry`.
    pub geometry: usize,
    /// `None`: in the table's header, at the table's base. `Some(r)`: in the struct that row
    /// `r` (a position in `LayoutTable::rows`) holds, at the row's offset.
    pub row: Option<usize>,
}

/// The bytes a region needs for the values it follows: `fixed` plus, for each term, its
/// factor times the product of the writer's values it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    pub fixed: u64,
    pub terms: Vec<NeedTerm>,
}

/// `factor` times the writer's values of some geometry fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeedTerm {
    pub factor: u64,
    /// Indices into `LayoutTable::geometry`.
    pub geometry: Vec<usize>,
}

/// Which of a table's geometry fields (indices into `LayoutTable::geometry`) size a ring
/// row's slots or a blocks row's stride.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Follows {
    /// A ring's slot count.
    pub count: Option<usize>,
    /// A ring's slot size, or the stride between blocks.
    pub size: Option<usize>,
}

/// The fields of a handshake that say whether the writer has finished its tables, and
/// which generation of them a reader checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Liveness {
    /// The writer's state, read first with acquire.
    pub state: Scalar,
    /// The value of `state` that means the tables are written.
    pub running: u64,
    /// The name of that value, as the schema wrote it.
    pub running_name: String,
    /// Changes each time the writer rewrites the tables.
    pub generation: Option<Scalar>,
}
