//! The Python target's protocol section: the context of `python_protocols.py.j2`, a class per
//! `[[queue]]`, `[[broadcast]]`, `[[mailbox]]`, `[[exchange]]` and `[[session]]` (named after
//! the protocol in CamelCase: `LogQueue`, `Mailbox`, `Client`) with its layout's numbers, and
//! the classes its results are (`LogQueueEntry`, `MailboxResponse`, `DrawList`). Every offset
//! and size is the layout's; the Python that runs is the template's.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Serialize;

use crate::plan::session::{Restore, owned_blocks};

use super::context::{Ctx, prim_format};
use crate::ir::access::{FieldRef, Parties};
use crate::ir::protocol::{Broadcast, Entry, Exchange, Mailbox, ProtocolKind, Queue, Session};
use crate::ir::result_codes::{Family, codes};
use crate::language_backend::python::literals::doc_lines;
use crate::language_backend::python::names::{Namer, python_type_name};

use crate::ir::StructId;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};

/// The section's parts, one concern each, rendered in turn over one context: the shared
/// results and the queues and rings; the mailboxes; the exchanges; the sessions.
const TEMPLATES: [Template; 4] = [
    Template {
        name: "python_protocols.py.j2",
        source: include_str!("../../../../templates/python_protocols.py.j2"),
    },
    Template {
        name: "python_mailbox.py.j2",
        source: include_str!("../../../../templates/python_mailbox.py.j2"),
    },
    Template {
        name: "python_exchange.py.j2",
        source: include_str!("../../../../templates/python_exchange.py.j2"),
    },
    Template {
        name: "python_session.py.j2",
        source: include_str!("../../../../templates/python_session.py.j2"),
    },
];

/// The templates, compiled on first use.
static COMPILED: LazyLock<Vec<Compiled>> =
    LazyLock::new(|| TEMPLATES.iter().map(|t| Compiled::new(t, |_| {})).collect());

/// The section's text: each part, two blank lines apart as Python's top-level code is.
pub(super) fn render(context: &ProtocolsContext) -> Result<String, RenderError> {
    let mut out = String::new();
    for part in COMPILED.iter() {
        let text = part.render(context)?;
        let text = text.trim_matches('\n');
        if !out.is_empty() {
            out.push_str("\n\n\n");
        } else {
            // The section follows the live section's last line.
            out.push_str("\n\n");
        }
        out.push_str(text);
    }
    out.push('\n');
    Ok(out)
}

/// An integer field: (offset, width).
type Word = (u64, u64);
/// A number in a byte string: (offset, `struct` format).
type Packed = (u64, String);

