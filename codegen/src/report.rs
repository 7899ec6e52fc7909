//! Human and machine views of the computed layout: the pahole-style table of
//! `abi-codegen layout` and the JSON of `abi-codegen layout --json`.

use serde_json::{Value, json};

use crate::ir::access::{FieldAccess, FieldRef, Guard, Parties, RingKind};
use crate::ir::{ConstType, Elem, Field, Version};
use crate::layout::FieldLayout;
use crate::schema::Schema;

/// The layout table of one struct, pahole-style: each field with its C-like declaration,
/// offset in hex and decimal, and size; declared padding marked.
pub fn layout_table(schema: &Schema, struct_index: usize) -> String {
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

/// The layout tables of every struct, in schema order.
pub fn layout_tables(schema: &Schema) -> String {
    (0..schema.abi.structs.len())
        .map(|i| layout_table(schema, i))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The version of [`layout_json`]'s shape, its first key. The JSON and the context of user
/// templates are a public interface (codegen/TEMPLATES.md): adding a key keeps the version;
/// renaming or removing one, or changing what a value means, raises it.
pub const LAYOUT_FORMAT_VERSION: u32 = 1;

/// The whole layout IR as JSON: every constant, enum and struct, with every field's offset,
/// size and alignment.
pub fn layout_json(schema: &Schema) -> Value {
    let abi = &schema.abi;
    json!({
        "format_version": LAYOUT_FORMAT_VERSION,
        "abi": { "name": abi.name, "version": abi.version.to_string(), "c_prefix": abi.c_prefix, "byte_order": "little", "parties": schema.access.parties },
        "constants": consts_json(schema),
        "enums": enums_json(schema),
        "structs": structs_json(schema),
        "seqlocks": seqlocks_json(schema),
        "rings": rings_json(schema),
        "handshakes": handshakes_json(schema),
        "layouts": layouts_json(schema),
    })
}

/// Every constant: its value exactly, its literal and expression, type, doc and since.
fn consts_json(schema: &Schema) -> Vec<Value> {
    let abi = &schema.abi;
    abi
        .consts
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "value": exact(c.value),
                "literal": c.literal,
                "expr": c.expr,
                "type": match c.ty { ConstType::Usize => "usize".to_string(), ConstType::Prim(p) => p.name().to_string() },
                "sizes_array": c.ty == ConstType::Usize,
                "doc": c.doc,
                "since": since(&c.since),
            })
        })
        .collect()
}

