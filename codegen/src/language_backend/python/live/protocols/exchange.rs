//! The Python class of an `[[exchange]]` (draw lists): its header's and list's offsets and
//! geometry, for `python_exchange.py.j2`.

use serde::Serialize;

use super::fields::{Packed, Word};
use crate::ir::protocol::Exchange;
use crate::language_backend::python::live::context::Ctx;

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

impl Ctx<'_> {
    pub(super) fn exchange(
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
}
