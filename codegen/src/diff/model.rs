//! A whole diff: its changes grouped by root cause with the verdict, and the sources its
//! spans point into.

use super::change::{Change, Severity};
use super::verdict::{Bump, Verdict, step_phrase};
use crate::diagnostics::{Span, line_col};
use crate::ir::{Version, VersionPolicy};

/// What a new ABI (a schema the base does not have) declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewAbi {
    pub consts: usize,
    pub enums: usize,
    pub structs: usize,
}

/// A root cause and the changes that follow from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The root cause, by index into [`Diff::changes`].
    pub root: usize,
    /// Its effects, direct and indirect, in [`Diff::changes`] order.
    pub effects: Vec<usize>,
    /// The most severe of the root and its effects.
    pub severity: Severity,
}

/// Everything that changed between two schemas, and the policy's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    pub abi: String,
    pub old_version: Version,
    pub new_version: Version,
    /// The schema did not exist at the base: what it has. There are no changes and no
    /// version step to judge.
    pub new_abi: Option<NewAbi>,
    /// In the new schema's order, removed items after the rest in the old schema's order.
    pub changes: Vec<Change>,
    /// The changes by root cause, most severe first, then in [`Diff::changes`] order.
    pub groups: Vec<Group>,
    pub verdict: Verdict,
    /// The new schema's `[abi]` table: where annotations about removed items go when the
    /// old schema is not a file.
    pub abi_span: Span,
    /// The new schema's `version` value: where the verdict's annotation goes.
    pub version_span: Span,
}

impl Diff {
    /// How many root causes have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.groups
            .iter()
            .filter(|g| g.severity == severity)
            .count()
    }

    /// How many changes follow from a root cause.
    pub fn effect_count(&self) -> usize {
        self.groups.iter().map(|g| g.effects.len()).sum()
    }

    /// "5 changes: 5 compatible (and 1 effect)", or "no changes".
    pub fn counts_line(&self) -> String {
        if self.new_abi.is_some() {
            return "a new ABI".to_string();
        }
        let n = self.groups.len();
        if n == 0 {
            return "no changes".to_string();
        }
        let parts: Vec<String> = Severity::ALL
            .iter()
            .filter(|s| self.count(**s) > 0)
            .map(|s| format!("{} {}", self.count(*s), s.label()))
            .collect();
        let effects = match self.effect_count() {
            0 => String::new(),
            1 => " (and 1 effect)".to_string(),
            e => format!(" (and {e} effects)"),
        };
        format!(
            "{n} change{}: {}{effects}",
            if n == 1 { "" } else { "s" },
            parts.join(", ")
        )
    }

    /// One sentence on the version policy: what the versions do and what the changes need.
    pub fn verdict_line(&self) -> String {
        if let Some(n) = &self.new_abi {
            return format!(
                "a new ABI at {} ({} constants, {} enums and flag sets, {} structs): there is no base version to compare with",
                self.new_version, n.consts, n.enums, n.structs
            );
        }
        let step = step_phrase(self.old_version, self.new_version, self.verdict.actual);
        let needs = match self.verdict.required {
            Bump::None => "the changes need no bump".to_string(),
            Bump::Minor => "the changes need at least a minor bump".to_string(),
            Bump::Major => "the changes need a major bump".to_string(),
        };
        let rule = match self.verdict.policy {
            VersionPolicy::Strict => "",
            VersionPolicy::Cargo => " under version_policy = \"cargo\"",
        };
        format!("{step}; {needs}{rule}")
    }

    /// The groups with their changes, for renderers.
    pub fn grouped(&self) -> impl Iterator<Item = (&Group, &Change, Vec<&Change>)> {
        self.groups.iter().map(|g| {
            (
                g,
                &self.changes[g.root],
                g.effects.iter().map(|i| &self.changes[*i]).collect(),
            )
        })
    }
}

/// The texts the two schemas were read from, and the names to show for them. Renderers use
/// them to turn spans into line numbers.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    /// The old schema as a file a reader can open (two-file mode), or `None` when it came
    /// from `git show` (`--base`): then removed items point at the new file's `[abi]` table.
    pub old_file: Option<&'a str>,
    /// How to name the old schema in headings: a path, or `REV:path`.
    pub old_name: &'a str,
    pub old_src: &'a str,
    pub new_file: &'a str,
    pub new_src: &'a str,
}

/// A place in one of the two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Sources<'_> {
    pub fn old_line(&self, span: &Span) -> usize {
        line_col(self.old_src, span.start).0
    }

    pub fn new_line(&self, span: &Span) -> usize {
        line_col(self.new_src, span.start).0
    }

    /// Where an annotation about `change` goes: its line in the new file; for a removed
    /// item, its line in the old file when that is a file, else the new file's `[abi]`.
    pub fn locate(&self, change: &Change, abi_span: &Span) -> Location {
        let at = |file: &str, src: &str, span: &Span| {
            let (line, column) = line_col(src, span.start);
            Location {
                file: file.to_string(),
                line,
                column,
            }
        };
        match (&change.new_span, &change.old_span, self.old_file) {
            (Some(span), _, _) => at(self.new_file, self.new_src, span),
            (None, Some(span), Some(old_file)) => at(old_file, self.old_src, span),
            _ => at(self.new_file, self.new_src, abi_span),
        }
    }
}
