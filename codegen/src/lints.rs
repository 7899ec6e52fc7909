//! Warnings about a valid schema that likely does not do what its author meant: a
//! protocol's capacity in a laid-out region that nothing writes (no `geometry`, so the
//! generated `lay_out` leaves it 0), and a layout row's `bytes` that nothing reads. They are
//! warnings, not errors: a producer may write the capacity itself after `lay_out` (the field
//! is its writer's), and room past a struct is harmless; the schema stays valid and every
//! output is generated, but the author is told where the starter path would fail at run time.

use crate::diagnostics::{Diagnostic, Span};
use crate::ir::Abi;
use crate::ir::StructId;
use crate::ir::access::Access;
use crate::ir::attach::{Attach, Holds};
use crate::ir::protocol::{Protocol, ProtocolKind};
use crate::parse::RawSchema;

/// The capacities a protocol reads from its header, by field index, with their keys.
fn capacities(kind: &ProtocolKind) -> Vec<(&'static str, usize)> {
    match kind {
        ProtocolKind::Queue(q) => vec![("capacity", q.capacity)],
        ProtocolKind::Broadcast(b) => vec![("capacity", b.capacity)],
        ProtocolKind::Mailbox(m) => vec![
            ("request_capacity", m.request_capacity),
            ("response_capacity", m.response_capacity),
        ],
        ProtocolKind::Exchange(_) | ProtocolKind::Session(_) => Vec::new(),
    }
}

/// Every warning of a schema that loaded, in the order of their positions.
pub fn lint(
    raw: &RawSchema,
    abi: &Abi,
    access: &Access,
    protocols: &[Protocol],
    attach: &Attach,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let has_geometry = |si: StructId, fi: usize| {
        attach
            .geometry
            .iter()
            .any(|g| g.struct_index == si && g.field == fi)
    };
    // A struct some layout row holds (a layout's own header excepted): lay_out writes it.
    let laid_out = |si: StructId| {
        attach.layouts.iter().any(|l| {
            l.header != si
                && l.rows.iter().any(
                    |r| matches!(r.holds, Holds::Struct { struct_index, .. } if struct_index == si),
                )
        })
    };
    for p in protocols {
        let si = p.kind.header();
        if !laid_out(si) {
            continue;
        }
        let s = &abi.structs[si];
        for (key, fi) in capacities(&p.kind) {
            if has_geometry(si, fi) {
                continue;
            }
            let f = &s.fields[fi];
            out.push(Diagnostic {
                span: f.span.clone(),
                message: format!(
                    "struct `{}`, field `{}`: {} `{}` reads it as its `{key}`, and it has no `geometry`: the generated lay_out leaves it 0, so the {} has no room",
                    s.name,
                    f.name,
                    p.kind.table(),
                    p.name,
                    p.kind.table()
                ),
                help: Some(format!(
                    "give `{}` `geometry = \"CONSTANT\"` (lay_out writes the constant's value) or `geometry = \"*\"` (the producer passes the size to lay_out)",
                    f.name
                )),
            });
        }
    }
    // A row's `bytes` after a struct that no protocol or trailer reads.
    for (li, l) in attach.layouts.iter().enumerate() {
        let Some(raw_layout) = raw.layouts.get(li) else {
            continue;
        };
        for row in &l.rows {
            let Holds::Struct {
                struct_index: si,
                bytes,
                ..
            } = row.holds
            else {
                continue;
            };
            if bytes == 0 || si == l.header {
                continue;
            }
            let trailer = access
                .structs
                .get(si.index())
                .is_some_and(|t| !t.trailer.is_empty());
            let read = protocols.iter().any(|p| {
                p.kind.header() == si
                    && match &p.kind {
                        ProtocolKind::Exchange(_) => true,
                        ProtocolKind::Session(_) => false,
                        k => capacities(k).iter().all(|&(_, fi)| has_geometry(si, fi)),
                    }
            });
            if trailer || read {
                continue;
            }
            let Some(span) = raw_layout
                .get_ref()
                .rows
                .get_ref()
                .iter()
                .find(|r| *r.get_ref().name.get_ref() == row.name)
                .and_then(|r| r.get_ref().bytes.as_ref())
                .map(|b| -> Span { b.span() })
            else {
                continue;
            };
            out.push(Diagnostic {
                span,
                message: format!(
                    "layout `{}`, row `{}`: `bytes` gives {bytes} bytes after `{}` that nothing reads (no protocol over `{}` sizes an area by them, and it has no trailer)",
                    l.name, row.name, abi.structs[si].name, abi.structs[si].name
                ),
                help: Some(
                    "drop `bytes`, or give the capacities of the protocol over the struct a `geometry` the bytes hold"
                        .to_string(),
                ),
            });
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end));
    out
}
