//! The validated intermediate representation of an ABI: every name checked, every
//! reference resolved. One file per item kind. Backends read this and the layout, never
//! the raw serde types.

pub mod access;
pub mod attach;
mod constant;
pub mod directory;
mod enumeration;
pub mod event;
pub mod file;
pub mod geometry;
pub mod id;
pub mod names;
pub mod protocol;
pub mod result_codes;
pub mod scalar;
mod structure;
pub mod template;
mod ty;
mod version;

pub use constant::{ConstType, Constant};
pub use enumeration::{Enum, EnumKind, EnumValue, order_error};
pub use id::{LayoutId, PerStruct, ProtocolId, StructId};
pub use structure::{CountRef, Field, Struct};
pub use ty::{ArrayLen, Elem, Prim, Type};
pub use version::{Version, VersionPolicy};

use crate::diagnostics::Span;

/// A top-level item, by kind and index, in the order the schema declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemRef {
    Const(usize),
    Enum(usize),
    Struct(StructId),
}

/// The whole ABI.
#[derive(Debug, Clone)]
pub struct Abi {
    /// snake_case name; names the output files (`bridge.rs`, `bridge.h`, ...).
    pub name: String,
    pub version: Version,
    /// The `version` string's place in the schema, for reports about the version.
    pub version_span: Span,
    pub version_policy: VersionPolicy,
    /// Lowercase C prefix, such as `ibf`.
    pub c_prefix: String,
    pub title: String,
    pub doc: String,
    pub consts: Vec<Constant>,
    pub enums: Vec<Enum>,
    /// Indexed by `StructId`.
    pub structs: PerStruct<Struct>,
    /// Every item in declaration order.
    pub order: Vec<ItemRef>,
    pub span: Span,
}

impl Abi {
    pub fn find_const(&self, name: &str) -> Option<usize> {
        self.consts.iter().position(|c| c.name == name)
    }

    /// The struct named `name`.
    pub fn find_struct(&self, name: &str) -> Option<StructId> {
        self.structs
            .iter()
            .position(|s| s.name == name)
            .map(StructId::new)
    }

    /// Every struct's id, in schema order.
    pub fn struct_ids(
        &self,
    ) -> impl DoubleEndedIterator<Item = StructId> + ExactSizeIterator + Clone + use<> {
        (0..self.structs.len()).map(StructId::new)
    }

    /// Every struct with its id, in schema order.
    pub fn structs_with_ids(&self) -> impl DoubleEndedIterator<Item = (StructId, &Struct)> {
        StructId::enumerate(&self.structs)
    }

    /// Whether constant `index` sizes an array somewhere.
    pub fn const_sizes_array(&self, index: usize) -> bool {
        self.consts
            .get(index)
            .is_some_and(|c| c.ty == ConstType::Usize)
    }
}

// With `Abi`, which it walks: the item files never depend on the whole ABI.
impl CountRef {
    /// The field names along the path, from struct `s` (the one holding the array) down
    /// through nested structs: `["match", "pickup_spawn_count"]`.
    pub fn field_names<'a>(&self, abi: &'a Abi, mut s: &'a Struct) -> Vec<&'a str> {
        let mut names = Vec::with_capacity(self.path.len());
        for &i in &self.path {
            let f = &s.fields[i];
            names.push(f.name.as_str());
            if let Elem::Struct(j) = f.ty.elem {
                s = &abi.structs[j];
            }
        }
        names
    }
}
