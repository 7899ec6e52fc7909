//! TOML 1.0 only: finds the syntax that TOML 1.1 added and the toml crate reads, but that
//! Python's `tomllib` and TOML 1.0 editors reject: a trailing comma or a line break inside
//! an inline table `{ }`, and the `\e` and `\xHH` escapes. (TOML 1.1's other additions, times
//! without seconds and non-ASCII bare keys, cannot pass: the schema holds no date or time,
//! and every key is one of its own ASCII names.)

use toml_parser::Source;
use toml_parser::lexer::TokenKind;

use crate::diagnostics::{Diagnostic, Span};

/// Why it matters, at the end of every hint.
const READERS: &str = "TOML 1.0 readers (Python's tomllib, most editors) reject it";

/// Every piece of TOML 1.1-only syntax in `src`, in source order.
pub(super) fn toml11_syntax(src: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut found = |span: Span, message: &str, help: String| {
        out.push(Diagnostic {
            span,
            message: format!("{message}: TOML 1.1 syntax"),
            help: Some(help),
        })
    };
    // The open brackets, innermost last: `{` of an inline table (with whether its line
    // break was reported), `[` of an array or a table header.
    let mut open: Vec<(TokenKind, bool)> = Vec::new();
    // A comma with nothing but blanks since, in the innermost inline table.
    let mut comma: Option<Span> = None;
    for token in Source::new(src).lex() {
        let kind = token.kind();
        let span = token.span().start()..token.span().end();
        let in_table = matches!(open.last(), Some((TokenKind::LeftCurlyBracket, _)));
        match kind {
            TokenKind::LeftCurlyBracket | TokenKind::LeftSquareBracket => {
                open.push((kind, false));
                comma = None;
            }
            TokenKind::RightCurlyBracket | TokenKind::RightSquareBracket => {
                if let (Some(c), true) = (comma.take(), in_table) {
                    found(
                        c,
                        "trailing comma in an inline table",
                        format!("remove the `,` before `}}`: {READERS}"),
                    );
                }
                open.pop();
            }
            TokenKind::Comma => comma = Some(span),
            TokenKind::Newline => {
                if let Some((TokenKind::LeftCurlyBracket, reported @ false)) = open.last_mut() {
                    *reported = true;
                    found(
                        span,
                        "line break inside an inline table",
                        format!("keep `{{ ... }}` on one line: {READERS}"),
                    );
                }
            }
            TokenKind::Whitespace | TokenKind::Comment => {}
            TokenKind::BasicString | TokenKind::MlBasicString => {
                comma = None;
                escapes(src, span, &mut found);
            }
            _ => comma = None,
        }
    }
    out
}

/// The TOML 1.1 escapes in a basic string: `\e` and `\xHH`.
fn escapes(src: &str, span: Span, found: &mut impl FnMut(Span, &str, String)) {
    let Some(text) = src.get(span.clone()) else {
        return;
    };
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            continue;
        }
        let at = span.start + i;
        match chars.next() {
            Some((_, 'e')) => found(
                at..at + 2,
                "`\\e` escape",
                format!("write the escape character as `\\u001B`: {READERS}"),
            ),
            Some((_, 'x')) => {
                let hex: String = text[i + 2..]
                    .chars()
                    .take(2)
                    .take_while(char::is_ascii_hexdigit)
                    .collect();
                found(
                    at..at + 2 + hex.len(),
                    &format!("`\\x{hex}` escape"),
                    format!("write it as `\\u00{hex:0>2}`: {READERS}"),
                );
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::toml11_syntax;

    fn found(src: &str) -> Vec<(&str, String)> {
        toml11_syntax(src)
            .into_iter()
            .map(|d| (&src[d.span], d.message))
            .collect()
    }

    #[test]
    fn finds_toml_1_1_syntax() {
        assert!(
            found("a = { b = 1, c = [1, 2,] }\nd = [\n  1,\n]\ne = \"\\\\e\\\\x\"\n").is_empty()
        );
        assert_eq!(
            found("a = { b = 1, }"),
            [(
                ",",
                "trailing comma in an inline table: TOML 1.1 syntax".into()
            )]
        );
        assert_eq!(
            found("a = { b = 1,\n c = 2\n}"),
            [(
                "\n",
                "line break inside an inline table: TOML 1.1 syntax".into()
            )]
        );
        assert_eq!(
            found("a = \"\\e[0m \\x1b\"\nb = '\\e'"),
            [
                ("\\e", "`\\e` escape: TOML 1.1 syntax".into()),
                ("\\x1b", "`\\x1b` escape: TOML 1.1 syntax".into())
            ]
        );
        // Unbalanced brackets do not panic.
        for src in ["}}]] a = {", "a = { b = 1,", "\"\\x", "\"\\"] {
            let _ = toml11_syntax(src);
        }
    }
}
