//! What the commands share: `--color`, output on stdout that a closed pipe ends quietly,
//! the exit-code failures, and loading a schema with its diagnostics printed.

use std::path::Path;

use crate::Schema;
use crate::write;

/// `--color`, set once in `main` and read by [`color_enabled`].
pub(crate) static COLOR: std::sync::OnceLock<clap::ColorChoice> = std::sync::OnceLock::new();

/// Whether text written to `stream` (`std::io::stderr()`, `std::io::stdout()`) is coloured:
/// `--color always` or `never` decides; `auto`, the default, colours a terminal unless the
/// NO_COLOR variable is set to anything but the empty string (no-color.org).
pub(crate) fn color_enabled(stream: &impl std::io::IsTerminal) -> bool {
    match COLOR.get().copied().unwrap_or(clap::ColorChoice::Auto) {
        clap::ColorChoice::Always => true,
        clap::ColorChoice::Never => false,
        clap::ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal()
        }
    }
}

/// Prints to stdout; a closed pipe (`abi-codegen inspect … | head`) ends the program quietly
/// instead of panicking.
pub(crate) fn write_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}

/// `print!` through [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::common::write_stdout(&format!($($arg)*)) };
}

/// `println!` through [`write_stdout`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::common::write_stdout(&format!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {out, outln};

/// Exit codes: 0 ok, 1 schema errors or stale files, 2 unreadable input.
pub(crate) enum Failure {
    Schema,
    Input(String),
}

/// A failure to write the outputs; `write` puts the path in every such error's message.
impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Input(format!("cannot write {e}"))
    }
}

/// The name the diagnostics show for a path (`/` separators on every system).
pub(crate) use crate::diagnostics::display_path as display_name;

pub(crate) fn load(path: &Path) -> Result<Schema, Failure> {
    load_with_source(path).map(|(schema, _)| schema)
}

/// A schema's errors as `generate` prints them, coloured as `--color` says for stderr.
pub(crate) fn render_errors(errors: &crate::SchemaErrors, name: &str, src: &str) -> String {
    if color_enabled(&std::io::stderr()) {
        errors.render_styled(name, src)
    } else {
        errors.render(name, src)
    }
}

/// The schema and its text, for diagnostics that come after loading.
pub(crate) fn load_with_source(path: &Path) -> Result<(Schema, String), Failure> {
    let src = write::read_text(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
    match crate::load_schema(&src) {
        Ok(schema) => {
            eprint!(
                "{}",
                crate::diagnostics::render_warnings(&schema.warnings, &display_name(path), &src)
            );
            Ok((schema, src))
        }
        Err(errors) => {
            eprint!("{}", render_errors(&errors, &display_name(path), &src));
            Err(Failure::Schema)
        }
    }
}

/// How the user runs this command again, for the messages that name a fix: `cargo run -p
/// abi-codegen -- SUB` when it runs under `cargo run` in this workspace (cargo then sets
/// `CARGO_MANIFEST_DIR` to this package's folder), else the program as it was invoked
/// (`abi-codegen SUB` once installed with `cargo install`).
pub(crate) fn fix_command(sub: &str) -> String {
    let here = std::env::var_os("CARGO_MANIFEST_DIR")
        .is_some_and(|dir| Path::new(&dir) == Path::new(env!("CARGO_MANIFEST_DIR")));
    if here {
        return format!("cargo run -p {} -- {sub}", env!("CARGO_PKG_NAME"));
    }
    let program = std::env::args_os()
        .next()
        .and_then(|arg0| {
            Path::new(&arg0)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "abi-codegen".to_owned());
    format!("{program} {sub}")
}
