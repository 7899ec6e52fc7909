//! The C spelling of the schema's items: type and field names, the macros of constants and
//! enum values, the fixed-width type of a primitive, and a field's element type and array
//! length.

use std::borrow::Cow;

use super::literals::render_int_literal;
use crate::ir::names::is_c_reserved_word;
use crate::ir::{Abi, Elem, Prim, Type};

/// The C name of a field: its schema name, with a trailing `_` when it is a reserved word
/// or starts with `<prefix>_` (see the module doc).
pub fn c_field_name(name: &str, prefix: &str) -> String {
    field_name(name, prefix).into_owned()
}

/// [`c_field_name`], borrowing the schema name when it stays.
pub(super) fn field_name<'a>(name: &'a str, prefix: &str) -> Cow<'a, str> {
    let type_like = name
        .strip_prefix(prefix)
        .is_some_and(|rest| rest.starts_with('_'));
    if is_c_reserved_word(name) || type_like {
        Cow::Owned(format!("{name}_"))
    } else {
        Cow::Borrowed(name)
    }
}

/// The C name of an enum, flag set or struct: `<prefix>_<name>`. Lowering rejects a name
/// that this makes a reserved word (`and` + `eq`).
pub fn c_type_name(name: &str, prefix: &str) -> String {
    format!("{prefix}_{name}")
}

/// The macro of a constant, `IBF_MAX_CLIENTS`.
pub(super) fn const_macro(prefix: &str, name: &str) -> String {
    let mut m = String::with_capacity(prefix.len() + 1 + name.len());
    m.push_str(prefix);
    m.push('_');
    m.push_str(name);
    m.make_ascii_uppercase();
    m
}

/// The macro of an enum or flag value, `IBF_PHASE_PLAYING`, from the enum's
/// `IBF_PHASE_` ([`value_macro_prefix`]).
pub(super) fn value_macro(value_prefix: &str, value_name: &str) -> String {
    let mut m = String::with_capacity(value_prefix.len() + value_name.len());
    m.push_str(value_prefix);
    m.extend(value_name.chars().map(|c| c.to_ascii_uppercase()));
    m
}

/// What the macros of an enum's values start with, `IBF_PHASE_`.
pub(super) fn value_macro_prefix(prefix: &str, enum_name: &str) -> String {
    let mut m = const_macro(prefix, enum_name);
    m.push('_');
    m
}

/// The fixed-width C type of a primitive.
pub(super) fn prim_type(p: Prim) -> &'static str {
    match p {
        Prim::U8 => "uint8_t",
        Prim::U16 => "uint16_t",
        Prim::U32 => "uint32_t",
        Prim::U64 => "uint64_t",
        Prim::I8 => "int8_t",
        Prim::I16 => "int16_t",
        Prim::I32 => "int32_t",
        Prim::I64 => "int64_t",
        Prim::F32 => "float",
        Prim::F64 => "double",
    }
}

/// The C type of one element of a field.
pub(in crate::language_backend::c) fn field_type(abi: &Abi, ty: &Type) -> Cow<'static, str> {
    let prefix = abi.c_prefix.as_str();
    match ty.elem {
        Elem::Prim(p) => Cow::Borrowed(prim_type(p)),
        Elem::Char => Cow::Borrowed("char"),
        Elem::Enum(i) => Cow::Owned(c_type_name(&abi.enums[i].name, prefix)),
        Elem::Struct(i) => Cow::Owned(c_type_name(&abi.structs[i].name, prefix)),
    }
}

/// The array length of a field: the constant's macro when the schema named one, else the
/// literal as the schema wrote it; empty when the field is not an array.
pub(in crate::language_backend::c) fn array_len(abi: &Abi, ty: &Type) -> String {
    let Some(len) = ty.len else {
        return String::new();
    };
    if let Some(c) = len.constant {
        return const_macro(&abi.c_prefix, &abi.consts[c].name);
    }
    let written = ty
        .text
        .split_once('[')
        .and_then(|(_, rest)| rest.strip_suffix(']'))
        .unwrap_or("");
    render_int_literal(i128::from(len.count), written, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names() {
        for (name, c) in [
            ("class", "class_"),
            ("and_eq", "and_eq_"),
            ("bool", "bool_"),
            ("uint8_t", "uint8_t_"),
            ("ibf_phase", "ibf_phase_"),
            ("type", "type"),
            ("ibfx", "ibfx"),
            ("ibf", "ibf"),
            ("_pad3", "_pad3"),
        ] {
            assert_eq!(c_field_name(name, "ibf"), c, "{name}");
        }
        assert_eq!(c_type_name("match", "ibf"), "ibf_match");
    }
}
