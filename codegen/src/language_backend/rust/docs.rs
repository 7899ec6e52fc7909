//! The Rust backend's doc comments: `#[doc]` lines as raw string literals, paragraphs joined,
//! schema text escaped for rustdoc's markdown, and the `Since ABI` sentence.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use crate::language_backend::output::{is_char_reference, show_invisible_chars};

/// Doc comments as markdown: one `#[doc]` attribute per line.
pub(in crate::language_backend::rust) struct Doc(String);

impl ToTokens for Doc {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        for line in self.0.lines() {
            let line = doc_line(line);
            tokens.extend(quote!(#[doc = #line]));
        }
    }
}

/// A doc line as a raw string literal (`r" line"`): [`doc_str`] of the line after a space.
fn doc_line(line: &str) -> Literal {
    doc_str(&format!(" {line}"))
}

/// The value of a `#[doc = ...]` attribute as a raw string literal (`r"..."`, with as many
/// `#` as its quotes need): proc-macro2 takes it without escaping each character, and syn
/// and prettyplease read its value back as a slice instead of unescaping it, which made a
/// sixth of the Rust target's time. The value, and so the printed `///` comment, is the
/// same as that of an escaped string literal, which a text a raw string cannot hold (a CR)
/// still gets.
pub(in crate::language_backend::rust) fn doc_str(text: &str) -> Literal {
    let mut hashes = usize::from(text.contains('"'));
    for (i, _) in text.match_indices('"') {
        let run = text[i + 1..].bytes().take_while(|&b| b == b'#').count();
        hashes = hashes.max(run + 1);
    }
    if text.contains('\r') {
        return Literal::string(text);
    }
    let hashes = "#".repeat(hashes);
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .unwrap_or_else(|_| Literal::string(text))
}

/// `format!`, as the literal of a `#[doc = ...]` attribute ([`doc_str`]).
macro_rules! doc_lit {
    ($($arg:tt)*) => {
        $crate::language_backend::rust::docs::doc_str(&format!($($arg)*))
    };
}
pub(in crate::language_backend::rust) use doc_lit;

/// Paragraphs of markdown joined with a blank doc line, empty ones left out. Schema text
/// goes through [`escaped`] first; the generator's own sentences are markdown already.
pub(in crate::language_backend::rust) fn doc(paragraphs: &[String]) -> Doc {
    let kept: Vec<&str> = paragraphs
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    Doc(kept.join("\n\n"))
}

/// Schema text as markdown that renders to exactly that text. A CR is a line break, as in
/// C; a tab is four spaces (clippy's `tabs_in_doc_comments`); other control characters and
/// bidirectional controls, which rustc rejects in a doc comment (a bare CR) or denies by
/// default (text direction), show as `<U+XXXX>`.
pub(in crate::language_backend::rust) fn escaped(text: &str) -> String {
    let text = text
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\t', "    ");
    text.lines()
        .map(|line| escape_rustdoc(&show_invisible_chars(line)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Escapes the characters that markdown would read as markup (links, emphasis, code, HTML)
/// and the ones that would start a block at the beginning of a line.
fn escape_rustdoc(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let chars: Vec<char> = line.chars().collect();
    for (i, (at, c)) in line.char_indices().enumerate() {
        // An underscore inside a word (`no_pad`) is never emphasis; only one at a word's edge is.
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let edge_underscore = c == '_' && !(word(i.checked_sub(1)) && word(Some(i + 1)));
        // `&amp;` would render as `&`.
        let reference = c == '&' && is_char_reference(&line.as_bytes()[at + 1..]);
        if matches!(c, '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '~')
            || edge_underscore
            || reference
        {
            out.push('\\');
        }
        out.push(c);
    }
    let trimmed = out.trim_start();
    let starts_block = trimmed.starts_with(['#', '-', '+', '=', '\t'])
        || trimmed
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if starts_block {
        let indent = out.len() - trimmed.len();
        out.insert(indent, '\\');
    }
    out
}

pub(in crate::language_backend::rust) fn since(v: &Option<crate::ir::Version>) -> String {
    v.map(|v| format!("Since ABI {v}.")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::doc_line;

    /// A doc line's literal, raw or not, holds the line after one space, whatever quotes,
    /// hashes, backslashes or characters a raw string cannot hold it has.
    #[test]
    fn doc_lines_keep_their_text() {
        let lines = [
            "plain",
            "",
            r#"a "quoted" word"#,
            r##"ends in "#"##,
            r###"x"##y and "# too"###,
            r"back\slash \n",
            "emoji 🦀 and é",
            "a bare \r CR",
        ];
        let many_hashes = format!("a \"{} b", "#".repeat(300));
        for line in lines.iter().copied().chain([many_hashes.as_str()]) {
            let literal = doc_line(line);
            let parsed: syn::LitStr =
                syn::parse2(quote::quote!(#literal)).expect("a string literal");
            assert_eq!(parsed.value(), format!(" {line}"), "doc line {line:?}");
        }
        assert!(doc_line("plain").to_string().starts_with("r\""));
    }
}
