//! `abi-codegen layout [TYPE] [--json]`: the computed layout of one struct, or of all.

use std::path::Path;
use std::process::ExitCode;

use crate::report;

use super::common::{Failure, load, out, outln};

/// The layout of struct `name` (all when `None`), as tables or JSON.
pub(crate) fn layout(
    schema_path: &Path,
    name: Option<&str>,
    json: bool,
) -> Result<ExitCode, Failure> {
    let schema = load(schema_path)?;
    if json {
        let context = report::layout_context(&schema);
        let text = match name {
            None => serde_json::to_string_pretty(&context),
            Some(n) => serde_json::to_string_pretty(
                context
                    .structs
                    .iter()
                    .find(|s| s.name == n)
                    .ok_or_else(|| not_found(&schema, n, schema_path))?,
            ),
        };
        outln!("{}", text.expect("the layout context serializes"));
        return Ok(ExitCode::SUCCESS);
    }
    match name {
        None => out!("{}", report::layout_tables(&schema)),
        Some(n) => {
            let index = crate::inspect::find_struct(&schema, n)
                .map_err(|_| not_found(&schema, n, schema_path))?;
            out!("{}", report::layout_table(&schema, index));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// No struct `name`: the error names the schema file and the closest struct's name.
fn not_found(schema: &crate::Schema, name: &str, path: &Path) -> Failure {
    let msg = crate::inspect::find_struct(schema, name)
        .err()
        .unwrap_or_default()
        .replacen("in the schema", &format!("in {}", path.display()), 1);
    Failure::Input(msg)
}
