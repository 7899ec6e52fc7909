//! The `codegen` command line: generate, check and inspect the layout of a schema.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use codegen::language_backend::generate_all;
use codegen::{Schema, report, write};

mod input;

/// See codegen/Cargo.toml: the command line allocates in many small pieces.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "codegen",
    version,
    about = "ABI schema code generator: schema.toml to Rust, C, Python and markdown"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write every generated file whose content changed.
    Generate {
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
        #[arg(long, default_value = "generated")]
        out: PathBuf,
    },
    /// Exit 1 and list the generated files that are stale. Writes nothing.
    Check {
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
        #[arg(long, default_value = "generated")]
        out: PathBuf,
    },
    /// Print the computed layout of one struct, or of all of them.
    Layout {
        /// A struct name; all structs when omitted.
        #[arg(value_name = "TYPE")]
        name: Option<String>,
        /// Print the whole layout IR as JSON.
        #[arg(long)]
        json: bool,
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
    },
    /// Decode binary data (a shared-memory dump, a recording, a test blob) through the schema.
    Inspect {
        /// The struct to decode, such as `snapshot`, or a `[[file]]` format, such as `ibfrec`,
        /// to decode a whole file.
        #[arg(value_name = "TYPE")]
        name: String,
        /// The input file, or `-` for standard input. Only the records' bytes are read.
        file: PathBuf,
        /// Where the first record starts: decimal, or hex with 0x.
        #[arg(long, default_value = "0", value_parser = codegen::inspect::parse_offset)]
        offset: u64,
        /// How many records to decode.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// Bytes from one record's start to the next (default: the record size; not less).
        #[arg(long, value_parser = codegen::inspect::parse_offset)]
        stride: Option<u64>,
        /// One line per leaf value (the default).
        #[arg(long, conflicts_with = "json")]
        dump: bool,
        /// JSON with the issues and the typed data.
        #[arg(long)]
        json: bool,
        /// Exit 2 when there is any error or warning.
        #[arg(long)]
        strict: bool,
        /// The file is live memory another process writes (a /dev/shm object): map it and read
        /// with atomics, each seqlocked record copied under its seqlock with retries.
        #[arg(long)]
        live: bool,
        /// Re-read the live file every SECONDS and print the fields that changed, old and new,
        /// until interrupted (implies --live).
        #[arg(long, value_name = "SECONDS", value_parser = live_cli::parse_seconds)]
        watch: Option<f64>,
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
    },
    /// Print the JSON Schema of schema.toml, for editors (taplo, Even Better TOML); the same
    /// text as codegen/schema.schema.json.
    SchemaJson,
    /// Classify every change between two versions of a schema and check the version policy.
    /// Exit 0 when the change obeys it, 1 when it does not, 2 on unreadable input.
    Diff {
        /// OLD.toml NEW.toml; with --base, the schema alone (default schema.toml).
        #[arg(value_name = "SCHEMA")]
        files: Vec<PathBuf>,
        /// Read the old schema from this git revision: `git show REV:SCHEMA`.
        #[arg(long, value_name = "REV")]
        base: Option<String>,
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
    },
}

/// Prints to stdout; a closed pipe (`codegen inspect … | head`) ends the program quietly
/// instead of panicking.
fn write_stdout(text: &str) {
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

macro_rules! out {
    ($($arg:tt)*) => { write_stdout(&format!($($arg)*)) };
}

macro_rules! outln {
    ($($arg:tt)*) => { write_stdout(&format!("{}\n", format_args!($($arg)*))) };
}

// After the output macros, which it uses.
mod live_cli;

/// The output formats of `codegen diff`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffFormat {
    /// For a terminal (coloured there unless NO_COLOR is set).
    Text,
    /// A pull-request comment.
    Markdown,
    /// For tools.
    Json,
    /// GitHub Actions workflow annotations.
    Github,
}

