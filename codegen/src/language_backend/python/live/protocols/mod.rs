//! The Python target's protocol section: the context of `python_protocols.py.j2`, a class per
//! `[[queue]]`, `[[broadcast]]`, `[[mailbox]]`, `[[exchange]]` and `[[session]]` (named after
//! the protocol in CamelCase: `LogQueue`, `Mailbox`, `Client`) with its layout's numbers, and
//! the classes its results are (`LogQueueEntry`, `MailboxResponse`, `DrawList`). Every offset
//! and size is the layout's; the Python that runs is the template's. One file per protocol
//! kind (`queues.rs` for queues and log rings, `mailbox.rs`, `exchange.rs`, `session.rs`),
//! over `fields.rs`, what they all read from the layout; this one holds the section's
//! context, its names, and the blocks the sessions' rows own.

mod exchange;
mod fields;
mod mailbox;
mod queues;
mod session;
mod wake_store;

use exchange::ExchangeClass;
use mailbox::MailboxClass;
use queues::EntryProtocol;
pub(in crate::language_backend::python) use session::{OwnedBlocksPy, SessionClass};

use std::collections::BTreeMap;

use std::sync::LazyLock;

use serde::Serialize;

use super::context::Ctx;
use crate::ir::protocol::ProtocolKind;
use crate::ir::result_codes::{Family, codes};
use crate::language_backend::python::literals::doc_lines;
use crate::language_backend::python::names::{Namer, python_type_name};
use crate::plan::session::{Restore, owned_blocks};

use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template, template};

/// The section's parts, one concern each, rendered in turn over one context: the shared
/// results and the queues and rings; the mailboxes; the exchanges; the sessions.
const TEMPLATES: [Template; 4] = [
    Template {
        name: "python_protocols.py.j2",
        source: include_str!("../../../../../templates/python_protocols.py.j2"),
    },
    Template {
        name: "python_mailbox.py.j2",
        source: include_str!("../../../../../templates/python_mailbox.py.j2"),
    },
    Template {
        name: "python_exchange.py.j2",
        source: include_str!("../../../../../templates/python_exchange.py.j2"),
    },
    Template {
        name: "python_session.py.j2",
        source: include_str!("../../../../../templates/python_session.py.j2"),
    },
];

/// The parts `python_session.py.j2` includes, one concern each.
const SESSION_PARTS: [Template; 2] = [
    template!("python_futex.py.j2"),
    template!("python_session_classes.py.j2"),
];

/// The templates, compiled on first use (the sessions' with the parts it includes).
static COMPILED: LazyLock<Vec<Compiled>> = LazyLock::new(|| {
    TEMPLATES
        .iter()
        .map(|t| {
            let parts: &[Template] = if t.name == "python_session.py.j2" {
                &SESSION_PARTS
            } else {
                &[]
            };
            Compiled::with_parts(t, parts, |_| {})
        })
        .collect()
});

/// The section's text: each part, two blank lines apart as Python's top-level code is.
pub(super) fn render(context: &ProtocolsContext) -> Result<String, RenderError> {
    let mut out = String::new();
    for part in COMPILED.iter() {
        let text = part.render(context)?;
        let text = text.trim_matches('\n');
        if !out.is_empty() {
            out.push_str("\n\n\n");
        } else {
            // The section follows the live section's last line.
            out.push_str("\n\n");
        }
        out.push_str(text);
    }
    let stores = WAKE_STORE.render(context)?;
    let stores = stores.trim_matches('\n');
    if !stores.is_empty() {
        out.push_str("\n\n\n");
        out.push_str(stores);
    }
    out.push('\n');
    Ok(out)
}

/// The wake statistics' store helpers (`wake_store.rs`), after the sessions' `WakeStats`.
static WAKE_STORE: LazyLock<Compiled> = LazyLock::new(|| {
    Compiled::new(
        &Template {
            name: "python_wake_store.py.j2",
            source: include_str!("../../../../../templates/python_wake_store.py.j2"),
        },
        |_| {},
    )
});

#[derive(Serialize)]
pub(in crate::language_backend::python) struct ProtocolsContext {
    pub(in crate::language_backend::python) error: String,
    /// The module's `ContendedError`, which a session's reload raises after every row.
    pub(in crate::language_backend::python) cas_error: String,
    pub(in crate::language_backend::python) empty_class: String,
    pub(in crate::language_backend::python) empty: String,
    pub(in crate::language_backend::python) lapped: String,
    pub(in crate::language_backend::python) standing: String,
    /// The host's memory of a session's rows, for `hung`.
    pub(in crate::language_backend::python) watch: String,
    /// The protocol codes' names, by name: the one list (`ir::result_codes`) the C header
    /// prints its codes from. The templates write each check as `check.<name>`, so a name
    /// that is not in the list fails to render.
    pub(in crate::language_backend::python) check: BTreeMap<String, String>,
    /// The queues and the broadcast rings (a ring has a `seq`).
    pub(in crate::language_backend::python) queues: Vec<EntryProtocol>,
    pub(in crate::language_backend::python) mailboxes: Vec<MailboxClass>,
    pub(in crate::language_backend::python) exchanges: Vec<ExchangeClass>,
    pub(in crate::language_backend::python) sessions: Vec<SessionClass>,
    /// The events' wake statistics' store helpers.
    pub(in crate::language_backend::python) wake_stores: Vec<wake_store::WakeStorePy>,
}

