//! Reads a schema one top-level table at a time (`[abi]`, then each `[[struct]]`,
//! `[[enum]]`, ...), so that toml's tokens, parse events and document tree exist for one
//! item at a time, never for the whole file: for an 11.9 MB schema, the whole file's took
//! about 450 MiB, more than all the rest of `abi-codegen generate` (bench/README.md, issue
//! 49). Only the plain shape is read this way: nothing before the first header, every header
//! `[abi]` once or `[[<kind>]]`, and no TOML 1.1 syntax. Anything else, and any error, gives
//! `None`, and `parse_schema` reads the whole document as before, so that its errors and
//! their positions do not change.
//!
//! Why the items read alone give what the whole document gives: a header at the start of a
//! line, outside any bracket, starts a statement of the document; an item that parses alone
//! ends where a statement may end, so the document's tokens are the items' tokens one after
//! the other. `[[kind]]` appends one table to the array `kind` and `[abi]` defines one
//! table, and nothing else in an item can reach outside its table. Each item's spans are
//! moved by where it starts in the file, so the values and spans are the whole document's
//! (the tests compare the two on every schema in tests/fixtures).

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml_parser::Source;
use toml_parser::lexer::TokenKind;

use super::toml11;

/// A top-level header: where it starts, its key, and whether it is `[[key]]`.
struct Header<'a> {
    start: usize,
    key: &'a str,
    array: bool,
}

/// One top-level table of the schema, parsed alone: its header's key, whether it is
/// `[[key]]`, and the table, its spans where it is in the whole text.
pub(super) struct Item<'i> {
    pub(super) key: &'i str,
    pub(super) array: bool,
    pub(super) table: Spanned<DeValue<'i>>,
}

/// The schema's top-level tables, each parsed alone, or `None` when the text is not of the
/// plain shape (`[abi]`, then `[[key]]` tables, bare keys only, nothing before the first
/// header, no TOML 1.1 syntax) or an item does not parse (then the caller reads the whole
/// document).
pub(super) fn items(src: &str) -> Option<Vec<Item<'_>>> {
    if !toml11::toml11_syntax(src).is_empty() {
        return None;
    }
    let headers = headers(src)?;
    (0..headers.len())
        .map(|i| {
            let end = headers.get(i + 1).map_or(src.len(), |h| h.start);
            let table = read_item(src, &headers[i], end)?;
            Some(Item {
                key: headers[i].key,
                array: headers[i].array,
                table,
            })
        })
        .collect()
}

/// One item's table deserialized as `T`, or `None` when it does not fit.
pub(super) fn deserialize<'de, T: Deserialize<'de>>(
    table: Spanned<DeValue<'de>>,
) -> Option<Spanned<T>> {
    Spanned::<T>::deserialize(ValueDeserializer::from(table)).ok()
}

/// Every top-level header, in order: a `[` first on its line (blanks aside) outside any
/// bracket. `None` when something other than blanks and comments comes before the first one,
/// or a header is not `[key]` or `[[key]]` with a bare key (a dotted or quoted one).
fn headers(src: &str) -> Option<Vec<Header<'_>>> {
    let mut headers = Vec::new();
    // Brackets opened by values and not closed yet.
    let mut depth = 0usize;
    // Only blanks since the last line break; inside a header's line.
    let (mut line_start, mut in_header) = (true, false);
    for token in Source::new(src).lex() {
        let kind = token.kind();
        match kind {
            TokenKind::Newline => {
                (line_start, in_header) = (true, false);
                continue;
            }
            TokenKind::Whitespace | TokenKind::Comment | TokenKind::Eof => continue,
            _ if in_header => continue,
            TokenKind::LeftSquareBracket if line_start && depth == 0 => {
                headers.push(header(src, token.span().start())?);
                in_header = true;
            }
            _ if headers.is_empty() => return None,
            TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => depth += 1,
            TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => {
                depth = depth.checked_sub(1)?;
            }
            _ => {}
        }
        line_start = false;
    }
    Some(headers)
}

/// The header that starts at `start`, if it is `[key]` or `[[key]]` with a bare key, then
/// blanks and perhaps a comment.
fn header(src: &str, start: usize) -> Option<Header<'_>> {
    let line = &src[start..];
    let line = line.split(['\n', '#']).next().unwrap_or("").trim_end();
    let (key, array) = match line.strip_prefix("[[").and_then(|l| l.strip_suffix("]]")) {
        Some(key) => (key, true),
        None => (line.strip_prefix('[')?.strip_suffix(']')?, false),
    };
    let bare = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    (!key.is_empty() && key.bytes().all(bare)).then_some(Header { start, key, array })
}

/// The table of the item from `header` to `end`, parsed alone, its spans moved to where it
/// is in `src`: `None` when it does not parse, or is not one table under its header's key.
fn read_item<'i>(src: &'i str, header: &Header<'_>, end: usize) -> Option<Spanned<DeValue<'i>>> {
    let root = DeTable::parse(&src[header.start..end]).ok()?.into_inner();
    if root.len() != 1 {
        return None;
    }
    let (key, value) = root.into_iter().next()?;
    if key.get_ref() != header.key {
        return None;
    }
    let table = match value.get_ref() {
        DeValue::Array(items) if header.array && items.len() == 1 => {
            let DeValue::Array(items) = value.into_inner() else {
                return None;
            };
            items.into_iter().next()?
        }
        DeValue::Table(_) if !header.array => value,
        _ => return None,
    };
    matches!(table.get_ref(), DeValue::Table(_)).then(|| shifted(table, header.start))
}

/// `value` with its span and every span inside it moved `by` bytes on.
fn shifted(value: Spanned<DeValue<'_>>, by: usize) -> Spanned<DeValue<'_>> {
    let span = value.span();
    let mut inner = value.into_inner();
    match &mut inner {
        DeValue::Array(items) => {
            for item in items.iter_mut() {
                let taken = std::mem::replace(item, Spanned::new(0..0, DeValue::Boolean(false)));
                *item = shifted(taken, by);
            }
        }
        DeValue::Table(table) => {
            *table = std::mem::take(table)
                .into_iter()
                .map(|(key, value)| {
                    let span = key.span();
                    let key = Spanned::new(span.start + by..span.end + by, key.into_inner());
                    (key, shifted(value, by))
                })
                .collect();
        }
        _ => {}
    }
    Spanned::new(span.start + by..span.end + by, inner)
}
