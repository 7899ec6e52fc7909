//! Structs: fields, declared size and align, `expect` and `count` references, and the
//! rule that nothing embeds an extensible struct.

use std::collections::HashMap;
use std::fmt::Display;

use toml::Spanned;

use super::context::{ConstTable, Labeled, Lower, MemberName, TypeName, text};
use crate::diagnostics::Span;
use crate::diagnostics::closest;
use crate::ir::{CountRef, Elem, Field, PerStruct, Struct, StructId, Type, Version};
use crate::parse::{RawSchema, RawStruct};

impl Lower<'_> {
    pub(super) fn lower_struct(
        &mut self,
        s: &Spanned<RawStruct>,
        types: &HashMap<String, TypeName>,
        consts: &ConstTable,
        version: Version,
    ) -> Struct {
        let r = s.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("struct `{name}`");
        if r.fields.get_ref().is_empty() {
            self.errors
                .error(&r.fields.span(), format!("{what} has no fields"));
        }
        let mut fields: Vec<Field> = Vec::with_capacity(r.fields.get_ref().len());
        // The first field of each name, looked up, never scanned.
        let mut names: HashMap<&str, &Spanned<String>> = HashMap::new();
        for f in r.fields.get_ref() {
            let rf = f.get_ref();
            let fname = rf.name.get_ref().clone();
            let fwhat = MemberName {
                kind: "field",
                item: &name,
                member: rf.name.get_ref(),
            };
            self.check_name(&rf.name, &Labeled(&what, "field"));
            if let Some(first) = names.get(fname.as_str()) {
                let line = self.line_of(&first.span());
                self.errors.error_help(
                    &self.inner(&rf.name),
                    format!(
                        "duplicate field `{fname}` in {what}: it is already declared on line {line}"
                    ),
                    "rename or remove one of them",
                );
            }
            names.entry(rf.name.get_ref().as_str()).or_insert(&rf.name);
            let Some(ty) = self.lower_type(&rf.ty, &fwhat, types, consts) else {
                continue;
            };
            let expect = rf
                .expect
                .as_ref()
                .and_then(|e| self.lower_expect(e, &ty, &fwhat, consts));
            fields.push(Field {
                name: fname,
                ty,
                doc: text(&rf.doc),
                since: self.lower_since(&rf.since, version, &fwhat),
                count: None,
                expect,
                span: f.span(),
                type_span: self.inner(&rf.ty),
            });
        }
        let mut positive = |v: &Option<Spanned<i64>>, key: &str| -> Option<(u64, Span)> {
            let v = v.as_ref()?;
            let n = *v.get_ref();
            if n <= 0 || (key == "align" && n & (n - 1) != 0) {
                let rule = if key == "align" {
                    "a power of two"
                } else {
                    "positive"
                };
                self.errors
                    .error(&v.span(), format!("{what}: `{key} = {n}` must be {rule}"));
                return None;
            }
            Some((n as u64, v.span()))
        };
        let declared_size = positive(&r.size, "size");
        let declared_align = positive(&r.align, "align");
        Struct {
            name,
            doc: text(&r.doc),
            since: self.lower_since(&r.since, version, &what),
            extensible: r.extensible.as_ref().is_some_and(|e| *e.get_ref()),
            fields,
            declared_size,
            declared_align,
            span: s.span(),
        }
    }

    /// `expect = "snapshot_magic"`: a constant whose value fits the field's integer type.
    pub(super) fn lower_expect(
        &mut self,
        e: &Spanned<String>,
        ty: &Type,
        what: &dyn Display,
        consts: &ConstTable,
    ) -> Option<usize> {
        let span = self.inner(e);
        let Some(i) = consts.find(e.get_ref()) else {
            if self.failed_consts.contains(e.get_ref()) {
                return None;
            }
            let help = match closest(e.get_ref(), consts.names()) {
                Some(c) => format!("did you mean `{c}`?"),
                None => "name a constant declared in this schema".into(),
            };
            self.errors.error_help(
                &span,
                format!("{what}: `expect` names unknown constant `{}`", e.get_ref()),
                help,
            );
            return None;
        };
        let prim = match (ty.elem, ty.len) {
            (Elem::Prim(p), None) if p.is_integer() => p,
            _ => {
                self.errors.error(
                    &span,
                    format!("{what}: `expect` needs an integer field, not `{}`", ty.text),
                );
                return None;
            }
        };
        let consts = consts.list;
        let (lo, hi) = prim.range();
        if !(lo..=hi).contains(&consts[i].value) {
            self.errors.error(
                &span,
                format!(
                    "{what}: constant `{}` ({}) does not fit the field's type {prim}",
                    consts[i].name, consts[i].literal
                ),
            );
            return None;
        }
        Some(i)
    }

    /// `count = "ship_count"` on an array: a path through this struct's fields (and nested
    /// structs) to an integer field. Resolved once every struct is lowered.
    pub(super) fn resolve_counts(&mut self, raw: &RawSchema, structs: &mut PerStruct<Struct>) {
        for (si, rs) in StructId::enumerate(&raw.structs) {
            for rf in rs.get_ref().fields.get_ref() {
                let rf = rf.get_ref();
                let Some(c) = &rf.count else { continue };
                // A field whose type failed to lower is absent; find fields by name.
                let Some(index) = structs[si]
                    .fields
                    .iter()
                    .position(|f| f.name == *rf.name.get_ref())
                else {
                    continue;
                };
                let what = format!("field `{}.{}`", structs[si].name, rf.name.get_ref());
                let span = self.inner(c);
                let field = &structs[si].fields[index];
                if field.ty.len.is_none() || field.ty.elem == Elem::Char {
                    self.errors.error(
                        &span,
                        format!(
                            "{what}: `count` belongs on an array field, and `{}` is not one",
                            field.ty.text
                        ),
                    );
                    continue;
                }
                match resolve_path(structs, si, c.get_ref()) {
                    Ok(path) => {
                        structs[si].fields[index].count = Some(CountRef {
                            path,
                            text: c.get_ref().clone(),
                        })
                    }
                    Err((e, None)) => self
                        .errors
                        .error(&span, format!("{what}: `count = \"{}\"`: {e}", c.get_ref())),
                    Err((e, Some(help))) => self.errors.error_help(
                        &span,
                        format!("{what}: `count = \"{}\"`: {e}", c.get_ref()),
                        help,
                    ),
                }
            }
        }
    }

    /// An extensible struct grows at its end, so nothing may embed it.
    pub(super) fn check_extensible(&mut self, raw: &RawSchema, structs: &PerStruct<Struct>) {
        // For each struct, the structs that embed it with their first such field, in
        // schema order: one pass over every field, not one per extensible struct.
        let mut embedders: Vec<Vec<(&Struct, &Field)>> = vec![Vec::new(); structs.len()];
        for outer in structs {
            for f in &outer.fields {
                if let Elem::Struct(j) = f.ty.elem {
                    let list = &mut embedders[j.index()];
                    if !list.last().is_some_and(|(o, _)| std::ptr::eq(*o, outer)) {
                        list.push((outer, f));
                    }
                }
            }
        }
        for (i, s) in StructId::enumerate(structs) {
            if !s.extensible {
                continue;
            }
            let flag_span = raw.structs[i]
                .get_ref()
                .extensible
                .as_ref()
                .map_or(s.span.clone(), |e| e.span());
            for (outer, f) in &embedders[i.index()] {
                self.errors.error_help(
                    &flag_span,
                    format!(
                        "struct `{}` is marked extensible but `{}.{}` embeds it",
                        s.name, outer.name, f.name
                    ),
                    "only a top-level record whose readers learn its size at run time may grow; remove `extensible`",
                );
            }
        }
    }
}

