//! File formats, templates and protocols compared: each `[[file]]` by its records (struct,
//! place, count, encoding, seek), totals and ordered fields; each `[[template]]` by its path
//! and output; each protocol (`[[queue]]`, `[[broadcast]]`, `[[mailbox]]`, `[[exchange]]`,
//! `[[session]]`) by the fields, values and capacities it names and the parties that play
//! its sides.

use crate::ir::file::{FieldRef, FileFormat, Place};
use crate::ir::protocol::{Entry, Protocol, ProtocolKind};
use crate::schema::Schema;

use super::change::{ChangeKind as K, ItemKind, Shape};
use super::compute::{Cx, named};
use super::declared::Declarations;
use super::facts::{Facts, field_path, ruled};
use crate::ir::StructId;

fn file_facts(schema: &Schema, f: &FileFormat) -> Facts {
    // "record NAME": a record is no struct, even with a struct's name (see `rename_words`).
    let rec = |i: usize| {
        format!(
            "record {}",
            f.records.get(i).map_or("?", |r| r.name.as_str())
        )
    };
    let field = |r: &FieldRef| format!("{}.{}", rec(r.record), r.field.path);
    let mut facts: Facts = Vec::new();
    for r in &f.records {
        let place = match &r.place {
            Place::At(o) => format!("at {o}"),
            Place::FromEnd(o) => format!("{o} bytes before the end"),
            Place::Field(x) => format!("at {}", field(x)),
            Place::Each(x) => format!("each at {}", field(x)),
            Place::After(i) => format!("after {}", rec(*i)),
            Place::Zlib(z) => format!(
                "in the zlib stream after {} (stored {}, raw {}{})",
                rec(z.source),
                z.stored.path,
                z.raw.path,
                z.count
                    .as_ref()
                    .map_or_else(String::new, |c| format!(", count {}", c.path))
            ),
        };
        let mut v = format!(
            "struct {}, {place}",
            schema.abi.structs[r.struct_index].name
        );
        if let Some(c) = &r.count {
            v.push_str(&format!(", count {}", field(c)));
        }
        if let Some(e) = &r.encoding {
            let steps: Vec<String> = e
                .steps
                .iter()
                .map(|(k, s)| format!("{k} {}", s.name()))
                .collect();
            v.push_str(&format!(
                ", encoding {} ({}) decoded as {}",
                e.kind.path,
                steps.join(", "),
                schema.abi.structs[e.decoded].name
            ));
        }
        if let Some(s) = &r.seek {
            v.push_str(&format!(", seek {}", s.key.path));
        }
        facts.push((format!("record {}", r.name), v));
        // Its size apart: a size that changes with its struct is that change's effect.
        facts.push((
            format!("record {} size", r.name),
            format!("{} bytes", r.size),
        ));
    }
    for t in &f.totals {
        facts.push((format!("total {}", field(&t.total)), t.text.clone()));
    }
    for o in &f.ordered {
        facts.push((format!("ordered {}", rec(o.record)), o.field.path.clone()));
    }
    facts
}

fn entry_facts(schema: &Schema, e: &Entry, facts: &mut Facts) {
    let s = e.struct_index;
    facts.push(("entry".into(), schema.abi.structs[s].name.clone()));
    facts.push(("entry.size".into(), field_path(schema, s, e.size)));
    facts.push((
        "entry.kind".into(),
        format!(
            "{} (record {} = {}, padding {} = {})",
            field_path(schema, s, e.kind),
            e.record_name,
            e.record,
            e.padding_name,
            e.padding
        ),
    ));
    for p in &e.parts {
        facts.push((
            format!("entry.part {}", p.name),
            format!("len {}, max {}", field_path(schema, s, p.len), p.max),
        ));
    }
    if let Some(q) = e.seq {
        facts.push(("entry.seq".into(), field_path(schema, s, q)));
    }
}

