//! Root causes: which change follows from which. A field that moved follows from the change
//! before it in its struct (an inserted, removed or resized field); a struct's new size or
//! alignment from the first such change among its fields; a field that holds a struct, an
//! enum or an array sized by a constant follows from that item's change; a layout row or a
//! ring follows from a change of the struct it holds or lies over (a region that needs more
//! bytes because its block grew), a file record's size from its struct's, and a row's least
//! size from a handshake field's `since`.
//! Every change not explained so is a root cause, and heads a [`Group`] with all it explains.

use super::change::{Change, ChangeKind as K};
use super::model::Group;

/// The field changes that shift or resize bytes in their struct.
fn shifts(kind: K) -> bool {
    matches!(
        kind,
        K::FieldAdded | K::FieldRemoved | K::FieldResized | K::FieldRetyped
    )
}

/// Whether change `c` changes the size or layout of the item named `name` for its holders.
fn changes_item(c: &Change, name: &str) -> bool {
    c.path == name
        && matches!(
            c.kind,
            K::StructSizeChanged
                | K::StructAlignChanged
                | K::StructGrown
                | K::EnumReprChanged
                | K::ConstValueChanged
        )
        // A blocks row follows the rows of the layout its blocks have.
        || (c.kind == K::LayoutRowChanged && c.path.split('.').next() == Some(name))
}

/// The direct cause of `changes[i]`, if another change explains it.
fn cause_of(changes: &[Change], i: usize) -> Option<usize> {
    let c = &changes[i];
    fn in_struct<'c>(
        changes: &'c [Change],
        i: usize,
        owner: &'c str,
    ) -> impl Iterator<Item = (usize, &'c Change)> {
        changes
            .iter()
            .enumerate()
            .filter(move |(j, d)| *j != i && d.site.as_ref().is_some_and(|s| s.owner == owner))
    }
    match c.kind {
        K::FieldResized | K::LayoutRowChanged | K::RingChanged | K::FileChanged => {
            let site = c.site.as_ref()?;
            let item = [site.elem.as_deref(), site.len.as_deref()]
                .into_iter()
                .flatten()
                .find_map(|name| changes.iter().position(|d| changes_item(d, name)));
            // A row's least size follows a handshake struct's `since`s: the bytes every
            // producer of the major version writes end at the first field a later minor
            // version added.
            item.or_else(|| {
                let elem = site.elem.as_deref()?;
                changes.iter().position(|d| {
                    d.kind == K::HandshakeSinceChanged
                        && d.path.split_once('.').is_some_and(|(s, _)| s == elem)
                })
            })
        }
        K::FieldMoved => {
            let site = c.site.as_ref()?;
            let shifted = |i: usize, owner: &str, pos: u64| {
                in_struct(changes, i, owner)
                    .filter(|(_, d)| shifts(d.kind))
                    .filter_map(|(j, d)| d.site.as_ref().map(|s| (s.pos, j)))
                    .filter(|(p, _)| *p <= pos)
                    // The nearest before it; of several at one place, the first.
                    .max_by_key(|(p, j)| (*p, std::cmp::Reverse(*j)))
                    .map(|(_, j)| j)
            };
            // Fields reordered among themselves (two swapped): one change, headed by the
            // first field that moved without a shift before it.
            shifted(i, &site.owner, site.pos).or_else(|| {
                in_struct(changes, i, &site.owner)
                    .filter(|(j, d)| *j < i && d.kind == K::FieldMoved)
                    .find(|(j, d)| {
                        d.site
                            .as_ref()
                            .is_some_and(|s| shifted(*j, &s.owner, s.pos).is_none())
                    })
                    .map(|(j, _)| j)
            })
        }
        K::StructSizeChanged | K::StructAlignChanged | K::StructGrown => {
            in_struct(changes, i, &c.path)
                .find(|(_, d)| {
                    shifts(d.kind)
                        || matches!(d.kind, K::FieldAppended | K::FieldAppendedWithoutSince)
                })
                .map(|(j, _)| j)
        }
        _ => None,
    }
}

/// Sets each change's [`Change::cause`] and returns the groups, most severe first, then in
/// change order.
pub(super) fn group(changes: &mut [Change]) -> Vec<Group> {
    for i in 0..changes.len() {
        changes[i].cause = cause_of(changes, i);
    }
    // The root of each change. Causes form no cycle (a struct holds no struct that holds
    // it), but the walk is bounded all the same, and a change in a loop is its own root.
    let root_of = |mut i: usize| {
        let start = i;
        for _ in 0..=changes.len() {
            match changes[i].cause {
                Some(j) => i = j,
                None => return i,
            }
        }
        start
    };
    let roots: Vec<usize> = (0..changes.len()).map(root_of).collect();
    for (i, r) in roots.iter().enumerate() {
        if *r == i {
            changes[i].cause = None;
        }
    }
    let mut groups: Vec<Group> = (0..changes.len())
        .filter(|i| roots[*i] == *i)
        .map(|r| {
            let effects: Vec<usize> = (0..changes.len())
                .filter(|i| *i != r && roots[*i] == r)
                .collect();
            let severity = effects
                .iter()
                .map(|i| changes[*i].severity)
                .chain([changes[r].severity])
                .min()
                .unwrap_or(changes[r].severity);
            Group {
                root: r,
                effects,
                severity,
            }
        })
        .collect();
    groups.sort_by_key(|g| (g.severity, g.root));
    groups
}
