//! The Python target's recordings section: a reader and a writer class per `[[file]]` whose
//! zlib records are encoded (`encoding`), over one generic engine written once in
//! `templates/python_recording.py.j2`. This file turns the file format's IR into the data
//! the engine walks (every offset, width, size and expected constant from the IR and the
//! layout, none recomputed) and decides the names. A format whose shape the engine does not
//! write (see [`supported`]) gets no classes; none of the schema's formats → no section.
//!
//! Names: `<File>Reader` and `<File>Writer` (CamelCase of the file's name), `FileFormatError`
//! and `FileIssue`, each with a trailing `_` when taken. A reader has a property per record
//! that is not inside a stream, named as the record, and `seek_<key>`; a writer takes the
//! first record by its name, `chunk_<records>` and `keyframe_every`, has `add_<record>` per
//! counted record it does not fill itself, and `finish(<record>=None, ...)` per single
//! record after the streams.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::LazyLock;

use serde::Serialize;

use super::literals::doc_lines;
use super::names::{Namer, Names, python_type_name};
use crate::ir::StructId;
use crate::ir::file::{Encoding, FieldRef, FileFormat, MAX_INFLATED, Place, Step, TotalOf, Zlib};
use crate::ir::scalar::Scalar;
use crate::ir::{Abi, Elem};
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template, template};
use crate::plan::recording::has_recording;
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "python_recording.py.j2",
    source: include_str!("../../../templates/python_recording.py.j2"),
};

/// The parts `python_recording.py.j2` includes, one concern each.
const PARTS: [Template; 2] = [
    template!("python_file_reader.py.j2"),
    template!("python_file_writer.py.j2"),
];

static COMPILED: LazyLock<Compiled> =
    LazyLock::new(|| Compiled::with_parts(&TEMPLATE, &PARTS, |_| {}));

/// Records per stream when the writer is not told (`chunk_<records>=None`).
const DEFAULT_CHUNK_RECORDS: u32 = 256;
/// The most copies of one record a reader reads from a count, as `inspect` does.
const MAX_COPIES: u64 = 1 << 20;

/// The rendered section and the public names it adds to `__all__`.
#[derive(Serialize)]
pub(super) struct RecordingSection {
    pub text: String,
    #[serde(skip)]
    pub exports: Vec<String>,
    /// The context the text was rendered from, which the stub types (`stub/recording.rs`)
    /// and the module's docstring names.
    pub context: RecordingContext,
}

#[derive(Serialize)]
pub(in crate::language_backend::python) struct RecordingContext {
    pub(in crate::language_backend::python) error: String,
    pub(in crate::language_backend::python) issue: String,
    max_inflated: u64,
    max_copies: u64,
    pub(in crate::language_backend::python) formats: Vec<FormatData>,
    example: Option<Example>,
}

/// One file format's classes and the data their engine walks.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct FormatData {
    name: String,
    doc: String,
    data_name: String,
    /// The format as a Python literal.
    data: String,
    pub(in crate::language_backend::python) reader: String,
    pub(in crate::language_backend::python) writer: String,
    /// The classes of the records in a stream and of their decoded struct.
    pub(in crate::language_backend::python) record_class: String,
    pub(in crate::language_backend::python) decoded_class: String,
    /// `seek_<key>` and the key's path.
    pub(in crate::language_backend::python) seek: String,
    key: String,
    /// The first record's name (the writer's argument) and class.
    pub(in crate::language_backend::python) first: String,
    pub(in crate::language_backend::python) first_class: String,
    /// The name of the records in a stream: `chunk_<per_chunk>`.
    pub(in crate::language_backend::python) per_chunk: String,
    pub(in crate::language_backend::python) properties: Vec<Property>,
    pub(in crate::language_backend::python) added: Vec<Named>,
    pub(in crate::language_backend::python) given: Vec<Named>,
}

/// A reader's property: a record, one (`None` when missing) or a list.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct Property {
    pub(in crate::language_backend::python) name: String,
    record: String,
    pub(in crate::language_backend::python) class: String,
    pub(in crate::language_backend::python) many: bool,
    index: usize,
}

/// A record the writer takes: its argument's or method's name, class and index.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct Named {
    pub(in crate::language_backend::python) name: String,
    pub(in crate::language_backend::python) class: String,
    index: usize,
}

#[derive(Serialize)]
struct Example {
    module: String,
    reader: String,
    writer: String,
    decoded: String,
    seek: String,
    first_class: String,
    record_class: String,
    decoded_class: String,
}

