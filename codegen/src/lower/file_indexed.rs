//! Lowers a `[[file]]` record's `indexed` (fields of the index copy that places each copy of
//! the record, repeating fields of that copy: `indexed = ["first_tick = first_tick"]`) into
//! [`Indexed`] pairs of scalars; and the `left = right` pairs it shares with `same`.

use toml::Spanned;

use crate::ir::file::{FileRecord, Indexed, Place};
use crate::ir::scalar::Scalar;
use crate::parse::RawFileRecord;

use crate::attach::LowerAttach;
use crate::ir::StructId;

impl LowerAttach<'_> {
    /// `indexed` of record `r` (struct `si`), placed at `place`; `None` after an error.
    pub(super) fn lower_indexed(
        &mut self,
        r: &RawFileRecord,
        si: StructId,
        place: &Place,
        earlier: &[FileRecord],
        what: &str,
    ) -> Option<Vec<Indexed>> {
        let Some(list) = &r.indexed else {
            return Some(Vec::new());
        };
        let Place::Each(index) = place else {
            self.errors.error_help(
                &list.span(),
                format!("{what}: `indexed` goes with `at = \"record[].field\"`"),
                "indexed names fields of the index copy that places each copy of this record",
            );
            return None;
        };
        let entry_struct = earlier[index.record].struct_index;
        let what = format!("{what}, indexed");
        let mut out = Vec::new();
        let mut ok = true;
        for item in list.get_ref() {
            let shape = format!("{what}: `{}` is not `index_field = field`", item.get_ref());
            let help = "name a field of the index record, `=`, and a field of this record: \"first_tick = first_tick\"";
            match self.lower_pair(item, Some(entry_struct), si, &what, &shape, help) {
                Ok(Some((entry, record))) => out.push(Indexed { entry, record }),
                Ok(None) => {}
                Err(()) => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `left = right` (`item`, as `same` and `indexed` write them): the left side a field of
    /// struct `left` (`Ok(None)` when that struct is unknown after an earlier error), the
    /// right side one of struct `right`, both unsigned. `Err` after an error: `shape` and
    /// `help` when `item` is not two sides around one `=`.
    pub(super) fn lower_pair(
        &mut self,
        item: &Spanned<String>,
        left: Option<StructId>,
        right: StructId,
        what: &str,
        shape: &str,
        help: &str,
    ) -> Result<Option<(Scalar, Scalar)>, ()> {
        let halves = item
            .get_ref()
            .split_once('=')
            .filter(|(l, r)| !l.trim().is_empty() && !r.trim().is_empty() && !r.contains('='));
        let Some((l, r)) = halves else {
            self.errors.error_help(&self.inner(item), shape, help);
            return Err(());
        };
        let span = self.inner(item);
        let part = |t: &str| Spanned::new(span.clone(), t.trim().to_string());
        let Some(left) = left else { return Ok(None) };
        let l = self.resolve_unsigned(left, &part(l), what);
        let r = self.resolve_unsigned(right, &part(r), what);
        match (l, r) {
            (Some(l), Some(r)) => Ok(Some((l, r))),
            _ => Err(()),
        }
    }
}
