//! The lowering of a `[[session]]`: the client and host, the times, the table of rows and
//! each row's words, the host's words beside the table and the pads it binds, each resolved
//! and checked with the field checks of `fields.rs`; and whether a row's state and
//! generation share one 8-aligned word.

use toml::Spanned;

use super::fields::{Need, U32_ATOMIC, U64_ATOMIC, Want};
use crate::ir::StructId;
use crate::ir::access::{Access, AccessKind, FieldRef};
use crate::ir::protocol::{Session, SharedWord};
use crate::ir::{Elem, EnumKind, Prim};
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawSession;

impl AfterLayout<'_> {
    /// The word a session's state and generation share: the two halves of an 8-aligned word
    /// of the row, in a table whose offset and stride keep every row's copy 8-aligned.
    fn shared_word(
        &self,
        table: FieldRef,
        row: StructId,
        state: usize,
        generation: usize,
    ) -> Option<SharedWord> {
        let fields = &self.layout.of(row).fields;
        let (s, g) = (fields[state].offset, fields[generation].offset);
        let t = self.layout.field(table);
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
    fn session_table(&mut self, s: &RawSession, what: &str) -> Option<(FieldRef, StructId)> {
        let table = self.resolve_field(&s.table, &format!("{what}: `table`"))?;
        let tf = table.of(self.abi);
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
                let f = r.of(self.abi);
                let cas = matches!(r.access(&access.structs).kind, AccessKind::Cas { .. });
                let bytes = f.ty.elem == Elem::Prim(Prim::U8) && f.ty.len.is_some();
                if !(cas && bytes) {
                    self.errors.error_help(
                        &self.inner(bind),
                        format!("{what}: `bind` field `{}` is `{}` ({}); pads are bound by compare-and-swap of a byte per pad", bind.get_ref(), f.ty.text, r.access(&access.structs).kind.keyword()),
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
        holder: StructId,
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
        holder: StructId,
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
