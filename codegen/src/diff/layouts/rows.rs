//! Layout rows compared: each row of a table added (required or optional), made optional or
//! required, given another owner, changed in what it holds or needs, or removed.

use crate::diff::change::{ChangeKind as K, FieldSite, ItemKind, Shape};
use crate::diff::compute::{Cx, named};
use crate::diff::facts::{Facts, ruled};
use crate::ir::attach::{Holds, LayoutTable, Row};
use crate::schema::Schema;

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
                .get(layout.index())
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
    r.owner
        .and_then(|i| schema.protocols.get(i.index()))
        .map_or_else(
            || "no session".to_string(),
            |p| format!("session `{}`", p.name),
        )
}

/// What a row's size follows from: the struct it holds, or the layout of its blocks.
fn row_elem(schema: &Schema, r: &Row) -> Option<String> {
    match &r.holds {
        Holds::Struct { struct_index, .. } => Some(schema.abi.structs[*struct_index].name.clone()),
        Holds::Blocks { layout, .. } => schema
            .attach
            .layouts
            .get(layout.index())
            .map(|l| l.name.clone()),
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
    /// Each row of new table `b` against the row of the same name in old table `a`: added,
    /// made optional or required, given another owner, or changed; then the rows removed.
    pub(super) fn compare_rows(&mut self, a: &LayoutTable, b: &LayoutTable) {
        let old = self.old;
        let old_v = self.old_v();
        for r in &b.rows {
            let path = format!("{}.{}", b.name, r.name);
            let Some(q) = a.rows.iter().find(|q| q.name == r.name) else {
                self.row_added(b, r, &path);
                continue;
            };
            self.row_optional_changed((a, b), (q, r), &path);
            self.row_owner_changed((a, b), (q, r), &path);
            self.row_facts_changed((a, b), (q, r), path);
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

    /// Row `r` of new table `b`, at `path`, which the old table did not have: compatible
    /// when optional or newer than the old version.
    fn row_added(&mut self, b: &LayoutTable, r: &Row, path: &str) {
        let new = self.new;
        let old_v = self.old_v();
        let index = new
            .abi
            .enums
            .get(b.index_enum)
            .map_or("?", |e| e.name.as_str());
        let c = if r.optional || r.since.is_some() {
            ruled(
                K::LayoutRowAddedOptional,
                ItemKind::Row,
                path,
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
                path,
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
    }

    /// A row made optional, or required.
    fn row_optional_changed(
        &mut self,
        (a, b): (&LayoutTable, &LayoutTable),
        (q, r): (&Row, &Row),
        path: &str,
    ) {
        if q.optional == r.optional {
            return;
        }
        let old_v = self.old_v();
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
            path,
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

    /// A row whose blocks another session owns.
    fn row_owner_changed(
        &mut self,
        (a, b): (&LayoutTable, &LayoutTable),
        (q, r): (&Row, &Row),
        path: &str,
    ) {
        let (old, new) = (self.old, self.new);
        let old_v = self.old_v();
        let (owner_a, owner_b) = (owner_of(old, q), owner_of(new, r));
        if owner_a == owner_b {
            return;
        }
        let word = |schema: &Schema, r: &Row| Shape {
            value: Some(
                r.owner
                    .and_then(|i| schema.protocols.get(i.index()))
                    .map_or_else(
                        || "no owner".to_string(),
                        |p| format!("owner = \"{}\"", p.name),
                    ),
            ),
            ..named(&r.name)
        };
        let c = ruled(
        K::LayoutRowOwnerChanged,
        ItemKind::Row,
        path,
        "layout row's owner changed",
        format!(
            "a host built at {old_v} gives block i to row i of {owner_a} and restores it when that row is freed, and a host built at the new version does so for {owner_b}: a client's block is reset under it, or never given back"
        ),
    )
    .sides(Some(word(old, q)), Some(word(new, r)))
    .spans(Some(&a.span), Some(&b.span));
        self.push(c);
    }

    /// A row whose facts changed: noted on the followed geometry change that caused it, when
    /// one did, else a change of its own.
    fn row_facts_changed(
        &mut self,
        (a, b): (&LayoutTable, &LayoutTable),
        (q, r): (&Row, &Row),
        path: String,
    ) {
        let (old, new) = (self.old, self.new);
        let diffs = self.renamed_differing(&row_facts(old, q, false), &row_facts(new, r, false));
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
                return;
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
}

/// A row as a diff side: its facts and whether it is optional.
fn row_shape(schema: &Schema, r: &Row) -> Shape {
    Shape {
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
    }
}
