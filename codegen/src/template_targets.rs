//! Lowers `[[template]]` into [`UserTemplate`]s: the user's own targets. Checks that every
//! output is a relative path inside the output folder, unique, and not a file a built-in
//! target writes. Whether the template exists and renders is checked when it is rendered.

use crate::diagnostics::{Errors, SchemaErrors, string_span};
use crate::ir::Abi;
use crate::ir::template::{BUILTIN_EXTENSIONS, UserTemplate};
use crate::parse::RawSchema;

/// The `[[template]]` tables of `raw`, checked.
pub fn lower_templates(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
) -> Result<Vec<UserTemplate>, SchemaErrors> {
    let mut errors = Errors::new();
    let mut out: Vec<UserTemplate> = Vec::new();
    for t in &raw.templates {
        let t = t.get_ref();
        let path_span = string_span(src, &t.path);
        let output_span = string_span(src, &t.output);
        let path = t.path.get_ref();
        let output = t.output.get_ref();
        if path.trim().is_empty() {
            errors.error_help(
                &path_span,
                "template: `path` is empty",
                "name the template file, relative to the schema's folder, such as `templates/reader.mjs.j2`",
            );
            continue;
        }
        if let Some(problem) = output_problem(output) {
            errors.error_help(
                &output_span,
                format!("template `{path}`: output `{output}` {problem}"),
                "name a file relative to the output folder (`--out`, default `generated`), such as `bridge.mjs` or `js/bridge.mjs`",
            );
            continue;
        }
        if let Some(ext) = BUILTIN_EXTENSIONS
            .iter()
            .find(|ext| *output == format!("{}.{ext}", abi.name))
        {
            errors.error_help(
                &output_span,
                format!("template `{path}`: output `{output}` is the file a built-in target writes"),
                format!("`{}.{ext}` belongs to the generator's own target: give the template's output another name", abi.name),
            );
            continue;
        }
        if let Some(first) = out.iter().find(|o| o.output == *output) {
            errors.error_help(
                &output_span,
                format!(
                    "template `{path}`: output `{output}` is already written by template `{}`",
                    first.path
                ),
                "each template needs an output of its own",
            );
            continue;
        }
        out.push(UserTemplate {
            path: path.clone(),
            output: output.clone(),
            doc: t
                .doc
                .as_ref()
                .map(|d| d.get_ref().trim().to_string())
                .unwrap_or_default(),
            path_span,
        });
    }
    errors.propagate()?;
    Ok(out)
}

/// Why `output` is not a plain relative path inside the output folder, if it is not.
fn output_problem(output: &str) -> Option<&'static str> {
    if output.trim().is_empty() {
        return Some("is empty");
    }
    if output.contains('\\') {
        return Some("uses `\\`: write paths with `/` on every system");
    }
    if output.starts_with('/') || output.as_bytes().get(1) == Some(&b':') {
        return Some("is absolute");
    }
    if output
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return Some("has an empty, `.` or `..` part");
    }
    if output.chars().any(char::is_control) {
        return Some("holds a control character");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::output_problem;

    #[test]
    fn outputs_stay_inside_the_output_folder() {
        for ok in ["bridge.mjs", "js/bridge.mjs", "a.b.c"] {
            assert_eq!(output_problem(ok), None, "{ok}");
        }
        for bad in [
            "", " ", "/etc/x", "C:/x", "../x", "a/../x", "a//b", "./x", "a/", "a\\b", "a\nb",
        ] {
            assert!(output_problem(bad).is_some(), "{bad:?}");
        }
    }
}
