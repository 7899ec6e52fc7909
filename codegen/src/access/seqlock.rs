//! Seqlocks: the counter, what it guards, who writes and reads it, and the checks that
//! keep one counter per set of bytes and one writer per seqlock.

use toml::Spanned;

use super::parties::toml_parties;
use super::{GuardName, list_is};
use crate::diagnostics::Span;
use crate::diagnostics::closest;
use crate::ir::Elem;
use crate::ir::PerStruct;
use crate::ir::StructId;
use crate::ir::access::{Guard, Parties, Ring, RingKind, Seqlock, StructAccess};
use crate::ir::names::{camel, rust_live_import};
use crate::lower::after_layout::AfterLayout;
use crate::parse::{RawRing, RawSchema, RawSeqlock};

impl AfterLayout<'_> {
    /// A seqlock that guards part of its struct, and a ring of slots, become types of the
    /// Rust live module, next to the views of the shared structs: their names must stay
    /// distinct once in CamelCase, and apart from the names the module imports.
    pub(super) fn check_live_names(
        &mut self,
        raw: &RawSchema,
        structs: &PerStruct<StructAccess>,
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
            .filter(|(l, _)| !l.guards_whole_struct(structs))
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
        for (shown, what, span) in &taken {
            if let Some(path) = rust_live_import(shown) {
                self.errors.error_help(
                    span,
                    format!(
                        "{what} becomes `{shown}` in the Rust live module, which imports `{path}` under that name"
                    ),
                    format!("rename the {}", what.split(' ').next().unwrap_or("item")),
                );
            }
        }
    }

    /// A struct that a seqlock copies whole (a guarded field or trailer part of its type,
    /// or a struct such a struct holds) holds no seqlock's counter: its bytes are read and
    /// written by copy under the outer seqlock, never on their own.
    pub(super) fn check_copied_whole(
        &mut self,
        seqlocks: &[Seqlock],
        structs: &PerStruct<StructAccess>,
        raw_locks: &[&RawSeqlock],
    ) {
        for (k, outer) in seqlocks.iter().enumerate() {
            // Each struct copied whole, with the guard that copies it.
            let mut copied: Vec<(StructId, String)> = Vec::new();
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
    fn describe_guard(
        &self,
        si: StructId,
        g: Guard,
        structs: &PerStruct<StructAccess>,
    ) -> GuardName {
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
        si: StructId,
        guards: &[(Guard, Span)],
        structs: &PerStruct<StructAccess>,
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
        si: StructId,
        guards: &[(Guard, Span)],
        writers: &Parties,
        structs: &PerStruct<StructAccess>,
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

    pub(super) fn lower_seqlock(
        &mut self,
        raw: &Spanned<RawSeqlock>,
        structs: &PerStruct<StructAccess>,
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
}
