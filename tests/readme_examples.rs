//! The outputs docs/reviewing-changes.md shows are the tools' real outputs: the `abi-codegen diff` comment for
//! the bridge 0.8 → 0.9 change is pasted there verbatim and must stay current.

use std::fs;
use std::path::Path;

use abi_codegen::diff::{Sources, compute_diff, render_markdown};

#[test]
fn readme_shows_the_current_diff_comment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let old_src = fs::read_to_string(root.join("tests/fixtures/diff/bridge-0.8.toml")).unwrap();
    let new_src = fs::read_to_string(root.join("schema.toml")).unwrap();
    let old = abi_codegen::load_schema(&old_src).expect("the 0.8 fixture loads");
    let new = abi_codegen::load_schema(&new_src).expect("schema.toml loads");
    let diff = compute_diff(&old, &new);
    let sources = Sources {
        old_file: Some("tests/fixtures/diff/bridge-0.8.toml"),
        old_name: "tests/fixtures/diff/bridge-0.8.toml",
        old_src: &old_src,
        new_file: "schema.toml",
        new_src: &new_src,
    };
    let comment = render_markdown(&diff, &sources).expect("renders");
    let readme = fs::read_to_string(root.join("docs/reviewing-changes.md")).unwrap();
    assert!(
        readme.contains(comment.trim_end()),
        "docs/reviewing-changes.md's \"Reviewing a schema change\" example is stale; paste the output of\n\
         cargo run -q -p abi-codegen -- diff --format markdown tests/fixtures/diff/bridge-0.8.toml schema.toml\n\
         which is now:\n{comment}"
    );
}
