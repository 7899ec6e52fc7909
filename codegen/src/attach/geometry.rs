//! `geometry = "EXPR"` on a header field: which number of the schema the field holds as the
//! writer built it, whether a reader must find the schema's value there (`Equal`) or follows
//! the writer's (`Follow`: a ring's slot count or slot size, a blocks row's stride, a struct
//! row's `bytes`, or `*`, an area the writer sizes), and what each region then needs.

use super::LowerAttach;
use crate::diagnostics::Span;
use crate::ir::StructId;
use crate::ir::access::RingKind;
use crate::ir::attach::{Attach, Holds, LayoutTable};
use crate::ir::geometry::{Follows, Geometry, GeometryRule, Need, NeedTerm, TableGeometry};
use crate::ir::scalar::Scalar;
use crate::ir::{Elem, Prim};
use crate::parse::{RawSchema, RawValue};

/// An expression as the schema wrote it, without spaces: what two declarations compare by.
fn plain(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn value_text(v: &RawValue) -> String {
    match v {
        RawValue::Int(i) => i.to_string(),
        RawValue::Expr(t) => plain(t),
    }
}

impl LowerAttach<'_> {
    /// Lowers every field's `geometry`, then gives each table the geometry it reads and each
    /// row what it needs of the values it follows.
    pub(super) fn lower_geometry(&mut self, raw: &RawSchema, attach: &mut Attach) {
        for (si, rs) in StructId::enumerate(&raw.structs) {
            let mut seen: Vec<(String, usize)> = Vec::new();
            for (fi, rf) in rs.get_ref().fields.get_ref().iter().enumerate() {
                let Some(expr) = &rf.get_ref().geometry else {
                    continue;
                };
                let Some(g) = self.lower_one(raw, attach, si, fi, expr) else {
                    continue;
                };
                let key = plain(&g.expr);
                if let Some((_, other)) = seen.iter().find(|(k, _)| *k == key && k != "*") {
                    let s = &self.abi.structs[si];
                    self.errors.error_help(
                        &self.inner(expr),
                        format!(
                            "struct `{}`, field `{}`: geometry `{}` is already field `{}`'s",
                            s.name, s.fields[fi].name, g.expr, s.fields[*other].name
                        ),
                        "one field holds each number; drop one of the two `geometry` keys",
                    );
                    continue;
                }
                seen.push((key, fi));
                attach.geometry.push(g);
            }
        }
        if self.errors.is_empty() {
            for li in 0..attach.layouts.len() {
                self.table_geometry(raw, attach, li);
            }
        }
    }

    /// One field's declaration, checked: a struct a layout reads, an unsigned integer field
    /// that is not an array, a known expression whose value fits the field.
    fn lower_one(
        &mut self,
        raw: &RawSchema,
        attach: &Attach,
        si: StructId,
        fi: usize,
        expr: &toml::Spanned<String>,
    ) -> Option<Geometry> {
        let s = &self.abi.structs[si];
        let f = &s.fields[fi];
        let what = format!("struct `{}`, field `{}`, geometry", s.name, f.name);
        let span = self.inner(expr);
        let headers = attach.layouts.iter().any(|l| l.header == si);
        let held = attach.layouts.iter().any(|l| {
            l.rows.iter().any(|r| {
                matches!(r.holds, Holds::Struct { struct_index, .. } if struct_index == si)
                    && l.header != si
            })
        });
        if !headers && !held {
            self.errors.error_help(
                &span,
                format!(
                    "{what}: `{}` is neither a layout's header nor a struct a layout row holds, so no reader checks it",
                    s.name
                ),
                "declare `geometry` on a field of a [[layout]]'s header, or of a struct a row holds",
            );
            return None;
        }
        let width = match (f.ty.elem, f.ty.len) {
            (Elem::Prim(p @ (Prim::U8 | Prim::U16 | Prim::U32 | Prim::U64)), None) => p.size(),
            _ => {
                self.errors.error_help(
                    &span,
                    format!(
                        "{what}: `{}` is `{}`; it must be an unsigned integer",
                        f.name, f.ty.text
                    ),
                    "put `geometry` on a u8, u16, u32 or u64 field",
                );
                return None;
            }
        };
        let text = expr.get_ref().trim().to_string();
        let value = if text == "*" {
            if !held {
                self.errors.error_help(
                    &span,
                    format!(
                        "{what}: `*` (an area the writer sizes) needs a region to fit in, and no layout row holds `{}`",
                        s.name
                    ),
                    "use `*` on a field of a struct a layout row holds, or name the schema's number",
                );
                return None;
            }
            None
        } else {
            Some(self.eval_geometry(&text, &span, &what, width)?)
        };
        let rule = self.geometry_rule(raw, attach, si, &text);
        Some(Geometry {
            struct_index: si,
            field: fi,
            scalar: Scalar {
                path: f.name.clone(),
                offset: self.layout.of(si).fields[fi].offset,
                width,
            },
            expr: text,
            value,
            rule,
        })
    }

    fn eval_geometry(&mut self, text: &str, span: &Span, what: &str, width: u64) -> Option<u64> {
        let lookup = |name: &str| self.value_of(name);
        let max = (1i128 << (8 * width)) - 1;
        match crate::expr::eval(text, &lookup) {
            Ok(v) if (1..=max).contains(&v) => Some(v as u64),
            Ok(v) => {
                self.errors.error_help(
                    span,
                    format!("{what}: `{text}` is {v}, which a {width}-byte field cannot hold as a size or count (1 to {max})"),
                    "name a positive number that fits the field",
                );
                None
            }
            Err(e) => {
                self.errors.error_help(
                    span,
                    format!("{what}: {e}"),
                    "write a constant expression in which a struct's name stands for its size, or `*` for an area the writer sizes",
                );
                None
            }
        }
    }

    /// `Follow` where a view sizes itself by the number (a ring's slots, a stride between
    /// blocks, a struct row's `bytes`, an area `*`); `Equal` everywhere else.
    fn geometry_rule(
        &self,
        raw: &RawSchema,
        attach: &Attach,
        si: StructId,
        text: &str,
    ) -> GeometryRule {
        if text == "*" {
            return GeometryRule::Follow { least: 1, align: 1 };
        }
        let key = plain(text);
        for (li, l) in attach.layouts.iter().enumerate() {
            let raw_rows = raw.layouts[li].get_ref().rows.get_ref();
            for row in &l.rows {
                let Some(rr) = raw_rows
                    .iter()
                    .find(|r| *r.get_ref().name.get_ref() == row.name)
                else {
                    continue;
                };
                let rr = rr.get_ref();
                let stride = rr.stride.as_ref().map(|v| value_text(v.get_ref()));
                let bytes = rr.bytes.as_ref().map(|v| value_text(v.get_ref()));
                match row.holds {
                    Holds::Ring { ring } if l.header == si => {
                        if let Some(rule) = self.ring_rule(ring, &key) {
                            return rule;
                        }
                    }
                    Holds::Blocks { layout, .. }
                        if l.header == si && stride.as_deref() == Some(key.as_str()) =>
                    {
                        let t = &attach.layouts[layout];
                        let least = self.layout.of(t.header).size.next_multiple_of(t.align);
                        return GeometryRule::Follow {
                            least,
                            align: t.align,
                        };
                    }
                    Holds::Struct { struct_index, .. }
                        if struct_index == si
                            && l.header != si
                            && bytes.as_deref() == Some(key.as_str()) =>
                    {
                        let align = self.layout.of(si).align;
                        return GeometryRule::Follow {
                            least: align,
                            align,
                        };
                    }
                    _ => {}
                }
            }
        }
        GeometryRule::Equal
    }

    fn ring_rule(&self, ring: usize, key: &str) -> Option<GeometryRule> {
        let RingKind::Slots {
            slot_count_const,
            slot_size_const,
            seqlock,
            ..
        } = self.access.rings[ring].kind
        else {
            return None;
        };
        if self.abi.consts[slot_count_const].name == key {
            return Some(GeometryRule::Follow { least: 1, align: 1 });
        }
        if self.abi.consts[slot_size_const].name == key {
            let slot = self.access.seqlocks[seqlock].struct_index;
            let (least, align) = self.with_trailer(slot);
            return Some(GeometryRule::Follow { least, align });
        }
        None
    }

    /// Table `li`'s geometry (its header's fields, then each struct row's), and each row's
    /// need and least size with the values it follows.
    fn table_geometry(&mut self, raw: &RawSchema, attach: &mut Attach, li: usize) {
        let header = attach.layouts[li].header;
        let mut list: Vec<TableGeometry> = Vec::new();
        let of = |si: StructId, row: Option<usize>, list: &mut Vec<TableGeometry>| {
            for (gi, g) in attach.geometry.iter().enumerate() {
                if g.struct_index == si {
                    list.push(TableGeometry { geometry: gi, row });
                }
            }
        };
        of(header, None, &mut list);
        for (ri, row) in attach.layouts[li].rows.iter().enumerate() {
            if let Holds::Struct { struct_index, .. } = row.holds
                && struct_index != header
            {
                of(struct_index, Some(ri), &mut list);
            }
        }
        let raw_rows = raw.layouts[li].get_ref().rows.get_ref();
        let followed = |list: &[TableGeometry], row: Option<usize>, key: &str| {
            list.iter().position(|t| {
                let g = &attach.geometry[t.geometry];
                t.row == row
                    && matches!(g.rule, GeometryRule::Follow { .. })
                    && plain(&g.expr) == key
            })
        };
        let least = |t: usize| match attach.geometry[list[t].geometry].rule {
            GeometryRule::Follow { least, .. } => least,
            GeometryRule::Equal => 0,
        };
        let mut updates = Vec::new();
        for (ri, row) in attach.layouts[li].rows.iter().enumerate() {
            let rr = raw_rows
                .iter()
                .find(|r| *r.get_ref().name.get_ref() == row.name)
                .map(|r| r.get_ref());
            let update = match row.holds {
                Holds::Ring { ring } => {
                    let RingKind::Slots {
                        slot_count,
                        slot_count_const,
                        slot_size,
                        slot_size_const,
                        ..
                    } = self.access.rings[ring].kind
                    else {
                        continue;
                    };
                    let count = followed(&list, None, &self.abi.consts[slot_count_const].name);
                    let size = followed(&list, None, &self.abi.consts[slot_size_const].name);
                    if count.is_none() && size.is_none() {
                        continue;
                    }
                    let factor = count.map_or(slot_count, |_| 1) * size.map_or(slot_size, |_| 1);
                    let min = count.map_or(slot_count, least) * size.map_or(slot_size, least);
                    let terms = vec![NeedTerm {
                        factor,
                        geometry: count.into_iter().chain(size).collect(),
                    }];
                    (Need { fixed: 0, terms }, min, Follows { count, size })
                }
                Holds::Blocks { count, .. } => {
                    let key = rr
                        .and_then(|r| r.stride.as_ref())
                        .map(|v| value_text(v.get_ref()));
                    let Some(stride) = key.and_then(|k| followed(&list, None, &k)) else {
                        continue;
                    };
                    let terms = vec![NeedTerm {
                        factor: count,
                        geometry: vec![stride],
                    }];
                    let follows = Follows {
                        count: None,
                        size: Some(stride),
                    };
                    (Need { fixed: 0, terms }, count * least(stride), follows)
                }
                Holds::Struct {
                    struct_index,
                    count,
                    bytes,
                } if struct_index != header => {
                    let key = rr
                        .and_then(|r| r.bytes.as_ref())
                        .map(|v| value_text(v.get_ref()));
                    let by_bytes = key.and_then(|k| followed(&list, Some(ri), &k));
                    let areas: Vec<usize> = (0..list.len())
                        .filter(|&t| list[t].row == Some(ri))
                        .filter(|&t| attach.geometry[list[t].geometry].expr == "*")
                        .collect();
                    if by_bytes.is_none() && areas.is_empty() {
                        continue;
                    }
                    let (each, _) = self.with_trailer(struct_index);
                    let fixed = count * each + by_bytes.map_or(bytes, |_| 0);
                    let terms: Vec<NeedTerm> = by_bytes
                        .into_iter()
                        .chain(areas)
                        .map(|t| NeedTerm {
                            factor: 1,
                            geometry: vec![t],
                        })
                        .collect();
                    let min = fixed + terms.iter().map(|t| least(t.geometry[0])).sum::<u64>();
                    (Need { fixed, terms }, min, Follows::default())
                }
                _ => continue,
            };
            updates.push((ri, update));
        }
        let l: &mut LayoutTable = &mut attach.layouts[li];
        l.geometry = list;
        for (ri, (need, min, follows)) in updates {
            let row = &mut l.rows[ri];
            row.need = Some(need);
            row.min_size = min;
            row.follows = follows;
        }
    }
}
