//! The `codegen` command line: generate, check and inspect the layout of a schema.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use abi_codegen::{report, write};

mod common;
mod diff_cli;
mod input;
mod inspect_cli;
mod inspect_seek;
mod live_cli;

use common::{COLOR, Failure, display_name, load, load_with_source, out, outln};
use diff_cli::{DiffArgs, DiffFormat, diff, print_rules};
use inspect_cli::{Request, inspect};

/// See codegen/Cargo.toml: the command line allocates in many small pieces.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "abi-codegen",
    version,
    about = "ABI schema code generator: schema.toml to Rust, C, Python and markdown",
    long_about = "ABI schema code generator: one schema.toml of constants, enums, flag sets and fixed-layout structs to Rust, a C header, a Python ctypes module and a markdown reference, with live shared-memory access; plus layout, diff and inspect for review and debugging.",
    after_help = "Exit codes: 0 ok, 1 schema errors or stale files, 2 unreadable input (diff and inspect: see their help)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour the diagnostics: auto (when stderr is a terminal and NO_COLOR is not set),
    /// always or never.
    #[arg(long, value_enum, global = true, default_value_t = clap::ColorChoice::Auto)]
    color: clap::ColorChoice,
}

/// A target of generate and check, by the files it writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
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
        let builtin = abi_codegen::language_backend::BUILTIN_EXTENSIONS.contains(&extension);
        match self {
            Target::Rust => builtin && extension == "rs",
            Target::C => builtin && extension == "h",
            Target::Python => builtin && (extension == "py" || extension == "pyi"),
            Target::Markdown => builtin && extension == "md",
            Target::Templates => !builtin,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Write a small, commented starter schema with one of each declaration kind asked for;
    /// it loads, and generates warning-free outputs in every language.
    Init {
        /// The kinds (comma-separated): seqlock, ring, queue, mailbox, session, file, layout.
        /// Default: all of them.
        #[arg(long, value_enum, value_delimiter = ',')]
        kinds: Vec<abi_codegen::init::Kind>,
        /// The file to write; an existing one is left alone unless --force.
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Write every generated file whose content changed.
    Generate {
        /// The schema file.
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
        /// The folder the generated files go to.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Only these targets (comma-separated): rust, c, python (the module and its stub),
        /// markdown, templates (the schema's `[[template]]` outputs). Default: all.
        #[arg(long, value_enum, value_delimiter = ',')]
        targets: Vec<Target>,
    },
    /// Exit 1 and list the generated files that are missing or stale. Writes nothing.
    Check {
        /// The schema file.
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
        /// The folder the generated files go to.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Only these targets (comma-separated), as for generate: a crate that generates its
        /// Rust at build time checks `--targets c,python`. Default: all.
        #[arg(long, value_enum, value_delimiter = ',')]
        targets: Vec<Target>,
    },
    /// Print the computed layout of one struct, or of all of them.
    Layout {
        /// A struct name; all structs when omitted.
        #[arg(value_name = "TYPE")]
        name: Option<String>,
        /// Print the whole layout IR as JSON.
        #[arg(long)]
        json: bool,
        /// The schema file.
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
    },
    /// Decode binary data (a shared-memory dump, a recording, a test blob) through the schema.
    Inspect {
        /// The struct to decode, or the name of a `[[file]]` format or a `[[layout]]` to
        /// decode a whole file or image.
        #[arg(value_name = "TYPE")]
        name: String,
        /// The input file, or `-` for standard input. Only the records' bytes are read.
        file: PathBuf,
        /// Where the first record starts: decimal, or hex with 0x.
        #[arg(long, default_value = "0", value_parser = abi_codegen::inspect::parse_offset)]
        offset: u64,
        /// How many records to decode.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// Bytes from one record's start to the next (default: the record size; not less).
        #[arg(long, value_parser = abi_codegen::inspect::parse_offset)]
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
        /// With a `[[file]]` whose records have a `seek` key: decode the record whose key
        /// is N, with its decoded data (the `decoded` struct and the bytes after it),
        /// inflating only the chunk that holds it.
        #[arg(long, value_name = "N", conflicts_with_all = ["ticks", "live", "watch"])]
        tick: Option<u64>,
        /// As --tick, for the keys A..B (B excluded) or A..=B.
        #[arg(long, value_name = "A..B", value_parser = abi_codegen::inspect::parse_keys, conflicts_with_all = ["live", "watch"])]
        ticks: Option<(u64, u64)>,
        /// The file is live memory another process writes (a /dev/shm object): map it and read
        /// with atomics, each seqlocked record copied under its seqlock with retries.
        #[arg(long)]
        live: bool,
        /// Re-read the live file every SECONDS and print the fields that changed, old and new,
        /// until interrupted (implies --live).
        #[arg(long, value_name = "SECONDS", value_parser = live_cli::parse_seconds)]
        watch: Option<f64>,
        /// The schema file.
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
    },
    /// Render one minijinja template over the layout context (codegen/TEMPLATES.md) and print
    /// it: for writing a `[[template]]` target before declaring it in the schema.
    Render {
        /// The template file.
        #[arg(value_name = "TEMPLATE")]
        template: PathBuf,
        /// The schema file.
        #[arg(long, default_value = "schema.toml")]
        schema: PathBuf,
    },
    /// Print a shell completion script: `abi-codegen completions bash > /etc/bash_completion.d/abi-codegen`,
    /// `abi-codegen completions zsh > "${fpath[1]}/_abi-codegen"`, or fish, elvish, powershell.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the JSON Schema of schema.toml, for editors (taplo, Even Better TOML); the same
    /// text as codegen/schema.schema.json.
    SchemaJson,
    /// Classify every change between two versions of a schema and check the version policy.
    /// Exit 0 when the change obeys it, 1 when it does not, 2 on unreadable input (or, with
    /// --exit-bits, a sum of bits).
    Diff {
        /// OLD.toml NEW.toml; with --base, the schema alone (default schema.toml).
        #[arg(value_name = "SCHEMA")]
        files: Vec<PathBuf>,
        /// The new schema (as every command takes it); then a single SCHEMA is the old one.
        #[arg(long)]
        schema: Option<PathBuf>,
        /// Read the old schema from this git revision: `git show REV:SCHEMA`. A schema the
        /// revision does not have is reported as a new ABI.
        #[arg(long, value_name = "REV")]
        base: Option<String>,
        /// With --base: the old schema's path at REV, when the file was renamed or moved.
        #[arg(long, value_name = "OLD_PATH", requires = "base")]
        base_schema: Option<PathBuf>,
        /// github: at most 10 annotations, and the markdown report appended to the file
        /// GITHUB_STEP_SUMMARY names, when it is set.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// Print the rules (each change kind's ID, category, class, reason, example and fix)
        /// instead of a diff: as text, with --format markdown as the table of abi-codegen's
        /// README, with --format json for tools.
        #[arg(long, conflicts_with_all = ["files", "schema", "base", "base_schema"])]
        rules: bool,
        /// Exit with bits that keep a tool error apart from an ABI change, as libabigail's
        /// abidiff does: 1 the tool failed (a schema unreadable or with errors), 2 a usage
        /// error, 4 the schemas differ, 8 a change is breaking, 16 the version policy does
        /// not hold. 0: no change at all.
        #[arg(long, conflicts_with = "rules")]
        exit_bits: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = COLOR.set(cli.color);
    let result = match cli.command {
        Command::Init {
            kinds,
            schema,
            force,
        } => init(&kinds, &schema, force),
        Command::Generate {
            schema,
            out,
            targets,
        } => generate(&schema, &out, &targets, false),
        Command::Check {
            schema,
            out,
            targets,
        } => generate(&schema, &out, &targets, true),
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
            tick,
            ticks,
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
                keys: ticks.or(tick.map(|n| (n, n))),
            };
            match watch {
                Some(seconds) => live_cli::watch_live(&schema, &request, seconds),
                None if live => live_cli::inspect_live(&schema, &request, json, strict),
                None => inspect(&schema, &request, json, strict),
            }
        }
        Command::Diff {
            files,
            schema,
            base,
            base_schema,
            format,
            rules,
            exit_bits,
        } => {
            if rules {
                return print_rules(format);
            }
            let args = DiffArgs {
                files,
                schema,
                base,
                base_schema,
                format,
                exit_bits,
            };
            return diff(&args);
        }
        Command::Render { template, schema } => render_template(&schema, &template),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "abi-codegen", &mut text);
            out!("{}", String::from_utf8_lossy(&text));
            Ok(ExitCode::SUCCESS)
        }
        Command::SchemaJson => {
            out!("{}", abi_codegen::schema_json::render_schema_json());
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

/// How the user runs this command again, for the messages that name a fix: `cargo run -p
/// abi-codegen -- SUB` when it runs under `cargo run` in this workspace (cargo then sets
/// `CARGO_MANIFEST_DIR` to this package's folder), else the program as it was invoked
/// (`abi-codegen SUB` once installed with `cargo install`).
fn fix_command(sub: &str) -> String {
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
        .unwrap_or_else(|| env!("CARGO_BIN_NAME").to_owned());
    format!("{program} {sub}")
}

/// `abi-codegen init`: the starter schema, written where asked unless a file is there.
fn init(kinds: &[abi_codegen::init::Kind], path: &Path, force: bool) -> Result<ExitCode, Failure> {
    if path.exists() && !force {
        return Err(Failure::Input(format!(
            "{} exists: init writes a new schema (--force overwrites it)",
            path.display()
        )));
    }
    let text = abi_codegen::init::starter_schema(kinds);
    std::fs::write(path, text)
        .map_err(|e| Failure::Input(format!("cannot write {}: {e}", path.display())))?;
    outln!(
        "wrote {}; next: {}",
        path.display(),
        fix_command(&format!("generate --schema {}", path.display()))
    );
    Ok(ExitCode::SUCCESS)
}

fn generate(
    schema_path: &Path,
    out: &Path,
    targets: &[Target],
    check: bool,
) -> Result<ExitCode, Failure> {
    // The templates compile (once per process, about 0.5 ms) on another core while the
    // schema loads.
    let (schema, src) = std::thread::scope(|scope| {
        scope.spawn(abi_codegen::language_backend::compile_templates);
        load_with_source(schema_path)
    })?;
    let source = abi_codegen::diagnostics::source_name(schema_path);
    let schema_dir = schema_path.parent().unwrap_or(Path::new(""));
    let render = || {
        abi_codegen::generated_outputs(
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

/// `abi-codegen render TEMPLATE`: the template rendered over the schema, on stdout.
fn render_template(schema_path: &Path, template: &Path) -> Result<ExitCode, Failure> {
    let schema = load(schema_path)?;
    let text = write::read_text(template)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", template.display())))?;
    let source = abi_codegen::diagnostics::source_name(schema_path);
    match abi_codegen::language_backend::user_template::render_user_template(
        &schema,
        &source,
        &display_name(template),
        &text,
    ) {
        Ok(rendered) => {
            out!("{rendered}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{e}");
            Err(Failure::Schema)
        }
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

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// `--help` explains every option and argument of every command.
    #[test]
    fn every_option_has_help() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        let mut missing = Vec::new();
        for sub in cli.get_subcommands() {
            assert!(sub.get_about().is_some(), "{} has no about", sub.get_name());
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if id != "help" && id != "version" && arg.get_help().is_none() {
                    missing.push(format!("{} {id}", sub.get_name()));
                }
            }
        }
        assert!(missing.is_empty(), "options without help: {missing:?}");
    }
}
