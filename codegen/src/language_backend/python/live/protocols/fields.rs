//! What every protocol class of the Python section reads from the layout: a field's offset,
//! width and `struct` format, a party's words, a struct's view class and an enum's class.

use crate::ir::StructId;
use crate::ir::access::Parties;
use crate::language_backend::python::live::context::{Ctx, prim_format};

/// An integer field: (offset, width).
pub(super) type Word = (u64, u64);
/// A number in a byte string: (offset, `struct` format).
pub(super) type Packed = (u64, String);

impl Ctx<'_> {
    pub(super) fn parties(&self, p: &Parties) -> String {
        format!("the {}", p.describe(&self.schema.access.parties))
    }

    pub(super) fn offset(&self, s: StructId, f: usize) -> u64 {
        self.schema.layout.of(s).fields[f].offset
    }

    /// (offset, width) of scalar field `f` of struct `s`.
    pub(super) fn word(&self, s: StructId, f: usize) -> Word {
        let ty = &self.schema.abi.structs[s].fields[f].ty;
        let width = self.scalar(ty).map_or(0, |(p, _)| p.size());
        (self.offset(s, f), width)
    }

    /// (offset, `struct` format) of scalar field `f` of struct `s`.
    pub(super) fn packed(&self, s: StructId, f: usize) -> Packed {
        let ty = &self.schema.abi.structs[s].fields[f].ty;
        let fmt = self
            .scalar(ty)
            .map_or_else(String::new, |(p, _)| prim_format(p));
        (self.offset(s, f), fmt)
    }

    pub(super) fn view_of(&self, s: StructId) -> String {
        self.views[s].clone().unwrap_or_default()
    }

    pub(super) fn enum_of(&self, s: StructId, f: usize) -> String {
        let ty = &self.schema.abi.structs[s].fields[f].ty;
        self.scalar(ty)
            .and_then(|(_, e)| e)
            .unwrap_or_else(|| "int".into())
    }
}
