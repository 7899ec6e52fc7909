//! What every target's text shares: the generated-file line, an item's doc cleaned of a
//! repeated version and of invisible characters, and the error of an output that could not
//! be rendered.

/// The first line of every generated file, after the comment marker.
pub fn generated_line(source: &str) -> String {
    format!("generated from {source}; do not edit")
}

/// Whether `rest`, the text after a `&`, makes it a character reference in markdown (the
/// markdown target's and rustdoc's): a name or a `#` number, then `;`. Such a `&` is escaped.
pub(crate) fn is_char_reference(rest: &[u8]) -> bool {
    let body = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'#')
        .count();
    body > 0 && rest.get(body) == Some(&b';')
}

/// An item's doc without the `ABI 0.6` it opens with (alone, or before `:`, `,`, `;` or a
/// space) when that is the version its `since` names already, so that no target writes
/// "since ABI 0.6: ABI 0.6: ...". The rest keeps its words.
pub fn doc_after_since(doc: &str, since: Option<crate::ir::Version>) -> &str {
    let Some(v) = since else { return doc };
    let Some(rest) = doc.trim_start().strip_prefix(&format!("ABI {v}")) else {
        return doc;
    };
    match rest.chars().next() {
        None => "",
        Some(':' | ',' | ';') => rest[1..].trim_start(),
        Some(c) if c.is_whitespace() => rest.trim_start(),
        Some(_) => doc,
    }
}

/// Control characters (a tab aside) and Unicode bidirectional controls, which a compiler
/// rejects or warns about even inside a comment (a bare CR in a Rust doc comment, a bidi
/// control in any comment), written as `<U+XXXX>`. For one line of doc text.
pub fn show_invisible_chars(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        let bidi = matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\t') || bidi {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// An output that could not be rendered (a template error): a bug in the generator,
/// never a schema mistake.
#[derive(Debug)]
pub struct RenderError(pub String);

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenderError {}

#[cfg(test)]
mod tests {
    use super::doc_after_since;
    use crate::ir::Version;

    #[test]
    fn a_doc_drops_the_version_its_since_names() {
        let v = Some(Version { major: 0, minor: 6 });
        assert_eq!(doc_after_since("ABI 0.6", v), "");
        assert_eq!(
            doc_after_since("ABI 0.6: a goes with b", v),
            "a goes with b"
        );
        assert_eq!(doc_after_since("ABI 0.6 a", v), "a");
        assert_eq!(doc_after_since("ABI 0.60: a", v), "ABI 0.60: a");
        assert_eq!(doc_after_since("ABI 0.7: a", v), "ABI 0.7: a");
        assert_eq!(doc_after_since("Since ABI 0.6", v), "Since ABI 0.6");
        assert_eq!(doc_after_since("ABI 0.6: a", None), "ABI 0.6: a");
    }
}
