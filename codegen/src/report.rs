//! Human and machine views of the computed layout: the pahole-style table of
//! `abi-codegen layout` and the JSON of `abi-codegen layout --json` (the context of user
//! templates), whose shape is the types of `context.rs`, filled here from a schema.

pub mod context;

use serde_json::Value;

use crate::ir::StructId;
use crate::ir::access::{FieldAccess, FieldRef, Guard, Parties, RingKind};
use crate::ir::attach::{Handshake, Holds, LayoutTable, Row};
use crate::ir::geometry::GeometryRule;
use crate::ir::scalar::Scalar;
use crate::ir::{ConstType, Elem, EnumKind, Field, Version};
use crate::layout::FieldLayout;
use crate::schema::Schema;
use context::{
    AbiJson, AddedJson, ByteOrder, ConstJson, ElemJson, EnumJson, EnumValueJson, EventsRingJson,
    Exact, FieldJson, FollowsJson, GeometryJson, GeometryRuleJson, GuardJson, HandshakeJson,
    HoldsJson, LayoutContext, LayoutTableJson, LivenessJson, MagicJson, NeedJson, RingJson,
    RingKindJson, RowJson, ScalarJson, SeqlockJson, SlotsRingJson, StructJson, TableJson, TermJson,
    TrailerJson,
};

/// The layout table of one struct, pahole-style: each field with its C-like declaration,
/// offset in hex and decimal, and size; declared padding marked.
pub fn layout_table(schema: &Schema, struct_index: StructId) -> String {
    let s = &schema.abi.structs[struct_index];
    let l = schema.layout.of(struct_index);
    let split = |text: &str| -> (String, String) {
        match text.split_once('[') {
            Some((b, rest)) => (b.trim().to_string(), format!("[{rest}")),
            None => (text.to_string(), String::new()),
        }
    };
    let type_width = s
        .fields
        .iter()
        .map(|f| split(&f.ty.text).0.len())
        .max()
        .unwrap_or(0);
    let decls: Vec<String> = s
        .fields
        .iter()
        .map(|f| {
            let (base, len) = split(&f.ty.text);
            format!("{base:type_width$} {}{len};", f.name)
        })
        .collect();
    let width = decls.iter().map(|d| d.len()).max().unwrap_or(0);
    // The comment lines up with the fields' comments, or leaves two spaces after a long name.
    let title = format!("struct {} {{", s.name);
    let mut out = format!(
        "{title:w$}/* size: {} ({:#x}), align: {} */\n",
        l.size,
        l.size,
        l.align,
        w = (width + 6).max(title.len() + 2)
    );
    out.push_str(&format!("    {:width$}  /* offset         size */\n", ""));
    for ((f, fl), decl) in s.fields.iter().zip(&l.fields).zip(&decls) {
        let mark = if f.is_padding() { "  padding" } else { "" };
        out.push_str(&format!(
            "    {decl:width$}  /* {:#06x} {:>6} {:>6}{mark} */\n",
            fl.offset, fl.offset, fl.size
        ));
    }
    let padding: u64 = s
        .fields
        .iter()
        .zip(&l.fields)
        .filter(|(f, _)| f.is_padding())
        .map(|(_, fl)| fl.size)
        .sum();
    out.push_str(&format!(
        "}};  /* {} fields, {} bytes of declared padding */\n",
        s.fields.len(),
        padding
    ));
    out
}

#[cfg(feature = "cli")]
/// The layout tables of every struct, in schema order.
pub fn layout_tables(schema: &Schema) -> String {
    schema
        .abi
        .struct_ids()
        .map(|i| layout_table(schema, i))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The version of [`layout_json`]'s shape, its first key. The JSON and the context of user
/// templates are a public interface (codegen/TEMPLATES.md): adding a key keeps the version;
/// renaming or removing one, or changing what a value means, raises it.
pub const LAYOUT_FORMAT_VERSION: u32 = 1;

/// The whole layout IR, typed: every constant, enum and struct, with every field's offset,
/// size and alignment, and the seqlocks, rings, handshakes and layout tables.
pub fn layout_context(schema: &Schema) -> LayoutContext<'_> {
    let abi = &schema.abi;
    LayoutContext {
        format_version: LAYOUT_FORMAT_VERSION,
        abi: AbiJson {
            name: &abi.name,
            version: abi.version.to_string(),
            c_prefix: &abi.c_prefix,
            byte_order: ByteOrder::Little,
            parties: &schema.access.parties,
        },
        constants: consts_json(schema),
        enums: enums_json(schema),
        structs: structs_json(schema),
        seqlocks: seqlocks_json(schema),
        rings: rings_json(schema),
        handshakes: handshakes_json(schema),
        layouts: layouts_json(schema),
    }
}

