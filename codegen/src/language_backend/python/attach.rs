//! The Python target's attach section: `attach(buffer)`, which checks a mapping as
//! `codegen/ATTACH.md` says, step for step, and hands out its regions; `AttachError`; and
//! `read_versioned`, which reads an extensible record by its producer's size. The layout
//! tables and handshakes go into the module as data (every offset, size and alignment
//! taken from `Schema::attach`, never recomputed), and one generic checker written once in
//! `templates/python_attach.py.j2` walks them. Each layout gets a handle class with one
//! method per row, handing out the live view (`live/`), the ring, the nested
//! blocks, or the bytes. None when the schema declares neither handshakes nor layouts.
//!
//! Names: the error, the handles and the record class are CamelCase (`AttachError`,
//! `Bridge`, `ClientBlock`, `VersionedRecord`), the functions lowercase (`attach`,
//! `read_versioned`); any that is taken gets a trailing `_`, as in the live section. A row
//! method is the row's name, with a `_` when it is a keyword or a handle's own attribute.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Serialize;

use super::literals::doc_lines;
use super::live::LiveSection;
use super::names::{Namer, Names, python_field_alias, python_type_name};
use crate::ir::StructId;
use crate::ir::access::RingKind;
use crate::ir::attach::{Holds, LayoutTable, Row};
use crate::ir::scalar::Scalar;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::attach::{self as plan, Contents, HandshakePlan, Rule, TablePlan};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "python_attach.py.j2",
    source: include_str!("../../../templates/python_attach.py.j2"),
};

/// The template, compiled on first use.
/// The parts `python_attach.py.j2` includes, one concern each.
const PARTS: [Template; 5] = [
    template!("python_attach_check.py.j2"),
    template!("python_attach_tables.py.j2"),
    template!("python_attach_entry.py.j2"),
    template!("python_produce.py.j2"),
    template!("python_record_read.py.j2"),
];

static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

/// The rendered section (after the live section, if any) and the public names it adds to
/// `__all__`.
#[derive(Serialize)]
pub(super) struct AttachSection {
    pub text: String,
    /// `attach` when the schema has a root layout, and `read_versioned`, as named.
    pub attach: Option<String>,
    pub read_versioned: String,
    pub error: String,
    #[serde(skip)]
    pub exports: Vec<String>,
    /// The context the text was rendered from, which the stub types (`stub/attach.rs`).
    #[serde(skip)]
    pub context: AttachContext,
}

