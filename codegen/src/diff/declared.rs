//! The one walk over a kind of named declaration (files, protocols, directories, events):
//! each new one matched to its old self by name or as a rename, told added, renamed or
//! changed, its doc compared, and each old one left unmatched told removed.

use crate::diagnostics::Span;
use crate::diff::change::{ChangeKind, ItemKind};
use crate::diff::compute::Cx;
use crate::diff::facts::Facts;
use crate::schema::Schema;

/// The facts that differ between two versions of one declaration: (fact, old, new).
pub(super) type Diffs = Vec<(String, String, String)>;

/// One kind of named declaration as the walk sees it.
pub(super) struct Declarations<'s, T> {
    /// The old schema's declarations and the new one's.
    pub(super) sides: (&'s [T], &'s [T]),
    pub(super) item: ItemKind,
    /// The change told for an old declaration no new one matches.
    pub(super) removed: ChangeKind,
    /// How a change names it: its name, or a path (`mailbox.commands`).
    pub(super) path: fn(&T) -> String,
    pub(super) span: fn(&T) -> &Span,
    pub(super) doc: fn(&T) -> &str,
    /// What parties built at two versions must agree on, compared as text.
    pub(super) facts: fn(&Schema, &T) -> Facts,
}

impl Cx<'_> {
    /// Walks `d`: `added` tells each new declaration with no old self (with its path and its
    /// facts), `changed` tells what differs between a pair (old, new) after a rename is told.
    pub(super) fn compare_declarations<T>(
        &mut self,
        d: Declarations<'_, T>,
        mut added: impl FnMut(&mut Self, &T, &str, &Facts),
        mut changed: impl FnMut(&mut Self, (&T, &T), &str, Diffs),
    ) {
        let (old, new) = d.sides;
        let matched = self.match_declarations((old, new), d.path, d.facts);
        for (b, m) in new.iter().zip(&matched) {
            let path = (d.path)(b);
            let facts_b = (d.facts)(self.new, b);
            let Some(a) = m.map(|i| &old[i]) else {
                added(self, b, &path, &facts_b);
                continue;
            };
            let old_path = (d.path)(a);
            let spans = ((d.span)(a), (d.span)(b));
            if old_path != path {
                self.declaration_renamed(d.item, (&old_path, &path), spans);
            }
            let diffs = self.renamed_differing(&(d.facts)(self.old, a), &facts_b);
            changed(self, (a, b), &path, diffs);
            let docs = ((d.doc)(a), (d.doc)(b));
            self.cosmetic_edits(d.item, &path, docs, (None, None), spans.0, spans.1);
        }
        for (i, a) in old.iter().enumerate() {
            if !matched.contains(&Some(i)) {
                let facts = (d.facts)(self.old, a);
                self.declaration_removed((d.removed, d.item), &(d.path)(a), &facts, (d.span)(a));
            }
        }
    }
}
