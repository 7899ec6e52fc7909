//! Lowers the schema's attach declarations (a struct's `version` handshake, `[[layout]]`
//! tables) into [`Attach`], after the layout and the access declarations: a handshake
//! field's offset, a region's least size and alignment are facts of the layout, and a
//! region may hold a `[[ring]]`.

mod geometry;
mod handshake;
mod identity;
mod links;
mod owners;
mod row;
mod table;

use toml::Spanned;

use crate::diagnostics::closest;
use crate::diagnostics::{Errors, SchemaErrors, Span, string_span};
use crate::ir::StructId;
use crate::ir::access::Access;
use crate::ir::attach::Attach;
use crate::ir::protocol::Protocol;
use crate::ir::scalar::Scalar;
use crate::ir::{Abi, Elem, Prim};
use crate::layout::Layout;
use crate::parse::{RawSchema, RawValue};

/// Lowers and checks every attach declaration of `raw`.
pub fn lower_attach(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
    access: &Access,
    protocols: &[Protocol],
) -> Result<Attach, SchemaErrors> {
    let mut cx = LowerAttach {
        src,
        abi,
        layout,
        access,
        errors: Errors::new(),
        failed_records: Vec::new(),
    };
    let handshakes = StructId::enumerate(&raw.structs)
        .filter_map(|(i, s)| {
            let version = s.get_ref().version.as_ref()?;
            cx.lower_handshake(i, s.get_ref(), version)
        })
        .collect();
    cx.errors.propagate()?;
    let layouts = cx.lower_layouts(raw);
    cx.errors.propagate()?;
    let mut attach = Attach {
        handshakes,
        layouts,
        root: None,
        files: Vec::new(),
        geometry: Vec::new(),
    };
    cx.shorten_extensible_rows(&mut attach);
    cx.find_root(raw, &mut attach);
    cx.check_handle_names(raw);
    cx.link_owners(raw, protocols, &mut attach);
    cx.errors.propagate()?;
    cx.lower_geometry(raw, &mut attach);
    cx.errors.propagate()?;
    // `[[file]]` formats, in this context: lower/file.rs.
    attach.files = cx.lower_files(raw);
    cx.errors.propagate()?;
    Ok(attach)
}

pub(crate) struct LowerAttach<'a> {
    pub(crate) src: &'a str,
    pub(crate) abi: &'a Abi,
    pub(crate) layout: &'a Layout,
    pub(crate) access: &'a Access,
    pub(crate) errors: Errors,
    /// The records of the `[[file]]` being lowered that had errors: a later record that
    /// names one is not an error of its own.
    pub(crate) failed_records: Vec<String>,
}

