//! The Python module's type stub (`bridge.pyi`), for editors and mypy: every constant, enum
//! and flag class with its members, every struct with the type of each field as Python
//! reads it (an enum field is its `int`, with a `<field>_enum` property of its class), and
//! the text helpers. The live and attach sections are declared by name with loose types
//! (`Any`): their classes and functions exist for the checker, their methods are not typed.

use std::fmt::Write as _;

use super::python::{Names, python_field_alias, python_int_literal};
use super::python_repr::repr_context;
use super::{RenderError, generated_line};
use crate::Schema;
use crate::ir::names::upper;
use crate::ir::{Abi, Elem, EnumKind, Prim, Type};

/// Renders the stub of the Python module of `schema`. `source` is the schema's file name
/// for the generated-file line.
pub fn render_python_stub(schema: &Schema, source: &str) -> Result<String, RenderError> {
    let abi = &schema.abi;
    let names = Names::new(abi);
    let live = super::python_live::render_live(schema, &names)?;
    let attach = super::python_attach::render_attach(schema, &names, live.as_ref())?;
    let mut out = String::with_capacity(64 * 1024);
    // Writing to a String cannot fail.
    let _ = writeln!(out, "# {}", generated_line(source));
    let _ = writeln!(
        out,
        "\"\"\"Type stub of `{}.py`, the Python bindings of the `{}` ABI {}.\"\"\"\n",
        abi.name, abi.name, abi.version
    );
    out.push_str(
        "import ctypes\nimport enum\nfrom collections.abc import Iterator\n\
         from typing import Any, ClassVar, Final, Generic, TypeVar, overload\n\n",
    );
    for (c, name) in abi.consts.iter().zip(&names.consts) {
        let _ = writeln!(
            out,
            "{name}: Final = {}",
            python_int_literal(&c.literal, c.value)
        );
    }
    let _ = writeln!(out, "ABI_VERSION_MAJOR: Final = {}", abi.version.major);
    let _ = writeln!(out, "ABI_VERSION_MINOR: Final = {}", abi.version.minor);
    out.push_str(HELPERS);
    if abi
        .structs
        .iter()
        .flat_map(|s| &s.fields)
        .any(|f| f.ty.elem == Elem::Char)
    {
        out.push_str(TEXT_HELPERS);
    }
    if abi.enums.iter().any(|e| e.kind == EnumKind::Enum) {
        out.push_str("\nclass _OpenIntEnum(enum.IntEnum): ...\n");
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
        write_struct(&mut out, abi, &names, i);
    }
    if let Some(live) = &live {
        out.push_str("\n# Live access: declared, not typed.\n");
        for name in &live.exports {
            let base = (name == &live.unavailable_error || name == &live.contended_error)
                .then_some("RuntimeError");
            write_loose(&mut out, name, base);
        }
    }
    if let Some(attach) = &attach {
        out.push_str("\n# Attaching: declared, not typed.\n");
        for name in &attach.exports {
            write_loose(
                &mut out,
                name,
                (name == &attach.error).then_some("ValueError"),
            );
        }
    }
    Ok(out)
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

const TEXT_HELPERS: &str = r#"
def text(value: bytes) -> str: ...
def set_text(record: ctypes.Structure, field: str, value: str) -> None: ...
"#;

fn write_struct(out: &mut String, abi: &Abi, names: &Names, index: usize) {
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

/// A public name of the live or attach section: a class (an exception of `base`), or a
/// function when it is lowercase.
fn write_loose(out: &mut String, name: &str, base: Option<&str>) {
    if name.starts_with(|c: char| c.is_ascii_lowercase()) {
        let _ = writeln!(out, "def {name}(*args: Any, **kwargs: Any) -> Any: ...");
    } else if let Some(base) = base {
        let _ = writeln!(
            out,
            "class {name}({base}):\n    def __getattr__(self, name: str) -> Any: ..."
        );
    } else {
        let _ = writeln!(
            out,
            "class {name}:\n    def __init__(self, *args: Any, **kwargs: Any) -> None: ...\n    def __getattr__(self, name: str) -> Any: ..."
        );
    }
}

/// A field's type as Python reads it: `int`, `float`, `bytes` for text, the struct's class,
/// or `_Array[...]` of those.
fn field_type(names: &Names, ty: &Type) -> String {
    let elem = match ty.elem {
        Elem::Prim(Prim::F32 | Prim::F64) => "float".to_string(),
        Elem::Prim(_) | Elem::Enum(_) => "int".to_string(),
        Elem::Char => return "bytes".to_string(),
        Elem::Struct(i) => names.structs[i].clone(),
    };
    match ty.len {
        Some(_) => format!("_Array[{elem}]"),
        None => elem,
    }
}
