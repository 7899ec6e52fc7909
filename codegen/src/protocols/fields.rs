//! The checks the protocol declarations (`[[queue]]`, `[[broadcast]]`, `[[mailbox]]`,
//! `[[exchange]]`, `[[session]]`) and `[[directory]]` share: a named struct, field, value,
//! constant or party resolved, each field checked for the type and access its side of the
//! protocol needs (a [`Want`]), with a spanned error per mistake.

use toml::Spanned;

use crate::diagnostics::closest;
use crate::ir::StructId;
use crate::ir::access::{Access, AccessKind, FieldRef, Parties};
use crate::ir::{Elem, EnumKind};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawParties;

/// What a protocol needs of one field.
#[derive(Debug, Clone, Copy)]
pub(super) struct Want {
    /// The widths in bytes it may have.
    pub(super) widths: &'static [u64],
    /// Whether it must be an enum (`Some(EnumKind::Enum)`), a flag set, or an unsigned
    /// integer (`None`).
    pub(super) elem: Option<EnumKind>,
    pub(super) access: Need,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Need {
    /// Read while the other side may write it: `atomic` or `cas`.
    Atomic,
    /// Changed only by compare-and-swap or exchange: `cas`.
    Cas,
    /// Written before publication, or by the side that reads it: any access.
    Any,
}

/// The longest timeout a protocol takes, in milliseconds: one day.
pub(super) const MAX_MILLIS: i64 = 86_400_000;

pub(super) const U64_ATOMIC: Want = Want {
    widths: &[8],
    elem: None,
    access: Need::Atomic,
};
pub(super) const U32_ATOMIC: Want = Want {
    widths: &[4],
    elem: None,
    access: Need::Atomic,
};
pub(super) const U32: Want = Want {
    widths: &[4],
    elem: None,
    access: Need::Any,
};
pub(super) const UNSIGNED: Want = Want {
    widths: &[1, 2, 4, 8],
    elem: None,
    access: Need::Any,
};
pub(super) const CAPACITY: Want = Want {
    widths: &[4, 8],
    elem: None,
    access: Need::Any,
};

impl AfterLayout<'_> {
    /// A struct named by a protocol.
    pub(super) fn protocol_struct(
        &mut self,
        name: &Spanned<String>,
        key: &str,
        what: &str,
    ) -> Option<StructId> {
        let found = self.abi.find_struct(name.get_ref());
        if found.is_none() {
            let help = closest(
                name.get_ref(),
                self.abi.structs.iter().map(|s| s.name.as_str()),
            )
            .map_or("name a struct of this schema".into(), |c| {
                format!("did you mean `{c}`?")
            });
            self.errors.error_help(
                &self.inner(name),
                format!("{what}: `{key}` names unknown struct `{}`", name.get_ref()),
                help,
            );
        }
        found
    }

