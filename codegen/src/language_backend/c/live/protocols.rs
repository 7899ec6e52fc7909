//! The region protocols' C helpers: the context of each `[[queue]]`, `[[broadcast]]`,
//! `[[mailbox]]`, `[[exchange]]` and `[[session]]`, every offset and width taken from the
//! layout. The C text is in the templates: `c_protocols.h.j2` (the result codes, queues and
//! rings), `c_mailbox.h.j2` and `c_session.h.j2` (exchanges and sessions).

use std::sync::LazyLock;

use serde::Serialize;

use super::comments::{find, protocol_comment};
use crate::ir::StructId;
use crate::ir::access::Guard;
use crate::ir::protocol::{
    Broadcast, Entry, EntryFormat, Exchange, Mailbox, ProtocolKind, Queue, Session,
};
use crate::ir::result_codes::Family;
use crate::language_backend::c::names::{c_field_name, c_type_name, const_macro, field_type};
use crate::language_backend::c::result_codes::{CodeCtx, code_ctxs};
use crate::language_backend::output::RenderError;
use crate::language_backend::prose::ProtocolProse;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::bound::{binding_of, bound_seqlocks};
use crate::plan::session::owns_blocks;
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_protocols.h.j2",
    source: include_str!("../../../../templates/c_protocols.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

const MAILBOX_TEMPLATE: Template = Template {
    name: "c_mailbox.h.j2",
    source: include_str!("../../../../templates/c_mailbox.h.j2"),
};

static MAILBOX_COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::new(&MAILBOX_TEMPLATE, |_| {}));

const SESSION_TEMPLATE: Template = Template {
    name: "c_session.h.j2",
    source: include_str!("../../../../templates/c_session.h.j2"),
};

/// The parts `c_session.h.j2` includes, one concern each.
const SESSION_PARTS: [Template; 4] = [
    template!("c_exchange.h.j2"),
    template!("c_session_events.h.j2"),
    template!("c_wake_stats.h.j2"),
    template!("c_bound.h.j2"),
];

static SESSION_COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&SESSION_TEMPLATE, &SESSION_PARTS, |_| {}));

/// A scalar field: its offset from its struct's start, its bytes and bits.
#[derive(Serialize, Clone, Copy)]
struct FieldCtx {
    at: u64,
    width: u64,
    bits: u64,
}

/// A byte string after an entry's struct.
#[derive(Serialize)]
struct PartCtx {
    name: String,
    /// The struct's member holding its length, and that member's C type.
    member: String,
    ty: String,
    max: u64,
    max_macro: String,
}

/// How a variable-size entry is laid out, and the record a reader copies it into.
#[derive(Serialize)]
struct EntryCtx {
    s: String,
    size: u64,
    max_size: u64,
    size_f: FieldCtx,
    kind_f: FieldCtx,
    size_member: String,
    size_ty: String,
    kind_member: String,
    kind_ty: String,
    padding: u64,
    record: u64,
    parts: Vec<PartCtx>,
    /// A broadcast ring's `seq` field, from the entry's start.
    seq: Option<u64>,
    /// The protocol whose record type and helpers this entry uses: the first declared with
    /// the same format; `own` when it is this one.
    owner: String,
    own: bool,
}

/// What every protocol's context starts with: its name, its comment, its header struct and
/// where the bytes after the header start.
#[derive(Serialize)]
struct HeadCtx {
    name: String,
    doc: String,
    header_s: String,
    area: u64,
    /// The session whose claim its client-side writer is bound to (`plan::bound`): the
    /// default name checks the claim, the writer without one is `_unscoped`.
    bound: Option<String>,
}

#[derive(Serialize)]
struct QueueCtx {
    #[serde(flatten)]
    head: HeadCtx,
    write_pos: u64,
    read_pos: u64,
    dropped: u64,
    capacity: FieldCtx,
    entry: EntryCtx,
}

#[derive(Serialize)]
struct BroadcastCtx {
    #[serde(flatten)]
    head: HeadCtx,
    write_pos: u64,
    tail_pos: u64,
    entries: u64,
    capacity: FieldCtx,
    entry: EntryCtx,
}