/// The facts of a protocol, the struct it lies over, and which facts are its parties.
fn protocol_facts(schema: &Schema, p: &Protocol) -> (Facts, StructId) {
    let who = |x: &crate::ir::access::Parties| x.describe(&schema.access.parties);
    let mut f: Facts = vec![("kind".into(), p.kind.table().to_string())];
    let fields = |h: StructId, names: &[(&str, usize)], f: &mut Facts| {
        f.push(("header".into(), schema.abi.structs[h].name.clone()));
        for (k, i) in names {
            f.push(((*k).to_string(), field_path(schema, h, *i)));
        }
    };
    let over = match &p.kind {
        ProtocolKind::Queue(q) => {
            fields(
                q.header,
                &[
                    ("write_pos", q.write_pos),
                    ("read_pos", q.read_pos),
                    ("dropped", q.dropped),
                    ("capacity", q.capacity),
                ],
                &mut f,
            );
            entry_facts(schema, &q.entry, &mut f);
            f.push(("writer".into(), who(&q.writer)));
            f.push(("reader".into(), who(&q.reader)));
            q.header
        }
        ProtocolKind::Broadcast(b) => {
            fields(
                b.header,
                &[
                    ("write_pos", b.write_pos),
                    ("tail_pos", b.tail_pos),
                    ("entries", b.entries),
                    ("capacity", b.capacity),
                ],
                &mut f,
            );
            entry_facts(schema, &b.entry, &mut f);
            f.push(("writer".into(), who(&b.writer)));
            f.push(("reader".into(), who(&b.reader)));
            b.header
        }
        ProtocolKind::Mailbox(m) => {
            fields(
                m.header,
                &[
                    ("request_seq", m.request_seq),
                    ("request_len", m.request_len),
                    ("response_seq", m.response_seq),
                    ("status", m.status),
                    ("response_len", m.response_len),
                    ("response_total", m.response_total),
                    ("request_capacity", m.request_capacity),
                    ("response_capacity", m.response_capacity),
                ],
                &mut f,
            );
            f.push(("client".into(), who(&m.client)));
            f.push(("server".into(), who(&m.server)));
            m.header
        }
        ProtocolKind::Exchange(x) => {
            fields(
                x.header,
                &[
                    ("state", x.state),
                    ("buffers", x.buffers),
                    ("buffer_size", x.buffer_size),
                    ("published", x.published),
                    ("max_items", x.max_items),
                    ("max_payload", x.max_payload),
                ],
                &mut f,
            );
            f.push(("initial_state".into(), x.start.state.to_string()));
            f.push(("list".into(), schema.abi.structs[x.list].name.clone()));
            for (k, i) in [
                ("count", x.count),
                ("payload_len", x.payload_len),
                ("dropped", x.dropped),
                ("overflow", x.overflow_field),
            ] {
                f.push((format!("list.{k}"), field_path(schema, x.list, i)));
            }
            f.push((
                "overflow flag".into(),
                format!("{} = {}", x.overflow_name, x.overflow),
            ));
            f.push(("item".into(), schema.abi.structs[x.item].name.clone()));
            f.push(("writer".into(), who(&x.writer)));
            f.push(("reader".into(), who(&x.reader)));
            x.header
        }
        ProtocolKind::Session(s) => {
            f.push((
                "table".into(),
                field_path(schema, s.table.struct_index, s.table.field),
            ));
            f.push(("row".into(), schema.abi.structs[s.row].name.clone()));
            for (k, i) in [
                ("state", s.state),
                ("generation", s.generation),
                ("heartbeat", s.heartbeat),
                ("waiting", s.waiting),
            ] {
                f.push((k.to_string(), field_path(schema, s.row, i)));
            }
            f.push((
                "states".into(),
                format!(
                    "free {}, claimed {}, active {}, closing {}, exiting {}",
                    s.free, s.claimed, s.active, s.closing, s.exiting
                ),
            ));
            f.push(("heartbeat_ms".into(), s.heartbeat_ms.to_string()));
            f.push(("hung_ms".into(), s.hung_ms.to_string()));
            f.push((
                "host_generation".into(),
                field_path(
                    schema,
                    s.host_generation.struct_index,
                    s.host_generation.field,
                ),
            ));
            f.push((
                "host_state".into(),
                field_path(schema, s.host_state.struct_index, s.host_state.field),
            ));
            if let Some((b, unbound)) = &s.bind {
                f.push((
                    "bind".into(),
                    format!(
                        "{} (unbound {unbound})",
                        field_path(schema, b.struct_index, b.field)
                    ),
                ));
            }
            f.push(("client".into(), who(&s.client)));
            f.push(("host".into(), who(&s.host)));
            s.table.struct_index
        }
    };
    (f, over)
}

const PARTY_FACTS: [&str; 6] = ["writer", "reader", "client", "server", "host", "parties"];

