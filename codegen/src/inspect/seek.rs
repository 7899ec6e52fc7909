//! Seeking a `[[file]]` by key (`inspect FILE --tick N`, `--ticks A..B`): the records in the
//! file itself are placed as for a whole file (the index, or the walk when it is missing),
//! then only the zlib streams whose bounds hold a selected key are inflated, one at a time,
//! each decoded from its start through its encoding, and every selected record is handed
//! to a sink as it is decoded. Memory stays bounded by one stream's inflated size.

use crate::ir::file::Place;
use crate::schema::Schema;

use super::file::{FileDecoder, ReadAt, read_scalar};
use super::model::{Decoded, Issue, Level, exit_code};

/// What a seek found besides the records it handed out.
#[derive(Debug, Clone)]
pub struct SeekInspection {
    /// The `[[file]]`.
    pub name: String,
    pub len: u64,
    pub issues: Vec<Issue>,
    /// How many records were handed out.
    pub records: u64,
    /// The zlib streams inflated, by path: `chunks[1]`.
    pub inflated: Vec<String>,
}

impl SeekInspection {
    /// As [`super::Inspection::exit_code`].
    pub fn exit_code(&self, strict: bool) -> u8 {
        exit_code(&self.issues, strict)
    }

    /// The issues, as [`super::render_issues`] writes them.
    pub fn render_issues(&self) -> String {
        super::render::issues_text(&self.issues)
    }
}

/// Parses `--ticks`: `A..B` (B excluded), `A..=B`, or one key `N`; inclusive bounds.
pub fn parse_keys(text: &str) -> Result<(u64, u64), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{text}` is not a range of ticks (write 100..200 or 100..=199)"))
    };
    let (from, to) = if let Some((a, b)) = text.split_once("..=") {
        (num(a)?, num(b)?)
    } else if let Some((a, b)) = text.split_once("..") {
        let b = num(b)?;
        let a = num(a)?;
        if b <= a {
            return Err(format!("`{text}` is an empty range"));
        }
        (a, b - 1)
    } else {
        let n = num(text)?;
        (n, n)
    };
    if to < from {
        return Err(format!("`{text}` is an empty range"));
    }
    Ok((from, to))
}

/// Decodes the records of `[[file]]` `format` whose key (`seek.key`) lies in `from..=to`,
/// handing each to `sink` in file order. `Err` when the format has no record with `seek`.
pub fn seek_records(
    schema: &Schema,
    format: usize,
    input: &dyn ReadAt,
    (from, to): (u64, u64),
    sink: &mut dyn FnMut(Decoded),
) -> Result<SeekInspection, String> {
    let f = &schema.attach.files[format];
    let Some(ri) = f.records.iter().position(|r| r.seek.is_some()) else {
        return Err(format!(
            "file `{}` has no record with `seek`: --tick and --ticks select records by its key",
            f.name
        ));
    };
    let Place::Zlib(z) = &f.records[ri].place else {
        unreachable!("seek goes with zlib")
    };
    let seek = f.records[ri].seek.as_ref().expect("found by its seek");
    let mut handed = 0u64;
    let mut count = |d: Decoded| {
        handed += 1;
        sink(d);
    };
    let mut cx = FileDecoder::new(schema, f, input);
    cx.select = Some((from, to));
    cx.sink = Some(&mut count);
    for r in 0..f.records.len() {
        let copies = match f.records[r].place {
            Place::Zlib(_) => Err("not inflated when seeking".to_string()),
            _ => cx.place(r),
        };
        cx.copies.push(copies);
    }
    cx.check_totals();
    let sources: Vec<(u64, Vec<u8>)> = match &cx.copies[z.source] {
        Ok(c) => c
            .iter()
            .filter(|c| c.valid)
            .map(|c| (c.offset, c.bytes.clone()))
            .collect(),
        Err(_) => Vec::new(),
    };
    let mut inflated = Vec::new();
    // An index that names one chunk many times gets it inflated once.
    let mut seen = std::collections::BTreeSet::new();
    for (k, (offset, bytes)) in sources.into_iter().enumerate() {
        if !seen.insert(offset) {
            continue;
        }
        if let Some((first, last)) = &seek.bounds {
            let (first, last) = (read_scalar(&bytes, first), read_scalar(&bytes, last));
            if last < from || first > to {
                continue;
            }
        }
        inflated.push(format!("{}[{k}]", f.records[z.source].name));
        let mut copies = Vec::new();
        cx.inflate_one(ri, z, k, offset, &bytes, &mut copies);
        cx.found.clear();
    }
    let issues = std::mem::take(&mut cx.issues);
    drop(cx);
    let mut out = SeekInspection {
        name: f.name.clone(),
        len: input.size(),
        issues,
        records: handed,
        inflated,
    };
    if out.records == 0 {
        let (name, key) = (&f.records[ri].name, &seek.key.path);
        let which = if from == to {
            format!("{key} = {from}")
        } else {
            format!("{key} in {from}..={to}")
        };
        out.issues.push(Issue {
            level: Level::Error,
            offset: 0,
            path: name.clone(),
            message: format!("no `{name}` record with {which} was decoded"),
        });
    }
    Ok(out)
}
