//! The JSON report of `abi-codegen diff --format json`, for tools: the verdict first, counts
//! per severity, and every root cause with its kind, path, old and new shape and source
//! lines, and its effects nested under it in full. Every change has an `id`; an effect names
//! the change it directly follows from as `cause`.

use serde::Serialize;
use serde_json::{Value, json};

use super::change::{Change, Severity};
use super::model::{Diff, Sources};

/// The report's top level, in the order it prints: the verdict first.
#[derive(Serialize)]
struct Report<'a> {
    verdict: Value,
    abi: &'a str,
    new_abi: bool,
    old: Value,
    new: Value,
    counts: serde_json::Map<String, Value>,
    changes: Vec<Value>,
}

fn change_value(diff: &Diff, sources: &Sources, id: usize, c: &Change) -> Value {
    let at = sources.locate(c, &diff.abi_span);
    json!({
        "id": id,
        "cause": c.cause,
        "severity": c.severity,
        "kind": c.kind,
        "item": c.item,
        "path": c.path,
        "summary": c.summary,
        "reason": c.reason,
        "rule": c.rule().id,
        "advice": c.advice,
        "old": c.old,
        "new": c.new,
        "used_by": c.embedded_in,
        "violation": c.violation,
        "old_line": c.old_span.as_ref().map(|s| sources.old_line(s)),
        "new_line": c.new_span.as_ref().map(|s| sources.new_line(s)),
        "annotation": { "file": at.file, "line": at.line, "column": at.column },
    })
}

/// The JSON report, pretty-printed, with a final newline.
pub fn render_json(diff: &Diff, sources: &Sources) -> String {
    let mut counts: serde_json::Map<String, Value> = Severity::ALL
        .iter()
        .map(|s| (s.label().replace('-', "_"), json!(diff.count(*s))))
        .collect();
    counts.insert("effects".to_string(), json!(diff.effect_count()));
    let changes: Vec<Value> = diff
        .groups
        .iter()
        .map(|g| {
            let mut root = change_value(diff, sources, g.root, &diff.changes[g.root]);
            root["group_severity"] = json!(g.severity);
            root["effects"] = g
                .effects
                .iter()
                .map(|i| change_value(diff, sources, *i, &diff.changes[*i]))
                .collect();
            root
        })
        .collect();
    let report = Report {
        verdict: json!({
            "ok": diff.verdict.ok(),
            "summary": diff.verdict_line(),
            "policy": diff.verdict.policy.name(),
            "required_bump": diff.verdict.required,
            "version_step": diff.verdict.actual.map_or_else(|| json!("backwards"), |b| json!(b)),
            "asks_version": diff.verdict.target.to_string(),
            "problems": diff.verdict.problems,
        }),
        abi: &diff.abi,
        new_abi: diff.new_abi.is_some(),
        old: json!({
            "version": diff.new_abi.is_none().then(|| diff.old_version.to_string()),
            "source": sources.old_name,
        }),
        new: json!({ "version": diff.new_version.to_string(), "source": sources.new_file }),
        counts,
        changes,
    };
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_else(|e| {
        // Only maps with non-string keys fail to serialize; this report has none.
        format!("{{\"error\": \"cannot serialize the report: {e}\"}}")
    });
    text.push('\n');
    text
}
