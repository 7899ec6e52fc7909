//! Which `[[file]]` formats get a generated recording reader and writer, and the facts the
//! runtime's recording core needs of each (`abi_runtime::recording::RecordingSpec`): a
//! header at offset 0; a trailer at the end pointing at a footer; tables back to back after
//! the footer, each counted by a footer field, one of them placing chunks by an offset; the
//! chunks (walked from the header when the trailer is missing); and a record with an
//! `encoding` and a `seek` key inside each chunk's zlib stream. A format of another shape
//! gets no recording API in any language (and `inspect` still reads it): [`has_recording`]
//! is the one rule.

use crate::ir::StructId;
use crate::ir::file::{FieldRef, FileFormat, Place, Step, TotalOf};
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

/// A field: offset and width.
pub type FieldPlan = (u64, u64);

fn field(s: &Scalar) -> FieldPlan {
    (s.offset, s.width)
}

/// A fixed record: its name in the file, struct, size and expected fields.
#[derive(Debug, Clone)]
pub struct PartPlan {
    pub name: String,
    pub struct_index: StructId,
    pub size: u64,
    pub expects: Vec<(FieldPlan, u64)>,
}

#[derive(Debug, Clone)]
pub struct TablePlan {
    pub part: PartPlan,
    pub count: FieldPlan,
}

#[derive(Debug, Clone)]
pub struct RecordPlan {
    pub part: PartPlan,
    pub total_size: Option<FieldPlan>,
    pub data_size: FieldPlan,
    pub kind: FieldPlan,
    pub steps: Vec<(u64, Step)>,
    pub key: FieldPlan,
    /// The key field as the schema wrote it (`tick`).
    pub key_name: String,
    pub decoded: StructId,
    pub decoded_size: u64,
    pub same: Vec<(FieldPlan, FieldPlan)>,
}

#[derive(Debug, Clone)]
pub enum TotalPlan {
    Sum { total: FieldPlan, of: FieldPlan },
    Count { total: FieldPlan },
    First { total: FieldPlan, of: FieldPlan },
    Last { total: FieldPlan, of: FieldPlan },
}

/// One format's recording spec.
#[derive(Debug, Clone)]
pub struct RecordingPlan {
    pub name: String,
    pub header: PartPlan,
    pub trailer: PartPlan,
    pub footer_offset: FieldPlan,
    pub footer: PartPlan,
    pub tables: Vec<TablePlan>,
    pub index: usize,
    pub index_offset: FieldPlan,
    /// Fields of an index row that repeat fields of the chunk header it places.
    pub index_copies: Vec<(FieldPlan, FieldPlan)>,
    pub chunk: PartPlan,
    pub stored: FieldPlan,
    pub raw: FieldPlan,
    pub count: Option<FieldPlan>,
    pub bounds: Option<(FieldPlan, FieldPlan)>,
    pub record: RecordPlan,
    pub totals: Vec<TotalPlan>,
}

/// The recording spec of every `[[file]]` of that shape, in schema order.
pub fn plan_recordings(schema: &Schema) -> Vec<RecordingPlan> {
    schema
        .attach
        .files
        .iter()
        .filter_map(|f| plan_recording(schema, f))
        .collect()
}

fn part(schema: &Schema, f: &FileFormat, r: usize) -> PartPlan {
    let rec = &f.records[r];
    let s = &schema.abi.structs[rec.struct_index];
    let layout = schema.layout.of(rec.struct_index);
    let expects = s
        .fields
        .iter()
        .zip(&layout.fields)
        .filter_map(|(fd, l)| {
            let c = fd.expect?;
            matches!(l.size, 1 | 2 | 4 | 8).then_some(())?;
            Some(((l.offset, l.size), schema.abi.consts[c].value as u64))
        })
        .collect();
    PartPlan {
        name: rec.name.clone(),
        struct_index: rec.struct_index,
        size: rec.size,
        expects,
    }
}

/// Whether format `f` gets a recording reader and writer: the one rule every language
/// prints (Rust's `rec` module and Python's recording section both take the formats
/// [`plan_recordings`] gives, and no other).
pub fn has_recording(schema: &Schema, f: &FileFormat) -> bool {
    plan_recording(schema, f).is_some()
}

