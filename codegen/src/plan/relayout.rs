//! What a re-layout keeps, decided once for every target. A re-layout is a new image (new
//! geometry) produced over a mapping that holds one: the new image has the schema's start
//! values, so the host's application fields would be lost. The relayout call of each target
//! (Rust `relayout`, C `<prefix>_relayout`, Python `relayout`) copies them from the live
//! header into the new image before producing it, and prints this list, never its own.
//!
//! Kept: each field of the root layout's header that the header's writer alone writes and
//! that nothing else owns. Not kept: padding; geometry (the new image's); the handshake
//! (magic, versions, size, state, generation, identity: the producer's, stamped anew); the
//! region table, its count and the extent; every field a session names (its table of rows,
//! the host's generation and state, the pads' bind word); a ring's head and an event's word
//! (protocol positions, which start again).
//!
//! The session's bind word is kept in part: each pad's mark that is neither a row (a
//! claim, which the re-layout frees) nor the unbound value is the host's (the bridge's
//! `pad_not_bot`), and stays; the rest read unbound in the new image.
//!
//! The live header is read with each word's own size (an atomic field's width, a plain
//! field's scalars each one load of its width, the bind word whole), and only when the
//! mapping holds an image (its generation not 0): a new mapping keeps the image's values.

use crate::ir::StructId;
use crate::ir::access::{AccessKind, Parties, RingKind};
use crate::ir::protocol::ProtocolKind;
use crate::ir::scalar::Scalar;
use crate::schema::Schema;

/// A run of kept words of one width, back to back, from the header's start.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KeptRun {
    /// The fields it covers, for comments.
    pub names: Vec<String>,
    pub at: u64,
    pub width: u64,
    pub count: u64,
}

/// The pads' bind field: marks the host wrote there are kept.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KeptBind {
    pub name: String,
    pub at: u64,
    /// Bytes of the whole field, read in words of `word` bytes (its access width).
    pub size: u64,
    pub word: u64,
    /// Bytes per mark.
    pub elem: u64,
    /// The value of an unbound pad, and the rows (values below it name a row's claim).
    pub unbound: u64,
    pub rows: u64,
}

/// What a re-layout of the root layout keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relayout {
    /// The root header.
    pub header: StructId,
    /// The mapping holds an image when this word is not 0 (the handshake's generation).
    pub held: Scalar,
    pub runs: Vec<KeptRun>,
    pub bind: Option<KeptBind>,
}

impl Relayout {
    /// The kept fields' names, each once, in order (the bind's apart).
    pub fn kept_names(&self) -> Vec<&str> {
        let mut kept: Vec<&str> = Vec::new();
        for n in self.runs.iter().flat_map(|r| r.names.iter()) {
            if !kept.contains(&n.as_str()) {
                kept.push(n);
            }
        }
        kept
    }

    /// The first byte past every kept word: the least of a live header and an image.
    pub fn end(&self) -> u64 {
        let runs = self.runs.iter().map(|r| r.at + r.width * r.count);
        let bind = self.bind.iter().map(|b| b.at + b.size);
        (runs.chain(bind).chain([self.held.offset + self.held.width]))
            .max()
            .unwrap_or(0)
    }
}

