//! Values: constant values and types, enum and flag values, and the constant
//! expressions both may hold.

use std::collections::HashMap;
use std::fmt::Display;

use toml::Spanned;

use super::context::{ConstTable, Labeled, Lower, MemberName, text};
use crate::diagnostics::Span;
use crate::expr;
use crate::ir::names::upper;
use crate::ir::{ConstType, Constant, Enum, EnumKind, EnumValue, Prim, Version, order_error};
use crate::parse::{RawConst, RawEnum, RawValue};

impl Lower<'_> {
    pub(super) fn lower_value(
        &mut self,
        value: &Spanned<RawValue>,
        what: &dyn Display,
        lookup: &dyn Fn(&str) -> Option<i128>,
    ) -> Option<(i128, String, Option<String>)> {
        let span = value.span();
        match value.get_ref() {
            RawValue::Int(v) => {
                let literal = self
                    .src
                    .get(span.clone())
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                let literal = if literal.is_empty() {
                    v.to_string()
                } else {
                    literal
                };
                Some((i128::from(*v), literal, None))
            }
            RawValue::Expr(text) => match expr::eval(text, lookup) {
                Ok(v) => match expr::parse_int_literal(text.trim()) {
                    Some(_) => Some((v, text.trim().to_string(), None)),
                    None => Some((v, v.to_string(), Some(text.trim().to_string()))),
                },
                Err(e) => {
                    if !self.names_failed_const(text) {
                        self.errors.error(&span, format!("{what}: {e}"));
                    }
                    None
                }
            },
        }
    }

    pub(super) fn lower_consts(
        &mut self,
        raw: &[Spanned<RawConst>],
        array_consts: &HashMap<String, Span>,
        version: Version,
    ) -> Vec<Constant> {
        let mut out: Vec<Constant> = Vec::with_capacity(raw.len());
        // The constants declared so far; a name declared twice takes its later value.
        let mut earlier: HashMap<String, i128> = HashMap::with_capacity(raw.len());
        for c in raw {
            let r = c.get_ref();
            let name = r.name.get_ref().clone();
            let what = format!("constant `{name}`");
            let Some((value, literal, expr)) =
                self.lower_value(&r.value, &what, &|n| earlier.get(n).copied())
            else {
                self.failed_consts.insert(name);
                continue;
            };
            let declared =
                r.ty.as_ref()
                    .and_then(|t| match Prim::from_name(t.get_ref()) {
                        Some(p) if p.is_integer() => Some(p),
                        _ => {
                            self.errors.error(
                                &self.inner(t),
                                format!(
                                    "{what}: `type = \"{}\"` is not an integer type",
                                    t.get_ref()
                                ),
                            );
                            None
                        }
                    });
            let ty = if array_consts.contains_key(&name) {
                if let Some(t) = &r.ty {
                    self.errors.error_help(
                        &self.inner(t),
                        format!("{what} sizes an array, so its type is `usize` in Rust"),
                        "remove its `type`",
                    );
                }
                if !(1..=i128::from(u32::MAX)).contains(&value) {
                    let used = self.line_of(&array_consts[&name]);
                    self.errors.error_help(
                        &r.value.span(),
                        format!("{what} sizes an array but its value {value} is not between 1 and 4294967295"),
                        format!("line {used} uses it as an array length; give it a value from 1 to 4294967295"),
                    );
                }
                ConstType::Usize
            } else if let Some(p) = declared {
                ConstType::Prim(p)
            } else if (0..=i128::from(u32::MAX)).contains(&value) {
                ConstType::Prim(Prim::U32)
            } else if value > 0 && value <= i128::from(u64::MAX) {
                ConstType::Prim(Prim::U64)
            } else if (i128::from(i32::MIN)..0).contains(&value) {
                ConstType::Prim(Prim::I32)
            } else {
                ConstType::Prim(Prim::I64)
            };
            if let ConstType::Prim(p) = ty {
                let (lo, hi) = p.range();
                if !(lo..=hi).contains(&value) {
                    self.errors.error_help(
                        &r.value.span(),
                        format!("{what}: value {value} does not fit its type {p} ({lo}..={hi})"),
                        "declare a wider `type`, or another value",
                    );
                }
            }
            earlier.insert(name.clone(), value);
            out.push(Constant {
                name,
                value,
                literal,
                expr,
                ty,
                doc: text(&r.doc),
                since: self.lower_since(&r.since, version, &what),
                span: c.span(),
            });
        }
        out
    }

    pub(super) fn lower_enum(
        &mut self,
        kind: EnumKind,
        e: &Spanned<RawEnum>,
        consts: &ConstTable,
        version: Version,
    ) -> Enum {
        let r = e.get_ref();
        let name = r.name.get_ref().clone();
        let what = format!("{} `{name}`", kind.keyword());
        let repr = match Prim::from_name(r.repr.get_ref()) {
            Some(p) if p.is_integer() && (kind == EnumKind::Enum || !p.is_signed()) => p,
            _ => {
                let allowed = if kind == EnumKind::Enum {
                    "u8, u16, u32, u64, i8, i16, i32 or i64"
                } else {
                    "u8, u16, u32 or u64"
                };
                self.errors.error(
                    &self.inner(&r.repr),
                    format!(
                        "{what}: repr `{}` is not one of {allowed}",
                        r.repr.get_ref()
                    ),
                );
                Prim::U32
            }
        };
        let lookup = |n: &str| consts.find(n).map(|i| consts.list[i].value);
        let mut values: Vec<EnumValue> = Vec::with_capacity(r.values.get_ref().len());
        // The first value of each name, by its uppercase form (`a` and `A` meet in every
        // target), and the first value holding each bit: looked up, never scanned.
        let mut names: HashMap<String, &Spanned<String>> = HashMap::new();
        let mut first_with_bit: [Option<usize>; 128] = [None; 128];
        if r.values.get_ref().is_empty() {
            self.errors
                .error(&r.values.span(), format!("{what} has no values"));
        }
        for v in r.values.get_ref() {
            let rv = v.get_ref();
            let vname = rv.name.get_ref().clone();
            let vwhat = MemberName {
                kind: match kind {
                    EnumKind::Enum => "enum value",
                    EnumKind::Flags => "flags value",
                },
                item: &name,
                member: rv.name.get_ref(),
            };
            self.check_name(&rv.name, &Labeled(&what, "value"));
            let key = upper(&vname);
            if let Some(first) = names.get(&key) {
                let line = self.line_of(&first.span());
                self.errors.error_help(
                    &self.inner(&rv.name),
                    format!("duplicate value name `{vname}` in {what}: `{}` is already declared on line {line}", first.get_ref()),
                    "rename or remove one of them",
                );
            }
            names.entry(key).or_insert(&rv.name);
            let Some((value, literal, _)) = self.lower_value(&rv.value, &vwhat, &lookup) else {
                continue;
            };
            let (lo, hi) = repr.range();
            if !(lo..=hi).contains(&value) {
                let help = if value < 0 && !repr.is_signed() && kind == EnumKind::Enum {
                    let signed = repr.name().replacen('u', "i", 1);
                    format!(
                        "an unsigned repr holds no negative values: use a signed repr such as `{signed}`, or a value of 0 or more"
                    )
                } else {
                    format!("use a wider repr than `{repr}`, or another value")
                };
                self.errors.error_help(
                    &rv.value.span(),
                    format!(
                        "{vwhat}: {literal} does not fit the representation {repr} ({lo}..={hi})"
                    ),
                    help,
                );
            } else if kind == EnumKind::Flags {
                if value <= 0 || value & (value - 1) != 0 {
                    self.errors.error_help(
                        &rv.value.span(),
                        format!("{vwhat}: {literal} is not a single bit"),
                        "a flag is one bit: 0x1, 0x2, 0x4, ...",
                    );
                } else if let Some(other) =
                    first_with_bit[value.trailing_zeros() as usize].map(|i| &values[i])
                {
                    let line = self.line_of(&other.span);
                    self.errors.error_help(
                        &rv.value.span(),
                        format!(
                            "{vwhat}: bit {literal} overlaps `{name}.{}` ({}) on line {line}",
                            other.name, other.literal
                        ),
                        "give each flag a bit of its own",
                    );
                }
            }
            if kind == EnumKind::Flags {
                let bits = value as u128;
                for (bit, first) in first_with_bit.iter_mut().enumerate() {
                    if first.is_none() && bits & (1 << bit) != 0 {
                        *first = Some(values.len());
                    }
                }
            }
            values.push(EnumValue {
                name: vname,
                value,
                literal,
                doc: text(&rv.doc),
                since: self.lower_since(&rv.since, version, &vwhat),
                span: v.span(),
            });
        }
        let ordered = r.ordered.as_ref().filter(|o| *o.get_ref());
        if let Some((o, message)) =
            ordered.and_then(|o| Some((o, order_error(kind, &what, &values)?)))
        {
            self.errors.error(&o.span(), message);
        }
        Enum {
            name,
            kind,
            repr,
            ordered: ordered.is_some(),
            doc: text(&r.doc),
            since: self.lower_since(&r.since, version, &what),
            values,
            span: e.span(),
        }
    }
}
