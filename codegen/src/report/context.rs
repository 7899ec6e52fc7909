//! The shape of `abi-codegen layout --json`, which is also the context of user templates
//! (codegen/TEMPLATES.md documents it field by field): one serializable type per item kind,
//! its fields in the order the JSON prints them. `report.rs` fills them from a schema.

use serde::Serialize;

/// The whole layout: the `[abi]` table, then every item kind, in schema order.
#[derive(Debug, Clone, Serialize)]
pub struct LayoutContext<'a> {
    /// [`super::LAYOUT_FORMAT_VERSION`].
    pub format_version: u32,
    pub abi: AbiJson<'a>,
    pub constants: Vec<ConstJson<'a>>,
    pub enums: Vec<EnumJson<'a>>,
    pub structs: Vec<StructJson<'a>>,
    pub seqlocks: Vec<SeqlockJson<'a>>,
    pub rings: Vec<RingJson<'a>>,
    pub handshakes: Vec<HandshakeJson<'a>>,
    pub layouts: Vec<LayoutTableJson<'a>>,
}

/// `[abi]`: the names, the version and the parties.
#[derive(Debug, Clone, Serialize)]
pub struct AbiJson<'a> {
    pub name: &'a str,
    pub version: String,
    pub c_prefix: &'a str,
    pub byte_order: ByteOrder,
    pub parties: &'a [String],
}

/// The byte order of every schema: little-endian, the one `[abi] byte_order` allows.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ByteOrder {
    Little,
}

/// An integer of the schema, exactly: every value fits a u64 or an i64 (a u64 above i64's
/// range stays positive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Exact {
    Unsigned(u64),
    Negative(i64),
}

impl Exact {
    pub fn of(value: i128) -> Self {
        match u64::try_from(value) {
            Ok(v) => Exact::Unsigned(v),
            Err(_) => {
                Exact::Negative(i64::try_from(value).expect("schema values fit an i64 or a u64"))
            }
        }
    }
}

/// A `[[const]]`: its value exactly, its literal and expression, type, doc and since.
#[derive(Debug, Clone, Serialize)]
pub struct ConstJson<'a> {
    pub name: &'a str,
    pub value: Exact,
    pub literal: &'a str,
    pub expr: Option<&'a str>,
    /// `usize`, or the primitive's name.
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub sizes_array: bool,
    pub doc: &'a str,
    pub since: Option<String>,
}

/// An `[[enum]]` or `[[flags]]`, with its values.
#[derive(Debug, Clone, Serialize)]
pub struct EnumJson<'a> {
    pub name: &'a str,
    /// `enum` or `flags`.
    pub kind: &'static str,
    pub repr: &'static str,
    pub size: u64,
    pub doc: &'a str,
    pub since: Option<String>,
    pub values: Vec<EnumValueJson<'a>>,
}

/// One value of an enum or flag set.
#[derive(Debug, Clone, Serialize)]
pub struct EnumValueJson<'a> {
    pub name: &'a str,
    pub value: Exact,
    pub literal: &'a str,
    pub doc: &'a str,
    pub since: Option<String>,
}

/// A `[[struct]]`: its size, alignment, sharing, trailer and fields.
#[derive(Debug, Clone, Serialize)]
pub struct StructJson<'a> {
    pub name: &'a str,
    pub size: u64,
    pub align: u64,
    pub extensible: bool,
    pub shared: bool,
    pub writers: Vec<&'a str>,
    pub trailer: Vec<TrailerJson<'a>>,
    pub doc: &'a str,
    pub since: Option<String>,
    pub fields: Vec<FieldJson<'a>>,
}

/// One part of a struct's trailer.
#[derive(Debug, Clone, Serialize)]
pub struct TrailerJson<'a> {
    pub name: &'a str,
    #[serde(rename = "type")]
    pub ty: &'a str,
    pub offset: u64,
    pub size: u64,
    pub align: u64,
    pub size_field: Option<&'a str>,
    pub doc: &'a str,
}

/// One field: its type, element, count, place, access, writers and seqlock.
#[derive(Debug, Clone, Serialize)]
pub struct FieldJson<'a> {
    pub name: &'a str,
    #[serde(rename = "type")]
    pub ty: &'a str,
    pub elem: ElemJson<'a>,
    pub count: Option<u64>,
    pub count_constant: Option<&'a str>,
    pub offset: u64,
    pub size: u64,
    pub align: u64,
    pub elem_size: u64,
    pub padding: bool,
    pub count_field: Option<&'a str>,
    pub expect: Option<&'a str>,
    /// The access keyword: `plain`, `atomic`, ...
    pub access: &'static str,
    pub access_width: Option<u64>,
    pub writers: Vec<&'a str>,
    pub seqlock: Option<&'a str>,
    pub doc: &'a str,
    pub since: Option<String>,
}