impl Cx<'_> {
    pub(super) fn compare_decls(&mut self) {
        self.compare_files();
        self.compare_templates();
        // Without parties in the old schema, the protocols, directories and events are described
        // for the first time with the rest of the shared memory (`compare_shared`).
        if !self.old.access.parties.is_empty() {
            self.compare_protocols();
            self.compare_directories();
            self.compare_events();
        }
    }

    fn compare_files(&mut self) {
        let (old, new) = (self.old, self.new);
        let files = Declarations {
            sides: (&old.attach.files, &new.attach.files),
            item: ItemKind::File,
            removed: K::FileRemoved,
            path: |f| f.name.clone(),
            span: |f| &f.span,
            doc: |f| &f.doc,
            facts: file_facts,
        };
        self.compare_declarations(
            files,
            |cx, b, path, _| {
                let names: Vec<&str> = b.records.iter().map(|r| r.name.as_str()).collect();
                let c = ruled(
                    K::FileAdded,
                    ItemKind::File,
                    path,
                    "file format added",
                    "a new file format; nothing old changes",
                )
                .sides(
                    None,
                    Some(Shape {
                        value: Some(format!("records {}", names.join(", "))),
                        ..named(path)
                    }),
                )
                .spans(None, Some(&b.span));
                cx.push(c);
            },
            |cx, (a, b), path, diffs| {
                // Sizes of records whose struct changed: each an effect of that struct's change.
                let (sizes, rest): (Vec<_>, Vec<_>) = diffs
                    .into_iter()
                    .partition(|(k, _, _)| k.ends_with(" size"));
                let spans = (&a.span, &b.span);
                let kind = (K::FileChanged, ItemKind::File);
                cx.facts_changed(kind, path, &rest, spans);
                for d in sizes {
                    let record = d.0.trim_start_matches("record ").trim_end_matches(" size");
                    let elem = b
                        .records
                        .iter()
                        .find(|r| r.name == record)
                        .map(|r| new.abi.structs[r.struct_index].name.clone());
                    if let Some(i) = cx.facts_changed(kind, path, &[d], spans) {
                        cx.changes[i].site = Some(super::change::FieldSite {
                            owner: b.name.clone(),
                            pos: 0,
                            elem,
                            len: None,
                        });
                    }
                }
            },
        );
    }

    fn compare_templates(&mut self) {
        let (old, new) = (&self.old.templates, &self.new.templates);
        let shape = |t: &crate::ir::template::UserTemplate| Shape {
            value: Some(format!("output = {}", t.output)),
            ..named(&t.path)
        };
        let mut found = Vec::new();
        for b in new {
            match old.iter().find(|a| a.path == b.path) {
                None => found.push(
                    ruled(
                        K::TemplateAdded,
                        ItemKind::Template,
                        &b.path,
                        "template added",
                        "a new output; nothing old changes",
                    )
                    .sides(None, Some(shape(b)))
                    .spans(None, Some(&b.path_span)),
                ),
                Some(a) if a.output != b.output => found.push(
                    ruled(
                        K::TemplateOutputChanged,
                        ItemKind::Template,
                        &b.path,
                        "template output changed",
                        format!(
                            "the bytes are the same, but the generated file moves from {} to {}",
                            a.output, b.output
                        ),
                    )
                    .sides(Some(shape(a)), Some(shape(b)))
                    .spans(Some(&a.path_span), Some(&b.path_span)),
                ),
                Some(_) => {}
            }
        }
        for a in old.iter().filter(|a| !new.iter().any(|b| b.path == a.path)) {
            found.push(
                ruled(
                    K::TemplateRemoved,
                    ItemKind::Template,
                    &a.path,
                    "template removed",
                    format!(
                        "the bytes are the same, but {} is no longer generated",
                        a.output
                    ),
                )
                .sides(Some(shape(a)), None)
                .spans(Some(&a.path_span), None),
            );
        }
        for c in found {
            self.push(c);
        }
    }

    fn compare_protocols(&mut self) {
        let (old, new) = (self.old, self.new);
        // A protocol is known by its kind and name (`mailbox.commands`): a renamed one with
        // the same facts (its kind is the first) is the same protocol.
        let protocols = Declarations {
            sides: (&old.protocols, &new.protocols),
            item: ItemKind::Protocol,
            removed: K::ProtocolRemoved,
            path: |p| format!("{}.{}", p.kind.table(), p.name),
            span: |p| &p.span,
            doc: |p| &p.doc,
            facts: |s, p| protocol_facts(s, p).0,
        };
        self.compare_declarations(
            protocols,
            |cx, b, path, facts| {
                let (_, over) = protocol_facts(new, b);
                let kind = (K::ProtocolAdded, ItemKind::Protocol);
                cx.declaration_added(kind, path, Some(over), facts, &b.span);
            },
            |cx, (a, b), path, diffs| {
                let (parties, rest): (Vec<_>, Vec<_>) = diffs
                    .into_iter()
                    .partition(|(k, _, _)| PARTY_FACTS.contains(&k.as_str()));
                let spans = (&a.span, &b.span);
                let item = ItemKind::Protocol;
                cx.facts_changed((K::ProtocolChanged, item), path, &rest, spans);
                cx.facts_changed((K::ProtocolPartiesChanged, item), path, &parties, spans);
            },
        );
    }
}
