//! The code blocks of README.md, for the tests that run them.

use std::path::Path;

/// The code block of `lang` after `marker` in README.md.
pub fn block_after(marker: &str, lang: &str) -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    block_in(&readme, marker, lang).to_string()
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
