//! Events compared (`[[event]]`): each by its word (as a path, so that renames are matched
//! first), its waiter and setter, its rows and its Windows name. A waiter and a setter built
//! at different versions must sleep on and change the same word and open the same object, so
//! a change of any of these is breaking; a new event on a word the old version has is
//! compatible (its old parties neither wait on it nor set it), and a removed one is breaking.

use crate::ir::event::Event;
use crate::schema::Schema;

use super::change::{ChangeKind as K, ItemKind};
use super::compute::Cx;
use super::facts::{Facts, field_path};

fn event_facts(schema: &Schema, e: &Event) -> Facts {
    let who = |x: &crate::ir::access::Parties| x.describe(&schema.access.parties);
    let word = field_path(schema, e.word.struct_index, e.word.field);
    vec![
        (
            "word".into(),
            if e.low_half {
                format!("{word}.low")
            } else {
                word
            },
        ),
        ("waiter".into(), who(&e.waiter)),
        ("setter".into(), who(&e.setter)),
        (
            "rows".into(),
            e.rows.map_or_else(
                || "one".into(),
                |r| field_path(schema, r.struct_index, r.field),
            ),
        ),
        ("windows_name".into(), e.windows_pattern()),
    ]
}

impl Cx<'_> {
    pub(super) fn compare_events(&mut self) {
        let (old, new) = (self.old, self.new);
        let matched =
            self.match_declarations((&old.events, &new.events), |e| e.name.clone(), event_facts);
        let item = ItemKind::Event;
        for (b, m) in new.events.iter().zip(&matched) {
            let facts_b = event_facts(new, b);
            let Some(a) = m.map(|i| &old.events[i]) else {
                let why = format!(
                    "a new event on `{}`: a party built at {} neither waits on it nor sets it, and a waiter built at the new version wakes at its deadline at the latest, then looks again",
                    b.word_path,
                    self.old_v()
                );
                let what = (b.name.as_str(), "event added", why);
                self.declaration_new((K::EventAdded, item), what, &facts_b, &b.span);
                continue;
            };
            if a.name != b.name {
                self.declaration_renamed(item, (&a.name, &b.name), (&a.span, &b.span));
            }
            let diffs = self.renamed_differing(&event_facts(old, a), &facts_b);
            let spans = (&a.span, &b.span);
            self.facts_changed((K::EventChanged, item), &b.name, &diffs, spans);
            self.cosmetic_edits(
                item,
                &b.name,
                (&a.doc, &b.doc),
                (None, None),
                &a.span,
                &b.span,
            );
        }
        self.unmatched_removed(
            (K::EventRemoved, item),
            (old, &old.events, &matched),
            |a| (&a.name, &a.span),
            event_facts,
        );
    }
}
