//! Events compared (`[[event]]`): each by its word (as a path, so that renames are matched
//! first), its waiter and setter, its rows and its Windows name. A waiter and a setter built
//! at different versions must sleep on and change the same word and open the same object, so
//! a change of any of these is breaking; a new event on a word the old version has is
//! compatible (its old parties neither wait on it nor set it), and a removed one is breaking.

use crate::ir::event::Event;
use crate::schema::Schema;

use super::change::{ChangeKind as K, ItemKind};
use super::compute::Cx;
use super::declared::Declarations;
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
        (
            "stats".into(),
            e.stats.as_ref().map_or_else(
                || "none".into(),
                |st| {
                    st.fields()
                        .iter()
                        .map(|(key, r)| {
                            format!("{key} = {}", field_path(schema, r.struct_index, r.field))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            ),
        ),
    ]
}

impl Cx<'_> {
    pub(super) fn compare_events(&mut self) {
        let (old, new) = (self.old, self.new);
        let events = Declarations {
            sides: (&old.events, &new.events),
            item: ItemKind::Event,
            removed: K::EventRemoved,
            path: |e| e.name.clone(),
            span: |e| &e.span,
            doc: |e| &e.doc,
            facts: event_facts,
        };
        self.compare_declarations(
            events,
            |cx, b, path, facts| {
                let why = format!(
                    "a new event on `{}`: a party built at {} neither waits on it nor sets it, and a waiter built at the new version wakes at its deadline at the latest, then looks again",
                    b.word_path,
                    cx.old_v()
                );
                let what = (path, "event added", why);
                cx.declaration_new((K::EventAdded, ItemKind::Event), what, facts, &b.span);
            },
            |cx, (a, b), path, diffs| {
                let spans = (&a.span, &b.span);
                cx.facts_changed((K::EventChanged, ItemKind::Event), path, &diffs, spans);
            },
        );
    }
}
