//! The region protocols (`[[queue]]`, `[[broadcast]]`, `[[mailbox]]`, `[[exchange]]`,
//! `[[session]]`) in words: the steps each side takes, with the orderings the runtime and
//! every generated target follow. Printed beside the seqlocks and rings by every text target.

use crate::ir::StructId;
use crate::ir::protocol::{
    Broadcast, Entry, Exchange, Mailbox, Protocol as Decl, ProtocolKind, Queue, Session,
};
use crate::language_backend::prose::{ProtocolProse, Role, describe_protocols};
use crate::schema::Schema;

/// Every protocol of `schema`: those of its fields (seqlocks, rings, claims), then the
/// region protocols in the order the schema declares each kind.
pub fn describe_all(schema: &Schema) -> Vec<ProtocolProse> {
    let mut out = describe_protocols(schema);
    out.extend((schema.protocols.iter().enumerate()).map(|(i, p)| describe(schema, i, p)));
    out
}

fn who(schema: &Schema, p: &crate::ir::access::Parties) -> String {
    format!("the {}", p.describe(&schema.access.parties))
}

/// `` `struct.field` `` of field `f` of struct `s`.
fn field(schema: &Schema, s: StructId, f: usize) -> String {
    let st = &schema.abi.structs[s];
    format!("`{}.{}`", st.name, st.fields[f].name)
}

fn describe(schema: &Schema, index: usize, p: &Decl) -> ProtocolProse {
    let (summary, roles) = match &p.kind {
        ProtocolKind::Queue(q) => queue(schema, q),
        ProtocolKind::Broadcast(b) => broadcast(schema, b),
        ProtocolKind::Mailbox(m) => mailbox(schema, m),
        ProtocolKind::Exchange(e) => exchange(schema, e),
        ProtocolKind::Session(s) => session(schema, index, s),
    };
    ProtocolProse {
        kind: p.kind.table(),
        name: p.name.clone(),
        summary,
        doc: p.doc.clone(),
        roles,
    }
}

/// A protocol's two sides, each with its steps.
fn two_sides(a: String, a_steps: Vec<String>, b: String, b_steps: Vec<String>) -> Vec<Role> {
    vec![
        Role {
            who: a,
            steps: a_steps,
        },
        Role {
            who: b,
            steps: b_steps,
        },
    ]
}

/// The entry format, in one sentence.
fn entry_format(schema: &Schema, e: &Entry) -> String {
    let s = &schema.abi.structs[e.struct_index];
    let parts: Vec<String> = e
        .parts
        .iter()
        .map(|p| {
            format!(
                "{} (`{}` bytes, at most `{}`)",
                p.name, s.fields[p.len].name, schema.abi.consts[p.max_const].name
            )
        })
        .collect();
    let after = match parts.split_last() {
        None => String::new(),
        Some((last, [])) => format!(", then {last}"),
        Some((last, rest)) => format!(", then {} and {last}", rest.join(", ")),
    };
    format!(
        "Each entry is a `{}`{after}, padded to a multiple of 8; `{}` holds the whole entry's bytes and `{}` is `{}`. A `{}` entry fills the area to its end, and the next entry starts at offset 0.",
        s.name, s.fields[e.size].name, s.fields[e.kind].name, e.record_name, e.padding_name
    )
}