/// The attributes a reader and a writer have of their own.
const READER_ATTRIBUTES: [&str; 4] = ["issues", "walked", "check", "close"];
const WRITER_ATTRIBUTES: [&str; 5] = ["push", "flush", "finish", "close", "add"];

/// The recordings section, or `None` when no file format has encoded records the engine
/// writes. `taken` are the module's names so far.
pub(super) fn render_recording(
    schema: &Schema,
    names: &Names,
    taken: &[String],
) -> Result<Option<RecordingSection>, RenderError> {
    // The plan decides which formats get a recording API (Rust's is the same list); this
    // backend only finds, for each, the records its engine names.
    let files: Vec<&FileFormat> = (schema.attach.files.iter())
        .filter(|f| has_recording(schema, f))
        .collect();
    if let Some(f) = files.iter().find(|f| supported(f).is_none()) {
        return Err(RenderError(format!(
            "file `{}`: the plan gives it a recording API, but the Python engine cannot place its records",
            f.name
        )));
    }
    if files.is_empty() {
        return Ok(None);
    }
    let mut module = Namer(
        (names
            .consts
            .iter()
            .chain(&names.enums)
            .chain(&names.structs))
        .chain(taken)
        .cloned()
        .chain(super::names::MODULE_NAMES.map(String::from))
        .collect::<HashSet<String>>(),
    );
    let error = module.name("FileFormatError");
    let issue = module.name("FileIssue");
    let mut exports = vec![error.clone(), issue.clone()];
    let formats: Vec<FormatData> = files
        .iter()
        .map(|f| {
            let data = format_data(schema, names, f, &mut module);
            exports.extend([data.reader.clone(), data.writer.clone()]);
            data
        })
        .collect();
    let example = formats.first().map(|f| Example {
        module: schema.abi.name.clone(),
        reader: f.reader.clone(),
        writer: f.writer.clone(),
        decoded: schema.abi.structs[decoded_of(files[0])].name.clone(),
        seek: f.seek.clone(),
        first_class: f.first_class.clone(),
        record_class: f.record_class.clone(),
        decoded_class: f.decoded_class.clone(),
    });
    let context = RecordingContext {
        error,
        issue,
        max_inflated: MAX_INFLATED,
        max_copies: MAX_COPIES,
        formats,
        example,
    };
    Ok(Some(RecordingSection {
        text: COMPILED.render(&context)?,
        exports,
        context,
    }))
}

/// What the engine needs of a format's shape: the zlib record with its encoding, the record
/// each stream follows placed by a counted index, and every other record at 0 (the first),
/// at the end (the last), at a field of a single record or right after one. Gives the zlib
/// record's index, its placement, the index record and the records after the streams in the
/// order they are written.
fn supported(f: &FileFormat) -> Option<(usize, &Zlib, usize, Vec<usize>)> {
    let (zi, z) = f
        .records
        .iter()
        .enumerate()
        .find_map(|(i, r)| match &r.place {
            Place::Zlib(z) if r.encoding.is_some() => Some((i, z)),
            _ => None,
        })?;
    let enc = f.records[zi].encoding.as_ref()?;
    let source = &f.records[z.source];
    let Place::Each(index) = &source.place else {
        return None;
    };
    let single = |r: &FieldRef| f.records[r.record].count.is_none();
    let ok = enc.restart == z.source
        && z.data.is_some()
        && source.count.is_none()
        && matches!(f.records.first()?.place, Place::At(0))
        && f.records[0].count.is_none()
        && f.records[index.record].count.as_ref().is_some_and(single)
        && f.records
            .iter()
            .all(|r| r.count.as_ref().is_none_or(single))
        && f.totals.iter().all(|t| single(&t.total));
    if !ok {
        return None;
    }
    // After the streams: each record placed at a field, then those right after it, in turn;
    // the one at the end last.
    let mut tail = Vec::new();
    let mut ends = Vec::new();
    for (i, r) in f.records.iter().enumerate().skip(1) {
        match &r.place {
            Place::Field(holder) if r.count.is_none() && single(holder) => {
                tail.push(i);
                let mut last = i;
                while let Some(next) =
                    (f.records.iter()).position(|n| matches!(n.place, Place::After(a) if a == last))
                {
                    tail.push(next);
                    last = next;
                }
            }
            Place::FromEnd(back) if *back == r.size && r.count.is_none() => ends.push(i),
            Place::Field(_) | Place::FromEnd(_) => return None,
            Place::At(_) => return None,
            Place::After(_) | Place::Each(_) | Place::Zlib(_) => {}
        }
    }
    if ends.len() > 1 {
        return None;
    }
    tail.extend(ends);
    let placed: HashSet<usize> = tail.iter().copied().collect();
    let all_placed = (f.records.iter().enumerate().skip(1))
        .filter(|(_, r)| matches!(r.place, Place::After(_)))
        .all(|(i, _)| placed.contains(&i));
    // The writer fills counts, offsets and totals into the records it writes last: the
    // first record is written before anything is known.
    let holders_last = (tail.iter())
        .filter_map(|&i| match (&f.records[i].place, &f.records[i].count) {
            (Place::Field(h), _) => Some(h.record),
            (_, Some(c)) => Some(c.record),
            _ => None,
        })
        .chain(f.totals.iter().map(|t| t.total.record))
        .all(|h| placed.contains(&h));
    let ok = all_placed && holders_last && placed.contains(&index.record);
    (ok && placed.len() == tail.len()).then_some((zi, z, index.record, tail))
}

