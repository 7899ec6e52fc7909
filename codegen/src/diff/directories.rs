//! Directories of running instances compared (`[[directory]]`): each by its mapping, the
//! header and row fields it names (as paths, so that renames are matched first), the names
//! of its three states and who registers and who lists. Instances of every version share one
//! directory, so a change of any of these is breaking, and a new reader alone is not. The
//! bytes of its header and row are their structs' own changes; the numbers of its plan
//! (offsets, sizes, state values) follow from those and from the enum, and are not facts here.

use crate::ir::directory::Directory;
use crate::schema::Schema;

use super::change::{ChangeKind as K, ItemKind};
use super::compute::Cx;
use super::facts::{Facts, field_path};

fn directory_facts(schema: &Schema, d: &Directory) -> Facts {
    let who = |x: &crate::ir::access::Parties| x.describe(&schema.access.parties);
    let mut f: Facts = vec![
        ("mapping".into(), d.mapping.clone()),
        ("header".into(), schema.abi.structs[d.header].name.clone()),
    ];
    for (k, i) in [
        ("magic", d.magic),
        ("entry_count", d.entry_count),
        ("entry_size", d.entry_size),
        ("entries", d.entries),
    ] {
        f.push((k.into(), field_path(schema, d.header, i)));
    }
    f.push(("row".into(), schema.abi.structs[d.row].name.clone()));
    for (k, i) in [
        ("state", d.state),
        ("pid", d.pid),
        ("process_time", d.process_time),
        ("abi_major", d.abi_major),
        ("abi_minor", d.abi_minor),
        ("version", d.version),
    ] {
        f.push((k.into(), field_path(schema, d.row, i)));
    }
    let [free, claimed, live] = &d.value_names;
    f.push((
        "states".into(),
        format!(
            "{} (free {free}, claimed {claimed}, live {live})",
            schema.abi.enums[d.state_enum].name
        ),
    ));
    f.push(("owner".into(), who(&d.owner)));
    f.push(("reader".into(), who(&d.reader)));
    f
}

impl Cx<'_> {
    pub(super) fn compare_directories(&mut self) {
        let (old, new) = (self.old, self.new);
        let matched = self.match_declarations(
            (&old.directories, &new.directories),
            |d| d.name.clone(),
            directory_facts,
        );
        let item = ItemKind::Directory;
        for (b, m) in new.directories.iter().zip(&matched) {
            let facts_b = directory_facts(new, b);
            let Some(a) = m.map(|i| &old.directories[i]) else {
                // A mapping of its own: no old bytes lie under it, whatever structs it uses.
                let why = format!(
                    "a new mapping, `{}`: instances built at {} do not register in it, so a reader built at the new version lists only instances built at the new version; nothing old changes",
                    b.mapping,
                    self.old_v()
                );
                let what = (b.name.as_str(), "directory added", why);
                self.declaration_new((K::DirectoryAdded, item), what, &facts_b, &b.span);
                continue;
            };
            if a.name != b.name {
                self.declaration_renamed(item, (&a.name, &b.name), (&a.span, &b.span));
            }
            let diffs = self.renamed_differing(&directory_facts(old, a), &facts_b);
            // A new reader alone changes nothing an instance writes; with a new owner, the
            // two are one change of who plays which side.
            let owner_changed = diffs.iter().any(|(k, _, _)| k == "owner");
            let (reader, rest): (Vec<_>, Vec<_>) = diffs
                .into_iter()
                .partition(|(k, _, _)| k == "reader" && !owner_changed);
            let spans = (&a.span, &b.span);
            self.facts_changed((K::DirectoryChanged, item), &b.name, &rest, spans);
            self.facts_changed((K::DirectoryReaderChanged, item), &b.name, &reader, spans);
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
            (K::DirectoryRemoved, item),
            (old, &old.directories, &matched),
            |a| (&a.name, &a.span),
            directory_facts,
        );
    }
}
