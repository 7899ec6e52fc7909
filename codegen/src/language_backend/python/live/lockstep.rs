//! Lockstep in the Python module (issue 47, `plan/lockstep.rs`): the numbers the session
//! template's `answer_<event>`, `host_lockstep_bots` and `host_wait_<event>` print.

use serde::Serialize;

use crate::ir::protocol::{ProtocolKind, Session};
use crate::plan::lockstep::{ANSWER_FIELD, lockstep};
use crate::schema::Schema;

/// The session's lockstep, when the plan's input event is its.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct LockstepPy {
    ev: String,
    /// The seqlock the bot writes its record under.
    lock: String,
    /// The event's word in the record.
    word: u64,
    answer: &'static str,
    /// The tool flag's bits (0: none), the caps field's offset in the row and width.
    tool: u64,
    tool_at: u64,
    tool_width: u64,
}

/// The lockstep of session `s`, or `None`.
pub(in crate::language_backend::python) fn lockstep_py(
    schema: &Schema,
    s: &Session,
) -> Option<LockstepPy> {
    let l = lockstep(schema)?;
    match &schema.protocols[l.session].kind {
        ProtocolKind::Session(own) if std::ptr::eq(own, s) => {}
        _ => return None,
    }
    Some(LockstepPy {
        ev: l.event.name.clone(),
        lock: schema.access.seqlocks[l.seqlock].name.clone(),
        word: l.word_offset,
        answer: ANSWER_FIELD,
        tool: l.tool.map_or(0, |t| t.bits),
        tool_at: l.tool.map_or(0, |t| t.offset),
        tool_width: l.tool.map_or(4, |t| t.width),
    })
}
