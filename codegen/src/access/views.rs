//! Which shared structs get a live view, decided once for every target: a struct needs a
//! view when it has an atomic field or a seqlock, or holds a struct that does; a header
//! (a shared struct that no shared struct holds) gets one too. Linear in the fields: each
//! struct's answer is computed once and kept.

use crate::ir::PerStruct;
use crate::ir::StructId;
use crate::ir::access::StructAccess;
use crate::ir::{Abi, Elem};

/// Fills `needs_view` and `has_view` of every struct.
pub(super) fn compute_views(abi: &Abi, structs: &mut PerStruct<StructAccess>) {
    let mut needs: Vec<Option<bool>> = vec![None; structs.len()];
    for i in abi.struct_ids() {
        needs_view(abi, structs, &mut needs, i);
    }
    let mut held = vec![false; structs.len()];
    for (j, s) in abi.structs_with_ids() {
        if structs[j].shared {
            for f in &s.fields {
                if let Elem::Struct(i) = f.ty.elem {
                    held[i.index()] = true;
                }
            }
        }
    }
    for (i, a) in structs.iter_mut().enumerate() {
        a.needs_view = needs[i] == Some(true);
        a.has_view = a.shared && !a.guarded_whole && (a.needs_view || !held[i]);
    }
}

/// Whether struct `i` needs a view, memoised in `memo`. Struct nesting has no cycles (the
/// lowering refuses them), so the recursion ends.
fn needs_view(
    abi: &Abi,
    structs: &PerStruct<StructAccess>,
    memo: &mut [Option<bool>],
    i: StructId,
) -> bool {
    if let Some(known) = memo[i.index()] {
        return known;
    }
    let a = &structs[i];
    let needs = a.shared
        && !a.guarded_whole
        && (a.fields.iter().any(|f| f.kind.is_atomic())
            || !a.seqlocks.is_empty()
            || abi.structs[i].fields.iter().any(|f| match f.ty.elem {
                Elem::Struct(j) => j != i && needs_view(abi, structs, memo, j),
                _ => false,
            }));
    memo[i.index()] = Some(needs);
    needs
}
