//! Structs compared: size and alignment (growth of an extensible struct is compatible,
//! any other change breaking, naming who holds it), and each field by name or, when renamed,
//! by offset, size and type; a new field is compatible in old padding or past the end of an
//! extensible struct.

mod fields;

use crate::ir::{Elem, Field, Struct, Type, Version};
use crate::layout::StructLayout;
use crate::schema::Schema;

use super::change::{Change, ChangeKind, FieldSite, ItemKind, Severity, Shape};
use super::compute::{Cx, Matching, bytes, change, holders, named, quote_list};
use crate::ir::StructId;

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
    fn struct_shape(schema: &Schema, index: StructId) -> Shape {
        let l = schema.layout.of(index);
        Shape {
            size: Some(l.size),
            align: Some(l.align),
            ..named(&schema.abi.structs[index].name)
        }
    }

    fn field_shape(schema: &Schema, si: StructId, fi: usize) -> Shape {
        let f = &schema.abi.structs[si].fields[fi];
        let l = &schema.layout.of(si).fields[fi];
        Shape {
            offset: Some(l.offset),
            size: Some(l.size),
            ty: Some(f.ty.text.clone()),
            ..named(&f.name)
        }
    }

    pub(super) fn added_struct(&mut self, n: StructId) {
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

    pub(super) fn removed_struct(&mut self, o: StructId) {
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
            Elem::Struct(i) => self
                .m
                .struct_new(i)
                .map_or_else(String::new, |j| new.structs[j].name.clone()),
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

    /// Compares old struct `o` with its match `n`: the struct itself, then its fields.
    pub(super) fn compare_struct(&mut self, o: StructId, n: StructId) {
        let pair = StructPair::new(self.old, self.new, &self.m, o, n);
        self.struct_renamed(&pair);
        self.struct_align_changed(&pair);
        self.struct_size_changed(&pair);
        self.extensible_changed(&pair);
        let (a, b) = (pair.a, pair.b);
        self.cosmetic_edits(
            ItemKind::Struct,
            &b.name,
            (&a.doc, &b.doc),
            (a.since, b.since),
            &a.span,
            &b.span,
        );
        self.compare_struct_fields(&pair);
    }

    /// The struct's old and new shape, and its spans, for a change of the struct itself.
    fn struct_sides(&self, pair: &StructPair, ch: Change) -> Change {
        ch.sides(
            Some(Self::struct_shape(self.old, pair.o)),
            Some(Self::struct_shape(self.new, pair.n)),
        )
        .spans(Some(&pair.a.span), Some(&pair.b.span))
    }

    /// A rename of the struct, which keeps its size, alignment and fields.
    fn struct_renamed(&mut self, pair: &StructPair) {
        let (a, b) = (pair.a, pair.b);
        if a.name == b.name {
            return;
        }
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
        );
        let ch = self.struct_sides(pair, ch);
        self.push(ch);
    }

    /// A change of the struct's alignment, which is always breaking.
    fn struct_align_changed(&mut self, pair: &StructPair) {
        let (la, lb) = (pair.la, pair.lb);
        if la.align == lb.align {
            return;
        }
        let old_v = pair.old_v;
        let reason = format!("readers built against {old_v} align it to {}", la.align);
        let mut ch = change(
            Severity::Breaking,
            ChangeKind::StructAlignChanged,
            ItemKind::Struct,
            &pair.b.name,
            "alignment changed",
            reason,
        );
        ch.embedded_in = pair.embedded.clone();
        let ch = self.struct_sides(pair, ch);
        self.push(ch);
    }

    /// A change of the struct's size: compatible growth at the end of an extensible struct,
    /// otherwise breaking, with the reason.
    fn struct_size_changed(&mut self, pair: &StructPair) {
        let (b, la, lb) = (pair.b, pair.la, pair.lb);
        if la.size == lb.size {
            return;
        }
        let old_v = pair.old_v;
        let ch = if pair.grows_at_end {
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
                size_change_reason(pair),
            );
            ch.embedded_in = pair.embedded.clone();
            ch
        };
        let ch = self.struct_sides(pair, ch);
        self.push(ch);
    }

    /// The struct marked extensible, or no longer.
    fn extensible_changed(&mut self, pair: &StructPair) {
        let (a, b) = (pair.a, pair.b);
        if a.extensible == b.extensible {
            return;
        }
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
        .spans(Some(&a.span), Some(&b.span));
        self.push(ch);
    }
}

/// Why a size change that is not growth at the end of an extensible struct breaks readers.
fn size_change_reason(pair: &StructPair) -> String {
    let (a, b, la, lb) = (pair.a, pair.b, pair.la, pair.lb);
    let old_v = pair.old_v;
    if !pair.embedded.is_empty() {
        pair.embedding_note()
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
    }
}

/// Old struct `o` and its match, new struct `n`, with the facts their changes are judged by.
struct StructPair<'a> {
    o: StructId,
    n: StructId,
    a: &'a Struct,
    b: &'a Struct,
    la: &'a StructLayout,
    lb: &'a StructLayout,
    old_v: Version,
    /// The new field each old field matched (by name, then renames: same offset, size and
    /// type; a padding field pairs only with padding).
    map: Vec<Option<usize>>,
    /// The struct is extensible in both, keeps its alignment and every old field in place,
    /// and grows.
    grows_at_end: bool,
    /// Who holds the struct, in the new schema (in the old when nothing new holds it).
    embedded: Vec<String>,
}

impl<'a> StructPair<'a> {
    fn new(old: &'a Schema, new: &'a Schema, m: &Matching, o: StructId, n: StructId) -> Self {
        let (a, b) = (&old.abi.structs[o], &new.abi.structs[n]);
        let (la, lb) = (old.layout.of(o), new.layout.of(n));
        let map: Vec<Option<usize>> = m.fields[o.index()].clone();
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
        StructPair {
            o,
            n,
            a,
            b,
            la,
            lb,
            old_v: old.abi.version,
            map,
            grows_at_end,
            embedded,
        }
    }

    /// The old field that new field `fi` matched.
    fn old_of(&self, fi: usize) -> Option<usize> {
        self.map.iter().position(|x| *x == Some(fi))
    }

    /// Why a change of the struct's size moves what holds it.
    fn embedding_note(&self) -> String {
        let arrays = self.embedded.iter().any(|h| h.ends_with("[]"));
        format!(
            "it is held by {}, so everything after it there moves{}",
            quote_list(&self.embedded),
            if arrays {
                " (and every array element after the first)"
            } else {
                ""
            }
        )
    }
}
