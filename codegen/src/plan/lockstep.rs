//! Lockstep (issue 47, step 3), decided once here for every target: which event a bot sets
//! after writing its answer, where the answer's tick is, which rows the host waits for, and
//! the host's waiting rule. Every backend prints this plan and decides nothing of it.
//!
//! The reference: `run_mode` lockstep, "after each tick the host waits until every bot pad
//! answers it, up to lockstep_timeout_ms", and "a client sets the input event after writing
//! its pad"; `pad_input.for_tick`, "the tick of the snapshot this input answers".
//!
//! - **The input event** is an `[[event]]` per row of a session's table that the session's
//!   host waits on and its client sets, whose word is the counter of a seqlock the client
//!   writes (the bridge: `input`, on `pad_input.seq`). Writing the record moves the word, so
//!   a host that saw the counter at `s` and sleeps while it holds `s` misses no answer.
//! - **The answer's tick** is the seqlock struct's unsigned 8-byte field [`ANSWER_FIELD`]
//!   (the reference's name), among the bytes the seqlock guards: the host reads it only in a
//!   whole copy, so a copy never pairs one answer's tick with another's pad.
//! - **The bot** writes its record with the tick it answers, through the write bound to its
//!   claim (nothing is written, and nothing set, once the claim is gone), then sets the event.
//! - **The host's bots** are the rows whose state is the session's `active` and whose caps
//!   (the row's field [`CAPS_FIELD`]) lack the flag [`TOOL_CAP`] (a tool "is not counted among
//!   the bots"). The host takes a row's answer to tick `t` only when a whole copy (at most the
//!   host's bounded tries) says `for_tick == t`: an older tick's answer is never taken for
//!   this one, and a torn or contended copy is no answer.
//! - **The host's wait**: after publishing `t`, until every bot answered or the deadline
//!   (`lockstep_timeout_ms` after the publication) passed: check every pending bot; sleep on
//!   the event of the lowest pending row while its word holds the counter its check saw, at
//!   most until the deadline; a wake only means "look again". At the deadline one last check,
//!   then each bot still pending has missed `t`: its miss is counted and the host keeps its
//!   last answer. The loop ends at the deadline whatever the bots do.

use crate::ir::Elem;
use crate::ir::event::Event;
use crate::schema::Schema;

/// The seqlock struct's field that says which tick a record answers.
pub const ANSWER_FIELD: &str = "for_tick";
/// The session row's field of caps.
pub const CAPS_FIELD: &str = "caps";
/// The cap of a row that is not a bot.
pub const TOOL_CAP: &str = "tool";

/// The lockstep plan of a schema.
#[derive(Debug, Clone)]
pub struct Lockstep<'a> {
    /// The input event.
    pub event: &'a Event,
    /// The session whose rows answer, by index into the schema's protocols.
    pub session: crate::ir::ProtocolId,
    /// The seqlock the bots write their answers under, by index into the seqlocks.
    pub seqlock: usize,
    /// The event's word (the seqlock's counter) from the start of the seqlock's struct.
    pub word_offset: u64,
    /// The row state of a bot (the session's `active`).
    pub active: u64,
    /// The row's caps field and the tool flag's bits (a row whose caps hold them is not a
    /// bot); `None` when the row has no such flag.
    pub tool: Option<ToolCap>,
}

/// The caps field of a session's row and its tool flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolCap {
    /// The field's index in the row struct, its offset and width in bytes.
    pub field: usize,
    pub offset: u64,
    pub width: u64,
    /// The tool flag's bits.
    pub bits: u64,
}

/// The schema's lockstep plan: `None` when it declares no input event as the module doc says.
pub fn lockstep(schema: &Schema) -> Option<Lockstep<'_>> {
    schema.events.iter().find_map(|e| plan_for(schema, e))
}

fn plan_for<'a>(schema: &'a Schema, e: &'a Event) -> Option<Lockstep<'a>> {
    let (session, s) = crate::plan::events::set_by_clients(schema, e)?;
    let seqlock = schema.access.seqlocks.iter().position(|l| {
        l.struct_index == e.word.struct_index && l.counter == e.word.field && l.writers == s.client
    })?;
    let st = &schema.abi.structs[e.word.struct_index];
    let answer = st.fields.iter().position(|f| {
        f.name == ANSWER_FIELD
            && f.ty.len.is_none()
            && matches!(f.ty.elem, Elem::Prim(p) if p.is_integer() && !p.is_signed())
    })?;
    if schema.layout.of(e.word.struct_index).fields[answer].size != 8 {
        return None;
    }
    let row = &schema.abi.structs[s.row];
    let tool = row
        .fields
        .iter()
        .position(|f| f.name == CAPS_FIELD)
        .and_then(|caps| {
            let Elem::Enum(en) = row.fields[caps].ty.elem else {
                return None;
            };
            let bit = schema.abi.enums[en]
                .values
                .iter()
                .find(|v| v.name == TOOL_CAP)?;
            let fl = &schema.layout.of(s.row).fields[caps];
            Some(ToolCap {
                field: caps,
                offset: fl.offset,
                width: fl.size,
                bits: u64::try_from(bit.value).ok()?,
            })
        });
    Some(Lockstep {
        event: e,
        session,
        seqlock,
        word_offset: e.word_offset,
        active: s.active,
        tool,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridge_waits_on_pad_input_for_tick_and_skips_tools() {
        let schema = crate::plan::bridge_for_tests();
        let l = lockstep(&schema).expect("the bridge's input event");
        assert_eq!(l.event.name, "input");
        assert_eq!(schema.access.seqlocks[l.seqlock].name, "pad_input");
        assert_eq!(l.word_offset, 0);
        // client_entry.caps at 0x0C, 4 bytes; client_caps.tool = 0x2 (the reference).
        let tool = l.tool.expect("client_entry.caps holds tool");
        assert_eq!((tool.offset, tool.width, tool.bits), (0x0C, 4, 0x2));
        assert_eq!(schema.protocols[l.session].name, "client");
    }
}
