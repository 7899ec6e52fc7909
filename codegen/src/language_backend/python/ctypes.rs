//! The ctypes type of a field (`ctypes.c_uint32 * MAX_SHIPS`), and the type a docstring
//! names for it (`Ship[MAX_SHIPS]`, `ClientState (u32)`).

use std::fmt::Write as _;

use super::names::Names;
use crate::ir::{Abi, Elem, Prim, Type};

fn prim_ctype(p: Prim) -> &'static str {
    match p {
        Prim::U8 => "ctypes.c_uint8",
        Prim::U16 => "ctypes.c_uint16",
        Prim::U32 => "ctypes.c_uint32",
        Prim::U64 => "ctypes.c_uint64",
        Prim::I8 => "ctypes.c_int8",
        Prim::I16 => "ctypes.c_int16",
        Prim::I32 => "ctypes.c_int32",
        Prim::I64 => "ctypes.c_int64",
        Prim::F32 => "ctypes.c_float",
        Prim::F64 => "ctypes.c_double",
    }
}

/// Appends the array length as Python writes it, the constant's name when the schema
/// named one, after `before`; nothing when the field is not an array.
fn push_len(out: &mut String, names: &Names, ty: &Type, before: &str, after: &str) {
    if let Some(l) = ty.len {
        out.push_str(before);
        match l.constant {
            Some(c) => out.push_str(&names.consts[c]),
            // Writing to a String cannot fail.
            None => {
                let _ = write!(out, "{}", l.count);
            }
        }
        out.push_str(after);
    }
}

/// The ctypes type of a field: enums are their fixed-width integer.
pub(in crate::language_backend::python) fn render_ctype(
    abi: &Abi,
    names: &Names,
    ty: &Type,
) -> String {
    let elem = match ty.elem {
        Elem::Prim(p) => prim_ctype(p),
        Elem::Char => "ctypes.c_char",
        Elem::Enum(e) => prim_ctype(abi.enums[e].repr),
        Elem::Struct(s) => &names.structs[s],
    };
    let mut out = String::with_capacity(elem.len() + 24);
    out.push_str(elem);
    push_len(&mut out, names, ty, " * ", "");
    out
}

/// Appends a field's type for the docstring: `u32`, `ClientState (u32)`,
/// `Ship[MAX_SHIPS]`, or `char[CLIENT_NAME_LEN] (text)`.
pub(super) fn push_type_description(out: &mut String, abi: &Abi, names: &Names, ty: &Type) {
    // Writing to a String cannot fail.
    match ty.elem {
        Elem::Prim(p) => {
            let _ = write!(out, "{p}");
            push_len(out, names, ty, "[", "]");
        }
        Elem::Char => {
            out.push_str("char");
            push_len(out, names, ty, "[", "]");
            out.push_str(" (text)");
        }
        Elem::Enum(e) => {
            out.push_str(&names.enums[e]);
            push_len(out, names, ty, "[", "]");
            let _ = write!(out, " ({})", abi.enums[e].repr);
        }
        Elem::Struct(s) => {
            out.push_str(&names.structs[s]);
            push_len(out, names, ty, "[", "]");
        }
    }
}
