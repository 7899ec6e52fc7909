//! GitHub Actions workflow annotations (`--format github`): the verdict first, on the new
//! schema's `version` line, then one `::error`, `::warning` or `::notice` line per root
//! cause, on the line that changed; at most ten in all, as GitHub shows no more.

use std::fmt::Write;

use super::change::{Change, Severity};
use super::model::{Diff, Group, Location, Sources};
use super::policy::required_bump;
use super::verdict::Bump;

/// Escapes an annotation's message, as the workflow command syntax requires.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes an annotation property (file, title).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub shows about 10 error annotations of a step; more are dropped.
pub const MAX_ANNOTATIONS: usize = 10;

/// How many effects a root cause's annotation lists before "and N more".
const EFFECTS_LISTED: usize = 8;

/// The level of one root cause: an error when the version policy rejects it, a warning for a
/// break the version allows, a notice for the rest.
fn level(diff: &Diff, g: &Group, c: &Change) -> &'static str {
    let bump_allows = |needed: Bump| diff.verdict.actual.is_some_and(|a| a >= needed);
    let needed = required_bump(diff.verdict.policy, g.severity, diff.old_version);
    let rejected = diff.new_abi.is_none() && (c.violation.is_some() || !bump_allows(needed));
    match g.severity {
        _ if rejected => "error",
        Severity::Breaking | Severity::SourceBreaking => "warning",
        Severity::Compatible | Severity::Cosmetic => "notice",
    }
}

fn annotation(out: &mut String, level: &str, at: &Location, title: &str, message: &str) {
    let _ = writeln!(
        out,
        "::{level} file={},line={},col={},title={}::{}",
        escape_property(&at.file),
        at.line,
        at.column,
        escape_property(title),
        escape_data(message)
    );
}

/// The annotations, one per line, at most [`MAX_ANNOTATIONS`]: the verdict first, on the new
/// schema's `version` line, then the root causes, most severe first, each on its own line
/// with its effects in the message. Root causes past the limit are counted in the verdict;
/// the markdown report (the job summary) has them all.
pub fn render_github(diff: &Diff, sources: &Sources) -> String {
    let mut out = String::new();
    let shown = diff.groups.len().min(MAX_ANNOTATIONS - 1);
    let (line, column) = crate::diagnostics::line_col(sources.new_src, diff.version_span.start);
    let at = Location {
        file: sources.new_file.to_string(),
        line,
        column,
    };
    let mut message = format!("{}: {}", diff.counts_line(), diff.verdict_line());
    for p in &diff.verdict.problems {
        let _ = write!(message, "\n- {p}");
    }
    if shown < diff.groups.len() {
        let _ = write!(
            message,
            "\n{} more change{} not annotated here: see the full report (the job summary)",
            diff.groups.len() - shown,
            if diff.groups.len() - shown == 1 {
                " is"
            } else {
                "s are"
            }
        );
    }
    if diff.verdict.ok() {
        annotation(
            &mut out,
            "notice",
            &at,
            "ABI version policy holds",
            &message,
        );
    } else {
        annotation(
            &mut out,
            "error",
            &at,
            "ABI version policy violated",
            &message,
        );
    }
    // Errors first, so that the ones GitHub shows are the ones that fail the check.
    let rank = |l: &str| ["error", "warning", "notice"].iter().position(|x| *x == l);
    let mut roots: Vec<_> = diff.grouped().collect();
    roots.sort_by_key(|(g, c, _)| rank(level(diff, g, c)));
    for (g, c, effects) in roots.into_iter().take(shown) {
        let at = sources.locate(c, &diff.abi_span);
        let mut message = format!("{}: {}", c.path, c.summary);
        let plain = |s: &str| s.to_string();
        let (old, new) = c.describe_sides(&plain, &plain);
        if let Some(o) = old {
            let _ = write!(message, "\nold: {o}");
        }
        if let Some(n) = new {
            let _ = write!(message, "\nnew: {n}");
        }
        let _ = write!(message, "\nwhy: {}", c.reason);
        let _ = write!(message, "\nfix: {}", c.advice);
        if !c.embedded_in.is_empty() {
            let _ = write!(
                message,
                "\n{}: {}",
                c.embedded_label(),
                c.embedded_in.join(", ")
            );
        }
        if let Some(v) = &c.violation {
            let _ = write!(message, "\nversion policy: {v}");
        }
        if !effects.is_empty() {
            let _ = write!(message, "\neffects ({}):", effects.len());
            for e in effects.iter().take(EFFECTS_LISTED) {
                let _ = write!(message, "\n- {}", e.effect_line());
            }
            if effects.len() > EFFECTS_LISTED {
                let _ = write!(message, "\n- and {} more", effects.len() - EFFECTS_LISTED);
            }
        }
        let title = format!("ABI {} change {}", g.severity.label(), c.rule().id);
        annotation(&mut out, level(diff, g, c), &at, &title, &message);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_follow_the_workflow_command_rules() {
        assert_eq!(escape_data("50% a\nb\r"), "50%25 a%0Ab%0D");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
