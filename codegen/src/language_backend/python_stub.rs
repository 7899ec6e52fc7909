//! The Python module's type stub (`bridge.pyi`), for editors and mypy: every constant, enum
//! and flag class with its members, every struct with the type of each field as Python
//! reads it (an enum field is its `int`, with a `<field>_enum` property of its class), and
//! the text helpers; then the live section (`live.rs`: every view, seqlock value, ring and
//! atomic helper with its methods' signatures) and the attach section (`attach.rs`: the
//! handles, `attach` and `read_versioned`), typed from the same contexts the module's
//! sections are rendered from, so that `mypy --strict` checks a bot's use of shared memory.

mod attach;
mod live;

use std::collections::HashMap;
use std::fmt::Write as _;

use super::python::{Names, python_field_alias, python_int_literal};
use super::python_repr::repr_context;
use super::{RenderError, generated_line};
use crate::Schema;
use crate::ir::names::upper;
use crate::ir::{Abi, Elem, EnumKind, Prim, Type};

/// Methods the live and attach sections add to struct classes (`Snapshot.events_since`,
/// `Snapshot.read_versioned`): stub lines, by class name.
type StructExtras = HashMap<String, Vec<String>>;

/// Renders the stub of the Python module of `schema`. `source` is the schema's file name
/// for the generated-file line.
pub fn render_python_stub(schema: &Schema, source: &str) -> Result<String, RenderError> {
    let abi = &schema.abi;
    let names = Names::new(abi);
    let live = super::python_live::render_live(schema, &names)?;
    let attach = super::python_attach::render_attach(schema, &names, live.as_ref())?;
    let live = live
        .map(|l| live::LiveStub::new(schema, &names, l))
        .transpose()?;
    let attach = attach.map(attach::AttachStub::new);
    let mut extras = StructExtras::new();
    if let Some(live) = &live {
        live.struct_extras(schema, &names, &mut extras)?;
    }
    if let Some(attach) = &attach {
        attach.struct_extras(&mut extras);
    }
    let shared = live.is_some() || attach.is_some();
    // The body first: its classes decide whether the imports need `builtins`.
    let mut out = String::with_capacity(64 * 1024);
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
        write_struct(&mut out, abi, &names, i, extra);
    }
    if shared {
        out.push_str(SHARED_HELPERS);
    }
    if let Some(live) = &live {
        live.write(&mut out, schema, &names)?;
    }
    if let Some(attach) = &attach {
        attach.write(&mut out);
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

fn write_struct(out: &mut String, abi: &Abi, names: &Names, index: usize, extra: &[String]) {
    let mut class = String::new();
    write_struct_body(&mut class, abi, names, index, extra);
    out.push_str(&shield_builtins(&class));
}

fn write_struct_body(out: &mut String, abi: &Abi, names: &Names, index: usize, extra: &[String]) {
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

/// The builtins the stub's annotations name. A class member of the same name (a field
/// `int`, a view method `bytes`) would shadow one for the class's lines after it.
const BUILTIN_TYPES: [&str; 12] = [
    "int",
    "float",
    "bytes",
    "bytearray",
    "memoryview",
    "str",
    "bool",
    "list",
    "tuple",
    "frozenset",
    "object",
    "type",
];

/// One class of the stub (its `class` line and members) with every builtin that a member
/// shadows written `builtins.int` where it is a type; the names themselves (`int: ...`,
/// `def int(`, `@int.setter`) and comments stay as they are.
fn shield_builtins(class: &str) -> String {
    let declares = |name: &str| {
        class.lines().any(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("def ").unwrap_or(line);
            (line.strip_prefix(name)).is_some_and(|rest| rest.starts_with([':', '(']))
        })
    };
    let shadowed: Vec<&str> = BUILTIN_TYPES.into_iter().filter(|b| declares(b)).collect();
    if shadowed.is_empty() {
        return class.to_string();
    }
    let mut out = String::with_capacity(class.len() + 64);
    for line in class.split_inclusive('\n') {
        let (code, comment) = line.split_at(line.find('#').unwrap_or(line.len()));
        let mut rest = code;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let len = rest[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len() - start);
            let (before, word, after) = (
                &rest[..start],
                &rest[start..start + len],
                &rest[start + len..],
            );
            let done = &code[..code.len() - rest.len() + start];
            // A name, not a type: the first word of its line, a method's, a decorator's,
            // an attribute's, or a parameter's (followed by `:` after `(` or `, `).
            let name = done.trim().is_empty()
                || done.ends_with("def ")
                || done.ends_with(['@', '.'])
                || (after.starts_with(':') && done.ends_with(['(', ' ']) && !done.ends_with("> "));
            out.push_str(before);
            if shadowed.contains(&word) && !name {
                out.push_str("builtins.");
            }
            out.push_str(word);
            rest = after;
        }
        out.push_str(rest);
        out.push_str(comment);
    }
    out
}

