//! The user's own targets (`[[template]]`): a minijinja template rendered over the layout
//! context, the JSON of `abi-codegen layout --json` (codegen/TEMPLATES.md documents it field
//! by field), with the text targets' settings (strict undefined, no escaping) and a few
//! filters for naming. A template error points at the template's file and line.

use minijinja::Environment;
use serde::Serialize;

use crate::report::context::LayoutContext;
use crate::schema::Schema;

/// A template that did not compile or render: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The template's name as the user wrote it (its path).
    pub template: String,
    /// The line in the template, when minijinja knows it.
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: error: {}", self.template, self.message),
            None => write!(f, "{}: error: {}", self.template, self.message),
        }
    }
}

impl std::error::Error for TemplateError {}

/// The context a user template sees: the layout JSON's keys, then `source` (the schema's
/// file name) and `generated_line` (the "generated from …; do not edit" text, for the file's
/// first comment).
#[derive(Debug, Clone, Serialize)]
pub struct TemplateContext<'a> {
    #[serde(flatten)]
    pub layout: LayoutContext<'a>,
    pub source: &'a str,
    pub generated_line: String,
}

/// The context a user template of `schema` sees, whose file name is `source`.
pub fn template_context<'a>(schema: &'a Schema, source: &'a str) -> TemplateContext<'a> {
    TemplateContext {
        layout: crate::report::layout_context(schema),
        source,
        generated_line: super::output::generated_line(source),
    }
}

/// Renders the template `name` (its path, for messages) with text `template` over `schema`.
pub fn render_user_template(
    schema: &Schema,
    source: &str,
    name: &str,
    template: &str,
) -> Result<String, TemplateError> {
    let mut env = super::text::environment();
    add_filters(&mut env);
    let error = |e: minijinja::Error| {
        let mut message = e.kind().to_string();
        if let Some(detail) = e.detail() {
            message.push_str(": ");
            message.push_str(detail);
        }
        TemplateError {
            template: name.to_string(),
            line: e.line(),
            message,
        }
    };
    env.add_template_owned(name.to_string(), template.to_string())
        .map_err(error)?;
    let t = env.get_template(name).map_err(error)?;
    t.render(minijinja::value::Serde(template_context(schema, source)))
        .map_err(error)
}

/// Why the user templates gave no outputs: a template that could not be read (a schema
/// error at its `path`, rendered like every other), or one that did not render.
#[derive(Debug)]
pub enum UserTemplateFailure {
    Unreadable(crate::diagnostics::SchemaErrors),
    Template(TemplateError),
}

/// Renders every `[[template]]` of `schema`, whose texts (read by
/// [`crate::write::read_user_templates`] from `schema_dir`, in the same order) are `texts`,
/// into outputs. A template error names the template as `schema_dir` joined with its path.
pub fn render_user_templates(
    schema: &Schema,
    source: &str,
    schema_dir: &std::path::Path,
    texts: Vec<std::io::Result<String>>,
) -> Result<Vec<crate::write::Output>, UserTemplateFailure> {
    let mut errors = crate::diagnostics::Errors::new();
    let mut read = Vec::with_capacity(texts.len());
    for (t, text) in schema.templates.iter().zip(texts) {
        match text {
            Ok(text) => read.push((t, text)),
            Err(e) => errors.error_help(
                &t.path_span,
                format!("template `{}`: cannot read it: {e}", t.path),
                "a template's path is relative to the folder of the schema",
            ),
        }
    }
    errors
        .propagate()
        .map_err(UserTemplateFailure::Unreadable)?;
    read.into_iter()
        .map(|(t, text)| {
            Ok(crate::write::Output {
                file_name: t.output.clone(),
                contents: render_user_template(
                    schema,
                    source,
                    &crate::diagnostics::display_path(&schema_dir.join(&t.path)),
                    &text,
                )
                .map_err(UserTemplateFailure::Template)?,
            })
        })
        .collect()
}

/// The filters a user template has besides minijinja's built-ins.
fn add_filters(env: &mut Environment<'static>) {
    use crate::ir::names;
    // `client_entry` → `ClientEntry`.
    env.add_filter("pascal_case", |s: String| names::camel(&s));
    // `client_entry` → `clientEntry`.
    env.add_filter("camel_case", |s: String| {
        let pascal = names::camel(&s);
        let mut chars = pascal.chars();
        match chars.next() {
            Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
            None => String::new(),
        }
    });
    // `client_entry` → `CLIENT_ENTRY`.
    env.add_filter("upper_snake_case", |s: String| s.to_ascii_uppercase());
    // 4096 → `0x1000`: lowercase digits, as every generated output writes them.
    env.add_filter("hex", |n: i128| {
        if n < 0 {
            format!("-{:#x}", n.unsigned_abs())
        } else {
            format!("{n:#x}")
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Schema {
        crate::schema::load_schema(
            r#"
[abi]
name = "demo"
version = "1.2"
c_prefix = "demo"
byte_order = "little"

[[struct]]
name = "client_entry"
doc = "One row"
fields = [
  { name = "id", type = "u32", doc = "Identifier" },
  { name = "flags", type = "u16", doc = "Bits" },
  { name = "_pad", type = "u8[2]", doc = "Padding" },
]
"#,
        )
        .expect("a valid schema")
    }

    #[test]
    fn renders_over_the_layout_context() {
        let text = render_user_template(
            &schema(),
            "schema.toml",
            "t.j2",
            "// {{ generated_line }}\n{% for s in structs %}\n{{ s.name | pascal_case }} {{ s.size }}:{% for f in s.fields %} {{ f.name | camel_case }}@{{ f.offset | hex }}{% endfor %}\n\n{% endfor %}\nv{{ format_version }} {{ abi.version }} {{ structs[0].fields[0].name | upper_snake_case }}\n",
        )
        .expect("renders");
        // trim_blocks: the newline after a block tag is dropped, as in the built-in targets.
        assert_eq!(
            text,
            "// generated from schema.toml; do not edit\nClientEntry 8: id@0x0 flags@0x4 pad@0x6\nv1 1.2 ID\n"
        );
    }

    #[test]
    fn errors_name_the_template_and_line() {
        let err = render_user_template(&schema(), "schema.toml", "x/t.j2", "a\nb\n{{ nope }}\n")
            .expect_err("undefined");
        assert_eq!(err.template, "x/t.j2");
        assert_eq!(err.line, Some(3));
        assert!(
            err.to_string()
                .starts_with("x/t.j2:3: error: undefined value"),
            "{err}"
        );
        let err = render_user_template(&schema(), "schema.toml", "t.j2", "ok\n{% for %}\n")
            .expect_err("syntax");
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err.message.contains("syntax error"), "{err}");
        let err = render_user_template(&schema(), "schema.toml", "t.j2", "{{ structs[0].nope }}")
            .expect_err("strict");
        assert_eq!(err.line, Some(1), "{err}");
    }
}
