//! The C header's directories (`templates/c_directory.h.j2`): the directory protocol once,
//! table-driven over a plan struct, and per `[[directory]]` its plan, printed from the IR's
//! (`ir/directory.rs`), with thin wrappers. Printed after the live helpers it uses.

use std::sync::LazyLock;

use serde::Serialize;

use super::comments::render_comment_lines;
use super::result_codes::{CodeCtx, code_ctxs};
use crate::ir::directory::Directory;
use crate::ir::result_codes::Family;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::directory::PlanCtx;
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_directory.h.j2",
    source: include_str!("../../../templates/c_directory.h.j2"),
};

/// The part `c_directory.h.j2` includes: the platform's probe and open-or-create.
const PARTS: [Template; 1] = [template!("c_directory_platform.h.j2")];

static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

#[derive(Serialize)]
struct Context {
    p: String,
    pu: String,
    /// The largest row and version string of any directory: the helpers' local buffers.
    entry_cap: u64,
    version_cap: u64,
    head_cap: u64,
    directories: Vec<DirectoryCtx>,
    /// The directory helpers' and the process probe's codes (`result_codes.rs`).
    directory_codes: Vec<CodeCtx>,
    process_codes: Vec<CodeCtx>,
}

#[derive(Serialize)]
struct DirectoryCtx {
    name: String,
    doc: String,
    plan: PlanCtx,
}

/// The directories' section, or `None` when the schema declares none.
pub(super) fn render_c_directories(schema: &Schema) -> Result<Option<String>, RenderError> {
    if schema.directories.is_empty() {
        return Ok(None);
    }
    let p = schema.abi.c_prefix.clone();
    let ds = &schema.directories;
    let max = |f: fn(&Directory) -> u64| ds.iter().map(f).max().unwrap_or(8);
    let pu = p.to_ascii_uppercase();
    let context = Context {
        directory_codes: code_ctxs(&[Family::Directory], &pu),
        process_codes: code_ctxs(&[Family::Process], &pu),
        pu,
        p,
        entry_cap: max(|d| u64::from(d.plan.entry_size)),
        version_cap: max(|d| d.plan.version_len),
        head_cap: max(|d| d.plan.entries_at).max(8),
        directories: ds
            .iter()
            .map(|d| directory_ctx(d, &schema.abi.c_prefix))
            .collect(),
    };
    COMPILED.render(context).map(Some)
}

fn directory_ctx(d: &Directory, prefix: &str) -> DirectoryCtx {
    let mut doc = String::from("/**\n");
    for line in render_comment_lines(&d.doc, 90) {
        doc.push_str(&format!(" * {line}\n").replace(" * \n", " *\n"));
    }
    doc.push_str(&format!(
        " *\n * Directory `{}`: its plan for the {}_directory_* helpers.\n */",
        d.name, prefix
    ));
    DirectoryCtx {
        name: d.name.clone(),
        doc,
        plan: PlanCtx::new(d),
    }
}