/// Exit codes: 0 ok, 1 schema errors or stale files, 2 unreadable input.
enum Failure {
    Schema,
    Input(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate { schema, out } => generate(&schema, &out, false),
        Command::Check { schema, out } => generate(&schema, &out, true),
        Command::Layout { name, json, schema } => layout(&schema, name.as_deref(), json),
        Command::Inspect {
            name,
            file,
            offset,
            count,
            stride,
            dump: _,
            json,
            strict,
            live,
            watch,
            schema,
        } => {
            let request = Request {
                name,
                file,
                offset,
                count,
                stride,
            };
            match watch {
                Some(seconds) => live_cli::watch_live(&schema, &request, seconds),
                None if live => live_cli::inspect_live(&schema, &request, json, strict),
                None => inspect(&schema, &request, json, strict),
            }
        }
        Command::Diff {
            files,
            base,
            format,
        } => return diff(&files, base.as_deref(), format),
        Command::SchemaJson => {
            out!("{}", codegen::schema_json::render_schema_json());
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(Failure::Schema) => ExitCode::from(1),
        Err(Failure::Input(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The name the diagnostics and the generated-file line show for a schema path.
fn display_name(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn load(path: &Path) -> Result<Schema, Failure> {
    let src = write::read_schema(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
    codegen::load_schema(&src).map_err(|errors| {
        eprint!("{}", errors.render(&display_name(path), &src));
        Failure::Schema
    })
}

fn generate(schema_path: &Path, out: &Path, check: bool) -> Result<ExitCode, Failure> {
    // The templates compile (once per process, about 0.5 ms) on another core while the
    // schema loads.
    let schema = std::thread::scope(|scope| {
        scope.spawn(codegen::language_backend::compile_templates);
        load(schema_path)
    })?;
    let source = schema_path.file_name().map_or_else(
        || display_name(schema_path),
        |n| n.to_string_lossy().into_owned(),
    );
    let render = || {
        generate_all(&schema, &source).map_err(|e| Failure::Input(format!("internal error: {e}")))
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
        eprintln!("stale: {}", path.display());
    }
    // The command that fixes it, with the paths this check was given.
    let mut fix = String::from("cargo run -p codegen -- generate");
    if schema_path != Path::new("schema.toml") {
        fix.push_str(&format!(" --schema {}", display_name(schema_path)));
    }
    if out != Path::new("generated") {
        fix.push_str(&format!(" --out {}", display_name(out)));
    }
    eprintln!("run `{fix}` to update them");
    Ok(ExitCode::from(1))
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Input(format!("cannot write: {e}"))
    }
}

fn layout(schema_path: &Path, name: Option<&str>, json: bool) -> Result<ExitCode, Failure> {
    let schema = load(schema_path)?;
    if json {
        let value = report::layout_json(&schema);
        let value = match name {
            None => value,
            Some(n) => value["structs"]
                .as_array()
                .and_then(|a| a.iter().find(|s| s["name"] == n).cloned())
                .ok_or_else(|| {
                    Failure::Input(format!(
                        "no struct named `{n}` in {}",
                        schema_path.display()
                    ))
                })?,
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).expect("json values serialize")
        );
        return Ok(ExitCode::SUCCESS);
    }
    match name {
        None => out!("{}", report::layout_tables(&schema)),
        Some(n) => {
            let index = schema
                .abi
                .structs
                .iter()
                .position(|s| s.name == n)
                .ok_or_else(|| {
                    Failure::Input(format!(
                        "no struct named `{n}` in {}",
                        schema_path.display()
                    ))
                })?;
            out!("{}", report::layout_table(&schema, index));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `codegen inspect` was asked to decode.
struct Request {
    name: String,
    file: PathBuf,
    offset: u64,
    count: u64,
    stride: Option<u64>,
}

/// Data on stdout, diagnostics (every issue, every error) on stderr. When the input does not
/// hold the records, stdout stays empty and the exit code is 1 (2 with `--strict`).
fn inspect(
    schema_path: &Path,
    request: &Request,
    json: bool,
    strict: bool,
) -> Result<ExitCode, Failure> {
    use codegen::inspect::{Plan, decode, render_issues};
    let schema = load(schema_path)?;
    let file = &request.file;
    let whole = match codegen::inspect::find_file(&schema, &request.name) {
        Some(f) => Some(Whole::File(f)),
        None => codegen::inspect::find_layout(&schema, &request.name).map(Whole::Image),
    };
    if let Some(whole) = whole {
        return inspect_whole(&schema, whole, request, json, strict);
    }
    let plan = Plan::new(
        &schema,
        &request.name,
        request.offset,
        request.count,
        request.stride,
    )
    .map_err(Failure::Input)?;
    let input = input::read_records(file, &plan)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", file.display())))?;
    let records: Vec<&[u8]> = input.bytes.iter().map(Vec::as_slice).collect();
    let inspection = decode(&schema, &plan, &records, input.len);
    eprint!("{}", render_issues(&inspection));
    Ok(print_records(&schema, &inspection, json, strict, None))
}

/// Prints decoded records (JSON with `extra` keys added, or the dump) and gives the exit
/// code; nothing on stdout when the input did not hold them.
fn print_records(
    schema: &Schema,
    inspection: &codegen::inspect::Inspection,
    json: bool,
    strict: bool,
    extra: Option<(&str, serde_json::Value)>,
) -> ExitCode {
    use codegen::inspect::{render_dump, render_json};
    if inspection.records.is_empty() {
        return ExitCode::from(inspection.exit_code(strict));
    }
    if json {
        let mut value = render_json(schema, inspection);
        if let Some((key, more)) = extra {
            value[key] = more;
        }
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).expect("json values serialize")
        );
    } else {
        out!("{}", render_dump(schema, inspection));
    }
    ExitCode::from(inspection.exit_code(strict))
}

/// What a name that is not a struct's names: a `[[file]]`, or a `[[layout]]` (an image).
enum Whole {
    File(usize),
    Image(usize),
}

/// `codegen inspect` of a `[[file]]` format or a `[[layout]]`: the whole file, record by
/// record, or the whole image, region by region.
fn inspect_whole(
    schema: &codegen::Schema,
    whole: Whole,
    request: &Request,
    json: bool,
    strict: bool,
) -> Result<ExitCode, Failure> {
    use codegen::inspect::{
        inspect_file, inspect_image, render_file_dump, render_file_issues, render_file_json,
    };
    if request.offset != 0 || request.count != 1 || request.stride.is_some() {
        return Err(Failure::Input(format!(
            "--offset, --count and --stride place records of a struct; `{}` is decoded whole",
            request.name
        )));
    }
    let file = &request.file;
    let input = input::open_whole(file)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", file.display())))?;
    let inspection = match whole {
        Whole::File(f) => inspect_file(schema, f, input.as_ref()),
        Whole::Image(l) => inspect_image(schema, l, input.as_ref()),
    };
    eprint!("{}", render_file_issues(&inspection));
    if json {
        let value = render_file_json(schema, &inspection);
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).expect("json values serialize")
        );
    } else {
        out!("{}", render_file_dump(schema, &inspection));
    }
    Ok(ExitCode::from(inspection.exit_code(strict)))
}

/// `codegen diff`: exit 0 when the change obeys the version policy, 1 when it does not, 2
/// when a schema cannot be read or has errors (printed as `generate` prints them).
fn diff(files: &[PathBuf], base: Option<&str>, format: DiffFormat) -> ExitCode {
    use codegen::diff::{
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
                "with --base, give at most one schema: codegen diff --base REV [schema.toml]"
                    .into(),
            );
        }
        (None, _) => {
            return unreadable(
                "give two schemas (codegen diff OLD.toml NEW.toml), or one revision \
                 (codegen diff --base REV [schema.toml])"
                    .into(),
            );
        }
    };
    let new_src = match read(&new_path) {
        Ok(src) => src,
        Err(e) => return unreadable(e),
    };
    let new_name = display_name(&new_path);
    let old = codegen::load_schema(&old_src);
    let new = codegen::load_schema(&new_src);
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
