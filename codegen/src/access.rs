//! Lowers the schema's shared-memory declarations (`parties`, `writer`, `access`,
//! `trailer`, `[[seqlock]]`, `[[ring]]`) into [`Access`], after the layout: whether an
//! atomic word is aligned, or a ring's slot holds its parts, depends on offsets.

use toml::Spanned;

use crate::diagnostics::{Errors, SchemaErrors, Span};
use crate::expr;
use crate::ir::access::{
    Access, AccessKind, FieldAccess, FieldRef, Guard, Parties, Ring, RingKind, Seqlock,
    StructAccess, TrailerPart,
};
use crate::ir::names::is_snake_case;
use crate::ir::{Abi, ArrayLen, Elem, Prim, Type};
use crate::layout::Layout;
use crate::lower::closest;
use crate::parse::{RawParties, RawRing, RawSchema, RawSeqlock, RawStruct};

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
    cx.errors.propagate()?;
    let mut seqlocks = Vec::new();
    for s in &raw.seqlocks {
        if let Some(lock) = cx.lower_seqlock(s, &structs, &seqlocks) {
            let index = seqlocks.len();
            mark_guarded(&mut structs, &lock, index);
            seqlocks.push(lock);
        }
    }
    cx.errors.propagate()?;
    let mut rings: Vec<Ring> = Vec::new();
    for r in &raw.rings {
        if let Some(ring) = cx.lower_ring(r, &structs, &seqlocks, &rings) {
            rings.push(ring);
        }
    }
    cx.errors.propagate()?;
    Ok(Access {
        parties: cx.parties,
        structs,
        seqlocks,
        rings,
    })
}

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

