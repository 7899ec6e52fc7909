//! Schema diagnostics: errors with byte spans that pile up within a phase, and their
//! rendering as `schema.toml:LINE:COL: error: message` with a source excerpt drawn by
//! annotate-snippets (rustc's renderer), plain or in colour.

use std::fmt;
use std::ops::Range;
use std::path::Path;

use annotate_snippets::renderer::{AnsiColor, Effects, Style};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// A byte range in the schema source.
pub type Span = Range<usize>;

/// A path as diagnostics show it: `/` separators on every system.
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// The name the generated files' first line gives the schema at `path`: its file name.
pub fn source_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| display_path(path), |n| n.to_string_lossy().into_owned())
}

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

    /// How many errors so far: a check compares it before and after a step.
    pub fn len(&self) -> usize {
        self.list.len()
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

    /// Renders the errors as `FILE:LINE:COL: error: message`, each followed by an excerpt
    /// of its line with a caret under the span and the hint, in the style of rustc; at most
    /// [`MAX_SHOWN`] of them, then how many more there are. Plain text, for logs, build
    /// scripts and tests; [`SchemaErrors::render_styled`] colours it for a terminal.
    pub fn render(&self, file: &str, src: &str) -> String {
        self.render_with(file, src, false)
    }

    /// [`SchemaErrors::render`] with ANSI colours, for a terminal that shows them.
    pub fn render_styled(&self, file: &str, src: &str) -> String {
        self.render_with(file, src, true)
    }

    fn render_with(&self, file: &str, src: &str, color: bool) -> String {
        let renderer = if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let mut out = String::new();
        let lines = LineStarts::new(src);
        for d in self.list.iter().take(MAX_SHOWN) {
            render_one(&mut out, d, file, src, &lines, &renderer, color);
        }
        let n = self.list.len();
        if n > MAX_SHOWN {
            let more = n - MAX_SHOWN;
            out.push_str(&format!(
                "... and {more} more error{}\n",
                if more == 1 { "" } else { "s" }
            ));
        }
        out.push_str(&format!(
            "{n} error{} in {file}; nothing was written\n",
            if n == 1 { "" } else { "s" }
        ));
        out
    }
}

/// Renders warnings as `FILE:LINE:COL: warning: message`, each followed by its hint as
/// `  = help: ...`: one line each, for a terminal, a log or a test.
pub fn render_warnings(list: &[Diagnostic], file: &str, src: &str) -> String {
    let lines = LineStarts::new(src);
    let mut out = String::new();
    for d in list {
        let (line, col) = lines.line_col(src, d.span.start);
        out.push_str(&format!(
            "{file}:{line}:{col}: warning: {}\n",
            one_line(&d.message)
        ));
        if let Some(help) = &d.help {
            out.push_str(&format!("  = help: {}\n", one_line(help)));
        }
    }
    out
}

/// How many errors a rendering shows in full: a schema with hundreds of mistakes (a bad
/// merge, the wrong file) shows the first ones, then "... and N more errors".
pub const MAX_SHOWN: usize = 50;

impl fmt::Display for SchemaErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.list {
            writeln!(f, "{}..{}: {}", d.span.start, d.span.end, d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaErrors {}

/// Edit distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, when one is close enough to be a likely typo.
pub(crate) fn closest<'n>(
    name: &str,
    candidates: impl Iterator<Item = &'n str>,
) -> Option<&'n str> {
    candidates
        .map(|c| (distance(name, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3) && *d < name.len().max(1))
        .min()
        .map(|(_, c)| c)
}

/// The span of a string value's text inside its quotes, as `toml` spans the whole value;
/// a multi-line string keeps its whole span.
pub fn string_span(src: &str, s: &toml::Spanned<String>) -> Span {
    let span = s.span();
    match src.get(span.clone()) {
        Some(t) if t.starts_with("\"\"\"") || t.starts_with("'''") => span,
        Some(t) if t.len() >= 2 && (t.starts_with('"') || t.starts_with('\'')) => {
            span.start + 1..span.end - 1
        }
        _ => span,
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(src, offset.min(src.len()));
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = src[line_start..offset].chars().count() + 1;
    (line, col)
}

/// The byte offset where each line starts, so that many errors in a long schema each find
/// their line by a binary search instead of a scan from the start.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineStarts(starts)
    }

