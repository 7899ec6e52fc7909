//! Reading markdown back as a renderer does: pulldown-cmark (the CommonMark parser rustdoc
//! uses, with GitHub's tables and strikethrough) turns the markdown target's text into its
//! blocks (headings, paragraphs, tables, lists, code, the generated-line comment), each
//! inline run as the text it renders as. What the markdown target never writes (HTML other
//! than `<br>` and anchors, a paragraph over two lines, a setext heading, emphasis the
//! target did not mean, a table row with cells more or fewer than its header) panics.

use std::ops::Range;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

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

type Events<'a> = [(Event<'a>, Range<usize>)];

/// The events of `md` with their source ranges.
fn events(md: &str) -> Vec<(Event<'_>, Range<usize>)> {
    Parser::new_ext(md, options()).into_offset_iter().collect()
}

/// The line (1-based) of byte `at` of `md`, for messages.
fn line_of(md: &str, at: usize) -> usize {
    md[..at.min(md.len())].matches('\n').count() + 1
}

/// The top-level parts of `events`: each `Start` to its `End`, inclusive, or a lone event.
fn spans<'e, 'a>(events: &'e Events<'a>) -> Vec<&'e Events<'a>> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (j, (event, _)) in events.iter().enumerate() {
        match event {
            Event::Start(_) => {
                start = if depth == 0 { j } else { start };
                depth += 1;
            }
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    out.push(&events[start..=j]);
                }
            }
            _ if depth == 0 => out.push(&events[j..=j]),
            _ => {}
        }
    }
    out
}

/// Reads `md` into blocks.
pub fn parse_blocks(md: &str) -> Vec<Block> {
    spans(&events(md))
        .into_iter()
        .map(|b| block(md, b))
        .collect()
}

/// One block, from its `Start` to its `End`.
fn block(md: &str, events: &Events<'_>) -> Block {
    let (Event::Start(tag), range) = &events[0] else {
        panic!(
            "line {}: {:?} outside a block",
            line_of(md, events[0].1.start),
            events[0].0
        );
    };
    let line = line_of(md, range.start);
    let source = md[range.clone()].trim_end();
    let inner = &events[1..events.len() - 1];
    match tag {
        Tag::HtmlBlock => {
            let one_comment = source.starts_with("<!--") && source.ends_with("-->");
            assert!(
                one_comment && !source.contains('\n'),
                "line {line}: HTML: {source}"
            );
            Block::Comment { raw: source.into() }
        }
        Tag::Heading { level, .. } => {
            assert!(
                source.starts_with('#'),
                "line {line}: a setext heading: {source}"
            );
            Block::Heading {
                level: *level as usize,
                inline: inline(md, inner, range),
            }
        }
        Tag::Paragraph => Block::Paragraph {
            inline: inline(md, inner, range),
        },
        Tag::CodeBlock(kind) => {
            let language = CodeBlockKind::Fenced("text".into());
            assert_eq!(*kind, language, "line {line}: code block language");
            let text = inline(md, inner, range).text;
            Block::Code {
                lines: text.lines().map(String::from).collect(),
            }
        }
        Tag::Table(alignments) => {
            // The target's delimiters: `---` and `---:`.
            for a in alignments {
                let ours = matches!(a, Alignment::None | Alignment::Right);
                assert!(ours, "line {line}: delimiter alignment {a:?}");
            }
            let mut rows = spans(inner).into_iter().map(|r| row(md, r));
            let header = rows.next().expect("a table has a header");
            let rows: Vec<Vec<Inline>> = rows.collect();
            for (k, row) in rows.iter().enumerate() {
                let n = row.len();
                let h = header.len();
                assert_eq!(
                    n,
                    h,
                    "line {}: {n} cells under a header of {h}",
                    line + 2 + k
                );
            }
            Block::Table {
                header: header.into_iter().map(|c| c.text).collect(),
                rows,
            }
        }
        Tag::List(_) => {
            let mut items = Vec::new();
            list(md, inner, 0, &mut items);
            Block::List { items }
        }
        other => panic!("line {line}: a block the target never writes: {other:?}"),
    }
}

