//! Schema diagnostics: errors with byte spans that pile up within a phase, and their
//! rendering as `schema.toml:LINE:COL: message` with a source excerpt.

use std::fmt;
use std::ops::Range;

/// A byte range in the schema source.
pub type Span = Range<usize>;

/// One schema mistake: where it is, what is wrong, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

/// Errors collected during one phase. Each phase ends with [`Errors::propagate`].
#[derive(Debug, Default)]
pub struct Errors {
    list: Vec<Diagnostic>,
}

impl Errors {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records an error at `span`.
    pub fn error(&mut self, span: &Span, message: impl Into<String>) {
        self.list.push(Diagnostic {
            span: span.clone(),
            message: message.into(),
            help: None,
        });
    }

    /// Records an error at `span` with a hint that says how to fix it.
    pub fn error_help(&mut self, span: &Span, message: impl Into<String>, help: impl Into<String>) {
        self.list.push(Diagnostic {
            span: span.clone(),
            message: message.into(),
            help: Some(help.into()),
        });
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Ends a phase: `Err` with every error so far, sorted by position, when there is any.
    pub fn propagate(&mut self) -> Result<(), SchemaErrors> {
        if self.list.is_empty() {
            return Ok(());
        }
        let mut list = std::mem::take(&mut self.list);
        list.sort_by_key(|d| (d.span.start, d.span.end));
        list.dedup();
        Err(SchemaErrors { list })
    }
}

/// The errors of a schema that failed a phase. Render them with [`SchemaErrors::render`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaErrors {
    pub list: Vec<Diagnostic>,
}

impl SchemaErrors {
    pub fn single(span: Span, message: impl Into<String>) -> Self {
        Self {
            list: vec![Diagnostic {
                span,
                message: message.into(),
                help: None,
            }],
        }
    }

    /// Renders every error as `FILE:LINE:COL: message`, followed by the source line, a
    /// caret under the span and the hint, in the style of rustc.
    pub fn render(&self, file: &str, src: &str) -> String {
        let mut out = String::new();
        for d in &self.list {
            render_one(&mut out, d, file, src);
        }
        let n = self.list.len();
        out.push_str(&format!(
            "{n} error{} in {file}; nothing was written\n",
            if n == 1 { "" } else { "s" }
        ));
        out
    }
}

impl fmt::Display for SchemaErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.list {
            writeln!(f, "{}..{}: {}", d.span.start, d.span.end, d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaErrors {}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(src, offset.min(src.len()));
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = src[line_start..offset].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn render_one(out: &mut String, d: &Diagnostic, file: &str, src: &str) {
    use fmt::Write;
    let (line, col) = line_col(src, d.span.start);
    let _ = writeln!(out, "{file}:{line}:{col}: error: {}", d.message);
    let start = floor_char_boundary(src, d.span.start.min(src.len()));
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    let text = &src[line_start..line_end];
    // Long lines (a 1 MB doc string) are cut so that the excerpt stays readable.
    const MAX: usize = 160;
    if text.chars().count() <= MAX {
        let gutter = line.to_string().len();
        let end = d.span.end.clamp(start, line_end);
        let width = src[start..floor_char_boundary(src, end)]
            .chars()
            .count()
            .max(1);
        let _ = writeln!(out, "{:gutter$} |", "");
        let _ = writeln!(out, "{line} | {text}");
        let _ = writeln!(
            out,
            "{:gutter$} | {}{}",
            "",
            " ".repeat(col - 1),
            "^".repeat(width)
        );
        if let Some(help) = &d.help {
            let _ = writeln!(out, "{:gutter$} = help: {help}", "");
        }
    } else if let Some(help) = &d.help {
        let _ = writeln!(out, "  = help: {help}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one_in_characters() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        let eq = src.find("= 2").unwrap();
        assert_eq!(line_col(src, eq), (2, 4));
    }
}
