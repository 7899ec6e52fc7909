//! Lockstep in the Python module (issue 47, `plan/lockstep.rs`): the numbers the session
//! template's `answer_<event>`, `host_lockstep_bots` and `host_wait_<event>` print.

use serde::Serialize;

use crate::ir::protocol::{ProtocolKind, Session};
use crate::plan::lockstep::{ANSWER_FIELD, lockstep};
use crate::schema::Schema;

/// The session's lockstep, when the plan's input event is its.
#[derive(Serialize)]
pub(in crate::language_backend::python) struct LockstepPy {
    pub(in crate::language_backend::python) ev: String,
    /// The record's view class and the class its seqlock reads into (for the stub).
    pub(in crate::language_backend::python) view: String,
    pub(in crate::language_backend::python) value: String,
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

/// The lockstep of session `s`, or `None`; `views` and `values` are the module's view class
/// of each struct and value class of each seqlock.
pub(in crate::language_backend::python) fn lockstep_py(
    schema: &Schema,
    s: &Session,
    views: &[Option<String>],
    values: &[String],
) -> Option<LockstepPy> {
    let l = lockstep(schema)?;
    match &schema.protocols[l.session].kind {
        ProtocolKind::Session(own) if std::ptr::eq(own, s) => {}
        _ => return None,
    }
    let struct_index = schema.access.seqlocks[l.seqlock].struct_index;
    Some(LockstepPy {
        ev: l.event.name.clone(),
        view: views[struct_index].clone().unwrap_or_default(),
        value: values.get(l.seqlock).cloned().unwrap_or_default(),
        lock: schema.access.seqlocks[l.seqlock].name.clone(),
        word: l.word_offset,
        answer: ANSWER_FIELD,
        tool: l.tool.map_or(0, |t| t.bits),
        tool_at: l.tool.map_or(0, |t| t.offset),
        tool_width: l.tool.map_or(4, |t| t.width),
    })
}
