//! Rings: the class of a slot ring (its newest slot and publish), the `<ring>_since`
//! function of an event ring, and the bot example of the module, which reads the first slot
//! ring.

use serde::Serialize;

use super::context::Ctx;
use super::protocols::SessionClass;
use super::view::{MethodKind, ViewClass, method};
use crate::ir::access::{Ring, RingKind};
use crate::ir::names::upper;
use crate::ir::protocol::ProtocolKind;
use crate::ir::{Elem, StructId};
use crate::language_backend::python::literals::doc_lines;

#[derive(Serialize)]
pub(in crate::language_backend::python) struct RingClass {
    pub(in crate::language_backend::python) name: String,
    ring: String,
    doc: Vec<String>,
    slot_count: u64,
    slot_size: u64,
    align: u64,
    pub(in crate::language_backend::python) header_view: String,
    head_field: String,
    head_get: String,
    head_set: String,
    head_mask: String,
    pub(in crate::language_backend::python) slot_view: String,
    lock: String,
    pub(in crate::language_backend::python) value: String,
    /// The value's attribute publish stamps with the head's new value, if any.
    stamp: Option<String>,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct EventsFunction {
    pub(in crate::language_backend::python) name: String,
    ring: String,
    pub(in crate::language_backend::python) holder: String,
    total: String,
    pub(in crate::language_backend::python) entries: String,
    capacity: u64,
    doc: Vec<String>,
    /// Also a method of the holder (no field of that name).
    pub(in crate::language_backend::python) method: bool,
    /// The writer's function, `push_<ring>`, as named, and whether it is a method too.
    pub(in crate::language_backend::python) push: String,
    pub(in crate::language_backend::python) push_method: bool,
    /// The total's mask: its width's all-ones.
    total_mask: String,
}

/// The names of the bot example: the first slot ring, its header view, and a row of that
/// header claimed by compare-and-swap of an enum field, from its first member to its second,
/// then its first atomic counter (fetch-add) bumped, as a claim that changes the row's
/// generation must, then set to the enum's third member.
#[derive(Serialize)]
pub(super) struct Example {
    module: String,
    header_view: String,
    ring: String,
    /// Where the header's rows are a session's table, the claim is the session's (its class
    /// and the host generation's getter); the compare-and-swap claim is for a table of no
    /// session.
    session: Option<SessionClaim>,
    claim: Option<Claim>,
}

#[derive(Serialize)]
struct SessionClaim {
    class: String,
    count: u64,
    host_generation: String,
}

#[derive(Serialize)]
struct Claim {
    rows: String,
    count: String,
    cas: String,
    set: String,
    /// The row's first fetch-add method, if it has one.
    bump: Option<String>,
    enum_class: String,
    from: String,
    to: String,
    active: String,
}

impl Ctx<'_> {
    pub(super) fn ring_class(
        &self,
        ring: &Ring,
        name: String,
        views: &[ViewClass],
    ) -> Option<RingClass> {
        let RingKind::Slots {
            head,
            slot_count,
            slot_size,
            seqlock,
            publish_seq,
            ..
        } = ring.kind
        else {
            return None;
        };
        let lock = &self.schema.access.seqlocks[seqlock];
        let header_view = self.views[head.struct_index].clone()?;
        let head_field = &self.schema.abi.structs[head.struct_index].fields[head.field];
        // The head's getter and setter, as the view named them.
        let get = method(views, &header_view, &head_field.name, MethodKind::Load)?
            .name
            .clone();
        let set = method(views, &header_view, &head_field.name, MethodKind::Store)?
            .name
            .clone();
        let head_size = self.schema.layout.of(head.struct_index).fields[head.field].size;
        Some(RingClass {
            name,
            ring: ring.name.clone(),
            doc: doc_lines(&ring.doc),
            slot_count,
            slot_size,
            align: self.schema.layout.of(lock.struct_index).align,
            header_view,
            head_field: head_field.name.clone(),
            head_get: get,
            head_set: set,
            head_mask: format!("0x{}", "f".repeat(2 * head_size as usize)),
            slot_view: self.views[lock.struct_index].clone()?,
            lock: lock.name.clone(),
            value: self.values[seqlock].clone(),
            stamp: publish_seq.map(|f| {
                self.schema.abi.structs[lock.struct_index].fields[f]
                    .name
                    .clone()
            }),
        })
    }

