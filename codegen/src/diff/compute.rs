//! Matching the items of two schemas (by name, then renames by shape) and classifying every
//! difference. Offsets and sizes are the layout's; nothing here computes a layout.

use crate::diagnostics::Span;
use crate::ir::{Elem, Field, Type, Version};
use crate::schema::Schema;

use super::change::{Change, ChangeKind, ItemKind, Severity, Shape};
use super::group::group;
use super::model::{Diff, NewAbi};
use super::policy::compute_verdict;
use super::verdict::{Bump, Verdict};
use crate::ir::StructId;

/// Every change from `old` to `new`, classified and grouped by root cause, and the version
/// policy's verdict (the new schema's `version_policy`).
pub fn compute_diff(old: &Schema, new: &Schema) -> Diff {
    let mut changes = classify(old, new);
    let groups = group(&mut changes);
    let verdict = compute_verdict(
        &mut changes,
        &groups,
        old.abi.version,
        new.abi.version,
        new.abi.version_policy,
    );
    Diff {
        abi: new.abi.name.clone(),
        old_version: old.abi.version,
        new_version: new.abi.version,
        new_abi: None,
        changes,
        groups,
        verdict,
        abi_span: new.abi.span.clone(),
        version_span: new.abi.version_span.clone(),
    }
}

/// A schema that did not exist at the base: a new ABI. Its items are counted, not listed
/// one by one, and with no version step to judge, the policy holds.
pub fn compute_new_abi(new: &Schema) -> Diff {
    let v = new.abi.version;
    Diff {
        abi: new.abi.name.clone(),
        old_version: v,
        new_version: v,
        new_abi: Some(NewAbi {
            consts: new.abi.consts.len(),
            enums: new.abi.enums.len(),
            structs: new.abi.structs.len(),
        }),
        changes: Vec::new(),
        groups: Vec::new(),
        verdict: Verdict {
            policy: new.abi.version_policy,
            required: Bump::None,
            target: v,
            actual: Some(Bump::None),
            problems: Vec::new(),
        },
        abi_span: new.abi.span.clone(),
        version_span: new.abi.version_span.clone(),
    }
}

/// The changes from `old` to `new`, in the new schema's order, removals last.
fn classify(old: &Schema, new: &Schema) -> Vec<Change> {
    let matching = Matching::compute(old, new);
    let mut cx = Cx {
        old,
        new,
        m: matching,
        changes: Vec::new(),
    };
    cx.compare_abi();
    for item in &new.abi.order {
        match *item {
            crate::ir::ItemRef::Const(n) => match cx.m.const_old(n) {
                Some(o) => cx.compare_const(o, n),
                None => cx.added_const(n),
            },
            crate::ir::ItemRef::Enum(n) => match cx.m.enum_old(n) {
                Some(o) => cx.compare_enum(o, n),
                None => cx.added_enum(n),
            },
            crate::ir::ItemRef::Struct(n) => match cx.m.struct_old(n) {
                Some(o) => cx.compare_struct(o, n),
                None => cx.added_struct(n),
            },
        }
    }
    cx.compare_shared();
    cx.compare_attach();
    cx.compare_decls();
    for item in &old.abi.order {
        match *item {
            crate::ir::ItemRef::Const(o) if cx.m.consts[o].is_none() => cx.removed_const(o),
            crate::ir::ItemRef::Enum(o) if cx.m.enums[o].is_none() => cx.removed_enum(o),
            crate::ir::ItemRef::Struct(o) if cx.m.struct_new(o).is_none() => cx.removed_struct(o),
            _ => {}
        }
    }
    cx.changes
}

/// Which old item is which new item: by name first, then renames (same shape, another name).
pub(super) struct Matching {
    /// Old index → new index.
    pub(super) consts: Vec<Option<usize>>,
    pub(super) enums: Vec<Option<usize>>,
    /// Old struct index → new; read through [`Matching::struct_new`].
    pub(super) structs: Vec<Option<usize>>,
    /// For each old struct that has a new one: old field index → new field index, by name,
    /// then renames (the same offset, size and type; padding pairs only with padding).
    /// Empty for an old struct with no new one.
    pub(super) fields: Vec<Vec<Option<usize>>>,
}

