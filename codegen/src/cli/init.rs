//! `abi-codegen init`: writes the starter schema (crate::init) where asked.

use std::path::Path;
use std::process::ExitCode;

use super::common::{Failure, fix_command, outln};

/// `abi-codegen init`: the starter schema, written where asked unless a file is there.
pub(crate) fn init(
    kinds: &[crate::init::Kind],
    path: &Path,
    force: bool,
) -> Result<ExitCode, Failure> {
    if path.exists() && !force {
        return Err(Failure::Input(format!(
            "{} exists: init writes a new schema (--force overwrites it)",
            path.display()
        )));
    }
    let text = crate::init::starter_schema(kinds);
    std::fs::write(path, text)
        .map_err(|e| Failure::Input(format!("cannot write {}: {e}", path.display())))?;
    outln!(
        "wrote {}; next: {}",
        path.display(),
        fix_command(&format!("generate --schema {}", path.display()))
    );
    Ok(ExitCode::SUCCESS)
}
