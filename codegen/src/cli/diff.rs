//! The `abi-codegen diff` command: reads the two schemas (files, or the old one from a git
//! revision), runs the diff, prints it in the format asked for, and with `--format github`
//! appends the markdown report to the job summary.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::diff::{
    Diff, Sources, compute_diff, compute_new_abi, render_github, render_json, render_markdown,
    render_text,
};
use crate::write;

use crate::cli::common::{color_enabled, display_name, out, render_errors};

/// The output formats of `abi-codegen diff`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum DiffFormat {
    /// For a terminal (coloured as --color says: by default on a terminal, unless NO_COLOR is set).
    Text,
    /// A pull-request comment.
    Markdown,
    /// For tools.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

/// The arguments of `abi-codegen diff`.
pub(crate) struct DiffArgs {
    pub files: Vec<PathBuf>,
    pub schema: Option<PathBuf>,
    pub base: Option<String>,
    pub base_schema: Option<PathBuf>,
    pub format: DiffFormat,
    /// Exit with [`exit_bits`] rather than 0, 1 or 2.
    pub exit_bits: bool,
}

/// The bits of `--exit-bits`, as libabigail's abidiff has them.
const TOOL_ERROR: u8 = 1;
const USAGE_ERROR: u8 = 2;
const CHANGED: u8 = 4;
const BREAKING: u8 = 8;
const POLICY_BROKEN: u8 = 16;

/// The exit status of `--exit-bits` for a diff: [`CHANGED`] when there is any change,
/// [`BREAKING`] when one is breaking, [`POLICY_BROKEN`] when the version policy does not hold.
fn exit_bits(diff: &Diff) -> u8 {
    let mut bits = 0;
    if !diff.changes.is_empty() || diff.new_abi.is_some() {
        bits |= CHANGED;
    }
    if diff.count(crate::diff::Severity::Breaking) > 0 {
        bits |= BREAKING;
    }
    if !diff.verdict.ok() {
        bits |= POLICY_BROKEN;
    }
    bits
}

/// Where the old schema is.
enum OldAt {
    File(PathBuf),
    /// The revision, and the path there.
    Revision(String, PathBuf),
}

/// The old schema's place and the new schema's path, from the command line.
fn places(args: &DiffArgs) -> Result<(OldAt, PathBuf), String> {
    let at_base = |rev: &String, new: PathBuf| {
        let old = args.base_schema.clone().unwrap_or_else(|| new.clone());
        Ok((OldAt::Revision(rev.clone(), old), new))
    };
    match (&args.base, &args.schema, &args.files[..]) {
        (Some(rev), None, []) => at_base(rev, PathBuf::from("schema.toml")),
        (Some(rev), None, [new]) | (Some(rev), Some(new), []) => at_base(rev, new.clone()),
        (Some(_), _, _) => Err(
            "with --base, give at most one schema: abi-codegen diff --base REV [schema.toml]"
                .into(),
        ),
        (None, None, [old, new]) | (None, Some(new), [old]) => {
            Ok((OldAt::File(old.clone()), new.clone()))
        }
        (None, _, _) => Err(
            "give two schemas (abi-codegen diff OLD.toml NEW.toml, or OLD.toml --schema NEW.toml), \
             or one revision (abi-codegen diff --base REV [schema.toml])"
                .into(),
        ),
    }
}

/// The old schema's text (`None`: not at the revision, a new ABI), the name reports show
/// for it, and its file name when it is a file a reader can open.
type OldSchema = (Option<String>, String, Option<String>);