/// The attach section of the module, or `None` when the schema declares no handshake and
/// no layout.
pub(super) fn render_attach(
    schema: &Schema,
    names: &Names,
    live: Option<&LiveSection>,
) -> Result<Option<AttachSection>, RenderError> {
    let a = &schema.attach;
    if a.handshakes.is_empty() && a.layouts.is_empty() {
        return Ok(None);
    }
    let context = attach_context(schema, names, live);
    Ok(Some(AttachSection {
        text: COMPILED.render(&context)?,
        attach: context.root.map(|_| context.attach.clone()),
        read_versioned: context.read_versioned.clone(),
        error: context.error.clone(),
        exports: context.exports.clone(),
        context,
    }))
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct AttachContext {
    pub(in crate::language_backend::python) error: String,
    pub(in crate::language_backend::python) attach: String,
    pub(in crate::language_backend::python) read_versioned: String,
    pub(in crate::language_backend::python) record: String,
    /// The producer's side: `lay_out`, `produce` and `ProduceError`, as named.
    pub(in crate::language_backend::python) lay_out: String,
    pub(in crate::language_backend::python) produce: String,
    pub(in crate::language_backend::python) produce_error: String,
    /// `stamp_identity`, as named, when the root's handshake names who produced it: its
    /// fields `(offset, width)` each, width 0 for one it does not name (pid, version,
    /// mono_ns, unix_ns).
    pub(in crate::language_backend::python) stamp_identity: Option<(String, [Word; 4])>,
    /// Whether the live section is there: then `_Mem` holds the buffer for the handles.
    live: bool,
    /// Each session row's word that holds its generation, which produce carries past the
    /// mapping's (`plan::session::carried_rows`): `(offset from the mapping's start, bytes,
    /// the generation's first byte in it)`, ascending.
    carried: Vec<[u64; 3]>,
    pub(in crate::language_backend::python) handshakes: Vec<HandshakeData>,
    pub(in crate::language_backend::python) tables: Vec<TableData>,
    /// The root layout, by index into `tables`, and its header's handshake, by index.
    pub(in crate::language_backend::python) root: Option<(usize, usize)>,
    /// An example for the docs: the root class and its first rows of each kind.
    example: Option<Example>,
    #[serde(skip)]
    exports: Vec<String>,
}

/// An integer field: (offset, width).
type Word = (u64, u64);

fn word(w: plan::Word) -> Word {
    (w.offset, w.width)
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct HandshakeData {
    /// The struct's Python class and its schema name.
    pub(in crate::language_backend::python) class: String,
    name: String,
    /// (offset, width, the constant's Python name).
    magic: Option<(u64, u64, String)>,
    major: Word,
    minor: Word,
    size: Option<Word>,
    base_size: u64,
    full_size: u64,
    added: Vec<AddedData>,
    /// The writer's state field, its `running` value, and its generation field, when the
    /// handshake names them.
    liveness: Option<(Word, u64, Option<Word>)>,
    /// Also a class method of the struct (no field of that name).
    pub(in crate::language_backend::python) method: bool,
}

#[derive(Serialize)]
struct AddedData {
    /// The field's name, and its keyword alias if it has one: both read as None when absent.
    names: Vec<String>,
    since: (u32, u32),
    offset: u64,
    end: u64,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct TableData {
    name: String,
    pub(in crate::language_backend::python) class: String,
    doc: Vec<String>,
    /// The header struct's schema name (errors name the header bytes after it) and size.
    header: String,
    header_size: u64,
    table_offset: u64,
    max_rows: u64,
    row_size: u64,
    row_offset: Word,
    row_size_field: Word,
    row_count: Option<Word>,
    extent: Option<Word>,
    pub(in crate::language_backend::python) rows: Vec<RowData>,
    /// The geometry fields its checks read, in the IR's order (the header's, then each
    /// struct row's).
    geometry: Vec<GeometryData>,
    /// Whether this is the root layout.
    pub(in crate::language_backend::python) root: bool,
    /// (row position, offset in its struct, width, value): the state words of the
    /// exchanges its rows hold, and the initial state the producer stores in each.
    initial: Vec<(usize, u64, u64, u64)>,
}

#[derive(Serialize, Default)]
pub(in crate::language_backend::python) struct RowData {
    name: String,
    pub(in crate::language_backend::python) method: String,
    doc: Vec<String>,
    index: u64,
    /// The minor version of ours that added the row (the plan gives a row a `since` only
    /// within our major).
    pub(in crate::language_backend::python) since_minor: Option<u32>,
    pub(in crate::language_backend::python) optional: bool,
    min_size: u64,
    align: u64,
    overlaps: Vec<usize>,
    /// It holds the layout's header struct itself (never an overlap with the header bytes).
    holds_header: bool,
    /// (table index, count, stride) of the blocks it holds.
    blocks: Option<(usize, u64, u64)>,
    /// `view`, `ring`, `blocks` or `bytes`: what its method hands out.
    pub(in crate::language_backend::python) kind: &'static str,
    /// The class it hands out: a view, a ring, a block handle.
    pub(in crate::language_backend::python) class: String,
    /// A ring's head view, and the row holding the head's struct (none: the layout's header).
    head_view: String,
    pub(in crate::language_backend::python) head_row: Option<usize>,
    /// What the region holds, for the method's docstring.
    holds: String,
    /// (fixed, [(factor, [geometry position, ...]), ...]): the bytes the region needs of the
    /// writer's values it follows.
    need: Option<(u64, Vec<NeedTerm>)>,
    /// The geometry positions that size a ring's slot count and slot size, or a blocks
    /// row's stride (`size`).
    follows: (Option<usize>, Option<usize>),
}

/// (factor, [geometry position, ...]): factor times the product of those values.
type NeedTerm = (u64, Vec<usize>);

/// One geometry field of a table.
#[derive(Serialize)]
struct GeometryData {
    /// The field's name (errors name it after its struct: `<header or row>.<name>`).
    name: String,
    /// The row (position) holding its struct; none: the table's header.
    row: Option<usize>,
    field: Word,
    /// `equal` (a = the schema's value) or `follow` (a = least, b = align).
    rule: &'static str,
    a: u64,
    b: u64,
    /// What a producer writes unless told another (the schema's value); none for an area no
    /// constant sizes, which the producer must be given.
    default: Option<u64>,
}

#[derive(Serialize)]
struct Example {
    module: String,
    ring: Option<String>,
    blocks: Option<String>,
    block_row: Option<String>,
}

/// The names a handle has of its own, which a row method must not take.
const HANDLE_ATTRIBUTES: [&str; 9] = [
    "offset",
    "extent",
    "region",
    "release",
    "producer",
    "header_size",
    "rows",
    "generation",
    "reloaded",
];

fn attach_context(schema: &Schema, names: &Names, live: Option<&LiveSection>) -> AttachContext {
    let taken = (names
        .consts
        .iter()
        .chain(&names.enums)
        .chain(&names.structs))
    .cloned()
    .chain(super::names::MODULE_NAMES.map(String::from))
    .chain(live.iter().flat_map(|l| l.exports.iter().cloned()));
    let mut module = Namer(taken.collect::<HashSet<String>>());
    let error = module.name("AttachError");
    let attach = module.name("attach");
    let read_versioned = module.name("read_versioned");
    let record = module.name("VersionedRecord");
    let lay_out = module.name("lay_out");
    let produce = module.name("produce");
    let produce_error = module.name("ProduceError");
    let a = &schema.attach;
    let classes: Vec<String> = (a.layouts.iter())
        .map(|l| module.name(&python_type_name(&l.name)))
        .collect();
    let plan = &schema.attach_plan;
    let handshakes: Vec<HandshakeData> = (plan.handshakes.iter())
        .map(|h| handshake_data(schema, names, h, &read_versioned))
        .collect();
    let tables: Vec<TableData> = (a.layouts.iter().zip(&plan.tables).enumerate())
        .map(|(t, (l, p))| table_data(schema, live, &classes, t, l, p))
        .collect();
    let root = a.root.and_then(|r| {
        let header = a.layouts[r].header;
        let h = a.handshakes.iter().position(|h| h.struct_index == header)?;
        Some((r.index(), h))
    });
    let example = root.map(|(r, _)| example(&schema.abi.name, &tables, r));
    let stamp_identity = root
        .map(|(_, h)| &a.handshakes[h].identity)
        .filter(|i| !i.is_empty())
        .map(|i| {
            let at = |s: &Option<Scalar>| s.as_ref().map_or((0, 0), |s| word(s.into()));
            let fields = [at(&i.pid), at(&i.version), at(&i.mono_ns), at(&i.unix_ns)];
            (module.name("stamp_identity"), fields)
        });
    let mut exports = vec![error.clone()];
    if root.is_some() {
        exports.push(attach.clone());
        exports.extend(classes);
        exports.extend([lay_out.clone(), produce.clone(), produce_error.clone()]);
    }
    exports.extend(stamp_identity.iter().map(|(n, _)| n.clone()));
    if !handshakes.is_empty() {
        exports.extend([read_versioned.clone(), record.clone()]);
    }
    AttachContext {
        error,
        attach,
        read_versioned,
        record,
        lay_out,
        produce,
        produce_error,
        stamp_identity,
        live: live.is_some(),
        carried: {
            let mut words: Vec<[u64; 3]> = crate::plan::session::carried_rows(schema)
                .iter()
                .flat_map(|c| {
                    (0..c.rows).map(move |i| [c.at + i * c.stride + c.word, c.width, c.lane])
                })
                .collect();
            words.sort_unstable();
            words
        },
        handshakes,
        tables,
        root,
        example,
        exports,
    }
}

impl HandshakeData {
    /// Whether the handshake names the writer's state: `Some(true)` when it names a
    /// generation too.
    pub(in crate::language_backend::python) fn liveness(&self) -> Option<bool> {
        self.liveness.as_ref().map(|l| l.2.is_some())
    }
}

fn handshake_data(
    schema: &Schema,
    names: &Names,
    h: &HandshakePlan,
    method: &str,
) -> HandshakeData {
    let s = &schema.abi.structs[h.struct_index];
    let added = (h.added.iter())
        .map(|f| AddedData {
            names: std::iter::once(f.name.clone())
                .chain(python_field_alias(&f.name))
                .collect(),
            since: (h.ours.major, f.since_minor),
            offset: f.offset,
            end: f.end,
        })
        .collect();
    HandshakeData {
        class: names.structs[h.struct_index].clone(),
        name: h.record.clone(),
        magic: (h.magic).map(|m| {
            (
                m.field.offset,
                m.field.width,
                names.consts[m.constant].clone(),
            )
        }),
        major: word(h.major),
        minor: word(h.minor),
        size: h.size.map(word),
        base_size: h.base_size,
        full_size: h.full_size,
        added,
        liveness: (h.state).map(|(state, running)| (word(state), running, h.generation.map(word))),
        method: !s.fields.iter().any(|f| f.name == method),
    }
}

fn table_data(
    schema: &Schema,
    live: Option<&LiveSection>,
    classes: &[String],
    t: usize,
    l: &LayoutTable,
    p: &TablePlan,
) -> TableData {
    let mut namer = Namer(HANDLE_ATTRIBUTES.map(String::from).into());
    let rows = (p.rows.iter().zip(&l.rows))
        .map(|(r, ir)| {
            let mut row = RowData {
                name: r.name.clone(),
                method: namer.name(&r.name),
                doc: doc_lines(&ir.doc),
                index: r.index,
                since_minor: r.since_minor,
                optional: r.optional,
                min_size: r.min_size,
                align: r.align,
                overlaps: r.overlaps.clone(),
                holds_header: r.contents == Contents::Header,
                blocks: match r.contents {
                    Contents::Blocks {
                        table,
                        count,
                        stride,
                        ..
                    } => Some((table.index(), count, stride)),
                    _ => None,
                },
                need: (r.need.as_ref()).map(|n| (n.fixed, n.terms.clone())),
                follows: (r.follows_count, r.follows_size),
                kind: "bytes",
                ..RowData::default()
            };
            row_kind(schema, live, classes, l, ir, &mut row);
            row
        })
        .collect();
    TableData {
        name: p.name.clone(),
        class: classes[t].clone(),
        doc: doc_lines(&l.doc),
        header: p.header.clone(),
        header_size: p.header_size,
        table_offset: p.table_offset,
        max_rows: p.max_rows,
        row_size: p.row_size,
        row_offset: word(p.row_offset),
        row_size_field: word(p.row_len),
        row_count: p.row_count.map(word),
        extent: p.extent.map(word),
        rows,
        geometry: (p.geometry.iter())
            .map(|g| {
                let (rule, a, b) = match g.rule {
                    Rule::Equal(v) => ("equal", v, 0),
                    Rule::Follow { least, align } => ("follow", least, align),
                };
                GeometryData {
                    name: g.name.clone(),
                    row: g.row,
                    field: word(g.field),
                    rule,
                    a,
                    b,
                    default: g.default,
                }
            })
            .collect(),
        root: schema.attach.root.map(crate::ir::LayoutId::index) == Some(t),
        initial: initial_states(schema, l),
    }
}

/// What row `r`'s method hands out (a view, a ring, a block handle or the bytes), and what
/// the region holds, in words, for its docstring.
fn row_kind(
    schema: &Schema,
    live: Option<&LiveSection>,
    classes: &[String],
    l: &LayoutTable,
    r: &Row,
    row: &mut RowData,
) {
    let view = |si: StructId| live.and_then(|l| l.views.get(si.index()).cloned().flatten());
    match r.holds {
        Holds::Struct {
            struct_index,
            count,
            bytes,
        } => {
            let s = &schema.abi.structs[struct_index].name;
            row.holds = match (count, bytes) {
                (1, 0) => format!("a `{s}`"),
                (1, b) => format!("a `{s}` and {b} more bytes"),
                (n, 0) => format!("{n} `{s}`s"),
                (n, b) => format!("{n} `{s}`s and {b} more bytes"),
            };
            if let Some(v) = view(struct_index) {
                (row.kind, row.class) = ("view", v);
            }
        }
        Holds::Ring { ring } => {
            let rg = &schema.access.rings[ring];
            row.holds = format!("the slots of ring `{}`", rg.name);
            let class = live.and_then(|l| l.rings.get(ring).cloned().flatten());
            if let (RingKind::Slots { head, .. }, Some(class)) = (&rg.kind, class) {
                let h = head.struct_index;
                let head_row = (l.rows.iter()).position(
                    |o| matches!(o.holds, Holds::Struct { struct_index, .. } if struct_index == h),
                );
                if let (Some(v), true) = (view(h), h == l.header || head_row.is_some()) {
                    (row.kind, row.class, row.head_view) = ("ring", class, v);
                    row.head_row = if h == l.header { None } else { head_row };
                }
            }
        }
        Holds::Blocks {
            layout,
            count,
            stride,
        } => {
            row.holds = format!(
                "{count} blocks of layout `{}`, {stride} bytes apart",
                schema.attach.layouts[layout].name
            );
            (row.kind, row.class) = ("blocks", classes[layout.index()].clone());
        }
        Holds::Bytes { bytes } => row.holds = format!("at least {bytes} bytes"),
    }
}

/// The initial words (`plan::live::initial_words`) of the structs the rows of `l` hold.
fn initial_states(schema: &Schema, l: &LayoutTable) -> Vec<(usize, u64, u64, u64)> {
    let words = crate::plan::live::initial_words(schema);
    let mut out = Vec::new();
    for (pos, r) in l.rows.iter().enumerate() {
        let Holds::Struct { struct_index, .. } = r.holds else {
            continue;
        };
        for w in words.iter().filter(|w| w.struct_index == struct_index) {
            out.push((pos, w.offset, w.width, w.value));
        }
    }
    out
}

/// The names the docs' example uses: the module, the root's first ring row, and its first
/// blocks row with that layout's first row.
fn example(module: &str, tables: &[TableData], root: usize) -> Example {
    let rows = &tables[root].rows;
    let ring = rows
        .iter()
        .find(|r| r.kind == "ring")
        .map(|r| r.method.clone());
    let blocks = rows.iter().find_map(|r| Some((r, r.blocks?)));
    Example {
        module: module.to_string(),
        ring,
        blocks: blocks.map(|(r, _)| r.method.clone()),
        block_row: blocks.and_then(|(_, (t, _, _))| Some(tables[t].rows.first()?.method.clone())),
    }
}