/// `layout_context` as a JSON value, for reading by key.
pub fn layout_json(schema: &Schema) -> Value {
    serde_json::to_value(layout_context(schema)).expect("the layout context serializes")
}

/// Every constant: its value exactly, its literal and expression, type, doc and since.
fn consts_json(schema: &Schema) -> Vec<ConstJson<'_>> {
    schema
        .abi
        .consts
        .iter()
        .map(|c| ConstJson {
            name: &c.name,
            value: Exact::of(c.value),
            literal: &c.literal,
            expr: c.expr.as_deref(),
            ty: match c.ty {
                ConstType::Usize => "usize",
                ConstType::Prim(p) => p.name(),
            },
            sizes_array: c.ty == ConstType::Usize,
            doc: &c.doc,
            since: since(&c.since),
        })
        .collect()
}

/// Every enum and flag set, with its values.
fn enums_json(schema: &Schema) -> Vec<EnumJson<'_>> {
    schema
        .abi
        .enums
        .iter()
        .map(|e| EnumJson {
            name: &e.name,
            kind: e.kind.keyword(),
            repr: e.repr.name(),
            size: e.repr.size(),
            doc: &e.doc,
            since: since(&e.since),
            values: e
                .values
                .iter()
                .map(|v| EnumValueJson {
                    name: &v.name,
                    value: Exact::of(v.value),
                    literal: &v.literal,
                    doc: &v.doc,
                    since: since(&v.since),
                })
                .collect(),
        })
        .collect()
}

/// Every struct: its size, alignment, sharing, trailer and fields.
fn structs_json(schema: &Schema) -> Vec<StructJson<'_>> {
    schema
        .abi
        .structs
        .iter()
        .zip(&schema.layout.structs)
        .zip(&schema.access.structs)
        .map(|((s, l), a)| StructJson {
            name: &s.name,
            size: l.size,
            align: l.align,
            extensible: s.extensible,
            shared: a.shared,
            writers: parties(schema, &a.writers),
            trailer: a
                .trailer
                .iter()
                .map(|t| TrailerJson {
                    name: &t.name,
                    ty: &t.ty.text,
                    offset: t.offset,
                    size: t.size,
                    align: t.align,
                    size_field: t.size_field.map(|f| s.fields[f].name.as_str()),
                    doc: &t.doc,
                })
                .collect(),
            doc: &s.doc,
            since: since(&s.since),
            fields: s
                .fields
                .iter()
                .zip(&l.fields)
                .zip(&a.fields)
                .map(|((f, fl), fa)| field_json(schema, f, fl, fa))
                .collect(),
        })
        .collect()
}

/// One field: its type, element, count, place, access, writers and seqlock.
fn field_json<'a>(
    schema: &'a Schema,
    f: &'a Field,
    fl: &FieldLayout,
    fa: &FieldAccess,
) -> FieldJson<'a> {
    let abi = &schema.abi;
    let elem = match f.ty.elem {
        Elem::Prim(p) => ElemJson::Primitive { name: p.name() },
        Elem::Char => ElemJson::Char,
        Elem::Enum(i) => {
            let name = abi.enums[i].name.as_str();
            match abi.enums[i].kind {
                EnumKind::Enum => ElemJson::Enum { name },
                EnumKind::Flags => ElemJson::Flags { name },
            }
        }
        Elem::Struct(i) => ElemJson::Struct {
            name: &abi.structs[i].name,
        },
    };
    FieldJson {
        name: &f.name,
        ty: &f.ty.text,
        elem,
        count: f.ty.len.map(|l| l.count),
        count_constant: f
            .ty
            .len
            .and_then(|l| l.constant)
            .map(|i| abi.consts[i].name.as_str()),
        offset: fl.offset,
        size: fl.size,
        align: fl.align,
        elem_size: fl.elem_size,
        padding: f.is_padding(),
        count_field: f.count.as_ref().map(|c| c.text.as_str()),
        expect: f.expect.map(|i| abi.consts[i].name.as_str()),
        access: fa.kind.keyword(),
        access_width: fa.kind.width(),
        writers: parties(schema, &fa.writers),
        seqlock: fa
            .guarded_by
            .map(|k| schema.access.seqlocks[k].name.as_str()),
        doc: &f.doc,
        since: since(&f.since),
    }
}

