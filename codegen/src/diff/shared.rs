//! Shared memory compared: the parties, who writes each struct and field, each field's access
//! (plain, atomic, cas), the seqlocks (counter, guards, writer and reader) and the rings.
//! Structs and fields are paired as the struct comparison pairs them, by name.

use crate::ir::access::{Guard, Parties, Ring, RingKind, Seqlock};
use crate::ir::attach::Holds;
use crate::schema::Schema;

use super::change::{ChangeKind as K, FieldSite, ItemKind, Shape};
use super::compute::{Cx, named};
use super::facts::{Facts, field_path, ruled};
use crate::ir::StructId;

fn parties(schema: &Schema, p: &Parties) -> String {
    let d = p.describe(&schema.access.parties);
    if d.is_empty() {
        "nobody".to_string()
    } else {
        d
    }
}

fn seqlock_facts(schema: &Schema, s: &Seqlock) -> Facts {
    let st = &schema.abi.structs[s.struct_index];
    let counter = &schema.layout.of(s.struct_index).fields[s.counter];
    vec![
        (
            "counter".into(),
            format!(
                "{} (bytes {})",
                field_path(schema, s.struct_index, s.counter),
                span_text(counter.offset, counter.offset + counter.size)
            ),
        ),
        ("struct".into(), st.name.clone()),
        ("guards".into(), guarded_bytes(schema, s)),
        ("writer".into(), parties(schema, &s.writers)),
        ("reader".into(), parties(schema, &s.readers)),
    ]
}

/// `seqlock_facts` as a report shows a seqlock added or removed: the guarded bytes with the
/// names that cover them.
fn seqlock_shown(schema: &Schema, s: &Seqlock) -> Facts {
    seqlock_facts(schema, s)
        .into_iter()
        .map(|(k, v)| {
            if k == "guards" {
                let v = format!("{v} ({})", guard_names(schema, s));
                (k, v)
            } else {
                (k, v)
            }
        })
        .collect()
}

fn span_text(start: u64, end: u64) -> String {
    format!("{start}..{end}")
}

/// Each guard of a seqlock as the bytes of its struct it covers and its name (a field path
/// or a trailer part), in the order of their offsets.
fn guard_spans(schema: &Schema, s: &Seqlock) -> Vec<(u64, u64, String)> {
    let st = &schema.abi.structs[s.struct_index];
    let fields = &schema.layout.of(s.struct_index).fields;
    let trailer = schema.access.structs.get(s.struct_index.index());
    let mut spans: Vec<(u64, u64, String)> = s
        .guards
        .iter()
        .filter_map(|g| match *g {
            Guard::Field(i) => fields.get(i).map(|f| {
                let name = field_path(schema, s.struct_index, i);
                (f.offset, f.offset + f.size, name)
            }),
            Guard::Trailer(i) => trailer.and_then(|t| t.trailer.get(i)).map(|p| {
                (
                    p.offset,
                    p.offset + p.size,
                    format!("{}.{}", st.name, p.name),
                )
            }),
        })
        .collect();
    spans.sort();
    spans
}

