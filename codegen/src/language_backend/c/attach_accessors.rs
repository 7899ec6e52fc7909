//! The C header's typed accessor of each region (`<prefix>_attached_<name>`), walked through
//! the layout tables and the blocks they nest: the region entry of the handle each one reads,
//! the block indices it takes and their bounds, its doc comment, and a blocks row's
//! first-use check. attach.rs puts them in the template's context.

use serde::Serialize;

use super::comments::render_comment_lines;
use super::names::c_type_name;
use crate::ir::access::RingKind;
use crate::ir::attach::{Holds, MAX_BLOCK_NESTING};
use crate::language_backend::output::RenderError;
use crate::schema::Schema;

/// Comment lines are wrapped to this many columns, the comment's ` * ` included.
const WIDTH: usize = 93;

/// A blocks row's first-use check: `<prefix>_attached_<name>_check`.
#[derive(Serialize)]
struct BlockCheckCtx {
    name: String,
    path: String,
    /// Outer block indices: `, unsigned i`.
    params: String,
    guard: String,
    /// `<prefix>_attach_scope_push_(scope, "client_blocks", i);` per enclosing blocks row.
    scope: Vec<(String, String)>,
    param: String,
    /// The parent table, the row's position in it, and the C expression of the parent
    /// table's first region entry.
    table: usize,
    row: usize,
    first: String,
}

/// A typed accessor of one region: `<prefix>_attached_<name>`.
#[derive(Serialize)]
pub(super) struct AccessorCtx {
    doc: String,
    name: String,
    ret: String,
    /// `, unsigned i, unsigned j`: one block index per enclosing blocks row.
    params: String,
    /// Conditions on the indices (`i < 8U`), joined by `&&`; empty when there are none.
    guard: String,
    /// The C expression of the region's entry in the handle.
    slot: String,
    /// A blocks row: its block `k` is the region's start plus `k` strides (the writer's).
    block: bool,
    /// A ring or blocks row: `_count` and `_stride` accessors of the writer's geometry.
    geometry: bool,
    block_param: String,
    /// A blocks row's first-use check.
    check: Option<BlockCheckCtx>,
}

/// A region entry of the handle: a constant plus one multiple of each block index.
#[derive(Clone, Default)]
pub(super) struct Slot {
    constant: u64,
    terms: Vec<(String, u64)>,
}

impl Slot {
    fn plus(&self, n: u64) -> Slot {
        Slot {
            constant: self.constant + n,
            terms: self.terms.clone(),
        }
    }

    fn render(&self) -> String {
        let mut out = format!("{}U", self.constant);
        for (param, mult) in &self.terms {
            out.push_str(&format!(" + (size_t){param} * {mult}U"));
        }
        out
    }
}

/// Block index parameters, by nesting depth.
fn param_name(depth: usize) -> String {
    match depth {
        0 => "i".into(),
        1 => "j".into(),
        2 => "k".into(),
        n => format!("i{n}"),
    }
}

pub(super) struct AccessorWalk<'a> {
    pub(super) schema: &'a Schema,
    pub(super) slots: &'a [u64],
    pub(super) out: &'a mut Vec<AccessorCtx>,
}

