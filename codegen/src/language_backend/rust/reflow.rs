//! One line per accessor: the body of each `view_accessors!` invocation, which prettyplease
//! prints as filled text (it does not know the macro's grammar), one line per method
//! (`#[doc = ...] KIND NAME @ OFFSET: TYPE;`).

/// The invocation's first line, after its indentation.
const OPENING: &str = "::abi_runtime::view_accessors! {";

/// `text` with the body of every `view_accessors!` invocation one entry per line.
pub(super) fn reflow_accessor_lines(text: &str) -> String {
    if !text.contains(OPENING) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let indent = &line[..line.len() - line.trim_start().len()];
        if line.trim() != OPENING {
            continue;
        }
        let closing = format!("{indent}}}");
        let mut body = String::new();
        for inner in lines.by_ref() {
            if inner.trim_end() == closing {
                for entry in entries(&body) {
                    out.push_str(&format!("{indent}    {entry}\n"));
                }
                out.push_str(inner);
                break;
            }
            body.push_str(inner.trim());
            body.push(' ');
        }
    }
    out
}

/// The entries of a body: each up to and with its `;`, outside string literals and
/// brackets (`[u8; 4]`), with the
/// ` : ` prettyplease puts between tokens printed `: `.
fn entries(body: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut entry = String::new();
    let mut depth = 0usize;
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let literal_end = match c {
            '"' => Some(string_end(body, i + 1)),
            'r' if !body[..i].ends_with(|p: char| p.is_alphanumeric() || p == '_') => {
                raw_string_end(body, i + 1)
            }
            _ => None,
        };
        if let Some(end) = literal_end {
            entry.push_str(&body[i..end]);
            while chars.peek().is_some_and(|&(j, _)| j < end) {
                chars.next();
            }
            continue;
        }
        if c == ':' && entry.ends_with(' ') && chars.peek().is_some_and(|&(_, n)| n == ' ') {
            entry.pop();
        }
        entry.push(c);
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == ';' && depth == 0 {
            found.push(entry.trim().to_string());
            entry.clear();
        }
    }
    found
}

/// The end (past the closing quote) of a string literal whose text starts at `from`.
fn string_end(text: &str, from: usize) -> usize {
    let mut escaped = false;
    for (j, c) in text[from..].char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return from + j + 1,
            _ => escaped = false,
        }
    }
    text.len()
}

/// The end of a raw string literal `r#"..."#` whose `#`s or quote start at `from`, or `None`
/// when `r` there starts an identifier.
fn raw_string_end(text: &str, from: usize) -> Option<usize> {
    let hashes = text[from..].bytes().take_while(|&b| b == b'#').count();
    let open = from + hashes;
    if text.as_bytes().get(open) != Some(&b'"') {
        return None;
    }
    let close = format!("\"{}", "#".repeat(hashes));
    text[open + 1..]
        .find(&close)
        .map(|j| open + 1 + j + close.len())
}

#[cfg(test)]
mod tests {
    use super::reflow_accessor_lines;

    #[test]
    fn each_entry_gets_its_line_and_strings_stay_whole() {
        let printed = "    impl X {\n        ::abi_runtime::view_accessors! {\n            #[doc = r\" a; b : c\"] load a @ 0 : u32; #[doc =\n            r#\"say \"x;\"\"#] read b @ 8 : [u8; 4]; store set_c @ 4\n            : super::C as u32;\n        }\n    }\n";
        let want = "    impl X {\n        ::abi_runtime::view_accessors! {\n            #[doc = r\" a; b : c\"] load a @ 0: u32;\n            #[doc = r#\"say \"x;\"\"#] read b @ 8: [u8; 4];\n            store set_c @ 4: super::C as u32;\n        }\n    }\n";
        assert_eq!(reflow_accessor_lines(printed), want);
    }
}
