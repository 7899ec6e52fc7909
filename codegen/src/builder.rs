//! [`Builder`]: the generator in a build script, in one call. It reads the schema, checks
//! it, writes the targets asked for (the Rust bindings into `OUT_DIR` by default) only when
//! their content changed, and tells cargo when to run again; a schema mistake is printed
//! as `abi-codegen generate` prints it, in a form cargo shows, and fails the build.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::diagnostics::{SchemaErrors, display_path as display_name};
#[cfg(feature = "text")]
use crate::language_backend::user_template::TemplateError;
use crate::schema::Schema;
use crate::write;

/// Generates code from a schema in a build script.
///
/// In `build.rs`, the whole `main`:
///
/// ```no_run
/// abi_codegen::Builder::new("schema.toml").generate_or_exit();
/// ```
///
/// and in the crate, `include!(concat!(env!("OUT_DIR"), "/NAME.rs"));`, NAME being the
/// schema's `[abi] name`. The generated Rust names what it needs at its top (zerocopy with
/// `derive`, and `abi-runtime` when the schema declares shared memory).
///
/// Cargo runs the build script again when the schema or a template changes. The outputs
/// are not watched: one deleted by hand comes back on the next change of the schema (`touch
/// schema.toml`), not on the next build. Watching them would make every build after a
/// schema change run the script and compile the crate a second time, since cargo takes a
/// watched file written during the script's own run for a change.
#[derive(Debug, Clone)]
#[must_use = "a Builder does nothing until `generate` or `generate_or_exit` is called"]
pub struct Builder {
    schema: PathBuf,
    rust: RustTarget,
    #[cfg(feature = "text")]
    text: Vec<(TextTarget, PathBuf)>,
    #[cfg(feature = "text")]
    generated_dir: Option<PathBuf>,
    cargo: bool,
}

#[derive(Debug, Clone)]
enum RustTarget {
    /// `$OUT_DIR/<abi name>.rs`.
    OutDir,
    File(PathBuf),
    Skip,
}

#[cfg(feature = "text")]
#[derive(Debug, Clone)]
enum TextTarget {
    CHeader,
    Python,
    /// The Python module's `.pyi` type stub.
    PythonStub,
    Markdown,
    /// A minijinja template over the layout context (TEMPLATES.md).
    Template(PathBuf),
}

/// What [`Builder::generate`] wrote: every file it is responsible for, and which of them
/// changed.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    /// The Rust bindings, unless [`Builder::no_rust`].
    pub rust: Option<PathBuf>,
    /// Every output, in the order the builder was told about them.
    pub files: Vec<PathBuf>,
    /// The outputs whose content changed and were written.
    pub written: Vec<PathBuf>,
    /// The schema's warnings, each as `abi-codegen generate` prints it (`FILE:LINE:COL:
    /// warning: ...` and its `= help:` line). In a build script each line is also printed
    /// as `cargo::warning=`, so that cargo shows it; a warning never fails the build.
    pub warnings: Vec<String>,
}

/// Why a build failed. `Display` prints it as the command line would; `Debug` prints the
/// same text, so that `fn main() -> Result<(), Box<dyn Error>>` shows readable diagnostics.
pub enum BuildError {
    /// A file could not be read: the schema, or a template.
    Read { path: PathBuf, source: io::Error },
    /// The schema has mistakes: the diagnostics as the command line prints them, and one
    /// `FILE:LINE:COL: message` line per mistake.
    Schema {
        rendered: String,
        headlines: Vec<String>,
    },
    /// A template of the user's did not render: its file and line, and why.
    #[cfg(feature = "text")]
    Template(TemplateError),
    /// A built-in target did not render: a bug in the generator.
    Render(String),
    /// An output could not be written.
    Write { path: PathBuf, source: io::Error },
    /// `OUT_DIR` is not set: not run by cargo, and no Rust output path was given.
    NoOutDir,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Read { path, source } => {
                write!(f, "error: cannot read {}: {source}", path.display())
            }
            BuildError::Schema { rendered, .. } => f.write_str(rendered.trim_end()),
            #[cfg(feature = "text")]
            BuildError::Template(e) => write!(f, "{e}"),
            BuildError::Render(message) => f.write_str(message),
            BuildError::Write { path, source } => {
                write!(f, "error: cannot write {}: {source}", path.display())
            }
            BuildError::NoOutDir => f.write_str(
                "error: OUT_DIR is not set: run from a build script, or give the Rust output a path with Builder::rust_file",
            ),
        }
    }
}

impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for BuildError {
    /// The I/O error of a read or a write, and a user template's error.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Read { source, .. } | BuildError::Write { source, .. } => Some(source),
            #[cfg(feature = "text")]
            BuildError::Template(e) => Some(e),
            BuildError::Schema { .. } | BuildError::Render(_) | BuildError::NoOutDir => None,
        }
    }
}