/// Every enum and flag set, with its values.
fn enums_json(schema: &Schema) -> Vec<Value> {
    let abi = &schema.abi;
    abi
        .enums
        .iter()
        .map(|e| {
            json!({
                "name": e.name,
                "kind": e.kind.keyword(),
                "repr": e.repr.name(),
                "size": e.repr.size(),
                "doc": e.doc,
                "since": since(&e.since),
                "values": e.values.iter().map(|v| json!({
                    "name": v.name, "value": exact(v.value), "literal": v.literal, "doc": v.doc, "since": since(&v.since),
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// Every struct: its size, alignment, sharing, trailer and fields.
fn structs_json(schema: &Schema) -> Vec<Value> {
    let abi = &schema.abi;
    abi
        .structs
        .iter()
        .zip(&schema.layout.structs)
        .zip(&schema.access.structs)
        .map(|((s, l), a)| {
            json!({
                "name": s.name,
                "size": l.size,
                "align": l.align,
                "extensible": s.extensible,
                "shared": a.shared,
                "writers": parties(schema, &a.writers),
                "trailer": a.trailer.iter().map(|t| json!({
                    "name": t.name,
                    "type": t.ty.text,
                    "offset": t.offset,
                    "size": t.size,
                    "align": t.align,
                    "size_field": t.size_field.map(|f| s.fields[f].name.clone()),
                    "doc": t.doc,
                })).collect::<Vec<_>>(),
                "doc": s.doc,
                "since": since(&s.since),
                "fields": s.fields.iter().zip(&l.fields).zip(&a.fields).map(|((f, fl), fa)| field_json(schema, f, fl, fa)).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// One field: its type, element, count, place, access, writers and seqlock.
fn field_json(schema: &Schema, f: &Field, fl: &FieldLayout, fa: &FieldAccess) -> Value {
    let abi = &schema.abi;
    let elem = match f.ty.elem {
        Elem::Prim(p) => json!({"kind": "primitive", "name": p.name()}),
        Elem::Char => json!({"kind": "char"}),
        Elem::Enum(i) => json!({"kind": abi.enums[i].kind.keyword(), "name": abi.enums[i].name}),
        Elem::Struct(i) => json!({"kind": "struct", "name": abi.structs[i].name}),
    };
    json!({
        "name": f.name,
        "type": f.ty.text,
        "elem": elem,
        "count": f.ty.len.map(|l| l.count),
        "count_constant": f.ty.len.and_then(|l| l.constant).map(|i| abi.consts[i].name.clone()),
        "offset": fl.offset,
        "size": fl.size,
        "align": fl.align,
        "elem_size": fl.elem_size,
        "padding": f.is_padding(),
        "count_field": f.count.as_ref().map(|c| c.text.clone()),
        "expect": f.expect.map(|i| abi.consts[i].name.clone()),
        "access": fa.kind.keyword(),
        "access_width": fa.kind.width(),
        "writers": parties(schema, &fa.writers),
        "seqlock": fa.guarded_by.map(|k| schema.access.seqlocks[k].name.clone()),
        "doc": f.doc,
        "since": since(&f.since),
    })
}

/// Every seqlock: its counter, what it guards, and who writes and reads.
fn seqlocks_json(schema: &Schema) -> Vec<Value> {
    let abi = &schema.abi;
    schema
        .access
        .seqlocks
        .iter()
        .map(|k| {
            let s = &abi.structs[k.struct_index];
            let a = &schema.access.structs[k.struct_index];
            json!({
                "name": k.name,
                "counter": format!("{}.{}", s.name, s.fields[k.counter].name),
                "counter_width": k.counter_width,
                "guards": k.guards.iter().map(|g| match *g {
                    Guard::Field(f) => json!({"field": s.fields[f].name}),
                    Guard::Trailer(t) => json!({"trailer": a.trailer[t].name}),
                }).collect::<Vec<_>>(),
                "writers": parties(schema, &k.writers),
                "readers": parties(schema, &k.readers),
                "doc": k.doc,
            })
        })
        .collect()
}

/// Every ring: a ring of slots or an event ring.
fn rings_json(schema: &Schema) -> Vec<Value> {
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
            } => json!({
                "name": r.name, "kind": "slots", "doc": r.doc,
                "head": field_path(schema, head), "slot_count": slot_count, "slot_size": slot_size,
                "seqlock": schema.access.seqlocks[*seqlock].name,
                "publish_seq": publish_seq.map(|f| {
                    &schema.abi.structs[schema.access.seqlocks[*seqlock].struct_index].fields[f].name
                }),
            }),
            RingKind::Events {
                total,
                entries,
                capacity,
            } => json!({
                "name": r.name, "kind": "events", "doc": r.doc,
                "total": field_path(schema, total), "entries": field_path(schema, entries), "capacity": capacity,
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

/// An integer of the schema as JSON, exactly: every value fits a u64 or an i64 (a u64 above
/// i64's range stays positive).
fn exact(value: i128) -> Value {
    match u64::try_from(value) {
        Ok(v) => Value::from(v),
        Err(_) => Value::from(i64::try_from(value).expect("schema values fit an i64 or a u64")),
    }
}

fn scalar_json(s: &crate::ir::scalar::Scalar) -> Value {
    json!({ "path": s.path, "offset": s.offset, "width": s.width })
}

/// The version handshakes: where the magic, versions and size are, and what each minor
/// version added.
fn handshakes_json(schema: &Schema) -> Vec<Value> {
    let abi = &schema.abi;
    schema
        .attach
        .handshakes
        .iter()
        .map(|h| {
            let s = &abi.structs[h.struct_index];
            json!({
                "struct": s.name,
                "magic": h.magic.as_ref().map(|(m, c)| json!({
                    "field": scalar_json(m), "constant": abi.consts[*c].name, "value": abi.consts[*c].value as u64,
                })),
                "major": scalar_json(&h.major),
                "minor": scalar_json(&h.minor),
                "size": h.size.as_ref().map(scalar_json),
                "base_size": h.base_size,
                "added": h.added.iter().map(|a| json!({
                    "field": s.fields[a.field].name, "since": a.since.to_string(), "offset": a.offset, "end": a.end,
                })).collect::<Vec<_>>(),
                "liveness": h.liveness.as_ref().map(|l| json!({
                    "state": scalar_json(&l.state), "running": l.running, "running_name": l.running_name,
                    "generation": l.generation.as_ref().map(scalar_json),
                })),
            })
        })
        .collect()
}

/// The layout tables: where the rows are, and each region's contents, least size and
/// alignment.
fn layouts_json(schema: &Schema) -> Vec<Value> {
    use crate::ir::attach::Holds;
    let attach = &schema.attach;
    attach
        .layouts
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let rows: Vec<Value> = l
                .rows
                .iter()
                .map(|r| {
                    let holds = match &r.holds {
                        Holds::Struct { struct_index, count, bytes } => json!({
                            "struct": schema.abi.structs[*struct_index].name, "count": count, "bytes": bytes,
                        }),
                        Holds::Ring { ring } => json!({ "ring": schema.access.rings[*ring].name }),
                        Holds::Blocks { layout, count, stride } => json!({
                            "blocks": attach.layouts[*layout].name, "count": count, "stride": stride,
                        }),
                        Holds::Bytes { bytes } => json!({ "bytes": bytes }),
                    };
                    json!({
                        "name": r.name, "index": r.index, "doc": r.doc,
                        "since": r.since.map(|v| v.to_string()), "optional": r.optional,
                        "holds": holds, "min_size": r.min_size, "align": r.align,
                        "overlaps": r.overlaps.iter().map(|&o| l.rows[o].name.clone()).collect::<Vec<_>>(),
                        "need": r.need.as_ref().map(|n| json!({
                            "fixed": n.fixed,
                            "terms": n.terms.iter().map(|t| json!({ "factor": t.factor, "geometry": t.geometry })).collect::<Vec<_>>(),
                        })),
                        "follows": { "count": r.follows.count, "size": r.follows.size },
                    })
                })
                .collect();
            json!({
                "name": l.name, "doc": l.doc, "root": attach.root == Some(i),
                "header": schema.abi.structs[l.header].name,
                "table": { "field": schema.abi.structs[l.header].fields[l.table_field].name, "offset": l.table_offset, "rows": l.max_rows, "row_size": l.row_size },
                "row_offset": scalar_json(&l.row_offset), "row_size": scalar_json(&l.row_size_field),
                "row_count": l.row_count.as_ref().map(scalar_json),
                "extent": l.extent.as_ref().map(scalar_json),
                "index": schema.abi.enums[l.index_enum].name,
                "align": l.align,
                "rows": rows,
                "geometry": l.geometry.iter().map(|t| {
                    let g = &attach.geometry[t.geometry];
                    let (rule, least, align) = match g.rule {
                        crate::ir::geometry::GeometryRule::Equal => ("equal", None, None),
                        crate::ir::geometry::GeometryRule::Follow { least, align } => ("follow", Some(least), Some(align)),
                    };
                    json!({
                        "struct": schema.abi.structs[g.struct_index].name,
                        "field": scalar_json(&g.scalar),
                        "row": t.row.map(|r| l.rows[r].name.clone()),
                        "expr": g.expr, "value": g.value, "rule": rule, "least": least, "align": align,
                    })
                }).collect::<Vec<_>>(),
            })
        })
        .collect()
}
