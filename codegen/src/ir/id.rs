//! Typed indices into the ABI's tables: a [`StructId`] names one struct, in `Abi::structs`
//! and the tables kept parallel to it (`Layout::structs`, `Access::structs`, the parsed
//! `RawSchema::structs`), so that it
//! cannot be mixed up with a const, enum, field or row index.

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
