//! How layout tables link up: blocks take their nested layout's alignment, no layout holds
//! itself, one layout is where a mapping starts, and the handles' names are free.

use super::LowerAttach;
use crate::ir::attach::{Attach, Holds, LayoutTable, MAX_BLOCK_NESTING};
use crate::ir::id::LayoutId;
use crate::ir::names::{camel, rust_live_import};
use crate::parse::RawSchema;

impl LowerAttach<'_> {
    /// A layout's handle type must not take a name the live module already uses, and a
    /// row's accessors must not take one of the handle's own methods.
    pub(super) fn check_handle_names(&mut self, raw: &RawSchema) {
        let access = self.access;
        let mut taken: Vec<(String, String)> = Vec::new();
        for (i, s) in self.abi.structs_with_ids() {
            let a = &access.structs[i];
            if a.shared && !a.guarded_whole {
                taken.push((camel(&s.name), format!("struct `{}`", s.name)));
            }
            if raw.structs[i].get_ref().version.is_some() {
                taken.push((
                    format!("Versioned{}", camel(&s.name)),
                    format!("the reader of struct `{}`", s.name),
                ));
            }
        }
        for l in &access.seqlocks {
            taken.push((camel(&l.name), format!("seqlock `{}`", l.name)));
        }
        for r in &access.rings {
            taken.push((camel(&r.name), format!("ring `{}`", r.name)));
        }
        const METHODS: [&str; 7] = [
            "attach",
            "producer",
            "header_size",
            "extent",
            "region",
            "table",
            "header",
        ];
        for l in &raw.layouts {
            let l = l.get_ref();
            let shown = camel(l.name.get_ref());
            if let Some(path) = rust_live_import(&shown) {
                self.errors.error_help(
                    &self.inner(&l.name),
                    format!(
                        "layout `{}` becomes `{shown}` in the Rust live module, which imports `{path}` under that name",
                        l.name.get_ref()
                    ),
                    "rename the layout",
                );
            } else if let Some((_, other)) = taken.iter().find(|(t, _)| *t == shown) {
                self.errors.error_help(
                    &self.inner(&l.name),
                    format!(
                        "layout `{}` and {other} both become `{shown}` in the Rust live module",
                        l.name.get_ref()
                    ),
                    "rename the layout",
                );
            }
            let rows: Vec<&str> = l
                .rows
                .get_ref()
                .iter()
                .map(|r| r.get_ref().name.get_ref().as_str())
                .collect();
            for r in l.rows.get_ref() {
                let name = r.get_ref().name.get_ref().as_str();
                let region_of = name
                    .strip_suffix("_region")
                    .filter(|base| rows.contains(base));
                let clash = if METHODS.contains(&name)
                    && !(name == "header"
                        && r.get_ref()
                            .structure
                            .as_ref()
                            .is_some_and(|s| *s.get_ref() == *l.header.get_ref()))
                {
                    Some(format!("the handle's own `{name}()`"))
                } else {
                    region_of.map(|base| format!("row `{base}`'s `{name}()`"))
                };
                if let Some(clash) = clash {
                    self.errors.error_help(
                        &self.inner(&r.get_ref().name),
                        format!("layout `{}`, row `{name}`: its accessor `{name}()` clashes with {clash}", l.name.get_ref()),
                        "rename the enum value, or hold it in another layout",
                    );
                }
            }
        }
    }

    /// Refuses a layout with more than [`MAX_BLOCK_NESTING`] levels of blocks below it, at
    /// the outermost such layout (one that no other layout's blocks hold). A cycle is
    /// `settle_blocks`' error: its layouts count as no levels here.
    pub(super) fn check_nesting(&mut self, layouts: &[LayoutTable]) {
        fn levels(layouts: &[LayoutTable], i: usize, memo: &mut [Option<usize>]) -> usize {
            if let Some(n) = memo[i] {
                return n;
            }
            memo[i] = Some(0); // on the path: a cycle ends here
            let n = layouts[i]
                .rows
                .iter()
                .filter_map(|r| match r.holds {
                    Holds::Blocks { layout, .. } => Some(1 + levels(layouts, layout.index(), memo)),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            memo[i] = Some(n);
            n
        }
        let mut memo = vec![None; layouts.len()];
        let held: Vec<usize> = layouts
            .iter()
            .flat_map(|l| &l.rows)
            .filter_map(|r| match r.holds {
                Holds::Blocks { layout, .. } => Some(layout.index()),
                _ => None,
            })
            .collect();
        for (i, l) in layouts.iter().enumerate() {
            let n = levels(layouts, i, &mut memo);
            if n > MAX_BLOCK_NESTING && !held.contains(&i) {
                self.errors.error_help(
                    &l.span,
                    format!(
                        "layout `{}` nests {n} levels of blocks, more than the {MAX_BLOCK_NESTING} a layout may",
                        l.name
                    ),
                    "flatten the nesting: a block's layout may hold regions directly",
                );
            }
        }
    }

    /// Gives blocks their nested layout's alignment, innermost first; refuses a layout that
    /// nests itself, and a stride that breaks the alignment or cannot hold the block's
    /// header.
    pub(super) fn settle_blocks(&mut self, raw: &RawSchema, layouts: &mut [Option<LayoutTable>]) {
        let n = layouts.len();
        // Each pass settles the layouts whose blocks are all settled; n passes at most.
        let mut settled = vec![false; n];
        for _ in 0..=n {
            for i in 0..n {
                if settled[i] {
                    continue;
                }
                let l = layouts[i].as_ref().expect("all lowered");
                let nested: Vec<usize> = l
                    .rows
                    .iter()
                    .filter_map(|r| match r.holds {
                        Holds::Blocks { layout, .. } => Some(layout.index()),
                        _ => None,
                    })
                    .collect();
                if nested.iter().any(|&j| !settled[j]) {
                    continue;
                }
                let aligns: Vec<(u64, u64)> = nested
                    .iter()
                    .map(|&j| {
                        let t = layouts[j].as_ref().expect("all lowered");
                        (t.align, self.layout.of(t.header).size)
                    })
                    .collect();
                let l = layouts[i].as_mut().expect("all lowered");
                let mut k = 0;
                for (ri, row) in l.rows.iter_mut().enumerate() {
                    let Holds::Blocks { stride, .. } = row.holds else {
                        continue;
                    };
                    let (align, header) = aligns[k];
                    k += 1;
                    row.align = align;
                    let bad = if stride % align != 0 {
                        Some(format!(
                            "stride {stride} is not a multiple of the block's alignment, {align}"
                        ))
                    } else if stride < header {
                        Some(format!(
                            "stride {stride} cannot hold the block's {header}-byte header"
                        ))
                    } else {
                        None
                    };
                    if let Some(bad) = bad {
                        let raw_row = raw.layouts[i]
                            .get_ref()
                            .rows
                            .get_ref()
                            .iter()
                            .find(|r| r.get_ref().name.get_ref() == &row.name);
                        let span = raw_row
                            .and_then(|r| r.get_ref().stride.as_ref().map(|s| s.span()))
                            .unwrap_or_else(|| l.span.clone());
                        self.errors.error(
                            &span,
                            format!("layout `{}`, row `{}`: {bad}", l.name, row.name),
                        );
                    }
                    let _ = ri;
                }
                l.align = l.rows.iter().map(|r| r.align).fold(l.align, u64::max);
                settled[i] = true;
            }
        }
        let holds = |i: usize| -> Vec<usize> {
            let l = layouts[i].as_ref().expect("all lowered");
            l.rows
                .iter()
                .filter_map(|r| match r.holds {
                    Holds::Blocks { layout, .. } => Some(layout.index()),
                    _ => None,
                })
                .collect()
        };
        for (i, done) in settled.iter().enumerate() {
            // Only the layouts on a cycle: the others merely wait on one.
            let mut seen = vec![false; n];
            let mut stack = holds(i);
            let mut on_cycle = false;
            while let Some(j) = stack.pop() {
                on_cycle |= j == i;
                if !std::mem::replace(&mut seen[j], true) {
                    stack.extend(holds(j));
                }
            }
            if !done && on_cycle {
                let l = layouts[i].as_ref().expect("all lowered");
                self.errors.error_help(
                    &l.span,
                    format!(
                        "layout `{}` holds itself as blocks, directly or through another layout",
                        l.name
                    ),
                    "a block is laid out by a layout that does not contain it",
                );
            }
        }
    }

    /// The layout a mapping starts with: its header has a version handshake, and no other
    /// layout holds it as blocks. At most one.
    pub(super) fn find_root(&mut self, raw: &RawSchema, attach: &mut Attach) {
        let nested: Vec<usize> = attach
            .layouts
            .iter()
            .flat_map(|l| l.rows.iter())
            .filter_map(|r| match r.holds {
                Holds::Blocks { layout, .. } => Some(layout.index()),
                _ => None,
            })
            .collect();
        let roots: Vec<usize> = (0..attach.layouts.len())
            .filter(|i| !nested.contains(i))
            .collect();
        for &i in &roots {
            let l = &attach.layouts[i];
            if !attach.handshakes.iter().any(|h| h.struct_index == l.header) {
                self.errors.error_help(
                    &self.inner(&raw.layouts[i].get_ref().header),
                    format!(
                        "layout `{}`: a mapping starts with header `{}`, which has no version handshake",
                        l.name, self.abi.structs[l.header].name
                    ),
                    "give the header struct `version = { magic = ..., major = ..., minor = ..., size = ... }`, or hold this layout as `blocks` in another",
                );
            }
        }
        if let [_, second, ..] = roots[..] {
            self.errors.error_help(
                &self.inner(&raw.layouts[second].get_ref().name),
                format!(
                    "layout `{}`: a second layout that no other holds; `attach` starts from one",
                    attach.layouts[second].name
                ),
                format!(
                    "hold it as `blocks` in layout `{}`, or remove it",
                    attach.layouts[roots[0]].name
                ),
            );
        }
        attach.root = roots.first().copied().map(LayoutId::new);
    }
}