#[derive(Serialize)]
struct MailboxCtx {
    #[serde(flatten)]
    head: HeadCtx,
    request_seq: u64,
    request_len: u64,
    response_seq: u64,
    status: u64,
    response_len: u64,
    response_total: u64,
    request_capacity: FieldCtx,
    response_capacity: FieldCtx,
}

#[derive(Serialize)]
struct ExchangeCtx {
    #[serde(flatten)]
    head: HeadCtx,
    state: u64,
    initial_state: u32,
    writer_start: u32,
    reader_start: u32,
    stale_grace: u32,
    buffers: FieldCtx,
    buffer_size: FieldCtx,
    max_items: FieldCtx,
    max_payload: FieldCtx,
    published: u64,
    list_s: String,
    list_size: u64,
    list_align: u64,
    count: String,
    count_ty: String,
    payload_len: String,
    payload_len_ty: String,
    dropped: String,
    dropped_ty: String,
    flags: String,
    flags_ty: String,
    overflow: u64,
    item_s: String,
    item_size: u64,
}

#[derive(Serialize)]
struct BindCtx {
    at: u64,
    width: u64,
    bits: u64,
    elem_size: u64,
    count: u64,
    unbound: u64,
}

#[derive(Serialize)]
struct SessionCtx {
    name: String,
    doc: String,
    header_s: String,
    row_s: String,
    /// The table's offset in its struct, its rows and their stride.
    table: u64,
    rows: u64,
    stride: u64,
    state: u64,
    generation: u64,
    /// The state and the generation share one 8-aligned word (in every row): one
    /// compare-and-swap of it checks both; `state_low`: the state is its low half.
    word: bool,
    state_low: bool,
    /// The shared word's offset in the row (the IR's `Session::shared_word`).
    word_at: u64,
    heartbeat: FieldCtx,
    waiting: u64,
    free: u64,
    claimed: u64,
    active: u64,
    closing: u64,
    heartbeat_ms: u64,
    hung_ms: u64,
    host_generation: u64,
    host_state: u64,
    exiting: u64,
    bind: Option<BindCtx>,
    /// The session's rows own blocks (`plan::session`): its free and reload are the attached
    /// handle's (`<p>_attached_<name>_free`), which restore them, and no header-level ones.
    owns: bool,
    /// The row's fields a client fills in, every one but the state and the generation:
    /// `(offset, length, bits)`, bits 0 for an array or struct field (copied by its bytes).
    fill: Vec<(u64, u64, u64)>,
    /// The events its client waits on and its host sets (`plan::events`).
    events: Vec<EventCtx>,
}

/// A session's event: its word's offset and the sequence that holds it, from the region's
/// start (the struct that holds the table starts it).
#[derive(Serialize)]
struct EventCtx {
    name: String,
    word: u64,
    seq: u64,
    seq_width: u64,
}

/// A seqlock write bound to a claim: `<prefix>_<name>_write(map, map_len, &session, ...)`
/// over `<prefix>_<name>_write_unscoped`.
#[derive(Serialize)]
struct BoundSeqlockCtx {
    name: String,
    /// The session whose claim it checks.
    session: String,
    /// The counter's struct and the value type.
    s: String,
    value: String,
    /// The unscoped write takes `len` and returns a code (it checks sizes); otherwise it is
    /// a `void` function.
    len: bool,
    /// It also takes the payload's `extra` bytes.
    payload: bool,
}

#[derive(Serialize, Default)]
struct ProtocolsCtx {
    p: String,
    pu: String,
    queues: Vec<QueueCtx>,
    broadcasts: Vec<BroadcastCtx>,
    mailboxes: Vec<MailboxCtx>,
    exchanges: Vec<ExchangeCtx>,
    sessions: Vec<SessionCtx>,
    /// The client-written seqlocks bound to a session's claim (`plan::bound`).
    bound_seqlocks: Vec<BoundSeqlockCtx>,
    /// The protocol codes' `#define`s.
    codes: Vec<CodeCtx>,
}

