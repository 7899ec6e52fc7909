//! The language backends. Each reads the validated IR and its layout and returns text;
//! none of them computes a layout or touches the disk.
//!
//! One folder per language (`c/`, `python/`, `rust/`, `markdown/`), each importing only
//! its own parts and the shared helpers of this folder: `output.rs` (the generated-file
//! line, doc cleanup, render errors), `backend.rs` (the trait a whole-file target
//! implements), `text.rs` (templates), `prose/` (protocols in words) and `user_template.rs`,
//! none of which imports a language. The decisions every language prints are computed once in
//! `crate::plan` (attach, live layer, sessions, recordings).
//! This file picks the targets and runs them.

#[cfg(feature = "text")]
mod backend;
#[cfg(feature = "text")]
pub mod c;
#[cfg(all(test, feature = "text"))]
mod layout_json;
#[cfg(feature = "text")]
pub mod markdown;
mod output;
pub mod prose;
#[cfg(feature = "text")]
pub mod python;
pub mod rust;
#[cfg(feature = "text")]
pub mod text;
#[cfg(feature = "text")]
pub mod user_template;

use crate::jobs;
use crate::schema::Schema;
use crate::write::Output;
#[cfg(feature = "text")]
use backend::LanguageBackend;

pub use output::{RenderError, generated_line};

/// The extensions of the built-in targets' files (defined with the `[[template]]` IR,
/// which lowering checks against them).
#[cfg(feature = "cli")]
pub use crate::ir::template::BUILTIN_EXTENSIONS;

/// The whole-file targets, each one file `<abi name>.<extension>`, in the order they are
/// written after the Rust module: a new target is its folder and one line here.
#[cfg(feature = "text")]
const TEXT_TARGETS: [&dyn LanguageBackend; 4] = [
    &c::CHeader,
    &python::PythonModule,
    &python::PythonStub,
    &markdown::Markdown,
];

/// Compiles the text targets' templates, which every process does once, on first use. A
/// caller with a core to spare can call it on a thread of its own while the schema loads.
#[cfg(feature = "cli")]
pub fn compile_templates() {
    std::sync::LazyLock::force(&c::COMPILED);
    std::sync::LazyLock::force(&python::COMPILED);
    std::sync::LazyLock::force(&markdown::COMPILED);
}

/// A text target costs about as much to render as a fifth of the Rust file costs to print
/// (the bridge: 0.9 ms against 4.4 ms of CPU), so its weight in [`rust::RustParts`] units is
/// the file's weight over this.
#[cfg(feature = "text")]
const TEXT_TARGET_WEIGHT_DIVISOR: usize = 5;

/// Every target this build of the generator has, named after the ABI (`bridge.rs`, ...).
/// `source` is the schema's file name as the generated-file line shows it. The text targets
/// and the parts of the Rust file are jobs for one set of threads, one per core
/// (`jobs::run_jobs`), taken heaviest first: the Rust parts first for a small schema, the
/// text targets for a large one.
pub fn generate_all(schema: &Schema, source: &str) -> Result<Vec<Output>, RenderError> {
    #[cfg(feature = "text")]
    return generate_with(schema, source, &TEXT_TARGETS);
    #[cfg(not(feature = "text"))]
    return generate_with(schema, source);
}

/// [`generate_all`] with these whole-file targets after the Rust module.
fn generate_with(
    schema: &Schema,
    source: &str,
    #[cfg(feature = "text")] text_targets: &[&dyn LanguageBackend],
) -> Result<Vec<Output>, RenderError> {
    let name = &schema.abi.name;
    let output = |extension: &str, contents: String| Output {
        file_name: format!("{name}.{extension}"),
        contents,
    };
    let threads = jobs::default_threads();
    let rust_parts = rust::RustParts::new(schema, 2 * threads);
    #[cfg(not(feature = "text"))]
    let (texts, printed) = {
        let printed = jobs::run_jobs(rust_parts.weights(), threads, |i| rust_parts.print(i));
        (Vec::<(&str, String)>::new(), printed)
    };
    #[cfg(feature = "text")]
    let (texts, printed) =
        {
            // The first jobs are the text targets, the rest the Rust parts.
            let text_weight = rust_parts.total_weight() / TEXT_TARGET_WEIGHT_DIVISOR;
            let weights: Vec<usize> = std::iter::repeat_n(text_weight, text_targets.len())
                .chain(rust_parts.weights().iter().copied())
                .collect();
            // At most half the threads (at least one) render text targets at once: each builds
            // its whole context and text, and two at once set the peak memory of a large schema.
            let capped: Vec<bool> = (0..weights.len())
                .map(|job| job < text_targets.len())
                .collect();
            let text_threads = (threads / 2).max(1);
            let mut done = jobs::run_jobs_capped(&weights, &capped, text_threads, threads, |job| {
                match text_targets.get(job) {
                    Some(target) => target.render(schema, source),
                    None => Ok(rust_parts.print(job - text_targets.len())),
                }
            })
            .into_iter();
            let mut texts = Vec::with_capacity(text_targets.len());
            for (target, text) in text_targets.iter().zip(done.by_ref()) {
                texts.push((target.extension(), text?));
            }
            let printed = done.collect::<Result<Vec<String>, _>>()?;
            (texts, printed)
        };
    let mut outputs = vec![output("rs", rust_parts.assemble(source, printed))];
    outputs.extend(
        texts
            .into_iter()
            .map(|(extension, text)| output(extension, text)),
    );
    Ok(outputs)
}

#[cfg(all(test, feature = "text"))]
mod tests {
    use super::layout_json::LayoutJson;
    use super::{BUILTIN_EXTENSIONS, TEXT_TARGETS, generate_all, generate_with};

    /// The targets write exactly the files that lowering keeps `[[template]]` outputs off.
    #[test]
    fn the_targets_write_the_builtin_extensions() {
        let mut written: Vec<&str> = TEXT_TARGETS.iter().map(|t| t.extension()).collect();
        written.insert(0, "rs");
        assert_eq!(written, BUILTIN_EXTENSIONS);
    }

    /// A fifth target is its folder and one registration: the layout JSON target, added to
    /// the table, writes `bridge.json` after the others, which are unchanged.
    #[test]
    fn a_fifth_target_is_one_folder_and_one_registration() {
        let schema = crate::plan::bridge_for_tests();
        let builtin = generate_all(&schema, "schema.toml").expect("renders");
        let with_json = [TEXT_TARGETS.as_slice(), &[&LayoutJson]].concat();
        let outputs = generate_with(&schema, "schema.toml", &with_json).expect("renders");
        let (json, rest) = outputs.split_last().expect("outputs");
        assert_eq!(rest, builtin.as_slice());
        assert_eq!(json.file_name, "bridge.json");
        let value: serde_json::Value = serde_json::from_str(&json.contents).expect("JSON");
        assert_eq!(value, crate::report::layout_json(&schema));
    }
}
