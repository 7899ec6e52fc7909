//! What every target's live layer decides alike: whether there is one, which structs get a
//! view, the order in which a seqlock's value copies its parts, and the byte runs it
//! copies. One rule each, so that Rust, C and Python touch the same bytes with the same
//! access sizes.

use crate::ir::access::{Guard, Seqlock};
use crate::schema::Schema;

/// Whether the schema declares any shared memory, and so whether there is a live layer
/// (Rust's `pub mod live`, Python's live section).
pub fn has_live_layer(schema: &Schema) -> bool {
    schema.access.structs.iter().any(|s| s.shared)
}

/// Whether struct `i` needs a live view when another struct holds it (computed once by
/// the access lowering: `StructAccess::needs_view`). Otherwise it is read and written as a
/// value, by copy.
pub fn needs_view(schema: &Schema, i: usize) -> bool {
    schema.access.structs[i].needs_view
}

/// Whether struct `i` gets a live view: a shared struct that is not copied whole under a
/// seqlock, and either needs one or is not held by another shared struct (a header).
/// Computed once by the access lowering (`StructAccess::has_view`).
pub fn has_view(schema: &Schema, i: usize) -> bool {
    schema.access.structs[i].has_view
}

/// The guards of a seqlock with a value type of its own, in copy order: fields (so that a
/// size field comes before the part it sizes), then trailer parts; padding left out.
pub fn value_guards(schema: &Schema, lock: &Seqlock) -> Vec<Guard> {
    let s = &schema.abi.structs[lock.struct_index];
    let fields = lock
        .guards
        .iter()
        .filter(|g| matches!(g, Guard::Field(f) if !s.fields[*f].is_padding()));
    let parts = lock
        .guards
        .iter()
        .filter(|g| matches!(g, Guard::Trailer(_)));
    fields.chain(parts).copied().collect()
}

/// Contiguous runs of the fields a seqlock guards, as byte ranges of its struct.
pub fn guarded_runs(schema: &Schema, lock: &Seqlock) -> Vec<(u64, u64)> {
    let l = schema.layout.of(lock.struct_index);
    let mut fields: Vec<usize> = lock
        .guards
        .iter()
        .filter_map(|g| match g {
            Guard::Field(f) => Some(*f),
            Guard::Trailer(_) => None,
        })
        .collect();
    fields.sort_unstable();
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for f in fields {
        let (start, end) = (l.fields[f].offset, l.fields[f].offset + l.fields[f].size);
        match runs.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => runs.push((start, end)),
        }
    }
    runs
}

/// The fields of `lock`'s struct that size one of the trailer parts it guards: a writer
/// stores them from the payload's length, never from the value it is given.
pub fn size_fields(schema: &Schema, lock: &Seqlock) -> Vec<usize> {
    let trailer = &schema.access.structs[lock.struct_index].trailer;
    lock.guards
        .iter()
        .filter_map(|g| match g {
            Guard::Trailer(t) => trailer[*t].size_field,
            Guard::Field(_) => None,
        })
        .collect()
}