/// The helpers of every region protocol of `schema`, or an empty string when it declares
/// none.
pub(super) fn render_c_protocols(
    schema: &Schema,
    protocols: &[ProtocolProse],
) -> Result<String, RenderError> {
    if schema.protocols.is_empty() {
        return Ok(String::new());
    }
    let p = schema.abi.c_prefix.clone();
    let pu = p.to_ascii_uppercase();
    let mut ctx = ProtocolsCtx {
        codes: code_ctxs(&[Family::Protocol], &pu),
        pu,
        p,
        ..ProtocolsCtx::default()
    };
    let mut owners = Vec::new();
    for (index, decl) in schema.protocols.iter().enumerate() {
        let doc = protocol_comment(find(protocols, decl.kind.table(), &decl.name));
        let name = decl.name.clone();
        let bound = binding_of(schema, crate::ir::ProtocolId::new(index))
            .map(|s| schema.protocols[s].name.clone());
        match &decl.kind {
            ProtocolKind::Queue(q) => {
                let mut q = queue(schema, name, doc, q, &mut owners);
                q.head.bound = bound;
                ctx.queues.push(q);
            }
            ProtocolKind::Broadcast(b) => {
                ctx.broadcasts
                    .push(broadcast(schema, name, doc, b, &mut owners))
            }
            ProtocolKind::Mailbox(m) => {
                let mut m = mailbox(schema, name, doc, m);
                m.head.bound = bound;
                ctx.mailboxes.push(m);
            }
            ProtocolKind::Exchange(e) => {
                let mut x = exchange(schema, name, doc, e);
                x.head.bound = bound;
                ctx.exchanges.push(x);
            }
            ProtocolKind::Session(s) => ctx.sessions.push(session(schema, index, name, doc, s)?),
        }
    }
    for b in bound_seqlocks(schema) {
        let lock = &schema.access.seqlocks[b.seqlock];
        let whole = lock.guards_whole_struct(&schema.access.structs);
        let s = struct_name(schema, lock.struct_index);
        ctx.bound_seqlocks.push(BoundSeqlockCtx {
            name: lock.name.clone(),
            session: schema.protocols[b.session].name.clone(),
            value: if whole {
                s.clone()
            } else {
                format!("{}_{}_copy", schema.abi.c_prefix, lock.name)
            },
            s,
            len: lock.guards.iter().any(|g| matches!(g, Guard::Trailer(_))),
            payload: lock.guards.iter().any(|g| match *g {
                Guard::Trailer(t) => schema.access.structs[lock.struct_index].trailer[t]
                    .size_field
                    .is_some(),
                Guard::Field(_) => false,
            }),
        });
    }
    let mut out = COMPILED.render(&ctx)?;
    out.push_str(&MAILBOX_COMPILED.render(&ctx)?);
    out.push_str(&SESSION_COMPILED.render(&ctx)?);
    Ok(out)
}

fn scalar(schema: &Schema, s: StructId, f: usize) -> FieldCtx {
    let fl = &schema.layout.of(s).fields[f];
    FieldCtx {
        at: fl.offset,
        width: fl.size,
        bits: fl.size * 8,
    }
}

fn offset(schema: &Schema, s: StructId, f: usize) -> u64 {
    schema.layout.of(s).fields[f].offset
}

fn member(schema: &Schema, s: StructId, f: usize) -> String {
    c_field_name(&schema.abi.structs[s].fields[f].name, &schema.abi.c_prefix)
}

fn member_ty(schema: &Schema, s: StructId, f: usize) -> String {
    field_type(&schema.abi, &schema.abi.structs[s].fields[f].ty).into_owned()
}

fn struct_name(schema: &Schema, s: StructId) -> String {
    c_type_name(&schema.abi.structs[s].name, &schema.abi.c_prefix)
}

