//! The protocols of a schema's shared memory in words: each seqlock, ring and
//! compare-and-swap claim or update as the steps its writer and its readers take, with the orderings.
//! Every text target prints these same sentences (markdown in backticks, for code spans).

use crate::ir::StructId;
use crate::ir::access::{AccessKind, Guard, RingKind, Seqlock};
use crate::ir::{Elem, EnumKind, Prim};
use crate::schema::Schema;

/// One protocol: a seqlock, a ring, a claim or an update.
#[derive(Debug, Clone)]
pub struct ProtocolProse {
    /// `seqlock`, `ring`, `claim` (a compare-and-swap from a free value) or `update` (a word changed only by compare-and-swap or exchange).
    pub kind: &'static str,
    /// The seqlock's or ring's name, or the field as `struct.field`.
    pub name: String,
    /// What it is, in one sentence of the generator's own.
    pub summary: String,
    /// The schema's doc text, if any.
    pub doc: String,
    pub roles: Vec<Role>,
}

/// The steps one side takes.
#[derive(Debug, Clone)]
pub struct Role {
    /// `Writer (the client)`, `Reader (the host)`.
    pub who: String,
    pub steps: Vec<String>,
}

/// The protocols of `schema`'s fields: seqlocks, then rings, then claims, each in schema
/// order. `regions::describe_all` adds the region protocols.
pub fn describe_protocols(schema: &Schema) -> Vec<ProtocolProse> {
    let mut out: Vec<ProtocolProse> = schema
        .access
        .seqlocks
        .iter()
        .map(|l| describe_seqlock(schema, l))
        .collect();
    out.extend(schema.access.rings.iter().map(|r| describe_ring(schema, r)));
    for (si, s) in schema.abi.structs_with_ids() {
        for (fi, f) in s.fields.iter().enumerate() {
            let fa = &schema.access.structs[si].fields[fi];
            if let AccessKind::Cas { width } = fa.kind {
                out.push(describe_claim(schema, si, fi, width, f.ty.len.is_some()));
            }
        }
    }
    out
}

fn parties(schema: &Schema, p: &crate::ir::access::Parties) -> String {
    let who = p.describe(&schema.access.parties);
    if who.is_empty() {
        "any party".to_string()
    } else {
        format!("the {who}")
    }
}

