//! Rings: a slot ring's newest slot and publish, or an event ring's events since a count.

use serde::Serialize;

use super::comments::{find, protocol_comment};
use crate::ir::access::{Guard, Ring, RingKind};
use crate::language_backend::c::names::{c_field_name, c_type_name, field_type};
use crate::language_backend::prose::ProtocolProse;
use crate::schema::Schema;

#[derive(Serialize)]
pub(super) struct SlotRingCtx {
    doc: String,
    name: String,
    head_s: String,
    head_name: String,
    head_bits: u64,
    slot_s: String,
    lock: String,
    value: String,
    slot_count: u64,
    slot_size: u64,
    /// The least slot size a reader or writer accepts: the slot struct's own bytes.
    least: u64,
    payload: bool,
    /// The value's member that publish stamps with the head's new value, if any.
    stamp: Option<String>,
}

#[derive(Serialize)]
pub(super) struct EventRingCtx {
    doc: String,
    name: String,
    s: String,
    total: String,
    entries: String,
    elem: String,
    capacity: u64,
}

/// A ring: the newest slot and the publish of a slots ring, or the events since a count;
/// added to `slot_rings` or `event_rings`.
pub(super) fn build_ring(
    schema: &Schema,
    protocols: &[ProtocolProse],
    ring: &Ring,
    slot_rings: &mut Vec<SlotRingCtx>,
    event_rings: &mut Vec<EventRingCtx>,
) {
    let abi = &schema.abi;
    let prefix = &abi.c_prefix;
    let doc = protocol_comment(find(protocols, "ring", &ring.name));
    match &ring.kind {
        RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            publish_seq,
            ..
        } => {
            let lock = &schema.access.seqlocks[*seqlock];
            let head_s = &abi.structs[head.struct_index];
            let slot_s = c_type_name(&abi.structs[lock.struct_index].name, prefix);
            let a = &schema.access.structs[lock.struct_index];
            slot_rings.push(SlotRingCtx {
                doc,
                name: ring.name.clone(),
                head_s: c_type_name(&head_s.name, prefix),
                head_name: head_s.fields[head.field].name.clone(),
                head_bits: schema.layout.field(*head).size * 8,
                value: if lock.guards_whole_struct(&schema.access.structs) {
                    slot_s.clone()
                } else {
                    format!("{prefix}_{}_copy", lock.name)
                },
                slot_s,
                lock: lock.name.clone(),
                slot_count: *slot_count,
                slot_size: *slot_size,
                least: schema.layout.of(lock.struct_index).size,
                payload: lock.guards.iter().any(|g| match g {
                    Guard::Trailer(t) => a.trailer[*t].size_field.is_some(),
                    Guard::Field(_) => false,
                }),
                stamp: publish_seq
                    .map(|f| c_field_name(&abi.structs[lock.struct_index].fields[f].name, prefix)),
            });
        }
        RingKind::Events {
            total,
            entries,
            capacity,
        } => {
            let s = &abi.structs[total.struct_index];
            let entries_field = &s.fields[entries.field];
            event_rings.push(EventRingCtx {
                doc,
                name: ring.name.clone(),
                s: c_type_name(&s.name, prefix),
                total: c_field_name(&s.fields[total.field].name, prefix),
                entries: c_field_name(&entries_field.name, prefix),
                elem: field_type(abi, &entries_field.ty).into_owned(),
                capacity: *capacity,
            });
        }
    }
}
