//! The commands' event in the Python module (issue 47, `plan/commands.rs`): the numbers the
//! session template's `request_<event>` and `host_wait_<event>` print.

use serde::Serialize;

use crate::ir::protocol::{ProtocolKind, Session};
use crate::plan::commands::commands;
use crate::schema::Schema;

/// The session's commands' event, when the plan's event is its.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct CommandsPy {
    pub(in crate::language_backend::python) ev: String,
    /// The mailbox's protocol class (for the stub) and its header's view class.
    pub(in crate::language_backend::python) mailbox: String,
    pub(in crate::language_backend::python) view: String,
    /// The event's word, the two sequences (offsets from the mailbox header) and their width.
    word: u64,
    request_seq: u64,
    response_seq: u64,
    width: u64,
}

/// The commands' event of session `s`, or `None`; `views` is the module's view class of each
/// struct. Its `mailbox` is the mailbox protocol's name: the caller puts its class there.
pub(in crate::language_backend::python) fn commands_py(
    schema: &Schema,
    s: &Session,
    views: &[Option<String>],
) -> Option<CommandsPy> {
    let c = commands(schema)?;
    match &schema.protocols[c.session].kind {
        ProtocolKind::Session(own) if std::ptr::eq(own, s) => {}
        _ => return None,
    }
    let ProtocolKind::Mailbox(m) = &schema.protocols[c.mailbox].kind else {
        return None;
    };
    Some(CommandsPy {
        ev: c.event.name.clone(),
        mailbox: schema.protocols[c.mailbox].name.clone(),
        view: views[m.header].clone().unwrap_or_default(),
        word: c.word_offset,
        request_seq: c.request_seq,
        response_seq: c.response_seq,
        width: c.width,
    })
}
