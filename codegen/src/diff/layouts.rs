//! Attaching compared: each `version` handshake (magic, version and size fields, liveness),
//! each `[[layout]]` table (header, table, index enum, extent, count) and each of its rows
//! (added required or optional, removed, made optional or required, what it holds and the
//! least bytes it needs). A row that needs other bytes because a struct it holds changed is
//! an effect of that change. And what a handshake makes of its struct's fields: their
//! `since` is no documentation, and a field in the middle cannot carry one.

mod rows;

use crate::ir::Version;
use crate::ir::attach::{Handshake, LayoutTable};
use crate::schema::Schema;

use super::change::{Change, ChangeKind as K, ItemKind};
use super::compute::Cx;
use super::facts::{Facts, field_path};
use super::rules::rule_of;
use crate::ir::StructId;

fn handshake_facts(schema: &Schema, h: &Handshake) -> Facts {
    let mut f: Facts = Vec::new();
    if let Some((s, c)) = &h.magic {
        let name = schema.abi.consts.get(*c).map_or("?", |c| c.name.as_str());
        f.push(("magic".into(), format!("{} = {name}", s.path)));
    }
    f.push(("major".into(), h.major.path.clone()));
    f.push(("minor".into(), h.minor.path.clone()));
    if let Some(s) = &h.size {
        f.push(("size".into(), s.path.clone()));
    }
    if let Some(l) = &h.liveness {
        f.push((
            "state".into(),
            format!("{} = {}", l.state.path, l.running_name),
        ));
        if let Some(g) = &l.generation {
            f.push(("generation".into(), g.path.clone()));
        }
    }
    f
}

fn layout_facts(schema: &Schema, l: &LayoutTable) -> Facts {
    let mut f: Facts = vec![
        ("header".into(), schema.abi.structs[l.header].name.clone()),
        ("table".into(), field_path(schema, l.header, l.table_field)),
        (
            "index".into(),
            schema
                .abi
                .enums
                .get(l.index_enum)
                .map_or_else(|| "?".into(), |e| e.name.clone()),
        ),
        ("max_rows".into(), l.max_rows.to_string()),
        ("row_size".into(), l.row_size.to_string()),
    ];
    if let Some(s) = &l.extent {
        f.push(("extent".into(), s.path.clone()));
    }
    if let Some(s) = &l.row_count {
        f.push(("count".into(), s.path.clone()));
    }
    f
}