impl Matching {
    fn compute(old: &Schema, new: &Schema) -> Matching {
        let by_name = |olds: Vec<&str>, news: Vec<&str>| -> Vec<Option<usize>> {
            olds.iter()
                .map(|o| news.iter().position(|n| n == o))
                .collect()
        };
        let (oa, na) = (&old.abi, &new.abi);
        let mut m = Matching {
            consts: by_name(
                oa.consts.iter().map(|c| c.name.as_str()).collect(),
                na.consts.iter().map(|c| c.name.as_str()).collect(),
            ),
            enums: by_name(
                oa.enums.iter().map(|e| e.name.as_str()).collect(),
                na.enums.iter().map(|e| e.name.as_str()).collect(),
            ),
            structs: by_name(
                oa.structs.iter().map(|s| s.name.as_str()).collect(),
                na.structs.iter().map(|s| s.name.as_str()).collect(),
            ),
            fields: Vec::new(),
        };
        // A constant renamed: the same value and type under another name.
        let pairs = unique_pairs(&m.consts, na.consts.len(), |o, n| {
            oa.consts[o].value == na.consts[n].value && oa.consts[o].ty == na.consts[n].ty
        });
        for (o, n) in pairs {
            m.consts[o] = Some(n);
        }
        // An enum renamed: the same kind, representation and values.
        let pairs = unique_pairs(&m.enums, na.enums.len(), |o, n| {
            let (a, b) = (&oa.enums[o], &na.enums[n]);
            a.kind == b.kind
                && a.repr == b.repr
                && a.values.len() == b.values.len()
                && a.values
                    .iter()
                    .zip(&b.values)
                    .all(|(x, y)| x.name == y.name && x.value == y.value)
        });
        for (o, n) in pairs {
            m.enums[o] = Some(n);
        }
        // A struct renamed: the same layout, field by field. Structs hold structs, so
        // pairing one can make another pair: repeat until nothing changes.
        loop {
            let pairs = unique_pairs(&m.structs, na.structs.len(), |o, n| {
                let (o, n) = (StructId::new(o), StructId::new(n));
                let (a, b) = (&oa.structs[o], &na.structs[n]);
                let (la, lb) = (old.layout.of(o), new.layout.of(n));
                la.size == lb.size
                    && la.align == lb.align
                    && a.fields.len() == b.fields.len()
                    && a.fields
                        .iter()
                        .zip(&b.fields)
                        .zip(la.fields.iter().zip(&lb.fields))
                        .all(|((x, y), (lx, ly))| {
                            x.name == y.name
                                && lx.offset == ly.offset
                                && lx.size == ly.size
                                && m.same_type(&x.ty, &y.ty)
                        })
            });
            if pairs.is_empty() {
                break;
            }
            for (o, n) in pairs {
                m.structs[o] = Some(n);
            }
        }
        m.fields = oa
            .struct_ids()
            .map(|o| match m.struct_new(o) {
                Some(n) => m.field_map(old, new, o, n),
                None => Vec::new(),
            })
            .collect();
        m
    }

    /// Old struct `o`'s fields → new struct `n`'s: by name, then renames (the same offset,
    /// size and type; a padding field pairs only with padding).
    fn field_map(
        &self,
        old: &Schema,
        new: &Schema,
        o: StructId,
        n: StructId,
    ) -> Vec<Option<usize>> {
        let (a, b) = (&old.abi.structs[o], &new.abi.structs[n]);
        let (la, lb) = (old.layout.of(o), new.layout.of(n));
        let mut map: Vec<Option<usize>> = a
            .fields
            .iter()
            .map(|f| b.fields.iter().position(|g| g.name == f.name))
            .collect();
        for (fo, f) in a.fields.iter().enumerate() {
            if map[fo].is_some() {
                continue;
            }
            let lf = &la.fields[fo];
            let found = b.fields.iter().enumerate().position(|(fi, g)| {
                !map.contains(&Some(fi))
                    && g.is_padding() == f.is_padding()
                    && lb.fields[fi].offset == lf.offset
                    && lb.fields[fi].size == lf.size
                    && self.same_type(&f.ty, &g.ty)
            });
            map[fo] = found;
        }
        map
    }

    /// The new field that old field `fo` of old struct `o` is.
    pub(super) fn field_new(&self, o: StructId, fo: usize) -> Option<usize> {
        self.fields.get(o.index())?.get(fo).copied().flatten()
    }

    fn const_old(&self, n: usize) -> Option<usize> {
        self.consts.iter().position(|x| *x == Some(n))
    }

    pub(super) fn enum_old(&self, n: usize) -> Option<usize> {
        self.enums.iter().position(|x| *x == Some(n))
    }

    /// The old struct that new struct `n` is.
    pub(super) fn struct_old(&self, n: StructId) -> Option<StructId> {
        self.structs
            .iter()
            .position(|x| *x == Some(n.index()))
            .map(StructId::new)
    }