fn decoded_of(f: &FileFormat) -> StructId {
    (f.records.iter())
        .find_map(|r| r.encoding.as_ref().map(|e| e.decoded))
        .unwrap_or(StructId::new(0))
}

fn word(s: &Scalar) -> String {
    format!("({}, {})", s.offset, s.width)
}

fn field_ref(r: &FieldRef) -> String {
    format!("({}, {}, {})", r.record, r.field.offset, r.field.width)
}

fn opt(s: Option<&Scalar>) -> String {
    s.map_or_else(|| "None".to_string(), word)
}

/// Every field of struct `si` (and of the structs it holds) that expects a constant, as
/// `(offset, width, value)` with the value as its bytes hold it.
fn expects(schema: &Schema, si: StructId, base: u64, out: &mut Vec<String>) {
    let abi: &Abi = &schema.abi;
    let layout = schema.layout.of(si);
    for (f, fl) in abi.structs[si].fields.iter().zip(&layout.fields) {
        let at = base + fl.offset;
        if let Some(c) = f.expect {
            let bits = 8 * fl.size.min(8);
            let value = abi.consts[c].value.rem_euclid(1i128 << bits);
            out.push(format!("({at}, {}, {value})", fl.size));
        } else if let (Elem::Struct(inner), None) = (f.ty.elem, f.ty.len) {
            expects(schema, inner, at, out);
        }
    }
}

/// The template's context for format `f`: its data dict and the Python names of its reader,
/// writer, properties and arguments.
fn format_data(schema: &Schema, names: &Names, f: &FileFormat, module: &mut Namer) -> FormatData {
    let shape = FormatShape::of(f);
    let (zi, enc) = (shape.zi, shape.enc);
    let d = format_dict(schema, names, &shape);
    let seek = f.records[zi].seek.as_ref();
    let (added, given) = (shape.added(), shape.given());
    let camel = python_type_name(&f.name);
    let reader = module.name(&format!("{camel}Reader"));
    let writer = module.name(&format!("{camel}Writer"));
    let key = seek.map_or_else(|| "index".to_string(), |s| s.key.path.clone());
    let mut reader_attrs = Namer(READER_ATTRIBUTES.map(String::from).into());
    let seek_name = reader_attrs.name(&format!("seek_{}", key.replace('.', "_")));
    let properties = (f.records.iter().enumerate())
        .filter(|(i, _)| *i != zi)
        .map(|(i, r)| Property {
            name: reader_attrs.name(&r.name),
            record: r.name.clone(),
            class: names.structs[r.struct_index].clone(),
            many: r.count.is_some() || matches!(r.place, Place::Each(_)),
            index: i,
        })
        .collect();
    let mut writer_attrs = Namer(WRITER_ATTRIBUTES.map(String::from).into());
    let mut args = Namer(
        ["self", "target", "keyframe_every"]
            .map(String::from)
            .into(),
    );
    let first = args.name(&f.records[0].name);
    let per_chunk = f.records[zi].name.clone();
    let named = |i: usize, name: String| Named {
        name,
        class: names.structs[f.records[i].struct_index].clone(),
        index: i,
    };
    FormatData {
        name: f.name.clone(),
        doc: doc_lines(&f.doc).join(" "),
        data_name: format!("{}_FORMAT", f.name.to_uppercase()),
        data: d,
        record_class: names.structs[f.records[zi].struct_index].clone(),
        decoded_class: names.structs[enc.decoded].clone(),
        reader,
        writer,
        seek: seek_name,
        key,
        first_class: names.structs[f.records[0].struct_index].clone(),
        first,
        per_chunk,
        properties,
        added: (added.iter())
            .map(|&i| named(i, writer_attrs.name(&format!("add_{}", f.records[i].name))))
            .collect(),
        given: (given.iter())
            .map(|&i| named(i, args.name(&f.records[i].name)))
            .collect(),
    }
}

