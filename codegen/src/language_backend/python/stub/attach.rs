//! The stub's attach section: `AttachError` with its attributes, a handle class per layout
//! with a method per row (what it hands out, and `None` only where the region may be
//! absent), `attach`, `VersionedRecord` and `read_versioned`. It reads the context
//! `attach.rs` rendered the module's section from.

use std::fmt::Write as _;

use super::types::{StructExtras, shield_builtins};
use crate::ir::attach::CHECKS;
use crate::language_backend::python::attach::AttachSection;

/// The stub's side of the attach section: the context `attach.rs` rendered the module's
/// section from, whose names the stub types.
pub(super) use crate::language_backend::python::attach::AttachContext as AttachStub;
use crate::language_backend::python::attach::{RowData as Row, TableData as Table};

/// What every attach section has; `{error}` and `{record}` are the classes' names.
const HELPERS: &str = r#"
_AttachCheck: TypeAlias = Literal[{checks}]

class {error}(ValueError):
    check: _AttachCheck
    region: str
    expected: int | None
    found: int | None
    offset: int | None
    size: int | None
    limit: int | None
    align: int | None
    other: str | None
    def __init__(
        self,
        check: _AttachCheck,
        region: str = "",
        expected: int | None = None,
        found: int | None = None,
        offset: int | None = None,
        size: int | None = None,
        limit: int | None = None,
        align: int | None = None,
        other: str | None = None,
    ) -> None: ...
    @property
    def retryable(self) -> bool: ...

class _AttachHandle:
    def __init__(
        self,
        source: object,
        offset: int,
        extent: int,
        spans: tuple[tuple[int, int] | None, ...],
        values: tuple[int | None, ...],
        path: str,
        minor: int,
    ) -> None: ...
    @property
    def offset(self) -> int: ...
    @property
    def extent(self) -> int: ...
    @property
    def rows(self) -> tuple[str, ...]: ...
    def region(self, name: str) -> tuple[int, int] | None: ...
    def release(self) -> None: ...
    def __enter__(self: _Self) -> _Self: ...
    def __exit__(self, *exc_info: object) -> None: ...

_Record = TypeVar("_Record", bound=_Struct)

class {record}(Generic[_Record]):
    value: _Record
    producer: tuple[int, int]
    size: int
    extra: bytes
    absent: frozenset[str]
    def __init__(
        self,
        value: _Record,
        producer: tuple[int, int],
        size: int,
        extra: bytes,
        absent: frozenset[str],
    ) -> None: ...
    def __class_getitem__(cls, record: object) -> type[{record}[Any]]: ...
    # record.field is value.field, or None when the producer lacks it: a type per field
    # is more than a stub can say, so record.value.field is the typed read.
    def __getattr__(self, name: str) -> Any: ...
"#;

impl AttachStub {
    pub(super) fn new(attach: AttachSection) -> AttachStub {
        attach.context
    }

    /// `Struct.read_versioned(buffer)`, the class method of each record with a handshake.
    pub(super) fn struct_extras(&self, extras: &mut StructExtras) {
        for h in self.handshakes.iter().filter(|h| h.method) {
            let line = format!(
                "    @classmethod\n    def {}(cls, buffer: _Buffer) -> {}[{}]: ...",
                self.read_versioned, self.record, h.class
            );
            extras.entry(h.class.clone()).or_default().push(line);
        }
    }

    pub(super) fn write(&self, out: &mut String) {
        let checks: Vec<String> = CHECKS.iter().map(|c| format!("\"{c}\"")).collect();
        out.push_str(
            &HELPERS
                .replace("{checks}", &checks.join(", "))
                .replace("{error}", &self.error)
                .replace("{record}", &self.record),
        );
        for t in &self.tables {
            let mut class = format!("\nclass {}(_AttachHandle):\n", t.class);
            if t.root {
                class.push_str(
                    "    @property\n    def producer(self) -> tuple[int, int]: ...\n    \
                     @property\n    def header_size(self) -> int: ...\n",
                );
                if let Some(l) = self.root.and_then(|(_, h)| self.handshakes[h].liveness()) {
                    let generation = if l { "int" } else { "None" };
                    let _ = write!(
                        class,
                        "    @property\n    def generation(self) -> {generation}: ...\n    \
                         def reloaded(self) -> bool: ...\n"
                    );
                }
            }
            for r in &t.rows {
                let _ = writeln!(class, "    def {}{}: ...", r.method, row_signature(t, r));
            }
            if !t.root && t.rows.is_empty() {
                class.push_str("    pass\n");
            }
            out.push_str(&shield_builtins(&class));
        }
        out.push('\n');
        if let Some((root, _)) = self.root {
            let class = &self.tables[root].class;
            let _ = writeln!(out, "def {}(buffer: _Buffer) -> {class}: ...", self.attach);
            let _ = write!(
                out,
                "\nclass {e}(ValueError):\n    kind: str\n    region: str\n    \
                 expected: int | None\n    found: int | None\n    def __init__(\n        \
                 self,\n        kind: str,\n        region: str = \"\",\n        \
                 expected: int | None = None,\n        found: int | None = None,\n    \
                 ) -> None: ...\n\n\
                 def {lay_out}(geometry: dict[str, int] | None = None, generation: int = 1) -> bytearray: ...\n\
                 def {produce}(buffer: _Buffer, image: bytes | bytearray) -> {class}: ...\n",
                e = self.produce_error,
                lay_out = self.lay_out,
                produce = self.produce,
            );
            if let Some((stamp, _)) = &self.stamp_identity {
                let _ = writeln!(
                    out,
                    "def {stamp}(\n    image: bytearray,\n    version: str | bytes = \"\",\n    \
                     pid: int | None = None,\n    mono_ns: int | None = None,\n    \
                     unix_ns: int | None = None,\n) -> None: ..."
                );
            }
        }
        let (name, record) = (&self.read_versioned, &self.record);
        match self.handshakes.as_slice() {
            // It raises TypeError for every class.
            [] => {
                let _ = writeln!(
                    out,
                    "def {name}(cls: type[_Struct], buffer: _Buffer) -> NoReturn: ..."
                );
            }
            [h] => {
                let c = &h.class;
                let _ = writeln!(
                    out,
                    "def {name}(cls: type[{c}], buffer: _Buffer) -> {record}[{c}]: ..."
                );
            }
            many => {
                for h in many {
                    let c = &h.class;
                    let _ = writeln!(
                        out,
                        "@overload\ndef {name}(cls: type[{c}], buffer: _Buffer) -> {record}[{c}]: ..."
                    );
                }
            }
        }
    }
}

/// A row method's signature after its name. A region a producer may leave out (an
/// optional row, or one a later minor version added) can be `None`, and so can a block
/// (its index may be out of range); a region attach requires never is.
fn row_signature(t: &Table, r: &Row) -> String {
    let may_lack = |r: &Row| r.optional || r.since_minor.is_some();
    let head_may_lack = r
        .head_row
        .is_some_and(|h| t.rows.get(h).is_none_or(may_lack));
    let class = match r.kind {
        "bytes" => "memoryview",
        _ => &r.class,
    };
    if r.kind == "blocks" {
        format!("(self, index: int) -> {class} | None")
    } else if may_lack(r) || head_may_lack {
        format!("(self) -> {class} | None")
    } else {
        format!("(self) -> {class}")
    }
}