/// Every seqlock: its counter, what it guards, and who writes and reads.
fn seqlocks_json(schema: &Schema) -> Vec<SeqlockJson<'_>> {
    let abi = &schema.abi;
    schema
        .access
        .seqlocks
        .iter()
        .map(|k| {
            let s = &abi.structs[k.struct_index];
            let a = &schema.access.structs[k.struct_index];
            SeqlockJson {
                name: &k.name,
                counter: format!("{}.{}", s.name, s.fields[k.counter].name),
                counter_width: k.counter_width,
                guards: k
                    .guards
                    .iter()
                    .map(|g| match *g {
                        Guard::Field(f) => GuardJson::Field {
                            field: &s.fields[f].name,
                        },
                        Guard::Trailer(t) => GuardJson::Trailer {
                            trailer: &a.trailer[t].name,
                        },
                    })
                    .collect(),
                writers: parties(schema, &k.writers),
                readers: parties(schema, &k.readers),
                doc: &k.doc,
            }
        })
        .collect()
}

/// Every ring: a ring of slots or an event ring.
fn rings_json(schema: &Schema) -> Vec<RingJson<'_>> {
    schema
        .access
        .rings
        .iter()
        .map(|r| match &r.kind {
            RingKind::Slots {
                head,
                slot_count,
                slot_size,
                seqlock,
                publish_seq,
                ..
            } => {
                let lock = &schema.access.seqlocks[*seqlock];
                RingJson::Slots(SlotsRingJson {
                    name: &r.name,
                    kind: RingKindJson::Slots,
                    doc: &r.doc,
                    head: field_path(schema, head),
                    slot_count: *slot_count,
                    slot_size: *slot_size,
                    seqlock: &lock.name,
                    publish_seq: publish_seq.map(|f| {
                        schema.abi.structs[lock.struct_index].fields[f]
                            .name
                            .as_str()
                    }),
                })
            }
            RingKind::Events {
                total,
                entries,
                capacity,
            } => RingJson::Events(EventsRingJson {
                name: &r.name,
                kind: RingKindJson::Events,
                doc: &r.doc,
                total: field_path(schema, total),
                entries: field_path(schema, entries),
                capacity: *capacity,
            }),
        })
        .collect()
}

/// The names of parties `p`.
fn parties<'a>(schema: &'a Schema, p: &Parties) -> Vec<&'a str> {
    p.0.iter()
        .map(|&i| schema.access.parties[i].as_str())
        .collect()
}

/// A `since` as text.
fn since(v: &Option<Version>) -> Option<String> {
    v.map(|v| v.to_string())
}

/// `struct.field`.
fn field_path(schema: &Schema, r: &FieldRef) -> String {
    let s = &schema.abi.structs[r.struct_index];
    format!("{}.{}", s.name, s.fields[r.field].name)
}

fn scalar_json(s: &Scalar) -> ScalarJson<'_> {
    ScalarJson {
        path: &s.path,
        offset: s.offset,
        width: s.width,
    }
}

/// The version handshakes: where the magic, versions and size are, and what each minor
/// version added.
fn handshakes_json(schema: &Schema) -> Vec<HandshakeJson<'_>> {
    schema
        .attach
        .handshakes
        .iter()
        .map(|h| handshake_json(schema, h))
        .collect()
}