#[derive(Serialize)]
pub(in crate::language_backend::python) struct ProtocolsContext {
    pub(in crate::language_backend::python) error: String,
    /// The module's `ContendedError`, which a session's reload raises after every row.
    pub(in crate::language_backend::python) cas_error: String,
    pub(in crate::language_backend::python) empty_class: String,
    pub(in crate::language_backend::python) empty: String,
    pub(in crate::language_backend::python) lapped: String,
    pub(in crate::language_backend::python) standing: String,
    /// The host's memory of a session's rows, for `hung`.
    pub(in crate::language_backend::python) watch: String,
    /// The protocol codes' names, by name: the one list (`ir::result_codes`) the C header
    /// prints its codes from. The templates write each check as `check.<name>`, so a name
    /// that is not in the list fails to render.
    pub(in crate::language_backend::python) check: BTreeMap<String, String>,
    /// The queues and the broadcast rings (a ring has a `seq`).
    pub(in crate::language_backend::python) queues: Vec<EntryProtocol>,
    pub(in crate::language_backend::python) mailboxes: Vec<MailboxClass>,
    pub(in crate::language_backend::python) exchanges: Vec<ExchangeClass>,
    pub(in crate::language_backend::python) sessions: Vec<SessionClass>,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct PartData {
    pub(in crate::language_backend::python) name: String,
    /// Its parameter and attribute name.
    pub(in crate::language_backend::python) attr: String,
    pub(in crate::language_backend::python) len: Packed,
    pub(in crate::language_backend::python) max: u64,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct EntryProtocol {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) class: String,
    pub(in crate::language_backend::python) entry: String,
    pub(in crate::language_backend::python) view: String,
    pub(in crate::language_backend::python) head: String,
    pub(in crate::language_backend::python) doc: Vec<String>,
    pub(in crate::language_backend::python) writer: String,
    pub(in crate::language_backend::python) reader: String,
    pub(in crate::language_backend::python) header_size: u64,
    pub(in crate::language_backend::python) size: Packed,
    pub(in crate::language_backend::python) kind: Packed,
    pub(in crate::language_backend::python) record: u64,
    pub(in crate::language_backend::python) padding: u64,
    pub(in crate::language_backend::python) parts: Vec<PartData>,
    pub(in crate::language_backend::python) capacity: Word,
    pub(in crate::language_backend::python) area: u64,
    pub(in crate::language_backend::python) write_pos: u64,
    pub(in crate::language_backend::python) read_pos: u64,
    pub(in crate::language_backend::python) dropped: u64,
    pub(in crate::language_backend::python) tail_pos: u64,
    pub(in crate::language_backend::python) entries: u64,
    /// A broadcast ring's entry `seq` offset; none for a queue.
    pub(in crate::language_backend::python) seq: Option<u64>,
    /// Whether its writer is bound to a session's claim (`plan::bound`).
    pub(in crate::language_backend::python) bound: bool,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct MailboxClass {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) class: String,
    pub(in crate::language_backend::python) response: String,
    pub(in crate::language_backend::python) view: String,
    pub(in crate::language_backend::python) status_class: String,
    pub(in crate::language_backend::python) doc: Vec<String>,
    pub(in crate::language_backend::python) client: String,
    pub(in crate::language_backend::python) server: String,
    pub(in crate::language_backend::python) area: u64,
    pub(in crate::language_backend::python) request_seq: u64,
    pub(in crate::language_backend::python) request_len: u64,
    pub(in crate::language_backend::python) response_seq: u64,
    pub(in crate::language_backend::python) status: u64,
    pub(in crate::language_backend::python) response_len: u64,
    pub(in crate::language_backend::python) response_total: u64,
    pub(in crate::language_backend::python) request_capacity: Word,
    pub(in crate::language_backend::python) response_capacity: Word,
    /// Whether its client is bound to a session's claim (`plan::bound`).
    pub(in crate::language_backend::python) bound: bool,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct ExchangeClass {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) class: String,
    pub(in crate::language_backend::python) taken: String,
    pub(in crate::language_backend::python) view: String,
    pub(in crate::language_backend::python) list: String,
    pub(in crate::language_backend::python) item: String,
    pub(in crate::language_backend::python) doc: Vec<String>,
    pub(in crate::language_backend::python) writer: String,
    pub(in crate::language_backend::python) reader: String,
    pub(in crate::language_backend::python) initial_state: u32,
    pub(in crate::language_backend::python) writer_start: u32,
    pub(in crate::language_backend::python) reader_start: u32,
    pub(in crate::language_backend::python) stale_grace: u32,
    pub(in crate::language_backend::python) area: u64,
    pub(in crate::language_backend::python) list_size: u64,
    pub(in crate::language_backend::python) list_align: u64,
    pub(in crate::language_backend::python) item_size: u64,
    pub(in crate::language_backend::python) state: u64,
    published: u64,
    pub(in crate::language_backend::python) buffers: Word,
    pub(in crate::language_backend::python) buffer_size: Word,
    pub(in crate::language_backend::python) max_items: Word,
    pub(in crate::language_backend::python) max_payload: Word,
    pub(in crate::language_backend::python) count: Packed,
    pub(in crate::language_backend::python) count_name: String,
    pub(in crate::language_backend::python) payload_len: Packed,
    pub(in crate::language_backend::python) payload_len_name: String,
    pub(in crate::language_backend::python) dropped: Packed,
    pub(in crate::language_backend::python) flags: Packed,
    pub(in crate::language_backend::python) overflow: u64,
    /// Whether its writer is bound to a session's claim (`plan::bound`).
    pub(in crate::language_backend::python) bound: bool,
}

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
    pub(in crate::language_backend::python) lockstep: Option<super::lockstep::LockstepPy>,
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

impl ProtocolsContext {
    /// Every public name the section adds, in order.
    pub(in crate::language_backend::python) fn exports(&self) -> Vec<String> {
        let mut out = vec![
            self.error.clone(),
            self.empty_class.clone(),
            self.empty.clone(),
            self.lapped.clone(),
            self.standing.clone(),
            self.watch.clone(),
        ];
        for q in &self.queues {
            out.extend([q.entry.clone(), q.class.clone()]);
        }
        for m in &self.mailboxes {
            out.extend([m.response.clone(), m.class.clone()]);
        }
        for e in &self.exchanges {
            out.extend([e.taken.clone(), e.class.clone()]);
        }
        out.extend(self.sessions.iter().map(|s| s.class.clone()));
        if self.sessions.iter().any(|s| !s.events.is_empty()) {
            out.push("WakeStats".into());
        }
        out
    }
}

impl Ctx<'_> {
    fn parties(&self, p: &Parties) -> String {
        format!("the {}", p.describe(&self.schema.access.parties))
    }

