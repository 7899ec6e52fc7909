//! `abi-codegen inspect`: records of a struct read from a file, or a whole `[[file]]` or
//! `[[layout]]` image, decoded and printed as a dump or JSON, with their issues on stderr.

mod input;
pub(crate) mod live;
mod seek;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::Schema;

use crate::cli::common::{Failure, load, out, outln};

/// What `abi-codegen inspect` was asked to decode.
pub(crate) struct Request {
    pub(crate) name: String,
    pub(crate) file: PathBuf,
    pub(crate) offset: u64,
    pub(crate) count: u64,
    pub(crate) stride: Option<u64>,
    /// `--tick N` or `--ticks A..B`: the keys to seek, inclusive.
    pub(crate) keys: Option<(u64, u64)>,
}

impl Request {
    /// The records to decode: the struct named, where the first starts, how many, how far
    /// apart.
    pub(crate) fn plan(&self, schema: &Schema) -> Result<crate::inspect::Plan, Failure> {
        crate::inspect::Plan::new(schema, &self.name, self.offset, self.count, self.stride)
            .map_err(Failure::Input)
    }
}

/// Data on stdout, diagnostics (every issue, every error) on stderr. When the input does not
/// hold the records, stdout stays empty and the exit code is 1 (2 with `--strict`).
pub(crate) fn inspect(
    schema_path: &Path,
    request: &Request,
    json: bool,
    strict: bool,
) -> Result<ExitCode, Failure> {
    use crate::inspect::{decode, render_issues};
    let schema = load(schema_path)?;
    let file = &request.file;
    let whole = match crate::inspect::find_file(&schema, &request.name) {
        Some(f) => Some(Whole::File(f)),
        None => crate::inspect::find_layout(&schema, &request.name).map(Whole::Image),
    };
    match (whole, request.keys) {
        (Some(Whole::File(f)), Some(keys)) => {
            let input = open_whole(request)?;
            return seek::inspect_keys(&schema, f, input.as_ref(), keys, json, strict);
        }
        (_, Some(_)) => {
            return Err(Failure::Input(format!(
                "--tick and --ticks select records of a `[[file]]` by their `seek` key; `{}` is not a file format",
                request.name
            )));
        }
        (Some(whole), None) => return inspect_whole(&schema, whole, request, json, strict),
        (None, None) => {}
    }
    let plan = request.plan(&schema)?;
    let misaligned = misaligned(&schema, &plan);
    if let Some(warning) = &misaligned {
        eprintln!("{warning}");
    }
    let input = input::read_records(file, &plan)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", file.display())))?;
    let records: Vec<&[u8]> = input.bytes.iter().map(Vec::as_slice).collect();
    let inspection = decode(&schema, &plan, &records, input.len);
    eprint!("{}", render_issues(&inspection));
    let code = print_records(&schema, &inspection, json, strict, None);
    // --strict: a warning exits 2, this one too.
    Ok(if strict && misaligned.is_some() {
        ExitCode::from(2)
    } else {
        code
    })
}

/// A warning when the records start (or, with a stride, follow each other) off their
/// struct's alignment: the bytes are decoded as asked, but no producer places a record
/// there, so the offset is likely wrong (a count for a byte offset, a header forgotten).
fn misaligned(schema: &Schema, plan: &crate::inspect::Plan) -> Option<String> {
    let align = schema.layout.of(plan.index).align.max(1);
    let name = &plan.type_name;
    let tail = "the records are decoded where asked, but a producer never places one there";
    if plan.offset % align != 0 {
        return Some(format!(
            "warn: --offset {:#x} is not a multiple of `{name}`'s alignment ({align}): {tail}; the nearest aligned offsets are {:#x} and {:#x}",
            plan.offset,
            plan.offset / align * align,
            plan.offset.div_ceil(align) * align
        ));
    }
    (plan.count > 1 && plan.stride % align != 0).then(|| {
        format!(
            "warn: --stride {} is not a multiple of `{name}`'s alignment ({align}): {tail}",
            plan.stride
        )
    })
}

/// Prints decoded records (JSON with `extra` keys added, or the dump) and gives the exit
/// code; nothing on stdout when the input did not hold them.
pub(crate) fn print_records(
    schema: &Schema,
    inspection: &crate::inspect::Inspection,
    json: bool,
    strict: bool,
    extra: Option<(&str, serde_json::Value)>,
) -> ExitCode {
    use crate::inspect::{render_dump, render_json};
    if inspection.records.is_empty() {
        return ExitCode::from(inspection.exit_code(strict));
    }
    if json {
        let mut value = render_json(schema, inspection);
        if let Some((key, more)) = extra {
            value[key] = more;
        }
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).expect("json values serialize")
        );
    } else {
        out!("{}", render_dump(schema, inspection));
    }
    ExitCode::from(inspection.exit_code(strict))
}

/// What a name that is not a struct's names: a `[[file]]`, or a `[[layout]]` (an image).
enum Whole {
    File(usize),
    Image(crate::ir::LayoutId),
}

/// The whole input of a `[[file]]` or `[[layout]]`, which no `--offset`, `--count` or
/// `--stride` places.
fn open_whole(request: &Request) -> Result<Box<dyn crate::inspect::ReadAt>, Failure> {
    if request.offset != 0 || request.count != 1 || request.stride.is_some() {
        return Err(Failure::Input(format!(
            "--offset, --count and --stride place records of a struct; `{}` is decoded whole",
            request.name
        )));
    }
    let file = &request.file;
    input::open_whole(file)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", file.display())))
}

/// `abi-codegen inspect` of a `[[file]]` format or a `[[layout]]`: the whole file, record by
/// record, or the whole image, region by region.
fn inspect_whole(
    schema: &crate::Schema,
    whole: Whole,
    request: &Request,
    json: bool,
    strict: bool,
) -> Result<ExitCode, Failure> {
    use crate::inspect::{
        inspect_file, inspect_image, render_file_dump, render_file_issues, render_file_json,
    };
    let input = open_whole(request)?;
    let inspection = match whole {
        Whole::File(f) => inspect_file(schema, f, input.as_ref()),
        Whole::Image(l) => inspect_image(schema, l, input.as_ref()),
    };
    eprint!("{}", render_file_issues(&inspection));
    if json {
        let value = render_file_json(schema, &inspection);
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).expect("json values serialize")
        );
    } else {
        out!("{}", render_file_dump(schema, &inspection));
    }
    Ok(ExitCode::from(inspection.exit_code(strict)))
}
