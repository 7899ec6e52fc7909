//! Typed indices into the ABI's tables: a [`StructId`] names one struct, in `Abi::structs`
//! and the tables kept parallel to it (`Layout::structs`, `Access::structs`, the parsed
//! `RawSchema::structs`), so that it cannot be mixed up with a const, enum, field or row
//! index. A [`PerStruct`] table is indexed by it alone. A [`ProtocolId`] names one protocol
//! (`Schema::protocols`) and a [`LayoutId`] one layout table (`Attach::layouts`, and the
//! attach plan's tables parallel to it).

use serde::Serialize;

/// One struct of the ABI: its position in `Abi::structs`, made only by lowering (and by
/// [`Abi::struct_ids`](crate::ir::Abi::struct_ids)). Serializes as the bare index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct StructId(usize);

impl StructId {
    /// The struct at `index` in `Abi::structs`.
    pub(crate) fn new(index: usize) -> Self {
        StructId(index)
    }

    /// Each entry of a table parallel to `Abi::structs` with the struct it describes.
    pub(crate) fn enumerate<T>(table: &[T]) -> impl DoubleEndedIterator<Item = (StructId, &T)> {
        table.iter().enumerate().map(|(i, t)| (StructId(i), t))
    }

    /// The position in `Abi::structs` and its parallel tables.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A table with one entry per struct of `Abi::structs`, in its order, indexed by
/// [`StructId`] only (`table[3]` does not compile); otherwise read as a slice (`iter`, `len`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerStruct<T>(Vec<T>);

impl<T> Default for PerStruct<T> {
    fn default() -> Self {
        PerStruct(Vec::new())
    }
}

impl<T> PerStruct<T> {
    /// Each entry with the struct it describes.
    pub fn with_ids(&self) -> impl DoubleEndedIterator<Item = (StructId, &T)> {
        StructId::enumerate(&self.0)
    }
}

impl<T> From<Vec<T>> for PerStruct<T> {
    fn from(entries: Vec<T>) -> Self {
        PerStruct(entries)
    }
}

impl<T> FromIterator<T> for PerStruct<T> {
    fn from_iter<I: IntoIterator<Item = T>>(entries: I) -> Self {
        PerStruct(entries.into_iter().collect())
    }
}

impl<T> std::ops::Deref for PerStruct<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> std::ops::DerefMut for PerStruct<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T> std::ops::Index<StructId> for PerStruct<T> {
    type Output = T;
    fn index(&self, id: StructId) -> &T {
        &self.0[id.0]
    }
}

impl<T> std::ops::IndexMut<StructId> for PerStruct<T> {
    fn index_mut(&mut self, id: StructId) -> &mut T {
        &mut self.0[id.0]
    }
}

impl<'a, T> IntoIterator for &'a PerStruct<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T> IntoIterator for PerStruct<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Indexing a table parallel to `Abi::structs` (a slice or a `Vec` of one entry per struct)
/// by the struct it describes. Each table's own module invokes it, so that this file
/// depends on none of them.
macro_rules! index_by_struct {
    ($($t:ty),*) => {$(
        $crate::ir::id::index_by_struct!(@one [$t], $t);
        $crate::ir::id::index_by_struct!(@one Vec<$t>, $t);
    )*};
    (@one $table:ty, $t:ty) => {
        impl std::ops::Index<$crate::ir::id::StructId> for $table {
            type Output = $t;
            fn index(&self, id: $crate::ir::id::StructId) -> &$t {
                &self[id.index()]
            }
        }
        impl std::ops::IndexMut<$crate::ir::id::StructId> for $table {
            fn index_mut(&mut self, id: $crate::ir::id::StructId) -> &mut $t {
                &mut self[id.index()]
            }
        }
    };
}
pub(crate) use index_by_struct;

// The backends' per-struct tables: names (Python's `Names::structs`) and live views.
index_by_struct!(String, Option<String>);

/// A typed index into one table of the schema other than the structs: made only by lowering
/// (or from the table's own order), it indexes that table alone (`index_by!`).
macro_rules! typed_index {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[serde(transparent)]
        pub struct $name(usize);

        impl $name {
            /// The entry at `index` of its table.
            pub(crate) fn new(index: usize) -> Self {
                $name(index)
            }

            /// Each entry of its table with its id.
            pub(crate) fn enumerate<T>(table: &[T]) -> impl DoubleEndedIterator<Item = ($name, &T)> {
                table.iter().enumerate().map(|(i, t)| ($name(i), t))
            }

            /// The position in its table.
            pub fn index(self) -> usize {
                self.0
            }
        }
    };
}

typed_index!(
    /// One protocol: its position in `Schema::protocols`.
    ProtocolId
);
typed_index!(
    /// One layout table: its position in `Attach::layouts` (and in the attach plan's
    /// `tables`, parallel to it).
    LayoutId
);

/// Indexing a table (a slice or a `Vec`) by its typed id: `index_by!(ProtocolId => Protocol)`
/// in the table's own module.
macro_rules! index_by {
    ($id:ty => $($t:ty),*) => {$(
        $crate::ir::id::index_by!(@one $id, [$t], $t);
        $crate::ir::id::index_by!(@one $id, Vec<$t>, $t);
    )*};
    (@one $id:ty, $table:ty, $t:ty) => {
        impl std::ops::Index<$id> for $table {
            type Output = $t;
            fn index(&self, id: $id) -> &$t {
                &self[id.index()]
            }
        }
    };
}
pub(crate) use index_by;