impl BuildError {
    /// One line per error, without the `error: ` a reader adds: what goes after
    /// `cargo::error=`.
    pub fn headlines(&self) -> Vec<String> {
        match self {
            BuildError::Schema { headlines, .. } => headlines.clone(),
            #[cfg(feature = "text")]
            BuildError::Template(e) => vec![match e.line {
                Some(line) => format!("{}:{line}: {}", e.template, e.message),
                None => format!("{}: {}", e.template, e.message),
            }],
            other => other
                .to_string()
                .lines()
                .take(1)
                .map(|l| l.trim_start_matches("error: ").to_string())
                .collect(),
        }
    }
}

impl Builder {
    /// A builder for the schema at `path`, relative to the package's folder (where cargo
    /// runs build scripts). By default it writes only the Rust bindings, into `OUT_DIR`.
    pub fn new(schema: impl Into<PathBuf>) -> Self {
        Builder {
            schema: schema.into(),
            rust: RustTarget::OutDir,
            #[cfg(feature = "text")]
            text: Vec::new(),
            #[cfg(feature = "text")]
            generated_dir: None,
            cargo: true,
        }
    }

    /// Writes the Rust bindings to `path` instead of `$OUT_DIR/<abi name>.rs`.
    pub fn rust_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.rust = RustTarget::File(path.into());
        self
    }

    /// Writes no Rust bindings (a build script that only generates a C header, say).
    pub fn no_rust(mut self) -> Self {
        self.rust = RustTarget::Skip;
        self
    }

    /// Writes the C header (C11 and C++17) to `path`.
    #[cfg(feature = "text")]
    pub fn c_header(mut self, path: impl Into<PathBuf>) -> Self {
        self.text.push((TextTarget::CHeader, path.into()));
        self
    }

    /// Writes the Python `ctypes` module to `path`, and its type stub beside it: `path`
    /// with the extension `.pyi` (`bridge.py` and `bridge.pyi`), which editors and
    /// `mypy --strict` read. [`python_without_stub`](Self::python_without_stub) writes the
    /// module alone.
    #[cfg(feature = "text")]
    pub fn python(mut self, path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let stub = path.with_extension("pyi");
        self.text.push((TextTarget::Python, path));
        self.text.push((TextTarget::PythonStub, stub));
        self
    }

    /// Writes the Python `ctypes` module to `path`, without its `.pyi` type stub.
    #[cfg(feature = "text")]
    pub fn python_without_stub(mut self, path: impl Into<PathBuf>) -> Self {
        self.text.push((TextTarget::Python, path.into()));
        self
    }

    /// Writes the markdown reference to `path`.
    #[cfg(feature = "text")]
    pub fn markdown(mut self, path: impl Into<PathBuf>) -> Self {
        self.text.push((TextTarget::Markdown, path.into()));
        self
    }

    /// Renders the minijinja template `template` (codegen/TEMPLATES.md) to `output`.
    #[cfg(feature = "text")]
    pub fn template(mut self, template: impl Into<PathBuf>, output: impl Into<PathBuf>) -> Self {
        self.text
            .push((TextTarget::Template(template.into()), output.into()));
        self
    }

    /// Writes into `dir` every file `abi-codegen generate --out DIR` writes: all the
    /// built-in targets and the schema's `[[template]]` targets.
    #[cfg(feature = "text")]
    pub fn generated_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.generated_dir = Some(dir.into());
        self
    }

    /// Whether to print cargo's build-script instructions (`cargo::rerun-if-changed`, and
    /// `cargo::error` on failure). On by default; off for a builder used outside cargo.
    pub fn cargo_instructions(mut self, on: bool) -> Self {
        self.cargo = on;
        self
    }

    /// Generates every target asked for, writing only the files whose content changed.
    /// Nothing is written unless every target rendered.
    pub fn generate(self) -> Result<Generated, BuildError> {
        let result = self.run();
        if self.cargo
            && let Err(e) = &result
        {
            // Cargo shows these lines as errors, and fails the build; the full
            // diagnostics go to stderr, which cargo shows with them.
            for line in e.headlines() {
                println!("cargo::error={line}");
            }
        }
        result
    }

    /// [`generate`](Self::generate), and on failure print the diagnostics to stderr and
    /// exit with status 1: the one call a build script needs.
    pub fn generate_or_exit(self) -> Generated {
        match self.generate() {
            Ok(generated) => generated,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }

    fn run(&self) -> Result<Generated, BuildError> {
        if self.cargo {
            println!("cargo::rerun-if-changed={}", self.schema.display());
            #[cfg(feature = "text")]
            for (target, _) in &self.text {
                if let TextTarget::Template(path) = target {
                    println!("cargo::rerun-if-changed={}", path.display());
                }
            }
        }
        let src = write::read_text(&self.schema).map_err(|source| BuildError::Read {
            path: self.schema.clone(),
            source,
        })?;
        let file = display_name(&self.schema);
        let schema = crate::schema::load_schema(&src)
            .map_err(|errors| schema_error(&errors, &file, &src))?;
        let source = crate::diagnostics::source_name(&self.schema);
        let mut planned: Vec<(PathBuf, String)> = Vec::new();
        let mut generated = Generated::default();
        for w in &schema.warnings {
            let text = crate::diagnostics::render_warnings(std::slice::from_ref(w), &file, &src);
            if self.cargo {
                for line in text.lines() {
                    println!("cargo::warning={}", line.trim_start());
                }
            }
            generated.warnings.push(text);
        }
        if let Some(path) = self.rust_path(&schema)? {
            planned.push((
                path.clone(),
                crate::language_backend::rust::expand_rust(&schema, &source),
            ));
            generated.rust = Some(path);
        }
        #[cfg(feature = "text")]
        self.render_text(&schema, &src, &source, &mut planned)?;
        for (path, contents) in &planned {
            generated.files.push(path.clone());
            let wrote = write::ensure_file_contents(path, contents).map_err(|source| {
                BuildError::Write {
                    path: path.clone(),
                    source,
                }
            })?;
            if wrote {
                generated.written.push(path.clone());
            }
        }
        Ok(generated)
    }

    fn rust_path(&self, schema: &Schema) -> Result<Option<PathBuf>, BuildError> {
        match &self.rust {
            RustTarget::Skip => Ok(None),
            RustTarget::File(path) => Ok(Some(path.clone())),
            RustTarget::OutDir => {
                let dir = std::env::var_os("OUT_DIR").ok_or(BuildError::NoOutDir)?;
                Ok(Some(
                    Path::new(&dir).join(format!("{}.rs", schema.abi.name)),
                ))
            }
        }
    }

    /// Renders the text targets and templates into `planned`, before anything is written.
    #[cfg(feature = "text")]
    fn render_text(
        &self,
        schema: &Schema,
        src: &str,
        source: &str,
        planned: &mut Vec<(PathBuf, String)>,
    ) -> Result<(), BuildError> {
        use crate::language_backend::{c, markdown, python, user_template};
        let render_error = |e: crate::language_backend::RenderError| BuildError::Render(e.0);
        for (target, path) in &self.text {
            let text = match target {
                TextTarget::CHeader => c::render_c_header(schema, source).map_err(render_error)?,
                TextTarget::Python => {
                    python::render_python(schema, source).map_err(render_error)?
                }
                TextTarget::PythonStub => {
                    python::render_python_stub(schema, source).map_err(render_error)?
                }
                TextTarget::Markdown => {
                    markdown::render_markdown(schema, source).map_err(render_error)?
                }
                TextTarget::Template(template) => {
                    let text = write::read_text(template).map_err(|e| BuildError::Read {
                        path: template.clone(),
                        source: e,
                    })?;
                    user_template::render_user_template(
                        schema,
                        source,
                        &display_name(template),
                        &text,
                    )
                    .map_err(BuildError::Template)?
                }
            };
            planned.push((path.clone(), text));
        }
        if let Some(dir) = &self.generated_dir {
            let schema_dir = self.schema.parent().unwrap_or(Path::new(""));
            if self.cargo {
                for t in &schema.templates {
                    println!(
                        "cargo::rerun-if-changed={}",
                        schema_dir.join(&t.path).display()
                    );
                }
            }
            let outputs =
                generated_outputs(schema, &display_name(&self.schema), src, source, schema_dir)?;
            planned.extend(
                outputs
                    .into_iter()
                    .map(|o| (dir.join(&o.file_name), o.contents)),
            );
        }
        Ok(())
    }
}

