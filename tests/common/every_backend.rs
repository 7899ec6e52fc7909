//! Rendering a loaded schema with every backend the generator has: the built-in targets
//! (`generate_all`: Rust, the C header, the Python module and its `.pyi` stub, markdown),
//! this repository's JavaScript module (the user template `templates/bridge.mjs.j2`) and the
//! schema's own `[[template]]`s. A backend that fails or panics on a schema that lowering
//! accepted is a bug: lowering decides validity (issue 39). Used by tests/every_backend.rs
//! (every fixture) and tests/fuzz_front_end.rs (every accepted mutant).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::LazyLock;

use abi_codegen::testing::language_backend::user_template::{
    UserTemplateFailure, render_user_template, render_user_templates,
};
use abi_codegen::{Schema, SchemaErrors};

/// The repository's JavaScript module template, rendered over every schema.
pub const JS_TEMPLATE: &str = "templates/bridge.mjs.j2";

/// The text of [`JS_TEMPLATE`], read once.
static JS_TEXT: LazyLock<String> = LazyLock::new(|| {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(JS_TEMPLATE);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
});

/// The built-in targets' file extensions: every one must be among `generate_all`'s outputs.
pub const BUILT_IN: [&str; 5] = ["rs", "h", "py", "pyi", "md"];

/// What rendering a schema gave: one entry per output, `(name, text)`.
pub type Rendered = Vec<(String, String)>;

/// The text of a panic's payload.
pub fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "(not a string)".into())
}

/// Renders `schema` (named `schema.toml` in the generated line) with every backend: the
/// built-in targets, the JavaScript template (read from the package's root) and the
/// schema's `[[template]]`s (read relative to `schema_dir`). `run` wraps each stage (the
/// fuzzer silences its panics); a render error, a panic, a missing target or a built-in
/// output without the generated line is an `Err` naming the backend. A `[[template]]`
/// whose file cannot be read is not a backend's failure: it must be a schema error that
/// points into `src` (as `abi-codegen generate` reports it), checked by `check_unreadable`.
pub fn render_every_backend(
    schema: &Schema,
    src: &str,
    schema_dir: &Path,
    run: &dyn Fn(&mut dyn FnMut()) -> std::thread::Result<()>,
    check_unreadable: &dyn Fn(&str, &SchemaErrors) -> Result<(), String>,
) -> Result<Rendered, String> {
    let mut out: Rendered = Vec::new();
    // The built-in targets.
    let mut built_in = None;
    run(&mut || {
        built_in = Some(abi_codegen::testing::language_backend::generate_all(
            schema,
            "schema.toml",
        ))
    })
    .map_err(|p| format!("generate_all panicked: {}", panic_text(&p)))?;
    let built_in = built_in
        .expect("ran")
        .map_err(|e| format!("a built-in target failed on an accepted schema: {e}"))?;
    for extension in BUILT_IN {
        let name = format!("{}.{extension}", schema.abi().name);
        let Some(o) = built_in.iter().find(|o| o.file_name == name) else {
            return Err(format!("generate_all wrote no {name}"));
        };
        let first = o.contents.lines().next().unwrap_or("");
        if !first.contains("generated from schema.toml; do not edit") {
            return Err(format!("{name} starts with {first:?}"));
        }
    }
    out.extend(built_in.into_iter().map(|o| (o.file_name, o.contents)));
    // The JavaScript module.
    let js: &str = &JS_TEXT;
    let mut rendered = None;
    run(&mut || rendered = Some(render_user_template(schema, "schema.toml", JS_TEMPLATE, js)))
        .map_err(|p| format!("{JS_TEMPLATE} panicked: {}", panic_text(&p)))?;
    let text = rendered
        .expect("ran")
        .map_err(|e| format!("{JS_TEMPLATE} failed on an accepted schema: {e}"))?;
    out.push((JS_TEMPLATE.to_string(), text));
    // The schema's own templates.
    let texts = abi_codegen::testing::write::read_user_templates(schema_dir, schema.templates());
    let mut user = None;
    let mut texts = Some(texts);
    run(&mut || {
        user = Some(render_user_templates(
            schema,
            "schema.toml",
            schema_dir,
            texts.take().expect("once"),
        ))
    })
    .map_err(|p| format!("the schema's [[template]]s panicked: {}", panic_text(&p)))?;
    match user.expect("ran") {
        Ok(outputs) => out.extend(outputs.into_iter().map(|o| (o.file_name, o.contents))),
        Err(UserTemplateFailure::Unreadable(errors)) => check_unreadable(src, &errors)?,
        Err(UserTemplateFailure::Template(e)) => {
            return Err(format!("a [[template]] failed on an accepted schema: {e}"));
        }
    }
    Ok(out)
}

/// Every rejection carries at least one error; each of the first 50 renders as one header
/// line `schema.toml:LINE:COL: error: MESSAGE` with LINE and COL inside `src`.
pub fn check_errors(
    src: &str,
    errors: &SchemaErrors,
    run: &dyn Fn(&mut dyn FnMut()) -> std::thread::Result<()>,
) -> Result<(), String> {
    if errors.list.is_empty() {
        return Err("rejected with no error".into());
    }
    let mut rendered = String::new();
    run(&mut || rendered = errors.render("schema.toml", src))
        .map_err(|p| format!("render panicked: {}", panic_text(&p)))?;
    let lines: Vec<&str> = src.split('\n').collect();
    let headers: Vec<&str> = rendered
        .lines()
        .filter(|l| l.starts_with("schema.toml:"))
        .collect();
    // At most MAX_SHOWN errors are shown, then a line counts the rest.
    let shown = errors
        .list
        .len()
        .min(abi_codegen::testing::diagnostics::MAX_SHOWN);
    let more = errors.list.len() - shown;
    if headers.len() != shown
        || (more > 0 && !rendered.contains(&format!("... and {more} more error")))
    {
        return Err(format!(
            "{} errors but {} header lines:\n{rendered}",
            errors.list.len(),
            headers.len()
        ));
    }
    for (d, header) in errors.list.iter().zip(&headers) {
        if d.span.start > src.len() {
            return Err(format!("span {:?} past the input: {header}", d.span));
        }
        let rest = &header["schema.toml:".len()..];
        let mut parts = rest.splitn(3, ':');
        let (Some(line), Some(col), Some(tail)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("malformed header: {header}"));
        };
        let (Ok(line), Ok(col)) = (line.parse::<usize>(), col.parse::<usize>()) else {
            return Err(format!("malformed header: {header}"));
        };
        if !tail.starts_with(" error: ") || tail.len() <= " error: ".len() {
            return Err(format!("malformed header: {header}"));
        }
        let Some(text) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
            return Err(format!("line {line} is outside the input: {header}"));
        };
        if col == 0 || col > text.chars().count() + 1 {
            return Err(format!("column {col} is outside line {line}: {header}"));
        }
        let expected = format!(
            "schema.toml:{line}:{col}: error: {}",
            abi_codegen::testing::diagnostics::one_line(&d.message)
        );
        if *header != expected {
            return Err(format!("header {header:?} is not {expected:?}"));
        }
    }
    // Nothing in the rendering moves a terminal's cursor or splits an error's line.
    if let Some(c) = rendered
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(format!("the rendering holds {c:?}:\n{rendered}"));
    }
    Ok(())
}

/// `run` for tests that let a panic fail them: the stage under `catch_unwind`, its panic
/// printed as usual.
pub fn run_caught(f: &mut dyn FnMut()) -> std::thread::Result<()> {
    catch_unwind(AssertUnwindSafe(f))
}
