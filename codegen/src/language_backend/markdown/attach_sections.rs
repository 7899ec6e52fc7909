//! The markdown reference's sections on how a reader finds things: each `[[layout]]` table
//! (its rows, what each region holds, whether a producer may leave it out), each version
//! handshake (magic, versions, producer size, the fields later minor versions added) and
//! each `[[file]]` format (where each record sits, the zlib streams, the record encoding,
//! the seek key, totals and orders). Every number comes from the IR; this file only words it.

use serde::Serialize;

use super::escape::{code_span, escape_inline, escape_paragraph};
use crate::ir::StructId;
use crate::ir::attach::{Handshake, Holds, LayoutTable};
use crate::ir::file::{FieldRef, FileFormat, FileRecord, Place, Step, TotalOf};
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

#[derive(Serialize)]
pub(super) struct LayoutSection {
    name: String,
    anchor: String,
    /// A paragraph of its own, escaped.
    doc: String,
    /// Where the table is and what says how much of it is used.
    summary: String,
    rows: Vec<LayoutRow>,
}

#[derive(Serialize)]
struct LayoutRow {
    index: u64,
    name: String,
    holds: String,
    min_size: u64,
    align: u64,
    presence: String,
    doc: String,
}

#[derive(Serialize)]
pub(super) struct HandshakeSection {
    name: String,
    anchor: String,
    steps: Vec<String>,
    added: Vec<AddedRow>,
}

#[derive(Serialize)]
struct AddedRow {
    name: String,
    since: String,
    offset: String,
    end: String,
}

#[derive(Serialize)]
pub(super) struct FileSection {
    name: String,
    anchor: String,
    doc: String,
    records: Vec<FileRecordRow>,
    /// Sentences about the records inside zlib streams, their encoding and seek key.
    notes: Vec<String>,
    /// `footer.ticks` = the sum of `chunks.tick_count`, and orders.
    facts: Vec<String>,
}

#[derive(Serialize)]
struct FileRecordRow {
    name: String,
    type_md: String,
    place: String,
    copies: String,
    doc: String,
}

fn link(kind: &str, name: &str) -> String {
    format!("[{}](#{kind}-{name})", escape_inline(name))
}

fn struct_link(schema: &Schema, index: StructId) -> String {
    link("struct", &schema.abi.structs[index].name)
}

/// `` `header.field` `` (u32 at 0x0008)
fn scalar(owner: &str, s: &Scalar) -> String {
    format!(
        "{} (u{} at 0x{:04x})",
        code_span(&format!("{owner}.{}", s.path)),
        s.width * 8,
        s.offset
    )
}

pub(super) fn build_layouts(schema: &Schema) -> Vec<LayoutSection> {
    schema
        .attach
        .layouts
        .iter()
        .map(|t| build_layout(schema, t))
        .collect()
}

fn build_layout(schema: &Schema, t: &LayoutTable) -> LayoutSection {
    let abi = &schema.abi;
    let header = &abi.structs[t.header];
    let table_field = &header.fields[t.table_field].name;
    let index_enum = &abi.enums[t.index_enum];
    let mut summary = format!(
        "Its header is {} (aligned to {} bytes); its field {} at 0x{:04x} is a table of {} rows of {} bytes, indexed by {}: a row's {} and {} say where its region is, from the header's start.",
        struct_link(schema, t.header),
        t.align,
        code_span(table_field),
        t.table_offset,
        t.max_rows,
        t.row_size,
        link(index_enum.kind.keyword(), &index_enum.name),
        code_span(&t.row_offset.path),
        code_span(&t.row_size_field.path),
    );
    if let Some(count) = &t.row_count {
        summary.push_str(&format!(
            " {} counts the rows in use.",
            scalar(&header.name, count)
        ));
    }
    if let Some(extent) = &t.extent {
        summary.push_str(&format!(
            " {} holds the bytes the whole spans.",
            scalar(&header.name, extent)
        ));
    }
    let rows = t
        .rows
        .iter()
        .map(|r| {
            let holds = match &r.holds {
                Holds::Struct {
                    struct_index,
                    count,
                    bytes,
                } => {
                    let mut s = struct_link(schema, *struct_index);
                    if *count != 1 {
                        s.push_str(&format!(" ×{count}"));
                    }
                    if *bytes > 0 {
                        s.push_str(&format!(", then {bytes} bytes"));
                    }
                    s
                }
                Holds::Ring { ring } => {
                    let ring = &schema.access.rings[*ring];
                    format!("ring {}", link("ring", &ring.name))
                }
                Holds::Blocks {
                    layout,
                    count,
                    stride,
                } => {
                    let mut s = format!(
                        "{count} blocks {stride} bytes apart, each laid out by {}",
                        link("layout", &schema.attach.layouts[*layout].name)
                    );
                    // The session whose row i owns block i: a free restores its protocols.
                    if let Some(owner) = r.owner.and_then(|p| schema.protocols.get(p.index())) {
                        s.push_str(&format!(
                            "; block i is row i's of session {}, restored by a free",
                            code_span(&owner.name)
                        ));
                    }
                    s
                }
                Holds::Bytes { bytes } => format!("bytes (at least {bytes})"),
            };
            let mut presence = match (&r.since, r.optional) {
                (_, true) => "optional".to_string(),
                (Some(v), false) => format!("since {v}"),
                (None, false) => "required".to_string(),
            };
            if !r.overlaps.is_empty() {
                let names: Vec<String> = r
                    .overlaps
                    .iter()
                    .map(|&o| code_span(&t.rows[o].name))
                    .collect();
                presence.push_str(&format!("; may overlap {}", names.join(", ")));
            }
            LayoutRow {
                index: r.index,
                name: escape_inline(&r.name),
                holds,
                min_size: r.min_size,
                align: r.align,
                presence,
                doc: escape_inline(&r.doc),
            }
        })
        .collect();
    LayoutSection {
        name: escape_inline(&t.name),
        anchor: format!("layout-{}", t.name),
        doc: escape_paragraph(&t.doc),
        summary,
        rows,
    }
}

