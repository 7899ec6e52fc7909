//! Rendering a [`FileInspection`] (a whole `[[file]]`, or a whole image through its layout
//! tables): every record found, copy by copy, as `--dump` lines under a heading per copy, or
//! as JSON (`data` maps each record's name to its copies), and the issues for standard
//! error, as for one struct.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::schema::Schema;

use super::file::FileInspection;
use super::render::{dump_node, is_zero, issues_json, issues_text, json_node};

/// A heading per copy (`## chunks[1] rec_chunk_header (32 bytes) at 0x1A40`), then its leaves
/// as [`super::render_dump`] writes them. Records inside a zlib stream are placed by their
/// offset in the inflated stream; a bytes region is one heading line. A copy whose every
/// byte is zero, or whose values equal those of the copy of its record before it, is folded
/// into its heading (`: all zero`, `: same as client_blocks[0].pad_input`), as `Debug` folds
/// equal rows; `--json` keeps every value.
pub fn render_file_dump(schema: &Schema, inspection: &FileInspection) -> String {
    let abi = &schema.abi;
    let mut out = String::new();
    // Each record's last copy shown: its path, and its leaves without paths and offsets.
    let mut last: HashMap<&str, (&str, String)> = HashMap::new();
    let _ = writeln!(
        out,
        "# {} ({} bytes): {}",
        inspection.name, inspection.len, inspection.doc
    );
    for found in &inspection.found {
        let data = if found.data > 0 {
            format!(" + {} bytes", found.data)
        } else {
            String::new()
        };
        let place = match &found.stream {
            None => format!("at {:#06x}", found.offset),
            Some(source) => format!(
                "at {:#06x} of the inflated stream of {source}",
                found.offset
            ),
        };
        let heading = format!(
            "## {} {} ({} bytes{data}) {place}",
            found.path, found.type_name, found.size
        );
        let Some(node) = &found.node else {
            let _ = writeln!(out, "{heading}");
            continue;
        };
        let values = values_of(abi, node);
        let fold = if is_zero(node) {
            Some("all zero".to_string())
        } else {
            last.get(found.group.as_str())
                .filter(|(_, v)| *v == values)
                .map(|(path, _)| format!("same as {path}"))
        };
        match fold {
            Some(fold) => {
                let _ = writeln!(out, "{heading}: {fold}");
            }
            None => {
                let _ = writeln!(out, "{heading}");
                dump_node(abi, node, &found.path, &mut out);
            }
        }
        // A run of equal copies names the first one shown, not the one before.
        if last
            .get(found.group.as_str())
            .is_none_or(|(_, v)| *v != values)
        {
            last.insert(&found.group, (&found.path, values));
        }
    }
    out
}

/// A copy's leaves as the dump writes them, without their offsets and its own path: equal
/// for two copies that hold the same values.
fn values_of(abi: &crate::ir::Abi, node: &super::model::Node) -> String {
    let mut text = String::new();
    dump_node(abi, node, "", &mut text);
    text.lines()
        .map(|l| match l.split_once(' ') {
            Some((at, rest)) if at.starts_with("@0x") => rest,
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The issues, as [`super::render_issues`] writes them.
pub fn render_file_issues(inspection: &FileInspection) -> String {
    issues_text(&inspection.issues)
}

/// `{"file", "size", "issues": [...], "data": {record: [{"path", "offset", "value"}, ...]}}`:
/// every record of the format (or row of the image), in its order, with its copies (none when
/// it was not found); a copy inside a zlib stream also names the copy whose stream holds it
/// (`"in": "chunks[1]"`), and its offset is in the inflated stream; `data_bytes` are the bytes
/// a copy holds past its struct; a bytes region has no `value`.
pub fn render_file_json(schema: &Schema, inspection: &FileInspection) -> Value {
    let mut data = Map::new();
    for group in &inspection.groups {
        data.insert(group.clone(), Value::Array(Vec::new()));
    }
    for found in &inspection.found {
        let mut copy = Map::new();
        copy.insert("path".into(), json!(found.path));
        copy.insert("type".into(), json!(found.type_name));
        if let Some(source) = &found.stream {
            copy.insert("in".into(), json!(source));
        }
        copy.insert("offset".into(), json!(found.offset));
        copy.insert("size".into(), json!(found.size));
        if found.data > 0 {
            copy.insert("data_bytes".into(), json!(found.data));
        }
        if let Some(node) = &found.node {
            copy.insert("value".into(), json_node(&schema.abi, node));
        }
        let list = data
            .entry(found.group.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(Value::Object(copy));
        }
    }
    json!({
        "file": inspection.name,
        "size": inspection.len,
        "issues": issues_json(&inspection.issues),
        "data": data,
    })
}