    fn offset(&self, s: StructId, f: usize) -> u64 {
        self.schema.layout.of(s).fields[f].offset
    }

    /// (offset, width) of scalar field `f` of struct `s`.
    fn word(&self, s: StructId, f: usize) -> Word {
        let ty = &self.schema.abi.structs[s].fields[f].ty;
        let width = self.scalar(ty).map_or(0, |(p, _)| p.size());
        (self.offset(s, f), width)
    }

    /// (offset, `struct` format) of scalar field `f` of struct `s`.
    fn packed(&self, s: StructId, f: usize) -> Packed {
        let ty = &self.schema.abi.structs[s].fields[f].ty;
        let fmt = self
            .scalar(ty)
            .map_or_else(String::new, |(p, _)| prim_format(p));
        (self.offset(s, f), fmt)
    }

    fn view_of(&self, s: StructId) -> String {
        self.views[s].clone().unwrap_or_default()
    }

    fn enum_of(&self, s: StructId, f: usize) -> String {
        let ty = &self.schema.abi.structs[s].fields[f].ty;
        self.scalar(ty)
            .and_then(|(_, e)| e)
            .unwrap_or_else(|| "int".into())
    }

    /// The context of the section, its names taken from `module`.
    pub(super) fn protocols(&self, module: &mut Namer, cas_error: &str) -> ProtocolsContext {
        let mut cx = ProtocolsContext {
            error: module.name("ProtocolError"),
            cas_error: cas_error.to_string(),
            empty_class: module.name("Empty"),
            empty: module.name("EMPTY"),
            lapped: module.name("Lapped"),
            standing: module.name("Standing"),
            watch: module.name("HungWatch"),
            check: codes(Family::Protocol)
                .into_iter()
                .map(|c| (c.name.clone(), c.name))
                .collect(),
            queues: Vec::new(),
            mailboxes: Vec::new(),
            exchanges: Vec::new(),
            sessions: Vec::new(),
        };
        for (pi, p) in self.schema.protocols.iter().enumerate() {
            // A name another item holds: the protocol's table word after it (`MidiBroadcast`,
            // `MidiBroadcastEntry`), never a trailing `_`.
            let table = python_type_name(p.kind.table());
            let base = python_type_name(&p.name);
            let class = module.first_free(&[base.clone(), format!("{base}{table}")]);
            let mut own = |suffix: &str| {
                module.first_free(&[
                    format!("{class}{suffix}"),
                    format!("{base}{table}{suffix}"),
                    format!("{class}{table}{suffix}"),
                ])
            };
            let doc = doc_lines(&p.doc);
            let bound = crate::plan::bound::binding_of(self.schema, pi).is_some();
            match &p.kind {
                ProtocolKind::Queue(q) => {
                    let entry = own("Entry");
                    let mut queue = self.queue(&p.name, class, entry, doc, q);
                    queue.bound = bound;
                    cx.queues.push(queue);
                }
                ProtocolKind::Broadcast(b) => {
                    let entry = own("Entry");
                    cx.queues
                        .push(self.broadcast(&p.name, class, entry, doc, b));
                }
                ProtocolKind::Mailbox(m) => {
                    let response = own("Response");
                    let mut mailbox = self.mailbox(&p.name, class, response, doc, m);
                    mailbox.bound = bound;
                    cx.mailboxes.push(mailbox);
                }
                ProtocolKind::Exchange(e) => {
                    let taken = own("List");
                    let mut exchange = self.exchange(&p.name, class, taken, doc, e);
                    exchange.bound = bound;
                    cx.exchanges.push(exchange);
                }
                ProtocolKind::Session(s) => cx.sessions.push(self.session(&p.name, class, doc, s)),
            }
        }
        self.own_blocks(&mut cx);
        cx
    }

