//! The wording of the schema's parse errors: toml's and serde's messages in the schema's
//! words, a hint for an unknown or missing key, a duplicate table explained, and the item
//! an error sits in.

use crate::diagnostics::{Diagnostic, Span};

/// A missing key, an unknown key or a value of the wrong kind, with its hint.
pub(super) fn describe_data_error(src: &str, span: Span, message: String) -> Diagnostic {
    let help = suggest_key(&message).or_else(|| {
        let key = message.strip_prefix("missing key `")?.split('`').next()?;
        Some(format!("add `{key} = ...`"))
    });
    let help = help.or_else(|| {
        (message == "expected an array, found a table").then(|| {
            "items are arrays of tables: write a double-bracket header, such as `[[struct]]`"
                .to_string()
        })
    });
    let message = match enclosing_item(src, span.start) {
        Some(item) => format!("{item}: {message}"),
        None => message,
    };
    Diagnostic {
        span,
        message,
        help,
    }
}

/// The inline table (`{ ... }`) on the last line up to byte `at` (a TOML syntax error's
/// position) that does not close on its own line, as an error pointing at it: an inline
/// table is one line in TOML 1.0, so a `,` written for `},` makes the parser stumble on the
/// next line. `None` when the inline tables of the error's line and the one before it close.
pub(crate) fn unclosed_inline_table(src: &str, at: usize) -> Option<Diagnostic> {
    let mut start = 0;
    let mut found: Option<(Span, usize)> = None;
    for (i, line) in src.split_inclusive('\n').enumerate() {
        if start > at {
            break;
        }
        if let Some(open) = unclosed_brace(line) {
            let end = start + line.trim_end().len();
            found = Some((start + open..end, i + 1));
        }
        start += line.len();
    }
    let (span, line) = found?;
    // On the error's line, or the one before it: a brace further up is no slip of this one.
    let error_line = src.get(..at)?.matches('\n').count() + 1;
    if line + 1 < error_line {
        return None;
    }
    let table = src.get(span.clone())?;
    let body = table.trim_end_matches(',').trim_end();
    Some(Diagnostic {
        message: format!(
            "the inline table on line {line} does not close on its line: `{table}` has no `}}`"
        ),
        help: Some(format!(
            "an inline table is `{{ ... }}` on one line: write `{body} }},`"
        )),
        span,
    })
}

/// The byte in `line` of its last `{` that no `}` closes, outside strings and comments.
fn unclosed_brace(line: &str) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '#' => break,
                '{' => open.push(i),
                '}' => {
                    open.pop();
                }
                _ => {}
            },
        }
    }
    open.first().copied()
}

/// No `[abi]` table: the schema is empty (blank lines and comments), or lacks its header.
pub(super) fn missing_abi(src: &str) -> Diagnostic {
    let empty = src.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    });
    let message = if empty {
        "the schema is empty: it has no `[abi]` table"
    } else {
        "the schema has no `[abi]` table"
    };
    Diagnostic {
        span: 0..0,
        message: message.into(),
        help: Some(
            "a schema starts with `[abi]` and its `name = \"...\"`, `version = \"0.1\"`, \
             `c_prefix = \"...\"` and `byte_order = \"little\"`"
                .into(),
        ),
    }
}

/// toml's "duplicate key": a table header written twice, `[struct]` beside `[[struct]]`
/// (pointed at the single-bracket header, the likely mistake, wherever it is), or a key set
/// twice in one table.
pub(super) fn duplicate_key(src: &str, span: Span) -> Diagnostic {
    let key = src.get(span.clone()).unwrap_or("").trim().trim_matches('"');
    // Every `[key]` and `[[key]]` header: its span and line.
    let mut singles: Vec<(Span, usize)> = Vec::new();
    let mut arrays: Vec<(Span, usize)> = Vec::new();
    let mut offset = 0;
    for (i, line) in src.split_inclusive('\n').enumerate() {
        let text = line.trim_start();
        let start = offset + (line.len() - text.len());
        offset += line.len();
        let (list, open, close) = if text.starts_with("[[") {
            (&mut arrays, "[[", "]]")
        } else {
            (&mut singles, "[", "]")
        };
        let Some(rest) = text.strip_prefix(open) else {
            continue;
        };
        if let Some(end) = rest.find(close).filter(|&e| rest[..e].trim() == key) {
            list.push((start..start + 2 * open.len() + end, i + 1));
        }
    }
    let (message, help, span) = match (singles.as_slice(), arrays.as_slice()) {
        ([(single, _), ..], [(_, line), ..]) => (
            format!(
                "`[{key}]` is a single table, but `{key}` is an array of tables: `[[{key}]]` is on line {line}"
            ),
            format!("items are arrays of tables: write `[[{key}]]` here too"),
            single.clone(),
        ),
        ([(_, line), (second, _), ..], []) => (
            format!("table `[{key}]` is declared twice: it is already declared on line {line}"),
            format!("merge the two `[{key}]` tables into one"),
            second.clone(),
        ),
        _ => (
            format!("duplicate key `{key}`"),
            "a key is set once in its table: remove one of them".to_string(),
            span,
        ),
    };
    Diagnostic {
        span,
        message,
        help: Some(help),
    }
}

