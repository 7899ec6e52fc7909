//! `abi-codegen inspect FILE --tick N` / `--ticks A..B`: the records of a `[[file]]` selected
//! by their `seek` key, each printed as it is decoded (its struct, its decoded data, its
//! extras), as `--dump` lines or as one JSON document written piece by piece; the issues on
//! stderr. Nothing is held but the record being printed.

use std::process::ExitCode;

use crate::Schema;
use crate::inspect::{
    Decoded, Issue, ReadAt, render_decoded_dump, render_decoded_json, seek_records,
};

use crate::cli::common::{Failure, out, outln};

/// Seeks the keys `keys` (inclusive) of file format `format` in `input`.
pub(crate) fn inspect_keys(
    schema: &Schema,
    format: usize,
    input: &dyn ReadAt,
    keys: (u64, u64),
    json: bool,
    strict: bool,
) -> Result<ExitCode, Failure> {
    let name = &schema.attach.files[format].name;
    let (from, to) = keys;
    let mut own: Vec<Issue> = Vec::new();
    let mut first = true;
    if json {
        outln!(
            "{{\n  \"file\": {},\n  \"records\": [",
            serde_json::json!(name)
        );
    } else {
        let range = if from == to {
            format!("{from}")
        } else {
            format!("{from}..={to}")
        };
        outln!("# {name}: {range}");
    }
    let mut print = |d: Decoded| {
        if json {
            let v = render_decoded_json(schema, &d, &mut own);
            let text = serde_json::to_string_pretty(&v).expect("json values serialize");
            let indented: Vec<String> = text.lines().map(|l| format!("    {l}")).collect();
            let sep = if first { "" } else { ",\n" };
            out!("{sep}{}", indented.join("\n"));
        } else {
            out!("{}", render_decoded_dump(schema, &d, &mut own));
        }
        first = false;
    };
    let found = seek_records(schema, format, input, keys, &mut print).map_err(Failure::Input)?;
    let mut found = found;
    found.issues.extend(own);
    eprint!("{}", found.render_issues());
    if json {
        let issues = crate::inspect::issues_json(&found.issues);
        let text = serde_json::to_string_pretty(&issues).expect("json values serialize");
        let issues = text.replace('\n', "\n  ");
        let inflated = serde_json::json!(found.inflated);
        let size = found.len;
        outln!(
            "\n  ],\n  \"size\": {size},\n  \"inflated\": {inflated},\n  \"issues\": {issues}\n}}"
        );
    }
    Ok(ExitCode::from(found.exit_code(strict)))
}
