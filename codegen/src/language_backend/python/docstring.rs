//! The docstrings of the module's classes: a first line, the lines after it and a list of
//! entries (an enum's values, a struct's fields), every string escaped already; and the
//! `since` note their lines end with.

use serde::Serialize;

use crate::ir::Version;

/// A class docstring: its first line and the lines after it, then a list of entries
/// (`head`, then its doc lines indented below it). Every string is escaped already.
#[derive(Serialize)]
pub(super) struct Docstring {
    first: String,
    more: Vec<String>,
    list_title: &'static str,
    entries: Vec<DocEntry>,
}

impl Docstring {
    /// The docstring of `lines` (at least one) and `entries`.
    pub(super) fn new(
        mut lines: Vec<String>,
        list_title: &'static str,
        entries: Vec<DocEntry>,
    ) -> Self {
        let first = std::mem::take(&mut lines[0]);
        lines.remove(0);
        Docstring {
            first,
            more: lines,
            list_title,
            entries,
        }
    }
}

#[derive(Serialize)]
pub(super) struct DocEntry {
    pub(super) head: String,
    pub(super) doc: Vec<String>,
}

/// `, since ABI 0.6` after a docstring line, or nothing.
pub(super) fn since_note(since: Option<Version>) -> String {
    since
        .map(|v| format!(", since ABI {v}"))
        .unwrap_or_default()
}
