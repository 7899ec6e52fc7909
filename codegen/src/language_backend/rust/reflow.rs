//! What prettyplease prints over several lines, on one: the body of each `view_accessors!`
//! and `view!` invocation, which it prints as filled text (it does not know the macros'
//! grammar), one line per entry (`#[doc = ...] KIND NAME @ OFFSET: TYPE;`), and each `#[derive(...)]` and
//! `#[allow(...)]` list, one line per attribute (rustfmt's style for a list that fits; these
//! may be longer, and the generated file is no source rustfmt checks).

/// The first lines of the invocations put one entry a line, after their indentation.
const OPENINGS: [&str; 13] = [
    "::abi_runtime::recording_format! {",
    "::abi_runtime::session_host! {",
    "::abi_runtime::session_client! {",
    "::abi_runtime::versioned! {",
    "::abi_runtime::slots_ring! {",
    "::abi_runtime::seqlock_reads! {",
    "::abi_runtime::exchange_sides! {",
    "::abi_runtime::entry_sides! {",
    "::abi_runtime::mailbox_sides! {",
    "::abi_runtime::view_accessors! {",
    "::abi_runtime::view! {",
    "::abi_runtime::handle_accessors! {",
    "::abi_runtime::layout_handle! {",
];

/// `text` with the body of every `view_accessors!` invocation one entry per line.
pub(super) fn reflow_accessor_lines(text: &str) -> String {
    if !OPENINGS.iter().any(|o| text.contains(o)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let indent = &line[..line.len() - line.trim_start().len()];
        if !OPENINGS.contains(&line.trim()) {
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

/// The attributes whose lists are put on one line.
const LISTS: [&str; 3] = ["#[derive(", "#[allow(", "#![allow("];

/// `text` with each multi-line `#[derive(...)]`, `#[allow(...)]` and `#![allow(...)]` on
/// one line: prettyplease prints such a list one item a line, each item whole.
pub(super) fn one_line_attributes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if !LISTS.contains(&trimmed) {
            out.push_str(line);
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let mut items = Vec::new();
        for inner in lines.by_ref() {
            if inner.trim() == ")]" {
                break;
            }
            items.push(inner.trim());
        }
        out.push_str(&format!("{indent}{trimmed}{})]\n", items.join(" ")));
    }
    out
}

/// The widest a field's value is joined onto one line (with its indentation); an array's
/// entries are joined at any width: one entry, one line.
const SPEC_WIDTH: usize = 100;

/// `text` with the values of every `static` and `const` item (not a `const fn`) written
/// compactly: each array entry (a `RowSpec`, a `GeometrySpec`, a tuple) on one line, and each
/// other nested value that fits in [`SPEC_WIDTH`] columns; prettyplease puts every field of
/// a struct literal on a line of its own.
pub(super) fn one_line_specs(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push_str(line);
        i += 1;
        let trimmed = line.trim();
        let item = ["pub static ", "static ", "pub const ", "const "]
            .iter()
            .any(|p| trimmed.starts_with(p))
            && !trimmed.contains("fn ")
            && (trimmed.ends_with('{') || trimmed.ends_with('['));
        if !item {
            continue;
        }
        let end = closing(&lines, i - 1).unwrap_or(i);
        // An array item's entries take a line each, however wide.
        compact(&lines[i..end], trimmed.ends_with('['), &mut out);
        i = end;
    }
    out
}

/// The index of the line that closes the block `lines[open]` opens: the next line at its
/// indentation that starts with a closing bracket.
fn closing(lines: &[&str], open: usize) -> Option<usize> {
    let indent = indent_of(lines[open]);
    (open + 1..lines.len()).find(|&j| {
        indent_of(lines[j]) == indent && lines[j].trim_start().starts_with(['}', ']', ')'])
    })
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Writes `lines` (the inside of a value), each nested block on one line when it is an
/// array entry (`entries`) or fits.
fn compact(lines: &[&str], entries: bool, out: &mut String) {
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_end();
        let opens = trimmed.ends_with(['{', '[', '(']);
        let Some(end) = opens.then(|| closing(lines, i)).flatten() else {
            out.push_str(line);
            i += 1;
            continue;
        };
        let joined = join(&lines[i..=end]);
        if entries || joined.len() <= SPEC_WIDTH {
            out.push_str(&joined);
            out.push('\n');
        } else {
            out.push_str(line);
            compact(&lines[i + 1..end], trimmed.ends_with('['), out);
            out.push_str(lines[end]);
        }
        i = end + 1;
    }
}

/// The lines of one block on one line, with its first line's indentation: no space inside
/// `[`/`(` and no trailing comma before a closing bracket.
fn join(lines: &[&str]) -> String {
    let mut joined = lines[0].trim_end().to_string();
    for line in &lines[1..] {
        let piece = line.trim();
        if piece.starts_with(['}', ']', ')']) {
            if joined.ends_with(',') {
                joined.pop();
            }
            if piece.starts_with('}') {
                joined.push(' ');
            }
        } else if !joined.ends_with(['[', '(']) {
            joined.push(' ');
        }
        joined.push_str(piece);
    }
    joined
}

/// The entries of a body: each up to and with its `;` (or the `}` that closes a braced group
/// of entries), outside string literals and brackets (`[u8; 4]`), with the
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
        // An entry ends at its `;`, or at the `}` closing a group of entries (`tables { ... }`).
        if (c == ';' || c == '}') && depth == 0 {
            found.push(entry.trim().to_string());
            entry.clear();
        }
    }
    // Whatever follows the last end is kept, never dropped.
    if !entry.trim().is_empty() {
        found.push(entry.trim().to_string());
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
    use super::{one_line_attributes, one_line_specs, reflow_accessor_lines};

    #[test]
    fn attribute_lists_take_one_line() {
        let printed = "#[derive(\n    Clone,\n    ::zerocopy::FromBytes\n)]\n#[repr(C)]\npub mod m {\n    #![allow(\n        clippy::x,\n        reason = \"a, b\"\n    )]\n    #[derive(Clone, Copy)]\n}\n";
        let want = "#[derive(Clone, ::zerocopy::FromBytes)]\n#[repr(C)]\npub mod m {\n    #![allow(clippy::x, reason = \"a, b\")]\n    #[derive(Clone, Copy)]\n}\n";
        assert_eq!(one_line_attributes(printed), want);
    }

    #[test]
    fn each_entry_gets_its_line_and_strings_stay_whole() {
        let printed = "    impl X {\n        ::abi_runtime::view_accessors! {\n            #[doc = r\" a; b : c\"] load a @ 0 : u32; #[doc =\n            r#\"say \"x;\"\"#] read b @ 8 : [u8; 4]; store set_c @ 4\n            : super::C as u32;\n        }\n    }\n";
        let want = "    impl X {\n        ::abi_runtime::view_accessors! {\n            #[doc = r\" a; b : c\"] load a @ 0: u32;\n            #[doc = r#\"say \"x;\"\"#] read b @ 8: [u8; 4];\n            store set_c @ 4: super::C as u32;\n        }\n    }\n";
        assert_eq!(reflow_accessor_lines(printed), want);
    }

    #[test]
    fn a_braced_group_is_an_entry_and_nothing_is_dropped() {
        let printed = "    ::abi_runtime::recording_format! {\n        spec S; tables { a @ 0 : T;\n        b @ 1 : T; } writer W; adders { c @ 1 : T; }\n    }\n";
        let want = "    ::abi_runtime::recording_format! {\n        spec S;\n        tables { a @ 0: T; b @ 1: T; }\n        writer W;\n        adders { c @ 1: T; }\n    }\n";
        assert_eq!(reflow_accessor_lines(printed), want);
    }

    #[test]
    fn spec_entries_take_one_line_and_short_fields_join() {
        let printed = "pub static S: T = T {\n    name: \"s\",\n    ours: V {\n        major: 0,\n        minor: 9,\n    },\n    rows: &[\n        R {\n            a: 1,\n            b: Some((\n                \"x\",\n                F::new(1, 2),\n            )),\n        },\n    ],\n};\nfn f() {\n    g(\n        1,\n    );\n}\n";
        let want = "pub static S: T = T {\n    name: \"s\",\n    ours: V { major: 0, minor: 9 },\n    rows: &[R { a: 1, b: Some((\"x\", F::new(1, 2))) }],\n};\nfn f() {\n    g(\n        1,\n    );\n}\n";
        assert_eq!(one_line_specs(printed), want);
    }

    #[test]
    fn an_array_items_entries_take_a_line_each_however_wide() {
        let wide = "x".repeat(120);
        let printed = format!(
            "    pub const P: &[T] = &[\n        T {{\n            a: \"{wide}\",\n        }},\n    ];\n"
        );
        let want = format!("    pub const P: &[T] = &[\n        T {{ a: \"{wide}\" }},\n    ];\n");
        assert_eq!(one_line_specs(&printed), want);
    }
}