/// What a row holds, in the schema's words, and the least bytes it needs. With `masked`, a
/// number the row follows from the writer's geometry (a struct row's `bytes`, a blocks row's
/// `stride`) reads `followed`: readers of either version take it from the header.
impl Cx<'_> {
    /// A new field `fi` of struct `n` (new schema), in `ch`: in a struct with a version
    /// handshake, a field with `since` must follow every field without one, so in the middle
    /// of older fields it cannot carry one. Then no `since` is asked for, and a field in
    /// padding gets advice that a user can apply.
    pub(super) fn check_since_in_handshake(&self, n: StructId, fi: usize, ch: &mut Change) {
        let b = &self.new.abi.structs[n];
        let g = &b.fields[fi];
        let handshake = self
            .new
            .attach
            .handshakes
            .iter()
            .any(|h| h.struct_index == n);
        let can_carry_since = !handshake || b.fields[fi + 1..].iter().all(|h| h.since.is_some());
        ch.since_check = Some((g.since, can_carry_since));
        if !can_carry_since && matches!(ch.kind, K::PaddingReused | K::TailPaddingReused) {
            let last = b.fields.last().map_or("", |h| h.name.as_str());
            ch.advice = format!(
                "leave `since` out: `{}` has a version handshake, so a field with `since` must follow every field without one, and `{last}` has none. Readers built at the new version read what producers built at {} left in these bytes (zero when they zero their padding); if zero cannot mean \"not set\", append the field after `{last}` with since instead{}, or bump the major version",
                b.name,
                self.old_v(),
                if b.extensible {
                    ""
                } else {
                    " (the struct must be extensible)"
                }
            );
        }
    }

    /// A field appended to struct `n` (new schema) without `since`, in `ch`: where the struct
    /// has a version handshake, every producer must write it, and producers built at the old
    /// version end before it: breaking, one voice. The fix is the `since` that makes it
    /// compatible, or a major bump; the policy asks nothing more of its `since`.
    pub(super) fn appended_without_since(&self, n: StructId, ch: &mut Change) {
        let Some(h) = self
            .new
            .attach
            .handshakes
            .iter()
            .find(|h| h.struct_index == n)
        else {
            return;
        };
        let rule = rule_of(K::FieldAppendedWithoutSince);
        let name = &self.new.abi.structs[h.struct_index].name;
        let field = ch.path.rsplit('.').next().unwrap_or_default().to_string();
        ch.kind = rule.kind;
        ch.severity = rule.class;
        ch.summary = "field appended without since".into();
        ch.reason = format!(
            "`{name}` has a version handshake, and `{field}` has no since: every producer must write it, so a reader built at the new version refuses the images of producers built at {}, which end before it",
            self.old_v()
        );
        ch.advice = format!(
            "give the field since = \"{}\" (then it is compatible and a minor bump does), or bump the major version",
            self.next_version()
        );
        ch.since_check = None;
    }

    /// The changes from `first` on, of a field of struct `n` (new schema): in a struct with a
    /// version handshake, `since` says which producers write the field, so a change of it
    /// is no documentation there (HANDSHAKE_SINCE_CHANGED).
    pub(super) fn since_in_handshake_is_no_doc(&mut self, n: StructId, first: usize) {
        if !self
            .new
            .attach
            .handshakes
            .iter()
            .any(|h| h.struct_index == n)
        {
            return;
        }
        let (name, old_v) = (self.new.abi.structs[n].name.clone(), self.old_v());
        for c in &mut self.changes[first..] {
            if c.kind == K::SinceChanged {
                let rule = rule_of(K::HandshakeSinceChanged);
                c.kind = rule.kind;
                c.severity = rule.class;
                c.reason = format!(
                    "`{name}` has a version handshake: its fields' `since` says which producers write them, so a reader built at the new version requires this field of other producers than one built at {old_v} does"
                );
                c.advice = rule.fix.to_string();
            }
        }
    }

    /// The version a new row's `since` should say: the new version when it is a step up,
    /// else the next minor version.
    pub(super) fn next_version(&self) -> Version {
        let (o, n) = (self.old.abi.version, self.new.abi.version);
        if n > o {
            n
        } else {
            Version {
                major: o.major,
                minor: o.minor.saturating_add(1),
            }
        }
    }

    pub(super) fn compare_attach(&mut self) {
        let new = self.new;
        let handshakes: Vec<String> = new
            .attach
            .handshakes
            .iter()
            .map(|h| format!("{}.version", new.abi.structs[h.struct_index].name))
            .collect();
        if !self.first_described(
            "handshakes",
            !self.old.attach.handshakes.is_empty(),
            &handshakes,
        ) {
            self.compare_handshakes();
        }
        let layouts: Vec<String> = new
            .attach
            .layouts
            .iter()
            .map(|l| format!("layout {}", l.name))
            .collect();
        if !self.first_described("layouts", !self.old.attach.layouts.is_empty(), &layouts) {
            self.compare_layouts();
        }
    }

    fn compare_handshakes(&mut self) {
        let (old, new) = (self.old, self.new);
        for b in &new.attach.handshakes {
            let s = &new.abi.structs[b.struct_index];
            let path = format!("{}.version", s.name);
            let facts_b = handshake_facts(new, b);
            let a = self
                .m
                .struct_old(b.struct_index)
                .and_then(|o| old.attach.handshakes.iter().find(|h| h.struct_index == o));
            let Some(a) = a else {
                self.declaration_added(
                    (K::HandshakeAdded, ItemKind::Handshake),
                    &path,
                    Some(b.struct_index),
                    &facts_b,
                    &s.span,
                );
                continue;
            };
            let os = &old.abi.structs[a.struct_index];
            let diffs = self.renamed_differing(&handshake_facts(old, a), &facts_b);
            self.facts_changed(
                (K::HandshakeChanged, ItemKind::Handshake),
                &path,
                &diffs,
                (&os.span, &s.span),
            );
        }
        for a in &old.attach.handshakes {
            let kept = self
                .m
                .struct_new(a.struct_index)
                .is_some_and(|n| new.attach.handshakes.iter().any(|h| h.struct_index == n));
            if !kept {
                let s = &old.abi.structs[a.struct_index];
                let facts = handshake_facts(old, a);
                self.declaration_removed(
                    (K::HandshakeRemoved, ItemKind::Handshake),
                    &format!("{}.version", s.name),
                    &facts,
                    &s.span,
                );
            }
        }
    }

    fn compare_layouts(&mut self) {
        let (old, new) = (self.old, self.new);
        let matched = self.match_declarations(
            (&old.attach.layouts, &new.attach.layouts),
            |d| d.name.clone(),
            layout_facts,
        );
        for (b, m) in new.attach.layouts.iter().zip(&matched) {
            let facts_b = layout_facts(new, b);
            let Some(a) = m.map(|i| &old.attach.layouts[i]) else {
                self.declaration_added(
                    (K::LayoutAdded, ItemKind::Layout),
                    &b.name,
                    Some(b.header),
                    &facts_b,
                    &b.span,
                );
                continue;
            };
            if a.name != b.name {
                self.declaration_renamed(ItemKind::Layout, (&a.name, &b.name), (&a.span, &b.span));
            }
            // A renamed header or index enum is the same one: its rename is its own change.
            let same_index = self.m.enums.get(a.index_enum) == Some(&Some(b.index_enum));
            let same_header = self.m.struct_new(a.header) == Some(b.header);
            let diffs: Vec<_> = self
                .renamed_differing(&layout_facts(old, a), &facts_b)
                .into_iter()
                .filter(|(k, _, _)| !(k == "index" && same_index || k == "header" && same_header))
                .collect();
            self.facts_changed(
                (K::LayoutChanged, ItemKind::Layout),
                &b.name,
                &diffs,
                (&a.span, &b.span),
            );
            self.compare_rows(a, b);
            self.cosmetic_edits(
                ItemKind::Layout,
                &b.name,
                (&a.doc, &b.doc),
                (None, None),
                &a.span,
                &b.span,
            );
        }
        for (i, a) in old.attach.layouts.iter().enumerate() {
            if !matched.contains(&Some(i)) {
                let facts = layout_facts(old, a);
                self.declaration_removed(
                    (K::LayoutRemoved, ItemKind::Layout),
                    &a.name,
                    &facts,
                    &a.span,
                );
            }
        }
    }
}