/// Every file `abi-codegen generate` writes for `schema`: the built-in targets, then the
/// outputs of its `[[template]]` tables, whose templates are read from `schema_dir`.
/// `file` and `src` are the schema's name and text, for the diagnostics of a template that
/// cannot be read; `source` is the name the generated files' first line shows.
#[cfg(feature = "text")]
pub fn generated_outputs(
    schema: &Schema,
    file: &str,
    src: &str,
    source: &str,
    schema_dir: &Path,
) -> Result<Vec<write::Output>, BuildError> {
    use crate::language_backend::user_template::{UserTemplateFailure, render_user_templates};
    let mut outputs = crate::language_backend::generate_all(schema, source)
        .map_err(|e| BuildError::Render(e.0))?;
    let texts = write::read_user_templates(schema_dir, &schema.templates);
    match render_user_templates(schema, source, schema_dir, texts) {
        Ok(more) => outputs.extend(more),
        Err(UserTemplateFailure::Unreadable(errors)) => {
            return Err(schema_error(&errors, file, src));
        }
        Err(UserTemplateFailure::Template(e)) => return Err(BuildError::Template(e)),
    }
    Ok(outputs)
}

/// The schema's errors as the command line prints them, and one headline per error.
fn schema_error(errors: &SchemaErrors, file: &str, src: &str) -> BuildError {
    let headlines = errors
        .list
        .iter()
        .map(|d| {
            let (line, col) = crate::diagnostics::line_col(src, d.span.start);
            format!("{file}:{line}:{col}: {}", d.message)
        })
        .collect();
    BuildError::Schema {
        rendered: errors.render(file, src),
        headlines,
    }
}
