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

use super::{RawAbi, RawSchema, toml11};

/// A top-level header: where it starts, its key, and whether it is `[[key]]`.
struct Header<'a> {
    start: usize,
    key: &'a str,
    array: bool,
}

/// The schema read item by item, or `None` when it is not of the plain shape or does not
/// read without error (then the caller reads the whole document).
pub(super) fn parse_by_item(src: &str) -> Option<RawSchema> {
    if !toml11::toml11_syntax(src).is_empty() {
        return None;
    }
    let headers = headers(src)?;
    let item = |i: usize| -> Option<Spanned<DeValue<'_>>> {
        let end = headers.get(i + 1).map_or(src.len(), |h| h.start);
        read_item(src, &headers[i], end)
    };
    // `[abi]` once, and no other key as a plain table.
    let mut tables = headers.iter().enumerate().filter(|(_, h)| !h.array);
    let (abi_at, abi) = tables.next()?;
    if abi.key != "abi" || tables.next().is_some() {
        return None;
    }
    let abi = Spanned::<RawAbi>::deserialize(ValueDeserializer::from(item(abi_at)?)).ok()?;
    let mut raw = RawSchema::with_abi(abi);
    for (i, header) in headers.iter().enumerate().filter(|(_, h)| h.array) {
        let item = item(i)?;
        match header.key {
            "const" => push(&mut raw.consts, item)?,
            "enum" => push(&mut raw.enums, item)?,
            "flags" => push(&mut raw.flags, item)?,
            "struct" => push(&mut raw.structs, item)?,
            "seqlock" => push(&mut raw.seqlocks, item)?,
            "ring" => push(&mut raw.rings, item)?,
            "queue" => push(&mut raw.queues, item)?,
            "broadcast" => push(&mut raw.broadcasts, item)?,
            "mailbox" => push(&mut raw.mailboxes, item)?,
            "exchange" => push(&mut raw.exchanges, item)?,
            "session" => push(&mut raw.sessions, item)?,
            "directory" => push(&mut raw.directories, item)?,
            "event" => push(&mut raw.events, item)?,
            "layout" => push(&mut raw.layouts, item)?,
            "file" => push(&mut raw.files, item)?,
            "template" => push(&mut raw.templates, item)?,
            _ => return None,
        }
    }
    Some(raw)
}

/// Deserializes one `[[kind]]` table onto the end of its list.
fn push<'de, T: Deserialize<'de>>(
    list: &mut Vec<Spanned<T>>,
    item: Spanned<DeValue<'de>>,
) -> Option<()> {
    list.push(Spanned::<T>::deserialize(ValueDeserializer::from(item)).ok()?);
    Some(())
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

#[cfg(test)]
mod tests {
    use super::parse_by_item;

    /// Every schema under tests/fixtures, and the bridge's.
    fn schemas() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut dirs = vec![root.join("tests/fixtures")];
        let mut files = vec![root.join("schema.toml")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("reads the fixtures") {
                let path = entry.expect("lists the fixtures").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "toml") {
                    files.push(path);
                }
            }
        }
        files.sort();
        (files.into_iter())
            .filter_map(|path| Some((path.clone(), std::fs::read_to_string(path).ok()?)))
            .collect()
    }

    /// Read item by item, a schema gives what the whole document gives, values and spans
    /// (the `Debug` text shows both); a document that does not read gives `None`.
    #[test]
    fn items_read_alone_are_the_whole_document() {
        let (mut read, mut fell_back) = (0, 0);
        for (path, src) in schemas() {
            let whole = toml::from_str::<super::RawSchema>(&src);
            match parse_by_item(&src) {
                Some(raw) => {
                    let whole = whole.unwrap_or_else(|e| {
                        panic!("{}: read by item, but the whole fails: {e}", path.display())
                    });
                    assert_eq!(
                        format!("{raw:#?}"),
                        format!("{whole:#?}"),
                        "{}",
                        path.display()
                    );
                    read += 1;
                }
                None => fell_back += 1,
            }
        }
        assert!(read > 100, "{read} read by item, {fell_back} not");
        // The bridge's schema, which has every kind of item, reads by item.
        let bridge = include_str!("../../../schema.toml");
        assert!(parse_by_item(bridge).is_some());
    }

    /// Shapes that are left to the whole document.
    #[test]
    fn other_shapes_are_left_to_the_whole_document() {
        let abi =
            "[abi]\nname = \"a\"\nversion = \"1.0\"\nc_prefix = \"a\"\nbyte_order = \"little\"\n";
        assert!(parse_by_item(abi).is_some());
        for src in [
            format!("x = 1\n{abi}"),
            format!("{abi}[abi]\n"),
            format!("{abi}[abi.more]\nx = 1\n"),
            format!("{abi}[[struct]]\nname = \"s\"\nfields = []\n[struct.version]\n"),
            format!("{abi}[[\"struct\"]]\nname = \"s\"\nfields = []\n"),
            format!("{abi}[[unknown]]\n"),
            format!("{abi}[[const]]\nname = \"c\"\nvalue = 1\nvalue = 2\n"),
            format!("{abi}[[const]]\nname = \"c\"\nvalue = {{ a = 1, }}\n"),
            "[[const]]\nname = \"c\"\nvalue = 1\n".to_string(),
        ] {
            assert!(parse_by_item(&src).is_none(), "{src}");
        }
        // A `[` first on a line inside an array is not a header.
        let src = format!("{abi}[[struct]]\nname = \"s\"\nfields = [\n[\n]]\n");
        assert!(parse_by_item(&src).is_none() && toml::from_str::<super::RawSchema>(&src).is_err());
    }
}
