//! The entry format of queues and broadcast rings (`entry = { ... }`): its struct, its size
//! and kind fields in the first 8 bytes, its padding and record values, its parts, and a
//! broadcast ring's `seq`, resolved and checked with the field checks of `fields.rs`.

use toml::Spanned;

use super::fields::{Need, U64_ATOMIC, UNSIGNED, Want};
use crate::ir::EnumKind;
use crate::ir::access::{Access, FieldRef};
use crate::ir::names::is_snake_case;
use crate::ir::protocol::{Entry, Part};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawEntry;

impl AfterLayout<'_> {
    /// An entry format: its struct, size and kind fields in its first 8 bytes, its
    /// padding and record values, its parts, and (for a broadcast ring) its `seq`.
    pub(super) fn lower_entry(
        &mut self,
        raw: &Spanned<RawEntry>,
        what: &str,
        broadcast: bool,
        access: &Access,
    ) -> Option<Entry> {
        let e = raw.get_ref();
        let si = self.protocol_struct(&e.structure, "entry.struct", what)?;
        let size = self.protocol_field(si, &e.size, "entry.size", what, UNSIGNED, access);
        let enum_want = Want {
            widths: &[1, 2, 4],
            elem: Some(EnumKind::Enum),
            access: Need::Any,
        };
        let kind = self.protocol_field(si, &e.kind, "entry.kind", what, enum_want, access);
        for (f, key, span) in [(size, "entry.size", &e.size), (kind, "entry.kind", &e.kind)] {
            let Some(f) = f else { continue };
            let l = self.layout.of(si).fields[f];
            if l.offset + l.size > 8 {
                self.errors.error_help(
                    &self.inner(span),
                    format!(
                        "{what}: `{key}` field `{}` is at bytes {}..{}; a reader finds it in the entry's first 8 bytes, the least a padding entry holds",
                        span.get_ref(),
                        l.offset,
                        l.offset + l.size
                    ),
                    "move the field into the first 8 bytes of the entry's struct",
                );
            }
        }
        let (size, kind) = (size?, kind?);
        let en = self.enum_of(FieldRef {
            struct_index: si,
            field: kind,
        });
        let padding = self.protocol_value(en, &e.padding, "entry.padding", what);
        let record = self.protocol_value(en, &e.record, "entry.record", what);
        let (padding, record) = (padding?, record?);
        if padding == record {
            self.errors.error(
                &self.inner(&e.record),
                format!("{what}: `entry.record` and `entry.padding` are the same value"),
            );
            return None;
        }
        let mut parts = Vec::new();
        for (k, p) in e.parts.iter().enumerate() {
            let p = p.get_ref();
            // Every backend makes identifiers of a part's name (an entry's fields, its
            // parameters): snake_case, and one of its own.
            let name = p.name.get_ref();
            if !is_snake_case(name) {
                self.errors.error_help(
                    &self.inner(&p.name),
                    format!("{what}: entry part `{name}` is not snake_case"),
                    "use lowercase words joined by single underscores, such as `text`",
                );
                continue;
            }
            let first = e.parts[..k]
                .iter()
                .find(|o| o.get_ref().name.get_ref() == name);
            if let Some(first) = first {
                let at = self.inner(&first.get_ref().name).start;
                let line = crate::diagnostics::line_col(self.src, at).0;
                self.errors.error_help(
                    &self.inner(&p.name),
                    format!("{what}: two entry parts named `{name}` (the first on line {line})"),
                    "each part becomes a field and a parameter in every target: give it a name of its own",
                );
                continue;
            }
            let len = self.protocol_field(si, &p.len, "entry.parts.len", what, UNSIGNED, access);
            let max = self.protocol_const(&p.max, "entry.parts.max", what);
            if let (Some(len), Some((max_const, max))) = (len, max) {
                let f = &self.abi.structs[si].fields[len];
                let bits = self.layout.of(si).fields[len].size * 8;
                if bits < 64 && max >= 1u64 << bits {
                    self.errors.error(
                        &self.inner(&p.max),
                        format!(
                            "{what}: part `{}` may be {max} bytes, more than its length field `{}` ({}) holds",
                            p.name.get_ref(),
                            f.name,
                            f.ty.text
                        ),
                    );
                    continue;
                }
                parts.push(Part {
                    name: p.name.get_ref().clone(),
                    len,
                    max_const,
                    max,
                });
            }
        }
        let seq = match (&e.seq, broadcast) {
            (Some(seq), true) => Some(self.protocol_field(
                si,
                seq,
                "entry.seq",
                what,
                Want {
                    access: Need::Any,
                    ..U64_ATOMIC
                },
                access,
            )?),
            (None, true) => {
                self.errors.error_help(
                    &raw.span(),
                    format!("{what}: a broadcast ring's entry needs `seq`"),
                    "add `seq = \"...\"`, the entry's u64 field holding the entries written before it, from which a lapped reader learns how many it missed",
                );
                return None;
            }
            (Some(seq), false) => {
                self.errors.error_help(
                    &self.inner(seq),
                    format!("{what}: `entry.seq` belongs to a broadcast ring's entry"),
                    "a queue's reader misses nothing: remove `seq`",
                );
                return None;
            }
            (None, false) => None,
        };
        let en = &self.abi.enums[en];
        let name_of = |v: u64| {
            en.values
                .iter()
                .find(|x| x.value as u64 == v)
                .map(|x| x.name.clone())
                .unwrap_or_default()
        };
        Some(Entry {
            struct_index: si,
            size,
            kind,
            padding,
            padding_name: name_of(padding),
            record,
            record_name: name_of(record),
            parts,
            seq,
        })
    }
}
