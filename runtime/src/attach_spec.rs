//! What attach checks an image against: its layout tables and version handshakes, described
//! with borrowed names and lists. Generated code writes them as `static` data (the `'static`
//! aliases in [`crate::attach`]); a tool builds them at run time from a schema, borrowing its
//! names and rows (`abi-codegen inspect`), and the same engine checks both.

pub use crate::spec::Field;

/// An ABI version, `major.minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Must equal the reader's.
    pub major: u32,
    /// Older and newer are both accepted.
    pub minor: u32,
}

impl core::fmt::Display for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A field a later minor version added to an extensible record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddedField<'a> {
    /// The field's name.
    pub name: &'a str,
    /// The minor version that added it (of the reader's major).
    pub since_minor: u32,
    /// Its first byte and the byte after it, from the start of the record.
    pub offset: usize,
    /// The byte after it.
    pub end: usize,
}

/// How a reader learns who produced an extensible record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandshakeSpec<'a> {
    /// The record's name.
    pub record: &'a str,
    /// The reader's version (the schema's).
    pub ours: Version,
    /// The magic field and the value it holds.
    pub magic: Option<(Field, u64)>,
    /// The major version field.
    pub major: Field,
    /// The minor version field.
    pub minor: Field,
    /// The producer's record size field.
    pub size: Option<Field>,
    /// Bytes every producer of this major writes.
    pub base_size: usize,
    /// The reader's record size.
    pub full_size: usize,
    /// The fields later minor versions added, in order.
    pub added: &'a [AddedField<'a>],
    /// The writer's state field and the value that means its tables are written: attach
    /// reads it first (acquire) and refuses any other value, retryably.
    pub state: Option<(Field, u64)>,
    /// The field the writer changes each time it rewrites its tables.
    pub generation: Option<Field>,
}

/// What a reader does with a geometry field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeometryRule {
    /// It must equal the schema's value.
    Equal(u64),
    /// The views follow it: not 0, a multiple of `align`, at least `least`.
    Follow {
        /// The least value the schema's types need.
        least: u64,
        /// The value is a multiple of it.
        align: u64,
    },
}

/// A header field that holds a number of the schema as the writer built it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeometrySpec<'a> {
    /// The field's name.
    pub name: &'a str,
    /// `None`: in the table's header. `Some(r)`: in the struct row `r` holds.
    pub row: Option<usize>,
    /// The field, from the start of its struct.
    pub field: Field,
    /// Equal or followed.
    pub rule: GeometryRule,
    /// The value a producer writes unless told another ([`crate::produce`]): the schema's;
    /// `None` for an area no constant of the schema sizes, which the producer must give.
    pub default: Option<u64>,
}

/// `factor` times the writer's values of some geometry fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedTerm<'a> {
    /// A constant factor.
    pub factor: u64,
    /// Indices into [`TableSpec::geometry`].
    pub geometry: &'a [usize],
}

/// The bytes a region needs for the writer's values it follows: `fixed` plus each term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedSpec<'a> {
    /// Bytes that do not depend on the writer's values.
    pub fixed: u64,
    /// The rest.
    pub terms: &'a [NeedTerm<'a>],
}

impl NeedSpec<'_> {
    /// The bytes the region needs for the writer's values, `value(g)` being geometry field
    /// `g`'s (saturating at `u64::MAX`), or `None` when a value it names is unknown.
    pub fn bytes(&self, value: impl Fn(usize) -> Option<u64>) -> Option<u64> {
        self.terms.iter().try_fold(self.fixed, |total, term| {
            let product = term
                .geometry
                .iter()
                .try_fold(term.factor, |p, &g| Some(p.saturating_mul(value(g)?)))?;
            Some(total.saturating_add(product))
        })
    }
}

/// What a row's region holds, as far as attach checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowContents<'a> {
    /// A struct (with its trailer and any bytes after it), a ring, or bytes: checked by size.
    Plain,
    /// The layout's header struct itself: it may overlap the header bytes.
    Header,
    /// `count` blocks, `stride` bytes apart, each laid out by `table`.
    Blocks {
        /// The nested layout.
        table: &'a TableSpec<'a>,
        /// How many blocks.
        count: usize,
        /// Bytes from one block's start to the next's (the schema's).
        stride: usize,
        /// The table's geometry field that holds the stride when the writer's is followed
        /// (an index into [`TableSpec::geometry`]).
        stride_geometry: Option<usize>,
    },
}

/// One row of a layout table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSpec<'a> {
    /// The index enum's value name.
    pub name: &'a str,
    /// The row's index in the table.
    pub index: usize,
    /// The minor version (of the reader's major) that added the row, when a later one did.
    pub since_minor: Option<u32>,
    /// Any producer may leave it out.
    pub optional: bool,
    /// Bytes the region needs at least.
    pub min_size: u64,
    /// The alignment its start needs.
    pub align: u64,
    /// Rows (by position in [`TableSpec::rows`]) it may overlap.
    pub overlaps: &'a [usize],
    /// What it holds.
    pub contents: RowContents<'a>,
    /// What it needs of the writer's values it follows.
    pub need: Option<NeedSpec<'a>>,
}

/// A layout table: a header's array of `{ offset, size }` rows indexed by an enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSpec<'a> {
    /// The layout's name.
    pub name: &'a str,
    /// The header struct's name.
    pub header: &'a str,
    /// The header struct's size.
    pub header_size: usize,
    /// From the start of the header.
    pub table_offset: usize,
    /// Rows the table holds.
    pub max_rows: usize,
    /// Bytes per row.
    pub row_size: usize,
    /// The row's `offset` field, from the row's start.
    pub row_offset: Field,
    /// The row's `size` field, from the row's start.
    pub row_len: Field,
    /// The header's field counting the rows in use.
    pub row_count: Option<Field>,
    /// The header's field holding the bytes the bridge or block spans.
    pub extent: Option<Field>,
    /// In index order.
    pub rows: &'a [RowSpec<'a>],
    /// The geometry fields it reads: the header's, then each struct row's.
    pub geometry: &'a [GeometrySpec<'a>],
}