/// The inline `events` of a block or cell whose source is `md[range]`, as an [`Inline`].
fn inline(md: &str, events: &Events<'_>, range: &Range<usize>) -> Inline {
    let source = md[range.clone()].trim();
    let line = || line_of(md, range.start);
    let mut out = Inline {
        raw: source.to_string(),
        ..Inline::default()
    };
    // The start of each open emphasis's text in `out.text`.
    let mut open: Vec<usize> = Vec::new();
    let mut in_anchor = false;
    for (event, _) in events {
        match event {
            Event::Text(t) | Event::Code(t) => out.text.push_str(t),
            Event::InlineHtml(h) if &**h == "<br>" => out.text.push('\n'),
            Event::InlineHtml(h) if h.starts_with("<a id=\"") && h.ends_with("\">") => {
                let first = out.text.is_empty() && out.anchor.is_none();
                assert!(first, "line {}: an anchor not first in `{source}`", line());
                out.anchor = Some(h["<a id=\"".len()..h.len() - 2].to_string());
                in_anchor = true;
            }
            Event::InlineHtml(h) if &**h == "</a>" && in_anchor && out.text.is_empty() => {
                in_anchor = false;
            }
            Event::Start(Tag::Emphasis | Tag::Strong) => open.push(out.text.len()),
            Event::End(TagEnd::Emphasis | TagEnd::Strong) => {
                let from = open.pop().expect("an open emphasis");
                out.emphasis.push(out.text[from..].to_string());
            }
            Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => {}
            Event::SoftBreak | Event::HardBreak => panic!(
                "line {}: a paragraph continues on the next line (the target writes `<br>`): `{source}`",
                line()
            ),
            other => panic!("line {}: {other:?} in `{source}`", line()),
        }
    }
    assert!(
        !in_anchor,
        "line {}: an unclosed anchor in `{source}`",
        line()
    );
    out
}

/// A table row's cells. The row as written must be `| ` and its cells' sources joined with
/// ` | `, then ` |`: the parser split it as the target meant (GitHub drops the cells past the
/// header's and pads a short row; an unescaped `|` in a cell would split it).
fn row(md: &str, events: &Events<'_>) -> Vec<Inline> {
    let cells: Vec<Inline> = spans(&events[1..events.len() - 1])
        .into_iter()
        .map(|c| inline(md, &c[1..c.len() - 1], &c[0].1))
        .collect();
    let range = &events[0].1;
    let written = md[range.clone()].lines().next().unwrap_or("").trim_end();
    let sources: Vec<&str> = cells.iter().map(|c| c.raw.as_str()).collect();
    let rebuilt = format!("| {} |", sources.join(" | "));
    let line = line_of(md, range.start);
    assert_eq!(
        written, rebuilt,
        "line {line}: the row, and its cells as the parser split it"
    );
    cells
}

/// Appends the items of a list (its events between `Start` and `End`) at nesting `depth`:
/// each one's marker as written (`- `, `12. `) and text, indented two spaces a level, and its
/// nested list after it.
fn list(md: &str, events: &Events<'_>, depth: usize, items: &mut Vec<Inline>) {
    for item in spans(events) {
        let body = &item[1..item.len() - 1];
        let nested = body
            .iter()
            .position(|(e, _)| matches!(e, Event::Start(Tag::List(_))))
            .unwrap_or(body.len());
        let range = &item[0].1;
        let source = md[range.clone()].lines().next().unwrap_or("").trim();
        let digits = source.bytes().take_while(u8::is_ascii_digit).count();
        let marker = match (digits, source.starts_with("- ")) {
            (0, true) => "- ",
            (d, _) if d > 0 && source[d..].starts_with(". ") => &source[..d + 2],
            _ => panic!(
                "line {}: a list item's marker: {source}",
                line_of(md, range.start)
            ),
        };
        let mut inline = inline(
            md,
            &body[..nested],
            &(range.start..range.start + source.len()),
        );
        inline.text = format!("{}{marker}{}", "  ".repeat(depth), inline.text);
        items.push(inline);
        if nested < body.len() {
            list(md, &body[nested + 1..body.len() - 1], depth + 1, items);
        }
    }
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