    /// The new struct that old struct `o` is.
    pub(super) fn struct_new(&self, o: StructId) -> Option<StructId> {
        self.structs
            .get(o.index())
            .copied()
            .flatten()
            .map(StructId::new)
    }

    /// Whether an old type and a new type are the same type, items matched by this matching.
    pub(super) fn same_type(&self, a: &Type, b: &Type) -> bool {
        a.count() == b.count() && self.same_elem(a, b)
    }

    /// Whether two types have the same element type, whatever their array lengths.
    pub(super) fn same_elem(&self, a: &Type, b: &Type) -> bool {
        match (a.elem, b.elem) {
            (Elem::Prim(x), Elem::Prim(y)) => x == y,
            (Elem::Char, Elem::Char) => true,
            (Elem::Enum(x), Elem::Enum(y)) => self.enums[x] == Some(y),
            (Elem::Struct(x), Elem::Struct(y)) => self.struct_new(x) == Some(y),
            _ => false,
        }
    }
}

/// Pairs of unmatched old and new items that `alike` links one to one: each has exactly one
/// candidate on the other side. An ambiguous rename stays a removal and an addition.
fn unique_pairs(
    matched: &[Option<usize>],
    new_len: usize,
    alike: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let taken: Vec<bool> = (0..new_len).map(|n| matched.contains(&Some(n))).collect();
    let old_free: Vec<usize> = (0..matched.len())
        .filter(|o| matched[*o].is_none())
        .collect();
    let new_free: Vec<usize> = (0..new_len).filter(|n| !taken[*n]).collect();
    let mut pairs = Vec::new();
    for &o in &old_free {
        let cands: Vec<usize> = new_free.iter().copied().filter(|n| alike(o, *n)).collect();
        if let [n] = cands[..] {
            let back = old_free.iter().filter(|x| alike(**x, n)).count();
            if back == 1 {
                pairs.push((o, n));
            }
        }
    }
    pairs
}

pub(super) struct Cx<'a> {
    pub(super) old: &'a Schema,
    pub(super) new: &'a Schema,
    pub(super) m: Matching,
    pub(super) changes: Vec<Change>,
}

/// A change before its spans and extras are filled in.
pub(super) fn change(
    severity: Severity,
    kind: ChangeKind,
    item: ItemKind,
    path: impl Into<String>,
    summary: impl Into<String>,
    reason: impl Into<String>,
) -> Change {
    Change {
        severity,
        kind,
        item,
        path: path.into(),
        summary: summary.into(),
        reason: reason.into(),
        advice: super::rules::rule_of(kind).fix.to_string(),
        old: None,
        new: None,
        embedded_in: Vec::new(),
        violation: None,
        old_span: None,
        new_span: None,
        cause: None,
        site: None,
        since_check: None,
    }
}

impl Change {
    pub(super) fn sides(mut self, old: Option<Shape>, new: Option<Shape>) -> Self {
        self.old = old;
        self.new = new;
        self
    }

    pub(super) fn spans(mut self, old: Option<&Span>, new: Option<&Span>) -> Self {
        self.old_span = old.cloned();
        self.new_span = new.cloned();
        self
    }
}

pub(super) fn named(name: &str) -> Shape {
    Shape {
        name: name.to_string(),
        ..Shape::default()
    }
}

fn field_step(f: &Field) -> String {
    if f.ty.len.is_some() {
        format!("{}[]", f.name)
    } else {
        f.name.clone()
    }
}

/// Every field that holds a value of type `elem` directly: `snapshot.match`.
pub(super) fn holders(schema: &Schema, elem: Elem) -> Vec<String> {
    schema
        .abi
        .structs
        .iter()
        .flat_map(|s| {
            s.fields
                .iter()
                .filter(move |f| f.ty.elem == elem)
                .map(move |f| format!("{}.{}", s.name, field_step(f)))
        })
        .collect()
}

/// Every field whose array length is constant `index`.
pub(super) fn sized_by(schema: &Schema, index: usize) -> Vec<String> {
    schema
        .abi
        .structs
        .iter()
        .flat_map(|s| {
            s.fields
                .iter()
                .filter(move |f| f.ty.len.and_then(|l| l.constant) == Some(index))
                .map(move |f| format!("{}.{}", s.name, f.name))
        })
        .collect()
}

/// "1 byte", "4 bytes".
pub(super) fn bytes(n: u64) -> String {
    format!("{n} byte{}", if n == 1 { "" } else { "s" })
}

pub(super) fn quote_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

