//! Rendering an [`Inspection`]: one line per leaf (`--dump`), JSON, and the issues as
//! diagnostics for standard error.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::ir::{Abi, Prim};
use crate::schema::Schema;

use super::model::{Issue, Node, NodeKind, hex_bytes, join, show_like};
use super::records::{Inspection, every};

pub(super) fn is_zero(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Int(_, v)
        | NodeKind::Expected(_, v, _)
        | NodeKind::Enum(_, v)
        | NodeKind::Flags(_, v) => *v == 0,
        NodeKind::Float(_, v) => v.to_bits() == 0,
        NodeKind::Text(b) | NodeKind::Padding(b) => b.iter().all(|b| *b == 0),
        NodeKind::Struct(_, fields) => fields.iter().all(|(_, n)| is_zero(n)),
        NodeKind::Array { elems, .. } => elems.iter().all(is_zero),
    }
}

/// A leaf value as `--dump` shows it: `playing (6)`, `valid|in_match`, `"bot-7"`.
fn leaf_text(abi: &Abi, kind: &NodeKind) -> String {
    match kind {
        NodeKind::Int(_, v) => v.to_string(),
        NodeKind::Expected(_, v, i) => {
            let c = &abi.consts[*i];
            let shown = show_like(*v, &c.literal);
            if *v == c.value {
                format!("{shown} ({})", c.name)
            } else {
                format!("{shown} (expected {})", c.name)
            }
        }
        NodeKind::Float(Prim::F32, v) => format!("{}", *v as f32),
        NodeKind::Float(_, v) => format!("{v}"),
        NodeKind::Enum(i, v) => match abi.enums[*i].values.iter().find(|x| x.value == *v) {
            Some(x) => format!("{} ({v})", x.name),
            None => format!("{v} (undeclared)"),
        },
        NodeKind::Flags(i, v) => {
            let e = &abi.enums[*i];
            let mut parts: Vec<String> = e
                .values
                .iter()
                .filter(|x| v & x.value != 0)
                .map(|x| x.name.clone())
                .collect();
            let unknown = v & !e.all_bits();
            if unknown != 0 {
                parts.push(format!("{unknown:#x}"));
            }
            if parts.is_empty() {
                "0".into()
            } else {
                parts.join("|")
            }
        }
        NodeKind::Text(bytes) => {
            let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
            format!("{:?}", String::from_utf8_lossy(&bytes[..end]))
        }
        NodeKind::Padding(bytes) => format!("padding {}", hex_bytes(bytes)),
        NodeKind::Struct(..) | NodeKind::Array { .. } => String::new(),
    }
}

fn leaf_type(abi: &Abi, kind: &NodeKind) -> String {
    match kind {
        NodeKind::Int(p, _) | NodeKind::Expected(p, _, _) | NodeKind::Float(p, _) => {
            p.name().to_string()
        }
        NodeKind::Enum(i, _) | NodeKind::Flags(i, _) => abi.enums[*i].name.clone(),
        NodeKind::Text(b) => format!("char[{}]", b.len()),
        NodeKind::Padding(b) => format!("u8[{}]", b.len()),
        NodeKind::Struct(i, _) => abi.structs[*i].name.clone(),
        NodeKind::Array {
            elem_type,
            capacity,
            ..
        } => format!("{elem_type}[{capacity}]"),
    }
}

/// One line per leaf: `@0x0030 game.menu_id i32 5`, under a heading line. Runs of all-zero
/// array elements fold into one line; entries past an array's count field are summarised.
/// The issues are not here: [`render_issues`] renders them, for standard error.
pub fn render_dump(schema: &Schema, inspection: &Inspection) -> String {
    let abi = &schema.abi;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {} × {} ({} bytes) at {:#06x}{}",
        inspection.count,
        inspection.type_name,
        inspection.size,
        inspection.offset,
        every(inspection.size, inspection.stride)
    );
    for (i, record) in inspection.records.iter().enumerate() {
        let path = if inspection.count == 1 {
            String::new()
        } else {
            format!("[{i}]")
        };
        dump_node(abi, record, &path, &mut out);
    }
    out
}

/// The issues, one line each (`warn: @0x000C magic: holds 0xdeadbeef, expected …`), the
/// first 50 of them: diagnostics for standard error, in every output format.
pub fn render_issues(inspection: &Inspection) -> String {
    issues_text(&inspection.issues)
}

/// [`render_issues`] of any list of issues.
pub(super) fn issues_text(issues: &[Issue]) -> String {
    const MAX_LISTED: usize = 50;
    let mut out = String::new();
    for issue in issues.iter().take(MAX_LISTED) {
        let at = if issue.path.is_empty() {
            String::new()
        } else {
            format!(" {}", issue.path)
        };
        let _ = writeln!(
            out,
            "{}: @{:#06x}{at}: {}",
            issue.level.name(),
            issue.offset,
            issue.message
        );
    }
    if issues.len() > MAX_LISTED {
        let _ = writeln!(
            out,
            "… and {} more issues (--json lists them all)",
            issues.len() - MAX_LISTED
        );
    }
    out
}

