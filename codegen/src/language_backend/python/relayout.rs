//! The Python module's re-layout (`templates/python_relayout.py.j2`): `relayout_keep` and
//! `relayout`, printed from `plan::relayout` (what a re-layout keeps), in the live section
//! (its loads) and calling the attach section's `produce`.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::relayout::{KeptBind, KeptRun};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "python_relayout.py.j2",
    source: include_str!("../../../templates/python_relayout.py.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context<'a> {
    runs: &'a [KeptRun],
    kept: String,
    bind: Option<&'a KeptBind>,
    end: u64,
    held_at: u64,
    held_width: u64,
}

/// The section's text and its exports, or `None` when the schema has nothing to re-lay out.
pub(super) fn render_relayout(
    schema: &Schema,
) -> Result<Option<(String, Vec<String>)>, RenderError> {
    let Some(plan) = crate::plan::relayout::relayout(schema) else {
        return Ok(None);
    };
    let kept = plan.kept_names();
    let text = COMPILED.render(Context {
        runs: &plan.runs,
        kept: if kept.is_empty() {
            "none".to_string()
        } else {
            kept.join(", ")
        },
        bind: plan.bind.as_ref(),
        end: plan.end(),
        held_at: plan.held.offset,
        held_width: plan.held.width,
    })?;
    Ok(Some((
        format!("\n\n{}\n", text.trim()),
        vec!["relayout".to_string(), "relayout_keep".to_string()],
    )))
}

/// The stub of the section: `handle` is the root layout's handle class.
pub(super) fn stub(schema: &Schema, handle: &str) -> String {
    match crate::plan::relayout::relayout(schema) {
        Some(_) => format!(
            "\ndef relayout_keep(buffer: _Buffer, image: bytearray) -> None: ...\n\
             def relayout(buffer: _Buffer, image: bytearray) -> {handle}: ...\n"
        ),
        None => String::new(),
    }
}