    /// What a queue and a ring share: the header's view, the entry's format.
    #[allow(clippy::too_many_arguments)]
    fn entries(
        &self,
        name: &str,
        class: String,
        entry_class: String,
        doc: Vec<String>,
        header: StructId,
        capacity: usize,
        e: &Entry,
        sides: (&Parties, &Parties),
    ) -> EntryProtocol {
        let s = e.struct_index;
        let mut attrs = Namer(["self", "head"].map(String::from).into());
        let parts = (e.parts.iter())
            .map(|part| PartData {
                name: part.name.clone(),
                attr: attrs.name(&part.name),
                len: self.packed(s, part.len),
                max: part.max,
            })
            .collect();
        EntryProtocol {
            name: name.to_string(),
            class,
            entry: entry_class,
            view: self.view_of(header),
            head: self.names.structs[s].clone(),
            doc,
            writer: self.parties(sides.0),
            reader: self.parties(sides.1),
            header_size: self.schema.layout.of(s).size,
            size: self.packed(s, e.size),
            kind: self.packed(s, e.kind),
            record: e.record,
            padding: e.padding,
            parts,
            capacity: self.word(header, capacity),
            area: self.schema.layout.of(header).size,
            write_pos: 0,
            read_pos: 0,
            dropped: 0,
            tail_pos: 0,
            entries: 0,
            seq: e.seq.map(|f| self.offset(s, f)),
            bound: false,
        }
    }

    fn queue(
        &self,
        name: &str,
        class: String,
        entry: String,
        doc: Vec<String>,
        q: &Queue,
    ) -> EntryProtocol {
        let sides = (&q.writer, &q.reader);
        let mut out = self.entries(
            name, class, entry, doc, q.header, q.capacity, &q.entry, sides,
        );
        out.write_pos = self.offset(q.header, q.write_pos);
        out.read_pos = self.offset(q.header, q.read_pos);
        out.dropped = self.offset(q.header, q.dropped);
        out
    }

    fn broadcast(
        &self,
        name: &str,
        class: String,
        entry: String,
        doc: Vec<String>,
        b: &Broadcast,
    ) -> EntryProtocol {
        let sides = (&b.writer, &b.reader);
        let mut out = self.entries(
            name, class, entry, doc, b.header, b.capacity, &b.entry, sides,
        );
        out.write_pos = self.offset(b.header, b.write_pos);
        out.tail_pos = self.offset(b.header, b.tail_pos);
        out.entries = self.offset(b.header, b.entries);
        out
    }

    fn mailbox(
        &self,
        name: &str,
        class: String,
        response: String,
        doc: Vec<String>,
        m: &Mailbox,
    ) -> MailboxClass {
        let h = m.header;
        let at = |f| self.offset(h, f);
        MailboxClass {
            name: name.to_string(),
            class,
            response,
            view: self.view_of(h),
            status_class: self.enum_of(h, m.status),
            doc,
            client: self.parties(&m.client),
            server: self.parties(&m.server),
            area: self.schema.layout.of(h).size,
            request_seq: at(m.request_seq),
            request_len: at(m.request_len),
            response_seq: at(m.response_seq),
            status: at(m.status),
            response_len: at(m.response_len),
            response_total: at(m.response_total),
            request_capacity: self.word(h, m.request_capacity),
            response_capacity: self.word(h, m.response_capacity),
            bound: false,
        }
    }

