//! The user's template targets (`[[template]]`): which template renders to which file.

use crate::diagnostics::Span;

/// One `[[template]]`: a minijinja template over the layout context, and its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserTemplate {
    /// The template's path as the schema writes it, relative to the schema's folder.
    pub path: String,
    /// The output's path relative to the output folder, with `/` separators.
    pub output: String,
    pub doc: String,
    /// Where `path` is written in the schema: a template that cannot be read is reported
    /// there.
    pub path_span: Span,
}
