//! Structs compared: size and alignment (growth of an extensible struct is compatible,
//! any other change breaking, naming who holds it), and each field by name or, when renamed,
//! by offset, size and type; a new field is compatible in old padding or past the end of an
//! extensible struct.

use crate::ir::{Elem, Field, Struct, Type};
use crate::schema::Schema;

use super::change::{ChangeKind, FieldSite, ItemKind, Severity, Shape};
use super::compute::{Cx, bytes, change, covered, holders, named, quote_list};

/// Where a change of field `f` of struct `owner` is, at byte `pos`, for finding causes.
fn site(schema: &Schema, owner: &str, f: &Field, pos: u64) -> FieldSite {
    let elem = match f.ty.elem {
        Elem::Struct(j) => Some(schema.abi.structs[j].name.clone()),
        Elem::Enum(j) => Some(schema.abi.enums[j].name.clone()),
        Elem::Prim(_) | Elem::Char => None,
    };
    let len =
        f.ty.len
            .and_then(|l| l.constant)
            .map(|c| schema.abi.consts[c].name.clone());
    FieldSite {
        owner: owner.to_string(),
        pos,
        elem,
        len,
    }
}

impl Cx<'_> {
    fn struct_shape(schema: &Schema, index: usize) -> Shape {
        let l = schema.layout.of(index);
        Shape {
            size: Some(l.size),
            align: Some(l.align),
            ..named(&schema.abi.structs[index].name)
        }
    }

    fn field_shape(schema: &Schema, si: usize, fi: usize) -> Shape {
        let f = &schema.abi.structs[si].fields[fi];
        let l = &schema.layout.of(si).fields[fi];
        Shape {
            offset: Some(l.offset),
            size: Some(l.size),
            ty: Some(f.ty.text.clone()),
            ..named(&f.name)
        }
    }

    pub(super) fn added_struct(&mut self, n: usize) {
        let s = &self.new.abi.structs[n];
        let mut ch = change(
            Severity::Compatible,
            ChangeKind::StructAdded,
            ItemKind::Struct,
            &s.name,
            "struct added",
            "a new type; nothing old changes",
        )
        .sides(None, Some(Self::struct_shape(self.new, n)))
        .spans(None, Some(&s.span));
        ch.embedded_in = holders(self.new, Elem::Struct(n));
        ch.since_check = Some((s.since, false));
        self.push(ch);
    }

    pub(super) fn removed_struct(&mut self, o: usize) {
        let s = &self.old.abi.structs[o];
        let mut ch = change(
            Severity::Breaking,
            ChangeKind::StructRemoved,
            ItemKind::Struct,
            &s.name,
            "struct removed",
            format!("code built against {} uses it", self.old_v()),
        )
        .sides(Some(Self::struct_shape(self.old, o)), None)
        .spans(Some(&s.span), None);
        ch.embedded_in = holders(self.old, Elem::Struct(o));
        self.push(ch);
    }

    /// A type as the schema would write it in new-schema names, for telling a respelling
    /// (`u8[16]` to `u8[max_players]`) from a rename of what it refers to.
    fn canonical_old(&self, t: &Type) -> (String, Option<String>) {
        let new = &self.new.abi;
        let elem = match t.elem {
            Elem::Enum(i) => {
                self.m.enums[i].map_or_else(String::new, |j| new.enums[j].name.clone())
            }
            Elem::Struct(i) => {
                self.m.structs[i].map_or_else(String::new, |j| new.structs[j].name.clone())
            }
            Elem::Prim(p) => p.name().to_string(),
            Elem::Char => "char".to_string(),
        };
        let len = t
            .len
            .map(|l| match l.constant.and_then(|c| self.m.consts[c]) {
                Some(j) => new.consts[j].name.clone(),
                None => l.count.to_string(),
            });
        (elem, len)
    }

    fn canonical_new(&self, t: &Type) -> (String, Option<String>) {
        let new = &self.new.abi;
        let elem = match t.elem {
            Elem::Enum(i) => new.enums[i].name.clone(),
            Elem::Struct(i) => new.structs[i].name.clone(),
            Elem::Prim(p) => p.name().to_string(),
            Elem::Char => "char".to_string(),
        };
        let len = t.len.map(|l| match l.constant {
            Some(j) => new.consts[j].name.clone(),
            None => l.count.to_string(),
        });
        (elem, len)
    }

    pub(super) fn compare_struct(&mut self, o: usize, n: usize) {
        let (old, new) = (self.old, self.new);
        let (a, b): (&Struct, &Struct) = (&old.abi.structs[o], &new.abi.structs[n]);
        let (la, lb) = (old.layout.of(o), new.layout.of(n));
        let old_v = self.old_v();
        let spans = (Some(&a.span), Some(&b.span));
        // A field is named by its own struct; who holds the struct shows in the effects.
        let prefix = b.name.clone();

        // Fields: by name, then renames (same offset, size and type; a padding field pairs
        // only with padding).
        let map: Vec<Option<usize>> = self.m.fields[o].clone();
        let old_of = |fi: usize| map.iter().position(|x| *x == Some(fi));
        let old_fields_kept = a.fields.iter().enumerate().all(|(fo, f)| {
            f.is_padding()
                || map[fo].is_some_and(|fi| {
                    lb.fields[fi].offset == la.fields[fo].offset
                        && lb.fields[fi].size == la.fields[fo].size
                })
        });
        let grows_at_end = lb.size > la.size
            && lb.align == la.align
            && a.extensible
            && b.extensible
            && old_fields_kept;
        let holders_new = holders(new, Elem::Struct(n));
        let embedded = if holders_new.is_empty() {
            holders(old, Elem::Struct(o))
        } else {
            holders_new
        };
        let embedding_note = || {
            let arrays = embedded.iter().any(|h| h.ends_with("[]"));
            format!(
                "it is held by {}, so everything after it there moves{}",
                quote_list(&embedded),
                if arrays {
                    " (and every array element after the first)"
                } else {
                    ""
                }
            )
        };

        if a.name != b.name {
            let ch = change(
                Severity::SourceBreaking,
                ChangeKind::StructRenamed,
                ItemKind::Struct,
                &b.name,
                format!("struct renamed from `{}`", a.name),
                format!(
                    "the same size, alignment and fields; code that names `{}` must say `{}`",
                    a.name, b.name
                ),
            )
            .sides(
                Some(Self::struct_shape(old, o)),
                Some(Self::struct_shape(new, n)),
            )
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if la.align != lb.align {
            let reason = format!("readers built against {old_v} align it to {}", la.align);
            let mut ch = change(
                Severity::Breaking,
                ChangeKind::StructAlignChanged,
                ItemKind::Struct,
                &b.name,
                "alignment changed",
                reason,
            )
            .sides(
                Some(Self::struct_shape(old, o)),
                Some(Self::struct_shape(new, n)),
            )
            .spans(spans.0, spans.1);
            ch.embedded_in = embedded.clone();
            self.push(ch);
        }
        if la.size != lb.size {
            let ch = if grows_at_end {
                change(
                    Severity::Compatible,
                    ChangeKind::StructGrown,
                    ItemKind::Struct,
                    &b.name,
                    "grows at its end (extensible)",
                    format!(
                        "`{}` is extensible: readers learn its size at run time, and every field of {old_v} keeps its offset",
                        b.name
                    ),
                )
            } else {
                let reason = if !embedded.is_empty() {
                    embedding_note()
                } else if lb.size < la.size {
                    format!(
                        "it shrinks: readers built against {old_v} read {}",
                        bytes(la.size)
                    )
                } else if a.extensible && b.extensible {
                    format!(
                        "`{}` is extensible, but it may only grow at its end with every old field in place",
                        b.name
                    )
                } else if b.extensible {
                    format!(
                        "`{}` was not extensible in {old_v}, so readers built against it assume {}",
                        b.name,
                        bytes(la.size)
                    )
                } else {
                    format!(
                        "`{}` is not marked extensible, so readers built against {old_v} assume {}",
                        b.name,
                        bytes(la.size)
                    )
                };
                let mut ch = change(
                    Severity::Breaking,
                    ChangeKind::StructSizeChanged,
                    ItemKind::Struct,
                    &b.name,
                    if lb.size > la.size {
                        "struct grows"
                    } else {
                        "struct shrinks"
                    },
                    reason,
                );
                ch.embedded_in = embedded.clone();
                ch
            }
            .sides(
                Some(Self::struct_shape(old, o)),
                Some(Self::struct_shape(new, n)),
            )
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if a.extensible != b.extensible {
            let shape = |s: &Struct| Shape {
                extensible: Some(s.extensible),
                ..named(&s.name)
            };
            let ch = change(
                Severity::Compatible,
                ChangeKind::ExtensibleChanged,
                ItemKind::Struct,
                &b.name,
                if b.extensible {
                    "marked extensible"
                } else {
                    "no longer extensible"
                },
                if b.extensible {
                    "from this version on, readers must learn its size at run time"
                } else {
                    "later versions may not grow it at its end"
                },
            )
            .sides(Some(shape(a)), Some(shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        self.cosmetic_edits(
            ItemKind::Struct,
            &b.name,
            (&a.doc, &b.doc),
            (a.since, b.since),
            &a.span,
            &b.span,
        );

        let old_padding: Vec<(u64, u64)> = a
            .fields
            .iter()
            .zip(&la.fields)
            .filter(|(f, _)| f.is_padding())
            .map(|(_, l)| (l.offset, l.offset + l.size))
            .collect();
        let tail = a
            .fields
            .last()
            .zip(la.fields.last())
            .filter(|(f, _)| f.is_padding())
            .map(|(f, l)| (f, l.offset, l.offset + l.size));
        for (fi, g) in b.fields.iter().enumerate() {
            let path = format!("{prefix}.{}", g.name);
            match old_of(fi) {
                Some(fo) => self.compare_field((o, fo), (n, fi), &path),
                // Padding is bytes, not an item: its reuse shows in the fields that take it.
                None if g.is_padding() => {}
                None => {
                    let lg = &lb.fields[fi];
                    let (start, end) = (lg.offset, lg.offset + lg.size);
                    let padding_names = || {
                        let names: Vec<String> = a
                            .fields
                            .iter()
                            .zip(&la.fields)
                            .filter(|(f, l)| {
                                f.is_padding() && l.offset < end && start < l.offset + l.size
                            })
                            .map(|(f, _)| f.name.clone())
                            .collect();
                        quote_list(&names)
                    };
                    let (severity, kind, summary, reason) = if covered(start, end, &old_padding) {
                        match tail {
                            Some((t, ts, te)) if lb.size == la.size && ts <= start && end <= te => {
                                (
                                    Severity::Compatible,
                                    ChangeKind::TailPaddingReused,
                                    "field added in the trailing padding",
                                    format!(
                                        "its bytes were the trailing padding `{}`, and `{}` stays {}",
                                        t.name,
                                        b.name,
                                        bytes(lb.size)
                                    ),
                                )
                            }
                            _ => (
                                Severity::Compatible,
                                ChangeKind::PaddingReused,
                                "field added in declared padding",
                                format!(
                                    "its bytes were declared padding ({}), which readers built against {old_v} do not read",
                                    padding_names()
                                ),
                            ),
                        }
                    } else if grows_at_end && covered(start, end.min(la.size), &old_padding) {
                        (
                            Severity::Compatible,
                            ChangeKind::FieldAppended,
                            "field appended",
                            format!(
                                "it lies past the {} `{}` had in {old_v}, and `{}` is extensible",
                                bytes(la.size),
                                b.name,
                                b.name
                            ),
                        )
                    } else {
                        let taken: Vec<String> = a
                            .fields
                            .iter()
                            .zip(&la.fields)
                            .filter(|(f, l)| {
                                !f.is_padding() && l.offset < end && start < l.offset + l.size
                            })
                            .map(|(f, _)| f.name.clone())
                            .collect();
                        let reason = if !taken.is_empty() {
                            format!("it takes bytes that held {} in {old_v}", quote_list(&taken))
                        } else if embedded.is_empty() {
                            format!(
                                "it lies past the {} `{}` had in {old_v}, and `{}` cannot grow compatibly",
                                bytes(la.size),
                                b.name,
                                b.name
                            )
                        } else {
                            format!(
                                "it lies past the {} `{}` had in {old_v}; {}",
                                bytes(la.size),
                                b.name,
                                embedding_note()
                            )
                        };
                        (
                            Severity::Breaking,
                            ChangeKind::FieldAdded,
                            "field added",
                            reason,
                        )
                    };
                    // In the middle: the fields after it move.
                    let inserted = kind == ChangeKind::FieldAdded
                        && (fi + 1..b.fields.len()).any(|later| {
                            old_of(later)
                                .is_some_and(|fo| la.fields[fo].offset != lb.fields[later].offset)
                        });
                    let summary = if inserted { "field inserted" } else { summary };
                    let mut ch = change(severity, kind, ItemKind::Field, &path, summary, reason)
                        .sides(None, Some(Self::field_shape(new, n, fi)))
                        .spans(None, Some(&g.span));
                    ch.site = Some(site(new, &b.name, g, lg.offset));
                    self.check_since_in_handshake(n, fi, &mut ch);
                    if kind == ChangeKind::FieldAppended && g.since.is_none() {
                        self.appended_without_since(n, &mut ch);
                    }
                    self.push(ch);
                }
            }
        }
        for (fo, f) in a.fields.iter().enumerate() {
            if map[fo].is_some() || f.is_padding() {
                continue;
            }
            let ch = change(
                Severity::Breaking,
                ChangeKind::FieldRemoved,
                ItemKind::Field,
                format!("{prefix}.{}", f.name),
                "field removed",
                format!("readers built against {old_v} still read it"),
            )
            .sides(Some(Self::field_shape(old, o, fo)), None)
            .spans(Some(&f.span), None);
            let ch = FieldSite::attach(ch, site(old, &b.name, f, la.fields[fo].offset));
            self.push(ch);
        }
    }

    fn compare_field(&mut self, (o, fo): (usize, usize), (n, fi): (usize, usize), path: &str) {
        let (old, new) = (self.old, self.new);
        let (f, g) = (
            &old.abi.structs[o].fields[fo],
            &new.abi.structs[n].fields[fi],
        );
        let (lf, lg) = (&old.layout.of(o).fields[fo], &new.layout.of(n).fields[fi]);
        let old_v = self.old_v();
        let sides = (
            Some(Self::field_shape(old, o, fo)),
            Some(Self::field_shape(new, n, fi)),
        );
        let spans = (Some(&f.span), Some(&g.span));
        if f.name != g.name {
            let reason = if g.is_padding() {
                "declared padding under another name; the bytes are the same".to_string()
            } else {
                format!(
                    "the same offset, size and type; code that names `{}` must say `{}`",
                    f.name, g.name
                )
            };
            let ch = change(
                Severity::SourceBreaking,
                ChangeKind::FieldRenamed,
                ItemKind::Field,
                path,
                format!("field renamed from `{}`", f.name),
                reason,
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if !g.is_padding() {
            let moved = lf.offset != lg.offset;
            let resized = lf.size != lg.size;
            let retyped = !self.m.same_elem(&f.ty, &g.ty);
            if moved || resized || retyped {
                let mut what = Vec::new();
                let mut why = Vec::new();
                if moved {
                    what.push("moved");
                    why.push(format!("look for it at 0x{:04x}", lf.offset));
                }
                if retyped {
                    what.push("retyped");
                    why.push(format!("read it as `{}`", f.ty.text));
                }
                if resized {
                    what.push("resized");
                    let cause = if retyped {
                        String::new()
                    } else if f.ty.count() != g.ty.count() {
                        format!(
                            " (the array length goes from {} to {})",
                            f.ty.count(),
                            g.ty.count()
                        )
                    } else {
                        match g.ty.elem {
                            Elem::Struct(j) => {
                                format!(" (`{}` changed size)", new.abi.structs[j].name)
                            }
                            Elem::Enum(j) => {
                                format!(" (`{}` changed representation)", new.abi.enums[j].name)
                            }
                            _ => String::new(),
                        }
                    };
                    why.push(format!("read {}{cause}", bytes(lf.size)));
                }
                let kind = if retyped {
                    ChangeKind::FieldRetyped
                } else if resized {
                    ChangeKind::FieldResized
                } else {
                    ChangeKind::FieldMoved
                };
                let summary = match what.len() {
                    1 => format!("field {}", what[0]),
                    _ => format!(
                        "field {} and {}",
                        what[..what.len() - 1].join(", "),
                        what[what.len() - 1]
                    ),
                };
                let ch = change(
                    Severity::Breaking,
                    kind,
                    ItemKind::Field,
                    path,
                    summary,
                    format!("readers built against {old_v} {}", why.join(" and ")),
                )
                .sides(sides.0.clone(), sides.1.clone())
                .spans(spans.0, spans.1);
                let owner = &new.abi.structs[n].name;
                let ch = FieldSite::attach(ch, site(new, owner, g, lf.offset.min(lg.offset)));
                self.push(ch);
            } else if self.canonical_old(&f.ty) != self.canonical_new(&g.ty) {
                let ch = change(
                    Severity::Cosmetic,
                    ChangeKind::TypeSpelling,
                    ItemKind::Field,
                    path,
                    "type written differently",
                    "the same type",
                )
                .sides(sides.0.clone(), sides.1.clone())
                .spans(spans.0, spans.1);
                self.push(ch);
            }
        }
        let first = self.changes.len();
        self.cosmetic_edits(
            ItemKind::Field,
            path,
            (&f.doc, &g.doc),
            (f.since, g.since),
            &f.span,
            &g.span,
        );
        self.since_in_handshake_is_no_doc(n, first);
    }
}
