//! Doc text as C comment lines: line breaks kept, long lines wrapped, and every line made
//! harmless inside a `/* */` comment of C11 and C++17.

use crate::language_backend::output::show_invisible_chars;

/// Doc text as the lines of a C comment: line breaks kept (`\r\n` and a lone `\r` are line
/// breaks too, as the C compiler reads them), long lines wrapped at `width` columns, and
/// every line made harmless inside a comment by [`escape_comment_line`]. Empty text gives
/// no lines.
pub fn render_comment_lines(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    push_comment_lines(&mut lines, text, width);
    lines
}

/// [`render_comment_lines`], appended to `lines`. Text with no `\r`, lines with nothing
/// invisible and lines that fit skip their steps, which would leave such text as it is; a
/// line of printable ASCII, most docs, skips the splitting too.
pub(super) fn push_comment_lines(lines: &mut Vec<String>, text: &str, width: usize) {
    let (may_hide, may_need_escape) = scan_line(text);
    if !may_hide {
        // Printable ASCII and tabs, most docs: one line, nothing to show, as many
        // characters as bytes.
        let line = text.trim_end();
        if line.trim_start().is_empty() {
            return;
        }
        if line.len() <= width {
            lines.push(if may_need_escape {
                escape_comment_line(line)
            } else {
                end_comment_line(line)
            });
        } else {
            lines.extend(
                wrap_line(line, width)
                    .iter()
                    .map(|l| escape_comment_line(l)),
            );
        }
        return;
    }
    let normalized;
    let text = if text.contains('\r') {
        normalized = text.replace("\r\n", "\n").replace('\r', "\n");
        normalized.as_str()
    } else {
        text
    };
    let text = text.trim_matches('\n');
    if text.trim().is_empty() {
        return;
    }
    for line in text.split('\n') {
        let (may_hide, may_need_escape) = scan_line(line);
        let shown;
        let line = if may_hide {
            shown = show_invisible_chars(line);
            shown.as_str()
        } else {
            line
        };
        let line = line.trim_end();
        if fits(line, width) {
            if may_hide || may_need_escape {
                lines.push(escape_comment_line(line));
            } else {
                lines.push(end_comment_line(line));
            }
        } else {
            lines.extend(
                wrap_line(line, width)
                    .iter()
                    .map(|l| escape_comment_line(l)),
            );
        }
    }
}

/// One pass over the bytes of `line`: whether it may hold a character that
/// [`show_invisible_chars`] writes out (an ASCII control other than tab, or any
/// non-ASCII character: a bidi control is one), and whether it has a `*`, `/` or `?` that
/// [`escape_comment_line`] may have to break up. A line with neither comes out of both
/// unchanged. No early exit, so that the loop runs on whole vectors of bytes.
fn scan_line(line: &str) -> (bool, bool) {
    let (mut hide, mut escape) = (false, false);
    for &b in line.as_bytes() {
        hide |= ((b < 0x20) & (b != b'\t')) | (b >= 0x7f);
        escape |= (b == b'*') | (b == b'/') | (b == b'?');
    }
    (hide, escape)
}

/// A comment line with no `*`, `/` or `?` made harmless: trailing whitespace goes, and a
/// backslash at its end is followed by a `.` (see [`escape_comment_line`]).
fn end_comment_line(line: &str) -> String {
    let line = line.trim_end();
    let mut out = String::with_capacity(line.len() + 1);
    out.push_str(line);
    if out.ends_with('\\') {
        out.push('.');
    }
    out
}

/// Whether `line` has at most `width` characters; its length in bytes settles most lines.
fn fits(line: &str, width: usize) -> bool {
    line.len() <= width || line.chars().count() <= width
}

/// Splits `line` at spaces into lines of at most `width` characters; a longer word keeps
/// a line of its own. A line that fits comes back as it is.
fn wrap_line(line: &str, width: usize) -> Vec<String> {
    let line = line.trim_end();
    if fits(line, width) {
        return vec![line.to_string()];
    }
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    // `current`'s length in characters, kept rather than counted again for every word.
    let mut current_chars = 0;
    for word in line.split_whitespace() {
        let word_chars = word.chars().count();
        if !current.is_empty() && current_chars + 1 + word_chars > width {
            out.push(std::mem::take(&mut current));
            current_chars = 0;
        }
        if !current.is_empty() {
            current.push(' ');
            current_chars += 1;
        }
        current.push_str(word);
        current_chars += word_chars;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// One comment line made harmless in a `/* */` comment of C11 and C++17: a space goes
/// between the characters of `*/` and `/*` (which would end or nest the comment) and
/// before the third character of a trigraph (`??/` is a backslash in C11), trailing
/// whitespace goes, and a backslash at the end of the line, which would splice the next
/// line onto it, is followed by a `.`.
pub fn escape_comment_line(line: &str) -> String {
    // Without `*`, `/` or `?` there is no delimiter or trigraph to break up.
    if !line.bytes().any(|b| matches!(b, b'*' | b'/' | b'?')) {
        return end_comment_line(line);
    }
    let mut out = String::with_capacity(line.len() + 4);
    for c in line.chars() {
        let last = out.chars().last();
        let delimiter = matches!((last, c), (Some('*'), '/') | (Some('/'), '*'));
        let trigraph = out.ends_with("??") && "=/'()!<>-".contains(c);
        if delimiter || trigraph {
            out.push(' ');
        }
        out.push(c);
    }
    let mut out = out.trim_end().to_string();
    if out.ends_with('\\') {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_escapes() {
        assert_eq!(escape_comment_line("a */ b /* c"), "a * / b / * c");
        assert_eq!(escape_comment_line("/*/"), "/ * /");
        assert_eq!(escape_comment_line("what??/"), "what?? /");
        assert_eq!(escape_comment_line("???="), "??? =");
        assert_eq!(escape_comment_line("path\\  "), "path\\.");
        assert_eq!(
            render_comment_lines("a\r\nb\rc\u{0}\u{202E}", 80),
            ["a", "b", "c<U+0000><U+202E>"]
        );
        assert!(render_comment_lines(" \n ", 80).is_empty());
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap_line("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap_line("aaaaaaa b", 5), ["aaaaaaa", "b"]);
        assert_eq!(wrap_line("short", 5), ["short"]);
    }
}