fn queue(schema: &Schema, q: &Queue) -> (String, Vec<Role>) {
    let f = |i| field(schema, q.header, i);
    let (w, r, cap, dropped) = (f(q.write_pos), f(q.read_pos), f(q.capacity), f(q.dropped));
    let summary = format!(
        "A queue of variable-size entries in the {cap} bytes after the header, from {} to {}: the writer never overwrites what the reader has not consumed, and an entry that does not fit is dropped and counted. {w} and {r} count bytes ever written and consumed, and never wrap. {}",
        who(schema, &q.writer),
        who(schema, &q.reader),
        entry_format(schema, &q.entry)
    );
    let writer = vec![
        format!("Check {cap} and its own {w} (never trust them): a broken peer is an error, never an access outside the area."),
        format!("Load {r} (acquire). If the entry (and the padding to the area's end, when it does not fit before it) is more than the free bytes `capacity - (write_pos - read_pos)`, add 1 to {dropped} (release) and stop: the entry is dropped."),
        "Copy the padding entry, if any, and the entry in whole 8-byte words (relaxed atomic stores).".to_string(),
        format!("Store {w} + the bytes written (release): the entry is published."),
    ];
    let reader = vec![
        format!("Load {w} (acquire). If it equals {r}, the queue is empty."),
        format!(
            "Check that {w} is ahead of {r} by at most {cap}, and that the entry's size is a multiple of 8, at least its header, within the bytes written and the area's end, and its parts within it: anything else is a named error, counted, and nothing is copied."
        ),
        "Copy the entry with relaxed atomic loads; skip a padding entry to offset 0.".to_string(),
        format!("Store {r} + the bytes consumed (release): the writer may reuse them."),
    ];
    (
        summary,
        two_sides(
            format!("Writer ({}; one)", who(schema, &q.writer)),
            writer,
            format!("Reader ({}; one)", who(schema, &q.reader)),
            reader,
        ),
    )
}

fn broadcast(schema: &Schema, b: &Broadcast) -> (String, Vec<Role>) {
    let f = |i| field(schema, b.header, i);
    let (w, tail, n, cap) = (f(b.write_pos), f(b.tail_pos), f(b.entries), f(b.capacity));
    let seq = b
        .entry
        .seq
        .map_or(String::new(), |s| field(schema, b.entry.struct_index, s));
    let summary = format!(
        "A ring of variable-size entries in the {cap} bytes after the header, from {} to any number of readers; the oldest entries are overwritten, and a reader the writer overtook is told how many entries it missed, never given a torn one. {w} counts bytes ever written, {tail} is the oldest whole entry, {n} counts entries, and each entry's {seq} holds the entries written before it. {}",
        who(schema, &b.writer),
        entry_format(schema, &b.entry)
    );
    let writer = vec![
        format!(
            "Work out the bytes the entry (and any padding to the area's end) overwrites, and move {tail} past every whole entry in them; store it (release), then fence (release), before any byte is written."
        ),
        format!(
            "Write the padding entry, if any, and the entry with {seq} = {n}, in whole 8-byte words (relaxed)."
        ),
        format!("Store {n} + 1 (relaxed), then {w} + the bytes written (release)."),
    ];
    let reader = vec![
        format!("Join at {w} (the newest) or {tail} (the oldest kept). Then, for each entry: load {w} (acquire); if it equals the reader's position, there is nothing new."),
        format!("Load {tail} (acquire). If the reader's position is behind it, the reader was lapped: report `Lapped {{ missed }}` (the missed entries, from {seq} of the oldest kept entry) and go on from {tail}."),
        "Copy the entry's size word, check it (a multiple of 8, at least the header, within the bytes written and the area's end), then copy the entry with relaxed atomic loads.".to_string(),
        format!("Fence (acquire), then load {tail} again: if it passed the entry, the copy may be torn; throw it away and report the lap. Otherwise the entry is whole."),
    ];
    (
        summary,
        two_sides(
            format!("Writer ({}; one)", who(schema, &b.writer)),
            writer,
            format!("Readers ({}; any number)", who(schema, &b.reader)),
            reader,
        ),
    )
}

