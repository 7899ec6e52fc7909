//! Reading the markdown target back: the rows of its tables, each cell unescaped to the text
//! it renders as (a backslash escape gives its character, `<br>` a line break).

/// The cells of every table row (`| a | b |`) of `markdown`, unescaped. Separator rows
/// (`| --- |`) are left out.
pub fn table_rows(markdown: &str) -> Vec<Vec<String>> {
    markdown
        .lines()
        .filter(|l| l.starts_with('|') && l.ends_with('|'))
        .map(split_row)
        .filter(|cells| {
            !cells
                .iter()
                .all(|c| c.trim_start_matches(':').starts_with("---"))
        })
        .collect()
}

/// Splits a row at the `|` that are not escaped and unescapes each cell.
fn split_row(line: &str) -> Vec<String> {
    raw_cells(&line[1..line.len() - 1])
        .iter()
        .map(|c| unescape(c))
        .collect()
}

/// The cells between a row's outer `|`, split at each `|` that no backslash escapes, trimmed
/// and still escaped.
pub fn raw_cells(inner: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut raw = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                raw.push(c);
                if let Some(n) = chars.next() {
                    raw.push(n);
                }
            }
            '|' => cells.push(std::mem::take(&mut raw)),
            c => raw.push(c),
        }
    }
    cells.push(raw);
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The text a cell renders as: `\X` is X for ASCII punctuation (CommonMark), `<br>` is a
/// line break.
pub fn unescape(cell: &str) -> String {
    let mut out = String::new();
    let mut rest = cell;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            if let Some(n) = rest[1..].chars().next().filter(char::is_ascii_punctuation) {
                out.push(n);
                rest = &rest[1 + n.len_utf8()..];
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("<br>") {
            out.push('\n');
            rest = after;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}
