//! Field types: `name[len]` split, resolved to a primitive, `char`, enum or struct, and
//! its array length to an integer or a constant.

use std::collections::HashMap;
use std::fmt::Display;

use toml::Spanned;

use super::context::{ConstTable, Lower, TypeName};
use crate::diagnostics::Span;
use crate::diagnostics::closest;
use crate::expr;
use crate::ir::{ArrayLen, Elem, Prim, Type};
use crate::parse::RawSchema;

/// The names used as array lengths (`T[name]`) anywhere in the schema.
pub(super) fn collect_array_len_names(raw: &RawSchema) -> HashMap<String, Span> {
    let mut out = HashMap::new();
    for s in &raw.structs {
        for f in s.get_ref().fields.get_ref() {
            if let Ok((_, Some(len))) = split_type(f.get_ref().ty.get_ref())
                && len.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            {
                out.entry(len.to_string())
                    .or_insert_with(|| f.get_ref().ty.span());
            }
        }
    }
    out
}

/// Splits `name[len]` into its parts.
fn split_type(text: &str) -> Result<(&str, Option<&str>), String> {
    let text = text.trim();
    match text.find('[') {
        None => Ok((text, None)),
        Some(open) => {
            let close = text
                .rfind(']')
                .filter(|c| *c == text.len() - 1)
                .ok_or("expected `]` at the end of the type")?;
            let inner = text[open + 1..close].trim();
            if inner.contains('[') || inner.contains(']') || text[..open].contains(']') {
                return Err(
                    "arrays of arrays are not supported; wrap the inner array in a struct".into(),
                );
            }
            Ok((text[..open].trim(), Some(inner)))
        }
    }
}

impl Lower<'_> {
    pub(super) fn lower_type(
        &mut self,
        ty: &Spanned<String>,
        what: &dyn Display,
        types: &HashMap<String, TypeName>,
        consts: &ConstTable,
    ) -> Option<Type> {
        let span = self.inner(ty);
        let (base, len) = match split_type(ty.get_ref()) {
            Ok(parts) => parts,
            Err(e) => {
                self.errors
                    .error(&span, format!("{what}: type `{}`: {e}", ty.get_ref()));
                return None;
            }
        };
        let elem = if let Some(p) = Prim::from_name(base) {
            Elem::Prim(p)
        } else if base == "char" {
            if len.is_none() {
                self.errors.error_help(
                    &span,
                    format!("{what}: `char` needs a length"),
                    "write fixed text as `char[N]`",
                );
                return None;
            }
            Elem::Char
        } else if let Some(t) = types.get(base) {
            match *t {
                TypeName::Enum(i) => Elem::Enum(i),
                TypeName::Struct(i) => Elem::Struct(i),
            }
        } else {
            let candidates = Prim::ALL
                .iter()
                .map(|p| p.name())
                .chain(["char"])
                .chain(types.keys().map(String::as_str));
            let is_const = consts.find(base).is_some() || self.failed_consts.contains(base);
            let help = match closest(base, candidates) {
                Some(c) if !is_const => format!("did you mean `{c}`?"),
                _ if is_const => format!("a constant can size an array, as in `u32[{base}]`; a type is a primitive (u8 ... f64), `char[N]`, or an enum, flag set or struct"),
                _ => "use a primitive (u8 ... f64), `char[N]`, or the name of an enum, flag set or struct".into(),
            };
            let msg = if is_const {
                format!("{what}: `{base}` is a constant, not a type")
            } else {
                format!("{what}: unknown type `{base}`")
            };
            self.errors.error_help(&span, msg, help);
            return None;
        };
        let len = match len {
            None => None,
            Some(l) => {
                let (count, constant) = if let Some(i) = consts.find(l) {
                    (consts.list[i].value, Some(i))
                } else if let Some(v) = expr::parse_int_literal(l) {
                    (v, None)
                } else if self.names_failed_const(l) {
                    return None;
                } else {
                    let is_name = l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        && !l.starts_with(|c: char| c.is_ascii_digit());
                    let help = match closest(l, consts.names()) {
                        Some(c) if is_name => format!("did you mean `{c}`?"),
                        _ if !l.contains(|c: char| "+-*/%<>&|^() ".contains(c)) => {
                            "write a positive integer or the name of a constant".into()
                        }
                        _ => format!(
                            "an array length is an integer or a constant's name, not an expression: \
                             declare a [[const]] with value = \"{l}\" and use its name"
                        ),
                    };
                    let problem = if is_name {
                        "is not a constant"
                    } else {
                        "is neither an integer nor the name of a constant"
                    };
                    self.errors.error_help(
                        &span,
                        format!("{what}: array length `{l}` {problem}"),
                        help,
                    );
                    return None;
                };
                if count <= 0 || count > i128::from(u32::MAX) {
                    // A constant that sizes an array is checked, and reported, where it is
                    // declared; only a literal length is reported here.
                    if constant.is_none() {
                        self.errors.error_help(
                            &span,
                            format!("{what}: array length {count} is not between 1 and 4294967295"),
                            "an array holds at least one element",
                        );
                    }
                    return None;
                }
                Some(ArrayLen {
                    count: count as u64,
                    constant,
                })
            }
        };
        Some(Type {
            elem,
            len,
            text: ty.get_ref().trim().to_string(),
        })
    }
}
