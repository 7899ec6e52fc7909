//! Which session owns a blocks row: `owner = "client"` says that row i of session `client`
//! owns block i, so the host's free and reload restore the protocols in it (a re-layout
//! writes a new image). The
//! blocks must be as many as the session's rows, in the root layout, whose header holds them.

use super::LowerAttach;
use crate::ir::attach::{Attach, Holds};
use crate::ir::protocol::{Protocol, ProtocolKind};
use crate::parse::RawSchema;

impl LowerAttach<'_> {
    pub(super) fn link_owners(
        &mut self,
        raw: &RawSchema,
        protocols: &[Protocol],
        attach: &mut Attach,
    ) {
        for (li, l) in raw.layouts.iter().enumerate() {
            for r in l.get_ref().rows.get_ref() {
                let Some(owner) = &r.get_ref().owner else {
                    continue;
                };
                let what = format!(
                    "layout `{}`, row `{}`",
                    l.get_ref().name.get_ref(),
                    r.get_ref().name.get_ref()
                );
                let found = protocols.iter().position(|p| p.name == *owner.get_ref());
                let session = found.and_then(|i| match &protocols[i].kind {
                    ProtocolKind::Session(s) => Some((i, s)),
                    _ => None,
                });
                let Some((index, session)) = session else {
                    let help = Self::suggest(
                        owner.get_ref(),
                        protocols.iter().filter_map(|p| match p.kind {
                            ProtocolKind::Session(_) => Some(p.name.as_str()),
                            _ => None,
                        }),
                        "name a `[[session]]` of this schema",
                    );
                    self.errors.error_help(
                        &self.inner(owner),
                        format!("{what}: `owner` `{}` is not a session", owner.get_ref()),
                        help,
                    );
                    continue;
                };
                if attach.root != Some(crate::ir::LayoutId::new(li)) {
                    self.errors.error_help(
                        &self.inner(owner),
                        format!("{what}: `owner` is for a blocks row of the layout a mapping starts with"),
                        "the host's free reaches a row's blocks from the root table: move the blocks row there",
                    );
                    continue;
                }
                let Some(layout) = attach.layouts.get_mut(li) else {
                    continue;
                };
                let header = layout.header;
                // The lowered rows are in the index enum's order, not the file's: the row
                // is found by its name.
                let Some(row) = layout
                    .rows
                    .iter_mut()
                    .find(|row| row.name == *r.get_ref().name.get_ref())
                else {
                    continue;
                };
                let Holds::Blocks { count, .. } = row.holds else {
                    self.errors.error_help(
                        &self.inner(owner),
                        format!("{what}: `owner` is for a `blocks` row"),
                        "remove `owner`, or make the row `blocks = \"...\"` with `count` and `stride`",
                    );
                    continue;
                };
                let table = &self.abi.structs[session.table.struct_index];
                let rows = table.fields[session.table.field]
                    .ty
                    .len
                    .map_or(0, |n| n.count);
                if count != rows {
                    self.errors.error_help(
                        &self.inner(owner),
                        format!(
                            "{what}: {count} blocks, but session `{}` has {rows} rows",
                            owner.get_ref()
                        ),
                        "row i owns block i: give the row as many blocks as the session's table has rows",
                    );
                    continue;
                }
                if session.table.struct_index != header {
                    self.errors.error_help(
                        &self.inner(owner),
                        format!(
                            "{what}: session `{}` keeps its rows in `{}`, not in this layout's header `{}`",
                            owner.get_ref(),
                            table.name,
                            self.abi.structs[header].name
                        ),
                        "name the session whose table is in the same header as this row's table",
                    );
                    continue;
                }
                row.owner = Some(crate::ir::ProtocolId::new(index));
            }
        }
    }
}