/// A field's type as Python reads it: `int`, `float`, `bytes` for text, the struct's class,
/// or `_Array[...]` of those.
fn field_type(names: &Names, ty: &Type) -> String {
    match (ty.elem, ty.len) {
        (Elem::Char, _) => "bytes".to_string(),
        (_, Some(_)) => format!("_Array[{}]", elem_type(names, ty)),
        (_, None) => elem_type(names, ty),
    }
}

/// The type of one element of `ty`: `int` (an enum's number too), `float`, `bytes` (a char)
/// or the struct's class.
fn elem_type(names: &Names, ty: &Type) -> String {
    match ty.elem {
        Elem::Prim(Prim::F32 | Prim::F64) => "float".to_string(),
        Elem::Prim(_) | Elem::Enum(_) => "int".to_string(),
        Elem::Char => "bytes".to_string(),
        Elem::Struct(i) => names.structs[i].clone(),
    }
}

/// A value of `ty` copied out of shared memory as its ctypes type (`_copy`): the struct's
/// class, `_Array[...]`, `ctypes.Array[ctypes.c_char]` for text (a ctypes array, not the
/// `bytes` a struct field reads as), or the number.
fn copy_type(names: &Names, ty: &Type) -> String {
    match (ty.elem, ty.len) {
        (Elem::Char, Some(_)) => "ctypes.Array[ctypes.c_char]".to_string(),
        (Elem::Char, None) => "ctypes.c_char".to_string(),
        (_, _) => field_type(names, ty),
    }
}

/// What a store of `ty` takes (`_value_bytes`): an instance of its type, any iterable of
/// an array's elements, or `bytes` or a `str` for text.
fn put_type(names: &Names, ty: &Type) -> String {
    match (ty.elem, ty.len) {
        (Elem::Char, _) => "bytes | bytearray | str | ctypes.Array[ctypes.c_char]".to_string(),
        (_, Some(_)) => format!("Iterable[{}]", elem_type(names, ty)),
        (_, None) => elem_type(names, ty),
    }
}

#[cfg(test)]
mod tests {
    use super::shield_builtins;

    #[test]
    fn a_member_named_after_a_builtin_leaves_the_names_and_qualifies_the_types() {
        let class = "\nclass S(_Struct):\n    a: int\n    int: int\n    bytes: _Array[int]\n    \
                     @property\n    def float(self) -> float: ...\n    @float.setter\n    \
                     def float(self, value: float | int) -> None: ...\n    \
                     # an int, a float\n    def x(self, n: str) -> tuple[int, bytes]: ...\n";
        assert_eq!(
            shield_builtins(class),
            "\nclass S(_Struct):\n    a: builtins.int\n    int: builtins.int\n    \
             bytes: _Array[builtins.int]\n    @property\n    \
             def float(self) -> builtins.float: ...\n    @float.setter\n    \
             def float(self, value: builtins.float | builtins.int) -> None: ...\n    \
             # an int, a float\n    \
             def x(self, n: str) -> tuple[builtins.int, builtins.bytes]: ...\n"
        );
        let plain = "\nclass T(_Struct):\n    x: int\n    def y(self) -> bytes: ...\n";
        assert_eq!(shield_builtins(plain), plain);
    }
}
