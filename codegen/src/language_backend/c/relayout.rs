//! The C header's re-layout (`templates/c_relayout.h.j2`): `<prefix>_relayout_keep` and
//! `<prefix>_relayout`, printed from `plan::relayout` (what a re-layout keeps); after the
//! attach helpers, whose produce it calls.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_relayout.h.j2",
    source: include_str!("../../../templates/c_relayout.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context {
    p: String,
    pu: String,
    runs: Vec<RunCtx>,
    bind: Option<BindCtx>,
    end: u64,
    held_at: u64,
    held_width: u64,
}

#[derive(Serialize)]
struct RunCtx {
    names: String,
    at: u64,
    width: u64,
    count: u64,
}

#[derive(Serialize)]
struct BindCtx {
    name: String,
    at: u64,
    size: u64,
    word: u64,
    elem: u64,
    elem_bits: u64,
    per_word: u64,
    mask: String,
    unbound: u64,
    rows: u64,
}

/// The re-layout helpers, or `None` when the schema has nothing to re-lay out.
pub(super) fn render_c_relayout(schema: &Schema) -> Result<Option<String>, RenderError> {
    let Some(plan) = crate::plan::relayout::relayout(schema) else {
        return Ok(None);
    };
    let p = schema.abi.c_prefix.clone();
    let context = Context {
        pu: p.to_ascii_uppercase(),
        runs: (plan.runs.iter())
            .map(|r| RunCtx {
                names: r.names.join(", "),
                at: r.at,
                width: r.width,
                count: r.count,
            })
            .collect(),
        bind: plan.bind.as_ref().map(|b| BindCtx {
            name: b.name.clone(),
            at: b.at,
            size: b.size,
            word: b.word,
            elem: b.elem,
            elem_bits: 8 * b.elem,
            per_word: b.word / b.elem.max(1),
            mask: format!("{:#x}", u64::MAX >> (64 - 8 * b.elem.clamp(1, 8))),
            unbound: b.unbound,
            rows: b.rows,
        }),
        end: plan.end(),
        held_at: plan.held.offset,
        held_width: plan.held.width,
        p,
    };
    COMPILED.render(context).map(Some)
}
