//! Attaching compared: each `version` handshake (magic, version and size fields, liveness),
//! each `[[layout]]` table (header, table, index enum, extent, count) and each of its rows
//! (added required or optional, removed, made optional or required, what it holds and the
//! least bytes it needs). A row that needs other bytes because a struct it holds changed is
//! an effect of that change. And what a handshake makes of its struct's fields: their
//! `since` is no documentation, and a field in the middle cannot carry one.

use crate::ir::Version;
use crate::ir::attach::{Handshake, Holds, LayoutTable, Row};
use crate::schema::Schema;

use super::change::{Change, ChangeKind as K, FieldSite, ItemKind, Shape};
use super::compute::{Cx, named};
use super::facts::{Facts, field_path, ruled};
use super::rules::rule_of;

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
fn row_facts(schema: &Schema, r: &Row, masked: bool) -> Facts {
    let follows_bytes = masked && r.need.as_ref().is_some_and(|n| !n.terms.is_empty());
    let holds = match &r.holds {
        Holds::Struct {
            struct_index,
            count,
            bytes,
        } => format!(
            "struct {} × {count} + {} bytes",
            schema.abi.structs[*struct_index].name,
            if follows_bytes {
                "followed".to_string()
            } else {
                bytes.to_string()
            }
        ),
        Holds::Ring { ring } => format!(
            "ring {}",
            schema
                .access
                .rings
                .get(*ring)
                .map_or("?", |r| r.name.as_str())
        ),
        Holds::Blocks {
            layout,
            count,
            stride,
        } => format!(
            "blocks {} × {count}, stride {}",
            schema
                .attach
                .layouts
                .get(*layout)
                .map_or("?", |l| l.name.as_str()),
            if masked && r.follows.size.is_some() {
                "followed".to_string()
            } else {
                stride.to_string()
            }
        ),
        Holds::Bytes { bytes } => format!("bytes {bytes}"),
    };
    vec![
        ("holds".into(), holds),
        ("least size".into(), r.min_size.to_string()),
        ("align".into(), r.align.to_string()),
    ]
}

/// The `geometry` expressions a row of `table` follows: of its need and its stride or slots.
fn followed_exprs(schema: &Schema, table: &LayoutTable, r: &Row) -> Vec<String> {
    let mut at: Vec<usize> = r
        .need
        .iter()
        .flat_map(|n| n.terms.iter().flat_map(|t| t.geometry.iter().copied()))
        .collect();
    at.extend(r.follows.count);
    at.extend(r.follows.size);
    at.into_iter()
        .filter_map(|i| table.geometry.get(i))
        .filter_map(|g| schema.attach.geometry.get(g.geometry))
        .map(|g| g.expr.clone())
        .collect()
}

/// The session whose rows own a blocks row's blocks, by name.
fn owner_of(schema: &Schema, r: &Row) -> String {
    r.owner.and_then(|i| schema.protocols.get(i)).map_or_else(
        || "no session".to_string(),
        |p| format!("session `{}`", p.name),
    )
}

/// What a row's size follows from: the struct it holds, or the layout of its blocks.
fn row_elem(schema: &Schema, r: &Row) -> Option<String> {
    match &r.holds {
        Holds::Struct { struct_index, .. } => Some(schema.abi.structs[*struct_index].name.clone()),
        Holds::Blocks { layout, .. } => schema.attach.layouts.get(*layout).map(|l| l.name.clone()),
        Holds::Ring { .. } | Holds::Bytes { .. } => None,
    }
}

fn optional_words(r: &Row) -> String {
    match (r.optional, r.since) {
        (true, Some(s)) => format!("optional, since {s}"),
        (true, None) => "optional".into(),
        (false, Some(s)) => format!("since {s}"),
        (false, None) => "required".into(),
    }
}

