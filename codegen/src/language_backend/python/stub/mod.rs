//! The Python module's type stub (`bridge.pyi`), for editors and mypy: every constant, enum
//! and flag class with its members, every struct with the type of each field as Python
//! reads it (an enum field is its `int`, with a `<field>_enum` property of its class), and
//! the text helpers; then the live section (`live.rs`: every view, seqlock value, ring and
//! atomic helper with its methods' signatures) and the attach section (`attach.rs`: the
//! handles, `attach` and `read_versioned`), typed from the same contexts the module's
//! sections are rendered from, so that `mypy --strict` checks a bot's use of shared memory.
//! How the stub spells a type is in `types.rs`.

mod attach;
mod live;
mod protocols;
mod recording;
mod types;

use std::fmt::Write as _;

use super::attach::AttachSection;
use super::literals::python_int_literal;
use super::live::LiveSection;
use super::names::{Names, python_field_alias};
use super::recording::RecordingSection;
use super::repr::repr_context;
use crate::ir::StructId;
use crate::ir::names::upper;
use crate::ir::{Abi, Elem, EnumKind};
use crate::language_backend::output::{RenderError, generated_line};
use crate::schema::Schema;
use types::{StructExtras, field_type, shield_builtins};

/// Renders the stub of the Python module of `schema` from the module's names and its live
/// and attach sections. `source` is the schema's file name for the generated-file line.
pub(super) fn render_stub(
    schema: &Schema,
    source: &str,
    names: &Names,
    all: &[String],
    (live, attach, recording): (
        Option<LiveSection>,
        Option<AttachSection>,
        Option<RecordingSection>,
    ),
) -> Result<String, RenderError> {
    let abi = &schema.abi;
    let live = live
        .map(|l| live::LiveStub::new(schema, names, l))
        .transpose()?;
    let attach = attach.map(attach::AttachStub::new);
    let mut extras = StructExtras::new();
    if let Some(live) = &live {
        live.struct_extras(schema, names, &mut extras)?;
    }
    if let Some(attach) = &attach {
        attach.struct_extras(&mut extras);
    }
    let shared = live.is_some() || attach.is_some();
    // The body first: its classes decide whether the imports need `builtins`.
    let mut out = String::with_capacity(64 * 1024);
    let listed: Vec<String> = all.iter().map(|n| format!("\"{n}\"")).collect();
    let _ = writeln!(out, "__all__ = [{}]", listed.join(", "));
    for (c, name) in abi.consts.iter().zip(&names.consts) {
        let _ = writeln!(
            out,
            "{name}: Final = {}",
            python_int_literal(&c.literal, c.value)
        );
    }
    let _ = writeln!(out, "ABI_VERSION_MAJOR: Final = {}", abi.version.major);
    let _ = writeln!(out, "ABI_VERSION_MINOR: Final = {}", abi.version.minor);
    let _ = writeln!(
        out,
        "ABI_VERSION: Final = \"{}.{}\"",
        abi.version.major, abi.version.minor
    );
    out.push_str(HELPERS);
    if abi
        .structs
        .iter()
        .flat_map(|s| &s.fields)
        .any(|f| f.ty.elem == Elem::Char)
    {
        out.push_str(TEXT_HELPERS);
    }
    // mypy refuses an enum with no members in a stub (it cannot tell one from a stub that
    // declares its members the old way, `member: int`): the base class has none.
    if abi.enums.iter().any(|e| e.kind == EnumKind::Enum) {
        out.push_str("\nclass _OpenIntEnum(enum.IntEnum): ...  # type: ignore[misc]\n");
    }
    for (e, name) in abi.enums.iter().zip(&names.enums) {
        let base = match e.kind {
            EnumKind::Enum => "_OpenIntEnum",
            EnumKind::Flags => "enum.IntFlag",
        };
        let _ = writeln!(out, "\nclass {name}({base}):");
        if e.values.is_empty() {
            out.push_str("    pass\n");
        }
        for v in &e.values {
            let value = python_int_literal(&v.literal, v.value);
            let _ = writeln!(out, "    {} = {value}", upper(&v.name));
        }
    }
    for &i in &schema.layout.order {
        let extra = extras.get(&names.structs[i]).map_or(&[][..], Vec::as_slice);
        write_struct(&mut out, abi, names, i, extra);
    }
    if shared {
        out.push_str(SHARED_HELPERS);
    }
    if let Some(live) = &live {
        live.write(&mut out, schema, names)?;
        if !schema.protocols.is_empty() {
            protocols::write_protocols(&mut out, &live.protocols);
        }
        out.push_str(&super::directory::stub(schema));
        out.push_str(&super::service::stub(schema));
    }
    if let Some(attach) = &attach {
        attach.write(&mut out);
        if let (Some((root, _)), true) = (attach.root, live.is_some()) {
            out.push_str(&super::relayout::stub(schema, &attach.tables[root].class));
        }
    }
    if let Some(recording) = &recording {
        recording::write_recording(&mut out, &recording.context);
    }
    let mut stub = String::with_capacity(out.len() + 512);
    // Writing to a String cannot fail.
    let _ = writeln!(stub, "# {}", generated_line(source));
    let _ = writeln!(
        stub,
        "\"\"\"Type stub of `{}.py`, the Python bindings of the `{}` ABI {}.\"\"\"\n",
        abi.name, abi.name, abi.version
    );
    if out.contains("builtins.") {
        stub.push_str("import builtins\n");
    }

    stub.push_str(if shared {
        "import array\nimport ctypes\nimport enum\nimport mmap\n\
         from collections.abc import Iterable, Iterator\n\
         from typing import Any, ClassVar, Final, Generic, Literal, NoReturn, TypeAlias, TypeVar, overload\n\n"
    } else {
        "import ctypes\nimport enum\nfrom collections.abc import Iterator\n\
         from typing import Any, ClassVar, Final, Generic, TypeVar, overload\n\n"
    });
    if recording.is_some() {
        stub.push_str("import os\nfrom typing import IO\n\n");
    }
    if out.contains("Callable[") {
        stub.push_str("from collections.abc import Callable\n\n");
    }
    stub.push_str(&out);
    Ok(stub)
}