/// For "unknown key `sise`, expected one of `name`, `size`, ...": the closest expected key.
fn suggest_key(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown key ")?;
    let mut quoted = rest.split('`').skip(1).step_by(2);
    let unknown = quoted.next()?;
    crate::diagnostics::closest(unknown, quoted).map(|k| format!("did you mean `{k}`?"))
}

/// Makes toml's and serde's messages read like ours: lowercase, one line, keys in
/// backticks, the schema's words (integer, array, table) instead of Rust's.
pub(super) fn describe_toml_error(message: &str) -> String {
    let message = message.trim().replace('\n', " ");
    let message = if let Some(rest) = message.strip_prefix("unknown field") {
        format!("unknown key{rest}")
    } else if let Some(rest) = message.strip_prefix("missing field") {
        format!("missing key{rest}")
    } else if message.starts_with("data did not match any variant of untagged enum RawValue") {
        "expected an integer, or a string holding an integer expression".to_string()
    } else if message.starts_with("data did not match any variant of untagged enum RawParties") {
        "expected a party's name, or an array of party names".to_string()
    } else if let Some(rest) = message.strip_prefix("invalid type: ") {
        match rest.rsplit_once(", expected ") {
            Some((found, _)) if found.ends_with(" as i128") => {
                let literal = found.trim_end_matches(" as i128");
                let literal = literal.strip_prefix("integer ").unwrap_or(literal);
                format!(
                    "the integer {literal} does not fit a TOML integer (64-bit signed); \
                     write it as a string, such as \"0xFFFF_FFFF_FFFF_FFFF\""
                )
            }
            Some((found, expected)) => {
                let words = |t: &str| match t {
                    "i64" | "u64" | "i32" | "u32" => "an integer".to_string(),
                    "a sequence" => "an array".to_string(),
                    "map" | "a map" => "a table".to_string(),
                    "sequence" => "an array".to_string(),
                    other => other.to_string(),
                };
                format!("expected {}, found {}", words(expected), words(found))
            }
            None => message,
        }
    } else {
        message
    };
    let mut chars = message.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => message,
    }
}

/// Names the item (and field or value) whose table holds `offset`, such as
/// "struct `client_entry`, field `waiting`", by reading the document's spans.
pub(super) fn enclosing_item(src: &str, offset: usize) -> Option<String> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(src).ok()?.into_inner();
    let name_of = |t: &DeTable| -> Option<String> {
        t.iter()
            .find(|(k, _)| k.get_ref().as_ref() == "name")
            .and_then(|(_, v)| match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                _ => None,
            })
    };
    let contains = |span: &Span| span.start <= offset && offset < span.end.max(span.start + 1);
    for (key, value) in doc.iter() {
        let kind = match key.get_ref().as_ref() {
            "const" => "constant",
            "enum" => "enum",
            "flags" => "flags",
            "struct" => "struct",
            "seqlock" => "seqlock",
            "ring" => "ring",
            "queue" => "queue",
            "broadcast" => "broadcast",
            "mailbox" => "mailbox",
            "exchange" => "exchange",
            "session" => "session",
            "directory" => "directory",
            "event" => "event",
            "layout" => "layout",
            "file" => "file",
            "abi" => {
                // The `[abi]` header's span covers only the header, so look at its keys too.
                let within = contains(&value.span())
                    || matches!(value.get_ref(), DeValue::Table(t)
                        if t.iter().any(|(k, v)| contains(&k.span()) || contains(&v.span())));
                if within {
                    return Some("[abi]".to_string());
                }
                continue;
            }
            _ => continue,
        };
        let DeValue::Array(items) = value.get_ref() else {
            continue;
        };
        for item in items.iter() {
            let DeValue::Table(table) = item.get_ref() else {
                continue;
            };
            let within_item = contains(&item.span())
                || table
                    .iter()
                    .any(|(k, v)| contains(&k.span()) || contains(&v.span()));
            if !within_item {
                continue;
            }
            let name = name_of(table).unwrap_or_else(|| "?".into());
            let mut what = format!("{kind} `{name}`");
            for (k, v) in table.iter() {
                let member = match k.get_ref().as_ref() {
                    "fields" => "field",
                    "trailer" => "trailer part",
                    "rows" => "row",
                    "records" => "record",
                    "values" => "value",
                    _ => continue,
                };
                let DeValue::Array(members) = v.get_ref() else {
                    continue;
                };
                for m in members.iter() {
                    if let (true, DeValue::Table(mt)) = (contains(&m.span()), m.get_ref()) {
                        let mname = name_of(mt).unwrap_or_else(|| "?".into());
                        what.push_str(&format!(", {member} `{mname}`"));
                    }
                }
            }
            return Some(what);
        }
    }
    None
}
