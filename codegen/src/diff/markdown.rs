//! The pull-request comment of `abi-codegen diff --format markdown`: the verdict first (a
//! summary line and the policy's problems), then one table per severity with a row per root
//! cause, its effects folded in a `<details>`. The shape of the text is
//! `templates/diff.md.j2`; this module decides what goes in and escapes it.

use serde::Serialize;

use super::change::Severity;
use super::model::{Diff, Sources};
use crate::language_backend::RenderError;
use crate::language_backend::text::{Template, environment, render};

const TEMPLATE: Template = Template {
    name: "diff.md.j2",
    source: include_str!("../../templates/diff.md.j2"),
};

#[derive(Serialize)]
struct Context {
    summary: String,
    problems: Vec<String>,
    tables: Vec<Table>,
    footer: String,
}

#[derive(Serialize)]
struct Table {
    heading: &'static str,
    rows: Vec<Row>,
}

#[derive(Serialize)]
struct Row {
    path: String,
    change: String,
    old: String,
    new: String,
    why: String,
}

/// Text for a table cell: no line breaks, no pipes, and no HTML that GitHub would swallow.
fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace('\n', "<br>")
}

/// Schema text in backticks. A code span shows entities as written, so only the pipe (which
/// would end the table cell) and the backtick are replaced.
fn code(s: &str) -> String {
    format!(
        "`{}`",
        s.replace('`', "'").replace('|', "\\|").replace('\n', " ")
    )
}

/// The markdown comment.
pub fn render_markdown(diff: &Diff, sources: &Sources) -> Result<String, RenderError> {
    let (mark, verdict) = if diff.verdict.ok() {
        ("✅", "the version policy holds")
    } else {
        ("❌", "the version policy does not hold")
    };
    let summary = if diff.new_abi.is_some() {
        format!(
            "{mark} **New ABI `{}` {}**: {}. {}: {}.",
            diff.abi,
            diff.new_version,
            diff.counts_line(),
            capitalise(verdict),
            diff.verdict_line()
        )
    } else {
        format!(
            "{mark} **ABI diff of `{}` {} → {}**: {}. {}: {}.",
            diff.abi,
            diff.old_version,
            diff.new_version,
            diff.counts_line(),
            capitalise(verdict),
            diff.verdict_line()
        )
    };
    let tables = Severity::ALL
        .iter()
        .map(|s| Table {
            heading: s.heading(),
            rows: diff
                .grouped()
                .filter(|(g, _, _)| g.severity == *s)
                .map(|(_, c, effects)| {
                    let mut why = cell(&c.reason);
                    if !c.embedded_in.is_empty() {
                        let held: Vec<String> = c.embedded_in.iter().map(|h| code(h)).collect();
                        why.push_str(&format!("; {} {}", c.embedded_label(), held.join(", ")));
                    }
                    why.push_str(&format!("<br>**Fix:** {}", cell(&c.advice)));
                    if let Some(v) = &c.violation {
                        why.push_str(&format!("<br>**Version policy:** {}", cell(v)));
                    }
                    if !effects.is_empty() {
                        let lines: Vec<String> =
                            effects.iter().map(|e| cell(&e.effect_line())).collect();
                        why.push_str(&format!(
                            "<details><summary>{} effect{}</summary>{}</details>",
                            effects.len(),
                            if effects.len() == 1 { "" } else { "s" },
                            lines.join("<br>")
                        ));
                    }
                    let (old, new) = c.describe_sides(&|s| code(s), &|s| cell(s));
                    Row {
                        path: code(&c.path),
                        change: format!("{} {}", cell(&c.summary), code(c.rule().id)),
                        old: old.unwrap_or_default(),
                        new: new.unwrap_or_default(),
                        why,
                    }
                })
                .collect(),
        })
        .filter(|t| !t.rows.is_empty())
        .collect();
    let context = Context {
        summary,
        problems: diff.verdict.problems.iter().map(|p| cell(p)).collect(),
        tables,
        footer: cell(&format!(
            "abi-codegen diff: {} → {}",
            sources.old_name, sources.new_file
        )),
    };
    let mut env = environment();
    render(&mut env, &TEMPLATE, context)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