/// The entry format of protocol `name`, its helpers shared with the first protocol in
/// `owners` (format, protocol) of the same format.
fn entry<'a>(schema: &Schema, name: &str, e: &'a Entry, owners: &mut Owners<'a>) -> EntryCtx {
    let si = e.struct_index;
    let size = schema.layout.of(si).size;
    let format = e.format();
    let owner = match owners.iter().find(|(f, _)| *f == format) {
        Some((_, owner)) => owner.clone(),
        None => {
            owners.push((format, name.to_string()));
            name.to_string()
        }
    };
    EntryCtx {
        own: owner == name,
        owner,
        s: struct_name(schema, si),
        size,
        max_size: e.max_size(size),
        size_f: scalar(schema, si, e.size),
        kind_f: scalar(schema, si, e.kind),
        size_member: member(schema, si, e.size),
        size_ty: member_ty(schema, si, e.size),
        kind_member: member(schema, si, e.kind),
        kind_ty: member_ty(schema, si, e.kind),
        padding: e.padding,
        record: e.record,
        parts: e
            .parts
            .iter()
            .map(|p| PartCtx {
                name: p.name.clone(),
                member: member(schema, si, p.len),
                ty: member_ty(schema, si, p.len),
                max: p.max,
                max_macro: const_macro(&schema.abi.c_prefix, &schema.abi.consts[p.max_const].name),
            })
            .collect(),
        seq: e.seq.map(|f| offset(schema, si, f)),
    }
}

fn head(schema: &Schema, name: String, doc: String, h: StructId) -> HeadCtx {
    HeadCtx {
        name,
        doc,
        header_s: struct_name(schema, h),
        area: schema.layout.of(h).size,
        bound: None,
    }
}

/// The entry formats printed so far, each with the protocol whose helpers print it.
type Owners<'a> = Vec<(EntryFormat<'a>, String)>;

fn queue<'a>(
    schema: &Schema,
    name: String,
    doc: String,
    q: &'a Queue,
    owners: &mut Owners<'a>,
) -> QueueCtx {
    let h = q.header;
    QueueCtx {
        entry: entry(schema, &name, &q.entry, owners),
        head: head(schema, name, doc, h),
        write_pos: offset(schema, h, q.write_pos),
        read_pos: offset(schema, h, q.read_pos),
        dropped: offset(schema, h, q.dropped),
        capacity: scalar(schema, h, q.capacity),
    }
}

fn broadcast<'a>(
    schema: &Schema,
    name: String,
    doc: String,
    b: &'a Broadcast,
    owners: &mut Owners<'a>,
) -> BroadcastCtx {
    let h = b.header;
    BroadcastCtx {
        entry: entry(schema, &name, &b.entry, owners),
        head: head(schema, name, doc, h),
        write_pos: offset(schema, h, b.write_pos),
        tail_pos: offset(schema, h, b.tail_pos),
        entries: offset(schema, h, b.entries),
        capacity: scalar(schema, h, b.capacity),
    }
}

fn mailbox(schema: &Schema, name: String, doc: String, m: &Mailbox) -> MailboxCtx {
    let h = m.header;
    MailboxCtx {
        head: head(schema, name, doc, h),
        request_seq: offset(schema, h, m.request_seq),
        request_len: offset(schema, h, m.request_len),
        response_seq: offset(schema, h, m.response_seq),
        status: offset(schema, h, m.status),
        response_len: offset(schema, h, m.response_len),
        response_total: offset(schema, h, m.response_total),
        request_capacity: scalar(schema, h, m.request_capacity),
        response_capacity: scalar(schema, h, m.response_capacity),
    }
}

