//! What every part of the live section's context needs: the schema, its Python names and
//! the classes already named (the [`Ctx`] each part's builders are methods of), and a
//! number's `struct` format.

use crate::ir::{Elem, Prim, Type};
use crate::language_backend::python::ctypes::render_ctype;
use crate::language_backend::python::names::Names;
use crate::schema::Schema;

/// What every part of the context needs: the schema, its Python names, the view class of
/// each struct that has one, and the class each seqlock reads into.
pub(super) struct Ctx<'a> {
    pub(super) schema: &'a Schema,
    pub(super) names: &'a Names,
    pub(super) views: Vec<Option<String>>,
    pub(super) values: Vec<String>,
    /// The module's name for `plan::tries::HOST_TRIES`.
    pub(super) host_tries: String,
}

/// The `struct` format of a number: `<I`, `<q`, `<d` (letters in the order of `Prim::ALL`).
pub(super) fn prim_format(p: Prim) -> String {
    let i = Prim::ALL.iter().position(|&q| q == p).unwrap_or(0);
    format!("<{}", &"BHIQbhiqfd"[i..=i])
}

impl Ctx<'_> {
    /// A scalar's number type and its enum class, if any; `None` for arrays, structs, text.
    pub(super) fn scalar(&self, ty: &Type) -> Option<(Prim, Option<String>)> {
        match (ty.elem, ty.len) {
            (Elem::Prim(p), None) => Some((p, None)),
            (Elem::Enum(e), None) => Some((
                self.schema.abi.enums[e].repr,
                Some(self.names.enums[e].clone()),
            )),
            _ => None,
        }
    }

    pub(super) fn ctype(&self, ty: &Type) -> String {
        render_ctype(&self.schema.abi, self.names, ty)
    }
}
