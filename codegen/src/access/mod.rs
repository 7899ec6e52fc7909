//! Lowers the schema's shared-memory declarations (`parties`, `writer`, `access`,
//! `trailer`, `[[seqlock]]`, `[[ring]]`) into [`Access`], after the layout: whether an
//! atomic word is aligned, or a ring's slot holds its parts, depends on offsets.

mod ring;
mod seqlock;
mod trailer;

use toml::Spanned;

use crate::diagnostics::closest;
use crate::diagnostics::{Errors, SchemaErrors, Span};
use crate::ir::access::{
    Access, AccessKind, FieldAccess, FieldRef, Guard, Parties, Ring, Seqlock, StructAccess,
};
use crate::ir::attach::CHECKS;
use crate::ir::names::{is_snake_case, upper};
use crate::ir::{Abi, Elem, Prim, Type};
use crate::layout::Layout;
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
        crate::diagnostics::string_span(self.src, s)
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

    /// The C header's live helpers define `<PREFIX>_OK`, `_CONTENDED`, `_EMPTY`,
    /// `_TOO_SHORT` and `_DEFAULT_TRIES` and read `<PREFIX>_LIVE_MSVC_INTRINSICS`, and with a `[[layout]]` its attach helpers define
    /// `<PREFIX>_ATTACH_OK` and `_ATTACH_<CHECK>` (`ir::attach::CHECKS`); a constant or enum
    /// value whose macro is one of them would redefine it.
    fn check_c_live_macros(&mut self, raw: &RawSchema, structs: &[StructAccess]) {
        const RESERVED: [&str; 5] = ["OK", "CONTENDED", "EMPTY", "TOO_SHORT", "DEFAULT_TRIES"];
        let attach = !raw.layouts.is_empty();
        let live = attach
            || structs
                .iter()
                .any(|s| s.shared && s.fields.iter().any(|f| f.kind.is_atomic()));
        if !live {
            return;
        }
        let attach_macro = |m: &str| {
            attach
                && m.strip_prefix("ATTACH_").is_some_and(|check| {
                    check == "OK" || CHECKS.iter().any(|c| c.eq_ignore_ascii_case(check))
                })
        };
        let prefix = upper(&self.abi.c_prefix);
        let mut names: Vec<(String, &Spanned<String>, String)> = raw
            .consts
            .iter()
            .map(|c| {
                let name = &c.get_ref().name;
                (
                    upper(name.get_ref()),
                    name,
                    format!("constant `{}`", name.get_ref()),
                )
            })
            .collect();
        for e in raw.enums.iter().chain(&raw.flags) {
            let e = e.get_ref();
            for v in e.values.get_ref() {
                let v = &v.get_ref().name;
                let macro_name = format!("{}_{}", upper(e.name.get_ref()), upper(v.get_ref()));
                let what = format!("value `{}.{}`", e.name.get_ref(), v.get_ref());
                names.push((macro_name, v, what));
            }
        }
        for (macro_name, name, what) in names {
            if attach_macro(&macro_name) {
                self.errors.error_help(
                    &self.inner(name),
                    format!(
                        "{what} becomes the C macro `{prefix}_{macro_name}`, which the header's attach helpers define as a check code"
                    ),
                    "rename it: the attach helpers return ATTACH_OK or ATTACH_<CHECK>, one per attach check",
                );
            } else if macro_name == "LIVE_MSVC_INTRINSICS" {
                self.errors.error_help(
                    &self.inner(name),
                    format!(
                        "{what} becomes the C macro `{prefix}_{macro_name}`, which makes the header's live access helpers use MSVC's intrinsics"
                    ),
                    format!("rename it: defining {prefix}_{macro_name} is how a clang-cl build selects the MSVC branch"),
                );
            } else if RESERVED.contains(&macro_name.as_str()) {
                self.errors.error_help(
                    &self.inner(name),
                    format!(
                        "{what} becomes the C macro `{prefix}_{macro_name}`, which the header's live access helpers define as a status"
                    ),
                    "rename it: the live helpers return OK, CONTENDED, EMPTY and TOO_SHORT and try DEFAULT_TRIES times",
                );
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
