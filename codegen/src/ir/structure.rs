//! Structs: ordered fields, each with its type, doc and the version that added it.

use crate::diagnostics::Span;
use crate::ir::{Type, Version};

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
    pub span: Span,
    pub type_span: Span,
}

impl Field {
    /// Declared padding: a field whose name starts with `_`, such as `_pad33` or `_reserved`.
    pub fn is_padding(&self) -> bool {
        self.name.starts_with('_')
    }
}
