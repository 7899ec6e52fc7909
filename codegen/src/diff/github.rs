//! GitHub Actions workflow annotations (`--format github`): one `::error`, `::warning` or
//! `::notice` line per change, on the line of the new schema that changed, and one for the
//! verdict on the `[abi]` table.

use std::fmt::Write;

use super::{Bump, Change, Diff, Location, Severity, Sources};

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

/// The level of one change: an error when the version policy rejects it, a warning for a
/// break the version allows, a notice for the rest.
fn level(diff: &Diff, c: &Change) -> &'static str {
    let bump_allows = |needed: Bump| diff.verdict.actual.is_some_and(|a| a >= needed);
    let rejected = c.violation.is_some() || !bump_allows(c.severity.required_bump());
    match c.severity {
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

/// The annotations, one per line.
pub fn render_github(diff: &Diff, sources: &Sources) -> String {
    let mut out = String::new();
    for c in &diff.changes {
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
        let title = format!("ABI {} change", c.severity.label());
        annotation(&mut out, level(diff, c), &at, &title, &message);
    }
    let (line, column) = crate::diagnostics::line_col(sources.new_src, diff.abi_span.start);
    let at = Location {
        file: sources.new_file.to_string(),
        line,
        column,
    };
    if diff.verdict.ok() {
        annotation(
            &mut out,
            "notice",
            &at,
            "ABI version policy holds",
            &format!("{}: {}", diff.counts_line(), diff.verdict_line()),
        );
    } else {
        let mut message = format!("{}: {}", diff.counts_line(), diff.verdict_line());
        for p in &diff.verdict.problems {
            let _ = write!(message, "\n- {p}");
        }
        annotation(
            &mut out,
            "error",
            &at,
            "ABI version policy violated",
            &message,
        );
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
