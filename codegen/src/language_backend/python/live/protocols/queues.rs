//! The Python classes of a `[[queue]]` and a `[[broadcast]]` (log ring): the entry's format
//! and each position's offset, for `python_protocols.py.j2`.

use serde::Serialize;

use super::fields::{Packed, Word};
use crate::ir::StructId;
use crate::ir::access::Parties;
use crate::ir::protocol::{Broadcast, Entry, Queue};
use crate::language_backend::python::live::context::Ctx;
use crate::language_backend::python::names::Namer;

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

impl Ctx<'_> {
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

    pub(super) fn queue(
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

    pub(super) fn broadcast(
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
}
