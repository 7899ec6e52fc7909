//! Structs: ordered fields, each with its type, doc and the version that added it.

use crate::diagnostics::Span;
use crate::ir::ty::Type;
use crate::ir::version::Version;

#[derive(Debug, Clone)]
pub struct Struct {
    pub name: String,
    pub doc: String,
    pub since: Option<Version>,
    /// A top-level record whose readers learn its size at run time, so it may grow at its end.
    pub extensible: bool,
    pub fields: Vec<Field>,
    /// The size and alignment the schema states; the layout engine checks them.
    pub declared_size: Option<(u64, Span)>,
    pub declared_align: Option<(u64, Span)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    pub doc: String,
    pub since: Option<Version>,
    /// For an array: the field that counts its used entries.
    pub count: Option<CountRef>,
    /// The constant (index into `Abi::consts`) this field always holds.
    pub expect: Option<usize>,
    pub span: Span,
    pub type_span: Span,
}

/// A path from a struct to the integer field that counts one of its arrays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRef {
    /// Field indices, from the struct holding the array down through nested structs.
    pub path: Vec<usize>,
    /// The path as the schema wrote it: `match.pickup_spawn_count`.
    pub text: String,
}

impl Field {
    /// Declared padding: a field whose name starts with `_`, such as `_pad33` or `_reserved`.
    pub fn is_padding(&self) -> bool {
        self.name.starts_with('_')
    }
}
