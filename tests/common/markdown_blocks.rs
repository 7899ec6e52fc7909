//! Reading markdown back as a renderer does: pulldown-cmark (the CommonMark parser rustdoc
//! uses, with GitHub's tables and strikethrough) turns the markdown target's text into its
//! blocks (headings, paragraphs, tables, lists, code, the generated-line comment), each
//! inline run as the text it renders as. What the markdown target never writes (HTML other
//! than `<br>` and anchors, a paragraph over two lines, a setext heading, emphasis the
//! target did not mean, a table row with cells more or fewer than its header) panics.

use std::ops::Range;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A run of inline markdown: as written, and as it renders.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inline {
    /// The markdown as written (the block's or the cell's source, trimmed).
    pub raw: String,
    /// The text it renders as: escapes and entities resolved, `<br>` a line break, code
    /// spans' content, links' text, emphasis without its markers.
    pub text: String,
    /// The id of the `<a id="..."></a>` it starts with.
    pub anchor: Option<String>,
    /// The text of each emphasized (or strong) part, in order.
    pub emphasis: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// An ATX heading (`## text`).
    Heading { level: usize, inline: Inline },
    /// A paragraph: one line, as the target writes a doc's line breaks as `<br>`.
    Paragraph { inline: Inline },
    /// A table: the header's texts, and each row's cells (as many as the header's).
    Table {
        header: Vec<String>,
        rows: Vec<Vec<Inline>>,
    },
    /// A fenced `text` code block's lines.
    Code { lines: Vec<String> },
    /// A list's items, nested ones after their parent, each's text after its marker as
    /// written (`- `, `12. `), indented two spaces per level.
    List { items: Vec<Inline> },
    /// An HTML comment on one line.
    Comment { raw: String },
}

/// The parser's options: GitHub's tables and strikethrough, which the target must escape
/// (`|`, `~`) where it does not mean them.
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// The events of `md` with their source ranges.
fn events(md: &str) -> Vec<(Event<'_>, Range<usize>)> {
    Parser::new_ext(md, options()).into_offset_iter().collect()
}

/// The line (1-based) of byte `at` of `md`, for messages.
fn line_of(md: &str, at: usize) -> usize {
    md[..at.min(md.len())].matches('\n').count() + 1
}

/// Reads `md` into blocks.
pub fn parse_blocks(md: &str) -> Vec<Block> {
    let events = events(md);
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let (event, range) = &events[i];
        let line = line_of(md, range.start);
        let Event::Start(tag) = event else {
            panic!("line {line}: {event:?} outside a block");
        };
        let end = block_end(&events, i);
        let inner = &events[i + 1..end];
        let source = md[range.clone()].trim_end();
        blocks.push(match tag {
            Tag::HtmlBlock => {
                let raw: String = inner
                    .iter()
                    .map(|(e, _)| match e {
                        Event::Html(h) => h.to_string(),
                        other => panic!("line {line}: {other:?} in an HTML block"),
                    })
                    .collect();
                let raw = raw.trim_end().to_string();
                assert!(
                    raw.starts_with("<!--") && raw.ends_with("-->") && !raw.contains('\n'),
                    "line {line}: HTML that is not a one-line comment: {raw}"
                );
                Block::Comment { raw }
            }
            Tag::Heading { level, .. } => {
                assert!(
                    source.starts_with('#'),
                    "line {line}: a setext heading (a paragraph over its underline): {source}"
                );
                Block::Heading {
                    level: heading_level(*level),
                    inline: inline(md, inner, source, line),
                }
            }
            Tag::Paragraph => Block::Paragraph {
                inline: inline(md, inner, source, line),
            },
            Tag::CodeBlock(kind) => {
                assert_eq!(
                    *kind,
                    CodeBlockKind::Fenced("text".into()),
                    "line {line}: code block language"
                );
                let text: String = inner
                    .iter()
                    .map(|(e, _)| match e {
                        Event::Text(t) => t.to_string(),
                        other => panic!("line {line}: {other:?} in a code block"),
                    })
                    .collect();
                Block::Code {
                    lines: text.lines().map(String::from).collect(),
                }
            }
            Tag::Table(alignments) => table(md, alignments, inner, line),
            Tag::List(_) => {
                let mut items = Vec::new();
                list(md, &events[i..=end], 0, &mut items);
                Block::List { items }
            }
            other => panic!("line {line}: a block the target never writes: {other:?}"),
        });
        i = end + 1;
    }
    blocks
}

