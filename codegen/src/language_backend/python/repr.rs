//! What a Python struct class knows beyond its `_fields_`: the count field of each counted
//! array and the enum or flag class of each enum field, which its `__repr__` follows, and
//! the `<field>_enum` properties that read an enum field as its class.

use serde::Serialize;

use super::names::{Names, python_field_alias};
use crate::ir::{Abi, Elem, Struct};

/// The suffix of the property that reads an enum or flag field as its class.
pub(super) const ENUM_PROPERTY_SUFFIX: &str = "_enum";

/// A struct's tables for `__repr__` and its enum properties.
#[derive(Serialize, Default)]
pub(super) struct ReprContext {
    /// `("ships", "(\"ship_count\",)")`: a counted array and the path to its count field,
    /// as a Python tuple of field names.
    pub counts: Vec<(String, String)>,
    /// `("phase", "Phase")`: a field of enum or flag type and its class.
    pub enums: Vec<(String, String)>,
    pub properties: Vec<EnumProperty>,
}

/// `phase_enum`: the field `phase` read as `Phase` (a list of them for an array).
#[derive(Serialize)]
pub(super) struct EnumProperty {
    pub name: String,
    pub field: String,
    pub class: String,
    pub array: bool,
}

/// The tables of struct `s`. A field whose property name another field or alias already
/// takes gets no property.
pub(super) fn repr_context(abi: &Abi, names: &Names, s: &Struct) -> ReprContext {
    let mut context = ReprContext::default();
    let taken = |name: &str| {
        s.fields
            .iter()
            .any(|f| f.name == name || python_field_alias(&f.name).as_deref() == Some(name))
    };
    for f in s.fields.iter().filter(|f| !f.is_padding()) {
        if let Some(c) = &f.count {
            let path: Vec<String> = c
                .field_names(abi, s)
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect();
            let comma = if path.len() == 1 { "," } else { "" };
            let path = format!("({}{comma})", path.join(", "));
            context.counts.push((f.name.clone(), path));
        }
        if let Elem::Enum(e) = f.ty.elem {
            let class = names.enums[e].clone();
            context.enums.push((f.name.clone(), class.clone()));
            let name = format!("{}{ENUM_PROPERTY_SUFFIX}", f.name);
            if !taken(&name) {
                context.properties.push(EnumProperty {
                    name,
                    field: f.name.clone(),
                    class,
                    array: f.ty.len.is_some(),
                });
            }
        }
    }
    context
}
