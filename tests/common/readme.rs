//! The code blocks of README.md and the guide (docs/*.md), for the tests that run them.

use std::path::Path;

/// The code block of `lang` after `marker` in `file` (a path from the repository's root:
/// `README.md`, `docs/bots.md`). `lang` is the block's whole info string.
pub fn block_after(file: &str, marker: &str, lang: &str) -> String {
    block_in(&doc(file), marker, lang).to_string()
}

/// The text of `file`, a path from the repository's root.
pub fn doc(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The code block of `lang` after `marker` in the markdown `text`.
pub fn block_in<'a>(text: &'a str, marker: &str, lang: &str) -> &'a str {
    let section = &text[text.find(marker).unwrap_or_else(|| panic!("no {marker}"))..];
    let fence = format!("```{lang}\n");
    let start = section
        .find(&fence)
        .unwrap_or_else(|| panic!("no {lang} block after {marker}"))
        + fence.len();
    let end = start + section[start..].find("```").expect("a closed block");
    &section[start..end]
}
