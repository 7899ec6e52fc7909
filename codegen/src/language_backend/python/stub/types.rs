//! How the stub spells types, which every part of it uses: a field's type as Python reads
//! it, a copy's and a store's, builtins that a class member shadows, and the extra lines
//! the live and attach sections add to struct classes.

use std::collections::HashMap;

use crate::ir::{Elem, Prim, Type};
use crate::language_backend::python::names::Names;

/// Methods the live and attach sections add to struct classes (`Snapshot.events_since`,
/// `Snapshot.read_versioned`): stub lines, by class name.
pub(super) type StructExtras = HashMap<String, Vec<String>>;

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
pub(super) fn shield_builtins(class: &str) -> String {
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
pub(super) fn field_type(names: &Names, ty: &Type) -> String {
    match (ty.elem, ty.len) {
        (Elem::Char, _) => "bytes".to_string(),
        (_, Some(_)) => format!("_Array[{}]", elem_type(names, ty)),
        (_, None) => elem_type(names, ty),
    }
}

/// The type of one element of `ty`: `int` (an enum's number too), `float`, `bytes` (a char)
/// or the struct's class.
pub(super) fn elem_type(names: &Names, ty: &Type) -> String {
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
pub(super) fn copy_type(names: &Names, ty: &Type) -> String {
    match (ty.elem, ty.len) {
        (Elem::Char, Some(_)) => "ctypes.Array[ctypes.c_char]".to_string(),
        (Elem::Char, None) => "ctypes.c_char".to_string(),
        (_, _) => field_type(names, ty),
    }
}

/// What a store of `ty` takes (`_value_bytes`): an instance of its type, any iterable of
/// an array's elements, or `bytes` or a `str` for text.
pub(super) fn put_type(names: &Names, ty: &Type) -> String {
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