    /// Like [`line_col`].
    fn line_col(&self, src: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(src, offset.min(src.len()));
        let line = self.0.partition_point(|&start| start <= offset);
        let col = src[self.0[line - 1]..offset].chars().count() + 1;
        (line, col)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Text of the schema (a name, a key) quoted in a message, made to fit one line and to
/// show as it is: line breaks, other control characters and bidirectional controls are
/// written as escapes (`\n`, `\u{1b}`, `\u{202e}`), so that no error spans two lines and
/// nothing in a schema can move the terminal's cursor or reorder what it shows.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let bidi = matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\t') || bidi {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A source line for an excerpt: control characters (a tab aside) and bidirectional
/// controls become U+FFFD, one character for one, so the caret below stays in its column.
fn excerpt_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            let bidi = matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            if (c.is_control() && c != '\t') || bidi {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// How many characters of a line the excerpt keeps on each side of the span's start before
/// annotate-snippets trims it to its width: a 1 MB doc string is not measured whole.
const WINDOW: usize = 400;

fn render_one(
    out: &mut String,
    d: &Diagnostic,
    file: &str,
    src: &str,
    lines: &LineStarts,
    renderer: &Renderer,
    color: bool,
) {
    use fmt::Write;
    let (line, col) = lines.line_col(src, d.span.start);
    debug_assert_eq!((line, col), line_col(src, d.span.start));
    let message = one_line(&d.message);
    if color {
        let bold = Style::new().effects(Effects::BOLD);
        let red = AnsiColor::BrightRed.on_default().effects(Effects::BOLD);
        let _ = writeln!(
            out,
            "{bold}{file}:{line}:{col}: {bold:#}{red}error{red:#}{bold}: {message}{bold:#}"
        );
    } else {
        let _ = writeln!(out, "{file}:{line}:{col}: error: {message}");
    }
    // The excerpt is the span's first line (a span over many lines, such as a whole table,
    // shows where it starts), cut to a window around the span.
    let start = floor_char_boundary(src, d.span.start.min(src.len()));
    let line_start = lines.0[line - 1];
    let mut line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    if src[..line_end].ends_with('\r') && line_end > start {
        line_end -= 1;
    }
    let from = src[line_start..start]
        .char_indices()
        .rev()
        .nth(WINDOW - 1)
        .map_or(line_start, |(i, _)| line_start + i);
    let to = src[start..line_end]
        .char_indices()
        .nth(WINDOW)
        .map_or(line_end, |(i, _)| start + i);
    let end = floor_char_boundary(src, d.span.end.clamp(start, to));
    let text = excerpt_line(&src[from..to]);
    let caret_start = excerpt_line(&src[from..start]).len();
    let caret_end = caret_start + excerpt_line(&src[start..end]).len();
    let mut group = Group::with_level(Level::ERROR).element(
        Snippet::source(&text)
            .line_start(line)
            .annotation(AnnotationKind::Primary.span(caret_start..caret_end)),
    );
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(one_line(help)));
    }
    let _ = writeln!(out, "{}", renderer.render(&[group]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_on_one_line() {
        let src = "[abi]\nname = \"a\\nb\"\n";
        let errors = SchemaErrors {
            list: vec![Diagnostic {
                span: 13..17,
                message: "abi name `a\nb\r\u{1b}[2J\u{202e}` is not snake_case".into(),
                help: Some("not `a\nb`".into()),
            }],
        };
        let rendered = errors.render("schema.toml", src);
        assert_eq!(
            rendered,
            "schema.toml:2:8: error: abi name `a\\nb\\r\\u{1b}[2J\\u{202e}` is not snake_case\n  |\n2 | name = \"a\\nb\"\n  |        ^^^^\n  |\n  = help: not `a\\nb`\n1 error in schema.toml; nothing was written\n"
        );
        assert_eq!(excerpt_line("a\u{1b}b\tc\u{2066}"), "a\u{FFFD}b\tc\u{FFFD}");
    }

    #[test]
    fn line_col_counts_from_one_in_characters() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        let eq = src.find("= 2").unwrap();
        assert_eq!(line_col(src, eq), (2, 4));
        let lines = LineStarts::new(src);
        for offset in 0..=src.len() + 2 {
            assert_eq!(
                lines.line_col(src, offset),
                line_col(src, offset),
                "{offset}"
            );
        }
    }

    fn error_at(span: Span, help: Option<&str>) -> Diagnostic {
        Diagnostic {
            span,
            message: "wrong".into(),
            help: help.map(Into::into),
        }
    }

    /// Strips ANSI escape sequences (`ESC [ ... m`).
    fn plain(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn long_lines_keep_an_excerpt_around_the_caret() {
        let line = format!("x = {{ doc = \"{}\", type = \"u3\" }}", "y".repeat(143));
        let src = format!("a = 1\n{line}\n");
        let at = src.find("u3").unwrap();
        let errors = SchemaErrors {
            list: vec![error_at(at..at + 2, Some("did you mean `u32`?"))],
        };
        let rendered = errors.render("schema.toml", &src);
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(lines[0], "schema.toml:2:168: error: wrong", "{rendered}");
        let excerpt = lines
            .iter()
            .find(|l| l.starts_with("2 | "))
            .expect(&rendered);
        assert!(
            excerpt.contains("...") && excerpt.ends_with("type = \"u3\" }"),
            "{rendered}"
        );
        assert!(excerpt.chars().count() < 160, "{rendered}");
        let caret = lines.iter().find(|l| l.contains('^')).expect(&rendered);
        let column = |l: &str, pat: &str| l.find(pat).unwrap();
        assert_eq!(column(caret, "^^"), column(excerpt, "u3"), "{rendered}");
        assert!(rendered.contains("= help: did you mean `u32`?"));
        // A line of a megabyte renders in a window around the span, not whole.
        let huge = format!("doc = \"{}\"", "z".repeat(1 << 20));
        let errors = SchemaErrors {
            list: vec![error_at(huge.len() / 2..huge.len(), None)],
        };
        assert!(errors.render("schema.toml", &huge).len() < 1000);
    }

    #[test]
    fn at_most_fifty_errors_are_shown() {
        let src = "a = 1\n".repeat(120);
        let errors = SchemaErrors {
            list: (0..120).map(|i| error_at(i * 6..i * 6 + 1, None)).collect(),
        };
        let rendered = errors.render("schema.toml", &src);
        let headers = rendered.lines().filter(|l| l.starts_with("schema.toml:"));
        assert_eq!(headers.count(), MAX_SHOWN);
        assert!(
            rendered.ends_with(
                "... and 70 more errors\n120 errors in schema.toml; nothing was written\n"
            )
        );
    }

    #[test]
    fn styled_is_plain_with_colours() {
        let src = "[abi]\nname = \"A\"\r\n\tx = 1\n";
        let errors = SchemaErrors {
            list: vec![error_at(13..14, Some("lowercase")), error_at(19..20, None)],
        };
        let styled = errors.render_styled("schema.toml", src);
        let rendered = errors.render("schema.toml", src);
        assert!(styled.contains("\u{1b}["));
        assert!(!rendered.contains('\u{1b}'));
        assert_eq!(plain(&styled), rendered);
        // A CRLF line ends before its `\r`; a tab is drawn as spaces, the caret under `x`.
        assert!(rendered.contains("2 | name = \"A\"\n"), "{rendered}");
        assert!(
            rendered.contains("3 |     x = 1\n  |     ^\n"),
            "{rendered}"
        );
    }
}