    fn exchange(
        &self,
        name: &str,
        class: String,
        taken: String,
        doc: Vec<String>,
        e: &Exchange,
    ) -> ExchangeClass {
        let (h, l) = (e.header, e.list);
        // The start decided in lowering (ir::protocol::ExchangeStart).
        let (writer_start, reader_start) = (e.start.writer, e.start.reader);
        let list_fields = &self.schema.abi.structs[l].fields;
        ExchangeClass {
            name: name.to_string(),
            class,
            taken,
            view: self.view_of(h),
            list: self.names.structs[l].clone(),
            item: self.names.structs[e.item].clone(),
            doc,
            writer: self.parties(&e.writer),
            reader: self.parties(&e.reader),
            initial_state: e.start.state,
            writer_start,
            reader_start,
            stale_grace: e.stale_grace,
            area: self.schema.layout.of(h).size,
            list_size: self.schema.layout.of(l).size,
            list_align: self.schema.layout.of(l).align,
            item_size: self.schema.layout.of(e.item).size,
            state: self.offset(h, e.state),
            published: self.offset(h, e.published),
            buffers: self.word(h, e.buffers),
            buffer_size: self.word(h, e.buffer_size),
            max_items: self.word(h, e.max_items),
            max_payload: self.word(h, e.max_payload),
            count: self.packed(l, e.count),
            count_name: list_fields[e.count].name.clone(),
            payload_len: self.packed(l, e.payload_len),
            payload_len_name: list_fields[e.payload_len].name.clone(),
            dropped: self.packed(l, e.dropped),
            flags: self.packed(l, e.overflow_field),
            overflow: e.overflow,
            bound: false,
        }
    }

    fn session(&self, name: &str, class: String, doc: Vec<String>, s: &Session) -> SessionClass {
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
            lockstep: super::lockstep::lockstep_py(schema, s, &self.views, &self.values),
        }
    }

    /// The blocks each session's rows own, once every protocol class has its name.
    fn own_blocks(&self, cx: &mut ProtocolsContext) {
        let schema = self.schema;
        let class_of = |cx: &ProtocolsContext, name: &str| {
            let m = cx
                .mailboxes
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.class.clone());
            m.or_else(|| {
                cx.exchanges
                    .iter()
                    .find(|e| e.name == name)
                    .map(|e| e.class.clone())
            })
        };
        for (index, p) in schema.protocols.iter().enumerate() {
            let owned: Vec<OwnedBlocksPy> = owned_blocks(schema, index)
                .iter()
                .map(|o| OwnedBlocksPy {
                    pos: o.row,
                    regions: o
                        .regions
                        .iter()
                        .filter_map(|r| {
                            let name = &schema.protocols[r.protocol].name;
                            let header = schema.protocols[r.protocol].kind.header();
                            let method = match r.restore {
                                Restore::Mailbox => "restore",
                                Restore::Exchange { .. } => "reset_state",
                            };
                            Some((r.row, self.view_of(header), class_of(cx, name)?, method))
                        })
                        .collect(),
                    words: crate::plan::host_words::restored_runs(&o.words)
                        .iter()
                        .map(|w| {
                            let row = w.region.map_or("None".to_string(), |r| r.to_string());
                            (row, w.at, w.width, w.count)
                        })
                        .collect(),
                })
                .collect();
            if let Some(s) = cx.sessions.iter_mut().find(|s| s.name == p.name) {
                s.owned = owned;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TEMPLATES;
    use crate::ir::result_codes::{Family, codes};

    /// The templates name every protocol check through `check.<name>`, printed from the one
    /// list: none spells a code's name as a string of its own.
    #[test]
    fn the_templates_spell_no_check_name() {
        for t in &TEMPLATES {
            for c in codes(Family::Protocol) {
                let literal = format!("\"{}\"", c.name);
                assert!(
                    !t.source.contains(&literal),
                    "{} writes {literal}: write \"{{{{ check.{} }}}}\"",
                    t.name,
                    c.name
                );
            }
        }
    }
}