/// A supported format ([`supported`]): the zlib record's index, its placement and encoding,
/// the index record and the records after the streams in the order they are written.
struct FormatShape<'a> {
    f: &'a FileFormat,
    zi: usize,
    z: &'a Zlib,
    enc: &'a Encoding,
    index_ri: usize,
    tail: Vec<usize>,
}

impl<'a> FormatShape<'a> {
    fn of(f: &'a FileFormat) -> Self {
        let (zi, z, index_ri, tail) = supported(f).expect("only supported formats");
        let enc = f.records[zi].encoding.as_ref().expect("supported");
        FormatShape {
            f,
            zi,
            z,
            enc,
            index_ri,
            tail,
        }
    }

    /// The records after the streams that the writer adds rows to (counted, not the index).
    fn added(&self) -> Vec<usize> {
        (self.tail.iter().copied())
            .filter(|&i| self.f.records[i].count.is_some() && i != self.index_ri)
            .collect()
    }

    /// The records after the streams that the writer is given whole (not counted).
    fn given(&self) -> Vec<usize> {
        (self.tail.iter().copied())
            .filter(|&i| self.f.records[i].count.is_none())
            .collect()
    }
}

/// The format's data dict, as Python source: its records, zlib streams and encoding, seek
/// key, ordered fields, totals and what the writer writes after the streams.
fn format_dict(schema: &Schema, names: &Names, shape: &FormatShape) -> String {
    let mut d = String::from("{\n");
    let _ = writeln!(d, "    \"name\": {:?},", shape.f.name);
    records_entry(schema, names, shape.f, &mut d);
    zlib_entry(schema, names, shape, &mut d);
    ordered_and_totals_entries(shape, &mut d);
    tail_entries(shape, &mut d);
    d.push('}');
    d
}

/// `"records"`: each record's class, size, place, count, walk and expected constants.
fn records_entry(schema: &Schema, names: &Names, f: &FileFormat, d: &mut String) {
    d.push_str("    \"records\": [\n");
    for (i, r) in f.records.iter().enumerate() {
        let place = match &r.place {
            Place::At(o) => format!("(\"at\", {o})"),
            Place::FromEnd(b) => format!("(\"end\", {b})"),
            Place::Field(fr) => format!("(\"field\", {})", field_ref(fr)),
            Place::Each(fr) => format!("(\"each\", {})", field_ref(fr)),
            Place::After(a) => format!("(\"after\", {a})"),
            Place::Zlib(_) => "(\"zlib\",)".to_string(),
        };
        let mut ex = Vec::new();
        expects(schema, r.struct_index, 0, &mut ex);
        let walk = r.walk.map_or_else(|| "None".to_string(), |w| w.to_string());
        let _ = writeln!(
            d,
            "        {{\"name\": {:?}, \"cls\": {}, \"size\": {}, \"place\": {place}, \"count\": {}, \"walk\": {walk}, \"expect\": ({}{})}},  # {i}",
            r.name,
            names.structs[r.struct_index],
            r.size,
            r.count
                .as_ref()
                .map_or_else(|| "None".to_string(), field_ref),
            ex.join(", "),
            if ex.len() == 1 { "," } else { "" },
        );
    }
    d.push_str("    ],\n");
}

