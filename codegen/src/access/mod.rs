//! Lowers the schema's shared-memory declarations (`parties`, `writer`, `access`,
//! `trailer`, `[[seqlock]]`, `[[ring]]`) into [`Access`], after the layout: whether an
//! atomic word is aligned, or a ring's slot holds its parts, depends on offsets.
//! This file owns the order of the passes and the helpers they share (spans, `struct.field`
//! paths, counters, item names); each part lives in its own file.

mod c_macros;
mod directory;
mod fields;
mod parties;
mod protocol;
mod protocol_kinds;
mod ring;
mod seqlock;
mod shared;
mod trailer;
mod views;

use toml::Spanned;

use crate::diagnostics::closest;
use crate::diagnostics::{Errors, SchemaErrors, Span};
use crate::ir::access::{Access, AccessKind, FieldRef, Guard, Ring, Seqlock, StructAccess};
use crate::ir::names::is_snake_case;
use crate::ir::protocol::{Protocol, ProtocolKind};
use crate::ir::{Abi, Elem, Prim};
use crate::layout::Layout;
use crate::parse::{RawRing, RawSchema, RawSeqlock};

/// Lowers and checks every access declaration of `raw`, whose items `abi` and `layout`
/// already hold.
pub fn lower_access(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
) -> Result<Access, SchemaErrors> {
    let mut cx = LowerAccess {
        src,
        abi,
        layout,
        errors: Errors::new(),
        parties: Vec::new(),
    };
    cx.lower_parties(raw);
    let mut structs: Vec<StructAccess> = raw
        .structs
        .iter()
        .enumerate()
        .map(|(i, s)| cx.lower_struct_access(i, s.get_ref()))
        .collect();
    cx.propagate_shared(raw, &mut structs);
    cx.check_unshared(raw, &structs);
    cx.check_c_live_macros(raw, &structs);
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

/// Lowers every `[[directory]]` of `raw`, after the access declarations.
pub fn lower_directories(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
    access: &Access,
) -> Result<Vec<crate::ir::directory::Directory>, SchemaErrors> {
    let mut cx = LowerAccess::after_access(src, abi, layout, access);
    let mut out = Vec::new();
    for (i, d) in raw.directories.iter().enumerate() {
        let d = d.get_ref();
        let first = raw.directories[..i]
            .iter()
            .map(|o| &o.get_ref().name)
            .find(|o| o.get_ref() == d.name.get_ref());
        cx.check_item_name(&d.name, "directory", first.map(|o| o.span()).as_ref());
        if let Some(dir) = cx.lower_directory(d, access) {
            out.push(dir);
        }
    }
    cx.errors.propagate()?;
    Ok(out)
}

/// Lowers every protocol declaration of `raw`, after the access declarations.
pub fn lower_protocols(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
    access: &Access,
) -> Result<Vec<Protocol>, SchemaErrors> {
    let mut cx = LowerAccess::after_access(src, abi, layout, access);
    let mut out = Vec::new();
    for q in &raw.queues {
        let q = q.get_ref();
        let what = format!("queue `{}`", q.name.get_ref());
        let kind = cx.lower_queue(q, &what, access);
        out.push((q.name.clone(), q.doc.clone(), kind.map(ProtocolKind::Queue)));
    }
    for b in &raw.broadcasts {
        let b = b.get_ref();
        let what = format!("broadcast `{}`", b.name.get_ref());
        let kind = cx.lower_broadcast(b, &what, access);
        out.push((
            b.name.clone(),
            b.doc.clone(),
            kind.map(ProtocolKind::Broadcast),
        ));
    }
    for m in &raw.mailboxes {
        let m = m.get_ref();
        let what = format!("mailbox `{}`", m.name.get_ref());
        let kind = cx.lower_mailbox(m, &what, access);
        out.push((
            m.name.clone(),
            m.doc.clone(),
            kind.map(ProtocolKind::Mailbox),
        ));
    }
    for e in &raw.exchanges {
        let e = e.get_ref();
        let what = format!("exchange `{}`", e.name.get_ref());
        let kind = cx.lower_exchange(e, &what, access);
        out.push((
            e.name.clone(),
            e.doc.clone(),
            kind.map(ProtocolKind::Exchange),
        ));
    }
    for s in &raw.sessions {
        let s = s.get_ref();
        let what = format!("session `{}`", s.name.get_ref());
        let kind = cx.lower_session(s, &what, access);
        out.push((
            s.name.clone(),
            s.doc.clone(),
            kind.map(ProtocolKind::Session),
        ));
    }
    let mut protocols = Vec::new();
    for (i, (name, doc, kind)) in out.iter().enumerate() {
        let first = out[..i]
            .iter()
            .find(|(n, _, _)| n.get_ref() == name.get_ref())
            .map(|(n, _, _)| n.span());
        cx.check_item_name(name, "protocol", first.as_ref());
        // Two protocols over one struct's bytes would each take its words for their own.
        let shared = kind.as_ref().and_then(|k| {
            out[..i].iter().find_map(|(n, _, other)| {
                let other = other.as_ref()?;
                (other.header() == k.header()).then(|| (n, other.table()))
            })
        });
        if let (Some(k), Some((other, table)), None) = (kind, shared, first) {
            let line = crate::diagnostics::line_col(src, other.span().start).0;
            cx.errors.error_help(
                &cx.inner(name),
                format!(
                    "{} `{}` runs over struct `{}`, which {table} `{}` (line {line}) already runs over",
                    k.table(),
                    name.get_ref(),
                    abi.structs[k.header()].name,
                    other.get_ref()
                ),
                "two protocols over the same bytes race for them: give each its own header struct (a layout row or block can hold several)",
            );
        }
        if let Some(kind) = kind {
            protocols.push(Protocol {
                name: name.get_ref().clone(),
                doc: doc
                    .as_ref()
                    .map(|d| d.get_ref().clone())
                    .unwrap_or_default(),
                span: cx.inner(name),
                kind: kind.clone(),
            });
        }
    }
    cx.errors.propagate()?;
    Ok(protocols)
}

/// What a seqlock guards, named: its kind (`field`, `trailer part`) and its
/// `struct.name` path.
type GuardName = (&'static str, String);

/// Records which fields a seqlock guards, and which structs it copies whole.
fn mark_guarded(structs: &mut [StructAccess], lock: &Seqlock, index: usize) {
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

struct LowerAccess<'a> {
    src: &'a str,
    abi: &'a Abi,
    layout: &'a Layout,
    errors: Errors,
    parties: Vec<String>,
}

impl<'a> LowerAccess<'a> {
    /// A lowering of declarations that come after the access ones (protocols, directories).
    fn after_access(src: &'a str, abi: &'a Abi, layout: &'a Layout, access: &Access) -> Self {
        LowerAccess {
            src,
            abi,
            layout,
            errors: Errors::new(),
            parties: access.parties.clone(),
        }
    }
}

impl LowerAccess<'_> {
    /// The span of a string value's text, inside its quotes.
    fn inner(&self, s: &Spanned<String>) -> Span {
        crate::diagnostics::string_span(self.src, s)
    }

    /// The span of the part of a `struct.field` path after its dot (`part` 1) or before
    /// it (`part` 0).
    fn path_part(&self, path: &Spanned<String>, part: usize) -> Span {
        let span = self.inner(path);
        let text = path.get_ref();
        match (text.split_once('.'), self.src.get(span.clone())) {
            (Some((s, f)), Some(t)) if t == text => {
                if part == 0 {
                    span.start..span.start + s.len()
                } else {
                    span.end - f.len()..span.end
                }
            }
            _ => span,
        }
    }

    /// `bridge_header.snapshot_seq`: a struct and one of its fields.
    fn resolve_field(&mut self, path: &Spanned<String>, what: &str) -> Option<FieldRef> {
        let span = self.inner(path);
        let Some((sname, fname)) = path.get_ref().split_once('.') else {
            self.errors.error_help(
                &span,
                format!("{what}: `{}` is not a `struct.field` path", path.get_ref()),
                "name the struct, a dot, then its field, such as `ring_slot_header.seq`",
            );
            return None;
        };
        let Some(si) = self.abi.structs.iter().position(|s| s.name == sname) else {
            let help = closest(sname, self.abi.structs.iter().map(|s| s.name.as_str()))
                .map_or("name a struct of this schema".into(), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &self.path_part(path, 0),
                format!("{what}: unknown struct `{sname}` in `{}`", path.get_ref()),
                help,
            );
            return None;
        };
        let s = &self.abi.structs[si];
        let Some(fi) = s.fields.iter().position(|f| f.name == fname) else {
            let help = closest(fname, s.fields.iter().map(|f| f.name.as_str()))
                .map_or(format!("name a field of `{sname}`"), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &self.path_part(path, 1),
                format!("{what}: struct `{sname}` has no field `{fname}`"),
                help,
            );
            return None;
        };
        Some(FieldRef {
            struct_index: si,
            field: fi,
        })
    }

    /// A counter (a seqlock's, a ring's head or total): an atomic u32 or u64.
    fn check_counter(
        &mut self,
        path: &Spanned<String>,
        r: FieldRef,
        structs: &[StructAccess],
        what: &str,
    ) -> Option<u64> {
        let st = &self.abi.structs[r.struct_index];
        let f = &st.fields[r.field];
        let access = structs[r.struct_index].fields[r.field].kind;
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

    /// A seqlock's or ring's name: snake_case, and not the name of an earlier one (whose
    /// span is `taken`).
    fn check_item_name(&mut self, name: &Spanned<String>, kind: &str, taken: Option<&Span>) {
        if !is_snake_case(name.get_ref()) {
            self.errors.error_help(
                &self.inner(name),
                format!("{kind} `{}` is not snake_case", name.get_ref()),
                "use lowercase words joined by single underscores",
            );
        } else if let Some(first) = taken {
            let line = crate::diagnostics::line_col(self.src, first.start).0;
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "duplicate {kind} `{}`: it is already declared on line {line}",
                    name.get_ref()
                ),
                "rename or remove one of them",
            );
        }
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
