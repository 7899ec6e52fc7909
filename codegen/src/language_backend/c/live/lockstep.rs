//! Lockstep in the C header (issue 47, `plan/lockstep.rs`), from `c_lockstep.h.j2`: the bot's
//! `<p>_<session>_answer_<event>` and the host's `<p>_<session>_host_lockstep_bots` and
//! `<p>_<session>_host_wait_<event>`, after the session's helpers and bound writes they call.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::c::names::c_type_name;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::lockstep::{ANSWER_FIELD, lockstep};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_lockstep.h.j2",
    source: include_str!("../../../../templates/c_lockstep.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct LockstepCtx {
    p: String,
    pu: String,
    session: String,
    lock: String,
    /// The record's C type.
    s: String,
    ev: String,
    #[serde(rename = "EV")]
    ev_upper: String,
    word: u64,
    answer: &'static str,
    rows: u64,
    active: u64,
    /// The tool flag's bits (0: none), the caps field's offset in the row and its bits.
    tool: u64,
    tool_at: u64,
    tool_bits: u64,
}

/// The lockstep helpers, or an empty string when the schema has no input event.
pub(super) fn render_c_lockstep(schema: &Schema) -> Result<String, RenderError> {
    let Some(l) = lockstep(schema) else {
        return Ok(String::new());
    };
    let crate::ir::protocol::ProtocolKind::Session(s) = &schema.protocols[l.session].kind else {
        return Ok(String::new());
    };
    let p = schema.abi.c_prefix.clone();
    let pu = p.to_ascii_uppercase();
    let lock = &schema.access.seqlocks[l.seqlock];
    let session = schema.protocols[l.session].name.clone();
    let ctx = LockstepCtx {
        ev_upper: format!(
            "{pu}_{}_{}",
            session.to_ascii_uppercase(),
            l.event.name.to_ascii_uppercase()
        ),
        s: c_type_name(
            &schema.abi.structs[lock.struct_index].name,
            &schema.abi.c_prefix,
        ),
        lock: lock.name.clone(),
        ev: l.event.name.clone(),
        word: l.word_offset,
        answer: ANSWER_FIELD,
        rows: schema.abi.structs[s.table.struct_index].fields[s.table.field]
            .ty
            .count(),
        active: l.active,
        tool: l.tool.map_or(0, |t| t.bits),
        tool_at: l.tool.map_or(0, |t| t.offset),
        tool_bits: l.tool.map_or(32, |t| t.width * 8),
        session,
        p,
        pu,
    };
    COMPILED.render(&ctx)
}
