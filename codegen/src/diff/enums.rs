//! Enums and flag sets compared: the type (kind, representation, rename) and each value or
//! bit (added, removed, renamed, renumbered, or reused for another meaning).

use crate::ir::{Elem, Enum, EnumKind, EnumValue};

use super::change::{ChangeKind, ItemKind, Severity, Shape};
use super::compute::{Cx, bytes, change, holders, named, quote_list};

impl Cx<'_> {
    fn enum_shape(e: &Enum) -> Shape {
        Shape {
            ty: Some(format!("{} {}", e.kind.keyword(), e.repr)),
            values: Some(e.values.len()),
            ..named(&e.name)
        }
    }

    pub(super) fn added_enum(&mut self, n: usize) {
        let e = &self.new.abi.enums[n];
        let mut ch = change(
            Severity::Compatible,
            ChangeKind::EnumAdded,
            enum_item(e.kind),
            &e.name,
            format!("{} added", enum_item(e.kind).label()),
            "a new type; nothing old changes",
        )
        .sides(None, Some(Self::enum_shape(e)))
        .spans(None, Some(&e.span));
        ch.embedded_in = holders(self.new, Elem::Enum(n));
        ch.since_check = Some((e.since, false));
        self.push(ch);
    }

    pub(super) fn removed_enum(&mut self, o: usize) {
        let e = &self.old.abi.enums[o];
        let mut ch = change(
            Severity::Breaking,
            ChangeKind::EnumRemoved,
            enum_item(e.kind),
            &e.name,
            format!("{} removed", enum_item(e.kind).label()),
            format!("code built against {} uses it", self.old_v()),
        )
        .sides(Some(Self::enum_shape(e)), None)
        .spans(Some(&e.span), None);
        ch.embedded_in = holders(self.old, Elem::Enum(o));
        self.push(ch);
    }

    pub(super) fn compare_enum(&mut self, o: usize, n: usize) {
        let (a, b) = (&self.old.abi.enums[o], &self.new.abi.enums[n]);
        let item = enum_item(b.kind);
        let path = b.name.clone();
        let spans = (Some(&a.span), Some(&b.span));
        let old_v = self.old_v();
        if a.name != b.name {
            let ch = change(
                Severity::SourceBreaking,
                ChangeKind::EnumRenamed,
                item,
                &path,
                format!("{} renamed from `{}`", item.label(), a.name),
                format!(
                    "the same representation and values; code that names `{}` must say `{}`",
                    a.name, b.name
                ),
            )
            .sides(Some(Self::enum_shape(a)), Some(Self::enum_shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if a.kind != b.kind {
            let ch = change(
                Severity::Breaking,
                ChangeKind::EnumKindChanged,
                item,
                &path,
                format!("{} became {}", enum_item(a.kind).label(), item.label()),
                format!(
                    "readers built against {old_v} read its numbers as {}",
                    if a.kind == EnumKind::Enum {
                        "single values"
                    } else {
                        "sets of bits"
                    }
                ),
            )
            .sides(Some(Self::enum_shape(a)), Some(Self::enum_shape(b)))
            .spans(spans.0, spans.1);
            self.push(ch);
        }
        if a.repr != b.repr {
            let users = holders(self.new, Elem::Enum(n));
            let reason = if users.is_empty() {
                format!(
                    "readers built against {old_v} read it as {}",
                    bytes(a.repr.size())
                )
            } else {
                format!(
                    "readers built against {old_v} read it as {}; every field of this type ({}) changes size",
                    bytes(a.repr.size()),
                    quote_list(&users)
                )
            };
            let shape = |e: &Enum| Shape {
                size: Some(e.repr.size()),
                ty: Some(format!("{} {}", e.kind.keyword(), e.repr)),
                ..named(&e.name)
            };
            let mut ch = change(
                Severity::Breaking,
                ChangeKind::EnumReprChanged,
                item,
                &path,
                "representation changed",
                reason,
            )
            .sides(Some(shape(a)), Some(shape(b)))
            .spans(spans.0, spans.1);
            ch.embedded_in = users;
            self.push(ch);
        }
        self.cosmetic_edits(
            item,
            &path,
            (&a.doc, &b.doc),
            (a.since, b.since),
            &a.span,
            &b.span,
        );
        self.compare_values(a, b);
    }

    /// The values of enum `a` against those of `b`: each new value reused, added or kept
    /// (renamed, renumbered, respelled, its doc edited); then the values removed.
    fn compare_values(&mut self, a: &Enum, b: &Enum) {
        let (map, reused) = match_values(a, b);
        for (ni, w) in b.values.iter().enumerate() {
            if let Some(oi) = reused[ni] {
                self.value_reused(b, &a.values[oi], w);
                continue;
            }
            match map.iter().position(|x| *x == Some(ni)) {
                Some(oi) => self.compare_value(b, &a.values[oi], w),
                None => self.value_added(b, w),
            }
        }
        self.values_removed(a, b, (&map, &reused));
    }

    /// New value `w` of `b` on the number of old value `v`, which is still there under
    /// another number: the number now means something else.
    fn value_reused(&mut self, b: &Enum, v: &EnumValue, w: &EnumValue) {
        let item = value_item(b.kind);
        let what = item.label();
        let old_v = self.old_v();
        let path = |name: &str| format!("{}.{name}", b.name);
        let ch = change(
            Severity::Breaking,
            ChangeKind::ValueReused,
            item,
            path(&w.name),
            format!("{what} reused for another meaning"),
            format!(
                "{} meant `{}` in {old_v}; readers built against {old_v} still read it so",
                w.literal, v.name
            ),
        )
        .sides(
            Some(value_shape(&v.name, &v.literal)),
            Some(value_shape(&w.name, &w.literal)),
        )
        .spans(Some(&v.span), Some(&w.span));
        self.push(ch);
    }

    /// New value `w` of `b`, on a number no old value had.
    fn value_added(&mut self, b: &Enum, w: &EnumValue) {
        let item = value_item(b.kind);
        let what = item.label();
        let old_v = self.old_v();
        let path = |name: &str| format!("{}.{name}", b.name);
        let mut ch = change(
            Severity::Compatible,
            ChangeKind::ValueAdded,
            item,
            path(&w.name),
            format!("{what} added"),
            format!("a number no {what} had in {old_v}"),
        )
        .sides(None, Some(value_shape(&w.name, &w.literal)))
        .spans(None, Some(&w.span));
        ch.since_check = Some((w.since, false));
        self.push(ch);
    }

    /// Old value `v` and its match `w` of `b`: renamed, renumbered or respelled, then its
    /// doc and since.
    fn compare_value(&mut self, b: &Enum, v: &EnumValue, w: &EnumValue) {
        let item = value_item(b.kind);
        let what = item.label();
        let old_v = self.old_v();
        let path = |name: &str| format!("{}.{name}", b.name);
        let sides = (
            Some(value_shape(&v.name, &v.literal)),
            Some(value_shape(&w.name, &w.literal)),
        );
        if v.name != w.name {
            let mut ch = change(
                Severity::SourceBreaking,
                ChangeKind::ValueRenamed,
                item,
                path(&w.name),
                format!("{what} renamed from `{}`", v.name),
                format!(
                    "the same number{}; code that names `{}` must say `{}`",
                    if v.doc == w.doc {
                        " and doc"
                    } else {
                        ", its doc edited"
                    },
                    v.name,
                    w.name
                ),
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(Some(&v.span), Some(&w.span));
            if v.doc != w.doc {
                ch.advice = format!(
                    "{}; if {} now means something else than `{}` did, that is a reuse: give `{}` a number no value had, or bump the major version",
                    ch.advice, w.literal, v.name, w.name
                );
            }
            self.push(ch);
        }
        if v.value != w.value {
            let ch = change(
                Severity::Breaking,
                ChangeKind::ValueRenumbered,
                item,
                path(&w.name),
                format!("{what} renumbered"),
                format!("readers built against {old_v} know it as {}", v.literal),
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(Some(&v.span), Some(&w.span));
            self.push(ch);
        } else if v.literal != w.literal {
            let ch = change(
                Severity::Cosmetic,
                ChangeKind::ValueSpelling,
                item,
                path(&w.name),
                "value written differently",
                "the same number",
            )
            .sides(sides.0.clone(), sides.1.clone())
            .spans(Some(&v.span), Some(&w.span));
            self.push(ch);
        }
        self.cosmetic_edits(
            item,
            &path(&w.name),
            (&v.doc, &w.doc),
            (v.since, w.since),
            &v.span,
            &w.span,
        );
    }

    /// The old values nothing matched or reused, as removed.
    fn values_removed(
        &mut self,
        a: &Enum,
        b: &Enum,
        (map, reused): (&[Option<usize>], &[Option<usize>]),
    ) {
        let old_v = self.old_v();
        for (oi, v) in a.values.iter().enumerate() {
            if map[oi].is_some() || reused.contains(&Some(oi)) {
                continue;
            }
            // A removed value is one of the old kind: `ok = 0` of an enum made a flag set is
            // an enum value, not a flag bit.
            let old_item = value_item(a.kind);
            let ch = change(
                Severity::Breaking,
                ChangeKind::ValueRemoved,
                old_item,
                format!("{}.{}", b.name, v.name),
                format!("{} removed", old_item.label()),
                format!(
                    "readers built against {old_v} still use {} ({})",
                    v.literal, v.name
                ),
            )
            .sides(Some(value_shape(&v.name, &v.literal)), None)
            .spans(Some(&v.span), None);
            self.push(ch);
        }
    }
}

/// Matches the values of `a` to those of `b`: the new index of each old value (by name,
/// then a new name on the number of an old value whose name is gone: a rename), and for each
/// new value, the old value whose number it reuses (one still there under another number).
fn match_values(a: &Enum, b: &Enum) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
    // Old value index → new value index.
    let mut map: Vec<Option<usize>> = a
        .values
        .iter()
        .map(|v| b.values.iter().position(|w| w.name == v.name))
        .collect();
    // A new name on an old number whose old name is gone: a rename, its doc edited or
    // not. A new name on the number of an old value that is still there under another
    // number: the number now means something else.
    let mut reused: Vec<Option<usize>> = vec![None; b.values.len()];
    for (ni, w) in b.values.iter().enumerate() {
        if map.contains(&Some(ni)) {
            continue;
        }
        let free = a
            .values
            .iter()
            .enumerate()
            .find(|(oi, v)| map[*oi].is_none() && v.value == w.value);
        if let Some((oi, _)) = free {
            map[oi] = Some(ni);
        } else if let Some(oi) = a.values.iter().position(|v| v.value == w.value) {
            reused[ni] = Some(oi);
        }
    }
    (map, reused)
}

/// A value as a diff side: its name and number as written.
fn value_shape(name: &str, literal: &str) -> Shape {
    Shape {
        value: Some(literal.to_string()),
        ..named(name)
    }
}

fn value_item(kind: EnumKind) -> ItemKind {
    match kind {
        EnumKind::Enum => ItemKind::Value,
        EnumKind::Flags => ItemKind::Flag,
    }
}

fn enum_item(kind: EnumKind) -> ItemKind {
    match kind {
        EnumKind::Enum => ItemKind::Enum,
        EnumKind::Flags => ItemKind::Flags,
    }
}
