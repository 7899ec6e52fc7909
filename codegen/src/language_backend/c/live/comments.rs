//! The helpers' doc comments: a field's comment with its writers and claim protocol, and a
//! protocol's block of numbered steps above the helpers that implement it.

use crate::ir::StructId;
use crate::language_backend::c::comments::render_comment_lines;
use crate::language_backend::prose::ProtocolProse;
use crate::schema::Schema;

/// Comment lines are wrapped to this many columns, the comment's ` * ` included.
pub(super) const WIDTH: usize = 93;

/// A `/** ... */` doc comment of `lines` (already wrapped and escaped).
pub(super) fn comment(lines: &[String]) -> String {
    match lines {
        [] => String::new(),
        [one] if one.len() <= WIDTH - 4 => format!("/** {one} */\n"),
        _ => block(lines, "/**"),
    }
}

/// A protocol's comment: a `/* ... */` block heading the helpers that implement it.
pub(super) fn protocol_comment(protocol: Option<&ProtocolProse>) -> String {
    protocol.map_or_else(String::new, |p| block(&protocol_lines(p), "/*"))
}

fn block(lines: &[String], open: &str) -> String {
    let mut out = format!("{open}\n");
    for l in lines {
        if l.is_empty() {
            out.push_str(" *\n");
        } else {
            out.push_str(" * ");
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str(" */\n");
    out
}

/// A protocol as comment lines: its summary and doc, then each role's numbered steps. A
/// claim's doc is its field's, which the field's comment shows already.
fn protocol_lines(protocol: &ProtocolProse) -> Vec<String> {
    let head = match protocol.kind {
        "seqlock" => format!("Seqlock `{}`. {}", protocol.name, protocol.summary),
        "ring" => format!("Ring `{}`. {}", protocol.name, protocol.summary),
        _ => protocol.summary.clone(),
    };
    let mut lines = render_comment_lines(&head, WIDTH);
    if protocol.kind != "claim" && !protocol.doc.trim().is_empty() {
        lines.extend(render_comment_lines(&protocol.doc, WIDTH));
    }
    for role in &protocol.roles {
        lines.push(String::new());
        lines.extend(render_comment_lines(&format!("{}:", role.who), WIDTH));
        for (i, step) in role.steps.iter().enumerate() {
            let number = format!("{}. ", i + 1);
            let indent = " ".repeat(number.len() + 2);
            for (j, l) in render_comment_lines(step, WIDTH - indent.len())
                .into_iter()
                .enumerate()
            {
                lines.push(if j == 0 {
                    format!("  {number}{l}")
                } else {
                    format!("{indent}{l}")
                });
            }
        }
    }
    lines
}

pub(super) fn find<'a>(
    protocols: &'a [ProtocolProse],
    kind: &str,
    name: &str,
) -> Option<&'a ProtocolProse> {
    protocols.iter().find(|p| p.kind == kind && p.name == name)
}

/// The doc of a field's helpers: who writes it, its claim protocol if it has one.
pub(super) fn field_doc(
    schema: &Schema,
    protocols: &[ProtocolProse],
    si: StructId,
    fi: usize,
) -> String {
    let s = &schema.abi.structs[si];
    let f = &s.fields[fi];
    let writers = schema.access.structs[si].fields[fi]
        .writers
        .describe(&schema.access.parties);
    let mut head = format!("`{}.{}`", s.name, f.name);
    if !writers.is_empty() {
        head.push_str(&format!(", written by the {writers}"));
    }
    head.push('.');
    if !f.doc.trim().is_empty() {
        head.push(' ');
        head.push_str(&f.doc);
    }
    let mut lines = render_comment_lines(&head, WIDTH);
    if let Some(claim) = find(protocols, "claim", &format!("{}.{}", s.name, f.name)) {
        lines.push(String::new());
        lines.extend(protocol_lines(claim));
    }
    comment(&lines)
}
