//! Trailers: what follows a struct in its region, each part resolved, placed after the
//! struct and the parts before it, and checked for alignment and its size field.

use toml::Spanned;

use crate::diagnostics::closest;
use crate::expr;
use crate::ir::StructId;
use crate::ir::access::TrailerPart;
use crate::ir::names::is_snake_case;
use crate::ir::{ArrayLen, Elem, Prim, Type};
use crate::lower::after_layout::AfterLayout;

impl AfterLayout<'_> {
    pub(super) fn lower_trailer(
        &mut self,
        si: StructId,
        parts: &Spanned<Vec<Spanned<crate::parse::RawTrailerPart>>>,
    ) -> Vec<TrailerPart> {
        let s = &self.abi.structs[si];
        let mut offset = self.layout.of(si).size;
        let mut out: Vec<TrailerPart> = Vec::new();
        for p in parts.get_ref() {
            let rp = p.get_ref();
            let name = rp.name.get_ref();
            let what = format!("struct `{}`, trailer part `{name}`", s.name);
            if !is_snake_case(name) {
                self.errors.error(
                    &self.inner(&rp.name),
                    format!("{what}: the name is not snake_case"),
                );
            }
            if out.iter().any(|t| t.name == *name) || s.fields.iter().any(|f| f.name == *name) {
                self.errors.error(
                    &self.inner(&rp.name),
                    format!(
                        "{what}: the name is already a field or trailer part of `{}`",
                        s.name
                    ),
                );
            }
            let Some((ty, elem_size, align)) = self.resolve_type(&rp.ty, &what) else {
                continue;
            };
            if offset % align != 0 {
                let gap = align - offset % align;
                self.errors.error_help(
                    &self.inner(&rp.ty),
                    format!("{what}: `{}` needs {align}-byte alignment but would start at offset {offset:#x} ({offset})", ty.text),
                    format!("declare the padding before it as a trailer part, `{{ name = \"_pad{offset}\", type = \"u8[{gap}]\" }}`, or reorder the parts"),
                );
            }
            let size_field = rp.size.as_ref().and_then(|sf| {
                let fname = sf.get_ref();
                let Some(i) = s.fields.iter().position(|f| f.name == *fname) else {
                    let help = closest(fname, s.fields.iter().map(|f| f.name.as_str()))
                        .map_or(
                            format!("name the unsigned integer field of `{}` that holds the part's length in bytes", s.name),
                            |c| format!("did you mean `{c}`?"),
                        );
                    self.errors.error_help(
                        &self.inner(sf),
                        format!("{what}: `size = \"{fname}\"`: struct `{}` has no field `{fname}`", s.name),
                        help,
                    );
                    return None;
                };
                let ty = &s.fields[i].ty;
                let ok = matches!(ty.elem, Elem::Prim(p) if p.is_integer() && !p.is_signed())
                    && ty.len.is_none();
                if !ok {
                    self.errors.error_help(
                        &self.inner(sf),
                        format!(
                            "{what}: `size = \"{fname}\"` names field `{}.{fname}` of type `{}`, and a part's length in bytes is an unsigned integer",
                            s.name, ty.text
                        ),
                        format!("make `{}.{fname}` a u16, u32 or u64, or name another field", s.name),
                    );
                }
                Some(i).filter(|_| ok)
            });
            let size = elem_size * ty.count();
            out.push(TrailerPart {
                name: name.clone(),
                ty,
                doc: rp
                    .doc
                    .as_ref()
                    .map(|d| d.get_ref().clone())
                    .unwrap_or_default(),
                offset,
                size,
                align,
                elem_size,
                size_field,
                span: p.span(),
            });
            offset += size;
        }
        out
    }

    /// A trailer part's type: a primitive, enum or struct, or an array of one.
    fn resolve_type(&mut self, t: &Spanned<String>, what: &str) -> Option<(Type, u64, u64)> {
        let text = t.get_ref().trim();
        let (base, len) = match text.split_once('[') {
            Some((b, rest)) => match rest.strip_suffix(']') {
                Some(l) => (b.trim(), Some(l.trim())),
                None => (text, None),
            },
            None => (text, None),
        };
        let (elem, size, align) = if let Some(p) = Prim::from_name(base) {
            (Elem::Prim(p), p.size(), p.size())
        } else if let Some(i) = self.abi.find_struct(base) {
            let l = self.layout.of(i);
            (Elem::Struct(i), l.size, l.align)
        } else if let Some(i) = self.abi.enums.iter().position(|e| e.name == base) {
            let n = self.abi.enums[i].repr.size();
            (Elem::Enum(i), n, n)
        } else if base == "char" {
            let bytes = len.map_or("u8[N]".to_string(), |l| format!("u8[{l}]"));
            self.errors.error_help(
                &self.inner(t),
                format!("{what}: a trailer part is not text (`{text}`)"),
                format!("declare its bytes as `{bytes}`, and say in its `doc` that they hold text"),
            );
            return None;
        } else {
            let names = Prim::ALL
                .iter()
                .map(|p| p.name())
                .chain(self.abi.enums.iter().map(|e| e.name.as_str()))
                .chain(self.abi.structs.iter().map(|s| s.name.as_str()));
            let help = match closest(base, names) {
                Some(c) => format!("did you mean `{c}`?"),
                None => {
                    "name a primitive, enum or struct, or an array of one: `param_def[max_params]`"
                        .into()
                }
            };
            self.errors.error_help(
                &self.inner(t),
                format!("{what}: unknown type `{base}`"),
                help,
            );
            return None;
        };
        let len = match len {
            None => None,
            Some(l) => {
                let count = match self.abi.find_const(l) {
                    Some(c) => Some((self.abi.consts[c].value, Some(c))),
                    None => expr::parse_int_literal(l).map(|v| (v, None)),
                };
                match count {
                    Some((n, constant)) if n > 0 && n <= i128::from(u32::MAX) => Some(ArrayLen {
                        count: n as u64,
                        constant,
                    }),
                    _ => {
                        self.errors.error(
                            &self.inner(t),
                            format!(
                                "{what}: array length `{l}` is not a positive integer or constant"
                            ),
                        );
                        return None;
                    }
                }
            }
        };
        let ty = Type {
            elem,
            len,
            text: text.to_string(),
        };
        Some((ty, size, align))
    }
}