/// What every stub with structs has: the array type and the struct base class.
const HELPERS: &str = r#"
_T = TypeVar("_T")

class _Array(Generic[_T]):
    """A ctypes array field, whose entries read as _T (the stub's name; at run time it is
    a ctypes.Array)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> _T: ...
    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...
    def __setitem__(self, index: int, value: _T) -> None: ...
    def __iter__(self) -> Iterator[_T]: ...

class _Struct(ctypes.LittleEndianStructure):
    # ctypes' own stubs let any attribute through; a struct has only its fields.
    __getattr__: None  # type: ignore[assignment, misc]
    __setattr__: None  # type: ignore[assignment, misc]
    _Counts: ClassVar[dict[str, tuple[str, ...]]]
    _Enums: ClassVar[dict[str, type[enum.IntEnum] | type[enum.IntFlag]]]
"#;

/// What the live and attach sections share: the buffers they take, and `with` blocks.
const SHARED_HELPERS: &str = r#"
# A buffer the live views and attach take: any contiguous one (bytes and an mmap opened
# with ACCESS_READ for reads only).
_Buffer: TypeAlias = bytes | bytearray | memoryview | mmap.mmap | array.array[Any]
_Self = TypeVar("_Self")
"#;

const TEXT_HELPERS: &str = r#"
def text(value: bytes) -> str: ...
def set_text(record: ctypes.Structure, field: str, value: str) -> None: ...
"#;

fn write_struct(out: &mut String, abi: &Abi, names: &Names, index: StructId, extra: &[String]) {
    let mut class = String::new();
    write_struct_body(&mut class, abi, names, index, extra);
    out.push_str(&shield_builtins(&class));
}

fn write_struct_body(
    out: &mut String,
    abi: &Abi,
    names: &Names,
    index: StructId,
    extra: &[String],
) {
    let s = &abi.structs[index];
    let _ = writeln!(out, "\nclass {}(_Struct):", names.structs[index]);
    let mut any = false;
    for f in &s.fields {
        let ty = field_type(names, &f.ty);
        match python_field_alias(&f.name) {
            // `class: int` does not parse: the keyword field is typed through its alias.
            Some(alias) => write_property(out, &alias, &ty, &ty),
            None => {
                let _ = writeln!(out, "    {}: {ty}", f.name);
            }
        }
        any = true;
    }
    for p in repr_context(abi, names, s).properties {
        if p.array {
            let _ = writeln!(
                out,
                "    @property\n    def {}(self) -> list[{}]: ...",
                p.name, p.class
            );
        } else {
            write_property(out, &p.name, &p.class, &format!("{} | int", p.class));
        }
        any = true;
    }
    for line in extra {
        let _ = writeln!(out, "{line}");
        any = true;
    }
    if !any {
        out.push_str("    pass\n");
    }
}

fn write_property(out: &mut String, name: &str, get: &str, set: &str) {
    let _ = writeln!(
        out,
        "    @property\n    def {name}(self) -> {get}: ...\n    @{name}.setter\n    def {name}(self, value: {set}) -> None: ..."
    );
}
