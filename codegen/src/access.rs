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
use crate::ir::names::{camel, is_snake_case};
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
    Ok(Access {
        parties: cx.parties,
        structs,
        seqlocks,
        rings,
    })
}

/// Whether `lock` guards every plain field of its struct but the counter, and nothing
/// else: its value is then the struct itself, and it has no type of its own.
fn guards_whole_struct(structs: &[StructAccess], lock: &Seqlock) -> bool {
    let plain = structs[lock.struct_index]
        .fields
        .iter()
        .enumerate()
        .filter(|(i, f)| *i != lock.counter && !f.kind.is_atomic())
        .count();
    lock.guards.iter().all(|g| matches!(g, Guard::Field(_))) && lock.guards.len() == plain
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

impl LowerAccess<'_> {
    /// The span of a string value's text, inside its quotes.
    fn inner(&self, s: &Spanned<String>) -> Span {
        let span = s.span();
        match self.src.get(span.clone()) {
            Some(t) if t.starts_with("\"\"\"") || t.starts_with("'''") => span,
            Some(t) if t.len() >= 2 && (t.starts_with('"') || t.starts_with('\'')) => {
                span.start + 1..span.end - 1
            }
            _ => span,
        }
    }

    /// The span of `name` inside a `writer` or `reader` value, such as `client` in
    /// `["host", "client"]`; the whole value when it cannot be found.
    fn party_span(&self, value: &Span, name: &str) -> Span {
        let Some(text) = self.src.get(value.clone()) else {
            return value.clone();
        };
        for quote in ['"', '\''] {
            let quoted = format!("{quote}{name}{quote}");
            if let Some(at) = text.find(&quoted) {
                let start = value.start + at + 1;
                return start..start + name.len();
            }
        }
        value.clone()
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
                self.errors.error_help(
                    &self.inner(p),
                    format!("[abi] party `{name}` is listed twice"),
                    format!("list each party once: remove this `{name}`"),
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
            let span = self.party_span(&value.span(), name);
            match self.parties.iter().position(|p| p == name) {
                Some(i) if !set.contains(&i) => set.push(i),
                Some(_) => {}
                None if self.parties.is_empty() => {
                    self.errors.error_help(
                        &span,
                        format!("{what}: party `{name}` is not declared, and [abi] lists no `parties`"),
                        "declare who shares the memory in [abi], such as `parties = [\"host\", \"client\"]`",
                    );
                }
                None => {
                    let help = match closest(name, self.parties.iter().map(String::as_str)) {
                        Some(p) => format!("did you mean `{p}`?"),
                        None => format!("name one of [abi] `parties`: {}", self.parties.join(", ")),
                    };
                    self.errors
                        .error_help(&span, format!("{what}: unknown party `{name}`"), help);
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
                Some(a) => self.lower_access_kind(
                    a,
                    &fwhat,
                    &f.ty,
                    sl.fields[fi].offset,
                    (&s.name, sl.align),
                ),
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
    /// (its name and alignment).
    fn lower_access_kind(
        &mut self,
        a: &Spanned<String>,
        what: &str,
        ty: &Type,
        offset: u64,
        (struct_name, struct_align): (&str, u64),
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
            let help = match ty.elem {
                Elem::Prim(p @ (Prim::F32 | Prim::F64)) => format!(
                    "an atomic word is an integer: guard the field with a [[seqlock]], or store the float's bits in a u{}",
                    p.size() * 8
                ),
                _ => "an atomic word is an integer: guard the field with a [[seqlock]] instead"
                    .to_string(),
            };
            self.errors.error_help(
                &span,
                format!(
                    "{what}: `access = \"{keyword}\"` needs an integer, enum or flag set, not `{}`",
                    ty.text
                ),
                help,
            );
            return AccessKind::Plain;
        };
        let width = elem_size * ty.count();
        if ty.len.is_some() && !cas {
            let help = if width == 4 || width == 8 {
                format!(
                    "to claim all {width} bytes as one word, write `access = \"cas\"`; otherwise guard the array with a [[seqlock]]"
                )
            } else {
                "declare one atomic field per element, or guard the array with a [[seqlock]]"
                    .to_string()
            };
            self.errors.error_help(
                &span,
                format!(
                    "{what}: `access = \"atomic\"` is one word, and `{}` is an array of {} elements",
                    ty.text,
                    ty.count()
                ),
                help,
            );
            return AccessKind::Plain;
        }
        if cas && width != 4 && width != 8 {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a compare-and-swap word is 4 or 8 bytes, and `{}` is {width} bytes",
                    ty.text
                ),
                "claim a u32 or u64 field, or an array of 4 or 8 bytes in all (`u8[4]`) as one word",
            );
            return AccessKind::Plain;
        }
        let noun = if cas { "compare-and-swap" } else { "atomic" };
        if offset % width != 0 {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a {width}-byte {noun} word must be naturally aligned, and it starts at offset {offset:#x} ({offset}), not a multiple of {width}"
                ),
                format!("move it to an offset that is a multiple of {width}: declare padding before it, or reorder the fields"),
            );
            return AccessKind::Plain;
        }
        if struct_align < width {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a {width}-byte {noun} word must be naturally aligned, and struct `{struct_name}` is aligned to only {struct_align}, so the word is misaligned wherever the struct is placed"
                ),
                format!(
                    "a struct is aligned like its widest field: give `{struct_name}` a field of {width} bytes or more, or claim a `u{}` field instead of `{}`",
                    width * 8,
                    ty.text
                ),
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
                let gap = align - offset % align;
                self.errors.error_help(
                    &self.inner(&rp.ty),
                    format!("{what}: `{}` needs {align}-byte alignment but would start at offset {offset:#x} ({offset})", ty.text),
                    format!("declare the padding before it as a trailer part, `{{ name = \"_pad{offset}\", type = \"u8[{gap}]\" }}`, or reorder the parts"),
                );
            }
            let size_field = rp.size.as_ref().and_then(|sf| {
                let fname = sf.get_ref();
                let Some(i) = s.fields.iter().position(|f| f.name == *fname) else {
                    let help = closest(fname, s.fields.iter().map(|f| f.name.as_str()))
                        .map_or(
                            format!("name the unsigned integer field of `{}` that holds the part's length in bytes", s.name),
                            |c| format!("did you mean `{c}`?"),
                        );
                    self.errors.error_help(
                        &self.inner(sf),
                        format!("{what}: `size = \"{fname}\"`: struct `{}` has no field `{fname}`", s.name),
                        help,
                    );
                    return None;
                };
                let ty = &s.fields[i].ty;
                let ok = matches!(ty.elem, Elem::Prim(p) if p.is_integer() && !p.is_signed())
                    && ty.len.is_none();
                if !ok {
                    self.errors.error_help(
                        &self.inner(sf),
                        format!(
                            "{what}: `size = \"{fname}\"` names field `{}.{fname}` of type `{}`, and a part's length in bytes is an unsigned integer",
                            s.name, ty.text
                        ),
                        format!("make `{}.{fname}` a u16, u32 or u64, or name another field", s.name),
                    );
                }
                Some(i).filter(|_| ok)
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
        } else if base == "char" {
            let bytes = len.map_or("u8[N]".to_string(), |l| format!("u8[{l}]"));
            self.errors.error_help(
                &self.inner(t),
                format!("{what}: a trailer part is not text (`{text}`)"),
                format!("declare its bytes as `{bytes}`, and say in its `doc` that they hold text"),
            );
            return None;
        } else {
            let names = Prim::ALL
                .iter()
                .map(|p| p.name())
                .chain(self.abi.enums.iter().map(|e| e.name.as_str()))
                .chain(self.abi.structs.iter().map(|s| s.name.as_str()));
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
            let mut keys: Vec<(Span, String)> = Vec::new();
            for f in rs.fields.get_ref() {
                let f = f.get_ref();
                let fwhat = format!("field `{name}.{}`", f.name.get_ref());
                if let Some(a) = &f.access {
                    let key = format!("`access = \"{}\"`", a.get_ref());
                    keys.push((self.inner(a), format!("{fwhat}: {key}")));
                }
                if let Some(w) = &f.writer {
                    keys.push((w.span(), format!("{fwhat}: its `writer`")));
                }
            }
            if let Some(t) = &rs.trailer {
                keys.push((t.span(), format!("struct `{name}`: its `trailer`")));
            }
            for (span, what) in keys {
                self.errors.error_help(
                    &span,
                    format!("{what} describes shared memory, and struct `{name}` is not shared: it declares no `writer`, and no shared struct holds it"),
                    format!("declare who writes it: `writer = \"...\"` in struct `{name}`, or in a struct that holds it"),
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
                format!(
                    "a counter only grows, wrapping around: make `{}` a u32 or u64",
                    path.get_ref()
                ),
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

    /// A seqlock that guards part of its struct, and a ring of slots, become types of the
    /// Rust live module, next to the views of the shared structs: their names must stay
    /// distinct once in CamelCase.
    fn check_live_names(
        &mut self,
        raw: &RawSchema,
        structs: &[StructAccess],
        (seqlocks, raw_locks): (&[Seqlock], &[&RawSeqlock]),
        (rings, raw_rings): (&[Ring], &[&RawRing]),
    ) {
        // Each name taken: in CamelCase, what takes it, and the span of its name.
        let mut taken: Vec<(String, String, Span)> = raw
            .structs
            .iter()
            .zip(structs)
            .filter(|(_, a)| a.shared && !a.guarded_whole)
            .map(|(s, _)| {
                let name = &s.get_ref().name;
                let what = format!("struct `{}`", name.get_ref());
                (camel(name.get_ref()), what, name.span())
            })
            .collect();
        let locks = seqlocks
            .iter()
            .zip(raw_locks)
            .filter(|(l, _)| !guards_whole_struct(structs, l))
            .map(|(_, r)| ("seqlock", &r.name));
        let slot_rings = rings
            .iter()
            .zip(raw_rings)
            .filter(|(r, _)| matches!(r.kind, RingKind::Slots { .. }))
            .map(|(_, r)| ("ring", &r.name));
        for (kind, name) in locks.chain(slot_rings) {
            let shown = camel(name.get_ref());
            let what = format!("{kind} `{}`", name.get_ref());
            let span = self.inner(name);
            match taken.iter().find(|(t, _, _)| *t == shown) {
                Some((_, other, other_span)) => {
                    let line = crate::diagnostics::line_col(self.src, other_span.start).0;
                    self.errors.error_help(
                        &span,
                        format!(
                            "{what} and {other} (line {line}) both become `{shown}` in the Rust live module"
                        ),
                        format!("rename the {kind}"),
                    );
                }
                None => taken.push((shown, what, span)),
            }
        }
    }

    /// A struct that a seqlock copies whole (a guarded field or trailer part of its type,
    /// or a struct such a struct holds) holds no seqlock's counter: its bytes are read and
    /// written by copy under the outer seqlock, never on their own.
    fn check_copied_whole(
        &mut self,
        seqlocks: &[Seqlock],
        structs: &[StructAccess],
        raw_locks: &[&RawSeqlock],
    ) {
        for (k, outer) in seqlocks.iter().enumerate() {
            // Each struct copied whole, with the guard that copies it.
            let mut copied: Vec<(usize, String)> = Vec::new();
            for g in &outer.guards {
                let si = outer.struct_index;
                let (elem, name) = match *g {
                    Guard::Field(fi) => {
                        let f = &self.abi.structs[si].fields[fi];
                        (
                            f.ty.elem,
                            format!("{}.{}", self.abi.structs[si].name, f.name),
                        )
                    }
                    Guard::Trailer(ti) => {
                        let t = &structs[si].trailer[ti];
                        (
                            t.ty.elem,
                            format!("{}.{}", self.abi.structs[si].name, t.name),
                        )
                    }
                };
                if let Elem::Struct(j) = elem {
                    let mut stack = vec![j];
                    while let Some(j) = stack.pop() {
                        if copied.iter().any(|(c, _)| *c == j) {
                            continue;
                        }
                        copied.push((j, name.clone()));
                        stack.extend(self.abi.structs[j].fields.iter().filter_map(|f| {
                            match f.ty.elem {
                                Elem::Struct(h) => Some(h),
                                _ => None,
                            }
                        }));
                    }
                }
            }
            for (m, inner) in seqlocks.iter().enumerate() {
                let Some((_, via)) = copied.iter().find(|(j, _)| *j == inner.struct_index) else {
                    continue;
                };
                if m == k {
                    continue;
                }
                let sname = &self.abi.structs[inner.struct_index].name;
                self.errors.error_help(
                    &self.inner(&raw_locks[m].counter),
                    format!(
                        "seqlock `{}`: struct `{sname}` is copied whole under seqlock `{}` (through `{via}`), so it cannot hold a seqlock of its own",
                        inner.name, outer.name
                    ),
                    format!(
                        "the outer seqlock already guards every byte of `{sname}`: remove seqlock `{}`, or move its counter and what it guards out of `{sname}`",
                        inner.name
                    ),
                );
            }
        }
    }

    /// What a seqlock guards, as a kind and a path: ("field", `params_header.def_count`)
    /// or ("trailer part", `params_header.defs`).
    fn describe_guard(&self, si: usize, g: Guard, structs: &[StructAccess]) -> GuardName {
        let s = &self.abi.structs[si];
        match g {
            Guard::Field(fi) => ("field", format!("{}.{}", s.name, s.fields[fi].name)),
            Guard::Trailer(ti) => (
                "trailer part",
                format!("{}.{}", s.name, structs[si].trailer[ti].name),
            ),
        }
    }

    /// No byte is guarded by two seqlocks: one error per name in `guards` that brings in
    /// what an earlier seqlock guards.
    fn check_guarded_once(
        &mut self,
        what: &str,
        si: usize,
        guards: &[(Guard, Span)],
        structs: &[StructAccess],
        done: &[Seqlock],
    ) {
        let mut clashes: Vec<(Span, usize, Vec<GuardName>)> = Vec::new();
        for (g, span) in guards {
            let Some(other) = done
                .iter()
                .position(|d| d.struct_index == si && d.guards.contains(g))
            else {
                continue;
            };
            let name = self.describe_guard(si, *g, structs);
            match clashes
                .iter_mut()
                .find(|(s, o, _)| s == span && *o == other)
            {
                Some((_, _, names)) => names.push(name),
                None => clashes.push((span.clone(), other, vec![name])),
            }
        }
        for (span, other, names) in clashes {
            let guard = self.src.get(span.clone()).unwrap_or("it");
            let help = if guard == "rest" {
                format!(
                    "`rest` is every plain field but the counter: list the fields this seqlock guards by name, leaving out those of seqlock `{}`",
                    done[other].name
                )
            } else {
                format!(
                    "a byte is guarded by one seqlock: remove `{guard}` from the `guards` of one of them"
                )
            };
            self.errors.error_help(
                &span,
                format!(
                    "{what}: {} already guarded by seqlock `{}`",
                    list_is(&names),
                    done[other].name
                ),
                help,
            );
        }
    }

    /// The seqlock's writers write what it guards: each guarded field's writers include
    /// them.
    fn check_guard_writers(
        &mut self,
        what: &str,
        si: usize,
        guards: &[(Guard, Span)],
        writers: &Parties,
        structs: &[StructAccess],
    ) {
        let mut clashes: Vec<(Span, Parties, Vec<GuardName>)> = Vec::new();
        for (g, span) in guards {
            let Guard::Field(fi) = *g else { continue };
            let field_writers = &structs[si].fields[fi].writers;
            if writers.0.iter().all(|w| field_writers.0.contains(w)) {
                continue;
            }
            let name = self.describe_guard(si, *g, structs);
            match clashes
                .iter_mut()
                .find(|(s, w, _)| s == span && w == field_writers)
            {
                Some((_, _, names)) => names.push(name),
                None => clashes.push((span.clone(), field_writers.clone(), vec![name])),
            }
        }
        for (span, field_writers, names) in clashes {
            let by = if field_writers.is_empty() {
                "no one".to_string()
            } else {
                field_writers.describe(&self.parties)
            };
            self.errors.error_help(
                &span,
                format!(
                    "{what} is written by {}, and {} written by {by}",
                    writers.describe(&self.parties),
                    list_is(&names),
                ),
                format!(
                    "a seqlock's writer writes the bytes it guards: declare `writer = {}` on {}, or change the seqlock's `writer`",
                    toml_parties(writers, &self.parties),
                    if names.len() == 1 { "the field" } else { "the fields" },
                ),
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
        if let Some(other) = done
            .iter()
            .find(|d| d.struct_index == si && d.counter == counter.field)
        {
            self.errors.error_help(
                &self.inner(&r.counter),
                format!(
                    "{what}: counter `{}` is already the counter of seqlock `{}`",
                    r.counter.get_ref(),
                    other.name
                ),
                "each seqlock has a counter of its own: declare another atomic field for this one",
            );
            return None;
        }
        // Each guard, with the span of the name in `guards` that brought it in.
        let mut guards: Vec<(Guard, Span)> = Vec::new();
        let push = |g: Guard, span: &Span, guards: &mut Vec<(Guard, Span)>| {
            if !guards.iter().any(|(h, _)| *h == g) {
                guards.push((g, span.clone()));
            }
        };
        for g in r.guards.get_ref() {
            let gname = g.get_ref().as_str();
            let span = self.inner(g);
            if gname == "rest" {
                for (fi, fa) in structs[si].fields.iter().enumerate() {
                    if fi != counter.field && !fa.kind.is_atomic() {
                        push(Guard::Field(fi), &span, &mut guards);
                    }
                }
            } else if let Some(fi) = s.fields.iter().position(|f| f.name == gname) {
                if fi == counter.field {
                    self.errors.error_help(
                        &span,
                        format!("{what}: the counter `{gname}` cannot guard itself"),
                        format!("remove `{gname}` from `guards`: the counter is read and written on its own, and `rest` leaves it out"),
                    );
                } else if structs[si].fields[fi].kind.is_atomic() {
                    self.errors.error_help(
                        &span,
                        format!(
                            "{what}: field `{gname}` is atomic, and an atomic field is read and written on its own, not under a seqlock"
                        ),
                        format!("remove `{gname}` from `guards`, or its `access`"),
                    );
                } else {
                    push(Guard::Field(fi), &span, &mut guards);
                }
            } else if let Some(ti) = structs[si].trailer.iter().position(|t| t.name == gname) {
                push(Guard::Trailer(ti), &span, &mut guards);
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
        self.check_guarded_once(&what, si, &guards, structs, done);
        let writers_known = r
            .writer
            .get_ref()
            .names()
            .iter()
            .all(|n| self.parties.iter().any(|p| p == n));
        if writers_known && !writers.is_empty() {
            self.check_guard_writers(&what, si, &guards, &writers, structs);
        }
        let guards: Vec<Guard> = guards.into_iter().map(|(g, _)| g).collect();
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
                let keys = if kind == "slots" {
                    "`head`, `slot_count`, `slot_size` and `seqlock`"
                } else {
                    "`total` and `entries`"
                };
                self.errors.error_help(
                    &self.inner(k),
                    format!("{what}: `{name}` does not belong to a ring of kind `{kind}`"),
                    format!(
                        "a ring of kind `{kind}` takes {keys}: remove `{name}`, or change the kind"
                    ),
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
    ) -> Option<Ring> {
        let r = raw.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("ring `{name}`");
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
        let span = self.inner(&r.kind);
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
                    &part.span,
                    format!(
                        "{what}: its payload, trailer part `{}.{}`, has no `size`: a slot's payload varies, and readers copy only the bytes in use",
                        slot.name, part.name
                    ),
                    format!(
                        "add `size = \"...\"` to trailer part `{}`, naming the field of `{}` that holds the payload's length in bytes",
                        part.name, slot.name
                    ),
                );
            }
            let slot_align = self.layout.of(lk.struct_index).align;
            let needed = part.offset + part.size;
            if needed > size {
                self.errors.error_help(
                    &self.inner(slot_size),
                    format!(
                        "{what}: a slot of {size} bytes (`{}`) cannot hold `{}` and its payload `{}`, {needed} bytes in all",
                        slot_size.get_ref(), slot.name, part.ty.text
                    ),
                    format!(
                        "raise `{}` to at least {needed}, or shrink the payload",
                        slot_size.get_ref()
                    ),
                );
                return None;
            }
            if size % slot_align != 0 {
                self.errors.error_help(
                    &self.inner(slot_size),
                    format!(
                        "{what}: a slot of {size} bytes (`{}`) is not a multiple of {slot_align}, the alignment of `{}`, so the slots after the first are misaligned",
                        slot_size.get_ref(), slot.name
                    ),
                    format!(
                        "round `{}` up to a multiple of {slot_align}",
                        slot_size.get_ref()
                    ),
                );
                return None;
            }
            if head_ref.struct_index == lk.struct_index {
                self.errors.error_help(
                    &self.inner(head),
                    format!(
                        "{what}: head `{}` is in `{}`, the struct that starts each slot; the head counts the ring's publications, so it belongs outside the slots",
                        head.get_ref(),
                        slot.name
                    ),
                    "name a counter in the struct that holds the ring, such as its region's header",
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
                let owner = &self.abi.structs[entries_ref.struct_index];
                let array = owner
                    .fields
                    .iter()
                    .find(|f| f.ty.len.is_some() && f.ty.elem != Elem::Char);
                let help = match array {
                    Some(a) => format!(
                        "name the array that holds entry i at i % its length, such as `{}.{}`",
                        owner.name, a.name
                    ),
                    None => {
                        "name the array that holds entry i at i % its length, in the struct of `total`"
                            .to_string()
                    }
                };
                self.errors.error_help(
                    &self.inner(entries),
                    format!(
                        "{what}: entries `{}` is `{}`, not an array",
                        entries.get_ref(),
                        f.ty.text
                    ),
                    help,
                );
                return None;
            };
            if total_ref.struct_index != entries_ref.struct_index {
                self.errors.error_help(
                    &self.inner(entries),
                    format!(
                        "{what}: total `{}` and entries `{}` are in different structs",
                        total.get_ref(),
                        entries.get_ref()
                    ),
                    "the total and the entries are fields of one struct, which a reader copies whole",
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

/// A set of parties as a TOML value: `"client"`, or `["host", "client"]`.
fn toml_parties(set: &Parties, names: &[String]) -> String {
    let quoted: Vec<String> = set.0.iter().map(|&i| format!("\"{}\"", names[i])).collect();
    match &quoted[..] {
        [one] => one.clone(),
        _ => format!("[{}]", quoted.join(", ")),
    }
}