fn plan_recording(schema: &Schema, f: &FileFormat) -> Option<RecordingPlan> {
    let ri = f.records.iter().position(|r| r.encoding.is_some())?;
    let rec = &f.records[ri];
    let (Place::Zlib(z), Some(enc), Some(seek)) = (&rec.place, &rec.encoding, &rec.seek) else {
        return None;
    };
    // A chain restarts at a plain record and goes on by XOR steps: a format with steps of
    // one kind only is not the engine's (every language's reader holds both).
    if !(enc.steps.iter().any(|(_, s)| *s == Step::Plain)
        && enc.steps.iter().any(|(_, s)| *s == Step::Xor))
    {
        return None;
    }
    let ordered = f
        .ordered
        .iter()
        .any(|o| o.record == ri && o.field.offset == seek.key.offset);
    let chunk_r = z.source;
    let Place::Each(FieldRef {
        record: index_r,
        field: index_offset,
    }) = &f.records[chunk_r].place
    else {
        return None;
    };
    let header_r = f.records[chunk_r].walk?;
    if !matches!(f.records[header_r].place, Place::At(0)) || !ordered {
        return None;
    }
    let Place::After(footer_r) = f.records[*index_r].place else {
        return None;
    };
    let Place::Field(FieldRef {
        record: trailer_r,
        field: footer_offset,
    }) = &f.records[footer_r].place
    else {
        return None;
    };
    if !matches!(f.records[*trailer_r].place, Place::FromEnd(n) if n == f.records[*trailer_r].size)
    {
        return None;
    }
    // The tables: records after the footer, back to back, each counted by a footer field.
    let mut tables = Vec::new();
    let mut index = None;
    let mut prev = footer_r;
    while let Some(t) = f
        .records
        .iter()
        .position(|r| matches!(r.place, Place::After(p) if p == prev))
    {
        let count = f.records[t].count.as_ref()?;
        if count.record != footer_r {
            return None;
        }
        if t == *index_r {
            index = Some(tables.len());
        }
        tables.push(TablePlan {
            part: part(schema, f, t),
            count: field(&count.field),
        });
        prev = t;
    }
    let index = index?;
    let data = z.data.as_ref()?;
    let totals = f
        .totals
        .iter()
        .filter(|t| t.total.record == footer_r)
        .filter_map(|t| match &t.of {
            TotalOf::Sum(of) if of.record == chunk_r => Some(TotalPlan::Sum {
                total: field(&t.total.field),
                of: field(&of.field),
            }),
            TotalOf::Count(r) if *r == chunk_r => Some(TotalPlan::Count {
                total: field(&t.total.field),
            }),
            TotalOf::First(of) if of.record == ri => Some(TotalPlan::First {
                total: field(&t.total.field),
                of: field(&of.field),
            }),
            TotalOf::Last(of) if of.record == ri => Some(TotalPlan::Last {
                total: field(&t.total.field),
                of: field(&of.field),
            }),
            _ => None,
        })
        .collect();
    let record = RecordPlan {
        part: part(schema, f, ri),
        total_size: z.size.as_ref().map(field),
        data_size: field(data),
        kind: field(&enc.kind),
        steps: enc.steps.clone(),
        key: field(&seek.key),
        key_name: seek.key.path.clone(),
        decoded: enc.decoded,
        decoded_size: enc.decoded_size,
        same: enc
            .same
            .iter()
            .map(|s| (field(&s.decoded), field(&s.record)))
            .collect(),
    };
    Some(RecordingPlan {
        name: f.name.clone(),
        header: part(schema, f, header_r),
        trailer: part(schema, f, *trailer_r),
        footer_offset: field(footer_offset),
        footer: part(schema, f, footer_r),
        tables,
        index,
        index_offset: field(index_offset),
        index_copies: f.records[chunk_r]
            .indexed
            .iter()
            .map(|x| (field(&x.entry), field(&x.record)))
            .collect(),
        chunk: part(schema, f, chunk_r),
        stored: field(&z.stored),
        raw: field(&z.raw),
        count: z.count.as_ref().map(field),
        bounds: seek.bounds.as_ref().map(|(a, b)| (field(a), field(b))),
        record,
        totals,
    })
}