pub(super) fn dump_node(abi: &Abi, node: &Node, path: &str, out: &mut String) {
    match &node.kind {
        NodeKind::Struct(_, fields) => {
            for (name, child) in fields {
                if matches!(child.kind, NodeKind::Padding(_)) && is_zero(child) {
                    continue;
                }
                dump_node(abi, child, &join(path, name), out);
            }
        }
        NodeKind::Array {
            elem_type,
            elems,
            capacity,
            counter,
        } => {
            let leafy = !matches!(elems.first().map(|e| &e.kind), Some(NodeKind::Struct(..)));
            if leafy && !elems.is_empty() {
                dump_leaf_array(abi, node.offset, elem_type, elems, path, out);
            } else {
                dump_struct_array(abi, elem_type, elems, path, out);
            }
            if let Some(counter) = counter {
                let n = elems.len() as u64;
                if n < *capacity {
                    let _ = writeln!(
                        out,
                        "#        {path}[{n}..{capacity}] not in use ({counter} = {n})"
                    );
                }
            }
        }
        kind => {
            let _ = writeln!(
                out,
                "@{:#06x} {path} {} {}",
                node.offset,
                leaf_type(abi, kind),
                leaf_text(abi, kind)
            );
        }
    }
}

/// Struct elements one by one, with runs of two or more all-zero elements folded.
fn dump_struct_array(abi: &Abi, elem_type: &str, elems: &[Node], path: &str, out: &mut String) {
    let mut i = 0;
    while i < elems.len() {
        let run = elems[i..].iter().take_while(|e| is_zero(e)).count();
        if run >= 2 {
            let _ = writeln!(
                out,
                "@{:#06x} {path}[{i}..{}] {elem_type} ×{run} all zero",
                elems[i].offset,
                i + run
            );
            i += run;
        } else {
            dump_node(abi, &elems[i], &format!("{path}[{i}]"), out);
            i += 1;
        }
    }
}

/// An array of leaves on one line, runs of equal values written once with their count.
fn dump_leaf_array(
    abi: &Abi,
    offset: u64,
    elem_type: &str,
    elems: &[Node],
    path: &str,
    out: &mut String,
) {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < elems.len() {
        let text = leaf_text(abi, &elems[i].kind);
        let run = elems[i..]
            .iter()
            .take_while(|e| leaf_text(abi, &e.kind) == text)
            .count();
        parts.push(if run >= 3 {
            format!("{text} ×{run}")
        } else {
            vec![text; run].join(", ")
        });
        i += run;
    }
    let _ = writeln!(
        out,
        "@{offset:#06x} {path} {elem_type}[{}] [{}]",
        elems.len(),
        parts.join(", ")
    );
}

/// `{"type", "offset", "size", "stride", "count", "issues": [...], "data": [...]}`: `data` is
/// always an array of the records, one for `--count 1` too; values typed, enums by name (or
/// number when undeclared), flags as lists of names, padding left out.
pub fn render_json(schema: &Schema, inspection: &Inspection) -> Value {
    let abi = &schema.abi;
    let issues = issues_json(&inspection.issues);
    let data: Vec<Value> = inspection
        .records
        .iter()
        .map(|r| json_node(abi, r))
        .collect();
    json!({
        "type": inspection.type_name,
        "offset": inspection.offset,
        "size": inspection.size,
        "stride": inspection.stride,
        "count": inspection.count,
        "issues": issues,
        "data": data,
    })
}

/// The issues as JSON objects `{level, offset, path, message}`.
pub fn issues_json(issues: &[Issue]) -> Vec<Value> {
    issues
        .iter()
        .map(|i| json!({"level": i.level.name(), "offset": i.offset, "path": i.path, "message": i.message}))
        .collect()
}

pub(super) fn json_node(abi: &Abi, node: &Node) -> Value {
    match &node.kind {
        NodeKind::Int(_, v) | NodeKind::Expected(_, v, _) => {
            i64::try_from(*v).map_or_else(|_| json!(*v as u64), |v| json!(v))
        }
        NodeKind::Float(Prim::F32, v) => json!(*v as f32),
        NodeKind::Float(_, v) => json!(v),
        NodeKind::Enum(i, v) => match abi.enums[*i].values.iter().find(|x| x.value == *v) {
            Some(x) => json!(x.name),
            None => json!(*v as i64),
        },
        NodeKind::Flags(i, v) => {
            let e = &abi.enums[*i];
            let mut names: Vec<Value> = e
                .values
                .iter()
                .filter(|x| v & x.value != 0)
                .map(|x| json!(x.name))
                .collect();
            let unknown = v & !e.all_bits();
            if unknown != 0 {
                names.push(json!(format!("{unknown:#x}")));
            }
            Value::Array(names)
        }
        NodeKind::Text(bytes) => {
            let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
            json!(String::from_utf8_lossy(&bytes[..end]))
        }
        NodeKind::Padding(_) => Value::Null,
        NodeKind::Struct(_, fields) => {
            let mut map = Map::new();
            for (name, child) in fields {
                if !matches!(child.kind, NodeKind::Padding(_)) {
                    map.insert(name.clone(), json_node(abi, child));
                }
            }
            Value::Object(map)
        }
        NodeKind::Array { elems, .. } => {
            Value::Array(elems.iter().map(|e| json_node(abi, e)).collect())
        }
    }
}
