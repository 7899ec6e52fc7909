//! Rendering a [`FileInspection`]: every record found, copy by copy, as `--dump` lines under
//! a heading per copy, or as JSON (`data` maps each record's name to its copies), and the
//! issues for standard error, as for one struct.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::Schema;

use super::FileInspection;
use super::render::{dump_node, issues_json, issues_text, json_node};

/// A heading per copy (`## chunks[1] rec_chunk_header (32 bytes) at 0x1A40`), then its leaves
/// as [`super::render_dump`] writes them. Records inside a zlib stream are placed by their
/// offset in the inflated stream.
pub fn render_file_dump(schema: &Schema, inspection: &FileInspection) -> String {
    let abi = &schema.abi;
    let f = &schema.attach.files[inspection.format];
    let mut out = String::new();
    let _ = writeln!(out, "# {} ({} bytes): {}", f.name, inspection.len, f.doc);
    for found in &inspection.found {
        let rec = &f.records[found.record];
        let type_name = &abi.structs[rec.struct_index].name;
        let data = if found.data > 0 {
            format!(" + {} bytes of data", found.data)
        } else {
            String::new()
        };
        let place = match found.stream {
            None => format!("at {:#06X}", found.offset),
            Some(k) => {
                let Some(source) = zlib_source(schema, inspection.format, found.record) else {
                    continue;
                };
                format!(
                    "at {:#06X} of the inflated stream of {source}[{k}]",
                    found.offset
                )
            }
        };
        let _ = writeln!(
            out,
            "## {} {type_name} ({} bytes{data}) {place}",
            found.path, rec.size
        );
        dump_node(abi, &found.node, &found.path, &mut out);
    }
    out
}

fn zlib_source(schema: &Schema, format: usize, record: usize) -> Option<&str> {
    let f = &schema.attach.files[format];
    match &f.records[record].place {
        crate::ir::file::Place::Zlib(z) => Some(&f.records[z.source].name),
        _ => None,
    }
}

/// The issues, as [`super::render_issues`] writes them.
pub fn render_file_issues(inspection: &FileInspection) -> String {
    issues_text(&inspection.issues)
}

/// `{"file", "size", "issues": [...], "data": {record: [{"offset", "value"}, ...]}}`: every
/// record of the format, in its order, with its copies (none when it was not found); a copy
/// inside a zlib stream also names the copy whose stream holds it (`"in": "chunks[1]"`), and
/// its offset is in the inflated stream.
pub fn render_file_json(schema: &Schema, inspection: &FileInspection) -> Value {
    let f = &schema.attach.files[inspection.format];
    let mut data = Map::new();
    for rec in &f.records {
        data.insert(rec.name.clone(), Value::Array(Vec::new()));
    }
    for found in &inspection.found {
        let rec = &f.records[found.record];
        let mut copy = Map::new();
        copy.insert("path".into(), json!(found.path));
        if let (Some(k), Some(source)) = (
            found.stream,
            zlib_source(schema, inspection.format, found.record),
        ) {
            copy.insert("in".into(), json!(format!("{source}[{k}]")));
        }
        copy.insert("offset".into(), json!(found.offset));
        if found.data > 0 {
            copy.insert("data_bytes".into(), json!(found.data));
        }
        copy.insert("value".into(), json_node(&schema.abi, &found.node));
        if let Some(Value::Array(list)) = data.get_mut(&rec.name) {
            list.push(Value::Object(copy));
        }
    }
    json!({
        "file": f.name,
        "size": inspection.len,
        "issues": issues_json(&inspection.issues),
        "data": data,
    })
}