fn heading_level(level: HeadingLevel) -> usize {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// The index of the `End` that closes the `Start` at `start`.
fn block_end(events: &[(Event<'_>, Range<usize>)], start: usize) -> usize {
    let mut depth = 0usize;
    for (j, (e, _)) in events.iter().enumerate().skip(start) {
        match e {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    panic!("an unclosed block")
}

/// The inline events `inner` of a block whose source is `source` (at `line`), as an
/// [`Inline`].
fn inline(md: &str, inner: &[(Event<'_>, Range<usize>)], source: &str, line: usize) -> Inline {
    let mut out = Inline {
        raw: source.trim().to_string(),
        ..Inline::default()
    };
    // The start of each open emphasis's text in `out.text`.
    let mut open: Vec<usize> = Vec::new();
    let mut in_anchor = false;
    for (event, range) in inner {
        match event {
            Event::Text(t) | Event::Code(t) => out.text.push_str(t),
            Event::InlineHtml(h) if &**h == "<br>" => out.text.push('\n'),
            Event::InlineHtml(h) if h.starts_with("<a id=\"") && h.ends_with("\">") => {
                assert!(
                    out.text.is_empty() && out.anchor.is_none(),
                    "line {line}: an anchor not at the start of `{source}`"
                );
                out.anchor = Some(h["<a id=\"".len()..h.len() - 2].to_string());
                in_anchor = true;
            }
            Event::InlineHtml(h) if &**h == "</a>" && in_anchor => {
                assert!(out.text.is_empty(), "line {line}: text inside an anchor");
                in_anchor = false;
            }
            Event::InlineHtml(h) | Event::Html(h) => {
                panic!("line {line}: unexpected HTML `{h}` in `{source}`")
            }
            Event::Start(Tag::Emphasis | Tag::Strong) => open.push(out.text.len()),
            Event::End(TagEnd::Emphasis | TagEnd::Strong) => {
                let from = open.pop().expect("an open emphasis");
                out.emphasis.push(out.text[from..].to_string());
            }
            Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => {}
            Event::SoftBreak | Event::HardBreak => panic!(
                "line {line}: a paragraph continues on the next line (the target writes `<br>`): `{}`",
                &md[range.start.saturating_sub(80)..range.end]
            ),
            other => panic!("line {line}: {other:?} in `{source}`"),
        }
    }
    assert!(!in_anchor, "line {line}: an unclosed anchor in `{source}`");
    out
}

/// A table: its alignments must be the target's (`---` or `---:`), and each row must have
/// the header's cells, none dropped and none added by the parser (GitHub drops a row's
/// excess cells and pads a short row).
fn table(
    md: &str,
    alignments: &[Alignment],
    inner: &[(Event<'_>, Range<usize>)],
    line: usize,
) -> Block {
    for a in alignments {
        assert!(
            matches!(a, Alignment::None | Alignment::Right),
            "line {line}: delimiter alignment {a:?}"
        );
    }
    let mut rows: Vec<(Range<usize>, Vec<Inline>)> = Vec::new();
    let mut i = 0;
    while i < inner.len() {
        let (event, range) = &inner[i];
        let end = block_end(inner, i);
        match event {
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                let mut cells = Vec::new();
                let mut j = i + 1;
                while j < end {
                    let (cell_event, cell_range) = &inner[j];
                    assert!(
                        matches!(cell_event, Event::Start(Tag::TableCell)),
                        "line {line}: {cell_event:?} in a row"
                    );
                    let cell_end = block_end(inner, j);
                    let row_line = line_of(md, cell_range.start);
                    cells.push(inline(
                        md,
                        &inner[j + 1..cell_end],
                        &md[cell_range.clone()],
                        row_line,
                    ));
                    j = cell_end + 1;
                }
                rows.push((range.clone(), cells));
            }
            other => panic!("line {line}: {other:?} in a table"),
        }
        i = end + 1;
    }
    let mut rows = rows.into_iter();
    let (_, header) = rows.next().expect("a table has a header");
    let rows: Vec<Vec<Inline>> = rows
        .map(|(range, cells)| {
            let row_line = line_of(md, range.start);
            let written = md[range.clone()].lines().next().unwrap_or("");
            // The row as the target writes it: `| a | b |`, each cell's source between.
            let rebuilt = format!(
                "| {} |",
                cells
                    .iter()
                    .map(|c| c.raw.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
            assert_eq!(
                written.trim_end(),
                rebuilt,
                "line {row_line}: the row's cells, as the parser split them, are not the row \
                 (an unescaped `|`, or cells more or fewer than the header's {})",
                header.len()
            );
            assert_eq!(
                cells.len(),
                header.len(),
                "line {row_line}: {} cells under a header of {}",
                cells.len(),
                header.len()
            );
            cells
        })
        .collect();
    Block::Table {
        header: header.into_iter().map(|c| c.text).collect(),
        rows,
    }
}

/// Appends the items of the list whose events are `events` (from its `Start` to its `End`)
/// at nesting `depth`, each after its marker as written, nested lists after their item.
fn list(md: &str, events: &[(Event<'_>, Range<usize>)], depth: usize, items: &mut Vec<Inline>) {
    let mut i = 1;
    while i + 1 < events.len() {
        let (event, range) = &events[i];
        let end = block_end(events, i);
        let line = line_of(md, range.start);
        assert!(
            matches!(event, Event::Start(Tag::Item)),
            "line {line}: {event:?} in a list"
        );
        // The item's own inline events, up to a nested list.
        let body = &events[i + 1..end];
        let nested = body
            .iter()
            .position(|(e, _)| matches!(e, Event::Start(Tag::List(_))))
            .unwrap_or(body.len());
        let source = md[range.clone()].lines().next().unwrap_or("").trim();
        let mut item = inline(md, &body[..nested], source, line);
        item.text = format!(
            "{}{}{}",
            "  ".repeat(depth),
            marker(source, line),
            item.text
        );
        items.push(item);
        if nested < body.len() {
            let list_end = block_end(body, nested);
            list(md, &body[nested..=list_end], depth + 1, items);
            assert_eq!(list_end + 1, body.len(), "line {line}: after a nested list");
        }
        i = end + 1;
    }
}

/// The marker an item's source starts with (`- `, `12. `).
fn marker(source: &str, line: usize) -> &str {
    let digits = source.bytes().take_while(u8::is_ascii_digit).count();
    let len = if source.starts_with("- ") {
        2
    } else if digits > 0 && source[digits..].starts_with(". ") {
        digits + 2
    } else {
        panic!("line {line}: a list item's marker in `{source}`")
    };
    &source[..len]
}

/// The cells of every table's header and rows in `markdown`, as they render.
pub fn table_rows(markdown: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for block in parse_blocks(markdown) {
        if let Block::Table { header, rows } = block {
            out.push(header);
            out.extend(
                rows.into_iter()
                    .map(|r| r.into_iter().map(|c| c.text).collect()),
            );
        }
    }
    out
}

/// The text one line of markdown (a doc comment's line, which rustdoc renders with this
/// parser) renders as, when it is one paragraph: escapes and entities resolved, code spans'
/// content, links' text, emphasis without its markers, HTML tags left out (a browser shows
/// none of them). `None` for a line that is another block (a heading, a list item, code).
pub fn line_text(line: &str) -> Option<String> {
    assert!(!line.contains('\n'), "one line: {line:?}");
    let events = events(line);
    let (Some((Event::Start(Tag::Paragraph), _)), Some((Event::End(TagEnd::Paragraph), _))) =
        (events.first(), events.last())
    else {
        return None;
    };
    let mut text = String::new();
    for (event, _) in &events[1..events.len() - 1] {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph) => return None,
            _ => {}
        }
    }
    Some(text)
}