impl LowerAccess<'_> {
    /// The span of a string value's text, inside its quotes.
    fn inner(&self, s: &Spanned<String>) -> Span {
        let span = s.span();
        match self.src.get(span.clone()) {
            Some(t) if t.len() >= 2 && (t.starts_with('"') || t.starts_with('\'')) => {
                span.start + 1..span.end - 1
            }
            _ => span,
        }
    }

    fn lower_parties(&mut self, raw: &RawSchema) {
        let Some(list) = &raw.abi.get_ref().parties else {
            return;
        };
        for p in list.get_ref() {
            let name = p.get_ref();
            if !is_snake_case(name) {
                self.errors.error(
                    &self.inner(p),
                    format!("[abi] party `{name}` is not snake_case"),
                );
            } else if self.parties.contains(name) {
                self.errors.error(
                    &self.inner(p),
                    format!("[abi] party `{name}` is listed twice"),
                );
            } else {
                self.parties.push(name.clone());
            }
        }
    }

    /// `writer = "host"` or `reader = ["host", "client"]`: names from `[abi] parties`.
    fn lower_parties_value(&mut self, value: &Spanned<RawParties>, what: &str) -> Parties {
        let mut set = Vec::new();
        let names = value.get_ref().names();
        if names.is_empty() {
            self.errors
                .error(&value.span(), format!("{what}: name at least one party"));
        }
        for name in names {
            match self.parties.iter().position(|p| p == name) {
                Some(i) if !set.contains(&i) => set.push(i),
                Some(_) => {}
                None if self.parties.is_empty() => {
                    self.errors.error_help(
                        &value.span(),
                        format!("{what}: party `{name}` is not declared"),
                        "declare who shares the memory in [abi], such as `parties = [\"host\", \"client\"]`",
                    );
                }
                None => {
                    let help = match closest(name, self.parties.iter().map(String::as_str)) {
                        Some(p) => format!("did you mean `{p}`?"),
                        None => format!("[abi] parties are {}", self.parties.join(", ")),
                    };
                    self.errors.error_help(
                        &value.span(),
                        format!("{what}: unknown party `{name}`"),
                        help,
                    );
                }
            }
        }
        set.sort_unstable();
        Parties(set)
    }

    fn lower_struct_access(&mut self, si: usize, raw: &RawStruct) -> StructAccess {
        let s = &self.abi.structs[si];
        let sl = self.layout.of(si);
        let what = format!("struct `{}`", s.name);
        let writers = match &raw.writer {
            Some(w) => self.lower_parties_value(w, &what),
            None => Parties::default(),
        };
        let mut fields = Vec::with_capacity(s.fields.len());
        for (fi, rf) in raw.fields.get_ref().iter().enumerate() {
            let rf = rf.get_ref();
            let f = &s.fields[fi];
            let fwhat = format!("field `{}.{}`", s.name, f.name);
            let kind = match &rf.access {
                None => AccessKind::Plain,
                Some(a) => self.lower_access_kind(a, &fwhat, &f.ty, sl.fields[fi].offset, sl.align),
            };
            let own = rf
                .writer
                .as_ref()
                .map(|w| self.lower_parties_value(w, &fwhat));
            fields.push(FieldAccess {
                kind,
                writers: own.unwrap_or_else(|| writers.clone()),
                guarded_by: None,
            });
        }
        let trailer = match &raw.trailer {
            Some(parts) => self.lower_trailer(si, parts),
            None => Vec::new(),
        };
        StructAccess {
            shared: raw.writer.is_some(),
            writers,
            fields,
            trailer,
            seqlocks: Vec::new(),
            guarded_whole: false,
        }
    }

    /// `access = "atomic"` or `"cas"` on a field of type `ty` at `offset` in a struct
    /// aligned to `struct_align`.
    fn lower_access_kind(
        &mut self,
        a: &Spanned<String>,
        what: &str,
        ty: &Type,
        offset: u64,
        struct_align: u64,
    ) -> AccessKind {
        let span = self.inner(a);
        let keyword = a.get_ref().as_str();
        let cas = match keyword {
            "atomic" => false,
            "cas" => true,
            "plain" => return AccessKind::Plain,
            other => {
                let help = match closest(other, ["plain", "atomic", "cas"].into_iter()) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => "write `atomic` (loaded and stored as one word) or `cas` (also claimed by compare-and-swap)".into(),
                };
                self.errors
                    .error_help(&span, format!("{what}: unknown access `{other}`"), help);
                return AccessKind::Plain;
            }
        };
        let elem = match ty.elem {
            Elem::Prim(p) if p.is_integer() => Some(p.size()),
            Elem::Enum(e) => Some(self.abi.enums[e].repr.size()),
            _ => None,
        };
        let Some(elem_size) = elem else {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: `access = \"{keyword}\"` needs an integer, enum or flag set, not `{}`",
                    ty.text
                ),
                "floats, text and structs are read and written under a seqlock, or copied",
            );
            return AccessKind::Plain;
        };
        let width = elem_size * ty.count();
        if ty.len.is_some() && !cas {
            self.errors.error_help(
                &span,
                format!("{what}: an array is not one atomic word; `{}` is {} elements", ty.text, ty.count()),
                "an array that is claimed as one word is `access = \"cas\"` (4 or 8 bytes in all); otherwise guard it with a seqlock",
            );
            return AccessKind::Plain;
        }
        if cas && width != 4 && width != 8 {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a compare-and-swap word is 4 or 8 bytes, and `{}` is {width}",
                    ty.text
                ),
                "claim a u32 or u64 field, or an array of 4 or 8 bytes as one word",
            );
            return AccessKind::Plain;
        }
        if offset % width != 0 || struct_align < width {
            let reason = if offset % width != 0 {
                format!("it starts at offset {offset:#x} ({offset}), not a multiple of {width}")
            } else {
                format!(
                    "its struct is aligned to {struct_align}, so the word is misaligned wherever the struct is"
                )
            };
            self.errors.error_help(
                &span,
                format!("{what}: a {width}-byte atomic word must be naturally aligned, and {reason}"),
                format!("move it to an offset that is a multiple of {width}, in a struct aligned to at least {width}"),
            );
            return AccessKind::Plain;
        }
        if cas {
            AccessKind::Cas { width }
        } else {
            AccessKind::Atomic { width }
        }
    }

    fn lower_trailer(
        &mut self,
        si: usize,
        parts: &Spanned<Vec<Spanned<crate::parse::RawTrailerPart>>>,
    ) -> Vec<TrailerPart> {
        let s = &self.abi.structs[si];
        let mut offset = self.layout.of(si).size;
        let mut out: Vec<TrailerPart> = Vec::new();
        for p in parts.get_ref() {
            let rp = p.get_ref();
            let name = rp.name.get_ref();
            let what = format!("struct `{}`, trailer part `{name}`", s.name);
            if !is_snake_case(name) {
                self.errors.error(
                    &self.inner(&rp.name),
                    format!("{what}: the name is not snake_case"),
                );
            }
            if out.iter().any(|t| t.name == *name) || s.fields.iter().any(|f| f.name == *name) {
                self.errors.error(
                    &self.inner(&rp.name),
                    format!(
                        "{what}: the name is already a field or trailer part of `{}`",
                        s.name
                    ),
                );
            }
            let Some((ty, elem_size, align)) = self.resolve_type(&rp.ty, &what) else {
                continue;
            };
            if offset % align != 0 {
                self.errors.error_help(
                    &self.inner(&rp.ty),
                    format!("{what}: `{}` needs {align}-byte alignment but would start at offset {offset:#x} ({offset})", ty.text),
                    "declare padding as a trailer part before it, or reorder the parts",
                );
            }
            let size_field = rp.size.as_ref().and_then(|sf| {
                let i = s.fields.iter().position(|f| f.name == *sf.get_ref());
                let ok = i.is_some_and(|i| {
                    matches!(s.fields[i].ty.elem, Elem::Prim(p) if p.is_integer() && !p.is_signed())
                        && s.fields[i].ty.len.is_none()
                });
                if !ok {
                    self.errors.error_help(
                        &self.inner(sf),
                        format!(
                            "{what}: `size = \"{}\"` must name an unsigned integer field of `{}`",
                            sf.get_ref(),
                            s.name
                        ),
                        "name the field that holds the part's length in bytes",
                    );
                }
                i.filter(|_| ok)
            });
            let size = elem_size * ty.count();
            out.push(TrailerPart {
                name: name.clone(),
                ty,
                doc: rp
                    .doc
                    .as_ref()
                    .map(|d| d.get_ref().clone())
                    .unwrap_or_default(),
                offset,
                size,
                align,
                elem_size,
                size_field,
                span: p.span(),
            });
            offset += size;
        }
        out
    }

    /// A trailer part's type: a primitive, enum or struct, or an array of one.
    fn resolve_type(&mut self, t: &Spanned<String>, what: &str) -> Option<(Type, u64, u64)> {
        let text = t.get_ref().trim();
        let (base, len) = match text.split_once('[') {
            Some((b, rest)) => match rest.strip_suffix(']') {
                Some(l) => (b.trim(), Some(l.trim())),
                None => (text, None),
            },
            None => (text, None),
        };
        let (elem, size, align) = if let Some(p) = Prim::from_name(base) {
            (Elem::Prim(p), p.size(), p.size())
        } else if let Some(i) = self.abi.structs.iter().position(|s| s.name == base) {
            let l = self.layout.of(i);
            (Elem::Struct(i), l.size, l.align)
        } else if let Some(i) = self.abi.enums.iter().position(|e| e.name == base) {
            let n = self.abi.enums[i].repr.size();
            (Elem::Enum(i), n, n)
        } else {
            let names = self.abi.structs.iter().map(|s| s.name.as_str());
            let help = match closest(base, names) {
                Some(c) => format!("did you mean `{c}`?"),
                None => {
                    "name a primitive, enum or struct, or an array of one: `param_def[max_params]`"
                        .into()
                }
            };
            self.errors.error_help(
                &self.inner(t),
                format!("{what}: unknown type `{base}`"),
                help,
            );
            return None;
        };
        let len = match len {
            None => None,
            Some(l) => {
                let count = match self.abi.find_const(l) {
                    Some(c) => Some((self.abi.consts[c].value, Some(c))),
                    None => expr::parse_int_literal(l).map(|v| (v, None)),
                };
                match count {
                    Some((n, constant)) if n > 0 && n <= i128::from(u32::MAX) => Some(ArrayLen {
                        count: n as u64,
                        constant,
                    }),
                    _ => {
                        self.errors.error(
                            &self.inner(t),
                            format!(
                                "{what}: array length `{l}` is not a positive integer or constant"
                            ),
                        );
                        return None;
                    }
                }
            }
        };
        let ty = Type {
            elem,
            len,
            text: text.to_string(),
        };
        Some((ty, size, align))
    }

    /// Shared structs share the structs they hold; a held struct with no writer of its own
    /// is written by whoever writes the field that holds it.
    fn propagate_shared(&mut self, raw: &RawSchema, structs: &mut [StructAccess]) {
        for &si in self.layout.order.iter().rev() {
            if !structs[si].shared {
                continue;
            }
            for (fi, f) in self.abi.structs[si].fields.iter().enumerate() {
                let Elem::Struct(j) = f.ty.elem else { continue };
                let writers = structs[si].fields[fi].writers.clone();
                let inner = &mut structs[j];
                if raw.structs[j].get_ref().writer.is_none() {
                    for w in writers.0 {
                        if !inner.writers.0.contains(&w) {
                            inner.writers.0.push(w);
                        }
                    }
                    inner.writers.0.sort_unstable();
                    for fa in &mut inner.fields {
                        fa.writers = inner.writers.clone();
                    }
                }
                inner.shared = true;
            }
        }
    }

    /// `access`, a field's `writer` and `trailer` describe shared memory: a struct that has
    /// them must declare its writer, or be held by a struct that does.
    fn check_unshared(&mut self, raw: &RawSchema, structs: &[StructAccess]) {
        for (si, rs) in raw.structs.iter().enumerate() {
            if structs[si].shared {
                continue;
            }
            let rs = rs.get_ref();
            let name = rs.name.get_ref();
            let keys = rs.fields.get_ref().iter().flat_map(|f| {
                let f = f.get_ref();
                let access = f
                    .access
                    .as_ref()
                    .map(|a| (a.span(), format!("field `{name}.{}`", f.name.get_ref())));
                let writer = f
                    .writer
                    .as_ref()
                    .map(|w| (w.span(), format!("field `{name}.{}`", f.name.get_ref())));
                access.into_iter().chain(writer)
            });
            let trailer = rs
                .trailer
                .as_ref()
                .map(|t| (t.span(), format!("struct `{name}`")));
            for (span, what) in keys.chain(trailer) {
                self.errors.error_help(
                    &span,
                    format!("{what}: `access`, `writer` and `trailer` describe shared memory, and struct `{name}` is not shared"),
                    format!("declare who writes it: `writer = \"...\"` in struct `{name}` (or in a struct that holds it)"),
                );
            }
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
            self.errors
                .error_help(&span, format!("{what}: unknown struct `{sname}`"), help);
            return None;
        };
        let s = &self.abi.structs[si];
        let Some(fi) = s.fields.iter().position(|f| f.name == fname) else {
            let help = closest(fname, s.fields.iter().map(|f| f.name.as_str()))
                .map_or(format!("name a field of `{sname}`"), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &span,
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
        let f = &self.abi.structs[r.struct_index].fields[r.field];
        let access = structs[r.struct_index].fields[r.field].kind;
        let unsigned = matches!(f.ty.elem, Elem::Prim(Prim::U32 | Prim::U64)) && f.ty.len.is_none();
        if !unsigned {
            self.errors.error_help(
                &self.inner(path),
                format!(
                    "{what}: counter `{}` is `{}`; a counter is a u32 or u64",
                    path.get_ref(),
                    f.ty.text
                ),
                "name an unsigned 32- or 64-bit integer field",
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
                format!(
                    "declare `access = \"atomic\"` on field `{}`",
                    path.get_ref()
                ),
            );
            return None;
        }
        access.width()
    }

    fn check_item_name(&mut self, name: &Spanned<String>, kind: &str, taken: bool) {
        if !is_snake_case(name.get_ref()) {
            self.errors.error(
                &self.inner(name),
                format!("{kind} `{}` is not snake_case", name.get_ref()),
            );
        } else if taken {
            self.errors.error(
                &self.inner(name),
                format!("{kind} `{}` is declared twice", name.get_ref()),
            );
        }
    }

    fn lower_seqlock(
        &mut self,
        raw: &Spanned<RawSeqlock>,
        structs: &[StructAccess],
        done: &[Seqlock],
    ) -> Option<Seqlock> {
        let r = raw.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("seqlock `{name}`");
        self.check_item_name(&r.name, "seqlock", done.iter().any(|s| s.name == name));
        let writers = self.lower_parties_value(&r.writer, &what);
        let readers = self.lower_parties_value(&r.reader, &what);
        let counter = self.resolve_field(&r.counter, &what)?;
        let counter_width = self.check_counter(&r.counter, counter, structs, &what)?;
        let si = counter.struct_index;
        let s = &self.abi.structs[si];
        if !structs[si].shared {
            self.errors.error_help(
                &self.inner(&r.counter),
                format!("{what}: struct `{}` is not shared", s.name),
                format!(
                    "declare who writes it: `writer = \"...\"` in struct `{}`",
                    s.name
                ),
            );
            return None;
        }
        if r.guards.get_ref().is_empty() {
            self.errors.error_help(
                &r.guards.span(),
                format!("{what} guards nothing"),
                "list what it guards: `rest` (the other fields), field names, or trailer parts",
            );
        }
        let mut guards: Vec<Guard> = Vec::new();
        let push = |g: Guard, guards: &mut Vec<Guard>| {
            if !guards.contains(&g) {
                guards.push(g);
            }
        };
        for g in r.guards.get_ref() {
            let gname = g.get_ref().as_str();
            let span = self.inner(g);
            if gname == "rest" {
                for (fi, fa) in structs[si].fields.iter().enumerate() {
                    if fi != counter.field && !fa.kind.is_atomic() {
                        push(Guard::Field(fi), &mut guards);
                    }
                }
            } else if let Some(fi) = s.fields.iter().position(|f| f.name == gname) {
                if fi == counter.field {
                    self.errors.error(
                        &span,
                        format!("{what}: the counter `{gname}` cannot guard itself"),
                    );
                } else if structs[si].fields[fi].kind.is_atomic() {
                    self.errors.error_help(
                        &span,
                        format!("{what}: field `{gname}` is atomic, and an atomic field is accessed on its own"),
                        "a seqlock guards plain fields; remove it from `guards`, or its `access`",
                    );
                } else {
                    push(Guard::Field(fi), &mut guards);
                }
            } else if let Some(ti) = structs[si].trailer.iter().position(|t| t.name == gname) {
                push(Guard::Trailer(ti), &mut guards);
            } else {
                let candidates = ["rest"]
                    .into_iter()
                    .chain(s.fields.iter().map(|f| f.name.as_str()))
                    .chain(structs[si].trailer.iter().map(|t| t.name.as_str()));
                let help = closest(gname, candidates).map_or(
                    format!(
                        "name `rest`, a field of `{}` or a part of its trailer",
                        s.name
                    ),
                    |c| format!("did you mean `{c}`?"),
                );
                self.errors.error_help(
                    &span,
                    format!(
                        "{what}: `{gname}` is not a field or trailer part of `{}`",
                        s.name
                    ),
                    help,
                );
            }
        }
        for g in &guards {
            if let Guard::Field(fi) = g {
                if let Some(other) = structs[si].fields[*fi].guarded_by {
                    self.errors.error(
                        &r.guards.span(),
                        format!(
                            "{what}: field `{}.{}` is already guarded by seqlock `{}`",
                            s.name, s.fields[*fi].name, done[other].name
                        ),
                    );
                }
            }
        }
        Some(Seqlock {
            name,
            doc: r
                .doc
                .as_ref()
                .map(|d| d.get_ref().clone())
                .unwrap_or_default(),
            struct_index: si,
            counter: counter.field,
            counter_width,
            guards,
            writers,
            readers,
            span: raw.span(),
        })
    }

    /// A required key of one ring kind, or a stray key of the other.
    fn ring_key<'r>(
        &mut self,
        key: &'r Option<Spanned<String>>,
        name: &str,
        wanted: bool,
        what: &str,
        kind: &str,
        span: &Span,
    ) -> Option<&'r Spanned<String>> {
        match (key, wanted) {
            (Some(k), true) => Some(k),
            (None, true) => {
                self.errors.error_help(
                    span,
                    format!("{what}: a ring of kind `{kind}` needs `{name}`"),
                    format!("add `{name} = \"...\"`"),
                );
                None
            }
            (Some(k), false) => {
                self.errors.error(
                    &k.span(),
                    format!("{what}: `{name}` does not belong to a ring of kind `{kind}`"),
                );
                None
            }
            (None, false) => None,
        }
    }

    fn constant(&mut self, c: &Spanned<String>, what: &str) -> Option<(usize, u64)> {
        match self.abi.find_const(c.get_ref()) {
            Some(i) if self.abi.consts[i].value > 0 => Some((i, self.abi.consts[i].value as u64)),
            Some(_) => {
                self.errors.error(
                    &self.inner(c),
                    format!("{what}: constant `{}` must be positive", c.get_ref()),
                );
                None
            }
            None => {
                let help = closest(c.get_ref(), self.abi.consts.iter().map(|c| c.name.as_str()))
                    .map_or("name a constant".into(), |n| format!("did you mean `{n}`?"));
                self.errors.error_help(
                    &self.inner(c),
                    format!("{what}: unknown constant `{}`", c.get_ref()),
                    help,
                );
                None
            }
        }
    }

    fn lower_ring(
        &mut self,
        raw: &Spanned<RawRing>,
        structs: &[StructAccess],
        seqlocks: &[Seqlock],
        done: &[Ring],
    ) -> Option<Ring> {
        let r = raw.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("ring `{name}`");
        self.check_item_name(&r.name, "ring", done.iter().any(|x| x.name == name));
        let kind = r.kind.get_ref().as_str();
        let slots = kind == "slots";
        if !slots && kind != "events" {
            self.errors.error_help(
                &self.inner(&r.kind),
                format!("{what}: unknown kind `{kind}`"),
                "write `slots` (seqlocked slots and a head counter) or `events` (an array indexed by a total modulo its length)",
            );
            return None;
        }
        let span = r.name.span();
        let head = self.ring_key(&r.head, "head", slots, &what, kind, &span);
        let slot_count = self.ring_key(&r.slot_count, "slot_count", slots, &what, kind, &span);
        let slot_size = self.ring_key(&r.slot_size, "slot_size", slots, &what, kind, &span);
        let seqlock = self.ring_key(&r.seqlock, "seqlock", slots, &what, kind, &span);
        let total = self.ring_key(&r.total, "total", !slots, &what, kind, &span);
        let entries = self.ring_key(&r.entries, "entries", !slots, &what, kind, &span);
        let doc = r
            .doc
            .as_ref()
            .map(|d| d.get_ref().clone())
            .unwrap_or_default();
        let kind = if slots {
            let (head, slot_count, slot_size, seqlock) = (head?, slot_count?, slot_size?, seqlock?);
            let head_ref = self.resolve_field(head, &what)?;
            self.check_counter(head, head_ref, structs, &what)?;
            let (count_const, count) = self.constant(slot_count, &what)?;
            let (size_const, size) = self.constant(slot_size, &what)?;
            let Some(lock) = seqlocks.iter().position(|s| s.name == *seqlock.get_ref()) else {
                let help = closest(seqlock.get_ref(), seqlocks.iter().map(|s| s.name.as_str()))
                    .map_or("name a [[seqlock]]".into(), |n| {
                        format!("did you mean `{n}`?")
                    });
                self.errors.error_help(
                    &self.inner(seqlock),
                    format!("{what}: unknown seqlock `{}`", seqlock.get_ref()),
                    help,
                );
                return None;
            };
            let lk = &seqlocks[lock];
            let slot = &self.abi.structs[lk.struct_index];
            let trailers: Vec<usize> = lk
                .guards
                .iter()
                .filter_map(|g| match g {
                    Guard::Trailer(t) => Some(*t),
                    Guard::Field(_) => None,
                })
                .collect();
            let [payload] = trailers[..] else {
                self.errors.error_help(
                    &self.inner(seqlock),
                    format!("{what}: seqlock `{}` must guard exactly one trailer part of `{}`, the slot's payload; it guards {}", lk.name, slot.name, trailers.len()),
                    "declare the payload in the slot struct's `trailer`, and list it in the seqlock's `guards`",
                );
                return None;
            };
            let part = &structs[lk.struct_index].trailer[payload];
            if part.size_field.is_none() {
                self.errors.error_help(
                    &self.inner(seqlock),
                    format!("{what}: the payload `{}` needs a `size` field, which says how many bytes each slot holds", part.name),
                    format!("add `size = \"...\"` to trailer part `{}`", part.name),
                );
            }
            let slot_align = self.layout.of(lk.struct_index).align;
            if part.offset + part.size > size || size % slot_align != 0 {
                self.errors.error_help(
                    &self.inner(slot_size),
                    format!(
                        "{what}: a slot of {size} bytes must hold `{}` and its payload `{}` ({} bytes in all) and be a multiple of {slot_align}",
                        slot.name, part.ty.text, part.offset + part.size
                    ),
                    "raise the slot size, or shrink what it holds",
                );
                return None;
            }
            if head_ref.struct_index == lk.struct_index {
                self.errors.error(
                    &self.inner(head),
                    format!("{what}: the head counter belongs outside the slots"),
                );
                return None;
            }
            RingKind::Slots {
                head: head_ref,
                slot_count: count,
                slot_count_const: count_const,
                slot_size: size,
                slot_size_const: size_const,
                seqlock: lock,
                payload,
            }
        } else {
            let (total, entries) = (total?, entries?);
            let total_ref = self.resolve_field(total, &what)?;
            let entries_ref = self.resolve_field(entries, &what)?;
            self.check_counter(total, total_ref, structs, &what)?;
            let f = &self.abi.structs[entries_ref.struct_index].fields[entries_ref.field];
            let Some(len) = f.ty.len.filter(|_| f.ty.elem != Elem::Char) else {
                self.errors.error(
                    &self.inner(entries),
                    format!(
                        "{what}: entries `{}` is `{}`, not an array",
                        entries.get_ref(),
                        f.ty.text
                    ),
                );
                return None;
            };
            if total_ref.struct_index != entries_ref.struct_index {
                self.errors.error(
                    &self.inner(entries),
                    format!("{what}: the total and the entries must be fields of one struct"),
                );
                return None;
            }
            RingKind::Events {
                total: total_ref,
                entries: entries_ref,
                capacity: len.count,
            }
        };
        Some(Ring {
            name,
            doc,
            kind,
            span: raw.span(),
        })
    }
}
