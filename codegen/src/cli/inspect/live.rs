//! `abi-codegen inspect --live` and `--watch`: records read from a file another process writes,
//! through abi-runtime's mapping, atomics and seqlock (`input::read_live`), never through a
//! `&[u8]` over the shared bytes.

use std::path::Path;
use std::process::ExitCode;

use crate::Schema;

use super::input;
use super::{Request, print_records};
use crate::cli::common::{Failure, load, outln};

/// `--watch`'s interval: a positive number of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 86400"
        )),
    }
}

/// `--live` and `--watch` read one struct's records: a `[[layout]]` or `[[file]]` name gets
/// an error that says what works with it, not "no struct named".
fn refuse_whole(schema: &Schema, name: &str) -> Result<(), Failure> {
    let structs = &schema.abi.structs;
    let (kind, first) = if let Some(l) = crate::inspect::find_layout(schema, name) {
        ("[[layout]]", Some(schema.attach.layouts[l].header))
    } else if let Some(f) = crate::inspect::find_file(schema, name) {
        let records = &schema.attach.files[f].records;
        ("[[file]]", records.first().map(|r| r.struct_index))
    } else {
        return Ok(());
    };
    let header = first.map_or("STRUCT", |i| structs[i].name.as_str());
    Err(Failure::Input(format!(
        "`{name}` is a {kind}: --live and --watch read the records of one struct; \
         `inspect {name} FILE` (without --live) decodes the whole {kind}, or watch one of \
         its structs, such as `inspect {header} FILE --live`"
    )))
}

/// The plan, the mapping and the seqlock counters of a live inspection.
fn open_live(
    schema_path: &Path,
    request: &Request,
) -> Result<
    (
        Schema,
        crate::inspect::Plan,
        abi_runtime::Mapping,
        Vec<input::Counter>,
    ),
    Failure,
> {
    let schema = load(schema_path)?;
    refuse_whole(&schema, &request.name)?;
    let plan = request.plan(&schema)?;
    let file = &request.file;
    let mapping = abi_runtime::Mapping::open(file).map_err(|e| {
        // A refusal names the file, its owner and mode itself (abi_runtime::AccessDenied).
        Failure::Input(match abi_runtime::AccessDenied::of(&e) {
            Some(_) => format!("--live maps the file shared, for reading and writing: {e}"),
            None => format!(
                "cannot map {} (--live maps the file shared, for reading and writing): {e}",
                file.display()
            ),
        })
    })?;
    let layout = schema.layout.of(plan.index);
    let counters = schema.access.structs[plan.index]
        .seqlocks
        .iter()
        .map(|&k| {
            let lock = &schema.access.seqlocks[k];
            input::Counter {
                offset: layout.fields[lock.counter].offset as usize,
                width: lock.counter_width as usize,
            }
        })
        .collect();
    Ok((schema, plan, mapping, counters))
}

/// `inspect --live`: like `inspect`, from a mapping another process writes; stderr says
/// which records needed retries, and the JSON carries them.
pub fn inspect_live(
    schema_path: &Path,
    request: &Request,
    json: bool,
    strict: bool,
) -> Result<ExitCode, Failure> {
    use crate::inspect::{decode, render_issues};
    let (schema, plan, mapping, counters) = open_live(schema_path, request)?;
    let (input, retries) = input::read_live(&mapping, &plan, &counters).map_err(Failure::Input)?;
    let records: Vec<&[u8]> = input.bytes.iter().map(Vec::as_slice).collect();
    let inspection = decode(&schema, &plan, &records, input.len);
    eprint!("{}", render_issues(&inspection));
    for (i, r) in retries.iter().enumerate().filter(|(_, r)| **r > 0) {
        eprintln!(
            "info: @{:#06x} record {i}: copied under its seqlock after {r} retries",
            plan.record_offset(i as u64)
        );
    }
    let live = serde_json::json!({ "seqlocks": counters.len(), "retries": retries });
    Ok(print_records(
        &schema,
        &inspection,
        json,
        strict,
        Some(("live", live)),
    ))
}

/// `inspect --watch`: re-reads the live records every `seconds` and prints each field that
/// changed as `PATH: OLD -> NEW`, until interrupted.
pub fn watch_live(
    schema_path: &Path,
    request: &Request,
    seconds: f64,
) -> Result<ExitCode, Failure> {
    use crate::inspect::{decode, render_dump};
    let (schema, plan, mapping, counters) = open_live(schema_path, request)?;
    let fields = |dump: &str| -> Vec<(String, String)> {
        dump.lines()
            .filter(|l| l.starts_with('@'))
            .filter_map(|l| {
                let mut words = l.splitn(4, ' ');
                let (at, path, _ty) = (words.next()?, words.next()?, words.next()?);
                Some((
                    format!("{at} {path}"),
                    words.next().unwrap_or("").to_string(),
                ))
            })
            .collect()
    };
    let mut before: Option<Vec<(String, String)>> = None;
    loop {
        let (input, retries) =
            input::read_live(&mapping, &plan, &counters).map_err(Failure::Input)?;
        let records: Vec<&[u8]> = input.bytes.iter().map(Vec::as_slice).collect();
        let inspection = decode(&schema, &plan, &records, input.len);
        if inspection.records.is_empty() {
            eprint!("{}", crate::inspect::render_issues(&inspection));
            return Ok(ExitCode::from(1));
        }
        let now = fields(&render_dump(&schema, &inspection));
        match &before {
            None => {
                outln!("# watching {} fields every {seconds} s", now.len());
            }
            Some(old) => {
                let retried: u32 = retries.iter().sum();
                for ((key, new), (_, was)) in now.iter().zip(old) {
                    if new != was {
                        let path = key.split_once(' ').map_or(key.as_str(), |(_, p)| p);
                        outln!("{path}: {was} -> {new}");
                    }
                }
                if retried > 0 {
                    eprintln!("info: {retried} seqlock retries in this read");
                }
            }
        }
        before = Some(now);
        std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
    }
}