/// What one element of a field is, by `kind`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ElemJson<'a> {
    Primitive { name: &'static str },
    Char,
    Enum { name: &'a str },
    Flags { name: &'a str },
    Struct { name: &'a str },
}

/// A `[[seqlock]]`: its counter, what it guards, and who writes and reads.
#[derive(Debug, Clone, Serialize)]
pub struct SeqlockJson<'a> {
    pub name: &'a str,
    /// `struct.field`.
    pub counter: String,
    pub counter_width: u64,
    pub guards: Vec<GuardJson<'a>>,
    pub writers: Vec<&'a str>,
    pub readers: Vec<&'a str>,
    pub doc: &'a str,
}

/// What a seqlock guards: a field of its struct, or a part of its trailer.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum GuardJson<'a> {
    Field { field: &'a str },
    Trailer { trailer: &'a str },
}

/// A `[[ring]]`: a ring of slots or an event ring.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RingJson<'a> {
    Slots(SlotsRingJson<'a>),
    Events(EventsRingJson<'a>),
}

/// The `kind` of a ring.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RingKindJson {
    Slots,
    Events,
}

/// A ring of seqlocked slots.
#[derive(Debug, Clone, Serialize)]
pub struct SlotsRingJson<'a> {
    pub name: &'a str,
    /// [`RingKindJson::Slots`].
    pub kind: RingKindJson,
    pub doc: &'a str,
    /// `struct.field`.
    pub head: String,
    pub slot_count: u64,
    pub slot_size: u64,
    pub seqlock: &'a str,
    pub publish_seq: Option<&'a str>,
}

/// A ring of events.
#[derive(Debug, Clone, Serialize)]
pub struct EventsRingJson<'a> {
    pub name: &'a str,
    /// [`RingKindJson::Events`].
    pub kind: RingKindJson,
    pub doc: &'a str,
    /// `struct.field`.
    pub total: String,
    /// `struct.field`.
    pub entries: String,
    pub capacity: u64,
}

/// A field read at a fixed place: its path, offset and width.
#[derive(Debug, Clone, Serialize)]
pub struct ScalarJson<'a> {
    pub path: &'a str,
    pub offset: u64,
    pub width: u64,
}

/// A version handshake: where the magic, versions and size are, and what each minor version
/// added.
#[derive(Debug, Clone, Serialize)]
pub struct HandshakeJson<'a> {
    #[serde(rename = "struct")]
    pub structure: &'a str,
    pub magic: Option<MagicJson<'a>>,
    pub major: ScalarJson<'a>,
    pub minor: ScalarJson<'a>,
    pub size: Option<ScalarJson<'a>>,
    pub base_size: u64,
    pub added: Vec<AddedJson<'a>>,
    pub liveness: Option<LivenessJson<'a>>,
}

/// A handshake's magic: its field, and the constant it holds.
#[derive(Debug, Clone, Serialize)]
pub struct MagicJson<'a> {
    pub field: ScalarJson<'a>,
    pub constant: &'a str,
    pub value: u64,
}

/// A field a minor version added.
#[derive(Debug, Clone, Serialize)]
pub struct AddedJson<'a> {
    pub field: &'a str,
    pub since: String,
    pub offset: u64,
    pub end: u64,
}

/// A handshake's writer state and generation.
#[derive(Debug, Clone, Serialize)]
pub struct LivenessJson<'a> {
    pub state: ScalarJson<'a>,
    pub running: u64,
    pub running_name: &'a str,
    pub generation: Option<ScalarJson<'a>>,
}

/// A `[[layout]]` table: where the rows are, and each region's contents, least size and
/// alignment.
#[derive(Debug, Clone, Serialize)]
pub struct LayoutTableJson<'a> {
    pub name: &'a str,
    pub doc: &'a str,
    pub root: bool,
    pub header: &'a str,
    pub table: TableJson<'a>,
    pub row_offset: ScalarJson<'a>,
    pub row_size: ScalarJson<'a>,
    pub row_count: Option<ScalarJson<'a>>,
    pub extent: Option<ScalarJson<'a>>,
    pub index: &'a str,
    pub align: u64,
    pub rows: Vec<RowJson<'a>>,
    pub geometry: Vec<GeometryJson<'a>>,
}

/// The header's table of rows.
#[derive(Debug, Clone, Serialize)]
pub struct TableJson<'a> {
    pub field: &'a str,
    pub offset: u64,
    pub rows: u64,
    pub row_size: u64,
}

/// One row of a layout table.
#[derive(Debug, Clone, Serialize)]
pub struct RowJson<'a> {
    pub name: &'a str,
    pub index: u64,
    pub doc: &'a str,
    pub since: Option<String>,
    pub optional: bool,
    pub holds: HoldsJson<'a>,
    pub min_size: u64,
    pub align: u64,
    pub overlaps: Vec<&'a str>,
    pub need: Option<NeedJson<'a>>,
    pub follows: FollowsJson,
}

/// What a row's region holds.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum HoldsJson<'a> {
    Struct {
        #[serde(rename = "struct")]
        structure: &'a str,
        count: u64,
        bytes: u64,
    },
    Ring {
        ring: &'a str,
    },
    Blocks {
        blocks: &'a str,
        count: u64,
        stride: u64,
    },
    Bytes {
        bytes: u64,
    },
}

/// The least size a row needs from the geometry: a fixed part and terms.
#[derive(Debug, Clone, Serialize)]
pub struct NeedJson<'a> {
    pub fixed: u64,
    pub terms: Vec<TermJson<'a>>,
}

/// One term of a row's need: a factor times geometry values.
#[derive(Debug, Clone, Serialize)]
pub struct TermJson<'a> {
    pub factor: u64,
    pub geometry: &'a [usize],
}

/// Which geometry values a row follows.
#[derive(Debug, Clone, Serialize)]
pub struct FollowsJson {
    pub count: Option<usize>,
    pub size: Option<usize>,
}

/// One geometry field of a layout table.
#[derive(Debug, Clone, Serialize)]
pub struct GeometryJson<'a> {
    #[serde(rename = "struct")]
    pub structure: &'a str,
    pub field: ScalarJson<'a>,
    pub row: Option<&'a str>,
    pub expr: &'a str,
    pub value: Option<u64>,
    pub rule: GeometryRuleJson,
    pub least: Option<u64>,
    pub align: Option<u64>,
}

/// How a geometry value relates to the row: equal to it, or following it.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GeometryRuleJson {
    Equal,
    Follow,
}
