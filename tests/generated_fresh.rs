//! The checked-in files under generated/ equal what the generator makes from schema.toml
//! now. A stale file is rewritten (outside CI) and the test fails, naming the command that
//! regenerates it, like rust-analyzer's abi-codegen checks. The outputs of the schema's
//! `[[template]]` tables (generated/bridge.mjs) count too, as `abi-codegen generate` writes them.

use std::path::Path;

#[test]
fn generated_files_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("schema.toml")).expect("schema.toml");
    let schema = abi_codegen::load_schema(&src)
        .unwrap_or_else(|e| panic!("{}", e.render("schema.toml", &src)));
    let outputs = abi_codegen::generated_outputs(&schema, "schema.toml", &src, "schema.toml", root)
        .unwrap_or_else(|e| panic!("every target renders: {e}"));
    let dir = root.join("generated");
    let stale = abi_codegen::testing::write::stale_outputs(&dir, &outputs);
    if stale.is_empty() {
        return;
    }
    let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
    if std::env::var_os("CI").is_none() {
        abi_codegen::testing::write::write_outputs(&dir, &outputs).expect("rewrite generated/");
        panic!(
            "stale: {}\nthey were regenerated; review and commit them (the command is `cargo run -p abi-codegen -- generate`)",
            names.join(", ")
        );
    }
    panic!(
        "stale: {}\nrun `cargo run -p abi-codegen -- generate` and commit the result",
        names.join(", ")
    );
}

/// What a generated file says is for its users: no comment of it cites the project's issue
/// tracker ("issue 47"), which a user of the bindings cannot read.
#[test]
fn generated_files_cite_no_issue_numbers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let mut cited = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("generated/") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a text file");
        files += 1;
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_ascii_lowercase();
            let cites = lower.match_indices("issue").any(|(at, _)| {
                let rest = lower[at + "issue".len()..].trim_start_matches([' ', '#']);
                rest.starts_with(|c: char| c.is_ascii_digit())
            });
            if cites {
                cited.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(files >= 5, "only {files} generated files read");
    assert!(
        cited.is_empty(),
        "issue numbers cited:\n{}",
        cited.join("\n")
    );
}