impl AccessorWalk<'_> {
    /// The accessors of every row of `layouts[t]`, whose first region entry is `base`,
    /// inside the blocks `outer` (parameter name, block count, what the path says).
    pub(super) fn walk(
        &mut self,
        t: crate::ir::LayoutId,
        prefix: &str,
        base: &Slot,
        outer: &[(String, u64, String)],
        depth: usize,
    ) -> Result<(), RenderError> {
        // Lowering refuses a cycle and nesting past MAX_BLOCK_NESTING.
        debug_assert!(depth <= MAX_BLOCK_NESTING, "lowering bounds the nesting");
        let abi = &self.schema.abi;
        let cp = &abi.c_prefix;
        let table = &self.schema.attach.layouts[t];
        let params: String = outer
            .iter()
            .map(|(n, _, _)| format!(", unsigned {n}"))
            .collect();
        let guard = outer
            .iter()
            .map(|(n, c, _)| format!("{n} < {c}U"))
            .collect::<Vec<_>>()
            .join(" && ");
        let path: String = outer.iter().map(|(_, _, p)| p.as_str()).collect();
        let mut next_block = table.rows.len() as u64;
        for (pos, row) in table.rows.iter().enumerate() {
            let name = format!("{prefix}{}", row.name);
            let slot = base.plus(pos as u64);
            let within = if outer.is_empty() {
                String::new()
            } else {
                format!(
                    "; NULL too when an index is past its block count ({})",
                    outer
                        .iter()
                        .map(|(n, c, _)| format!("{n} < {c}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let (ret, what) = match &row.holds {
                Holds::Struct { struct_index, .. } => {
                    let ty = c_type_name(&abi.structs[*struct_index].name, cp);
                    (format!("{ty} *"), format!("the {ty} at its start"))
                }
                Holds::Ring { ring } => (
                    "unsigned char *".to_string(),
                    format!(
                        "the start of the slots of ring `{}` ({cp}_attached_{name}_count and \
                         _stride give the writer's slot count and slot size)",
                        self.schema.access.rings[*ring].name
                    ),
                ),
                Holds::Bytes { .. } => {
                    ("unsigned char *".to_string(), "its first byte".to_string())
                }
                Holds::Blocks { count, .. } => (
                    "unsigned char *".to_string(),
                    format!(
                        "the start of its block number `{}` (of {count}, at the writer's stride, \
                         {cp}_attached_{name}_stride); {cp}_attached_{name}_check says whether \
                         the block passed its checks",
                        param_name(depth)
                    ),
                ),
            };
            let is_block = matches!(row.holds, Holds::Blocks { .. });
            let geometry = is_block
                || matches!(row.holds, Holds::Ring { ring } if matches!(self.schema.access.rings[ring].kind, RingKind::Slots { .. }));
            let check = is_block.then(|| BlockCheckCtx {
                name: name.clone(),
                path: format!("{path}{}", row.name),
                params: params.clone(),
                guard: guard.clone(),
                scope: outer
                    .iter()
                    .map(|(param, _, piece)| {
                        let row_name = piece.split('[').next().unwrap_or("").to_string();
                        (row_name, param.clone())
                    })
                    .collect(),
                param: param_name(depth),
                table: t.index(),
                row: pos,
                first: base.render(),
            });
            let doc_text = format!(
                "Region `{path}{}` ({}): {what}, or NULL when the producer left it out{within}. \
                 The memory is live: read and write it only through the live helpers. \
                 Its size in bytes: {cp}_attached_{name}_size (0 when absent).",
                row.name,
                row.holds.keyword()
            );
            let doc = comment(&render_comment_lines(&doc_text, WIDTH));
            self.out.push(AccessorCtx {
                doc,
                name: name.clone(),
                ret,
                params: params.clone(),
                guard: guard.clone(),
                slot: slot.render(),
                block: is_block,
                geometry,
                block_param: param_name(depth),
                check,
            });
            if let Holds::Blocks { layout, count, .. } = row.holds {
                let mut inner = base.plus(next_block);
                let param = param_name(depth);
                inner
                    .terms
                    .push((param.clone(), self.slots[layout.index()]));
                next_block += count * self.slots[layout.index()];
                let mut outer = outer.to_vec();
                outer.push((param.clone(), count, format!("{}[{param}].", row.name)));
                self.walk(layout, &format!("{name}_"), &inner, &outer, depth + 1)?;
            }
        }
        Ok(())
    }
}

/// A `/** ... */` doc comment of `lines`.
fn comment(lines: &[String]) -> String {
    let mut out = String::from("/**\n");
    for l in lines {
        out.push_str(" * ");
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(" */\n");
    out
}
