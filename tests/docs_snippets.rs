//! Every code block of README.md and the guide (docs/*.md) is compiled or run by a test.
//! Each block is one of:
//! - **run elsewhere**: a test that sets the scene it needs runs it (a bot against a host, a
//!   producer's image attached by every language); [`RUN_ELSEWHERE`] names the test, which
//!   must name the block's file and marker, as it finds the block by them;
//! - **run here**, by its language: `toml` parsed (a schema, one with `[abi]`, loaded), `c`
//!   compiled with gcc as C11 and g++ as C++17 under `-Wall -Wextra -Werror -pedantic` (mingw-w64
//!   for a block that includes `<windows.h>`), `python` run by CPython with warnings as
//!   errors, `yaml` a step of this repository's action whose inputs the action declares;
//! - **output** (`text`, `console`, `json`): what a command prints, shown, not run;
//! - **not run**, said by its info string (`sh not-run`): a command too long or too wide
//!   for a test (the torture runs, `cargo install`, a Windows-only program), at most
//!   [`NOT_RUN_AT_MOST`] of them.
//!
//! A block that is none of these fails the test, so a new snippet comes with its test.

use crate::common;

use std::path::{Path, PathBuf};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// The blocks a test of their own runs: (file, marker, info string, the test's file). The
/// block is the first of its info string after the marker, as `common::readme::block_after`
/// finds it.
const RUN_ELSEWHERE: &[(&str, &str, &str, &str)] = &[
    (
        "README.md",
        "## Your first shared-memory ABI in five minutes",
        "sh",
        "tests/five_minutes.rs",
    ),
    (
        "README.md",
        "The producer, `producer.c`",
        "c",
        "tests/five_minutes.rs",
    ),
    (
        "README.md",
        "The Python client",
        "python",
        "tests/five_minutes.rs",
    ),
    (
        "README.md",
        "The Rust client is a crate",
        "toml",
        "tests/five_minutes.rs",
    ),
    (
        "README.md",
        "and whose `src/main.rs`",
        "rust",
        "tests/five_minutes.rs",
    ),
    (
        "README.md",
        "Build and run the three:",
        "sh",
        "tests/five_minutes.rs",
    ),
    ("README.md", "which prints", "text", "tests/five_minutes.rs"),
    (
        "README.md",
        "A schema mistake is",
        "text",
        "tests/schema_errors.rs",
    ),
    (
        "docs/schema.md",
        "## Use it in your own project",
        "toml",
        "tests/consumer_crate.rs",
    ),
    (
        "docs/schema.md",
        "## Use it in your own project",
        "rust,ignore",
        "tests/consumer_crate.rs",
    ),
    (
        "docs/schema.md",
        "`src/lib.rs`, for a schema",
        "rust,ignore",
        "tests/consumer_crate.rs",
    ),
    (
        "docs/schema.md",
        "A minimal schema:",
        "toml",
        "tests/consumer_crate.rs",
    ),
    (
        "docs/templates.md",
        "## A fifth language",
        "js",
        "tests/js_template.rs",
    ),
    (
        "docs/reviewing-changes.md",
        "### The pull-request workflow",
        "yaml",
        "codegen/tests/diff_workflow.rs",
    ),
    (
        "docs/recordings.md",
        "## Replaying and writing a recording",
        "rust",
        "tests/readme_recording.rs",
    ),
    (
        "docs/recordings.md",
        "### In Python",
        "python",
        "tests/python_recording.rs",
    ),
    (
        "docs/bots.md",
        "A bot attaches, reads the newest snapshot",
        "rust",
        "tests/docs_rust.rs",
    ),
    (
        "docs/bots.md",
        "## Live shared memory in C and Python",
        "c",
        "tests/readme_snippets.rs",
    ),
    (
        "docs/bots.md",
        "## Live shared memory in C and Python",
        "python",
        "tests/readme_snippets.rs",
    ),
    (
        "docs/bots.md",
        "**Attaching from Python.**",
        "python",
        "tests/python_attach.rs",
    ),
    (
        "docs/bots.md",
        "## A bot that logs, asks and draws",
        "c",
        "tests/readme_bot.rs",
    ),
    (
        "docs/bots.md",
        "## A bot that logs, asks and draws",
        "python",
        "tests/readme_bot.rs",
    ),
    (
        "docs/bots.md",
        "## A bot that logs, asks and draws",
        "rust",
        "tests/readme_bot.rs",
    ),
    (
        "docs/hosts.md",
        "## The producer's side: laying out a bridge",
        "rust",
        "tests/docs_rust.rs",
    ),
    (
        "docs/hosts.md",
        "## The producer's side: laying out a bridge",
        "c",
        "tests/produce_matrix.rs",
    ),
    (
        "docs/hosts.md",
        "## The producer's side: laying out a bridge",
        "python",
        "tests/produce_matrix.rs",
    ),
    (
        "docs/security.md",
        "## Who may attach",
        "rust",
        "tests/who_may_attach_examples.rs",
    ),
    (
        "docs/security.md",
        "## Who may attach",
        "c",
        "tests/who_may_attach_examples.rs",
    ),
    (
        "docs/security.md",
        "## Who may attach",
        "python",
        "tests/who_may_attach_examples.rs",
    ),
    (
        "docs/security.md",
        "In C on Windows",
        "c",
        "tests/windows.rs",
    ),
    (
        "docs/evidence.md",
        "### One behaviour in three languages: the conformance suite",
        "toml",
        "tests/conformance.rs",
    ),
];

