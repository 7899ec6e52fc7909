//! The lowering of a `[[mailbox]]`: the client and server, the request and response
//! fields, each resolved and checked with the field checks of `fields.rs`.

use toml::Spanned;

use super::fields::{Need, U32, U32_ATOMIC, Want};
use crate::ir::EnumKind;
use crate::ir::access::Access;
use crate::ir::protocol::Mailbox;
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawMailbox;

impl AfterLayout<'_> {
    pub(super) fn lower_mailbox(
        &mut self,
        m: &RawMailbox,
        what: &str,
        access: &Access,
    ) -> Option<Mailbox> {
        let sides = self.sides((&m.client, "client"), (&m.server, "server"), what);
        let h = self.protocol_struct(&m.header, "header", what)?;
        let status_want = Want {
            widths: &[4],
            elem: Some(EnumKind::Enum),
            access: Need::Any,
        };
        let f = |cx: &mut Self, name: &Spanned<String>, key: &str, want: Want| {
            cx.protocol_field(h, name, key, what, want, access)
        };
        let request_seq = f(self, &m.request_seq, "request_seq", U32_ATOMIC);
        let request_len = f(self, &m.request_len, "request_len", U32);
        let response_seq = f(self, &m.response_seq, "response_seq", U32_ATOMIC);
        let status = f(self, &m.status, "status", status_want);
        let response_len = f(self, &m.response_len, "response_len", U32);
        let response_total = f(self, &m.response_total, "response_total", U32);
        let request_capacity = f(self, &m.request_capacity, "request_capacity", U32);
        let response_capacity = f(self, &m.response_capacity, "response_capacity", U32);
        let (client, server) = sides?;
        Some(Mailbox {
            header: h,
            request_seq: request_seq?,
            request_len: request_len?,
            response_seq: response_seq?,
            status: status?,
            response_len: response_len?,
            response_total: response_total?,
            request_capacity: request_capacity?,
            response_capacity: response_capacity?,
            client,
            server,
        })
    }
}