/// The plan; `None` when the schema has no root layout whose handshake names a generation
/// (no re-layout to keep anything across).
pub fn relayout(schema: &Schema) -> Option<Relayout> {
    let table = &schema.attach.layouts[schema.attach.root?];
    let header = table.header;
    let hs = (schema.attach.handshakes.iter()).find(|h| h.struct_index == header)?;
    let held = hs.liveness.as_ref()?.generation.clone()?;
    let owner = &schema.access.structs[header].writers;
    let mut taken: Vec<Scalar> = vec![hs.major.clone(), hs.minor.clone()];
    taken.extend(hs.magic.iter().map(|m| m.0.clone()));
    taken.extend(hs.size.iter().cloned());
    taken.extend(hs.liveness.iter().map(|l| l.state.clone()));
    let id = &hs.identity;
    taken.extend(
        [&id.pid, &id.version, &id.mono_ns, &id.unix_ns]
            .into_iter()
            .flatten()
            .cloned(),
    );
    taken.extend(table.row_count.iter().chain(table.extent.iter()).cloned());
    let mut fields: Vec<usize> = vec![table.table_field];
    fields.extend(
        (schema.attach.geometry.iter())
            .filter(|g| g.struct_index == header)
            .map(|g| g.field),
    );
    let mut bind = None;
    for p in &schema.protocols {
        if let ProtocolKind::Session(s) = &p.kind {
            for r in [s.table, s.host_generation, s.host_state] {
                if r.struct_index == header {
                    fields.push(r.field);
                }
            }
            if let Some((r, unbound)) = s.bind
                && r.struct_index == header
            {
                fields.push(r.field);
                let fl = schema.layout.field(r);
                let word = r
                    .access(&schema.access.structs)
                    .kind
                    .width()
                    .unwrap_or(fl.elem_size);
                let rows = schema.abi.structs[header].fields[s.table.field].ty.count();
                bind = Some(KeptBind {
                    name: r.of(&schema.abi).name.clone(),
                    at: fl.offset,
                    size: fl.size,
                    word,
                    elem: fl.elem_size,
                    unbound,
                    rows,
                });
            }
        }
    }
    for ring in &schema.access.rings {
        let r = match &ring.kind {
            RingKind::Slots { head, .. } => *head,
            RingKind::Events { total, .. } => *total,
        };
        if r.struct_index == header {
            fields.push(r.field);
        }
    }
    fields.extend(
        (schema.events.iter())
            .filter(|e| e.word.struct_index == header)
            .map(|e| e.word.field),
    );
    let l = schema.layout.of(header);
    let mut words: Vec<(String, u64, u64)> = Vec::new();
    for (fi, f) in schema.abi.structs[header].fields.iter().enumerate() {
        let fl = &l.fields[fi];
        let fa = &schema.access.structs[header].fields[fi];
        let in_taken = taken
            .iter()
            .any(|s| s.offset < fl.offset + fl.size && fl.offset < s.offset + s.width);
        if f.is_padding() || fields.contains(&fi) || in_taken || !within(&fa.writers, owner) {
            continue;
        }
        match fa.kind {
            AccessKind::Atomic { width } | AccessKind::Cas { width } => {
                for at in (fl.offset..fl.offset + fl.size).step_by(width.max(1) as usize) {
                    words.push((f.name.clone(), at, width));
                }
            }
            AccessKind::Plain => {
                let from = words.len();
                for i in 0..f.ty.count() {
                    let at = fl.offset + i * fl.elem_size;
                    crate::plan::host_words::leaves(
                        schema,
                        f.ty.elem,
                        fl.elem_size,
                        at,
                        f.name.clone(),
                        &mut words,
                    );
                }
                for w in &mut words[from..] {
                    w.0.clone_from(&f.name);
                }
            }
        }
    }
    let mut runs: Vec<KeptRun> = Vec::new();
    for (name, at, width) in words {
        match runs.last_mut() {
            Some(r) if r.width == width && r.at + r.count * r.width == at => {
                r.count += 1;
                if !r.names.contains(&name) {
                    r.names.push(name);
                }
            }
            _ => runs.push(KeptRun {
                names: vec![name],
                at,
                width,
                count: 1,
            }),
        }
    }
    Some(Relayout {
        header,
        held,
        runs,
        bind,
    })
}

/// Whether `writers` are some of `owner`'s parties, and some.
fn within(writers: &Parties, owner: &Parties) -> bool {
    !writers.is_empty() && writers.0.iter().all(|p| owner.0.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bridge keeps what the reference has the host write for the application
    /// (bridge-abi-0.9-reference.txt, bridge_header): controls, run_mode, sim_state,
    /// lockstep_timeout_ms, and the pads' pad_not_bot marks.
    #[test]
    fn the_bridge_keeps_its_application_fields_and_the_pads_marks() {
        let schema = crate::plan::bridge_for_tests();
        let plan = relayout(&schema).expect("the bridge re-lays out");
        let names: Vec<&str> = (plan.runs.iter())
            .flat_map(|r| r.names.iter().map(String::as_str))
            .collect();
        assert_eq!(
            names,
            [
                "controls",
                "controls",
                "run_mode",
                "sim_state",
                "lockstep_timeout_ms"
            ]
        );
        let runs: Vec<(u64, u64, u64)> =
            plan.runs.iter().map(|r| (r.at, r.width, r.count)).collect();
        assert_eq!(
            runs,
            [(1280, 1, 2), (1282, 2, 7), (1296, 1, 2), (1300, 4, 1)]
        );
        let bind = plan.bind.clone().expect("the pads' marks");
        assert_eq!(
            (bind.name.as_str(), bind.at, bind.size, bind.word, bind.elem),
            ("pad_owner", 164, 4, 4, 1)
        );
        assert_eq!((bind.unbound, bind.rows), (255, 8));
        assert_eq!(plan.held.offset, 20);
        assert_eq!(plan.end(), 1304);
    }
}
