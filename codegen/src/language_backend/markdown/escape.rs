//! The markdown escaping of the reference: inline text, paragraph starts and code spans
//! that render exactly as the schema wrote them.

use std::borrow::Cow;

use crate::language_backend::output::is_char_reference;

/// Escapes text for inline markdown (a table cell, a heading, a list item) so that it renders
/// as written: markdown's and HTML's special characters get a backslash, a `|` too (so a
/// table cell does not split), and each line break becomes `<br>`.
pub fn escape_inline(text: &str) -> String {
    escape_inline_cow(text).into_owned()
}

/// [`escape_inline`], borrowing text that needs no escape (most names and docs). Every
/// character it escapes is ASCII, so it walks bytes: a byte of a multi-byte character is
/// never one of them, nor an ASCII letter or digit.
pub(super) fn escape_inline_cow(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    // `text[..copied]` is in `out` already.
    let mut copied = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        let replacement = match b {
            b'\r' if next == Some(b'\n') => "",
            b'\r' | b'\n' => "<br>",
            b'\\' => "\\\\",
            b'`' => "\\`",
            b'*' => "\\*",
            b'[' => "\\[",
            b']' => "\\]",
            b'<' => "\\<",
            b'|' => "\\|",
            b'~' => "\\~",
            b'$' => "\\$",
            // Only an underscore at the edge of a word can start or end emphasis.
            b'_' if !(i > 0
                && bytes[i - 1].is_ascii_alphanumeric()
                && next.is_some_and(|n| n.is_ascii_alphanumeric())) =>
            {
                "\\_"
            }
            // `&name;` and `&#123;` would be character references.
            b'&' if is_char_reference(&bytes[i + 1..]) => "\\&",
            // A closing `#` run would be dropped from a heading.
            b'#' if next.is_none() => "\\#",
            _ => continue,
        };
        let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 8));
        out.push_str(&text[copied..i]);
        out.push_str(replacement);
        copied = i + 1;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// Escapes text that starts a paragraph: [`escape_inline`], and a first character that
/// would make a heading, a quote, a list or a rule gets a backslash too.
pub fn escape_paragraph(text: &str) -> String {
    escape_paragraph_cow(text).into_owned()
}

/// [`escape_paragraph`], borrowing text that needs no escape.
pub(super) fn escape_paragraph_cow(text: &str) -> Cow<'_, str> {
    let escaped = escape_inline_cow(text);
    let first = escaped.chars().next();
    match first {
        Some('#' | '>' | '-' | '+' | '=') => Cow::Owned(format!("\\{escaped}")),
        Some(d) if d.is_ascii_digit() => {
            // `1. ` and `1) ` start an ordered list.
            let digits = escaped.chars().take_while(|c| c.is_ascii_digit()).count();
            match escaped[digits..].chars().next() {
                Some(m @ ('.' | ')')) => Cow::Owned(format!(
                    "{}\\{m}{}",
                    &escaped[..digits],
                    &escaped[digits + 1..]
                )),
                _ => escaped,
            }
        }
        _ => escaped,
    }
}

/// `text` as an inline code span, which shows it as written: a backtick fence longer than
/// any backtick run inside, and `|` escaped for tables (GitHub removes that backslash).
pub fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let body = text.replace('|', "\\|").replace(['\r', '\n'], " ");
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_escaping_keeps_the_text() {
        assert_eq!(escape_inline("a | b"), "a \\| b");
        assert_eq!(escape_inline("*/ `x` \\"), "\\*/ \\`x\\` \\\\");
        assert_eq!(escape_inline("<b>{{ x }}</b>"), "\\<b>{{ x }}\\</b>");
        assert_eq!(escape_inline("client_name_len"), "client_name_len");
        assert_eq!(escape_inline("_pad33 x_ _y"), "\\_pad33 x\\_ \\_y");
        assert_eq!(
            escape_inline("ibf.toml's [controls]"),
            "ibf.toml's \\[controls\\]"
        );
        assert_eq!(
            escape_inline("R&D &amp; &#1; &amp"),
            "R&D \\&amp; \\&#1; &amp"
        );
        assert_eq!(escape_inline("one\ntwo\r\nthree"), "one<br>two<br>three");
        assert_eq!(escape_inline("issue #"), "issue \\#");
        assert_eq!(escape_inline("a > b, ~x~, $5"), "a > b, \\~x\\~, \\$5");
        assert_eq!(escape_inline("déjà vu"), "déjà vu");
    }

    #[test]
    fn paragraph_escaping_stops_block_starts() {
        assert_eq!(escape_paragraph("# not a heading"), "\\# not a heading");
        assert_eq!(escape_paragraph("> not a quote"), "\\> not a quote");
        assert_eq!(escape_paragraph("- not a list"), "\\- not a list");
        assert_eq!(escape_paragraph("1. not a list"), "1\\. not a list");
        assert_eq!(escape_paragraph("12) not a list"), "12\\) not a list");
        assert_eq!(escape_paragraph("100 ms"), "100 ms");
        assert_eq!(escape_paragraph("Plain."), "Plain.");
    }

    #[test]
    fn code_spans_fence_backticks_and_escape_pipes() {
        assert_eq!(code_span("a * b"), "`a * b`");
        assert_eq!(code_span("a | b"), "`a \\| b`");
        assert_eq!(code_span("x ` y"), "``x ` y``");
        assert_eq!(code_span("`x`"), "`` `x` ``");
    }
}
