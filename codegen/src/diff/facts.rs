//! Declarations compared as facts: each seqlock, ring, layout, handshake, file and protocol
//! is described as named facts in the schema's own words (field and struct names, never
//! indices or spans), so that two versions compare fact by fact, and a change says which
//! facts differ. A change's class is its rule's.

use crate::diagnostics::Span;
use crate::schema::Schema;

use super::change::{Change, ChangeKind, ItemKind, Shape};
use super::compute::{Cx, change, named};
use super::rules::rule_of;
use crate::ir::StructId;

/// A declaration's facts, in a fixed order: (what, its value).
pub(super) type Facts = Vec<(String, String)>;

/// The facts that differ: (what, old value, new value); a missing fact is "none".
pub(super) fn differing(a: &Facts, b: &Facts) -> Vec<(String, String, String)> {
    let mut keys: Vec<&String> = a.iter().map(|(k, _)| k).collect();
    for (k, _) in b {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let get = |f: &Facts, k: &str| {
        f.iter()
            .find(|(x, _)| x == k)
            .map_or_else(|| "none".to_string(), |(_, v)| v.clone())
    };
    keys.into_iter()
        .map(|k| (k.clone(), get(a, k), get(b, k)))
        .filter(|(_, x, y)| x != y)
        .collect()
}

/// `struct.field`, by index: every reference to a field in a declaration's facts is a path,
/// so that a rename of the field or its struct is matched before facts are compared.
pub(super) fn field_path(schema: &Schema, struct_index: StructId, field: usize) -> String {
    let s = &schema.abi.structs[struct_index];
    s.fields.get(field).map_or_else(
        || format!("{}.?", s.name),
        |f| format!("{}.{}", s.name, f.name),
    )
}

/// One side of a change of facts: `what = value; ...`.
pub(super) fn facts_shape(name: &str, facts: &[(String, String)]) -> Shape {
    let text: Vec<String> = facts.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    Shape {
        value: Some(text.join("; ")),
        ..named(name)
    }
}

/// A change with its rule's class.
pub(super) fn ruled(
    kind: ChangeKind,
    item: ItemKind,
    path: impl Into<String>,
    summary: impl Into<String>,
    reason: impl Into<String>,
) -> Change {
    change(rule_of(kind).class, kind, item, path, summary, reason)
}

/// `text` with each reference resolved to the new schema's names: a bare identifier that
/// `rename` maps (a struct, enum or constant) replaced, and a field path `struct.field`
/// read as the new struct's name and `field`'s new name in it (`field` maps an old struct's
/// name and an old field's name to the new field's); never a field's name as a struct's.
/// A word after `record ` stays: the facts of a file name its records so, and a record is
/// no struct even when it has a struct's name.
fn rename_words(
    text: &str,
    rename: &dyn Fn(&str) -> Option<String>,
    field: &dyn Fn(&str, &str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        if out.ends_with("record ") {
            out.push_str(word);
        } else if let Some((s, rest)) = word.split_once('.') {
            let (f, tail) = rest
                .split_once('.')
                .map_or((rest, None), |(f, t)| (f, Some(t)));
            out.push_str(&rename(s).unwrap_or_else(|| s.to_string()));
            out.push('.');
            out.push_str(&field(s, f).unwrap_or_else(|| f.to_string()));
            if let Some(t) = tail {
                out.push('.');
                out.push_str(t);
            }
        } else {
            out.push_str(&rename(word).unwrap_or_else(|| word.clone()));
        }
        word.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' || (ch == '.' && !word.is_empty()) {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

impl Cx<'_> {
    /// The facts that differ between an old declaration and a new one, the old one's names
    /// of renamed structs, enums and constants read as their new names in its values (what
    /// a fact is, its key, is the declaration's own word): a rename is its own change, not a
    /// change of every declaration that names the item.
    pub(super) fn renamed_differing(
        &self,
        old: &Facts,
        new: &Facts,
    ) -> Vec<(String, String, String)> {
        let (oa, na) = (&self.old.abi, &self.new.abi);
        let rename = |w: &str| -> Option<String> {
            let pick = |olds: Vec<&str>, map: &[Option<usize>], news: Vec<&str>| {
                let i = olds.iter().position(|o| *o == w)?;
                let n = news.get(map.get(i).copied().flatten()?)?;
                (*n != w).then(|| (*n).to_string())
            };
            pick(
                oa.structs.iter().map(|s| s.name.as_str()).collect(),
                &self.m.structs,
                na.structs.iter().map(|s| s.name.as_str()).collect(),
            )
            .or_else(|| {
                pick(
                    oa.enums.iter().map(|e| e.name.as_str()).collect(),
                    &self.m.enums,
                    na.enums.iter().map(|e| e.name.as_str()).collect(),
                )
            })
            .or_else(|| {
                pick(
                    oa.consts.iter().map(|c| c.name.as_str()).collect(),
                    &self.m.consts,
                    na.consts.iter().map(|c| c.name.as_str()).collect(),
                )
            })
        };
        // `struct.field` of the old schema: the new name of the field it is.
        let field = |st: &str, f: &str| -> Option<String> {
            let o = oa.find_struct(st)?;
            let fo = oa.structs[o].fields.iter().position(|x| x.name == f)?;
            let n = self.m.struct_new(o)?;
            let fi = self.m.field_new(o, fo)?;
            let name = &na.structs[n].fields.get(fi)?.name;
            (name != f).then(|| name.clone())
        };
        let old: Facts = old
            .iter()
            .map(|(k, v)| (k.clone(), rename_words(v, &rename, &field)))
            .collect();
        differing(&old, new)
    }

    /// Which old declaration each new one is, by index: the one of the same name (`name`);
    /// else, a rename, the one old declaration that no new one is named after whose facts
    /// (`facts`) are all the same (renamed structs read as their new names), when no other
    /// new declaration would match it too. `None`: a new declaration.
    pub(super) fn match_declarations<T>(
        &self,
        (old, new): (&[T], &[T]),
        name: impl Fn(&T) -> String,
        facts: impl Fn(&Schema, &T) -> Facts,
    ) -> Vec<Option<usize>> {
        let olds: Vec<(String, Facts)> =
            old.iter().map(|a| (name(a), facts(self.old, a))).collect();
        let news: Vec<(String, Facts)> =
            new.iter().map(|b| (name(b), facts(self.new, b))).collect();
        let mut out: Vec<Option<usize>> = news
            .iter()
            .map(|(n, _)| olds.iter().position(|(o, _)| o == n))
            .collect();
        let same = |i: usize, j: usize| self.renamed_differing(&olds[i].1, &news[j].1).is_empty();
        for j in 0..news.len() {
            if out[j].is_some() {
                continue;
            }
            let candidates: Vec<usize> = (0..olds.len())
                .filter(|&i| !out.contains(&Some(i)) && same(i, j))
                .collect();
            if let [i] = candidates[..] {
                let rivals = (0..news.len()).any(|k| k != j && out[k].is_none() && same(i, k));
                if !rivals {
                    out[j] = Some(i);
                }
            }
        }
        out
    }

    /// A declaration under a new name, all its facts the same.
    pub(super) fn declaration_renamed(
        &mut self,
        item: ItemKind,
        (old_path, new_path): (&str, &str),
        (old_span, new_span): (&Span, &Span),
    ) {
        let label = item.label();
        let c = ruled(
            ChangeKind::DeclarationRenamed,
            item,
            new_path,
            format!("{label} renamed from `{old_path}`"),
            format!(
                "the same bytes and practice under a new name; code that names `{old_path}` (what is generated from it: types, accessors, functions) must say `{new_path}`"
            ),
        )
        .sides(Some(named(old_path)), Some(named(new_path)))
        .spans(Some(old_span), Some(new_span));
        self.push(c);
    }

    /// Declarations of a kind the old schema has none of: one change that says they are
    /// described for the first time, and `true`, so that they are not compared one by one.
    pub(super) fn first_described(
        &mut self,
        what: &str,
        old_has: bool,
        new_names: &[String],
    ) -> bool {
        if old_has || new_names.is_empty() {
            return false;
        }
        let c = ruled(
            ChangeKind::FirstDescribed,
            ItemKind::Abi,
            format!("abi.{}", what.replace(' ', "_")),
            format!("{what} described for the first time"),
            format!(
                "{} declares no {what}: the new declarations describe what parties built at {} must already do",
                self.old_v(),
                self.old_v()
            ),
        )
        .sides(
            None,
            Some(Shape {
                value: Some(new_names.join(", ")),
                ..named(what)
            }),
        )
        .spans(None, Some(&self.new.abi.span));
        self.push(c);
        true
    }

    /// A declaration that is new: `kind` when it lies over a struct the old schema has (so
    /// old producers use those bytes without it), else [`ChangeKind::DeclarationAdded`].
    pub(super) fn declaration_added(
        &mut self,
        (kind, item): (ChangeKind, ItemKind),
        name: &str,
        over: Option<StructId>,
        facts: &Facts,
        span: &Span,
    ) {
        let old_struct = over.and_then(|n| {
            self.m
                .struct_old(n)
                .map(|o| self.old.abi.structs[o].name.clone())
        });
        let label = item.label();
        let c = match old_struct {
            Some(s) => ruled(
                kind,
                item,
                name,
                format!("{label} added"),
                format!("`{s}` exists in {}: {}", self.old_v(), rule_of(kind).reason),
            ),
            None => ruled(
                ChangeKind::DeclarationAdded,
                item,
                name,
                format!("{label} added"),
                format!(
                    "a new {label} over structs {} does not have: nothing old changes",
                    self.old_v()
                ),
            ),
        };
        let c = c
            .sides(None, Some(facts_shape(name, facts)))
            .spans(None, Some(span));
        self.push(c);
    }

    /// A declaration the new schema no longer has.
    pub(super) fn declaration_removed(
        &mut self,
        (kind, item): (ChangeKind, ItemKind),
        name: &str,
        facts: &Facts,
        span: &Span,
    ) {
        let c = ruled(
            kind,
            item,
            name,
            format!("{} removed", item.label()),
            rule_of(kind).reason,
        )
        .sides(Some(facts_shape(name, facts)), None)
        .spans(Some(span), None);
        self.push(c);
    }

    /// A declaration of its own the old schema does not have (a directory's mapping, an
    /// event's object): `kind`, `title`, the reason `why`, its facts on the new side.
    pub(super) fn declaration_new(
        &mut self,
        (kind, item): (ChangeKind, ItemKind),
        (name, title, why): (&str, &str, String),
        facts: &Facts,
        span: &Span,
    ) {
        let c = ruled(kind, item, name, title, why)
            .sides(None, Some(facts_shape(name, facts)))
            .spans(None, Some(span));
        self.push(c);
    }

    /// The facts that differ between two versions of a declaration, as one change of `kind`;
    /// nothing when they are the same.
    pub(super) fn facts_changed(
        &mut self,
        (kind, item): (ChangeKind, ItemKind),
        path: &str,
        diffs: &[(String, String, String)],
        (old_span, new_span): (&Span, &Span),
    ) -> Option<usize> {
        if diffs.is_empty() {
            return None;
        }
        let what: Vec<&str> = diffs.iter().map(|(k, _, _)| k.as_str()).collect();
        let old: Facts = diffs
            .iter()
            .map(|(k, o, _)| (k.clone(), o.clone()))
            .collect();
        let new: Facts = diffs
            .iter()
            .map(|(k, _, n)| (k.clone(), n.clone()))
            .collect();
        let c = ruled(
            kind,
            item,
            path,
            format!("{} changed: {}", item.label(), what.join(", ")),
            rule_of(kind).reason,
        )
        .sides(Some(facts_shape(path, &old)), Some(facts_shape(path, &new)))
        .spans(Some(old_span), Some(new_span));
        self.push(c);
        Some(self.changes.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_renamed_whole() {
        let r = |w: &str| (w == "stats").then(|| "gauges".to_string());
        let f = |s: &str, f: &str| (s == "stats" && f == "seq").then(|| "count".to_string());
        assert_eq!(
            rename_words("stats.seq, stats_x; stats", &r, &f),
            "gauges.count, stats_x; gauges"
        );
        // A field named like a struct is the field: `stats.stats` is struct `stats`'s field.
        assert_eq!(rename_words("stats.stats", &r, &f), "gauges.stats");
        assert_eq!(rename_words("record stats", &r, &f), "record stats");
    }

    #[test]
    fn differing_facts_name_what_changed_and_what_is_missing() {
        let f = |v: &[(&str, &str)]| -> Facts {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let a = f(&[("writer", "host"), ("reader", "client"), ("guards", "rest")]);
        let b = f(&[("writer", "client"), ("reader", "client"), ("counter", "x")]);
        assert_eq!(
            differing(&a, &b),
            vec![
                ("writer".into(), "host".into(), "client".into()),
                ("guards".into(), "rest".into(), "none".into()),
                ("counter".into(), "none".into(), "x".into()),
            ]
        );
        assert!(differing(&a, &a).is_empty());
    }
}
