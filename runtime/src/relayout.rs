//! A re-layout that keeps the host's own fields: the generated `relayout` copies them from
//! the live header into a new image before producing it. What is kept is the generator's
//! plan (`codegen/src/plan/relayout.rs`), printed as a [`Keep`]; this module only copies.
//!
//! Each kept word is read with one acquire load of its own size (an atomic field's width, a
//! plain field's scalars each one load of its width, a bind field's words whole), so no byte
//! of the header is accessed with two sizes; the image is the host's own bytes, not shared
//! yet. Nothing is read unless the mapping holds an image (its generation is not 0): a new
//! mapping keeps the image's values.

use crate::attach::Field;
use crate::produce::{Image, ProduceError};
use crate::raw::{Region, Writable};

/// `count` words of `width` bytes, back to back from `at` of the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptRun {
    /// From the header's start.
    pub at: usize,
    /// Bytes of each word: 1, 2, 4 or 8.
    pub width: usize,
    /// Words in the run.
    pub count: usize,
}

/// A session's bind field: each mark that is neither a row (below `rows`: a claim, which the
/// re-layout frees) nor `unbound` is the host's own, and kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptBind {
    /// From the header's start.
    pub at: usize,
    /// Bytes of the whole field, read in words of `word` bytes, each holding marks of
    /// `elem` bytes.
    pub size: usize,
    /// Bytes of each word it is read in (its access width).
    pub word: usize,
    /// Bytes of each mark.
    pub elem: usize,
    /// The mark of an unbound pad.
    pub unbound: u64,
    /// The rows a mark may name: marks below it are claims.
    pub rows: u64,
}

/// What a re-layout keeps, as the generator's plan says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep<'a> {
    /// The handshake's generation: the mapping holds an image when it is not 0.
    pub held: Field,
    /// The header's kept words.
    pub runs: &'a [KeptRun],
    /// The pads' marks kept, when a session binds pads in the header.
    pub bind: Option<KeptBind>,
}

impl Keep<'_> {
    /// The first byte past every kept word: the least of a live header and of an image.
    pub fn end(&self) -> usize {
        let runs = self
            .runs
            .iter()
            .map(|r| r.at.saturating_add(r.width.saturating_mul(r.count)));
        let bind = self.bind.iter().map(|b| b.at.saturating_add(b.size));
        let held = self.held.offset.saturating_add(self.held.width);
        runs.chain(bind).fold(held, usize::max)
    }
}

/// Copies what `keep` names from the live header at the start of `region` into `image`.
/// `MappingTooShort` (nothing written) when the region or the image ends before
/// [`Keep::end`].
pub fn keep<A: Writable>(
    region: Region<'_, A>,
    image: &mut Image,
    keep: &Keep<'_>,
) -> Result<(), ProduceError> {
    let end = keep.end();
    for found in [region.len(), image.bytes.len()] {
        if found < end {
            return Err(ProduceError::MappingTooShort {
                expected: end as u64,
                found: found as u64,
            });
        }
    }
    if crate::produce::load(region, keep.held) == 0 {
        return Ok(());
    }
    for r in keep.runs {
        for i in 0..r.count {
            let f = Field::new(r.at + i * r.width, r.width);
            f.put(&mut image.bytes, crate::produce::load(region, f));
        }
    }
    if let Some(b) = keep.bind {
        let elem = b.elem.clamp(1, 8);
        let mask = u64::MAX >> (64 - 8 * elem);
        for w in (b.at..b.at + b.size).step_by(b.word.max(1)) {
            let value = crate::produce::load(region, Field::new(w, b.word));
            for k in 0..b.word / elem {
                let mark = (value >> (8 * elem * k)) & mask;
                if mark >= b.rows && mark != b.unbound {
                    Field::new(w + k * elem, elem).put(&mut image.bytes, mark);
                }
            }
        }
    }
    Ok(())
}
