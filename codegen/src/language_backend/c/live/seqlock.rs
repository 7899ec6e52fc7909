//! Seqlocks: the value type a read fills (the struct itself, or a copy type of the guarded
//! fields and trailer parts), and the byte ranges a read and a write copy.

use crate::plan::tries::host_reads_client;
use serde::Serialize;

use super::comments::{WIDTH, comment, find, protocol_comment};
use crate::ir::Type;
use crate::ir::access::{Guard, Seqlock};
use crate::language_backend::c::comments::render_comment_lines;
use crate::language_backend::c::names::{array_len, c_field_name, c_type_name, field_type};
use crate::language_backend::prose::ProtocolProse;
use crate::plan::bound::seqlock_binding;
use crate::plan::live as live_plan;
use crate::schema::Schema;

#[derive(Serialize)]
pub(super) struct SeqlockCtx {
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
    /// A host's read of a record its client writes (`plan::tries`), and who writes it.
    host_read: bool,
    writers: String,
    /// The session whose claim binds the client's write (`plan::bound`): the write printed
    /// here is then `<prefix>_<lock>_write_unscoped`, the bound one follows the session.
    bound: Option<String>,
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

pub(super) fn build_seqlock(
    schema: &Schema,
    protocols: &[ProtocolProse],
    lock: &Seqlock,
) -> SeqlockCtx {
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
        host_read: host_reads_client(schema, lock),
        writers: lock.writers.describe(&schema.access.parties),
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
        bound: schema
            .access
            .seqlocks
            .iter()
            .position(|l| l.name == lock.name)
            .and_then(|k| seqlock_binding(schema, k))
            .map(|s| schema.protocols[s].name.clone()),
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
