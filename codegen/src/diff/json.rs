//! The JSON report of `abi-codegen diff --format json`, for tools: the verdict, counts per
//! severity, and every change with its kind, path, old and new shape and source lines.

use serde_json::{Value, json};

use super::{Diff, Severity, Sources};

/// The JSON report, pretty-printed, with a final newline.
pub fn render_json(diff: &Diff, sources: &Sources) -> String {
    let counts: serde_json::Map<String, Value> = Severity::ALL
        .iter()
        .map(|s| {
            (
                serde_json::to_value(s)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                json!(diff.count(*s)),
            )
        })
        .collect();
    let changes: Vec<Value> = diff
        .changes
        .iter()
        .map(|c| {
            let at = sources.locate(c, &diff.abi_span);
            json!({
                "severity": c.severity,
                "kind": c.kind,
                "item": c.item,
                "path": c.path,
                "summary": c.summary,
                "reason": c.reason,
                "old": c.old,
                "new": c.new,
                "used_by": c.embedded_in,
                "violation": c.violation,
                "old_line": c.old_span.as_ref().map(|s| sources.old_line(s)),
                "new_line": c.new_span.as_ref().map(|s| sources.new_line(s)),
                "annotation": { "file": at.file, "line": at.line, "column": at.column },
            })
        })
        .collect();
    let value = json!({
        "abi": diff.abi,
        "old": { "version": diff.old_version.to_string(), "source": sources.old_name },
        "new": { "version": diff.new_version.to_string(), "source": sources.new_file },
        "verdict": {
            "ok": diff.verdict.ok(),
            "required_bump": diff.verdict.required,
            "version_step": diff.verdict.actual.map_or_else(|| json!("backwards"), |b| json!(b)),
            "problems": diff.verdict.problems,
        },
        "counts": counts,
        "changes": changes,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialize");
    text.push('\n');
    text
}
