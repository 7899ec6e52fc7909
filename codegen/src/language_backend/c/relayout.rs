//! The C header's re-layout (`templates/c_relayout.h.j2`): `<prefix>_relayout_keep` and
//! `<prefix>_relayout`, printed from `plan::relayout` (what a re-layout keeps); after the
//! attach helpers, whose produce it calls.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::relayout::{KeptBind, KeptRun};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_relayout.h.j2",
    source: include_str!("../../../templates/c_relayout.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context<'a> {
    p: String,
    pu: String,
    runs: &'a [KeptRun],
    bind: Option<&'a KeptBind>,
    end: u64,
    held_at: u64,
    held_width: u64,
}

/// The re-layout helpers, or `None` when the schema has nothing to re-lay out.
pub(super) fn render_c_relayout(schema: &Schema) -> Result<Option<String>, RenderError> {
    let Some(plan) = crate::plan::relayout::relayout(schema) else {
        return Ok(None);
    };
    let p = schema.abi.c_prefix.clone();
    let context = Context {
        pu: p.to_ascii_uppercase(),
        runs: &plan.runs,
        bind: plan.bind.as_ref(),
        end: plan.end(),
        held_at: plan.held.offset,
        held_width: plan.held.width,
        p,
    };
    COMPILED.render(context).map(Some)
}
