//! A handshake's identity fields: who produced the record (`pid`, `producer_version`,
//! `clock_mono_ns`, `clock_unix_ns` in the `version` table), each checked for the type the
//! producer's stamp writes.

use toml::Spanned;

use super::LowerAttach;
use crate::ir::StructId;
use crate::ir::attach::Identity;
use crate::ir::scalar::Scalar;
use crate::ir::{Elem, Prim};
use crate::parse::RawHandshake;

/// What a role's field may be: its name in the table, the types that fit, and the help.
struct Want {
    key: &'static str,
    fits: fn(Elem, Option<u64>) -> bool,
    help: &'static str,
}

const PID: Want = Want {
    key: "pid",
    fits: |e, len| len.is_none() && matches!(e, Elem::Prim(Prim::U32 | Prim::U64)),
    help: "name a u32 or u64 field: a process id",
};
const VERSION: Want = Want {
    key: "producer_version",
    fits: |e, len| e == Elem::Char && len.is_some_and(|n| n >= 2),
    help: "name a char[N] field (N at least 2): the producer's version string and its NUL",
};
const MONO: Want = Want {
    key: "clock_mono_ns",
    fits: |e, len| len.is_none() && e == Elem::Prim(Prim::U64),
    help: "name a u64 field: a monotonic clock reading in nanoseconds",
};
const UNIX: Want = Want {
    key: "clock_unix_ns",
    fits: |e, len| len.is_none() && matches!(e, Elem::Prim(Prim::I64 | Prim::U64)),
    help: "name an i64 or u64 field: Unix time in nanoseconds",
};

impl LowerAttach<'_> {
    /// Each identity field the table names, resolved and checked. `None` on an error.
    pub(super) fn lower_identity(
        &mut self,
        si: StructId,
        v: &RawHandshake,
        what: &str,
    ) -> Option<Identity> {
        let pid = self.identity_field(si, v.pid.as_ref(), &PID, what);
        let version = self.identity_field(si, v.producer_version.as_ref(), &VERSION, what);
        let mono_ns = self.identity_field(si, v.clock_mono_ns.as_ref(), &MONO, what);
        let unix_ns = self.identity_field(si, v.clock_unix_ns.as_ref(), &UNIX, what);
        Some(Identity {
            pid: pid?,
            version: version?,
            mono_ns: mono_ns?,
            unix_ns: unix_ns?,
        })
    }

    fn identity_field(
        &mut self,
        si: StructId,
        path: Option<&Spanned<String>>,
        want: &Want,
        what: &str,
    ) -> Option<Option<Scalar>> {
        let Some(path) = path else {
            return Some(None);
        };
        let fwhat = format!("{what}, {}", want.key);
        let (fields, offset) = self.resolve_path(si, path, &fwhat)?;
        let field = self.field_at(si, &fields);
        let len = field.ty.len.map(|l| l.count);
        if !(want.fits)(field.ty.elem, len) {
            self.errors.error_help(
                &self.inner(path),
                format!("{fwhat}: `{}` is `{}`", path.get_ref(), field.ty.text),
                want.help,
            );
            return None;
        }
        let width = match (field.ty.elem, len) {
            (Elem::Char, Some(n)) => n,
            (Elem::Prim(p), None) => p.size(),
            _ => return None,
        };
        Some(Some(Scalar {
            path: path.get_ref().clone(),
            offset,
            width,
        }))
    }
}
