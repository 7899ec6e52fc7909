//! The lowering of each protocol kind: a queue's, a broadcast ring's, a mailbox's, an
//! exchange's and a session's keys, each resolved and checked with the helpers of
//! `protocol.rs`.

use toml::Spanned;

use super::LowerAccess;
use super::protocol::{CAPACITY, Need, U32, U32_ATOMIC, U64_ATOMIC, Want};
use crate::ir::access::{Access, AccessKind, FieldRef};
use crate::ir::protocol::{
    Broadcast, Exchange, ExchangeStart, Mailbox, Queue, Session, SharedWord,
};
use crate::ir::{Elem, EnumKind, Prim};
use crate::parse::{RawBroadcast, RawExchange, RawMailbox, RawQueue, RawSession};

impl LowerAccess<'_> {
    pub(super) fn lower_queue(
        &mut self,
        q: &RawQueue,
        what: &str,
        access: &Access,
    ) -> Option<Queue> {
        let sides = self.sides((&q.writer, "writer"), (&q.reader, "reader"), what);
        let h = self.protocol_struct(&q.header, "header", what)?;
        let write_pos = self.protocol_field(h, &q.write_pos, "write_pos", what, U64_ATOMIC, access);
        let read_pos = self.protocol_field(h, &q.read_pos, "read_pos", what, U64_ATOMIC, access);
        let dropped = self.protocol_field(h, &q.dropped, "dropped", what, U64_ATOMIC, access);
        let capacity = self.protocol_field(h, &q.capacity, "capacity", what, CAPACITY, access);
        let entry = self.lower_entry(&q.entry, what, false, access);
        let (writer, reader) = sides?;
        Some(Queue {
            header: h,
            write_pos: write_pos?,
            read_pos: read_pos?,
            dropped: dropped?,
            capacity: capacity?,
            entry: entry?,
            writer,
            reader,
        })
    }

    pub(super) fn lower_broadcast(
        &mut self,
        b: &RawBroadcast,
        what: &str,
        access: &Access,
    ) -> Option<Broadcast> {
        let sides = self.sides((&b.writer, "writer"), (&b.reader, "reader"), what);
        let h = self.protocol_struct(&b.header, "header", what)?;
        let write_pos = self.protocol_field(h, &b.write_pos, "write_pos", what, U64_ATOMIC, access);
        let tail_pos = self.protocol_field(h, &b.tail_pos, "tail_pos", what, U64_ATOMIC, access);
        let entries = self.protocol_field(h, &b.entries, "entries", what, U64_ATOMIC, access);
        let capacity = self.protocol_field(h, &b.capacity, "capacity", what, CAPACITY, access);
        let entry = self.lower_entry(&b.entry, what, true, access);
        let (writer, reader) = sides?;
        Some(Broadcast {
            header: h,
            write_pos: write_pos?,
            tail_pos: tail_pos?,
            entries: entries?,
            capacity: capacity?,
            entry: entry?,
            writer,
            reader,
        })
    }

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
        })
    }

    /// `flags.overflow`: a list's flag-set field, and its flag.
    fn lower_overflow(
        &mut self,
        list: usize,
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

    /// The word a session's state and generation share: the two halves of an 8-aligned word
    /// of the row, in a table whose offset and stride keep every row's copy 8-aligned.
    fn shared_word(
        &self,
        table: FieldRef,
        row: usize,
        state: usize,
        generation: usize,
    ) -> Option<SharedWord> {
        let fields = &self.layout.of(row).fields;
        let (s, g) = (fields[state].offset, fields[generation].offset);
        let t = &self.layout.of(table.struct_index).fields[table.field];
        let at = s.min(g);
        (s.abs_diff(g) == 4 && at % 8 == 0 && t.offset % 8 == 0 && t.elem_size % 8 == 0).then_some(
            SharedWord {
                at,
                state_low: s < g,
            },
        )
    }

    /// A `[[session]]`: its parties and times, the table of rows and each row's state,
    /// generation, heartbeat and waiting words, the host's generation and state, and the
    /// pads it binds, if any.
    pub(super) fn lower_session(
        &mut self,
        s: &RawSession,
        what: &str,
        access: &Access,
    ) -> Option<Session> {
        let sides = self.sides((&s.client, "client"), (&s.host, "host"), what);
        let (heartbeat_ms, hung_ms) = self.session_times(s, what);
        let (table, row) = self.session_table(s, what)?;
        let state_want = Want {
            widths: &[4],
            elem: Some(EnumKind::Enum),
            access: Need::Cas,
        };
        let state = self.protocol_field(row, &s.state, "state", what, state_want, access);
        let generation =
            self.protocol_field(row, &s.generation, "generation", what, U32_ATOMIC, access);
        let heartbeat =
            self.protocol_field(row, &s.heartbeat, "heartbeat", what, U64_ATOMIC, access);
        let waiting = self.protocol_field(row, &s.waiting, "waiting", what, U32_ATOMIC, access);
        let values = state.map(|st| {
            let e = self.enum_of(FieldRef {
                struct_index: row,
                field: st,
            });
            [
                (&s.free, "free"),
                (&s.claimed, "claimed"),
                (&s.active, "active"),
                (&s.closing, "closing"),
            ]
            .map(|(v, key)| self.protocol_value(e, v, key, what))
        });
        let host_generation = self.protocol_path(
            &s.host_generation,
            "host_generation",
            what,
            U32_ATOMIC,
            access,
        );
        let host_want = Want {
            widths: &[1, 2, 4],
            elem: Some(EnumKind::Enum),
            access: Need::Atomic,
        };
        let host_state = self.protocol_path(&s.host_state, "host_state", what, host_want, access);
        let exiting = host_state.and_then(|h| {
            let e = self.enum_of(h);
            self.protocol_value(e, &s.exiting, "exiting", what)
        });
        let bind = self.session_bind(s, what, access);
        let beside = self.host_words_beside_table(
            s,
            table.struct_index,
            [host_generation, host_state, bind.flatten().map(|(r, _)| r)],
            what,
        );
        let (client, host) = sides?;
        let [free, claimed, active, closing] = values?;
        if !beside {
            return None;
        }
        let (state, generation) = (state?, generation?);
        Some(Session {
            table,
            shared_word: self.shared_word(table, row, state, generation),
            row,
            state,
            free: free?,
            claimed: claimed?,
            active: active?,
            closing: closing?,
            generation,
            heartbeat: heartbeat?,
            heartbeat_ms: heartbeat_ms?,
            hung_ms: hung_ms?,
            waiting: waiting?,
            host_generation: host_generation?,
            host_state: host_state?,
            exiting: exiting?,
            bind: bind?,
            client,
            host,
        })
    }

    /// The session's heartbeat and hung times, and the check that a client on time is
    /// never hung.
    fn session_times(&mut self, s: &RawSession, what: &str) -> (Option<u64>, Option<u64>) {
        let heartbeat_ms = self.millis(&s.heartbeat_ms, "heartbeat_ms", what);
        let hung_ms = self.millis(&s.hung_ms, "hung_ms", what);
        if let (Some(beat), Some(hung)) = (heartbeat_ms, hung_ms)
            && hung <= beat
        {
            self.errors.error_help(
            &s.hung_ms.span(),
            format!("{what}: `hung_ms` ({hung}) is not longer than `heartbeat_ms` ({beat})"),
            "a client that beats on time must never count as hung: make `hung_ms` several heartbeats long",
        );
        }
        (heartbeat_ms, hung_ms)
    }

    /// The session's table, an array of rows, and the rows' struct.
    fn session_table(&mut self, s: &RawSession, what: &str) -> Option<(FieldRef, usize)> {
        let table = self.resolve_field(&s.table, &format!("{what}: `table`"))?;
        let tf = &self.abi.structs[table.struct_index].fields[table.field];
        let row = match (tf.ty.elem, tf.ty.len) {
            (Elem::Struct(row), Some(_)) => row,
            _ => {
                self.errors.error_help(
                    &self.inner(&s.table),
                    format!(
                        "{what}: `table` field `{}` is `{}`, not an array of rows",
                        s.table.get_ref(),
                        tf.ty.text
                    ),
                    "name an array of structs, such as `bridge_header.clients`",
                );
                return None;
            }
        };
        Some((table, row))
    }

    /// The pads the session binds: `None` on an error, `Some(None)` when it binds none.
    fn session_bind(
        &mut self,
        s: &RawSession,
        what: &str,
        access: &Access,
    ) -> Option<Option<(FieldRef, u64)>> {
        match (&s.bind, &s.unbound) {
            (None, None) => Some(None),
            (Some(bind), Some(unbound)) => {
                let r = self.resolve_field(bind, &format!("{what}: `bind`"));
                let ok = r.is_some_and(|r| {
                let f = &self.abi.structs[r.struct_index].fields[r.field];
                let cas = matches!(access.structs[r.struct_index].fields[r.field].kind, AccessKind::Cas { .. });
                let bytes = f.ty.elem == Elem::Prim(Prim::U8) && f.ty.len.is_some();
                if !(cas && bytes) {
                    self.errors.error_help(
                        &self.inner(bind),
                        format!("{what}: `bind` field `{}` is `{}` ({}); pads are bound by compare-and-swap of a byte per pad", bind.get_ref(), f.ty.text, access.structs[r.struct_index].fields[r.field].kind.keyword()),
                        "name a `u8[N]` field declared `access = \"cas\"`",
                    );
                }
                cas && bytes
            });
                let value = self.protocol_const(unbound, "unbound", what);
                match (r, value) {
                    (Some(r), Some((_, v))) if ok && v <= 255 => Some(Some((r, v))),
                    _ => None,
                }
            }
            (Some(b), None) => {
                self.errors.error_help(
                    &self.inner(b),
                    format!("{what}: `bind` needs `unbound`"),
                    "add `unbound = \"...\"`, the constant a free pad holds",
                );
                None
            }
            (None, Some(u)) => {
                self.errors.error_help(
                    &self.inner(u),
                    format!("{what}: `unbound` needs `bind`"),
                    "add `bind = \"struct.field\"`, or remove `unbound`",
                );
                None
            }
        }
    }

    /// Whether the host's words and the pad owners (`words`: host generation, host state,
    /// pads) are fields of the struct that holds the table (`holder`), each checked.
    fn host_words_beside_table(
        &mut self,
        s: &RawSession,
        holder: usize,
        [host_generation, host_state, bound]: [Option<FieldRef>; 3],
        what: &str,
    ) -> bool {
        // The host's words and the pad owners sit beside the table: every backend reaches them
        // from the struct that holds it (a client attached to that struct's region), so lowering
        // refuses them anywhere else rather than letting each backend guess.
        let mut beside = true;
        for (path, key, r) in [
            (Some(&s.host_generation), "host_generation", host_generation),
            (Some(&s.host_state), "host_state", host_state),
            (s.bind.as_ref(), "bind", bound),
        ] {
            if let (Some(path), Some(r)) = (path, r) {
                beside &= self.check_beside_table(path, key, r, holder, what);
            }
        }
        beside
    }

    /// Whether `r` (the session's `key`, at `path`) is a field of the struct that holds the
    /// session's table (struct `holder`); otherwise an error naming both.
    fn check_beside_table(
        &mut self,
        path: &Spanned<String>,
        key: &str,
        r: FieldRef,
        holder: usize,
        what: &str,
    ) -> bool {
        if r.struct_index == holder {
            return true;
        }
        let table_holder = self.abi.structs[holder].name.clone();
        let found = self.abi.structs[r.struct_index].name.clone();
        self.errors.error_help(
            &self.inner(path),
            format!(
                "{what}: `{key}` field `{}` is in struct `{found}`, not in `{table_holder}`, which holds the table",
                path.get_ref()
            ),
            format!("move the field into `{table_holder}`: a client reaches the host's words and the pad owners from the struct that holds its row"),
        );
        false
    }
}
