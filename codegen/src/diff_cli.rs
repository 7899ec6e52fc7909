//! The `abi-codegen diff` command: reads the two schemas (files or a git revision), runs
//! the diff and prints it in the format asked for.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use abi_codegen::write;

use crate::{display_name, write_stdout};

/// The output formats of `abi-codegen diff`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum DiffFormat {
    /// For a terminal (coloured there unless NO_COLOR is set).
    Text,
    /// A pull-request comment.
    Markdown,
    /// For tools.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

/// `abi-codegen diff`: exit 0 when the change obeys the version policy, 1 when it does not, 2
/// when a schema cannot be read or has errors (printed as `generate` prints them).
pub(crate) fn diff(files: &[PathBuf], base: Option<&str>, format: DiffFormat) -> ExitCode {
    use abi_codegen::diff::{
        Sources, compute_diff, render_github, render_json, render_markdown, render_text,
    };
    use std::io::IsTerminal;

    let unreadable = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    let read = |path: &Path| {
        write::read_schema(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let (old_name, old_file, old_src, new_path) = match (base, files) {
        (Some(rev), [] | [_]) => {
            let new_path = files
                .first()
                .cloned()
                .unwrap_or_else(|| PathBuf::from("schema.toml"));
            match write::read_schema_at_revision(rev, &new_path) {
                Ok(src) => {
                    let name = format!("{rev}:{}", display_name(&new_path));
                    (name, None, src, new_path)
                }
                Err(e) => {
                    return unreadable(format!(
                        "cannot read {} at revision {rev}: {e}",
                        new_path.display()
                    ));
                }
            }
        }
        (None, [old, new]) => match read(old) {
            Ok(src) => (display_name(old), Some(display_name(old)), src, new.clone()),
            Err(e) => return unreadable(e),
        },
        (Some(_), _) => {
            return unreadable(
                "with --base, give at most one schema: abi-codegen diff --base REV [schema.toml]"
                    .into(),
            );
        }
        (None, _) => {
            return unreadable(
                "give two schemas (abi-codegen diff OLD.toml NEW.toml), or one revision \
                 (abi-codegen diff --base REV [schema.toml])"
                    .into(),
            );
        }
    };
    let new_src = match read(&new_path) {
        Ok(src) => src,
        Err(e) => return unreadable(e),
    };
    let new_name = display_name(&new_path);
    let old = abi_codegen::load_schema(&old_src);
    let new = abi_codegen::load_schema(&new_src);
    if let Err(errors) = &old {
        eprint!("{}", errors.render(&old_name, &old_src));
    }
    if let Err(errors) = &new {
        eprint!("{}", errors.render(&new_name, &new_src));
    }
    let (Ok(old), Ok(new)) = (old, new) else {
        return ExitCode::from(2);
    };
    let diff = compute_diff(&old, &new);
    let sources = Sources {
        old_file: old_file.as_deref(),
        old_name: &old_name,
        old_src: &old_src,
        new_file: &new_name,
        new_src: &new_src,
    };
    let report = match format {
        DiffFormat::Text => {
            let color = std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            render_text(&diff, &sources, color)
        }
        DiffFormat::Markdown => match render_markdown(&diff, &sources) {
            Ok(text) => text,
            Err(e) => return unreadable(format!("internal error: {e}")),
        },
        DiffFormat::Json => render_json(&diff, &sources),
        DiffFormat::Github => render_github(&diff, &sources),
    };
    out!("{report}");
    ExitCode::from(diff.verdict.exit_code())
}