impl LowerAttach<'_> {
    pub(crate) fn inner(&self, s: &Spanned<String>) -> Span {
        string_span(self.src, s)
    }

    /// "did you mean `x`?", or `fallback`.
    pub(crate) fn suggest<'n>(
        name: &str,
        candidates: impl Iterator<Item = &'n str>,
        fallback: impl Into<String>,
    ) -> String {
        closest(name, candidates).map_or(fallback.into(), |c| format!("did you mean `{c}`?"))
    }

    pub(crate) fn find_struct(&mut self, name: &Spanned<String>, what: &str) -> Option<StructId> {
        let found = self.abi.find_struct(name.get_ref());
        if found.is_none() {
            let help = Self::suggest(
                name.get_ref(),
                self.abi.structs.iter().map(|s| s.name.as_str()),
                "name a struct of this schema",
            );
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: unknown struct `{}`", name.get_ref()),
                help,
            );
        }
        found
    }

    /// A path such as `header.schema_minor` from struct `si` down to a field that is not
    /// an array, through nested struct fields: its field indices and its offset.
    pub(crate) fn resolve_path(
        &mut self,
        si: StructId,
        path: &Spanned<String>,
        what: &str,
    ) -> Option<(Vec<usize>, u64)> {
        let mut at = si;
        let mut offset = 0;
        let mut fields = Vec::new();
        let parts: Vec<&str> = path.get_ref().split('.').collect();
        for (k, part) in parts.iter().enumerate() {
            let s = &self.abi.structs[at];
            let Some(fi) = s.fields.iter().position(|f| f.name == *part) else {
                let help = Self::suggest(
                    part,
                    s.fields.iter().map(|f| f.name.as_str()),
                    format!("name a field of `{}`", s.name),
                );
                self.errors.error_help(
                    &self.inner(path),
                    format!("{what}: struct `{}` has no field `{part}`", s.name),
                    help,
                );
                return None;
            };
            offset += self.layout.of(at).fields[fi].offset;
            fields.push(fi);
            let f = &s.fields[fi];
            if k + 1 < parts.len() {
                match (f.ty.elem, f.ty.len) {
                    (Elem::Struct(j), None) => at = j,
                    _ => {
                        self.errors.error_help(
                            &self.inner(path),
                            format!(
                                "{what}: `{}` is `{}`, not a struct to go into",
                                f.name, f.ty.text
                            ),
                            "a path goes through struct fields that are not arrays",
                        );
                        return None;
                    }
                }
            } else {
                let _ = at;
            }
        }
        Some((fields, offset))
    }

    /// A path to an unsigned integer field (not an array, not an enum): what a handshake,
    /// a row's offset and size, an extent or a row count is read from.
    pub(crate) fn resolve_unsigned(
        &mut self,
        si: StructId,
        path: &Spanned<String>,
        what: &str,
    ) -> Option<Scalar> {
        let (fields, offset) = self.resolve_path(si, path, what)?;
        let field = self.field_at(si, &fields);
        match (field.ty.elem, field.ty.len) {
            (Elem::Prim(p @ (Prim::U8 | Prim::U16 | Prim::U32 | Prim::U64)), None) => {
                Some(Scalar {
                    path: path.get_ref().clone(),
                    offset,
                    width: p.size(),
                })
            }
            _ => {
                self.errors.error_help(
                    &self.inner(path),
                    format!(
                        "{what}: `{}` is `{}`; it must be an unsigned integer (u8, u16, u32 or u64)",
                        path.get_ref(),
                        field.ty.text
                    ),
                    "name a u8, u16, u32 or u64 field",
                );
                None
            }
        }
    }

    /// The field at the end of a resolved path.
    pub(crate) fn field_at(&self, si: StructId, fields: &[usize]) -> &crate::ir::Field {
        let mut s = &self.abi.structs[si];
        let (last, through) = fields.split_last().expect("a path has a field");
        for &fi in through {
            let Elem::Struct(j) = s.fields[fi].ty.elem else {
                unreachable!("resolve_path goes through structs only")
            };
            s = &self.abi.structs[j];
        }
        &s.fields[*last]
    }

    /// A constant's value, or a struct's size: what a name in a constant expression means.
    fn value_of(&self, name: &str) -> Option<i128> {
        if let Some(i) = self.abi.find_const(name) {
            return Some(self.abi.consts[i].value);
        }
        let si = self.abi.find_struct(name)?;
        Some(i128::from(self.layout.of(si).size))
    }

    /// A count, stride or byte size: an integer, or an expression over constants in which a
    /// struct's name stands for its size.
    pub(crate) fn eval(
        &mut self,
        value: &Spanned<RawValue>,
        what: &str,
        least: i128,
    ) -> Option<u64> {
        let lookup = |name: &str| self.value_of(name);
        let result = match value.get_ref() {
            RawValue::Int(v) => Ok(i128::from(*v)),
            RawValue::Expr(text) => crate::expr::eval(text, &lookup),
        };
        match result {
            Ok(v) if v >= least && v <= i128::from(crate::layout::MAX_SIZE) => Some(v as u64),
            Ok(v) => {
                self.errors.error(
                    &value.span(),
                    format!(
                        "{what} is {v}; it must be between {least} and {}",
                        crate::layout::MAX_SIZE
                    ),
                );
                None
            }
            Err(e) => {
                self.errors.error_help(
                    &value.span(),
                    format!("{what}: {e}"),
                    "write an integer, or an expression over constants in which a struct's name stands for its size",
                );
                None
            }
        }
    }
}
