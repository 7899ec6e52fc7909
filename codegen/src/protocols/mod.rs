//! Lowers the protocol declarations (`[[queue]]`, `[[broadcast]]`, `[[mailbox]]`,
//! `[[exchange]]`, `[[session]]`) into [`Protocol`]s, and the `[[directory]]` tables into
//! [`Directory`]s, after the access pass: a protocol's fields must have the access its sides
//! need, and a directory's plan is computed from the layout. This file owns the order of the
//! passes and the checks across protocols (unique names, one protocol per header struct);
//! the field checks they share are in `fields.rs`, and each kind lives in its own file.

mod directory;
mod entry;
mod event;
mod exchange;
mod fields;
mod mailbox;
mod queue;
mod session;

pub use event::lower_events;

use crate::diagnostics::SchemaErrors;
use crate::ir::Abi;
use crate::ir::access::{Access, RingKind};
use crate::ir::directory::Directory;
use crate::ir::names::{RUST_LIVE_IMPORTS, camel};
use crate::ir::protocol::{Protocol, ProtocolKind};
use crate::layout::Layout;
use crate::lower::after_layout::AfterLayout;
use crate::parse::RawSchema;

/// Lowers every `[[directory]]` of `raw`, after the access declarations.
pub fn lower_directories(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
    access: &Access,
) -> Result<Vec<Directory>, SchemaErrors> {
    let mut cx = AfterLayout::new(src, abi, layout, access.parties.clone());
    let mut out = Vec::new();
    for (i, d) in raw.directories.iter().enumerate() {
        let d = d.get_ref();
        let first = raw.directories[..i]
            .iter()
            .map(|o| &o.get_ref().name)
            .find(|o| o.get_ref() == d.name.get_ref());
        cx.check_item_name(&d.name, "directory", first.map(|o| o.span()).as_ref());
        if let Some(dir) = cx.lower_directory(d, access) {
            out.push(dir);
        }
    }
    cx.errors.propagate()?;
    Ok(out)
}

/// Lowers every protocol declaration of `raw`, after the access declarations.
pub fn lower_protocols(
    raw: &RawSchema,
    src: &str,
    abi: &Abi,
    layout: &Layout,
    access: &Access,
) -> Result<Vec<Protocol>, SchemaErrors> {
    let mut cx = AfterLayout::new(src, abi, layout, access.parties.clone());
    let mut out = Vec::new();
    for q in &raw.queues {
        let q = q.get_ref();
        let what = format!("queue `{}`", q.name.get_ref());
        let kind = cx.lower_queue(q, &what, access);
        out.push((q.name.clone(), q.doc.clone(), kind.map(ProtocolKind::Queue)));
    }
    for b in &raw.broadcasts {
        let b = b.get_ref();
        let what = format!("broadcast `{}`", b.name.get_ref());
        let kind = cx.lower_broadcast(b, &what, access);
        out.push((
            b.name.clone(),
            b.doc.clone(),
            kind.map(ProtocolKind::Broadcast),
        ));
    }
    for m in &raw.mailboxes {
        let m = m.get_ref();
        let what = format!("mailbox `{}`", m.name.get_ref());
        let kind = cx.lower_mailbox(m, &what, access);
        out.push((
            m.name.clone(),
            m.doc.clone(),
            kind.map(ProtocolKind::Mailbox),
        ));
    }
    for e in &raw.exchanges {
        let e = e.get_ref();
        let what = format!("exchange `{}`", e.name.get_ref());
        let kind = cx.lower_exchange(e, &what, access);
        out.push((
            e.name.clone(),
            e.doc.clone(),
            kind.map(ProtocolKind::Exchange),
        ));
    }
    for s in &raw.sessions {
        let s = s.get_ref();
        let what = format!("session `{}`", s.name.get_ref());
        let kind = cx.lower_session(s, &what, access);
        out.push((
            s.name.clone(),
            s.doc.clone(),
            kind.map(ProtocolKind::Session),
        ));
    }
    let mut protocols = Vec::new();
    for (i, (name, doc, kind)) in out.iter().enumerate() {
        let first = out[..i]
            .iter()
            .find(|(n, _, _)| n.get_ref() == name.get_ref())
            .map(|(n, _, _)| n.span());
        cx.check_item_name(name, "protocol", first.as_ref());
        // Two protocols over one struct's bytes would each take its words for their own.
        let shared = kind.as_ref().and_then(|k| {
            out[..i].iter().find_map(|(n, _, other)| {
                let other = other.as_ref()?;
                (other.header() == k.header()).then(|| (n, other.table()))
            })
        });
        if let (Some(k), Some((other, table)), None) = (kind, shared, first) {
            let line = crate::diagnostics::line_col(src, other.span().start).0;
            cx.errors.error_help(
                &cx.inner(name),
                format!(
                    "{} `{}` runs over struct `{}`, which {table} `{}` (line {line}) already runs over",
                    k.table(),
                    name.get_ref(),
                    abi.structs[k.header()].name,
                    other.get_ref()
                ),
                "two protocols over the same bytes race for them: give each its own header struct (a layout row or block can hold several)",
            );
        }
        if let Some(kind) = kind {
            protocols.push(Protocol {
                name: name.get_ref().clone(),
                doc: doc
                    .as_ref()
                    .map(|d| d.get_ref().clone())
                    .unwrap_or_default(),
                span: cx.inner(name),
                kind: kind.clone(),
            });
        }
    }
    check_live_type_names(&mut cx, raw, access, &protocols);
    cx.errors.propagate()?;
    Ok(protocols)
}

