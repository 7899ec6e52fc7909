//! The terminal report of `abi-codegen diff`: the version policy's verdict first, then the
//! root causes grouped by severity, each with its old and new shape, the reason for its
//! class and its effects, one line each. ANSI
//! colour only when the caller asks for it (a terminal, and NO_COLOR unset).

use std::fmt::Write;

use super::change::{Change, Severity};
use super::model::{Diff, Sources};

struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn severity(&self, s: Severity, text: &str) -> String {
        let code = match s {
            Severity::Breaking => "1;31",
            Severity::SourceBreaking => "1;33",
            Severity::Compatible => "1;32",
            Severity::Cosmetic => "2",
        };
        self.wrap(code, text)
    }
}

fn sign(c: &Change) -> char {
    match (&c.old, &c.new) {
        (None, Some(_)) => '+',
        (Some(_), None) => '-',
        _ => '~',
    }
}

/// The text report. `color` adds ANSI colours; pass `false` for anything but a terminal.
pub fn render_text(diff: &Diff, sources: &Sources, color: bool) -> String {
    let paint = Paint { on: color };
    let mut out = String::new();
    if diff.new_abi.is_some() {
        let _ = writeln!(
            out,
            "{} {} {} ({}), not in {}: {}",
            paint.wrap("1", "New ABI:"),
            diff.abi,
            diff.new_version,
            sources.new_file,
            sources.old_name,
            diff.counts_line()
        );
    } else {
        let _ = writeln!(
            out,
            "{} {} {} ({}) → {} ({}): {}",
            paint.wrap("1", "ABI diff:"),
            diff.abi,
            diff.old_version,
            sources.old_name,
            diff.new_version,
            sources.new_file,
            diff.counts_line()
        );
    }
    // The verdict first: a reader who stops after a few lines has it.
    if diff.verdict.ok() {
        let _ = writeln!(
            out,
            "{} {}: the version policy holds",
            paint.wrap("1;32", "OK:"),
            diff.verdict_line()
        );
    } else {
        let _ = writeln!(
            out,
            "{} {}: the version policy does not hold",
            paint.wrap("1;31", "FAILED:"),
            diff.verdict_line()
        );
        for p in &diff.verdict.problems {
            let _ = writeln!(out, "  - {p}");
        }
    }
    for severity in Severity::ALL {
        let group: Vec<_> = diff
            .grouped()
            .filter(|(g, _, _)| g.severity == severity)
            .collect();
        if group.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "\n{} ({}):",
            paint.severity(severity, severity.heading()),
            group.len()
        );
        for (_, c, effects) in group {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                paint.severity(severity, &sign(c).to_string()),
                paint.wrap("1", &c.path),
                c.summary
            );
            let plain = |s: &str| s.to_string();
            let (old, new) = c.describe_sides(&plain, &plain);
            if let Some(o) = old {
                let _ = writeln!(out, "      old: {o}");
            }
            if let Some(n) = new {
                let _ = writeln!(out, "      new: {n}");
            }
            let _ = writeln!(out, "      why: {}", c.reason);
            let _ = writeln!(out, "      fix: {} [{}]", c.advice, c.rule().id);
            if !c.embedded_in.is_empty() {
                let _ = writeln!(
                    out,
                    "      {}: {}",
                    c.embedded_label(),
                    c.embedded_in.join(", ")
                );
            }
            if let Some(v) = &c.violation {
                let _ = writeln!(out, "      {} {v}", paint.wrap("1;31", "policy:"));
            }
            if !effects.is_empty() {
                let _ = writeln!(out, "      effects ({}):", effects.len());
                for e in effects {
                    let _ = writeln!(out, "        {} {}", sign(e), e.effect_line());
                }
            }
        }
    }
    out
}