/// `"zlib"` with its `"encoding"`, and `"seek"`.
fn zlib_entry(schema: &Schema, names: &Names, shape: &FormatShape, d: &mut String) {
    let (f, zi, z, enc) = (shape.f, shape.zi, shape.z, shape.enc);
    let first_of = |step: Step| {
        (enc.steps.iter())
            .find(|(_, s)| *s == step)
            .map_or(0, |(v, _)| *v)
    };
    let steps: Vec<String> = (enc.steps.iter())
        .map(|(v, s)| format!("{v}: {:?}", s.name()))
        .collect();
    let same: Vec<String> = (enc.same.iter())
        .map(|s| {
            format!(
                "({}, {}, {}, {}, {:?})",
                s.decoded.offset,
                s.decoded.width,
                s.record.offset,
                s.record.width,
                format!("{} = {}", s.decoded.path, s.record.path)
            )
        })
        .collect();
    let seek = f.records[zi].seek.as_ref();
    let bounds = seek.and_then(|s| s.bounds.as_ref()).map_or_else(
        || "None".to_string(),
        |(a, b)| format!("({}, {})", word(a), word(b)),
    );
    let ordered_zlib: Vec<String> = (f.ordered.iter())
        .filter(|o| o.record == zi)
        .map(|o| {
            format!(
                "({}, {}, {:?})",
                o.field.offset, o.field.width, o.field.path
            )
        })
        .collect();
    let _ = writeln!(
        d,
        "    \"zlib\": {{\"source\": {}, \"record\": {zi}, \"stored\": {}, \"raw\": {}, \"count\": {}, \"size\": {}, \"data\": {}, \"bounds\": {bounds}, \"ordered\": [{}],",
        z.source,
        word(&z.stored),
        word(&z.raw),
        opt(z.count.as_ref()),
        opt(z.size.as_ref()),
        opt(z.data.as_ref()),
        ordered_zlib.join(", "),
    );
    let mut decoded_expect = Vec::new();
    expects(schema, enc.decoded, 0, &mut decoded_expect);
    let _ = writeln!(
        d,
        "        \"encoding\": {{\"kind\": {}, \"steps\": {{{}}}, \"plain\": {}, \"xor\": {}, \"cls\": {}, \"decoded_size\": {}, \"expect\": [{}], \"same\": [{}]}}}},",
        word(&enc.kind),
        steps.join(", "),
        first_of(Step::Plain),
        first_of(Step::Xor),
        names.structs[enc.decoded],
        enc.decoded_size,
        decoded_expect.join(", "),
        same.join(", "),
    );
    let _ = writeln!(
        d,
        "    \"seek\": {},",
        seek.map_or_else(
            || "None".to_string(),
            |s| format!("{{\"key\": {}}}", word(&s.key))
        )
    );
}

/// `"ordered"` (outside the streams) and `"totals"`.
fn ordered_and_totals_entries(shape: &FormatShape, d: &mut String) {
    let (f, zi) = (shape.f, shape.zi);
    let ordered: Vec<String> = (f.ordered.iter())
        .filter(|o| o.record != zi)
        .map(|o| {
            format!(
                "({}, {}, {}, {:?})",
                o.record,
                o.field.offset,
                o.field.width,
                format!("{}.{}", f.records[o.record].name, o.field.path)
            )
        })
        .collect();
    let _ = writeln!(d, "    \"ordered\": [{}],", ordered.join(", "));
    let totals: Vec<String> = (f.totals.iter())
        .map(|t| {
            let (kind, of) = match &t.of {
                TotalOf::Sum(r) => ("sum", field_ref(r)),
                TotalOf::Count(r) => ("count", r.to_string()),
                TotalOf::First(r) => ("first", field_ref(r)),
                TotalOf::Last(r) => ("last", field_ref(r)),
            };
            let holder = format!("{}.{}", f.records[t.total.record].name, t.total.field.path);
            format!(
                "({}, {kind:?}, {of}, ({holder:?}, {:?}))",
                field_ref(&t.total),
                t.text
            )
        })
        .collect();
    let _ = writeln!(d, "    \"totals\": [{}],", totals.join(", "));
    let _ = writeln!(d, "    \"chunk_default\": {DEFAULT_CHUNK_RECORDS},");
}

/// `"chunk_default"`, `"index"` and the records after the streams: `"added"`, `"tail"`,
/// `"counts"` and `"offsets"`.
fn tail_entries(shape: &FormatShape, d: &mut String) {
    let (f, z, index_ri, tail) = (shape.f, shape.z, shape.index_ri, &shape.tail);
    let added = shape.added();
    let Place::Each(index) = &f.records[z.source].place else {
        unreachable!("supported() checked it")
    };
    let _ = writeln!(
        d,
        "    \"index\": {{\"record\": {index_ri}, \"offset\": {}, \"same\": [{}]}},",
        word(&index.field),
        (f.records[z.source].indexed.iter())
            .map(|x| format!(
                "(({}, {}), ({}, {}))",
                x.entry.offset, x.entry.width, x.record.offset, x.record.width
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let list = |v: &[usize]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(d, "    \"added\": [{}],", list(&added));
    let _ = writeln!(d, "    \"tail\": [{}],", list(tail));
    let counts: Vec<String> = (tail.iter().copied())
        .filter_map(|i| (f.records[i].count.as_ref()).map(|c| format!("({i}, {})", field_ref(c))))
        .collect();
    let _ = writeln!(d, "    \"counts\": [{}],", counts.join(", "));
    let offsets: Vec<String> = (tail.iter().copied())
        .filter_map(|i| match &f.records[i].place {
            Place::Field(holder) => Some(format!("({i}, {})", field_ref(holder))),
            _ => None,
        })
        .collect();
    let _ = writeln!(d, "    \"offsets\": [{}],", offsets.join(", "));
}
