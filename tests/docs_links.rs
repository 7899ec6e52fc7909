//! Every relative link and `#anchor` of README.md, docs/*.md and codegen/*.md resolves: the
//! file exists, and an anchor is a heading of the target (slugged as GitHub does) or an
//! `<a id>` in it. Links inside code are not links; `http(s):` and `mailto:` links are not
//! checked. [`a_broken_link_is_found`] shows the checker fails on a broken file and anchor.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// GitHub's anchor of a heading's text: lowercased, every character but letters, digits,
/// spaces, `-` and `_` dropped, each space a `-`.
pub fn slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown text: each heading's slug (a repeated one gets `-1`, `-2`, as
/// GitHub numbers them) and each `<a id="...">` / `<a name="...">`.
fn anchors(md: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut counts = std::collections::HashMap::<String, usize>::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                let s = slug(&heading.take().unwrap_or_default());
                let n = counts.entry(s.clone()).or_insert(0);
                out.insert(if *n == 0 {
                    s.clone()
                } else {
                    format!("{s}-{n}")
                });
                *n += 1;
            }
            Event::Text(t) | Event::Code(t) if heading.is_some() => {
                heading.as_mut().unwrap().push_str(&t);
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                for key in ["id=\"", "name=\""] {
                    for part in h.split(&format!("<a {key}")).skip(1) {
                        out.insert(part.split('"').next().unwrap_or("").to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Every broken link of `file` (whose text is `md`), as `file: target: why`.
pub fn broken_links(file: &Path, md: &str) -> Vec<String> {
    let mut out = Vec::new();
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) = event else {
            continue;
        };
        let target = dest_url.to_string();
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let full: PathBuf = if path.is_empty() {
            file.to_path_buf()
        } else {
            file.parent().unwrap().join(path)
        };
        if !full.exists() {
            out.push(format!("{}: {target}: no such file", file.display()));
            continue;
        }
        if !anchor.is_empty() && full.extension().is_some_and(|e| e == "md") {
            let text = if path.is_empty() {
                md.to_string()
            } else {
                std::fs::read_to_string(&full).unwrap()
            };
            if !anchors(&text).contains(anchor) {
                out.push(format!("{}: {target}: no such anchor", file.display()));
            }
        }
    }
    out
}

/// README.md, docs/*.md and codegen/*.md.
pub fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    for dir in ["docs", "codegen"] {
        let mut more: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        more.sort();
        files.extend(more);
    }
    files
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut links = 0;
    for file in doc_files() {
        let md = std::fs::read_to_string(&file).unwrap();
        links += md.matches("](").count();
        broken.extend(broken_links(&file, &md));
    }
    assert!(links > 50, "the files have links: {links}");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_broken_link_is_found() {
    let file = root().join("docs/README.md");
    let md = "# Here\n\n[ok](#here) [ok](bots.md#a-bot-that-logs-asks-and-draws) \
              [ok](../codegen/README.md#byte-order-and-32-bit-targets) \
              [file](nosuch.md) [anchor](bots.md#nosuch) [own](#there) `[code](nosuch.md)`\n";
    assert_eq!(
        broken_links(&file, md)
            .iter()
            .map(|b| b.rsplit(": ").nth(1).unwrap().to_string())
            .collect::<Vec<_>>(),
        ["nosuch.md", "bots.md#nosuch", "#there"]
    );
    assert_eq!(
        slug("Editor support: the JSON Schema of schema.toml"),
        "editor-support-the-json-schema-of-schematoml"
    );
    assert_eq!(
        slug("A bot that logs, asks and draws"),
        "a-bot-that-logs-asks-and-draws"
    );
}
