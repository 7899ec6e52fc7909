//! What every target's live layer decides alike: whether there is one, which structs get a
//! view, the order in which a seqlock's value copies its parts, and the byte runs it
//! copies. One rule each, so that Rust, C and Python touch the same bytes with the same
//! access sizes.

use crate::ir::StructId;
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
pub fn needs_view(schema: &Schema, i: StructId) -> bool {
    schema.access.structs[i].needs_view
}

/// Whether struct `i` gets a live view: a shared struct that is not copied whole under a
/// seqlock, and either needs one or is not held by another shared struct (a header).
/// Computed once by the access lowering (`StructAccess::has_view`).
pub fn has_view(schema: &Schema, i: StructId) -> bool {
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

/// A word a producer writes at a protocol's start value instead of zero: an exchange's
/// state word at its `initial_state`, and each element of a session's bind table at its
/// `unbound` value (no row owns a pad in a new image). Every backend's producer writes the
/// same words, from this one list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialWord {
    /// The struct that holds it.
    pub struct_index: StructId,
    /// `struct.field`, or `struct.field[i]` for an element.
    pub name: String,
    /// From the start of the struct.
    pub offset: u64,
    /// Bytes: 1, 2, 4 or 8.
    pub width: u64,
    pub value: u64,
}

/// Every [`InitialWord`] of the schema, in protocol order.
pub fn initial_words(schema: &Schema) -> Vec<InitialWord> {
    use crate::ir::protocol::ProtocolKind;
    let mut out = Vec::new();
    let name = |s: StructId, f: usize| {
        format!(
            "{}.{}",
            schema.abi.structs[s].name, schema.abi.structs[s].fields[f].name
        )
    };
    for p in &schema.protocols {
        match &p.kind {
            ProtocolKind::Exchange(e) if e.start.state != 0 => {
                let f = &schema.layout.of(e.header).fields[e.state];
                out.push(InitialWord {
                    struct_index: e.header,
                    name: name(e.header, e.state),
                    offset: f.offset,
                    width: f.size,
                    value: u64::from(e.start.state),
                });
            }
            ProtocolKind::Session(s) => {
                let Some((bind, unbound)) = s.bind else {
                    continue;
                };
                let (si, fi) = (bind.struct_index, bind.field);
                let f = &schema.layout.of(si).fields[fi];
                let count = schema.abi.structs[si].fields[fi].ty.count();
                let elem = f.size.checked_div(count).unwrap_or(0);
                if unbound == 0 || elem == 0 {
                    continue;
                }
                // The whole table as one word when it fits one (the bridge's four pad
                // owners, one u32 of 0xFF bytes); else element by element.
                if matches!(f.size, 1 | 2 | 4 | 8) {
                    let value = (0..count).fold(0u64, |v, i| v | unbound << (8 * elem * i));
                    out.push(InitialWord {
                        struct_index: si,
                        name: name(si, fi),
                        offset: f.offset,
                        width: f.size,
                        value,
                    });
                    continue;
                }
                for i in 0..count {
                    out.push(InitialWord {
                        struct_index: si,
                        name: format!("{}[{i}]", name(si, fi)),
                        offset: f.offset + i * elem,
                        width: elem,
                        value: unbound,
                    });
                }
            }
            _ => {}
        }
    }
    out
}