fn handshake_json<'a>(schema: &'a Schema, h: &'a Handshake) -> HandshakeJson<'a> {
    let abi = &schema.abi;
    let s = &abi.structs[h.struct_index];
    HandshakeJson {
        structure: &s.name,
        magic: h.magic.as_ref().map(|(m, c)| MagicJson {
            field: scalar_json(m),
            constant: &abi.consts[*c].name,
            value: abi.consts[*c].value as u64,
        }),
        major: scalar_json(&h.major),
        minor: scalar_json(&h.minor),
        size: h.size.as_ref().map(scalar_json),
        base_size: h.base_size,
        added: h
            .added
            .iter()
            .map(|a| AddedJson {
                field: &s.fields[a.field].name,
                since: a.since.to_string(),
                offset: a.offset,
                end: a.end,
            })
            .collect(),
        liveness: h.liveness.as_ref().map(|l| LivenessJson {
            state: scalar_json(&l.state),
            running: l.running,
            running_name: &l.running_name,
            generation: l.generation.as_ref().map(scalar_json),
        }),
    }
}

/// The layout tables: where the rows are, and each region's contents, least size and
/// alignment.
fn layouts_json(schema: &Schema) -> Vec<LayoutTableJson<'_>> {
    let attach = &schema.attach;
    attach
        .layouts
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let header = &schema.abi.structs[l.header];
            LayoutTableJson {
                name: &l.name,
                doc: &l.doc,
                root: attach.root.map(crate::ir::LayoutId::index) == Some(i),
                header: &header.name,
                table: TableJson {
                    field: &header.fields[l.table_field].name,
                    offset: l.table_offset,
                    rows: l.max_rows,
                    row_size: l.row_size,
                },
                row_offset: scalar_json(&l.row_offset),
                row_size: scalar_json(&l.row_size_field),
                row_count: l.row_count.as_ref().map(scalar_json),
                extent: l.extent.as_ref().map(scalar_json),
                index: &schema.abi.enums[l.index_enum].name,
                align: l.align,
                rows: l.rows.iter().map(|r| row_json(schema, l, r)).collect(),
                geometry: geometry_json(schema, l),
            }
        })
        .collect()
}

/// One row of layout table `l`.
fn row_json<'a>(schema: &'a Schema, l: &'a LayoutTable, r: &'a Row) -> RowJson<'a> {
    let holds = match &r.holds {
        Holds::Struct {
            struct_index,
            count,
            bytes,
        } => HoldsJson::Struct {
            structure: &schema.abi.structs[*struct_index].name,
            count: *count,
            bytes: *bytes,
        },
        Holds::Ring { ring } => HoldsJson::Ring {
            ring: &schema.access.rings[*ring].name,
        },
        Holds::Blocks {
            layout,
            count,
            stride,
        } => HoldsJson::Blocks {
            blocks: &schema.attach.layouts[*layout].name,
            count: *count,
            stride: *stride,
        },
        Holds::Bytes { bytes } => HoldsJson::Bytes { bytes: *bytes },
    };
    RowJson {
        name: &r.name,
        index: r.index,
        doc: &r.doc,
        since: since(&r.since),
        optional: r.optional,
        holds,
        min_size: r.min_size,
        align: r.align,
        overlaps: r
            .overlaps
            .iter()
            .map(|&o| l.rows[o].name.as_str())
            .collect(),
        need: r.need.as_ref().map(|n| NeedJson {
            fixed: n.fixed,
            terms: n
                .terms
                .iter()
                .map(|t| TermJson {
                    factor: t.factor,
                    geometry: &t.geometry,
                })
                .collect(),
        }),
        follows: FollowsJson {
            count: r.follows.count,
            size: r.follows.size,
        },
    }
}

/// The geometry fields of layout table `l`.
fn geometry_json<'a>(schema: &'a Schema, l: &'a LayoutTable) -> Vec<GeometryJson<'a>> {
    l.geometry
        .iter()
        .map(|t| {
            let g = &schema.attach.geometry[t.geometry];
            let (rule, least, align) = match g.rule {
                GeometryRule::Equal => (GeometryRuleJson::Equal, None, None),
                GeometryRule::Follow { least, align } => {
                    (GeometryRuleJson::Follow, Some(least), Some(align))
                }
            };
            GeometryJson {
                structure: &schema.abi.structs[g.struct_index].name,
                field: scalar_json(&g.scalar),
                row: t.row.map(|r| l.rows[r].name.as_str()),
                expr: &g.expr,
                value: g.value,
                rule,
                least,
                align,
            }
        })
        .collect()
}
