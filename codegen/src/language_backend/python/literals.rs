//! Schema text as Python source text: integer literals that Python reads as the schema
//! wrote them, doc lines escaped for docstrings and `#` comments, and the entries of a
//! long tuple, list or dict filled into lines.

/// An integer literal Python accepts, keeping the schema's spelling (`0x10000`) when Python
/// reads it the same way; otherwise the value in the same radix (`007` → `7`).
pub fn python_int_literal(literal: &str, value: i128) -> String {
    let lit = literal.trim();
    if is_python_int_literal(lit) {
        return lit.to_string();
    }
    let lower = lit.to_ascii_lowercase();
    let (sign, magnitude) = if value < 0 {
        ("-", value.unsigned_abs())
    } else {
        ("", value.unsigned_abs())
    };
    if lower.starts_with("0x") {
        format!("{sign}0x{magnitude:x}")
    } else if lower.starts_with("0o") {
        format!("{sign}0o{magnitude:o}")
    } else if lower.starts_with("0b") {
        format!("{sign}0b{magnitude:b}")
    } else {
        value.to_string()
    }
}

/// Whether `s` is an integer literal by Python's grammar, with an optional sign: digits
/// joined by single underscores, and no leading zero on a nonzero decimal.
fn is_python_int_literal(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let prefixed = |p: [&str; 2]| p.iter().find_map(|p| s.strip_prefix(p));
    let (body, radix, underscore_first) = if let Some(b) = prefixed(["0x", "0X"]) {
        (b, 16, true)
    } else if let Some(b) = prefixed(["0o", "0O"]) {
        (b, 8, true)
    } else if let Some(b) = prefixed(["0b", "0B"]) {
        (b, 2, true)
    } else {
        (s, 10, false)
    };
    let body = if underscore_first {
        body.strip_prefix('_').unwrap_or(body)
    } else {
        body
    };
    let digits_ok = !body.is_empty()
        && !body.ends_with('_')
        && !body.contains("__")
        && !body.starts_with('_')
        && body.chars().all(|c| c == '_' || c.is_digit(radix));
    if !digits_ok {
        return false;
    }
    radix != 10 || !body.starts_with('0') || body.chars().all(|c| c == '0' || c == '_')
}

/// The lines of a doc as they go inside a `"""` docstring; no lines for an empty doc.
pub(super) fn escape_docstring_lines(doc: &str) -> Vec<String> {
    if doc.is_empty() {
        return Vec::new();
    }
    doc.split('\n').map(escape_docstring_line).collect()
}

/// A doc as escaped docstring lines, empty lines left out.
pub(super) fn doc_lines(doc: &str) -> Vec<String> {
    (doc.split('\n').filter(|d| !d.is_empty()))
        .map(escape_docstring_line)
        .collect()
}

/// One line of text for the inside of a `"""` docstring: backslashes doubled; a `"`
/// escaped when another `"` or the end of the line follows it (so no `"""` forms and no
/// quote touches the closing one); control characters other than tab as escapes. The
/// docstring then holds the original text. Non-ASCII stays as it is (the module is UTF-8).
pub(in crate::language_backend::python) fn escape_docstring_line(line: &str) -> String {
    // No backslash, quote or control character: nothing to escape. A line of printable
    // ASCII and tabs without those two settles it in one pass over the bytes (no early
    // exit, so that it runs on whole vectors of bytes).
    let mut other = false;
    for &b in line.as_bytes() {
        other |= ((b < 0x20) & (b != b'\t')) | (b >= 0x7f) | (b == b'\\') | (b == b'"');
    }
    if !other || (!line.contains(['\\', '"']) && !line.chars().any(|c| c.is_control() && c != '\t'))
    {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' if matches!(chars.peek(), None | Some('"')) => out.push_str("\\\""),
            '\t' => out.push('\t'),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The lines of a doc for `#` comments: each line whole, control characters shown as
/// escapes so that none can end the comment. No lines for an empty doc.
pub(super) fn escape_comment_lines(doc: &str) -> Vec<String> {
    if doc.is_empty() {
        return Vec::new();
    }
    doc.split('\n')
        .map(|line| {
            if !line.chars().any(|c| c.is_control() && c != '\t') {
                return line.to_string();
            }
            line.chars()
                .map(|c| match c {
                    '\t' => "\t".to_string(),
                    c if c.is_control() => format!("\\u{:04x}", c as u32),
                    c => c.to_string(),
                })
                .collect()
        })
        .collect()
}

/// The widest line of entries that [`fill`] makes for a tuple, list or dict printed inside
/// a class or a module-level table (8 columns of indent before them): 100 in all.
pub(super) const ENTRIES_WIDTH: usize = 92;

/// `items` joined by spaces into lines of at most `width` columns, in order (an item wider
/// than that gets a line of its own).
pub(super) fn fill(items: impl IntoIterator<Item = String>, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for item in items {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + item.len() <= width => {
                line.push(' ');
                line.push_str(&item);
            }
            _ => lines.push(item),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_literals_keep_their_radix_when_python_reads_them() {
        for (lit, value) in [
            ("0x10000", 0x10000),
            ("8", 8),
            ("-5", -5),
            ("0", 0),
            ("0x_FF", 0xFF),
            ("1_000", 1000),
            ("0b1010", 10),
            ("0o17", 15),
        ] {
            assert_eq!(python_int_literal(lit, value), lit);
        }
        for (lit, value, want) in [
            ("007", 7, "7"),
            ("_10", 10, "10"),
            ("1__0", 10, "10"),
            ("10_", 10, "10"),
            ("0x__ff", 255, "0xff"),
            ("0b_", 0, "0b0"),
        ] {
            assert_eq!(python_int_literal(lit, value), want, "{lit}");
        }
    }

    #[test]
    fn docstring_escapes() {
        assert_eq!(escape_docstring_line(r#"a """ b"#), r#"a \"\"" b"#);
        assert_eq!(escape_docstring_line(r#"ends with ""#), r#"ends with \""#);
        assert_eq!(escape_docstring_line(r"C:\dir\"), r"C:\\dir\\");
        assert_eq!(escape_docstring_line("'''"), "'''");
        assert_eq!(escape_docstring_line("nul\0 cr\r é"), r"nul\x00 cr\r é");
    }

    #[test]
    fn fill_keeps_every_item_in_order_within_the_width() {
        let items = ["(\"a\", 0x0000),", "(\"bb\", 0x0004),", "(\"c\", 0x0008),"];
        let lines = fill(items.map(String::from), 31);
        assert_eq!(
            lines,
            ["(\"a\", 0x0000), (\"bb\", 0x0004),", "(\"c\", 0x0008),"]
        );
        // An item wider than the line stands alone; nothing is dropped.
        assert_eq!(fill(items.map(String::from), 4), items);
        assert!(fill(Vec::new(), 10).is_empty());
    }
}