impl ProtocolsContext {
    /// Every public name the section adds, in order.
    pub(in crate::language_backend::python) fn exports(&self) -> Vec<String> {
        let mut out = vec![
            self.error.clone(),
            self.empty_class.clone(),
            self.empty.clone(),
            self.lapped.clone(),
            self.standing.clone(),
            self.watch.clone(),
        ];
        for q in &self.queues {
            out.extend([q.entry.clone(), q.class.clone()]);
        }
        for m in &self.mailboxes {
            out.extend([m.response.clone(), m.class.clone()]);
        }
        for e in &self.exchanges {
            out.extend([e.taken.clone(), e.class.clone()]);
        }
        out.extend(self.sessions.iter().map(|s| s.class.clone()));
        if self.sessions.iter().any(|s| !s.events.is_empty()) {
            out.push("WakeStats".into());
        }
        out.extend(self.wake_stores.iter().map(|w| w.function.clone()));
        out
    }
}

impl Ctx<'_> {
    /// The context of the section, its names taken from `module`.
    pub(super) fn protocols(&self, module: &mut Namer, cas_error: &str) -> ProtocolsContext {
        let mut cx = ProtocolsContext {
            error: module.name("ProtocolError"),
            cas_error: cas_error.to_string(),
            empty_class: module.name("Empty"),
            empty: module.name("EMPTY"),
            lapped: module.name("Lapped"),
            standing: module.name("Standing"),
            watch: module.name("HungWatch"),
            check: codes(Family::Protocol)
                .into_iter()
                .map(|c| (c.name.clone(), c.name))
                .collect(),
            queues: Vec::new(),
            mailboxes: Vec::new(),
            exchanges: Vec::new(),
            sessions: Vec::new(),
            wake_stores: Vec::new(),
        };
        for (pi, p) in self.schema.protocols.iter().enumerate() {
            // A name another item holds: the protocol's table word after it (`MidiBroadcast`,
            // `MidiBroadcastEntry`), never a trailing `_`.
            let table = python_type_name(p.kind.table());
            let base = python_type_name(&p.name);
            let class = module.first_free(&[base.clone(), format!("{base}{table}")]);
            let mut own = |suffix: &str| {
                module.first_free(&[
                    format!("{class}{suffix}"),
                    format!("{base}{table}{suffix}"),
                    format!("{class}{table}{suffix}"),
                ])
            };
            let doc = doc_lines(&p.doc);
            let bound = crate::plan::bound::binding_of(self.schema, crate::ir::ProtocolId::new(pi))
                .is_some();
            match &p.kind {
                ProtocolKind::Queue(q) => {
                    let entry = own("Entry");
                    let mut queue = self.queue(&p.name, class, entry, doc, q);
                    queue.bound = bound;
                    cx.queues.push(queue);
                }
                ProtocolKind::Broadcast(b) => {
                    let entry = own("Entry");
                    cx.queues
                        .push(self.broadcast(&p.name, class, entry, doc, b));
                }
                ProtocolKind::Mailbox(m) => {
                    let response = own("Response");
                    let mut mailbox = self.mailbox(&p.name, class, response, doc, m);
                    mailbox.bound = bound;
                    cx.mailboxes.push(mailbox);
                }
                ProtocolKind::Exchange(e) => {
                    let taken = own("List");
                    let mut exchange = self.exchange(&p.name, class, taken, doc, e);
                    exchange.bound = bound;
                    cx.exchanges.push(exchange);
                }
                ProtocolKind::Session(s) => cx.sessions.push(self.session(&p.name, class, doc, s)),
            }
        }
        self.own_blocks(&mut cx);
        for session in &mut cx.sessions {
            if let Some(c) = session.commands.as_mut()
                && let Some(m) = cx.mailboxes.iter().find(|m| m.name == c.mailbox)
            {
                c.mailbox = m.class.clone();
            }
        }
        cx.wake_stores = wake_store::wake_stores_py(self.schema, &self.views, module);
        cx
    }
    /// The blocks each session's rows own, once every protocol class has its name.
    fn own_blocks(&self, cx: &mut ProtocolsContext) {
        let schema = self.schema;
        let class_of = |cx: &ProtocolsContext, name: &str| {
            let m = cx
                .mailboxes
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.class.clone());
            m.or_else(|| {
                cx.exchanges
                    .iter()
                    .find(|e| e.name == name)
                    .map(|e| e.class.clone())
            })
        };
        for (index, p) in schema.protocols.iter().enumerate() {
            let owned: Vec<OwnedBlocksPy> = owned_blocks(schema, crate::ir::ProtocolId::new(index))
                .iter()
                .map(|o| OwnedBlocksPy {
                    pos: o.row,
                    regions: o
                        .regions
                        .iter()
                        .filter_map(|r| {
                            let name = &schema.protocols[r.protocol].name;
                            let header = schema.protocols[r.protocol].kind.header();
                            let method = match r.restore {
                                Restore::Mailbox => "restore",
                                Restore::Exchange { .. } => "reset_state",
                            };
                            Some((r.row, self.view_of(header), class_of(cx, name)?, method))
                        })
                        .collect(),
                    words: crate::plan::host_words::restored_runs(&o.words)
                        .iter()
                        .map(|w| {
                            let row = w.region.map_or("None".to_string(), |r| r.to_string());
                            (row, w.at, w.width, w.count)
                        })
                        .collect(),
                })
                .collect();
            if let Some(s) = cx.sessions.iter_mut().find(|s| s.name == p.name) {
                s.owned = owned;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TEMPLATES;
    use crate::ir::result_codes::{Family, codes};

    /// The templates name every protocol check through `check.<name>`, printed from the one
    /// list: none spells a code's name as a string of its own.
    #[test]
    fn the_templates_spell_no_check_name() {
        for t in &TEMPLATES {
            for c in codes(Family::Protocol) {
                let literal = format!("\"{}\"", c.name);
                assert!(
                    !t.source.contains(&literal),
                    "{} writes {literal}: write \"{{{{ check.{} }}}}\"",
                    t.name,
                    c.name
                );
            }
        }
    }
}