fn mailbox(schema: &Schema, m: &Mailbox) -> (String, Vec<Role>) {
    let f = |i| field(schema, m.header, i);
    let (rs, rl, ps, st) = (
        f(m.request_seq),
        f(m.request_len),
        f(m.response_seq),
        f(m.status),
    );
    let (pl, pt, rc, pc) = (
        f(m.response_len),
        f(m.response_total),
        f(m.request_capacity),
        f(m.response_capacity),
    );
    let summary = format!(
        "One request at a time from {} to {}, each answer matched to its request by number, so a stale answer is never taken for a new one. The request area ({rc} bytes) follows the header, then the response area ({pc} bytes).",
        who(schema, &m.client),
        who(schema, &m.server)
    );
    let client = vec![
        format!(
            "Load {ps} (acquire). While it is not the last {rs} sent, the last request is unanswered: do not send another."
        ),
        format!(
            "Check the request against {rc}: a request takes at most `request_capacity - 1` bytes (a NUL follows it)."
        ),
        format!(
            "Copy the request text into the request area and store {rl} (relaxed atomic stores), then store {rs} + 1 (release)."
        ),
        format!(
            "Poll {ps} (acquire) until it equals that number. Then load {st}, {pl} and {pt}; check {pl} against {pc} and {pt} against {pl}, and copy the answer. It was cut when {pt} is more than {pl}."
        ),
    ];
    let server = vec![
        format!("Load {rs} (acquire). When it is not {ps}, a request waits."),
        format!(
            "Load {rl} and check it against {rc} (a broken client is answered with an error, never read past the area), and copy the request."
        ),
        format!(
            "Write the answer's first {pc} bytes into the response area, then {st}, {pl} and {pt} (the whole answer's bytes)."
        ),
        format!("Store {ps} = the {rs} answered (release)."),
    ];
    (
        summary,
        two_sides(
            format!("Client ({})", who(schema, &m.client)),
            client,
            format!("Server ({})", who(schema, &m.server)),
            server,
        ),
    )
}

fn exchange(schema: &Schema, e: &Exchange) -> (String, Vec<Role>) {
    let h = |i| field(schema, e.header, i);
    let l = |i| field(schema, e.list, i);
    let (state, published) = (h(e.state), h(e.published));
    let list = &schema.abi.structs[e.list].name;
    let item = &schema.abi.structs[e.item].name;
    let (writer_start, reader_start) = (e.start.writer, e.start.reader);
    let summary = format!(
        "A triple buffer of whole lists from {} to {}: {} `{list}` lists, {} bytes apart after the header, each followed by {} `{item}` and {} payload bytes. {state} holds the shared list's index (bits 0-1) and a fresh bit (bit 2); both sides swap it whole, so neither ever sees a list the other is writing or reading. Before the first publication (a new claim, or a host's reload) {state} is {} (list {} shared, not fresh): the writer starts with list {writer_start}, the reader with list {reader_start}. Each side keeps its own index to itself.",
        who(schema, &e.writer),
        who(schema, &e.reader),
        h(e.buffers),
        h(e.buffer_size),
        h(e.max_items),
        h(e.max_payload),
        e.start.state,
        e.start.state,
    );
    let writer = vec![
        format!(
            "Check {} (3), {} and the capacities against the bytes the region holds before writing a list.",
            h(e.buffers),
            h(e.buffer_size)
        ),
        format!(
            "Fill its own list: items up to {}, payload up to {}; what does not fit is dropped, counted in {} and flagged `{}` in {}. Store {} and {}.",
            h(e.max_items),
            h(e.max_payload),
            l(e.dropped),
            e.overflow_name,
            l(e.overflow_field),
            l(e.count),
            l(e.payload_len)
        ),
        format!(
            "Swap {state} with its own index | fresh (acquire-release): its own list is now the one the old state named. If the old state was fresh, the reader never took that list: it was overwritten."
        ),
        format!(
            "A state naming its own list is refused, but one: not fresh, after a publication of its own. The reader gave back the list the writer fills (a publication a free overtook made both hold it) and holds the list published last: publish in place (its own index | fresh) and take the third list."
        ),
        format!("Add 1 to {published} (release)."),
    ];
    let reader = vec![
        format!(
            "Load {state} (acquire). If the fresh bit is clear, nothing new was published: keep the list it holds."
        ),
        format!(
            "Otherwise swap {state} with its own index, not fresh (acquire-release): its own list is the one the old state named, the newest published."
        ),
        format!(
            "A fresh state that names its own list is a publication a free overtook (a writer of the row's last session): no correct writer publishes the reader's list. A reader absorbs {} such publication{} (a new reader for each session): it shows nothing of it, and waits. When the state next names another list fresh, the writer owns the one the stale publication named: take the fresh list and give back the third list, the one nobody owns (not fresh). A state not fresh while it waits is the stale publication taken back by its writer (stop waiting), unless it names the reader's own list. Past that grace, or that own list, the state is a broken writer's: refuse it (`exchange_state`), and the host frees the row.",
            e.stale_grace,
            if e.stale_grace == 1 { "" } else { "s" }
        ),
        format!(
            "Check {} against {} and {} against {} before reading the items and payload.",
            l(e.count),
            h(e.max_items),
            l(e.payload_len),
            h(e.max_payload)
        ),
    ];
    (
        summary,
        two_sides(
            format!("Writer ({})", who(schema, &e.writer)),
            writer,
            format!("Reader ({})", who(schema, &e.reader)),
            reader,
        ),
    )
}