/// The types a protocol gives the Rust live module must not take a name the module already
/// has: a shared struct's view, a seqlock's or ring's type, an import, a layout's handle, or
/// another protocol's type (a session `pad_input` would define a second `PadInput`).
fn check_live_type_names(
    cx: &mut AfterLayout,
    raw: &RawSchema,
    access: &Access,
    protocols: &[Protocol],
) {
    let abi = cx.abi;
    // Each name taken: in CamelCase, and what takes it.
    let mut taken: Vec<(String, String)> = (abi.structs_with_ids())
        .filter(|&(id, _)| access.structs[id].shared && !access.structs[id].guarded_whole)
        .map(|(_, s)| (camel(&s.name), format!("the view of struct `{}`", s.name)))
        .collect();
    taken.extend(
        (access.seqlocks.iter())
            .filter(|l| !l.guards_whole_struct(&access.structs))
            .map(|l| (camel(&l.name), format!("seqlock `{}`", l.name))),
    );
    taken.extend(
        (access.rings.iter())
            .filter(|r| matches!(r.kind, RingKind::Slots { .. }))
            .map(|r| (camel(&r.name), format!("ring `{}`", r.name))),
    );
    taken.extend(
        RUST_LIVE_IMPORTS
            .iter()
            .map(|(name, path)| (name.to_string(), format!("the import of `{path}`"))),
    );
    taken.extend(raw.layouts.iter().map(|l| {
        let name = l.get_ref().name.get_ref();
        (camel(name), format!("the handle of layout `{name}`"))
    }));
    for (i, p) in protocols.iter().enumerate() {
        // A second protocol of the same name is an error of its own (check_item_name).
        if protocols[..i].iter().any(|o| o.name == p.name) {
            continue;
        }
        let base = camel(&p.name);
        let mut clash = None;
        let mine: Vec<String> = (p.rust_type_suffixes().iter())
            .map(|suffix| format!("{base}{suffix}"))
            .collect();
        for name in &mine {
            if let Some((_, other)) = taken.iter().find(|(t, _)| t == name) {
                clash.get_or_insert((name.clone(), other.clone()));
            }
        }
        if let Some((name, other)) = clash {
            cx.errors.error_help(
                &p.span,
                format!(
                    "{} `{}` defines `{name}` in the Rust live module, where {other} has that name",
                    p.kind.table(),
                    p.name
                ),
                format!("rename the {}", p.kind.table()),
            );
        }
        let what = format!("{} `{}`", p.kind.table(), p.name);
        taken.extend(
            mine.into_iter()
                .map(|name| (name, format!("a type of {what}"))),
        );
    }
}