/// The bytes a seqlock guards, as the merged ranges of its struct they cover
/// (`bytes 8..16 + 20..24`): what a writer writes in the counter's odd window and a reader
/// takes as guarded. Two versions whose guards name different fields over the same bytes
/// (reserved bytes given a name, a guard renamed) guard the same bytes, and readers and
/// writers built at either agree on them.
fn guarded_bytes(schema: &Schema, s: &Seqlock) -> String {
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (start, end, _) in guard_spans(schema, s) {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    if merged.is_empty() {
        return "none".to_string();
    }
    let text: Vec<String> = merged.iter().map(|&(a, b)| span_text(a, b)).collect();
    format!("bytes {}", text.join(" + "))
}

/// The names of a seqlock's guards, in the order of their offsets. Shown beside the bytes
/// when those change, never compared.
fn guard_names(schema: &Schema, s: &Seqlock) -> String {
    let names: Vec<String> = guard_spans(schema, s)
        .into_iter()
        .map(|(_, _, n)| n)
        .collect();
    names.join(", ")
}

/// A slots ring's count and size as a reader of `ring` takes them: followed from the header
/// field a layout's row of the ring names (`follows`), or the schema's own number. A value
/// readers follow is no fact of the ring: changing it is the constant's change, which the
/// geometry rule classifies (GEOMETRY_FOLLOWED_CHANGED), and a field that holds it is
/// named by its path, so that a rename is matched before comparing.
fn ring_geometry(schema: &Schema, ring: usize, count: u64, size: u64) -> (String, String) {
    let follows = schema.attach.layouts.iter().find_map(|l| {
        l.rows
            .iter()
            .find(|r| r.holds == Holds::Ring { ring })
            .map(|r| (l, r.follows))
    });
    let followed = |which: Option<usize>, value: u64| {
        let g = which
            .zip(follows)
            .and_then(|(i, (l, _))| l.geometry.get(i))
            .and_then(|t| schema.attach.geometry.get(t.geometry));
        g.map_or_else(
            || value.to_string(),
            |g| {
                format!(
                    "followed from {}",
                    field_path(schema, g.struct_index, g.field)
                )
            },
        )
    };
    (
        followed(follows.and_then(|(_, f)| f.count), count),
        followed(follows.and_then(|(_, f)| f.size), size),
    )
}

/// `ring`'s position in its schema's rings (a ring is always one of them).
fn ring_index(schema: &Schema, ring: &Ring) -> usize {
    schema
        .access
        .rings
        .iter()
        .position(|r| std::ptr::eq(r, ring))
        .unwrap_or(usize::MAX)
}

fn ring_facts(schema: &Schema, ring: &Ring) -> (Facts, StructId) {
    let at = ring_index(schema, ring);
    match &ring.kind {
        RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            payload,
            publish_seq,
            ..
        } => {
            let geometry = ring_geometry(schema, at, *slot_count, *slot_size);
            let lock = schema.access.seqlocks.get(*seqlock);
            // Stated only when declared: a ring without one compares as it always did.
            let stamp = publish_seq.and_then(|f| {
                let s = lock.and_then(|l| schema.abi.structs.get(l.struct_index.index()))?;
                Some(("publish_seq".into(), s.fields.get(f)?.name.clone()))
            });
            let payload = lock
                .and_then(|l| schema.access.structs.get(l.struct_index.index()))
                .and_then(|s| s.trailer.get(*payload))
                .map_or_else(|| "?".to_string(), |p| p.name.clone());
            (
                vec![
                    ("kind".into(), "slots".into()),
                    (
                        "head".into(),
                        field_path(schema, head.struct_index, head.field),
                    ),
                    ("slot_count".into(), geometry.0),
                    ("slot_size".into(), geometry.1),
                    (
                        "seqlock".into(),
                        lock.map_or_else(|| "?".to_string(), |l| l.name.clone()),
                    ),
                    ("payload".into(), payload),
                ]
                .into_iter()
                .chain(stamp)
                .collect(),
                head.struct_index,
            )
        }
        RingKind::Events {
            total,
            entries,
            capacity,
        } => (
            vec![
                ("kind".into(), "events".into()),
                (
                    "total".into(),
                    field_path(schema, total.struct_index, total.field),
                ),
                (
                    "entries".into(),
                    field_path(schema, entries.struct_index, entries.field),
                ),
                ("capacity".into(), capacity.to_string()),
            ],
            total.struct_index,
        ),
    }
}

