//! The lowering of an `[[exchange]]`: the writer and reader, the start state, the header's
//! state word and buffer fields, the list's count, length, dropped count and overflow flag,
//! each resolved and checked with the field checks of `fields.rs`.

use toml::Spanned;

use super::fields::{Need, U32, U32_ATOMIC, Want};
use crate::ir::EnumKind;
use crate::ir::StructId;
use crate::ir::access::{Access, FieldRef};
use crate::ir::protocol::{EXCHANGE_STALE_GRACE, Exchange, ExchangeStart};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawExchange;

impl AfterLayout<'_> {
    pub(super) fn lower_exchange(
        &mut self,
        e: &RawExchange,
        what: &str,
        access: &Access,
    ) -> Option<Exchange> {
        let sides = self.sides((&e.writer, "writer"), (&e.reader, "reader"), what);
        let initial = *e.initial_state.get_ref();
        let start = u32::try_from(initial).ok().and_then(ExchangeStart::of);
        if start.is_none() {
            self.errors.error_help(
                &e.initial_state.span(),
                format!("{what}: `initial_state` is {initial}; before the first publication the shared list is 0, 1 or 2 and not fresh"),
                "write 1: the writer starts with list 0, the reader with list 2",
            );
        }
        let h = self.protocol_struct(&e.header, "header", what);
        let list = self.protocol_struct(&e.list, "list", what);
        let item = self.protocol_struct(&e.item, "item", what);
        let (h, list, item) = (h?, list?, item?);
        let state_want = Want {
            widths: &[4],
            elem: None,
            access: Need::Cas,
        };
        let state = self.protocol_field(h, &e.state, "state", what, state_want, access);
        let buffers = self.protocol_field(h, &e.buffers, "buffers", what, U32, access);
        let buffer_size = self.protocol_field(h, &e.buffer_size, "buffer_size", what, U32, access);
        let published = self.protocol_field(h, &e.published, "published", what, U32_ATOMIC, access);
        let max_items = self.protocol_field(h, &e.max_items, "max_items", what, U32, access);
        let max_payload = self.protocol_field(h, &e.max_payload, "max_payload", what, U32, access);
        let count = self.protocol_field(list, &e.count, "count", what, U32, access);
        let payload_len =
            self.protocol_field(list, &e.payload_len, "payload_len", what, U32, access);
        let dropped = self.protocol_field(list, &e.dropped, "dropped", what, U32, access);
        let overflow = self.lower_overflow(list, &e.overflow, what, access);
        let (writer, reader) = sides?;
        let (overflow_field, overflow, overflow_name) = overflow?;
        Some(Exchange {
            header: h,
            state: state?,
            start: start?,
            buffers: buffers?,
            buffer_size: buffer_size?,
            published: published?,
            list,
            count: count?,
            payload_len: payload_len?,
            dropped: dropped?,
            overflow_field,
            overflow,
            overflow_name,
            item,
            max_items: max_items?,
            max_payload: max_payload?,
            writer,
            reader,
            stale_grace: EXCHANGE_STALE_GRACE,
        })
    }

    /// `flags.overflow`: a list's flag-set field, and its flag.
    fn lower_overflow(
        &mut self,
        list: StructId,
        path: &Spanned<String>,
        what: &str,
        access: &Access,
    ) -> Option<(usize, u64, String)> {
        let Some((field, flag)) = path.get_ref().split_once('.') else {
            self.errors.error_help(
                &self.inner(path),
                format!(
                    "{what}: `overflow` is `{}`, not `field.flag`",
                    path.get_ref()
                ),
                "name the list's flag-set field, a dot, then the flag, such as `flags.overflow`",
            );
            return None;
        };
        let want = Want {
            widths: &[1, 2, 4],
            elem: Some(EnumKind::Flags),
            access: Need::Any,
        };
        let field_name = Spanned::new(path.span(), field.to_string());
        let fi = self.protocol_field(list, &field_name, "overflow", what, want, access)?;
        let e = self.enum_of(FieldRef {
            struct_index: list,
            field: fi,
        });
        let flag_name = Spanned::new(path.span(), flag.to_string());
        let value = self.protocol_value(e, &flag_name, "overflow", what)?;
        Some((fi, value, flag.to_string()))
    }
}