    /// A field of struct `si` that a protocol uses as `key`, checked against `want`.
    pub(super) fn protocol_field(
        &mut self,
        si: StructId,
        name: &Spanned<String>,
        key: &str,
        what: &str,
        want: Want,
        access: &Access,
    ) -> Option<usize> {
        let s = &self.abi.structs[si];
        let Some(fi) = s.fields.iter().position(|f| f.name == *name.get_ref()) else {
            let help = closest(name.get_ref(), s.fields.iter().map(|f| f.name.as_str()))
                .map_or(format!("name a field of `{}`", s.name), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: `{key}`: struct `{}` has no field `{}`",
                    s.name,
                    name.get_ref()
                ),
                help,
            );
            return None;
        };
        self.check_want(
            FieldRef {
                struct_index: si,
                field: fi,
            },
            name,
            key,
            what,
            want,
            access,
        )
        .then_some(fi)
    }

    /// A `struct.field` path a protocol uses as `key`, checked against `want`.
    pub(super) fn protocol_path(
        &mut self,
        path: &Spanned<String>,
        key: &str,
        what: &str,
        want: Want,
        access: &Access,
    ) -> Option<FieldRef> {
        let r = self.resolve_field(path, &format!("{what}: `{key}`"))?;
        self.check_want(r, path, key, what, want, access)
            .then_some(r)
    }

    fn check_want(
        &mut self,
        r: FieldRef,
        name: &Spanned<String>,
        key: &str,
        what: &str,
        want: Want,
        access: &Access,
    ) -> bool {
        let s = &self.abi.structs[r.struct_index];
        let f = &s.fields[r.field];
        let path = format!("{}.{}", s.name, f.name);
        let width = match (f.ty.elem, want.elem) {
            (Elem::Prim(p), None) if p.is_integer() && !p.is_signed() => Some(p.size()),
            (Elem::Enum(e), Some(kind)) if self.abi.enums[e].kind == kind => {
                Some(self.abi.enums[e].repr.size())
            }
            _ => None,
        };
        let fits = f.ty.len.is_none() && width.is_some_and(|w| want.widths.contains(&w));
        if !fits {
            let widths = match want.widths {
                [one] => format!("{one}-byte"),
                [rest @ .., last] => {
                    let rest: Vec<String> = rest.iter().map(|w| format!("{w}-")).collect();
                    format!("{} or {last}-byte", rest.join(", "))
                }
                [] => String::new(),
            };
            let thing = match want.elem {
                None => "unsigned integer",
                Some(EnumKind::Enum) => "enum",
                Some(EnumKind::Flags) => "flag set",
            };
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: `{key}` field `{path}` is `{}`; it must be a {} {thing}",
                    f.ty.text, widths
                ),
                format!("name a field of that type, or change `{path}`'s type"),
            );
            return false;
        }
        let kind = r.access(&access.structs).kind;
        let ok = match want.access {
            Need::Any => true,
            Need::Atomic => kind.is_atomic(),
            Need::Cas => matches!(kind, AccessKind::Cas { .. }),
        };
        if !ok {
            let (need, why) = match want.access {
                Need::Cas => ("cas", "both sides change it by compare-and-swap"),
                _ => ("atomic", "one side reads it while the other writes it"),
            };
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: `{key}` field `{path}` is {}; {why}",
                    kind.keyword()
                ),
                format!("declare `access = \"{need}\"` on field `{path}`"),
            );
            return false;
        }
        true
    }

    /// The value of enum `e` named `name`.
    pub(super) fn protocol_value(
        &mut self,
        e: usize,
        name: &Spanned<String>,
        key: &str,
        what: &str,
    ) -> Option<u64> {
        let en = &self.abi.enums[e];
        let found = en.values.iter().find(|v| v.name == *name.get_ref());
        if found.is_none() {
            let help = closest(name.get_ref(), en.values.iter().map(|v| v.name.as_str()))
                .map_or(format!("name a value of `{}`", en.name), |c| {
                    format!("did you mean `{c}`?")
                });
            self.errors.error_help(
                &self.inner(name),
                format!(
                    "{what}: `{key}`: {} `{}` has no value `{}`",
                    en.kind.keyword(),
                    en.name,
                    name.get_ref()
                ),
                help,
            );
        }
        found.map(|v| v.value as u64)
    }

    /// The enum of field `r`, which [`Self::check_want`] accepted as one.
    pub(super) fn enum_of(&self, r: FieldRef) -> usize {
        match r.of(self.abi).ty.elem {
            Elem::Enum(e) => e,
            _ => unreachable!("checked as an enum field"),
        }
    }

    /// A constant that bounds something: positive.
    pub(super) fn protocol_const(
        &mut self,
        name: &Spanned<String>,
        key: &str,
        what: &str,
    ) -> Option<(usize, u64)> {
        self.constant(name, &format!("{what}: `{key}`"))
    }

    /// A positive number of milliseconds, at most [`MAX_MILLIS`].
    pub(super) fn millis(&mut self, v: &Spanned<i64>, key: &str, what: &str) -> Option<u64> {
        let n = *v.get_ref();
        if n <= 0 {
            self.errors.error(
                &v.span(),
                format!("{what}: `{key}` is {n}; it must be a positive number of milliseconds"),
            );
            return None;
        }
        // Generated code counts these in nanoseconds as u64; a day keeps that far from
        // overflow (and a longer timeout is a mistake).
        if n > MAX_MILLIS {
            self.errors.error(
                &v.span(),
                format!("{what}: `{key}` is {n}; it must be at most {MAX_MILLIS} (one day)"),
            );
            return None;
        }
        Some(n as u64)
    }

    /// The two sides of a protocol: each a set of parties, and no party on both.
    pub(super) fn sides(
        &mut self,
        (a, a_key): (&Spanned<RawParties>, &str),
        (b, b_key): (&Spanned<RawParties>, &str),
        what: &str,
    ) -> Option<(Parties, Parties)> {
        let before = self.errors.len();
        let pa = self.lower_parties_value(a, &format!("{what}: `{a_key}`"));
        let pb = self.lower_parties_value(b, &format!("{what}: `{b_key}`"));
        if self.errors.len() > before {
            return None;
        }
        if let Some(&both) = pa.0.iter().find(|p| pb.0.contains(p)) {
            self.errors.error_help(
                &b.span(),
                format!(
                    "{what}: party `{}` is both `{a_key}` and `{b_key}`",
                    self.parties[both]
                ),
                format!(
                    "the two sides of a protocol are different parties: name another `{b_key}`"
                ),
            );
            return None;
        }
        Some((pa, pb))
    }
}
