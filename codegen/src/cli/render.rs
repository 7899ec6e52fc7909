//! `abi-codegen render TEMPLATE`: one user template rendered over the schema.

use std::path::Path;
use std::process::ExitCode;

use crate::write;

use super::common::{Failure, display_name, load, out};

/// `abi-codegen render TEMPLATE`: the template rendered over the schema, on stdout.
pub(crate) fn render_template(schema_path: &Path, template: &Path) -> Result<ExitCode, Failure> {
    let schema = load(schema_path)?;
    let text = write::read_text(template)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", template.display())))?;
    let source = crate::diagnostics::source_name(schema_path);
    match crate::language_backend::user_template::render_user_template(
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
