//! Lowers the schema's shared-memory declarations (`parties`, `writer`, `access`,
//! `trailer`, `[[seqlock]]`, `[[ring]]`) into [`Access`], after the layout: whether an
//! atomic word is aligned, or a ring's slot holds its parts, depends on offsets.
//! This file owns the order of the passes and the helpers only they share (counters, the
//! names of what a seqlock guards); the helpers the protocols share too (spans,
//! `struct.field` paths, constants, parties, item names) are in `lower::after_layout`, and
//! each part lives in its own file.

mod fields;
mod parties;
mod ring;
mod seqlock;
mod shared;
mod trailer;
mod views;

use toml::Spanned;

use crate::diagnostics::SchemaErrors;
use crate::ir::PerStruct;
use crate::ir::access::{Access, AccessKind, FieldRef, Guard, Ring, Seqlock, StructAccess};
use crate::ir::{Abi, Elem, Prim, StructId};
use crate::layout::Layout;
use crate::lower::after_layout::AfterLayout;
use crate::lower::reserved_macros;
use crate::parse::{RawRing, RawSchema, RawSeqlock};

/// Lowers and checks every access declaration of `raw`, whose items `abi` and `layout`
/// already hold.
pub fn lower_access(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
) -> Result<Access, SchemaErrors> {
    let mut cx = AfterLayout::new(src, abi, layout, Vec::new());
    cx.lower_parties(raw);
    let mut structs: PerStruct<StructAccess> = StructId::enumerate(&raw.structs)
        .map(|(i, s)| cx.lower_struct_access(i, s.get_ref()))
        .collect();
    cx.propagate_shared(raw, &mut structs);
    cx.check_unshared(raw, &structs);
    reserved_macros::check_reserved_macros(&mut cx.errors, src, raw, abi, &structs);
    cx.errors.propagate()?;
    let mut seqlocks = Vec::new();
    // The declaration of each lowered seqlock, for its spans.
    let mut raw_locks: Vec<&RawSeqlock> = Vec::new();
    for (i, s) in raw.seqlocks.iter().enumerate() {
        let name = &s.get_ref().name;
        let first = raw.seqlocks[..i]
            .iter()
            .map(|o| &o.get_ref().name)
            .find(|o| o.get_ref() == name.get_ref());
        cx.check_item_name(name, "seqlock", first.map(|o| o.span()).as_ref());
        if let Some(lock) = cx.lower_seqlock(s, &structs, &seqlocks) {
            let index = seqlocks.len();
            mark_guarded(&mut structs, &lock, index);
            seqlocks.push(lock);
            raw_locks.push(s.get_ref());
        }
    }
    cx.check_copied_whole(&seqlocks, &structs, &raw_locks);
    cx.errors.propagate()?;
    let mut rings: Vec<Ring> = Vec::new();
    let mut raw_rings: Vec<&RawRing> = Vec::new();
    for (i, r) in raw.rings.iter().enumerate() {
        let name = &r.get_ref().name;
        let first = raw.rings[..i]
            .iter()
            .map(|o| &o.get_ref().name)
            .find(|o| o.get_ref() == name.get_ref());
        cx.check_item_name(name, "ring", first.map(|o| o.span()).as_ref());
        if let Some(ring) = cx.lower_ring(r, &structs, &seqlocks) {
            rings.push(ring);
            raw_rings.push(r.get_ref());
        }
    }
    cx.errors.propagate()?;
    cx.check_live_names(raw, &structs, (&seqlocks, &raw_locks), (&rings, &raw_rings));
    cx.errors.propagate()?;
    views::compute_views(abi, &mut structs);
    Ok(Access {
        parties: cx.parties,
        structs,
        seqlocks,
        rings,
    })
}

/// What a seqlock guards, named: its kind (`field`, `trailer part`) and its
/// `struct.name` path.
type GuardName = (&'static str, String);

/// Records which fields a seqlock guards, and which structs it copies whole.
fn mark_guarded(structs: &mut PerStruct<StructAccess>, lock: &Seqlock, index: usize) {
    structs[lock.struct_index].seqlocks.push(index);
    for guard in &lock.guards {
        match *guard {
            Guard::Field(f) => structs[lock.struct_index].fields[f].guarded_by = Some(index),
            Guard::Trailer(t) => {
                if let Elem::Struct(j) = structs[lock.struct_index].trailer[t].ty.elem {
                    structs[j].guarded_whole = true;
                }
            }
        }
    }
}

impl AfterLayout<'_> {
    /// A counter (a seqlock's, a ring's head or total): an atomic u32 or u64.
    pub(super) fn check_counter(
        &mut self,
        path: &Spanned<String>,
        r: FieldRef,
        structs: &PerStruct<StructAccess>,
        what: &str,
    ) -> Option<u64> {
        let st = &self.abi.structs[r.struct_index];
        let f = &st.fields[r.field];
        let access = r.access(structs).kind;
        let counter_like = |g: &crate::ir::Field| {
            matches!(g.ty.elem, Elem::Prim(Prim::U32 | Prim::U64)) && g.ty.len.is_none()
        };
        let unsigned = counter_like(f);
        // The field of the struct that fits the role: an atomic u32 or u64 (the likely
        // meant counter, which a hint to make this one atomic would leave unguarded).
        let fitting = st
            .fields
            .iter()
            .enumerate()
            .find(|(i, g)| {
                *i != r.field
                    && counter_like(g)
                    && matches!(
                        structs[r.struct_index].fields.get(*i).map(|a| a.kind),
                        Some(AccessKind::Atomic { .. })
                    )
            })
            .map(|(_, g)| {
                format!(
                    "did you mean `{}.{}`? It is an atomic {}, as a counter is",
                    st.name, g.name, g.ty.text
                )
            });
        if !unsigned {
            self.errors.error_help(
                &self.inner(path),
                format!(
                    "{what}: counter `{}` is `{}`; a counter is a u32 or u64",
                    path.get_ref(),
                    f.ty.text
                ),
                fitting.clone().unwrap_or_else(|| {
                    format!(
                        "a counter only grows, wrapping around: make `{}` a u32 or u64",
                        path.get_ref()
                    )
                }),
            );
            return None;
        }
        if !matches!(access, AccessKind::Atomic { .. }) {
            self.errors.error_help(
                &self.inner(path),
                format!(
                    "{what}: counter `{}` is not an atomic field (its access is {})",
                    path.get_ref(),
                    access.keyword()
                ),
                fitting.unwrap_or_else(|| {
                    format!(
                        "declare `access = \"atomic\"` on field `{}`",
                        path.get_ref()
                    )
                }),
            );
            return None;
        }
        access.width()
    }
}

/// "field `a.b` is", "fields `a.b` and `a.c` are", "field `a.b` and trailer part `a.t` are".
fn list_is(names: &[GuardName]) -> String {
    let and = |items: Vec<String>| match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    match names {
        [] => "nothing is".to_string(),
        [(kind, path)] => format!("{kind} `{path}` is"),
        [(kind, _), ..] if names.iter().all(|(k, _)| k == kind) => {
            let paths = names.iter().map(|(_, p)| format!("`{p}`")).collect();
            format!("{kind}s {} are", and(paths))
        }
        _ => {
            let items = names.iter().map(|(k, p)| format!("{k} `{p}`")).collect();
            format!("{} are", and(items))
        }
    }
}
