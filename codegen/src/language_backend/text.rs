//! The shared minijinja setup of the text targets (C, Python, markdown): templates from
//! `templates/`, strict undefined behaviour, no auto-escaping, strings printed as they are.
//! Each backend builds its context in Rust (names, escaped docs, numbers from the layout)
//! and hands it here. A backend compiles its template once per process ([`Compiled`], kept
//! in a static), so that rendering costs only the rendering.

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

use super::output::RenderError;

/// A template embedded from `templates/` at compile time.
pub struct Template {
    pub name: &'static str,
    pub source: &'static str,
}

/// The [`Template`] `templates/NAME`, embedded at compile time.
macro_rules! template {
    ($name:literal) => {
        $crate::language_backend::text::Template {
            name: $name,
            source: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/", $name)),
        }
    };
}
pub(crate) use template;

/// A new environment with the settings every text target uses. Backends add their own
/// filters (escaping rules belong to the target) before calling [`render`].
pub fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .expect("the default delimiters are valid");
    env.set_syntax(syntax);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    // Strings, nearly all that the templates print, go straight to the output rather than
    // through `Display`; other values print as minijinja prints them. Printing an undefined
    // value is an error, as strict undefined behaviour makes it (an `{{ x if y }}` without
    // `else` included, which the templates do not use).
    env.set_formatter(|out, state, value| {
        if let Some(s) = value.as_str() {
            return out.write_str(s).map_err(minijinja::Error::from);
        }
        if value.is_undefined() {
            return Err(minijinja::Error::from(minijinja::ErrorKind::UndefinedError));
        }
        minijinja::escape_formatter(out, state, value)
    });
    env
}

/// A template compiled once in an environment of its own: [`environment`]'s settings plus
/// the target's filters. Backends keep one in a `LazyLock` and render it on every call; a
/// template that does not compile is an error of every render, as with [`render`].
pub struct Compiled {
    name: &'static str,
    env: Result<Environment<'static>, String>,
}

impl Compiled {
    /// Compiles `template` in a new [`environment`] that `setup` adds its filters to.
    pub fn new(template: &Template, setup: impl FnOnce(&mut Environment<'static>)) -> Self {
        Self::with_parts(template, &[], setup)
    }

    /// Compiles `template` and the `parts` it includes (`{% include "NAME" %}`, one file a
    /// concern: a part sees the includer's context, its top-level `set`s and macros too).
    pub fn with_parts(
        template: &Template,
        parts: &[Template],
        setup: impl FnOnce(&mut Environment<'static>),
    ) -> Self {
        let mut env = environment();
        setup(&mut env);
        let env = std::iter::once(template)
            .chain(parts)
            .try_for_each(|t| {
                env.add_template(t.name, t.source)
                    .map_err(|e| format!("template {}: {e:#}", t.name))
            })
            .map(|()| env);
        Compiled {
            name: template.name,
            env,
        }
    }

    /// Renders the template with `context`.
    pub fn render(&self, context: impl Serialize) -> Result<String, RenderError> {
        let env = self.env.as_ref().map_err(|e| RenderError(e.clone()))?;
        let t = env
            .get_template(self.name)
            .map_err(|e| RenderError(format!("template {}: {e:#}", self.name)))?;
        t.render(minijinja::value::Serde(context))
            .map_err(|e| RenderError(format!("template {}: {e:#}", self.name)))
    }
}

/// Renders `template` with `context` in `env`.
pub fn render(
    env: &mut Environment<'static>,
    template: &Template,
    context: impl Serialize,
) -> Result<String, RenderError> {
    env.add_template(template.name, template.source)
        .map_err(|e| RenderError(format!("template {}: {e:#}", template.name)))?;
    let t = env
        .get_template(template.name)
        .map_err(|e| RenderError(format!("template {}: {e:#}", template.name)))?;
    t.render(minijinja::value::Serde(context))
        .map_err(|e| RenderError(format!("template {}: {e:#}", template.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(source: &'static str) -> Template {
        Template {
            name: "test.j2",
            source,
        }
    }

    #[test]
    fn renders_with_the_shared_settings() {
        let t = template("{% if x %}\n{{ x }} {{ y }}\n{% endif %}\n");
        let context = serde_json::json!({ "x": "a */ b", "y": "<&>" });
        let text = render(&mut environment(), &t, context).expect("renders");
        assert_eq!(text, "a */ b <&>\n");
    }

    #[test]
    fn values_print_as_minijinja_prints_them() {
        let source = "{{ s }} {{ n }} {{ b }} {{ z }} {{ l }} {{ s ~ n }}";
        let context = serde_json::json!({
            "s": "*/ \"x\"", "n": 42, "b": true, "z": null, "l": [1, "a"]
        });
        let text = render(&mut environment(), &template(source), &context).expect("renders");
        let mut plain = Environment::new();
        plain.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
        let expected = plain
            .render_str(source, minijinja::value::Serde(&context))
            .expect("renders");
        assert_eq!(text, expected);
        assert_eq!(text, "*/ \"x\" 42 True None [1, 'a'] */ \"x\"42");
    }

    #[test]
    fn a_compiled_template_renders_again_and_again() {
        let t = template("{{ x | twice }}\n");
        let compiled = Compiled::new(&t, |env| {
            env.add_filter("twice", |s: String| format!("{s}{s}"));
        });
        for x in ["a", "b"] {
            let text = compiled
                .render(serde_json::json!({ "x": x }))
                .expect("renders");
            assert_eq!(text, format!("{x}{x}\n"));
        }
        let broken = Compiled::new(&template("{% if %}"), |_| {});
        let err = broken
            .render(serde_json::json!({}))
            .expect_err("does not compile");
        assert!(err.0.starts_with("template test.j2: "), "{err}");
        assert!(err.0.contains("syntax error"), "{err}");
    }

    #[test]
    fn a_part_sees_the_includers_context_sets_and_macros() {
        let main = template(
            "{% macro twice(s) %}{{ s }}{{ s }}{% endmacro %}\n{% set y = x ~ \"!\" %}\nmain\n{% include \"part.j2\" %}\nend\n",
        );
        let part = Template {
            name: "part.j2",
            source: "{#- a part #}\npart {{ x }} {{ y }} {{ twice(x) }}\n",
        };
        let compiled = Compiled::with_parts(&main, &[part], |_| {});
        let text = compiled
            .render(serde_json::json!({ "x": "a" }))
            .expect("renders");
        assert_eq!(text, "main\npart a a! aa\nend\n");
        let broken = Template {
            name: "broken.j2",
            source: "{% if %}",
        };
        let err = Compiled::with_parts(&main, &[broken], |_| {})
            .render(serde_json::json!({ "x": "a" }))
            .expect_err("a part that does not compile");
        assert!(err.0.starts_with("template broken.j2: "), "{err}");
    }

    #[test]
    fn a_broken_template_is_a_render_error() {
        for (source, says) in [
            ("{% for x in %}", "syntax error"),
            ("{% if x %}never closed", "syntax error"),
            ("{{ missing }}", "undefined"),
            ("{{ x.nope }}", "undefined"),
            ("{{ x | no_such_filter }}", "unknown filter"),
            ("{{ x.nope if false }}", "undefined"),
        ] {
            let err = render(
                &mut environment(),
                &template(source),
                serde_json::json!({ "x": 1 }),
            )
            .expect_err(source);
            assert!(err.0.starts_with("template test.j2: "), "{source}: {err}");
            assert!(err.0.contains(says), "{source}: {err}");
        }
    }
}
