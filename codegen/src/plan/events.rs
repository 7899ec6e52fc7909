//! The events a session's two sides use (issue 47), decided once here for every target: an
//! event per row of the session's table, which the session's client waits on and its host
//! sets, whose word lies in the struct that holds the table. The client sleeps on it through
//! the session's `waiting` handshake, comparing the whole field that holds the word (the
//! sequence, of which the word may be the low half); the host sets it after each publication
//! for the rows that wait, or that the host's caller says always want it (a `ticks` cap).

use crate::ir::event::{Event, NamePart};
use crate::ir::protocol::Session;
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

/// A session's event: where its word is and what it compares.
#[derive(Debug, Clone)]
pub struct SessionEvent<'a> {
    pub event: &'a Event,
    /// The word's offset from the start of the struct that holds the table.
    pub word_offset: u64,
    /// The field that holds the word (the sequence the waiter compares), from the same
    /// start, and its width in bytes (4, or 8 when the word is its low half).
    pub seq_offset: u64,
    pub seq_width: u64,
    /// The root handshake's pid and generation, which the Windows name may hold.
    pub pid: Option<Scalar>,
    pub generation: Option<Scalar>,
}

/// The events of session `s`: per row of its table, waited on by its client and set by its
/// host, with the word in the struct that holds the table.
pub fn session_events<'a>(schema: &'a Schema, s: &Session) -> Vec<SessionEvent<'a>> {
    let a = &schema.attach;
    let handshake = a.root.and_then(|r| {
        let header = a.layouts[r].header;
        a.handshakes.iter().find(|h| h.struct_index == header)
    });
    let pid = handshake.and_then(|h| h.identity.pid.clone());
    let generation = handshake.and_then(|h| h.liveness.as_ref().and_then(|l| l.generation.clone()));
    schema
        .events
        .iter()
        .filter(|e| {
            e.rows == Some(s.table)
                && e.waiter == s.client
                && e.setter == s.host
                && e.word.struct_index == s.table.struct_index
        })
        .map(|e| {
            let f = schema.layout.field(e.word);
            SessionEvent {
                event: e,
                word_offset: e.word_offset,
                seq_offset: f.offset,
                seq_width: f.size,
                pid: pid.clone(),
                generation: generation.clone(),
            }
        })
        .collect()
}

/// The session event `e` belongs to when it is one per row of a session's table that the
/// session's host waits on and its client sets (the input and commands' events): the session's
/// index among the protocols, and the session.
pub fn set_by_clients<'a>(
    schema: &'a Schema,
    e: &Event,
) -> Option<(crate::ir::ProtocolId, &'a Session)> {
    let rows = e.rows?;
    let (index, s) =
        crate::ir::ProtocolId::enumerate(&schema.protocols).find_map(|(i, p)| match &p.kind {
            crate::ir::protocol::ProtocolKind::Session(s) if s.table == rows => Some((i, s)),
            _ => None,
        })?;
    (e.waiter == s.host && e.setter == s.client).then_some((index, s))
}

/// The Windows name's pieces as a format string (`{}` per placeholder) and the
/// placeholders in order.
pub fn name_format(e: &Event) -> (String, Vec<NamePart>) {
    let mut text = String::from("Local\\");
    let mut args = Vec::new();
    for p in &e.windows_name {
        match p {
            NamePart::Text(t) => text.push_str(&t.replace('{', "{{").replace('}', "}}")),
            other => {
                text.push_str("{}");
                args.push(other.clone());
            }
        }
    }
    (text, args)
}

/// One figure's store into the header that receives the wake statistics.
#[derive(Debug, Clone)]
pub struct StatStore {
    /// `ticks`, `skipped`, `p50_us` or `p99_us`.
    pub key: &'static str,
    /// The field's name and its offset from the start of its struct.
    pub field: String,
    pub offset: u64,
    /// An atomic field (a release store) or a plain one (relaxed atomic stores, made before
    /// the atomic ones so that their release stores publish them).
    pub atomic: bool,
    /// An `f32` (a percentile) or a `u64` (a count).
    pub float: bool,
}

/// Where an event's waiter stores its wake statistics: the struct, and its stores in order
/// (the plain fields first, then the atomic ones, each group in the schema's order).
#[derive(Debug, Clone)]
pub struct WakeStore<'a> {
    pub event: &'a Event,
    pub struct_index: crate::ir::StructId,
    pub stores: Vec<StatStore>,
}

/// The events whose `stats` name the fields their waiter stores its wake statistics in.
pub fn wake_stores(schema: &Schema) -> Vec<WakeStore<'_>> {
    schema
        .events
        .iter()
        .filter_map(|e| {
            let st = e.stats.as_ref()?;
            let mut stores: Vec<StatStore> = st
                .fields()
                .into_iter()
                .map(|(key, r)| {
                    let f = r.of(&schema.abi);
                    let fl = schema.layout.field(r);
                    StatStore {
                        key,
                        field: f.name.clone(),
                        offset: fl.offset,
                        atomic: r.access(&schema.access.structs).kind.is_atomic(),
                        float: matches!(key, "p50_us" | "p99_us"),
                    }
                })
                .collect();
            stores.sort_by_key(|s| s.atomic);
            Some(WakeStore {
                event: e,
                struct_index: st.ticks.struct_index,
                stores,
            })
        })
        .collect()
}