fn exchange(schema: &Schema, name: String, doc: String, e: &Exchange) -> ExchangeCtx {
    let (h, l) = (e.header, e.list);
    ExchangeCtx {
        head: head(schema, name, doc, h),
        state: offset(schema, h, e.state),
        initial_state: e.start.state,
        writer_start: e.start.writer,
        reader_start: e.start.reader,
        stale_grace: e.stale_grace,
        buffers: scalar(schema, h, e.buffers),
        buffer_size: scalar(schema, h, e.buffer_size),
        max_items: scalar(schema, h, e.max_items),
        max_payload: scalar(schema, h, e.max_payload),
        published: offset(schema, h, e.published),
        list_s: struct_name(schema, l),
        list_size: schema.layout.of(l).size,
        list_align: schema.layout.of(l).align,
        count: member(schema, l, e.count),
        count_ty: member_ty(schema, l, e.count),
        payload_len: member(schema, l, e.payload_len),
        payload_len_ty: member_ty(schema, l, e.payload_len),
        dropped: member(schema, l, e.dropped),
        dropped_ty: member_ty(schema, l, e.dropped),
        flags: member(schema, l, e.overflow_field),
        flags_ty: member_ty(schema, l, e.overflow_field),
        overflow: e.overflow,
        item_s: struct_name(schema, e.item),
        item_size: schema.layout.of(e.item).size,
    }
}

fn session(
    schema: &Schema,
    index: usize,
    name: String,
    doc: String,
    s: &Session,
) -> Result<SessionCtx, RenderError> {
    let h = s.table.struct_index;
    for other in [s.host_generation, s.host_state] {
        if other.struct_index != h {
            return Err(RenderError(format!(
                "session `{name}`: the C helpers need host_generation and host_state in the struct that holds the table"
            )));
        }
    }
    let table = &schema.layout.of(h).fields[s.table.field];
    let row = schema.layout.of(s.row);
    let state = offset(schema, s.row, s.state);
    let generation = offset(schema, s.row, s.generation);
    // Each field with its own width, so that no store of the fill covers two fields (the
    // row's `waiting` and `heartbeat` are stored on their own); an array or a struct field
    // by its bytes, in the live copy's chunks, which stay inside it.
    let mut fill: Vec<(u64, u64, u64)> = Vec::new();
    for (fi, fl) in row.fields.iter().enumerate() {
        if fi == s.state || fi == s.generation || fl.size == 0 {
            continue;
        }
        let scalar =
            matches!(fl.size, 1 | 2 | 4 | 8) && fl.elem_size == fl.size && fl.offset % fl.size == 0;
        fill.push((fl.offset, fl.size, if scalar { fl.size * 8 } else { 0 }));
    }
    let bind = s.bind.map(|(f, unbound)| {
        if f.struct_index != h {
            return Err(RenderError(format!(
                "session `{name}`: the C helpers need the bind field in the struct that holds the table"
            )));
        }
        let fl = &schema.layout.of(h).fields[f.field];
        Ok(BindCtx {
            at: fl.offset,
            width: fl.size,
            bits: fl.size * 8,
            elem_size: fl.elem_size,
            count: schema.abi.structs[h].fields[f.field].ty.count(),
            unbound,
        })
    });
    Ok(SessionCtx {
        name,
        doc,
        header_s: struct_name(schema, h),
        row_s: struct_name(schema, s.row),
        table: table.offset,
        rows: schema.abi.structs[h].fields[s.table.field].ty.count(),
        stride: table.elem_size,
        state,
        generation,
        word: s.shared_word.is_some(),
        state_low: s.shared_word.is_some_and(|w| w.state_low),
        word_at: s.shared_word.map_or(0, |w| w.at),
        heartbeat: scalar(schema, s.row, s.heartbeat),
        waiting: offset(schema, s.row, s.waiting),
        free: s.free,
        claimed: s.claimed,
        active: s.active,
        closing: s.closing,
        heartbeat_ms: s.heartbeat_ms,
        hung_ms: s.hung_ms,
        host_generation: offset(schema, h, s.host_generation.field),
        host_state: offset(schema, h, s.host_state.field),
        exiting: s.exiting,
        bind: bind.transpose()?,
        owns: owns_blocks(schema, crate::ir::ProtocolId::new(index)),
        fill,
        events: crate::plan::events::session_events(schema, s)
            .into_iter()
            .map(|e| EventCtx {
                name: e.event.name.clone(),
                word: e.word_offset,
                seq: e.seq_offset,
                seq_width: e.seq_width,
            })
            .collect(),
    })
}
