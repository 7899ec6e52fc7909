//! The C header's result codes: each family's `#define`s and `case` lines, printed from the
//! one list of `language_backend::result_codes`.

use serde::Serialize;

use super::comments::render_comment_lines;
use crate::ir::result_codes::{Family, codes};

/// One code as the templates print it.
#[derive(Serialize)]
pub(super) struct CodeCtx {
    /// `<PREFIX>_<SUFFIX>`.
    pub macro_name: String,
    /// The number as a C expression (`101`, `(-1)`).
    pub value: String,
    pub name: String,
    /// The doc comment, ready to print (`/** ... */`, wrapped).
    pub doc: String,
}

/// The codes of `families`, in order, for the header with macro prefix `pu`.
pub(super) fn code_ctxs(families: &[Family], pu: &str) -> Vec<CodeCtx> {
    families
        .iter()
        .flat_map(|f| codes(*f))
        .map(|c| {
            let text = if c.doc.is_empty() {
                format!("Attach check `{}` failed.", c.name)
            } else {
                c.doc.replace("{PREFIX}", pu)
            };
            let lines = render_comment_lines(&text, 90);
            let mut doc = String::from("/**");
            for (i, line) in lines.iter().enumerate() {
                doc.push_str(if i == 0 { " " } else { "\n * " });
                doc.push_str(line);
            }
            doc.push_str(" */");
            CodeCtx {
                macro_name: format!("{pu}_{}", c.macro_suffix),
                value: if c.value < 0 {
                    format!("({})", c.value)
                } else {
                    c.value.to_string()
                },
                name: c.name,
                doc,
            }
        })
        .collect()
}

/// The codes of `families` with one code per number (the first: `<PREFIX>_OK` before
/// `<PREFIX>_ATTACH_OK`), for one `switch`.
pub(super) fn name_cases(families: &[Family], pu: &str) -> Vec<CodeCtx> {
    let mut seen = Vec::new();
    code_ctxs(families, pu)
        .into_iter()
        .filter(|c| {
            let new = !seen.contains(&c.value);
            seen.push(c.value.clone());
            new
        })
        .collect()
}