/// What a seqlock guards, as a list of names: `` `size`, `publish_seq` and `payload` ``.
fn guarded_list(schema: &Schema, lock: &Seqlock) -> String {
    let s = &schema.abi.structs[lock.struct_index];
    let a = &schema.access.structs[lock.struct_index];
    let names: Vec<String> = lock
        .guards
        .iter()
        .filter_map(|g| match *g {
            Guard::Field(f) if s.fields[f].is_padding() => None,
            Guard::Field(f) => Some(format!("`{}`", s.fields[f].name)),
            Guard::Trailer(t) => Some(format!(
                "`{}` ({})",
                a.trailer[t].name, a.trailer[t].ty.text
            )),
        })
        .collect();
    match names.split_last() {
        None => "nothing".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn describe_seqlock(schema: &Schema, lock: &Seqlock) -> ProtocolProse {
    let s = &schema.abi.structs[lock.struct_index];
    let counter = format!("`{}.{}`", s.name, s.fields[lock.counter].name);
    let guarded = guarded_list(schema, lock);
    let bits = lock.counter_width * 8;
    let writer = vec![
        "Check everything that can fail (sizes, values) before the counter is touched.".to_string(),
        format!(
            "Load {counter} (relaxed): `s`. If `s` is even, store `s + 1` (relaxed); if it is odd, a write stopped half way (this writer's own, or one that died: there is one writer), and this write goes on from `s`."
        ),
        "Fence (release): no store below is seen before the odd counter.".to_string(),
        format!("Store {guarded} with relaxed atomic stores, in the ranges readers copy."),
        format!(
            "Store {counter} = the odd value + 1 (release): even again, and the bytes are published. A write that stops before this step (an error, a panic, a crash) leaves the counter odd, never even over half a record: readers see a write in progress and give up with an error after their tries, until the next write stores the whole record."
        ),
    ];
    let reader = vec![
        format!("Load {counter} (acquire): `s1`. If it is odd, a write is in progress: back off and start over."),
        format!("Copy {guarded} with relaxed atomic loads (never plain or volatile reads)."),
        format!("Fence (acquire), then load {counter} (relaxed): `s2`."),
        "If `s1 == s2`, the copy is whole. Otherwise discard it and start over; give up with an error after a bounded number of tries.".to_string(),
    ];
    ProtocolProse {
        kind: "seqlock",
        name: lock.name.clone(),
        summary: format!(
            "The {bits}-bit counter {counter} guards {guarded} of `{}`: odd while {} writes.",
            s.name,
            parties(schema, &lock.writers)
        ),
        doc: lock.doc.clone(),
        roles: vec![
            Role {
                who: format!("Writer ({}; one at a time)", parties(schema, &lock.writers)),
                steps: writer,
            },
            Role {
                who: format!("Reader ({})", parties(schema, &lock.readers)),
                steps: reader,
            },
        ],
    }
}

fn describe_ring(schema: &Schema, ring: &crate::ir::access::Ring) -> ProtocolProse {
    let abi = &schema.abi;
    match &ring.kind {
        RingKind::Slots {
            head,
            slot_count,
            slot_count_const,
            slot_size,
            slot_size_const,
            seqlock,
            payload,
            publish_seq,
        } => {
            let lock = &schema.access.seqlocks[*seqlock];
            let slot = &abi.structs[lock.struct_index];
            let part = &schema.access.structs[lock.struct_index].trailer[*payload];
            let size_field = part
                .size_field
                .map(|f| slot.fields[f].name.clone())
                .unwrap_or_default();
            let head_s = &abi.structs[head.struct_index];
            let head = format!("`{}.{}`", head_s.name, head_s.fields[head.field].name);
            let count = &abi.consts[*slot_count_const].name;
            let size = &abi.consts[*slot_size_const].name;
            let stamp = publish_seq.map_or(String::new(), |f| {
                format!(
                    ", and `{}` = `n + 1` (the publication's number: {head} once it is published)",
                    slot.fields[f].name
                )
            });
            let writer = vec![
                format!("Take `n` = {head}, the publications so far."),
                format!(
                    "Write slot `n % {count}` under seqlock `{}`: the `{}` at the slot's start, then the payload `{}` ({}), with `{size_field}` = the payload's bytes{stamp}.",
                    lock.name, slot.name, part.name, part.ty.text
                ),
                format!("Store {head} = `n + 1` (release): the slot is published."),
            ];
            let reader = vec![
                format!("Load {head} (acquire): `h`. If `h` is 0, nothing is published yet."),
                format!("Copy slot `(h - 1) % {count}` under seqlock `{}`: the payload is `{size_field}` bytes; copy as much of them as `{}` holds and zero the rest (an older producer's shorter record), and keep any bytes past it.", lock.name, part.ty.text),
                "If the copy is torn, start over from the first step: the newest slot may have moved on.".to_string(),
            ];
            ProtocolProse {
                kind: "ring",
                name: ring.name.clone(),
                summary: format!(
                    "{slot_count} slots (`{count}`) of {slot_size} bytes (`{size}`), each a `{}` and its payload under seqlock `{}`; {head} counts publications, and the newest is in slot `({} - 1) % {count}`.",
                    slot.name,
                    lock.name,
                    head.trim_matches('`')
                ),
                doc: ring.doc.clone(),
                roles: vec![
                    Role {
                        who: format!("Writer ({})", parties(schema, &lock.writers)),
                        steps: writer,
                    },
                    Role {
                        who: format!("Reader ({})", parties(schema, &lock.readers)),
                        steps: reader,
                    },
                ],
            }
        }
        RingKind::Events {
            total,
            entries,
            capacity,
        } => {
            let s = &abi.structs[total.struct_index];
            let total_name = format!("`{}.{}`", s.name, s.fields[total.field].name);
            let entries_name = &s.fields[entries.field].name;
            let writers = &total.access(&schema.access.structs).writers;
            let writer = vec![
                format!(
                    "Write event `i` (the current {total_name}) into `{entries_name}[i % {capacity}]`."
                ),
                format!("Store {total_name} = `i + 1`."),
            ];
            let reader = vec![
                format!(
                    "Take `total` from a consistent copy of `{}` (its seqlock, or its ring slot).",
                    s.name
                ),
                format!(
                    "The events since a count `c` are numbers `max(c, total - {capacity})` to `total - 1`; event `i` is `{entries_name}[i % {capacity}]`."
                ),
                format!(
                    "Events from `c` to `total - {capacity} - 1` were overwritten before they were read: count them as lost."
                ),
            ];
            ProtocolProse {
                kind: "ring",
                name: ring.name.clone(),
                summary: format!(
                    "{total_name} counts the events ever written, and `{}.{entries_name}` holds the last {capacity}.",
                    s.name
                ),
                doc: ring.doc.clone(),
                roles: vec![
                    Role {
                        who: format!("Writer ({})", parties(schema, writers)),
                        steps: writer,
                    },
                    Role {
                        who: "Reader".to_string(),
                        steps: reader,
                    },
                ],
            }
        }
    }
}

fn describe_claim(
    schema: &Schema,
    si: StructId,
    fi: usize,
    width: u64,
    array: bool,
) -> ProtocolProse {
    let s = &schema.abi.structs[si];
    let f = &s.fields[fi];
    let field = format!("`{}.{}`", s.name, f.name);
    let bits = width * 8;
    let writers = &schema.access.structs[si].fields[fi].writers;
    let (kind, summary, steps) = if array {
        let elem = match f.ty.elem {
            Elem::Prim(p) => p.name(),
            _ => "element",
        };
        let count = f.ty.count();
        (
            "claim",
            format!("The {count} `{elem}` of {field} are one {bits}-bit word, claimed by compare-and-swap of the whole word."),
            vec![
                format!("Read: load the word (acquire) and take element `k` out of it (element `k` is at byte offset `k * {}`, little-endian). Never load one element with a narrower atomic.", match f.ty.elem { Elem::Prim(p) => p.size(), _ => 1 }),
                "Change element `k` from `old` to `new`: load the word (acquire); if element `k` is not `old`, the claim fails; otherwise compare-and-swap the word with element `k` replaced (acquire-release), and on failure retry from the load (another element may have changed meanwhile).".to_string(),
            ],
        )
    } else if let Elem::Enum(e) = f.ty.elem
        && schema.abi.enums[e].kind == EnumKind::Enum
    {
        let e = &schema.abi.enums[e];
        let values: Vec<String> = (e.values.iter())
            .map(|v| format!("`{}` ({})", v.name, v.value))
            .collect();
        (
            "claim",
            format!(
                "{field} (`{}`, {bits} bits) is claimed by compare-and-swap. Its values: {}.",
                e.name,
                values.join(", ")
            ),
            vec![
                format!("Claim: compare-and-swap {field} from the value that marks it free to the one that marks it taken (acquire-release; acquire on failure). Only the thread whose swap succeeds owns it; a failed swap returns the value found."),
                "The owner fills in what the claim covers with relaxed atomic stores, then publishes it with a release store (the field's next value, or another field readers poll).".to_string(),
                format!("Release: store the free value into {field} (release)."),
            ],
        )
    } else {
        let ty = match f.ty.elem {
            Elem::Enum(e) => format!("`{}`", schema.abi.enums[e].name),
            Elem::Prim(p) => format!("`{}`", Prim::name(p)),
            _ => String::new(),
        };
        (
            "update",
            format!("{field} ({ty}, {bits} bits) changes only as a whole word, by compare-and-swap or exchange."),
            vec![
                format!("Update: load {field} (acquire), compute the new value from it, and compare-and-swap (acquire-release; acquire on failure). A failed swap returns the value found: compute again from it and retry."),
                "Exchange: where the new value does not depend on the old one, swap it in (acquire-release) and take the old value.".to_string(),
            ],
        )
    };
    ProtocolProse {
        kind,
        name: format!("{}.{}", s.name, f.name),
        summary,
        doc: f.doc.clone(),
        roles: vec![Role {
            who: format!(
                "{} ({})",
                if kind == "update" {
                    "Writers"
                } else {
                    "Claimants"
                },
                parties(schema, writers)
            ),
            steps,
        }],
    }
}

/// The Access cell of a field: how it is accessed and who writes it, such as
/// `atomic (host)`, `cas, one u32 word (host and client)` or `seqlock pad_input (client)`.
pub fn access_cell(schema: &Schema, si: StructId, fi: usize) -> String {
    let a = &schema.access.structs[si];
    let f = &schema.abi.structs[si].fields[fi];
    if !a.shared || f.is_padding() {
        return String::new();
    }
    let fa = &a.fields[fi];
    let how = match (fa.kind, fa.guarded_by) {
        (AccessKind::Cas { width }, _) if f.ty.len.is_some() => {
            format!("cas, one u{} word", width * 8)
        }
        (AccessKind::Cas { .. }, _) => "cas".to_string(),
        (AccessKind::Atomic { .. }, _) => "atomic".to_string(),
        (AccessKind::Plain, Some(l)) => format!("seqlock {}", schema.access.seqlocks[l].name),
        (AccessKind::Plain, None) if a.guarded_whole => "under its seqlock".to_string(),
        (AccessKind::Plain, None) => "plain".to_string(),
    };
    let who = fa.writers.describe(&schema.access.parties);
    if who.is_empty() {
        how
    } else {
        format!("{how} ({who})")
    }
}

/// The note on a shared struct: who writes it, and what follows it in its region.
pub fn shared_note(schema: &Schema, si: StructId) -> Option<String> {
    let a = &schema.access.structs[si];
    if !a.shared {
        return None;
    }
    let writers = a.writers.describe(&schema.access.parties);
    let mut note = if writers.is_empty() {
        "Shared memory.".to_string()
    } else {
        format!("Shared memory, written by the {writers}.")
    };
    for t in &a.trailer {
        note.push_str(&format!(
            " Followed by `{}` ({}) at offset {}.",
            t.name, t.ty.text, t.offset
        ));
    }
    Some(note)
}
