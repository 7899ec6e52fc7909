//! `abi-codegen layout [TYPE] [--json]`: the computed layout of one struct, or of all.

use std::path::Path;
use std::process::ExitCode;

use abi_codegen::report;

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
                    .ok_or_else(|| {
                        Failure::Input(format!(
                            "no struct named `{n}` in {}",
                            schema_path.display()
                        ))
                    })?,
            ),
        };
        outln!("{}", text.expect("the layout context serializes"));
        return Ok(ExitCode::SUCCESS);
    }
    match name {
        None => out!("{}", report::layout_tables(&schema)),
        Some(n) => {
            let index = schema.abi.find_struct(n).ok_or_else(|| {
                Failure::Input(format!(
                    "no struct named `{n}` in {}",
                    schema_path.display()
                ))
            })?;
            out!("{}", report::layout_table(&schema, index));
        }
    }
    Ok(ExitCode::SUCCESS)
}
