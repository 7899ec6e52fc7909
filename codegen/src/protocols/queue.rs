//! The lowering of a `[[queue]]` and a `[[broadcast]]` ring: the parties, the header's
//! fields and the entry format (`entry.rs`), each resolved and checked with the field checks
//! of `fields.rs`.

use super::fields::{CAPACITY, U64_ATOMIC};
use crate::ir::access::Access;
use crate::ir::protocol::{Broadcast, Queue};
use crate::lower::after_layout::AfterLayout;
use crate::parse::{RawBroadcast, RawQueue};

impl AfterLayout<'_> {
    pub(super) fn lower_queue(
        &mut self,
        q: &RawQueue,
        what: &str,
        access: &Access,
    ) -> Option<Queue> {
        let sides = self.sides((&q.writer, "writer"), (&q.reader, "reader"), what);
        let h = self.protocol_struct(&q.header, "header", what)?;
        let write_pos = self.protocol_field(h, &q.write_pos, "write_pos", what, U64_ATOMIC, access);
        let read_pos = self.protocol_field(h, &q.read_pos, "read_pos", what, U64_ATOMIC, access);
        let dropped = self.protocol_field(h, &q.dropped, "dropped", what, U64_ATOMIC, access);
        let capacity = self.protocol_field(h, &q.capacity, "capacity", what, CAPACITY, access);
        let entry = self.lower_entry(&q.entry, what, false, access);
        let (writer, reader) = sides?;
        Some(Queue {
            header: h,
            write_pos: write_pos?,
            read_pos: read_pos?,
            dropped: dropped?,
            capacity: capacity?,
            entry: entry?,
            writer,
            reader,
        })
    }

    pub(super) fn lower_broadcast(
        &mut self,
        b: &RawBroadcast,
        what: &str,
        access: &Access,
    ) -> Option<Broadcast> {
        let sides = self.sides((&b.writer, "writer"), (&b.reader, "reader"), what);
        let h = self.protocol_struct(&b.header, "header", what)?;
        let write_pos = self.protocol_field(h, &b.write_pos, "write_pos", what, U64_ATOMIC, access);
        let tail_pos = self.protocol_field(h, &b.tail_pos, "tail_pos", what, U64_ATOMIC, access);
        let entries = self.protocol_field(h, &b.entries, "entries", what, U64_ATOMIC, access);
        let capacity = self.protocol_field(h, &b.capacity, "capacity", what, CAPACITY, access);
        let entry = self.lower_entry(&b.entry, what, true, access);
        let (writer, reader) = sides?;
        Some(Broadcast {
            header: h,
            write_pos: write_pos?,
            tail_pos: tail_pos?,
            entries: entries?,
            capacity: capacity?,
            entry: entry?,
            writer,
            reader,
        })
    }
}