pub(super) fn build_handshakes(schema: &Schema) -> Vec<HandshakeSection> {
    schema
        .attach
        .handshakes
        .iter()
        .map(|h| build_handshake(schema, h))
        .collect()
}

fn build_handshake(schema: &Schema, h: &Handshake) -> HandshakeSection {
    let abi = &schema.abi;
    let s = &abi.structs[h.struct_index];
    let full = schema.layout.of(h.struct_index).size;
    let mut steps = Vec::new();
    if let Some((magic, c)) = &h.magic {
        steps.push(format!(
            "{} must hold {}.",
            scalar(&s.name, magic),
            link("const", &abi.consts[*c].name)
        ));
    }
    steps.push(format!(
        "{} must equal the reader's major version ({}); {} is the producer's minor version, which may be older or newer than the reader's.",
        scalar(&s.name, &h.major),
        abi.version.major,
        scalar(&s.name, &h.minor)
    ));
    match &h.size {
        Some(size) => steps.push(format!(
            "{} holds the bytes the producer wrote: at least {} for major version {}, {} at this version; a reader reads only the bytes both know.",
            scalar(&s.name, size),
            h.base_size,
            abi.version.major,
            full
        )),
        None => steps.push(format!(
            "Every producer of major version {} writes at least {} bytes.",
            abi.version.major, h.base_size
        )),
    }
    if let Some(live) = &h.liveness {
        let mut step = format!(
            "{}, loaded with acquire, must be {} before anything else is read",
            scalar(&s.name, &live.state),
            code_span(&live.running_name)
        );
        if let Some(generation) = &live.generation {
            step.push_str(&format!(
                "; {} changes each time the producer rewrites its tables, so a reader that saw it change attaches again",
                scalar(&s.name, generation)
            ));
        }
        step.push('.');
        steps.push(step);
    }
    let added = h
        .added
        .iter()
        .map(|a| AddedRow {
            name: escape_inline(&s.fields[a.field].name),
            since: a.since.to_string(),
            offset: format!("0x{:04x}", a.offset),
            end: format!("0x{:04x}", a.end),
        })
        .collect();
    HandshakeSection {
        name: escape_inline(&s.name),
        anchor: format!("handshake-{}", s.name),
        steps,
        added,
    }
}

pub(super) fn build_files(schema: &Schema) -> Vec<FileSection> {
    schema
        .attach
        .files
        .iter()
        .map(|f| build_file(schema, f))
        .collect()
}

fn field_ref(f: &FileFormat, r: &FieldRef) -> String {
    code_span(&format!("{}.{}", f.records[r.record].name, r.field.path))
}

fn record_name(f: &FileFormat, index: usize) -> String {
    code_span(&f.records[index].name)
}

fn describe_place(f: &FileFormat, r: &FileRecord) -> String {
    let mut place = match &r.place {
        Place::At(0) => "at the file's start".to_string(),
        Place::At(n) => format!("at 0x{n:04x}"),
        Place::FromEnd(n) => format!("{n} bytes before the file's end"),
        Place::Field(at) => format!("at the offset {} holds", field_ref(f, at)),
        Place::Each(at) => format!(
            "one at each offset {} holds",
            code_span(&format!(
                "{}[].{}",
                f.records[at.record].name, at.field.path
            ))
        ),
        Place::After(prev) => format!("right after {}", record_name(f, *prev)),
        Place::Zlib(z) => {
            let source = &f.records[z.source].name;
            let mut s = format!(
                "inside the zlib stream that follows each {}: {} bytes of it, inflating to {}",
                code_span(source),
                code_span(&format!("{source}.{}", z.stored.path)),
                code_span(&format!("{source}.{}", z.raw.path)),
            );
            if let Some(size) = &z.size {
                s.push_str(&format!(
                    "; each record is {} bytes long",
                    code_span(&format!("{}.{}", r.name, size.path))
                ));
            }
            s
        }
    };
    if let Some(walk) = r.walk {
        place.push_str(&format!(
            "; when that is missing, found one after another from the end of {}",
            record_name(f, walk)
        ));
    }
    place
}

