//! The Python class of a `[[session]]`: the row's offsets and states, its events, the pad
//! binding and the blocks its rows own, for `python_session.py.j2`.

use serde::Serialize;

use super::fields::Word;
use crate::ir::access::FieldRef;
use crate::ir::protocol::Session;
use crate::language_backend::python::live::context::Ctx;

#[derive(Serialize)]
pub(in crate::language_backend::python) struct SessionClass {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) class: String,
    pub(in crate::language_backend::python) view: String,
    pub(in crate::language_backend::python) row_view: String,
    pub(in crate::language_backend::python) state_class: String,
    pub(in crate::language_backend::python) doc: Vec<String>,
    pub(in crate::language_backend::python) table: String,
    pub(in crate::language_backend::python) client: String,
    pub(in crate::language_backend::python) host: String,
    pub(in crate::language_backend::python) rows: u64,
    pub(in crate::language_backend::python) heartbeat_ms: u64,
    pub(in crate::language_backend::python) hung_ms: u64,
    pub(in crate::language_backend::python) table_offset: u64,
    pub(in crate::language_backend::python) row_size: u64,
    pub(in crate::language_backend::python) state: u64,
    pub(in crate::language_backend::python) generation: u64,
    pub(in crate::language_backend::python) heartbeat: u64,
    pub(in crate::language_backend::python) waiting: u64,
    /// The events its client waits on and its host sets (`plan::events`): name, the word's
    /// offset and the sequence's (offset, width), from the start of the table's struct.
    pub(in crate::language_backend::python) events: Vec<(String, u64, u64, u64)>,
    /// (the state is the low half, the word's offset in the row) when the state and the
    /// generation share one 8-aligned word: one compare-and-swap of it checks both.
    pub(in crate::language_backend::python) word: Option<(bool, u64)>,
    pub(in crate::language_backend::python) free: u64,
    pub(in crate::language_backend::python) claimed: u64,
    pub(in crate::language_backend::python) active: u64,
    pub(in crate::language_backend::python) closing: u64,
    pub(in crate::language_backend::python) host_generation: u64,
    /// The host state's (offset, width): 1, 2 or 4 bytes.
    pub(in crate::language_backend::python) host_state: Word,
    pub(in crate::language_backend::python) exiting: u64,
    /// (offset in the header, count, the width of the word each byte is swapped in).
    pub(in crate::language_backend::python) bind: Option<(u64, u64, u64)>,
    pub(in crate::language_backend::python) unbound: u64,
    /// The blocks its rows own (`plan::session`): free and reload then take the attached
    /// handle, and restore these.
    pub(in crate::language_backend::python) owned: Vec<OwnedBlocksPy>,
    /// Lockstep (`plan::lockstep`), when its input event is this session's.
    pub(in crate::language_backend::python) lockstep:
        Option<crate::language_backend::python::live::lockstep::LockstepPy>,
    /// The commands' event (`plan::commands`), when it is this session's; its mailbox class
    /// is the protocol's name until every class has its name.
    pub(in crate::language_backend::python) commands:
        Option<crate::language_backend::python::live::commands::CommandsPy>,
}

/// A blocks row a session's rows own: its position in the handle's table, and each region a
/// free restores in a block: (its position in the block's table, its view class, the
/// protocol's class, the method that restores it: `restore` or `reset_state`).
#[derive(Serialize)]
pub(in crate::language_backend::python) struct OwnedBlocksPy {
    pub(in crate::language_backend::python) pos: usize,
    pub(in crate::language_backend::python) regions: Vec<(usize, String, String, &'static str)>,
    /// The host words a free restores (`plan::host_words`), as runs: (the region's position
    /// in the block's table, or `None` for the block's header; from its start; bytes of each
    /// word; words).
    pub(in crate::language_backend::python) words: Vec<(String, u64, u64, u64)>,
}

impl Ctx<'_> {
    pub(super) fn session(
        &self,
        name: &str,
        class: String,
        doc: Vec<String>,
        s: &Session,
    ) -> SessionClass {
        let FieldRef {
            struct_index: holder,
            field: table,
        } = s.table;
        let (row, schema) = (s.row, self.schema);
        let table_field = &schema.abi.structs[holder].fields[table];
        let at = |f| self.offset(row, f);
        let (state, generation) = (at(s.state), at(s.generation));
        let word = s.shared_word.map(|w| (w.state_low, w.at));
        let bind = s.bind.as_ref().map(|(r, _)| {
            let f = &schema.abi.structs[r.struct_index].fields[r.field];
            let width = schema.access.structs[r.struct_index].fields[r.field]
                .kind
                .width()
                .unwrap_or(1);
            (self.offset(r.struct_index, r.field), f.ty.count(), width)
        });
        SessionClass {
            name: name.to_string(),
            class,
            view: self.view_of(holder),
            row_view: self.view_of(row),
            state_class: self.enum_of(row, s.state),
            doc,
            table: format!("{}.{}", schema.abi.structs[holder].name, table_field.name),
            client: self.parties(&s.client),
            host: self.parties(&s.host),
            rows: table_field.ty.count(),
            heartbeat_ms: s.heartbeat_ms,
            hung_ms: s.hung_ms,
            table_offset: self.offset(holder, table),
            row_size: schema.layout.of(holder).fields[table].elem_size,
            state,
            generation,
            heartbeat: at(s.heartbeat),
            waiting: at(s.waiting),
            events: crate::plan::events::session_events(schema, s)
                .into_iter()
                .map(|e| {
                    (
                        e.event.name.clone(),
                        e.word_offset,
                        e.seq_offset,
                        e.seq_width,
                    )
                })
                .collect(),
            word,
            free: s.free,
            claimed: s.claimed,
            active: s.active,
            closing: s.closing,
            host_generation: self.offset(s.host_generation.struct_index, s.host_generation.field),
            host_state: self.word(s.host_state.struct_index, s.host_state.field),
            exiting: s.exiting,
            bind,
            unbound: s.bind.as_ref().map_or(0, |(_, u)| *u),
            owned: Vec::new(),
            lockstep: crate::language_backend::python::live::lockstep::lockstep_py(
                schema,
                s,
                &self.views,
                &self.values,
            ),
            commands: crate::language_backend::python::live::commands::commands_py(
                schema,
                s,
                &self.views,
            ),
        }
    }
}
