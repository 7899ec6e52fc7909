//! The host words of a session's blocks, decided once for every target: each word of a field
//! the session's host alone writes, in the header of a block a row owns and in the header of
//! each region of it (a block's table, a mailbox's capacities, a queue's capacity, an
//! exchange's geometry), with the one size every access of it has. A client can write those
//! bytes (they are in its blocks), so the host never reads them back for its own use: its side
//! uses the image it laid out, and a free stores each restored word back as that image has it
//! (`codegen/ATTACH.md`, "What a free restores").
//!
//! Two host fields are positions a protocol carries across a free, never restored: a queue's
//! `read_pos` (the positions go on: the old client's entries are the host's to drain, and the
//! next client's follow) and a mailbox's `response_seq` (the free answers a waiting request,
//! which leaves it equal to the client's `request_seq`; back at 0, the next request would be
//! refused as out of sequence). Declared padding is not a field: nobody reads it.

use crate::ir::Elem;
use crate::ir::StructId;
use crate::ir::access::{AccessKind, Parties};
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// One word the host alone writes in an owned block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostWord {
    /// The region's row in the block's layout; `None` for the block's own header.
    pub region: Option<usize>,
    /// `struct.field`, `struct.field[i]` for an element, `struct.field[i].inner` inside one.
    pub name: String,
    /// From the start of the struct the region (or the block) starts with.
    pub at: u64,
    /// Bytes: 1, 2, 4 or 8, the size of every access of the word in every target.
    pub width: u64,
    /// Whether a free stores it back; false for a position a protocol carries across a free.
    pub restored: bool,
}

/// The host words of a block laid out by `block_layout`, for session `session`'s host: the
/// block header's first, then each region's in the layout's row order.
pub fn host_words(
    schema: &Schema,
    session: crate::ir::ProtocolId,
    block_layout: crate::ir::LayoutId,
) -> Vec<HostWord> {
    let ProtocolKind::Session(s) = &schema.protocols[session].kind else {
        return Vec::new();
    };
    let layout = &schema.attach.layouts[block_layout];
    let mut out = Vec::new();
    let places =
        std::iter::once((None, layout.header)).chain(layout.rows.iter().enumerate().filter_map(
            |(row, r)| match r.holds {
                crate::ir::attach::Holds::Struct { struct_index, .. } => {
                    Some((Some(row), struct_index))
                }
                _ => None,
            },
        ));
    for (region, si) in places {
        let carried = carried_fields(schema, si);
        let name = &schema.abi.structs[si].name;
        for (fi, f) in schema.abi.structs[si].fields.iter().enumerate() {
            let fa = &schema.access.structs[si].fields[fi];
            if f.is_padding()
                || !host_only(&fa.writers, &s.host)
                || crate::plan::words::lane(schema, si, fi).is_some()
            {
                continue;
            }
            let fl = &schema.layout.of(si).fields[fi];
            let restored = !carried.contains(&fi);
            let mut words = Vec::new();
            match fa.kind {
                AccessKind::Atomic { width } | AccessKind::Cas { width } => {
                    // A cas array is one word of its width; an atomic field is one word.
                    for at in (fl.offset..fl.offset + fl.size).step_by(width.max(1) as usize) {
                        words.push((format!("{name}.{}", f.name), at, width));
                    }
                }
                AccessKind::Plain => {
                    let count = f.ty.count();
                    for i in 0..count {
                        let at = fl.offset + i * fl.elem_size;
                        let path = if f.ty.len.is_some() {
                            format!("{name}.{}[{i}]", f.name)
                        } else {
                            format!("{name}.{}", f.name)
                        };
                        leaves(schema, f.ty.elem, fl.elem_size, at, path, &mut words);
                    }
                }
            }
            out.extend(words.into_iter().map(|(name, at, width)| HostWord {
                region,
                name,
                at,
                width,
                restored,
            }));
        }
    }
    out
}

/// A run of restored host words: `count` words of `width` bytes from `at` of one header
/// (`region`, as [`HostWord::region`]), back to back. What the targets print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub region: Option<usize>,
    pub at: u64,
    pub width: u64,
    pub count: u64,
}

/// The words a free restores, as runs of words of one width, back to back, in one header.
pub fn restored_runs(words: &[HostWord]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for w in words.iter().filter(|w| w.restored) {
        match out.last_mut() {
            Some(r)
                if r.region == w.region
                    && r.width == w.width
                    && r.at + r.count * r.width == w.at =>
            {
                r.count += 1;
            }
            _ => out.push(Run {
                region: w.region,
                at: w.at,
                width: w.width,
                count: 1,
            }),
        }
    }
    out
}

/// Whether `writers` are the host's parties alone.
fn host_only(writers: &Parties, host: &Parties) -> bool {
    !writers.is_empty() && writers.0.iter().all(|p| host.0.contains(p))
}