/// Whether `[start, end)` lies inside the union of `intervals`.
pub(super) fn covered(start: u64, end: u64, intervals: &[(u64, u64)]) -> bool {
    let mut sorted = intervals.to_vec();
    sorted.sort_unstable();
    let mut pos = start;
    for (s, e) in sorted {
        if pos >= end {
            break;
        }
        if s <= pos && e > pos {
            pos = e;
        }
    }
    pos >= end
}

impl Cx<'_> {
    pub(super) fn old_v(&self) -> Version {
        self.old.abi.version
    }

    pub(super) fn push(&mut self, c: Change) {
        self.changes.push(c);
    }

    /// Doc and `since` edits of one item: cosmetic.
    pub(super) fn cosmetic_edits(
        &mut self,
        item: ItemKind,
        path: &str,
        (old_doc, new_doc): (&str, &str),
        (old_since, new_since): (Option<Version>, Option<Version>),
        old_span: &Span,
        new_span: &Span,
    ) {
        if old_doc != new_doc {
            let c = change(
                Severity::Cosmetic,
                ChangeKind::DocChanged,
                item,
                path,
                "doc changed",
                "doc text only",
            )
            .sides(
                Some(Shape {
                    doc: Some(old_doc.to_string()),
                    ..named(path)
                }),
                Some(Shape {
                    doc: Some(new_doc.to_string()),
                    ..named(path)
                }),
            )
            .spans(Some(old_span), Some(new_span));
            self.push(c);
        }
        if old_since != new_since {
            let show =
                |v: Option<Version>| Some(v.map_or_else(|| "none".into(), |v| v.to_string()));
            let c = change(
                Severity::Cosmetic,
                ChangeKind::SinceChanged,
                item,
                path,
                "since changed",
                "documentation of when the item appeared; the bytes are the same",
            )
            .sides(
                Some(Shape {
                    since: show(old_since),
                    ..named(path)
                }),
                Some(Shape {
                    since: show(new_since),
                    ..named(path)
                }),
            )
            .spans(Some(old_span), Some(new_span));
            self.push(c);
        }
    }

    fn compare_abi(&mut self) {
        let (o, n) = (&self.old.abi, &self.new.abi);
        let (os, ns) = (&o.span, &n.span);
        let text = |name: &str, v: &str| Shape {
            value: Some(format!("{v:?}")),
            ..named(name)
        };
        let mut found = Vec::new();
        if o.name != n.name {
            found.push(
                change(
                    Severity::SourceBreaking,
                    ChangeKind::AbiRenamed,
                    ItemKind::Abi,
                    "abi.name",
                    "ABI renamed",
                    "the bytes are the same, but the generated files and modules take the new name",
                )
                .sides(Some(text("name", &o.name)), Some(text("name", &n.name))),
            );
        }
        if o.c_prefix != n.c_prefix {
            found.push(
                change(
                    Severity::SourceBreaking,
                    ChangeKind::CPrefixChanged,
                    ItemKind::Abi,
                    "abi.c_prefix",
                    "C prefix changed",
                    "the bytes are the same, but every C name changes",
                )
                .sides(
                    Some(text("c_prefix", &o.c_prefix)),
                    Some(text("c_prefix", &n.c_prefix)),
                ),
            );
        }
        if o.title != n.title {
            found.push(
                change(
                    Severity::Cosmetic,
                    ChangeKind::TitleChanged,
                    ItemKind::Abi,
                    "abi.title",
                    "title changed",
                    "doc text only",
                )
                .sides(Some(text("title", &o.title)), Some(text("title", &n.title))),
            );
        }
        if o.doc != n.doc {
            found.push(
                change(
                    Severity::Cosmetic,
                    ChangeKind::DocChanged,
                    ItemKind::Abi,
                    "abi.doc",
                    "doc changed",
                    "doc text only",
                )
                .sides(
                    Some(Shape {
                        doc: Some(o.doc.clone()),
                        ..named("abi")
                    }),
                    Some(Shape {
                        doc: Some(n.doc.clone()),
                        ..named("abi")
                    }),
                ),
            );
        }
        for c in found {
            let c = c.spans(Some(os), Some(ns));
            self.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::covered;

    #[test]
    fn coverage_by_intervals() {
        assert!(covered(4, 8, &[(0, 2), (4, 6), (6, 8)]));
        assert!(covered(5, 6, &[(4, 8)]));
        assert!(!covered(4, 9, &[(4, 8)]));
        assert!(!covered(3, 5, &[(4, 8)]));
        assert!(covered(7, 7, &[]));
    }
}