fn session(schema: &Schema, index: usize, s: &Session) -> (String, Vec<Role>) {
    let r = |i| field(schema, s.row, i);
    let path = |f: crate::ir::access::FieldRef| field(schema, f.struct_index, f.field);
    let table = path(s.table);
    let (state, generation, beat, waiting) =
        (r(s.state), r(s.generation), r(s.heartbeat), r(s.waiting));
    let en = match schema.abi.structs[s.row].fields[s.state].ty.elem {
        crate::ir::Elem::Enum(e) => &schema.abi.enums[e],
        _ => unreachable!("a session's state is an enum"),
    };
    let name = |v: u64| {
        en.values
            .iter()
            .find(|x| x.value as u64 == v)
            .map_or(v.to_string(), |x| format!("`{}`", x.name))
    };
    let (free, claimed, active, closing) = (
        name(s.free),
        name(s.claimed),
        name(s.active),
        name(s.closing),
    );
    let (host_gen, host_state) = (path(s.host_generation), path(s.host_state));
    let summary = format!(
        "The lifecycle of a row of {table}: {} claims a {free} row, fills it in and keeps it while the row holds its generation; {} frees it. A row in use whose state, generation and heartbeat have not changed for {} ms of the host's clock counts as hung.",
        who(schema, &s.client),
        who(schema, &s.host),
        s.hung_ms
    );
    let mut client = vec![
        format!(
            "Claim, through a handle attached at host generation G: where {state} and {generation} share one 8-byte word, compare-and-swap that word from ({free}, g) to ({claimed}, g + 1) (acquire-release); otherwise compare-and-swap {state} from {free} to {claimed}, then add 1 to {generation}. Keep the new generation: the row's generation is the claim's. On failure try the next row."
        ),
        format!(
            "After the claim, load {host_state} and {host_gen} (acquire): when the host is exiting, or {host_gen} is not G, give the row back (compare-and-swap from {claimed} back to {free}, the generation kept) and attach again; if the host freed it first, the claim stands and its next check says why."
        ),
        "Fill in the row's other fields (relaxed atomic stores).".to_string(),
        format!(
            "Activate: load {host_gen} (acquire) and do nothing when it is not G; then compare-and-swap the state from {claimed} to {active} (release) while {generation} is the claim's: where the state and the generation share one 8-byte word, one compare-and-swap of that word checks both. The give-back and Close check {host_gen} first the same way."
        ),
        format!(
            "Store {beat} = a monotonic clock in ns (release), only while the standing (below) is connected, at least every {} ms: a value that changes (the host only compares it with its last). Store {waiting} = 1 (release) before sleeping on the tick event, then a full (SeqCst) fence, then load what the host publishes and sleep only when it is not new; store 0 after.",
            s.heartbeat_ms
        ),
        format!(
            "Before each use, and at each heartbeat: load {state} and {generation} (acquire; one load where they share a word), then {host_state} and {host_gen} (acquire). When {host_state} is `exiting`, the host is going away; when {host_gen} is not G, the host reloaded and freed every row: attach again. Otherwise, if the state is not {claimed} or {active}, or the generation is not the claim's, the row was freed or taken: disconnected, claim again."
        ),
        format!(
            "Before each write to the blocks the row owns, check the standing as above and write nothing once the row is not the claim's; after a publication, check again and take it back (compare-and-swap of the state word to what it was) when a free overtook it. The window left is one write."
        ),
        format!(
            "Close: compare-and-swap the state from {active} (or {claimed}) to {closing} (release), only while the generation is the claim's."
        ),
    ];
    if let Some((bind, unbound)) = s.bind {
        client.push(format!(
            "Bind a pad, while the claim stands: compare-and-swap its byte of {} from {unbound} (free) to the row's index, as a compare-and-swap of the whole word holding it; then a full (seq_cst) fence and the standing again, and when the claim no longer stands, swap it back (the host's free fences between its retire and its sweep of the pads, so one side always sees the other). Unbind, while the claim stands, by swapping it back. The byte holds only the row's index: a stale client's undo or unbind can still unbind the same pad if the row's next client bound it in between.",
            path(bind)
        ));
    }
    let release = match s.bind {
        Some((bind, unbound)) => format!(
            " then a full (seq_cst) fence, let go of every pad the row's index owns in {} (back to {unbound}),",
            path(bind)
        ),
        None => String::new(),
    };
    let restore = restores(schema, crate::ir::ProtocolId::new(index));
    let host = vec![
        format!(
            "Free a row after a {closing}, or when it is hung: the host keeps, for each row, the {state}, {generation} and {beat} it last loaded and the time of its own monotonic clock when it first saw them so; a {claimed} or {active} row whose three have not changed for more than {} ms is hung (a row first seen in use gets that long, heartbeat or not; one stuck in {claimed} is hung too; {beat} is only compared with itself, never with the host's clock). Retire it (swap {state} to {closing}, acquire-release: its client sees it gone and nobody can claim it),{release}{restore} then store {state} = {free} (release). The client notices at its next check; the next claim finds nothing of the last client's.",
            s.hung_ms
        ),
        format!(
            "To wake a sleeping client: after publishing, a full (SeqCst) fence, then load {waiting} (acquire); wake it when 1."
        ),
        format!(
            "On a reload, add 1 to {host_gen} (acquire-release) first, then free every row as above, each row also after a free that gave up (a word the client shares kept changing); then report the rows freed and, as an error, the rows not. A new image produced over the mapping takes a generation past the mapping's, and so does each row's {generation} (the image's when greater, else the mapping's + 1), written with one store of its word. Before exiting, store {host_state} = `exiting` (release)."
        ),
    ];
    (
        summary,
        two_sides(
            format!("Client ({})", who(schema, &s.client)),
            client,
            format!("Host ({})", who(schema, &s.host)),
            host,
        ),
    )
}

/// What a free restores in the blocks a session's rows own (`plan::session`), as a clause of
/// the free's sentence: empty when they own none.
fn restores(schema: &Schema, session: crate::ir::ProtocolId) -> String {
    use crate::plan::session::{Restore, owned_blocks};
    let mut parts = Vec::new();
    for o in owned_blocks(schema, session) {
        let blocks = &schema.attach.layouts[o.layout].rows[o.row].name;
        let restored = o.words.iter().filter(|w| w.restored).count();
        if restored > 0 {
            parts.push(format!(
                "store the {restored} words the host alone writes in the headers of `{blocks}[i]` back from its own image"
            ));
        }
        for r in &o.regions {
            let region = &schema.attach.layouts[o.block_layout].rows[r.row].name;
            parts.push(match r.restore {
                Restore::Mailbox => format!(
                    "answer the request waiting in `{blocks}[i].{region}` with status 0 and no text"
                ),
                Restore::Exchange { initial_state } => format!(
                    "store `{blocks}[i].{region}`'s state = {initial_state}, its initial state"
                ),
            });
        }
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        " when it was not free put back what the row (row i) owned in its blocks ({}; a queue keeps its entries for the host to drain),",
        parts.join("; ")
    )
}
