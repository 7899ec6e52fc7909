//! Rendering a [`Decoded`] record (`inspect FILE --tick N`): its struct, then its decoded
//! data as `inspect snapshot` prints one (offsets from the start of the decoded data), then
//! its extras in hex; as `--dump` lines or as one JSON value. The decode's own issues (a
//! count past its array, non-zero padding) are added to the caller's list, each under the
//! record's path.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::schema::Schema;

use super::decode;
use super::model::{Decoded, Issue, Node};
use super::render::{dump_node, json_node};

/// The nodes of a decoded record: its struct, and its decoded struct when it holds one.
fn nodes(schema: &Schema, d: &Decoded, issues: &mut Vec<Issue>) -> (Node, Option<Node>) {
    let head = decode::record(schema, d.struct_index, &d.head, d.offset, &d.path, issues);
    let data = d.decoded_struct.map(|ds| {
        let mut own = Vec::new();
        let node = decode::record(schema, ds, &d.data[..d.extras_at], 0, "", &mut own);
        let name = &schema.abi.structs[ds].name;
        issues.extend(own.into_iter().map(|mut i| {
            i.path = format!("{} {name}.{}", d.path, i.path);
            i
        }));
        node
    });
    (head, data)
}

/// `## ticks[1][2] rec_tick_header (…) at 0x2fd8 of the inflated stream of chunks[1]`, its
/// leaves, `## ticks[1][2] snapshot (12104 bytes), decoded from a delta` and the decoded
/// leaves, then `## ticks[1][2] extras (32 bytes)` and 16 bytes a line.
pub fn render_decoded_dump(schema: &Schema, d: &Decoded, issues: &mut Vec<Issue>) -> String {
    let abi = &schema.abi;
    let (head, data) = nodes(schema, d, issues);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## {} {} ({} bytes + {} bytes) at {:#06x} of the inflated stream of {}",
        d.path,
        abi.structs[d.struct_index].name,
        d.head.len(),
        d.data.len(),
        d.offset,
        d.stream
    );
    dump_node(abi, &head, &d.path, &mut out);
    if let (Some(node), Some(ds)) = (&data, d.decoded_struct) {
        let _ = writeln!(
            out,
            "## {} {} ({} bytes), decoded from a {}",
            d.path, abi.structs[ds].name, d.extras_at, d.kind
        );
        dump_node(abi, node, "", &mut out);
    }
    let extras = &d.data[d.extras_at..];
    if !extras.is_empty() {
        let what = if d.decoded_struct.is_some() {
            "extras"
        } else {
            "data"
        };
        let _ = writeln!(out, "## {} {what} ({} bytes)", d.path, extras.len());
        for (i, line) in extras.chunks(16).enumerate() {
            let _ = writeln!(
                out,
                "@{:#06x} {}",
                d.extras_at + i * 16,
                line.iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
    out
}

/// `{"path", "in", "offset", "key", "kind", "value", "decoded": {"type", "size", "value"},
/// "extras"}`: `extras` is the bytes after the decoded struct, in hex (all the data when it
/// holds no whole struct, and then there is no `decoded`).
pub fn render_decoded_json(schema: &Schema, d: &Decoded, issues: &mut Vec<Issue>) -> Value {
    let abi = &schema.abi;
    let (head, data) = nodes(schema, d, issues);
    let hex: String = d.data[d.extras_at..]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut v = json!({
        "path": d.path,
        "in": d.stream,
        "offset": d.offset,
        "key": d.key,
        "kind": d.kind,
        "type": abi.structs[d.struct_index].name,
        "value": json_node(abi, &head),
        "extras": hex,
    });
    if let (Some(node), Some(ds)) = (&data, d.decoded_struct) {
        v["decoded"] = json!({
            "type": abi.structs[ds].name,
            "size": d.extras_at,
            "value": json_node(abi, node),
        });
    }
    v
}