/// The blocks marked not run, across every file: few, and counted.
const NOT_RUN_AT_MOST: usize = 9;

/// A fenced code block: its file, line, info string, text and byte offset.
#[derive(Debug)]
struct Block {
    file: String,
    line: usize,
    info: String,
    text: String,
    at: usize,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and docs/*.md, as paths from the root.
fn doc_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| format!("docs/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".md"))
        .collect();
    files.sort();
    files.insert(0, "README.md".to_string());
    files
}

/// The fenced code blocks of `file`.
fn blocks(file: &str) -> Vec<Block> {
    let md = common::readme::doc(file);
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (event, range) in Parser::new_ext(&md, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => panic!("{file}: an indented code block: fence it"),
                };
                open = Some(Block {
                    file: file.to_string(),
                    line: md[..range.start].matches('\n').count() + 1,
                    info,
                    text: String::new(),
                    at: range.start,
                });
            }
            Event::Text(t) if open.is_some() => open.as_mut().unwrap().text.push_str(&t),
            Event::End(TagEnd::CodeBlock) => out.push(open.take().expect("an open block")),
            _ => {}
        }
    }
    out
}

/// How one block is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    Elsewhere,
    Here,
    Output,
    NotRun,
}

/// A scratch folder for the blocks run here: a snapshot file for the Python that reads one.
fn python_scene() -> PathBuf {
    use bridge_abi::zerocopy::{FromZeros, IntoBytes};
    let dir = common::tools::scratch("docs_snippets_python");
    let mut snap = bridge_abi::Snapshot::new_zeroed();
    snap.game.phase = bridge_abi::Phase::PLAYING;
    std::fs::write(dir.join("snapshot.bin"), snap.as_bytes()).unwrap();
    dir
}

/// Runs or compiles `block` by its language; panics with what went wrong.
fn run_here(block: &Block, n: usize) {
    let name = format!("{}:{}", block.file, block.line);
    let generated = root().join("generated");
    let include = generated.to_str().unwrap();
    match block.info.as_str() {
        "toml" => {
            let table: toml::Table =
                toml::from_str(&block.text).unwrap_or_else(|e| panic!("{name}: not TOML: {e}"));
            if table.contains_key("abi") {
                abi_codegen::load_schema(&block.text)
                    .unwrap_or_else(|e| panic!("{}", e.render(&name, &block.text)));
            }
        }
        "c" => {
            let dir = common::tools::scratch(&format!("docs_snippets_c{n}"));
            std::fs::write(dir.join("snippet.c"), &block.text).unwrap();
            let strict = [
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-c",
                "-I",
                include,
            ];
            let compilers: &[(&str, &[&str])] = if block.text.contains("#include <windows.h>") {
                &[("x86_64-w64-mingw32-gcc", &["-std=c11"])]
            } else {
                &[
                    ("gcc", &["-std=c11"]),
                    ("g++", &["-std=c++17", "-x", "c++"]),
                ]
            };
            for (compiler, std) in compilers {
                let mut args: Vec<&str> = std.to_vec();
                args.extend(strict);
                args.extend(["snippet.c", "-o", "snippet.o"]);
                common::tools::run_ok(compiler, &args, &dir);
            }
        }
        "python" => {
            let dir = python_scene();
            std::fs::write(dir.join("snippet.py"), &block.text).unwrap();
            let out = std::process::Command::new("python3")
                .args(["-B", "-W", "error", "snippet.py"])
                .env("PYTHONPATH", &generated)
                .current_dir(&dir)
                .output()
                .expect("python3 is needed for this test");
            assert!(
                out.status.success(),
                "{name}: the Python block failed:\n{}",
                common::tools::output_text(&out)
            );
        }
        "yaml" => {
            // A step that uses this repository's action: every input it gives is declared.
            let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
            assert!(
                block.text.contains("uses: abi-codegen/abi-codegen@"),
                "{name}: a yaml block here is a use of action.yml"
            );
            let with = &block.text[block.text.find("with:\n").expect("inputs") + 6..];
            let with = with.split("\n      - ").last().unwrap_or(with);
            let inputs = with.lines().filter(|l| l.starts_with("          "));
            let mut given = 0;
            for line in inputs.filter(|l| l.contains(':')) {
                let key = line.trim().split(':').next().unwrap();
                assert!(
                    action.contains(&format!("\n  {key}:\n")),
                    "{name}: action.yml declares no input `{key}`"
                );
                given += 1;
            }
            assert!(given > 0, "{name}: inputs given");
        }
        other => panic!(
            "{name}: a `{other}` block that no test runs: add it to RUN_ELSEWHERE with its test, \
             or mark it `{other} not-run`"
        ),
    }
}

#[test]
fn every_block_is_compiled_or_run() {
    // The blocks each RUN_ELSEWHERE entry names, checked against its test's source.
    let mut elsewhere = Vec::new();
    for (file, marker, info, test) in RUN_ELSEWHERE {
        let source =
            std::fs::read_to_string(root().join(test)).unwrap_or_else(|e| panic!("{test}: {e}"));
        assert!(
            (source.contains(&format!("\"{file}\"")) && source.contains(marker))
                || source.contains(&format!("{file}|{marker}")),
            "{test} does not name {file} and `{marker}`: the block it runs is not this one"
        );
        let md = common::readme::doc(file);
        let from = md
            .find(marker)
            .unwrap_or_else(|| panic!("{file}: no `{marker}`"));
        let block = blocks(file)
            .into_iter()
            .find(|b| b.at > from && b.info == *info)
            .unwrap_or_else(|| panic!("{file}: no {info} block after `{marker}`"));
        elsewhere.push((block.file, block.at));
    }
    let mut not_run = 0;
    let mut report = Vec::new();
    let mut n = 0;
    for file in doc_files() {
        let mut counts = [0usize; 4];
        for block in blocks(&file) {
            let check = if elsewhere.contains(&(block.file.clone(), block.at)) {
                Check::Elsewhere
            } else if block.info.ends_with(" not-run") {
                Check::NotRun
            } else if matches!(block.info.as_str(), "text" | "console" | "json") {
                Check::Output
            } else {
                n += 1;
                run_here(&block, n);
                Check::Here
            };
            counts[check as usize] += 1;
            not_run += usize::from(check == Check::NotRun);
        }
        report.push(format!(
            "{file}: {} run elsewhere, {} run here, {} outputs shown, {} not run",
            counts[0], counts[1], counts[2], counts[3]
        ));
    }
    println!("{}", report.join("\n"));
    assert!(
        not_run <= NOT_RUN_AT_MOST,
        "{not_run} blocks are marked not-run (at most {NOT_RUN_AT_MOST}): run the new one"
    );
    assert_eq!(elsewhere.len(), RUN_ELSEWHERE.len());
}