    pub(super) fn events_function(
        &self,
        ring: &Ring,
        name: String,
        push: String,
    ) -> EventsFunction {
        let RingKind::Events {
            total,
            entries,
            capacity,
        } = ring.kind
        else {
            unreachable!("called for event rings only");
        };
        let s = &self.schema.abi.structs[total.struct_index];
        let total_size = self.schema.layout.of(total.struct_index).fields[total.field].size;
        EventsFunction {
            method: !s.fields.iter().any(|f| f.name == name),
            name,
            push_method: !s.fields.iter().any(|f| f.name == push),
            push,
            total_mask: format!("0x{}", "f".repeat(2 * total_size as usize)),
            ring: ring.name.clone(),
            holder: self.names.structs[total.struct_index].clone(),
            total: s.fields[total.field].name.clone(),
            entries: s.fields[entries.field].name.clone(),
            capacity,
            doc: doc_lines(&ring.doc),
        }
    }

    pub(super) fn example(
        &self,
        ring: &RingClass,
        views: &[ViewClass],
        sessions: &[SessionClass],
    ) -> Option<Example> {
        let (abi, module) = (&self.schema.abi, &self.schema.abi.name);
        let (hi, _) = StructId::enumerate(&self.views)
            .find(|(_, v)| v.as_ref() == Some(&ring.header_view))?;
        let session = (self.schema.protocols.iter())
            .filter_map(|p| match &p.kind {
                ProtocolKind::Session(s) if s.table.struct_index == hi => Some((p, s)),
                _ => None,
            })
            .find_map(|(p, s)| {
                let class = sessions.iter().find(|c| c.name == p.name)?;
                let hg =
                    &abi.structs[s.host_generation.struct_index].fields[s.host_generation.field];
                let get = method(views, &ring.header_view, &hg.name, MethodKind::Load)?;
                Some(SessionClaim {
                    class: class.class.clone(),
                    count: class.rows,
                    host_generation: get.name.clone(),
                })
            });
        let claim = abi.structs[hi].fields.iter().find_map(|f| {
            let (Elem::Struct(j), Some(len)) = (f.ty.elem, f.ty.len) else {
                return None;
            };
            let rows = method(views, &ring.header_view, &f.name, MethodKind::Views)?;
            let row_view = self.views[j].as_ref()?;
            let cas = (views.iter().find(|v| &v.name == row_view)?.methods.iter())
                .find(|m| m.kind == MethodKind::Cas && m.enum_class.is_some())?;
            let set = method(views, row_view, &cas.field, MethodKind::Store)?;
            let bump = (views.iter().find(|v| &v.name == row_view)?.methods.iter())
                .find(|m| m.kind == MethodKind::FetchAdd)
                .map(|m| m.name.clone());
            let e = self
                .names
                .enums
                .iter()
                .position(|n| Some(n) == cas.enum_class.as_ref())?;
            let member = |i: usize| abi.enums[e].values.get(i).map(|v| upper(&v.name));
            let count = match len.constant {
                Some(c) => format!("{module}.{}", upper(&abi.consts[c].name)),
                None => len.count.to_string(),
            };
            Some(Claim {
                rows: rows.name.clone(),
                count,
                cas: cas.name.clone(),
                set: set.name.clone(),
                bump,
                enum_class: self.names.enums[e].clone(),
                from: member(0)?,
                to: member(1)?,
                active: member(2).unwrap_or_default(),
            })
        });
        Some(Example {
            module: module.clone(),
            header_view: ring.header_view.clone(),
            ring: ring.name.clone(),
            claim: claim.filter(|_| session.is_none()),
            session,
        })
    }
}