fn read_old(at: &OldAt, renamed: bool) -> Result<OldSchema, String> {
    match at {
        OldAt::File(path) => {
            let src = write::read_text(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Ok((Some(src), display_name(path), Some(display_name(path))))
        }
        OldAt::Revision(rev, path) => {
            let name = format!("{rev}:{}", display_name(path));
            let cannot = |e: std::io::Error| {
                format!("cannot read {} at revision {rev}: {e}", path.display())
            };
            // A schema the base does not have is a new ABI, unless --base-schema named it.
            if !renamed && !write::exists_at_revision(rev, path).map_err(cannot)? {
                return Ok((None, name, None));
            }
            let src = write::read_schema_at_revision(rev, path).map_err(cannot)?;
            Ok((Some(src), name, None))
        }
    }
}

/// `abi-codegen diff`: exit 0 when the change obeys the version policy (a new ABI does), 1
/// when it does not, 2 when a schema cannot be read or has errors (printed as `generate`
/// prints them); with `--exit-bits`, the sum of its bits.
pub(crate) fn diff(args: &DiffArgs) -> ExitCode {
    let failed = if args.exit_bits { TOOL_ERROR } else { 2 };
    let unreadable = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(failed)
    };
    let (old_at, new_path) = match places(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(if args.exit_bits { USAGE_ERROR } else { 2 });
        }
    };
    let (old_src, old_name, old_file) = match read_old(&old_at, args.base_schema.is_some()) {
        Ok(old) => old,
        Err(e) => return unreadable(e),
    };
    let new_src = match write::read_text(&new_path) {
        Ok(src) => src,
        Err(e) => return unreadable(format!("cannot read {}: {e}", new_path.display())),
    };
    let new_name = display_name(&new_path);
    let old = old_src.as_deref().map(crate::load_schema);
    let new = crate::load_schema(&new_src);
    if let (Some(Err(errors)), Some(src)) = (&old, &old_src) {
        eprint!("{}", render_errors(errors, &old_name, src));
    }
    if let Err(errors) = &new {
        eprint!("{}", render_errors(errors, &new_name, &new_src));
    }
    let diff = match (old, new) {
        (Some(Ok(old)), Ok(new)) => compute_diff(&old, &new),
        (None, Ok(new)) => compute_new_abi(&new),
        _ => return ExitCode::from(failed),
    };
    let sources = Sources {
        old_file: old_file.as_deref(),
        old_name: &old_name,
        old_src: old_src.as_deref().unwrap_or(""),
        new_file: &new_name,
        new_src: &new_src,
    };
    match report(&diff, &sources, args.format) {
        Ok(text) => out!("{text}"),
        Err(e) => return unreadable(e),
    }
    ExitCode::from(if args.exit_bits {
        exit_bits(&diff)
    } else {
        diff.verdict.exit_code()
    })
}

/// The report for stdout; for `github`, the markdown report also goes to the job summary.
fn report(diff: &Diff, sources: &Sources, format: DiffFormat) -> Result<String, String> {
    let markdown = || render_markdown(diff, sources).map_err(|e| format!("internal error: {e}"));
    Ok(match format {
        DiffFormat::Text => render_text(diff, sources, color_enabled(&std::io::stdout())),
        DiffFormat::Markdown => markdown()?,
        DiffFormat::Json => render_json(diff, sources),
        DiffFormat::Github => {
            if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
                append(Path::new(&path), &markdown()?).map_err(|e| {
                    format!(
                        "cannot append to GITHUB_STEP_SUMMARY ({}): {e}",
                        Path::new(&path).display()
                    )
                })?;
            }
            render_github(diff, sources)
        }
    })
}

/// Appends `text` to the file at `path`, creating it; the job summary collects every step's.
fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.write_all(b"\n")
}

/// `abi-codegen diff --rules`: the rules table as text, markdown (codegen/README.md's table;
/// also for github, whose job summary is markdown) or JSON.
pub(crate) fn print_rules(format: DiffFormat) -> ExitCode {
    match format {
        DiffFormat::Text => out!("{}", crate::diff::render_rules_text()),
        DiffFormat::Json => out!("{}", crate::diff::render_rules_json()),
        DiffFormat::Markdown | DiffFormat::Github => {
            out!("{}", crate::diff::render_rules_markdown());
        }
    }
    ExitCode::SUCCESS
}