impl Cx<'_> {
    pub(super) fn compare_shared(&mut self) {
        let (new, old_has) = (self.new, !self.old.access.parties.is_empty());
        let mut declared: Vec<String> = Vec::new();
        if !new.access.parties.is_empty() {
            declared.push("parties and writers".into());
            for ((one, many), n) in [
                (("seqlock", "seqlocks"), new.access.seqlocks.len()),
                (("ring", "rings"), new.access.rings.len()),
                (("protocol", "protocols"), new.protocols.len()),
                (("directory", "directories"), new.directories.len()),
                (("event", "events"), new.events.len()),
            ] {
                match n {
                    0 => {}
                    1 => declared.push(format!("1 {one}")),
                    _ => declared.push(format!("{n} {many}")),
                }
            }
        }
        if self.first_described("shared memory", old_has, &declared) {
            return;
        }
        self.compare_parties();
        self.compare_access();
        self.compare_seqlocks();
        self.compare_rings();
    }

    fn compare_parties(&mut self) {
        let (old, new) = (&self.old.access.parties, &self.new.access.parties);
        let span = &self.new.abi.span;
        let old_span = &self.old.abi.span;
        // Each side shows the whole list: `parties = ["host", "client"]`.
        let listed = |name: &str, all: &[String]| Shape {
            value: Some(format!(
                "parties = [{}]",
                all.iter()
                    .map(|p| format!("\"{p}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            ..named(name)
        };
        for p in new.iter().filter(|p| !old.contains(p)) {
            let c = ruled(
                K::PartyAdded,
                ItemKind::Party,
                format!("abi.parties.{p}"),
                "party added",
                "a new party; every old party keeps its role",
            )
            .sides(None, Some(listed(p, new)))
            .spans(None, Some(span));
            self.push(c);
        }
        for p in old.iter().filter(|p| !new.contains(p)) {
            let c = ruled(
                K::PartyRemoved,
                ItemKind::Party,
                format!("abi.parties.{p}"),
                "party removed",
                format!(
                    "`{p}` built at {} still reads and writes its part of the memory",
                    self.old_v()
                ),
            )
            .sides(Some(listed(p, old)), None)
            .spans(Some(old_span), None);
            self.push(c);
        }
    }

    fn compare_access(&mut self) {
        let (old, new) = (self.old, self.new);
        let old_v = self.old_v();
        for (n, b) in new.abi.structs_with_ids() {
            let Some(o) = self.m.struct_old(n) else {
                continue;
            };
            let a = &old.abi.structs[o];
            let (Some(sa), Some(sb)) = (
                old.access.structs.get(o.index()),
                new.access.structs.get(n.index()),
            ) else {
                continue;
            };
            let struct_writers_changed = parties(old, &sa.writers) != parties(new, &sb.writers);
            if struct_writers_changed && a.fields.iter().any(|f| !f.is_padding()) {
                let (w0, w1) = (parties(old, &sa.writers), parties(new, &sb.writers));
                let c = ruled(
                    K::WriterChanged,
                    ItemKind::Struct,
                    &b.name,
                    "writer changed",
                    format!(
                        "{w0} built at {old_v} still writes it, and {w1} built at the new version writes it too or waits for it"
                    ),
                )
                .sides(
                    Some(Shape { value: Some(format!("writer = {w0}")), ..named(&a.name) }),
                    Some(Shape { value: Some(format!("writer = {w1}")), ..named(&b.name) }),
                )
                .spans(Some(&a.span), Some(&b.span));
                self.push(c);
            }
            for (fi, g) in b.fields.iter().enumerate() {
                // The old field this one is, renames matched.
                let Some(fo) = (0..a.fields.len()).find(|&fo| self.m.field_new(o, fo) == Some(fi))
                else {
                    continue;
                };
                let (Some(x), Some(y)) = (sa.fields.get(fo), sb.fields.get(fi)) else {
                    continue;
                };
                let f = &a.fields[fo];
                let path = format!("{}.{}", b.name, g.name);
                let access = |k: crate::ir::access::AccessKind| Shape {
                    value: Some(format!("access = {}", k.keyword())),
                    ..named(&g.name)
                };
                let kind = match (x.kind.is_atomic(), y.kind.is_atomic()) {
                    (true, false) => Some((
                        K::AccessAtomicToPlain,
                        "access atomic → plain",
                        format!(
                            "readers built at {old_v} load it with acquire to see the bytes a writer publishes before it; a writer built at the new version stores it plainly, without release, and the atomic accessors disappear"
                        ),
                    )),
                    (false, true) => Some((
                        K::AccessPlainToAtomic,
                        "access plain → atomic",
                        "the same bytes; the generated code reads and writes it through atomic accessors instead of plain ones".to_string(),
                    )),
                    (true, true) if x.kind.keyword() != y.kind.keyword() => Some((
                        K::AccessCasChanged,
                        "access changed between atomic and cas",
                        format!(
                            "a party built at {old_v} {} the word while one built at the new version {}, so a claim can be lost",
                            if x.kind.keyword() == "cas" { "claims by compare-and-swap" } else { "stores" },
                            if y.kind.keyword() == "cas" { "claims it by compare-and-swap" } else { "stores it outright" }
                        ),
                    )),
                    _ => None,
                };
                if let Some((kind, summary, reason)) = kind {
                    let c = ruled(kind, ItemKind::Field, &path, summary, reason)
                        .sides(Some(access(x.kind)), Some(access(y.kind)))
                        .spans(Some(&f.span), Some(&g.span));
                    self.push(c);
                }
                let (w0, w1) = (parties(old, &x.writers), parties(new, &y.writers));
                if !struct_writers_changed && w0 != w1 {
                    let c = ruled(
                        K::WriterChanged,
                        ItemKind::Field,
                        &path,
                        "writer changed",
                        format!(
                            "{w0} built at {old_v} still writes it, and {w1} built at the new version writes it too or waits for it"
                        ),
                    )
                    .sides(
                        Some(Shape { value: Some(format!("writer = {w0}")), ..named(&f.name) }),
                        Some(Shape { value: Some(format!("writer = {w1}")), ..named(&g.name) }),
                    )
                    .spans(Some(&f.span), Some(&g.span));
                    self.push(c);
                }
            }
        }
    }

    fn compare_seqlocks(&mut self) {
        let (old, new) = (self.old, self.new);
        let matched = self.match_declarations(
            (&old.access.seqlocks, &new.access.seqlocks),
            |d| d.name.clone(),
            seqlock_facts,
        );
        for (b, m) in new.access.seqlocks.iter().zip(&matched) {
            let facts_b = seqlock_facts(new, b);
            let Some(a) = m.map(|i| &old.access.seqlocks[i]) else {
                self.declaration_added(
                    (K::SeqlockAdded, ItemKind::Seqlock),
                    &b.name,
                    Some(b.struct_index),
                    &seqlock_shown(new, b),
                    &b.span,
                );
                continue;
            };
            if a.name != b.name {
                self.declaration_renamed(ItemKind::Seqlock, (&a.name, &b.name), (&a.span, &b.span));
            }
            let diffs = self.renamed_differing(&seqlock_facts(old, a), &facts_b);
            let pick = |keys: &[&str]| -> Vec<(String, String, String)> {
                diffs
                    .iter()
                    .filter(|(k, _, _)| keys.contains(&k.as_str()))
                    .cloned()
                    .collect()
            };
            let spans = (&a.span, &b.span);
            let item = ItemKind::Seqlock;
            self.facts_changed(
                (K::SeqlockCounterChanged, item),
                &b.name,
                &pick(&["counter", "struct"]),
                spans,
            );
            // The guarded bytes are compared, not the names that cover them: naming
            // reserved bytes inside the guarded range is the field's change alone.
            let guards: Vec<(String, String, String)> = pick(&["guards"])
                .into_iter()
                .map(|(k, o, n)| {
                    let o = format!("{o} ({})", guard_names(old, a));
                    let n = format!("{n} ({})", guard_names(new, b));
                    (k, o, n)
                })
                .collect();
            self.facts_changed((K::SeqlockGuardsChanged, item), &b.name, &guards, spans);
            // A new reader alone changes no byte the writer writes.
            let parties = pick(&["writer", "reader"]);
            let kind = if parties.iter().any(|(k, _, _)| k == "writer") {
                K::SeqlockPartiesChanged
            } else {
                K::SeqlockReaderChanged
            };
            self.facts_changed((kind, item), &b.name, &parties, spans);
            self.cosmetic_edits(
                item,
                &b.name,
                (&a.doc, &b.doc),
                (None, None),
                &a.span,
                &b.span,
            );
        }
        for (i, a) in old.access.seqlocks.iter().enumerate() {
            if !matched.contains(&Some(i)) {
                let facts = seqlock_shown(old, a);
                self.declaration_removed(
                    (K::SeqlockRemoved, ItemKind::Seqlock),
                    &a.name,
                    &facts,
                    &a.span,
                );
            }
        }
    }

    fn compare_rings(&mut self) {
        let (old, new) = (self.old, self.new);
        let matched = self.match_declarations(
            (&old.access.rings, &new.access.rings),
            |d| d.name.clone(),
            |s, d| ring_facts(s, d).0,
        );
        for (b, m) in new.access.rings.iter().zip(&matched) {
            let (facts_b, over) = ring_facts(new, b);
            let Some(a) = m.map(|i| &old.access.rings[i]) else {
                self.declaration_added(
                    (K::RingAdded, ItemKind::Ring),
                    &b.name,
                    Some(over),
                    &facts_b,
                    &b.span,
                );
                continue;
            };
            if a.name != b.name {
                self.declaration_renamed(ItemKind::Ring, (&a.name, &b.name), (&a.span, &b.span));
            }
            let (facts_a, _) = ring_facts(old, a);
            let diffs = self.renamed_differing(&facts_a, &facts_b);
            let at = self.facts_changed(
                (K::RingChanged, ItemKind::Ring),
                &b.name,
                &diffs,
                (&a.span, &b.span),
            );
            // A ring whose struct changed size (its entries array grew) follows from that.
            if let Some(i) = at {
                self.changes[i].site = Some(FieldSite {
                    owner: b.name.clone(),
                    pos: 0,
                    elem: Some(new.abi.structs[over].name.clone()),
                    len: None,
                });
            }
            self.cosmetic_edits(
                ItemKind::Ring,
                &b.name,
                (&a.doc, &b.doc),
                (None, None),
                &a.span,
                &b.span,
            );
        }
        for (i, a) in old.access.rings.iter().enumerate() {
            if !matched.contains(&Some(i)) {
                let (facts, _) = ring_facts(old, a);
                self.declaration_removed(
                    (K::RingRemoved, ItemKind::Ring),
                    &a.name,
                    &facts,
                    &a.span,
                );
            }
        }
    }
}
