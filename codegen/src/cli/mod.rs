//! The command line's modules: one per command (`generate` and `check`, `layout`, `inspect`
//! with its live and seek reading, `diff`, `render`, `init`) and what they share
//! (`common`). This file holds the arguments (clap) and [`main`], which dispatches to them; no
//! command module imports another.

pub(crate) mod common;
pub(crate) mod diff;
pub(crate) mod generate;
pub(crate) mod init;
pub(crate) mod inspect;
pub(crate) mod layout;
pub(crate) mod render;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use self::common::{COLOR, Failure, out};
use self::diff::{DiffArgs, DiffFormat, diff, print_rules};
use self::generate::{Target, generate};
use self::init::init;
use self::inspect::{Request, inspect, live};
use self::layout::layout;
use self::render::render_template;

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

#[derive(Subcommand)]
enum Command {
    /// Write a small, commented starter schema with one of each declaration kind asked for;
    /// it loads, and generates warning-free outputs in every language.
    Init {
        /// The kinds (comma-separated): seqlock, ring, queue, mailbox, session, file, layout.
        /// Default: all of them.
        #[arg(long, value_enum, value_delimiter = ',')]
        kinds: Vec<crate::init::Kind>,
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
        #[arg(long, default_value = "0", value_parser = crate::inspect::parse_offset)]
        offset: u64,
        /// How many records to decode.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// Bytes from one record's start to the next (default: the record size; not less).
        #[arg(long, value_parser = crate::inspect::parse_offset)]
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
        #[arg(long, value_name = "A..B", value_parser = crate::inspect::parse_keys, conflicts_with_all = ["live", "watch"])]
        ticks: Option<(u64, u64)>,
        /// The file is live memory another process writes (a /dev/shm object): map it and read
        /// with atomics, each seqlocked record copied under its seqlock with retries.
        #[arg(long)]
        live: bool,
        /// Re-read the live file every SECONDS and print the fields that changed, old and new,
        /// until interrupted (implies --live).
        #[arg(long, value_name = "SECONDS", value_parser = live::parse_seconds)]
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

/// Parses the arguments and runs the command: the binary's `main`.
pub fn main() -> ExitCode {
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
                Some(seconds) => live::watch_live(&schema, &request, seconds),
                None if live => live::inspect_live(&schema, &request, json, strict),
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
            out!("{}", crate::schema_json::render_schema_json());
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
