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
use super::declared::Declarations;
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
        let directories = Declarations {
            sides: (&old.directories, &new.directories),
            item: ItemKind::Directory,
            removed: K::DirectoryRemoved,
            path: |d| d.name.clone(),
            span: |d| &d.span,
            doc: |d| &d.doc,
            facts: directory_facts,
        };
        self.compare_declarations(
            directories,
            |cx, b, path, facts| {
                // A mapping of its own: no old bytes lie under it, whatever structs it uses.
                let why = format!(
                    "a new mapping, `{}`: instances built at {} do not register in it, so a reader built at the new version lists only instances built at the new version; nothing old changes",
                    b.mapping,
                    cx.old_v()
                );
                let what = (path, "directory added", why);
                cx.declaration_new((K::DirectoryAdded, ItemKind::Directory), what, facts, &b.span);
            },
            |cx, (a, b), path, diffs| {
                // A new reader alone changes nothing an instance writes; with a new owner,
                // the two are one change of who plays which side.
                let owner_changed = diffs.iter().any(|(k, _, _)| k == "owner");
                let (reader, rest): (Vec<_>, Vec<_>) = diffs
                    .into_iter()
                    .partition(|(k, _, _)| k == "reader" && !owner_changed);
                let spans = (&a.span, &b.span);
                let item = ItemKind::Directory;
                cx.facts_changed((K::DirectoryChanged, item), path, &rest, spans);
                cx.facts_changed((K::DirectoryReaderChanged, item), path, &reader, spans);
            },
        );
    }
}
