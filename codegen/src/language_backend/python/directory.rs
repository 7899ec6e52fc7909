//! The Python module's directories (`templates/python_directory.py.j2`): the protocol once
//! in `_Directory`, and a class per `[[directory]]` holding its plan, printed from the IR's
//! (`ir/directory.rs`). Appended to the live section, whose atomics it uses; its stub lines.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Serialize;

use super::literals::doc_lines;
use crate::ir::names::camel;
use crate::ir::result_codes::{Family, codes};
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::directory::PlanCtx;
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "python_directory.py.j2",
    source: include_str!("../../../templates/python_directory.py.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct Context {
    directories: Vec<DirectoryCtx>,
    /// `PROCESS_GONE = 201` and the others: the process probe's answers, with the C
    /// header's numbers (`result_codes.rs`).
    process: Vec<(String, i64)>,
    /// The directory codes' names, by name: the one list (`ir::result_codes`) the C header
    /// prints its codes from. The template writes each check as `check.<name>`, so a name
    /// that is not in the list fails to render.
    check: BTreeMap<String, String>,
}

#[derive(Serialize)]
struct DirectoryCtx {
    class_name: String,
    doc: Vec<String>,
    plan: PlanCtx,
}

/// The shared names the section exports, before the directories' classes.
const EXPORTS: [&str; 6] = [
    "DirectoryError",
    "DirectoryHost",
    "process_probe",
    "PROCESS_GONE",
    "PROCESS_RUNNING",
    "PROCESS_UNKNOWN",
];

/// The directories' section and the names it exports, or `None` without directories.
pub(super) fn render_directories(
    schema: &Schema,
) -> Result<Option<(String, Vec<String>)>, RenderError> {
    if schema.directories.is_empty() {
        return Ok(None);
    }
    let directories: Vec<DirectoryCtx> = schema
        .directories
        .iter()
        .map(|d| DirectoryCtx {
            class_name: camel(&d.name),
            doc: doc_lines(&d.doc),
            plan: PlanCtx::new(d),
        })
        .collect();
    let mut exports: Vec<String> = EXPORTS.iter().map(|s| (*s).to_string()).collect();
    exports.extend(directories.iter().map(|d| d.class_name.clone()));
    let process = codes(Family::Process)
        .into_iter()
        .map(|c| (c.macro_suffix, c.value))
        .collect();
    let check = codes(Family::Directory)
        .into_iter()
        .map(|c| (c.name.clone(), c.name))
        .collect();
    let text = COMPILED.render(Context {
        directories,
        process,
        check,
    })?;
    // Two blank lines from the live section's last class, and none of its own at the end.
    Ok(Some((format!("\n\n{}\n", text.trim()), exports)))
}

/// The stub of the section: its shared names, then a class per directory.
pub(super) fn stub(schema: &Schema) -> String {
    if schema.directories.is_empty() {
        return String::new();
    }
    let mut out = String::from(STUB);
    for d in &schema.directories {
        out.push_str(&format!(
            "\nclass {}(_Directory):\n    WINDOWS_NAME: ClassVar[str]\n    LINUX_PATH: ClassVar[str]\n    SIZE: ClassVar[int]\n    ABI_MAJOR: ClassVar[int]\n    ABI_MINOR: ClassVar[int]\n",
            camel(&d.name)
        ));
    }
    out
}

const STUB: &str = "
PROCESS_GONE: Final[int]
PROCESS_RUNNING: Final[int]
PROCESS_UNKNOWN: Final[int]

class DirectoryError(ValueError):
    name: str
    def __init__(self, name: str, message: str) -> None: ...

class DirectoryHost:
    row: int
    pid: int
    process_time: int
    abi_major: int
    abi_minor: int
    host_version: str
    def __init__(self, row: int, pid: int, process_time: int, abi_major: int, abi_minor: int, host_version: str) -> None: ...

def process_probe(pid: int) -> tuple[int, int]: ...

class _Directory:
    count: int
    size: int
    def __init__(self, buffer: Any) -> None: ...
    @classmethod
    def lay_out(cls: type[_D], buffer: Any) -> _D: ...
    @classmethod
    def open_or_create(cls: type[_D], path: str | None = None) -> tuple[_D, mmap.mmap, bool]: ...
    def release(self) -> None: ...
    def state(self, i: int) -> tuple[int, int]: ...
    def remove_stale(self, me: int, probe: Callable[[int], tuple[int, int]] = ...) -> int: ...
    def register(self, pid: int, process_time: int, host_version: str, probe: Callable[[int], tuple[int, int]] = ...) -> tuple[int, int]: ...
    def unregister(self, row_index: int, pid: int, process_time: int) -> bool: ...
    def list(self) -> tuple[list[DirectoryHost], int]: ...

_D = TypeVar(\"_D\", bound=_Directory)
";

#[cfg(test)]
mod tests {
    use super::TEMPLATE;
    use crate::ir::result_codes::{Family, codes};

    /// The template names every directory check through `check.<name>`, printed from the
    /// one list: it spells no code's name as a string of its own.
    #[test]
    fn the_template_spells_no_check_name() {
        for c in codes(Family::Directory) {
            let literal = format!("\"{}\"", c.name);
            assert!(
                !TEMPLATE.source.contains(&literal),
                "python_directory.py.j2 writes {literal}: write \"{{{{ check.{} }}}}\"",
                c.name
            );
        }
    }
}
