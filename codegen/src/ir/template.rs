//! The user's template targets (`[[template]]`): which template renders to which file, and
//! the extensions of the built-in targets' files, which no template may write.

use crate::diagnostics::Span;

/// The extensions of the files the built-in targets write, named after the ABI
/// (`bridge.rs`, ...); a `[[template]]` may not write one of them. `pyi` is the Python
/// module's type stub. Here, with the templates, so that lowering (`template_targets`)
/// reads it without depending on the backends, which take their file names from it.
pub const BUILTIN_EXTENSIONS: [&str; 5] = ["rs", "h", "py", "pyi", "md"];

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