/// Resolves `a.b.c` from struct `start` to field indices; the last must be a plain integer.
/// An error comes with a did-you-mean when a field's name is close to a misspelt one.
fn resolve_path(
    structs: &PerStruct<Struct>,
    start: StructId,
    path: &str,
) -> Result<Vec<usize>, (String, Option<String>)> {
    let mut current = start;
    let mut out = Vec::new();
    let segments: Vec<&str> = path.split('.').collect();
    for (n, seg) in segments.iter().enumerate() {
        let s = &structs[current];
        let Some(i) = s.fields.iter().position(|f| f.name == *seg) else {
            let help = closest(seg, s.fields.iter().map(|f| f.name.as_str()))
                .map(|c| format!("did you mean `{c}`?"));
            return Err((format!("struct `{}` has no field `{seg}`", s.name), help));
        };
        out.push(i);
        let f = &s.fields[i];
        let last = n + 1 == segments.len();
        match (f.ty.elem, f.ty.len, last) {
            (Elem::Struct(j), None, false) => current = j,
            (Elem::Prim(p), None, true) if p.is_integer() => return Ok(out),
            (_, _, true) => {
                let kind = match (f.ty.elem, f.ty.len) {
                    (_, Some(_)) => "an array",
                    (Elem::Struct(_), None) => "a struct",
                    (Elem::Enum(_), None) => "an enum",
                    (Elem::Char, None) => "a char",
                    (Elem::Prim(_), None) => "a float",
                };
                let e = format!(
                    "field `{seg}` of `{}` is {kind} (`{}`), not an integer field",
                    s.name, f.ty.text
                );
                let ints: Vec<String> = s
                    .fields
                    .iter()
                    .filter(|g| {
                        !g.is_padding()
                            && g.ty.len.is_none()
                            && matches!(g.ty.elem, Elem::Prim(p) if p.is_integer())
                    })
                    .map(|g| format!("`{}`", g.name))
                    .collect();
                let help = if ints.is_empty() {
                    format!("name an integer field: `{}` has none", s.name)
                } else {
                    format!("name an integer field of `{}`: {}", s.name, ints.join(", "))
                };
                return Err((e, Some(help)));
            }
            (_, _, false) => {
                let e = format!("`{seg}` is `{}`, not a struct to look into", f.ty.text);
                return Err((e, None));
            }
        }
    }
    Err(("empty path".into(), None))
}
