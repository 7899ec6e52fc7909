//! The C header's live access helpers (`templates/c_live.h.j2`): `static inline` functions
//! over the plain structs for every atomic field, compare-and-swap word, seqlock and ring
//! the schema declares, on a small atomics layer (GCC/Clang `__atomic` builtins, or MSVC
//! intrinsics). This module builds the template's context from `schema.access` and the
//! layout's numbers (one `build_*` per kind); the C text itself is in the template.

use std::sync::LazyLock;

use serde::Serialize;

use super::RenderError;
use super::c::{array_len, c_field_name, c_type_name, field_type, render_comment_lines};
use super::live_plan;
use super::protocols::{Protocol, describe_protocols};
use super::text::{Compiled, Template};
use crate::Schema;
use crate::ir::access::{AccessKind, Guard, Ring, RingKind, Seqlock};
use crate::ir::{Elem, Type};

const TEMPLATE: Template = Template {
    name: "c_live.h.j2",
    source: include_str!("../../templates/c_live.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

/// Comment lines are wrapped to this many columns, the comment's ` * ` included.
const WIDTH: usize = 93;

/// The headers the helpers need, included before the header's `extern "C"` block: the
/// branch choice is the live section's (`c_live.h.j2`), with `{pu}` the macro prefix.
fn includes(pu: &str) -> String {
    format!(
        "\
#include <stdbool.h>
#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && !defined({pu}_LIVE_MSVC_INTRINSICS)
#ifndef _WIN32
#include <sched.h>
#endif
#elif defined(_MSC_VER) || defined({pu}_LIVE_MSVC_INTRINSICS)
#include <intrin.h>
#endif
"
    )
}

/// What the C header prints when the schema declares shared-memory access.
#[derive(Serialize)]
pub(super) struct LiveText {
    /// `#include` lines for the top of the header.
    includes: String,
    /// The "Live access helpers" section, for after the structs.
    section: String,
}

/// The live section of the C header, or `None` when the schema declares no atomic field,
/// seqlock or ring (then the header is exactly what it was without this module).
pub(super) fn render_c_live(schema: &Schema) -> Result<Option<LiveText>, RenderError> {
    if !has_live_access(schema) {
        return Ok(None);
    }
    let section = COMPILED.render(build_context(schema))?;
    Ok(Some(LiveText {
        includes: includes(&schema.abi.c_prefix.to_ascii_uppercase()),
        section,
    }))
}

/// Whether the header has live helpers: for the shared memory the schema declares, or for
/// the attach helpers (`c_attach.rs`), which read a mapping with their loads.
fn has_live_access(schema: &Schema) -> bool {
    let a = &schema.access;
    schema.attach.root.is_some()
        || !a.seqlocks.is_empty()
        || !a.rings.is_empty()
        || a.structs
            .iter()
            .any(|s| s.shared && s.fields.iter().any(|f| f.kind.is_atomic()))
}

#[derive(Serialize)]
struct LiveContext {
    p: String,
    pu: String,
    static_assert: String,
    alignof: String,
    asserts: Vec<AssertCtx>,
    fields: Vec<FieldCtx>,
    words: Vec<WordCtx>,
    seqlocks: Vec<SeqlockCtx>,
    slot_rings: Vec<SlotRingCtx>,
    event_rings: Vec<EventRingCtx>,
}

/// A static assert that an atomic field is a naturally aligned word.
#[derive(Serialize)]
struct AssertCtx {
    s: String,
    member: String,
    width: u64,
}

/// One atomic or compare-and-swap scalar field.
#[derive(Serialize)]
struct FieldCtx {
    doc: String,
    s: String,
    /// The schema name, for function names.
    name: String,
    member: String,
    ty: String,
    bits: u64,
    /// A seqlock counter: a load only.
    counter: bool,
    /// An integer (not an enum or flag set): fetch_add too.
    add: bool,
    cas: bool,
}

/// An array claimed as one word (`pad_owner`).
#[derive(Serialize)]
struct WordCtx {
    doc: String,
    s: String,
    name: String,
    member: String,
    elem: String,
    len: String,
    count: u64,
    elem_size: u64,
    width: u64,
    bits: u64,
}

#[derive(Serialize)]
struct SeqlockCtx {
    doc: String,
    name: String,
    s: String,
    /// The type a read fills: the struct itself, or `<prefix>_<lock>_copy`.
    value: String,
    /// The members of `value` when it is a type of its own.
    members: Vec<MemberCtx>,
    bits: u64,
    counter: u64,
    /// The counter's member, set in a whole-struct copy to the counter it matched.
    counter_member: Option<String>,
    /// Bytes from the struct's start a read or write needs, when the lock guards trailer
    /// parts (the functions then take `len`).
    min_len: Option<u64>,
    copies: Vec<CopyCtx>,
    payload: Option<PayloadCtx>,
}

#[derive(Serialize)]
struct MemberCtx {
    doc: String,
    ty: String,
    name: String,
    len: String,
}

/// One range a seqlock copies, with the same bounds on both sides.
#[derive(Serialize)]
struct CopyCtx {
    offset: u64,
    len: u64,
    /// Where a read puts it, and where a write takes it from (C expressions).
    into: String,
    from: String,
    /// Whether a write stores it (a size field is written from the payload's length).
    write: bool,
}

/// A trailer part whose length a field gives: copied up to its type's size, the rest of
/// the value zeroed, the bytes past it into the caller's buffer.
#[derive(Serialize)]
struct PayloadCtx {
    offset: u64,
    size: u64,
    member: String,
    extra: String,
    size_offset: u64,
    size_bits: u64,
    /// The size as this copy found it: the value's member when the lock guards it.
    size_member: Option<String>,
}

#[derive(Serialize)]
struct SlotRingCtx {
    doc: String,
    name: String,
    head_s: String,
    head_name: String,
    head_bits: u64,
    slot_s: String,
    lock: String,
    value: String,
    slot_count: u64,
    slot_size: u64,
    payload: bool,
}

#[derive(Serialize)]
struct EventRingCtx {
    doc: String,
    name: String,
    s: String,
    total: String,
    entries: String,
    elem: String,
    capacity: u64,
}

fn build_context(schema: &Schema) -> LiveContext {
    let abi = &schema.abi;
    let p = abi.c_prefix.clone();
    let pu = p.to_ascii_uppercase();
    let protocols = describe_protocols(schema);
    let mut ctx = LiveContext {
        static_assert: format!("{pu}_STATIC_ASSERT_"),
        alignof: format!("{pu}_ALIGNOF_"),
        p,
        pu,
        asserts: Vec::new(),
        fields: Vec::new(),
        words: Vec::new(),
        seqlocks: Vec::new(),
        slot_rings: Vec::new(),
        event_rings: Vec::new(),
    };
    for &si in &schema.layout.order {
        let a = &schema.access.structs[si];
        for (fi, fa) in a.fields.iter().enumerate() {
            let Some(width) = fa.kind.width() else {
                continue;
            };
            let s = &abi.structs[si];
            ctx.asserts.push(AssertCtx {
                s: c_type_name(&s.name, &abi.c_prefix),
                member: c_field_name(&s.fields[fi].name, &abi.c_prefix),
                width,
            });
            // A struct copied whole under a seqlock (a ring slot's snapshot) has no
            // accessors: its atomic fields are read in the copy.
            if !a.shared || a.guarded_whole {
                continue;
            }
            if s.fields[fi].ty.len.is_some() {
                ctx.words
                    .push(build_cas_word(schema, &protocols, si, fi, width));
            } else {
                ctx.fields
                    .push(build_atomic_field(schema, &protocols, si, fi, width));
            }
        }
    }
    ctx.seqlocks = schema
        .access
        .seqlocks
        .iter()
        .map(|l| build_seqlock(schema, &protocols, l))
        .collect();
    for ring in &schema.access.rings {
        build_ring(schema, &protocols, ring, &mut ctx);
    }
    ctx
}

/// A `/** ... */` doc comment of `lines` (already wrapped and escaped).
fn comment(lines: &[String]) -> String {
    match lines {
        [] => String::new(),
        [one] if one.len() <= WIDTH - 4 => format!("/** {one} */\n"),
        _ => block(lines, "/**"),
    }
}

/// A protocol's comment: a `/* ... */` block heading the helpers that implement it.
fn protocol_comment(protocol: Option<&Protocol>) -> String {
    protocol.map_or_else(String::new, |p| block(&protocol_lines(p), "/*"))
}

fn block(lines: &[String], open: &str) -> String {
    let mut out = format!("{open}\n");
    for l in lines {
        if l.is_empty() {
            out.push_str(" *\n");
        } else {
            out.push_str(" * ");
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str(" */\n");
    out
}

/// A protocol as comment lines: its summary and doc, then each role's numbered steps. A
/// claim's doc is its field's, which the field's comment shows already.
fn protocol_lines(protocol: &Protocol) -> Vec<String> {
    let head = match protocol.kind {
        "seqlock" => format!("Seqlock `{}`. {}", protocol.name, protocol.summary),
        "ring" => format!("Ring `{}`. {}", protocol.name, protocol.summary),
        _ => protocol.summary.clone(),
    };
    let mut lines = render_comment_lines(&head, WIDTH);
    if protocol.kind != "claim" && !protocol.doc.trim().is_empty() {
        lines.extend(render_comment_lines(&protocol.doc, WIDTH));
    }
    for role in &protocol.roles {
        lines.push(String::new());
        lines.extend(render_comment_lines(&format!("{}:", role.who), WIDTH));
        for (i, step) in role.steps.iter().enumerate() {
            let number = format!("{}. ", i + 1);
            let indent = " ".repeat(number.len() + 2);
            for (j, l) in render_comment_lines(step, WIDTH - indent.len())
                .into_iter()
                .enumerate()
            {
                lines.push(if j == 0 {
                    format!("  {number}{l}")
                } else {
                    format!("{indent}{l}")
                });
            }
        }
    }
    lines
}

fn find<'a>(protocols: &'a [Protocol], kind: &str, name: &str) -> Option<&'a Protocol> {
    protocols.iter().find(|p| p.kind == kind && p.name == name)
}

/// The doc of a field's helpers: who writes it, its claim protocol if it has one.
fn field_doc(schema: &Schema, protocols: &[Protocol], si: usize, fi: usize) -> String {
    let s = &schema.abi.structs[si];
    let f = &s.fields[fi];
    let writers = schema.access.structs[si].fields[fi]
        .writers
        .describe(&schema.access.parties);
    let mut head = format!("`{}.{}`", s.name, f.name);
    if !writers.is_empty() {
        head.push_str(&format!(", written by the {writers}"));
    }
    head.push('.');
    if !f.doc.trim().is_empty() {
        head.push(' ');
        head.push_str(&f.doc);
    }
    let mut lines = render_comment_lines(&head, WIDTH);
    if let Some(claim) = find(protocols, "claim", &format!("{}.{}", s.name, f.name)) {
        lines.push(String::new());
        lines.extend(protocol_lines(claim));
    }
    comment(&lines)
}

fn build_atomic_field(
    schema: &Schema,
    protocols: &[Protocol],
    si: usize,
    fi: usize,
    width: u64,
) -> FieldCtx {
    let abi = &schema.abi;
    let s = &abi.structs[si];
    let f = &s.fields[fi];
    let a = &schema.access.structs[si];
    let counter = a
        .seqlocks
        .iter()
        .any(|&k| schema.access.seqlocks[k].counter == fi);
    FieldCtx {
        doc: field_doc(schema, protocols, si, fi),
        s: c_type_name(&s.name, &abi.c_prefix),
        name: f.name.clone(),
        member: c_field_name(&f.name, &abi.c_prefix),
        ty: field_type(abi, &f.ty).into_owned(),
        bits: width * 8,
        counter,
        add: !counter && matches!(f.ty.elem, Elem::Prim(_)),
        cas: !counter && matches!(a.fields[fi].kind, AccessKind::Cas { .. }),
    }
}

fn build_cas_word(
    schema: &Schema,
    protocols: &[Protocol],
    si: usize,
    fi: usize,
    width: u64,
) -> WordCtx {
    let abi = &schema.abi;
    let s = &abi.structs[si];
    let f = &s.fields[fi];
    let fl = &schema.layout.of(si).fields[fi];
    WordCtx {
        doc: field_doc(schema, protocols, si, fi),
        s: c_type_name(&s.name, &abi.c_prefix),
        name: f.name.clone(),
        member: c_field_name(&f.name, &abi.c_prefix),
        elem: field_type(abi, &f.ty).into_owned(),
        len: array_len(abi, &f.ty),
        count: f.ty.count(),
        elem_size: fl.elem_size,
        width,
        bits: width * 8,
    }
}

/// The member of a value type for a field or trailer part of type `ty`.
fn member(schema: &Schema, name: &str, ty: &Type, doc: String) -> MemberCtx {
    let abi = &schema.abi;
    MemberCtx {
        doc,
        ty: field_type(abi, ty).into_owned(),
        name: c_field_name(name, &abi.c_prefix),
        len: array_len(abi, ty),
    }
}

fn build_seqlock(schema: &Schema, protocols: &[Protocol], lock: &Seqlock) -> SeqlockCtx {
    let abi = &schema.abi;
    let si = lock.struct_index;
    let s = &abi.structs[si];
    let l = schema.layout.of(si);
    let a = &schema.access.structs[si];
    let prefix = &abi.c_prefix;
    let whole = lock.guards_whole_struct(&schema.access.structs);
    let mut ctx = SeqlockCtx {
        doc: protocol_comment(find(protocols, "seqlock", &lock.name)),
        name: lock.name.clone(),
        s: c_type_name(&s.name, prefix),
        value: if whole {
            c_type_name(&s.name, prefix)
        } else {
            format!("{prefix}_{}_copy", lock.name)
        },
        members: Vec::new(),
        bits: lock.counter_width * 8,
        counter: l.fields[lock.counter].offset,
        counter_member: whole.then(|| c_field_name(&s.fields[lock.counter].name, prefix)),
        min_len: None,
        copies: Vec::new(),
        payload: None,
    };
    if whole {
        // Contiguous runs of the guarded fields, padding included, as Rust copies them.
        let runs = live_plan::guarded_runs(schema, lock);
        ctx.copies = runs
            .into_iter()
            .map(|(start, end)| CopyCtx {
                offset: start,
                len: end - start,
                into: format!("(unsigned char *)(void *)out + {start}"),
                from: format!("(const unsigned char *)(const void *)value + {start}"),
                write: true,
            })
            .collect();
        return ctx;
    }
    let size_fields = live_plan::size_fields(schema, lock);
    // Fields first (declared padding left out), then trailer parts: Rust's copy order.
    let fields = live_plan::value_guards(schema, lock)
        .into_iter()
        .filter_map(|g| match g {
            Guard::Field(f) => Some(f),
            Guard::Trailer(_) => None,
        });
    let copy = |offset: u64, len: u64, m: &MemberCtx, write: bool| CopyCtx {
        offset,
        len,
        into: format!("&out->{}", m.name),
        from: format!("&value->{}", m.name),
        write,
    };
    for fi in fields {
        let f = &s.fields[fi];
        let m = member(schema, &f.name, &f.ty, format!("`{}.{}`.", s.name, f.name));
        let (offset, len) = (l.fields[fi].offset, l.fields[fi].size);
        ctx.copies
            .push(copy(offset, len, &m, !size_fields.contains(&fi)));
        ctx.members.push(m);
    }
    let mut min_len = l.size;
    for g in &lock.guards {
        let Guard::Trailer(ti) = *g else { continue };
        let t = &a.trailer[ti];
        match t.size_field {
            None => {
                let m = member(
                    schema,
                    &t.name,
                    &t.ty,
                    format!("The trailer part `{}` ({}).", t.name, t.ty.text),
                );
                ctx.copies.push(copy(t.offset, t.size, &m, true));
                ctx.members.push(m);
                min_len = min_len.max(t.offset + t.size);
            }
            Some(sf) => {
                let m = member(
                    schema,
                    &t.name,
                    &t.ty,
                    format!(
                        "The trailer part `{}` ({}): as much of it as the producer wrote, the rest zero.",
                        t.name, t.ty.text
                    ),
                );
                let extra = format!("{}_extra_len", t.name);
                ctx.payload = Some(PayloadCtx {
                    offset: t.offset,
                    size: t.size,
                    member: m.name.clone(),
                    extra: extra.clone(),
                    size_offset: l.fields[sf].offset,
                    size_bits: l.fields[sf].size * 8,
                    size_member: (lock.guards.contains(&Guard::Field(sf)))
                        .then(|| c_field_name(&s.fields[sf].name, prefix)),
                });
                ctx.members.push(m);
                ctx.members.push(MemberCtx {
                    doc: format!(
                        "Bytes of `{}` past its type's size in the shared memory (a newer producer's tail, or extras): a read copies them into the caller's buffer when they fit, and a write stores this many from the caller's buffer.",
                        t.name
                    ),
                    ty: "size_t".to_string(),
                    name: extra,
                    len: String::new(),
                });
                min_len = min_len.max(t.offset);
            }
        }
    }
    if lock.guards.iter().any(|g| matches!(g, Guard::Trailer(_))) {
        ctx.min_len = Some(min_len);
    }
    for m in &mut ctx.members {
        m.doc = comment(&render_comment_lines(&m.doc, WIDTH - 4)).replace('\n', "\n    ");
        m.doc.truncate(m.doc.trim_end().len());
    }
    ctx
}

/// A ring: the newest slot and the publish of a slots ring, or the events since a count.
fn build_ring(schema: &Schema, protocols: &[Protocol], ring: &Ring, ctx: &mut LiveContext) {
    let abi = &schema.abi;
    let prefix = &abi.c_prefix;
    let doc = protocol_comment(find(protocols, "ring", &ring.name));
    match &ring.kind {
        RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            ..
        } => {
            let lock = &schema.access.seqlocks[*seqlock];
            let head_s = &abi.structs[head.struct_index];
            let slot_s = c_type_name(&abi.structs[lock.struct_index].name, prefix);
            let a = &schema.access.structs[lock.struct_index];
            ctx.slot_rings.push(SlotRingCtx {
                doc,
                name: ring.name.clone(),
                head_s: c_type_name(&head_s.name, prefix),
                head_name: head_s.fields[head.field].name.clone(),
                head_bits: schema.layout.of(head.struct_index).fields[head.field].size * 8,
                value: if lock.guards_whole_struct(&schema.access.structs) {
                    slot_s.clone()
                } else {
                    format!("{prefix}_{}_copy", lock.name)
                },
                slot_s,
                lock: lock.name.clone(),
                slot_count: *slot_count,
                slot_size: *slot_size,
                payload: lock.guards.iter().any(|g| match g {
                    Guard::Trailer(t) => a.trailer[*t].size_field.is_some(),
                    Guard::Field(_) => false,
                }),
            });
        }
        RingKind::Events {
            total,
            entries,
            capacity,
        } => {
            let s = &abi.structs[total.struct_index];
            let entries_field = &s.fields[entries.field];
            ctx.event_rings.push(EventRingCtx {
                doc,
                name: ring.name.clone(),
                s: c_type_name(&s.name, prefix),
                total: c_field_name(&s.fields[total.field].name, prefix),
                entries: c_field_name(&entries_field.name, prefix),
                elem: field_type(abi, &entries_field.ty).into_owned(),
                capacity: *capacity,
            });
        }
    }
}
