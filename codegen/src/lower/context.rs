//! The state the lowering passes share: the pass context with its errors, the names of
//! the items' types, the constants by name, and how messages name a member.

use std::collections::{HashMap, HashSet};
use std::fmt::Display;

use toml::Spanned;

use crate::diagnostics::{Errors, Span};
use crate::ir::{Constant, StructId};

pub(super) struct Lower<'a> {
    pub(super) src: &'a str,
    pub(super) errors: Errors,
    /// Constants whose value failed, reported where they are declared: a use of one
    /// (an array length, `expect`, another constant's expression) reports nothing more.
    pub(super) failed_consts: HashSet<String>,
}

impl Lower<'_> {
    /// Whether `text` (an expression, an array length) names a constant whose value failed.
    pub(super) fn names_failed_const(&self, text: &str) -> bool {
        !self.failed_consts.is_empty()
            && text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|word| self.failed_consts.contains(word))
    }
}

/// What a type name refers to, before structs are lowered.
#[derive(Clone, Copy)]
pub(super) enum TypeName {
    Enum(usize),
    Struct(StructId),
}

/// The lowered constants with an index by name, built once: a name declared twice finds
/// its first declaration (the duplicate is reported on its own).
pub(super) struct ConstTable<'c> {
    pub(super) list: &'c [Constant],
    by_name: HashMap<&'c str, usize>,
}

impl<'c> ConstTable<'c> {
    pub(super) fn new(list: &'c [Constant]) -> Self {
        let mut by_name = HashMap::with_capacity(list.len());
        for (i, c) in list.iter().enumerate() {
            by_name.entry(c.name.as_str()).or_insert(i);
        }
        ConstTable { list, by_name }
    }

    pub(super) fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub(super) fn names(&self) -> impl Iterator<Item = &'c str> {
        self.list.iter().map(|c| c.name.as_str())
    }
}

pub(super) fn text(s: &Option<Spanned<String>>) -> String {
    s.as_ref().map(|s| s.get_ref().clone()).unwrap_or_default()
}

impl Lower<'_> {
    pub(super) fn line_of(&self, span: &Span) -> usize {
        crate::diagnostics::line_col(self.src, span.start).0
    }

    /// The span of a string value's text, inside its quotes.
    pub(super) fn inner(&self, s: &Spanned<String>) -> Span {
        crate::diagnostics::string_span(self.src, s)
    }
}

/// How a message names a member of an item, such as "field `ship.pos`" or "enum value
/// `phase.playing`": formatted only when a message is, not for every member lowered.
pub(super) struct MemberName<'a> {
    pub(super) kind: &'static str,
    pub(super) item: &'a str,
    pub(super) member: &'a str,
}

impl Display for MemberName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}.{}`", self.kind, self.item, self.member)
    }
}

/// An item's name followed by a word: "struct `ship`: field".
pub(super) struct Labeled<'a>(pub(super) &'a str, pub(super) &'static str);

impl Display for Labeled<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.0, self.1)
    }
}
