//! The Python module's re-layout (`templates/python_relayout.py.j2`): `relayout_keep` and
//! `relayout`, printed from `plan::relayout` (what a re-layout keeps), in the live section
//! (its loads) and calling the attach section's `produce`.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "python_relayout.py.j2",
    source: include_str!("../../../templates/python_relayout.py.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context {
    runs: Vec<RunCtx>,
    kept: String,
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
    unbound: u64,
    rows: u64,
}

/// The section's text and its exports, or `None` when the schema has nothing to re-lay out.
pub(super) fn render_relayout(
    schema: &Schema,
) -> Result<Option<(String, Vec<String>)>, RenderError> {
    let Some(plan) = crate::plan::relayout::relayout(schema) else {
        return Ok(None);
    };
    let mut kept: Vec<&str> = Vec::new();
    for n in plan.runs.iter().flat_map(|r| r.names.iter()) {
        if !kept.contains(&n.as_str()) {
            kept.push(n);
        }
    }
    let text = COMPILED.render(Context {
        runs: (plan.runs.iter())
            .map(|r| RunCtx {
                names: r.names.join(", "),
                at: r.at,
                width: r.width,
                count: r.count,
            })
            .collect(),
        kept: if kept.is_empty() {
            "none".to_string()
        } else {
            kept.join(", ")
        },
        bind: plan.bind.as_ref().map(|b| BindCtx {
            name: b.name.clone(),
            at: b.at,
            size: b.size,
            word: b.word,
            elem: b.elem.max(1),
            unbound: b.unbound,
            rows: b.rows,
        }),
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