impl Cx<'_> {
    /// A new field `fi` of struct `n` (new schema), in `ch`: in a struct with a version
    /// handshake, a field with `since` must follow every field without one, so in the middle
    /// of older fields it cannot carry one. Then no `since` is asked for, and a field in
    /// padding gets advice that a user can apply.
    pub(super) fn check_since_in_handshake(&self, n: usize, fi: usize, ch: &mut Change) {
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
    pub(super) fn appended_without_since(&self, n: usize, ch: &mut Change) {
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
    pub(super) fn since_in_handshake_is_no_doc(&mut self, n: usize, first: usize) {
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
            let kept = self.m.structs[a.struct_index]
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
            let same_header = self.m.structs.get(a.header) == Some(&Some(b.header));
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

    fn compare_rows(&mut self, a: &LayoutTable, b: &LayoutTable) {
        let (old, new) = (self.old, self.new);
        let old_v = self.old_v();
        let index = new
            .abi
            .enums
            .get(b.index_enum)
            .map_or("?", |e| e.name.as_str());
        let row_shape = |schema: &Schema, r: &Row| Shape {
            value: Some(format!(
                "{}; {}",
                row_facts(schema, r, false)
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join("; "),
                optional_words(r)
            )),
            ..named(&r.name)
        };
        for r in &b.rows {
            let path = format!("{}.{}", b.name, r.name);
            let Some(q) = a.rows.iter().find(|q| q.name == r.name) else {
                let c = if r.optional || r.since.is_some() {
                    ruled(
                        K::LayoutRowAddedOptional,
                        ItemKind::Row,
                        &path,
                        "layout row added (optional)",
                        format!(
                            "it is {}: a reader built at the new version accepts a {old_v} image without it, and readers built at {old_v} do not look for it",
                            optional_words(r)
                        ),
                    )
                } else {
                    let target = self.next_version();
                    let mut c = ruled(
                        K::LayoutRowAdded,
                        ItemKind::Row,
                        &path,
                        "required layout row added",
                        format!(
                            "every producer must write it, and producers built at {old_v} do not: a reader built at the new version refuses their images (region_missing: {} is absent)",
                            r.name
                        ),
                    );
                    c.advice = format!(
                        "give the value `{index}.{}` since = \"{target}\", or the row optional = true; or bump the major version",
                        r.name
                    );
                    c
                };
                let c = c
                    .sides(None, Some(row_shape(new, r)))
                    .spans(None, Some(&b.span));
                self.push(c);
                continue;
            };
            if q.optional != r.optional {
                let reason = if r.optional {
                    format!(
                        "a producer built at the new version may leave it out, and a reader built at {old_v} requires it: it refuses that image"
                    )
                } else {
                    format!(
                        "a producer built at {old_v} may have left it out, and a reader built at the new version requires it: it refuses that image"
                    )
                };
                let c = ruled(
                    K::LayoutRowOptionalChanged,
                    ItemKind::Row,
                    &path,
                    if r.optional {
                        "layout row made optional"
                    } else {
                        "layout row made required"
                    },
                    reason,
                )
                .sides(
                    Some(Shape {
                        value: Some(optional_words(q)),
                        ..named(&q.name)
                    }),
                    Some(Shape {
                        value: Some(optional_words(r)),
                        ..named(&r.name)
                    }),
                )
                .spans(Some(&a.span), Some(&b.span));
                self.push(c);
            }
            let (owner_a, owner_b) = (owner_of(old, q), owner_of(new, r));
            if owner_a != owner_b {
                let word = |schema: &Schema, r: &Row| Shape {
                    value: Some(r.owner.and_then(|i| schema.protocols.get(i)).map_or_else(
                        || "no owner".to_string(),
                        |p| format!("owner = \"{}\"", p.name),
                    )),
                    ..named(&r.name)
                };
                let c = ruled(
                    K::LayoutRowOwnerChanged,
                    ItemKind::Row,
                    &path,
                    "layout row's owner changed",
                    format!(
                        "a host built at {old_v} gives block i to row i of {owner_a} and restores it when that row is freed, and a host built at the new version does so for {owner_b}: a client's block is reset under it, or never given back"
                    ),
                )
                .sides(Some(word(old, q)), Some(word(new, r)))
                .spans(Some(&a.span), Some(&b.span));
                self.push(c);
            }
            let diffs =
                self.renamed_differing(&row_facts(old, q, false), &row_facts(new, r, false));
            // A number the row follows from the header, changed by a constant that readers
            // follow: that change says so, and names the row as one it sizes.
            if !diffs.is_empty()
                && self
                    .renamed_differing(&row_facts(old, q, true), &row_facts(new, r, true))
                    .is_empty()
            {
                let exprs = followed_exprs(new, b, r);
                let names = |e: &String| -> Vec<String> {
                    e.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .map(str::to_string)
                        .collect()
                };
                let geometry = self.changes.iter().position(|c| {
                    c.kind == K::GeometryFollowedChanged
                        && exprs.iter().any(|e| names(e).contains(&c.path))
                });
                if let Some(g) = geometry {
                    self.changes[g].embedded_in.push(path);
                    continue;
                }
            }
            if let Some(i) = self.facts_changed(
                (K::LayoutRowChanged, ItemKind::Row),
                &path,
                &diffs,
                (&a.span, &b.span),
            ) {
                self.changes[i].site = Some(FieldSite {
                    owner: b.name.clone(),
                    pos: r.index,
                    elem: row_elem(new, r),
                    len: None,
                });
            }
        }
        for q in &a.rows {
            if !b.rows.iter().any(|r| r.name == q.name) {
                let path = format!("{}.{}", a.name, q.name);
                let c = ruled(
                    K::LayoutRowRemoved,
                    ItemKind::Row,
                    &path,
                    "layout row removed",
                    format!(
                        "readers built at {old_v} look for it in images that no longer have it"
                    ),
                )
                .sides(Some(row_shape(old, q)), None)
                .spans(Some(&a.span), None);
                self.push(c);
            }
        }
    }
}
