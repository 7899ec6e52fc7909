//! `abi-codegen generate` and `check`: the targets asked for, written where they changed, or
//! listed where they are missing or stale.

use std::path::Path;
use std::process::ExitCode;

use crate::write;

use super::common::{Failure, display_name, fix_command, load_with_source, outln};

/// A target of generate and check, by the files it writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Target {
    /// `<name>.rs`
    Rust,
    /// `<name>.h`
    C,
    /// `<name>.py` and `<name>.pyi`
    Python,
    /// `<name>.md`
    Markdown,
    /// The outputs of the schema's `[[template]]` tables.
    Templates,
}

impl Target {
    /// Whether `file` (an output's name) is this target's: a built-in target's file is
    /// `<abi name>.<its extension>` exactly; every other output is a `[[template]]`'s.
    fn owns(self, file: &str, abi: &str) -> bool {
        let extension = (file.strip_prefix(abi))
            .and_then(|rest| rest.strip_prefix('.'))
            .unwrap_or("");
        let builtin = crate::language_backend::BUILTIN_EXTENSIONS.contains(&extension);
        match self {
            Target::Rust => builtin && extension == "rs",
            Target::C => builtin && extension == "h",
            Target::Python => builtin && (extension == "py" || extension == "pyi"),
            Target::Markdown => builtin && extension == "md",
            Target::Templates => !builtin,
        }
    }
}

pub(crate) fn generate(
    schema_path: &Path,
    out: &Path,
    targets: &[Target],
    check: bool,
) -> Result<ExitCode, Failure> {
    // The templates compile (once per process, about 0.5 ms) on another core while the
    // schema loads.
    let (schema, src) = std::thread::scope(|scope| {
        scope.spawn(crate::language_backend::compile_templates);
        load_with_source(schema_path)
    })?;
    let source = crate::diagnostics::source_name(schema_path);
    let schema_dir = schema_path.parent().unwrap_or(Path::new(""));
    let render = || {
        crate::generated_outputs(
            &schema,
            &display_name(schema_path),
            &src,
            &source,
            schema_dir,
        )
        .map(|mut outputs| {
            if !targets.is_empty() {
                let abi = &schema.abi.name;
                outputs.retain(|o| targets.iter().any(|t| t.owns(&o.file_name, abi)));
            }
            outputs
        })
        .map_err(|e| {
            // A template's error, or a template that cannot be read (a schema error at its
            // path), printed as it is.
            eprintln!("{e}");
            Failure::Schema
        })
    };
    if !check {
        // Every output is rendered before any is written.
        let mut total = 0;
        let written = write::render_then_write(out, || -> Result<_, Failure> {
            let outputs = render()?;
            total = outputs.len();
            Ok(outputs)
        })?;
        for path in &written {
            outln!("wrote {}", path.display());
        }
        outln!("{} of {total} files changed", written.len());
        return Ok(ExitCode::SUCCESS);
    }
    let outputs = render()?;
    let stale = write::stale_outputs(out, &outputs);
    if stale.is_empty() {
        outln!(
            "{} files in {} are up to date",
            outputs.len(),
            out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for path in &stale {
        let word = if path.exists() { "stale" } else { "missing" };
        eprintln!("{word}: {}", path.display());
    }
    // The command that fixes it, with the paths this check was given.
    let mut fix = fix_command("generate");
    if schema_path != Path::new("schema.toml") {
        fix.push_str(&format!(" --schema {}", display_name(schema_path)));
    }
    if out != Path::new("generated") {
        fix.push_str(&format!(" --out {}", display_name(out)));
    }
    if !targets.is_empty() {
        let names: Vec<String> = (targets.iter())
            .filter_map(|t| clap::ValueEnum::to_possible_value(t).map(|v| v.get_name().to_string()))
            .collect();
        fix.push_str(&format!(" --targets {}", names.join(",")));
    }
    eprintln!("run `{fix}` to update them");
    Ok(ExitCode::from(1))
}