/// The fields of struct `si` that a protocol over it carries across a free.
fn carried_fields(schema: &Schema, si: StructId) -> Vec<usize> {
    schema
        .protocols
        .iter()
        .filter_map(|p| match &p.kind {
            ProtocolKind::Queue(q) if q.header == si => Some(q.read_pos),
            ProtocolKind::Mailbox(m) if m.header == si => Some(m.response_seq),
            _ => None,
        })
        .collect()
}

/// The scalar words of one element of type `elem` (`size` bytes) at `at`: a number, an enum
/// or a flag set is one word; text is a byte each; a struct, each of its fields' words.
pub(crate) fn leaves(
    schema: &Schema,
    elem: Elem,
    size: u64,
    at: u64,
    path: String,
    out: &mut Vec<(String, u64, u64)>,
) {
    match elem {
        Elem::Struct(inner) => {
            for (fi, f) in schema.abi.structs[inner].fields.iter().enumerate() {
                if f.is_padding() {
                    continue;
                }
                let fl = &schema.layout.of(inner).fields[fi];
                for i in 0..f.ty.count() {
                    let path = if f.ty.len.is_some() {
                        format!("{path}.{}[{i}]", f.name)
                    } else {
                        format!("{path}.{}", f.name)
                    };
                    let at = at + fl.offset + i * fl.elem_size;
                    leaves(schema, f.ty.elem, fl.elem_size, at, path, out);
                }
            }
        }
        Elem::Char => out.push((path, at, 1)),
        Elem::Prim(_) | Elem::Enum(_) => out.push((path, at, size)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::bridge_for_tests as bridge;

    /// The words of the bridge's client and bot blocks, checked against the reference
    /// (bridge-abi-0.9-reference.txt): the fields it marks "Host" in those structs.
    #[test]
    fn the_bridges_host_words_are_the_references_host_fields() {
        let schema = bridge();
        let session = schema
            .protocols
            .iter()
            .position(|p| matches!(p.kind, ProtocolKind::Session(_)))
            .map(crate::ir::ProtocolId::new)
            .expect("a session");
        let layout = |name: &str| {
            (schema.attach.layouts.iter())
                .position(|l| l.name == name)
                .map(crate::ir::LayoutId::new)
                .expect("the block layout")
        };
        let blocks =
            [layout("client_block"), layout("bot_block")].map(|l| host_words(&schema, session, l));
        let names = |i: usize| -> Vec<(String, u64, u64, bool)> {
            blocks[i]
                .iter()
                .map(|w| (w.name.clone(), w.at, w.width, w.restored))
                .collect()
        };
        let client = names(0);
        let w = |n: &str, at, width, restored| (n.to_string(), at, width, restored);
        // The block header: its size, its count and its table, each a u32.
        assert_eq!(client[0], w("client_block_header.size", 0, 4, true));
        assert_eq!(client[1], w("client_block_header.region_count", 4, 4, true));
        assert!(client.contains(&w("client_block_header.regions[3].size", 36, 4, true)));
        let holds = |list: &[(String, u64, u64, bool)], expected: &[(String, u64, u64, bool)]| {
            for e in expected {
                assert!(list.contains(e), "{e:?} in {list:?}");
            }
        };
        holds(
            &client,
            &[
                w("log_queue_header.capacity", 16, 4, true),
                w("log_queue_header.read_pos", 32, 8, false),
                w("mailbox_header.response_seq", 8, 4, false),
                w("mailbox_header.status", 12, 4, true),
                w("mailbox_header.request_capacity", 24, 4, true),
                w("mailbox_header.response_capacity", 28, 4, true),
            ],
        );
        // The client's own fields, and padding, are not host words.
        for absent in [
            "log_queue_header.write_pos",
            "mailbox_header.request_seq",
            "mailbox_header._pad32",
        ] {
            assert!(!client.iter().any(|c| c.0 == absent), "{absent}");
        }
        let bot = names(1);
        holds(
            &bot,
            &[
                w("draw_header.buffers", 4, 4, true),
                w("draw_header.buffer_size", 8, 4, true),
                w("draw_header.max_commands", 12, 4, true),
                w("draw_header.max_payload", 16, 4, true),
                w("stats_header.max_stats", 8, 4, true),
                w("params_header.max_params", 16, 4, true),
            ],
        );
        // The block header's 18 words are one run; the mailbox's restored words two (the
        // response_seq at 8 is not restored, so status..capacities run from 12).
        let runs = restored_runs(&blocks[0]);
        let run = |region, at, width, count| Run {
            region,
            at,
            width,
            count,
        };
        assert_eq!(runs[0], run(None, 0, 4, 18));
        assert!(runs.contains(&run(Some(2), 12, 4, 5)), "{runs:?}");
        // The exchange's state is shared with the client: the exchange's restore sets it.
        assert!(!bot.iter().any(|c| c.0 == "draw_header.state"));
    }
}
