//! README.md's "Replaying and writing a recording" Rust block is real code: it is
//! tests/readme_recording/snippet.rs, compiled here (under the crate's lints) and run.

use crate::common;

include!("readme_recording/snippet.rs");

#[test]
fn the_readme_recording_snippet_is_this_code_and_runs() {
    let snippet = common::readme::block_after(
        "docs/recordings.md",
        "## Replaying and writing a recording",
        "rust",
    );
    let file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/readme_recording/snippet.rs"),
    )
    .unwrap();
    assert_eq!(
        snippet, file,
        "README.md's block and tests/readme_recording/snippet.rs differ"
    );
    let path = common::tools::scratch("readme_recording").join("run.ibfrec");
    assert_eq!(record_and_replay(&path).unwrap(), 1000);
    let reader = IbfrecReader::open(File::open(&path).unwrap()).unwrap();
    assert_eq!(reader.issues(), &[]);
    assert_eq!(reader.footer().unwrap().ticks, 1000);
}
