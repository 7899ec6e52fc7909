//! A struct's own access: who writes it, and each field's `access` (plain, atomic or
//! compare-and-swap) and writers, with the checks that an atomic word is a naturally
//! aligned integer of a size that can be one.

use toml::Spanned;

use crate::diagnostics::closest;
use crate::ir::StructId;
use crate::ir::access::{AccessKind, FieldAccess, Parties, StructAccess};
use crate::ir::{Elem, Prim, Type};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawStruct;

impl AfterLayout<'_> {
    pub(super) fn lower_struct_access(&mut self, si: StructId, raw: &RawStruct) -> StructAccess {
        let s = &self.abi.structs[si];
        let sl = self.layout.of(si);
        let what = format!("struct `{}`", s.name);
        let writers = match &raw.writer {
            Some(w) => self.lower_parties_value(w, &what),
            None => Parties::default(),
        };
        let mut fields = Vec::with_capacity(s.fields.len());
        for (fi, rf) in raw.fields.get_ref().iter().enumerate() {
            let rf = rf.get_ref();
            let f = &s.fields[fi];
            let fwhat = format!("field `{}.{}`", s.name, f.name);
            let kind = match &rf.access {
                None => AccessKind::Plain,
                Some(a) => self.lower_access_kind(
                    a,
                    &fwhat,
                    &f.ty,
                    sl.fields[fi].offset,
                    (&s.name, sl.align),
                ),
            };
            let own = rf
                .writer
                .as_ref()
                .map(|w| self.lower_parties_value(w, &fwhat));
            fields.push(FieldAccess {
                kind,
                writers: own.unwrap_or_else(|| writers.clone()),
                guarded_by: None,
            });
        }
        let trailer = match &raw.trailer {
            Some(parts) => self.lower_trailer(si, parts),
            None => Vec::new(),
        };
        StructAccess {
            shared: raw.writer.is_some(),
            writers,
            fields,
            trailer,
            seqlocks: Vec::new(),
            guarded_whole: false,
            needs_view: false,
            has_view: false,
        }
    }

    /// `access = "atomic"` or `"cas"` on a field of type `ty` at `offset` in a struct
    /// (its name and alignment).
    fn lower_access_kind(
        &mut self,
        a: &Spanned<String>,
        what: &str,
        ty: &Type,
        offset: u64,
        (struct_name, struct_align): (&str, u64),
    ) -> AccessKind {
        let span = self.inner(a);
        let keyword = a.get_ref().as_str();
        let cas = match keyword {
            "atomic" => false,
            "cas" => true,
            "plain" => return AccessKind::Plain,
            other => {
                let help = match closest(other, ["plain", "atomic", "cas"].into_iter()) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => "write `atomic` (loaded and stored as one word) or `cas` (also claimed by compare-and-swap)".into(),
                };
                self.errors
                    .error_help(&span, format!("{what}: unknown access `{other}`"), help);
                return AccessKind::Plain;
            }
        };
        let elem = match ty.elem {
            Elem::Prim(p) if p.is_integer() => Some(p.size()),
            Elem::Enum(e) => Some(self.abi.enums[e].repr.size()),
            _ => None,
        };
        let Some(elem_size) = elem else {
            let help = match ty.elem {
                Elem::Prim(p @ (Prim::F32 | Prim::F64)) => format!(
                    "an atomic word is an integer: guard the field with a [[seqlock]], or store the float's bits in a u{}",
                    p.size() * 8
                ),
                _ => "an atomic word is an integer: guard the field with a [[seqlock]] instead"
                    .to_string(),
            };
            self.errors.error_help(
                &span,
                format!(
                    "{what}: `access = \"{keyword}\"` needs an integer, enum or flag set, not `{}`",
                    ty.text
                ),
                help,
            );
            return AccessKind::Plain;
        };
        let width = elem_size * ty.count();
        if ty.len.is_some() && !cas {
            let help = if width == 4 || width == 8 {
                format!(
                    "to claim all {width} bytes as one word, write `access = \"cas\"`; otherwise guard the array with a [[seqlock]]"
                )
            } else {
                "declare one atomic field per element, or guard the array with a [[seqlock]]"
                    .to_string()
            };
            self.errors.error_help(
                &span,
                format!(
                    "{what}: `access = \"atomic\"` is one word, and `{}` is an array of {} elements",
                    ty.text,
                    ty.count()
                ),
                help,
            );
            return AccessKind::Plain;
        }
        if cas && width != 4 && width != 8 {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a compare-and-swap word is 4 or 8 bytes, and `{}` is {width} bytes",
                    ty.text
                ),
                "claim a u32 or u64 field, or an array of 4 or 8 bytes in all (`u8[4]`) as one word",
            );
            return AccessKind::Plain;
        }
        let noun = if cas { "compare-and-swap" } else { "atomic" };
        if offset % width != 0 {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a {width}-byte {noun} word must be naturally aligned, and it starts at offset {offset:#x} ({offset}), not a multiple of {width}"
                ),
                format!("move it to an offset that is a multiple of {width}: declare padding before it, or reorder the fields"),
            );
            return AccessKind::Plain;
        }
        if struct_align < width {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: a {width}-byte {noun} word must be naturally aligned, and struct `{struct_name}` is aligned to only {struct_align}, so the word is misaligned wherever the struct is placed"
                ),
                format!(
                    "a struct is aligned like its widest field: give `{struct_name}` a field of {width} bytes or more, or claim a `u{}` field instead of `{}`",
                    width * 8,
                    ty.text
                ),
            );
            return AccessKind::Plain;
        }
        if cas {
            AccessKind::Cas { width }
        } else {
            AccessKind::Atomic { width }
        }
    }
}