fn describe_copies(f: &FileFormat, r: &FileRecord) -> String {
    match (&r.count, &r.place) {
        (Some(count), _) => field_ref(f, count),
        (None, Place::Zlib(z)) => match &z.count {
            Some(c) => code_span(&format!("{}.{}", f.records[z.source].name, c.path)),
            None => "until the stream ends".to_string(),
        },
        (None, Place::Each(at)) => format!("one per {}", record_name(f, at.record)),
        (None, _) => "1".to_string(),
    }
}

fn build_file(schema: &Schema, f: &FileFormat) -> FileSection {
    let abi = &schema.abi;
    let records = f
        .records
        .iter()
        .map(|r| FileRecordRow {
            name: escape_inline(&r.name),
            type_md: struct_link(schema, r.struct_index),
            place: describe_place(f, r),
            copies: describe_copies(f, r),
            doc: escape_inline(&r.doc),
        })
        .collect();
    let mut notes = Vec::new();
    for r in &f.records {
        let own = |s: &Scalar| code_span(&format!("{}.{}", r.name, s.path));
        if let Place::Zlib(z) = &r.place
            && let Some(data) = &z.data
        {
            notes.push(format!(
                "Each {} record is followed by {} bytes of data.",
                code_span(&r.name),
                own(data)
            ));
        }
        if let Some(e) = &r.encoding {
            let kinds = &abi.enums[e.kind_enum];
            let steps: Vec<String> = e
                .steps
                .iter()
                .map(|(value, step)| {
                    let name = kinds
                        .values
                        .iter()
                        .find(|v| u64::try_from(v.value) == Ok(*value))
                        .map_or_else(|| value.to_string(), |v| v.name.clone());
                    let meaning = match step {
                        Step::Plain => "the decoded data as is",
                        Step::Xor => "XORed byte for byte with the previous record's decoded data, of the same length",
                    };
                    format!("{} means {meaning}", code_span(&name))
                })
                .collect();
            let mut note = format!(
                "How the data of each {} record decodes: its {} ({}) says; {}. The chain restarts with each {}, whose first record must be plain. The decoded data starts with {}, and extras follow it.",
                code_span(&r.name),
                own(&e.kind),
                link(kinds.kind.keyword(), &kinds.name),
                steps.join("; "),
                record_name(f, e.restart),
                struct_link(schema, e.decoded),
            );
            if !e.same.is_empty() {
                let decoded = &abi.structs[e.decoded].name;
                let same: Vec<String> = e
                    .same
                    .iter()
                    .map(|s| {
                        format!(
                            "{} = {}",
                            code_span(&format!("{decoded}.{}", s.decoded.path)),
                            own(&s.record)
                        )
                    })
                    .collect();
                note.push_str(&format!(
                    " It must agree with its record: {}.",
                    same.join(", ")
                ));
            }
            notes.push(note);
        }
        if !r.indexed.is_empty()
            && let Place::Each(at) = &r.place
        {
            let pairs: Vec<String> = r
                .indexed
                .iter()
                .map(|x| {
                    format!(
                        "{} = {}",
                        code_span(&format!("{}[].{}", f.records[at.record].name, x.entry.path)),
                        own(&x.record)
                    )
                })
                .collect();
            notes.push(format!(
                "Each index entry repeats fields of the {} copy it places: {}.",
                code_span(&r.name),
                pairs.join(", ")
            ));
        }
        if let Some(seek) = &r.seek {
            let mut note = format!(
                "A {} record is found by its key {}",
                code_span(&r.name),
                own(&seek.key)
            );
            if let (Some((first, last)), Place::Zlib(z)) = (&seek.bounds, &r.place) {
                let source = &f.records[z.source].name;
                note.push_str(&format!(
                    ": each {} holds the keys {} to {}, so a seek inflates only the stream that holds the key",
                    code_span(source),
                    code_span(&format!("{source}.{}", first.path)),
                    code_span(&format!("{source}.{}", last.path)),
                ));
            }
            note.push('.');
            notes.push(note);
        }
    }
    let mut facts: Vec<String> = f
        .totals
        .iter()
        .map(|t| {
            let of = match &t.of {
                TotalOf::Sum(r) => format!("the sum of {} over every copy", field_ref(f, r)),
                TotalOf::Count(r) => format!("the number of {}", record_name(f, *r)),
                TotalOf::First(r) => format!("{} of the first copy (0 when none)", field_ref(f, r)),
                TotalOf::Last(r) => format!("{} of the last copy (0 when none)", field_ref(f, r)),
            };
            format!("{} = {of}", field_ref(f, &t.total))
        })
        .collect();
    facts.extend(f.ordered.iter().map(|o| {
        format!(
            "{} increases strictly from one record to the next",
            code_span(&format!("{}.{}", f.records[o.record].name, o.field.path))
        )
    }));
    FileSection {
        name: escape_inline(&f.name),
        anchor: format!("file-{}", f.name),
        doc: escape_paragraph(&f.doc),
        records,
        notes,
        facts,
    }
}
