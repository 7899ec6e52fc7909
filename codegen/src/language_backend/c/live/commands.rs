//! The commands' event in the C header (issue 47, `plan/commands.rs`), from
//! `c_commands.h.j2`: the client's `<p>_<session>_request_<event>` and the host's
//! `<p>_<session>_host_wait_<event>`, after the session's helpers and bound sends they call.

use std::sync::LazyLock;

use serde::Serialize;

use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::plan::commands::commands;
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_commands.h.j2",
    source: include_str!("../../../../templates/c_commands.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct CommandsCtx {
    p: String,
    pu: String,
    session: String,
    mailbox: String,
    ev: String,
    /// The event's word, the two sequences (offsets from the mailbox header) and their width.
    word: u64,
    word_name: String,
    request_seq: u64,
    response_seq: u64,
    width: u64,
    header_size: u64,
    rows: u64,
}

/// The commands' event helpers, or an empty string when the schema has no such event.
pub(super) fn render_c_commands(schema: &Schema) -> Result<String, RenderError> {
    let Some(c) = commands(schema) else {
        return Ok(String::new());
    };
    let crate::ir::protocol::ProtocolKind::Session(s) = &schema.protocols[c.session].kind else {
        return Ok(String::new());
    };
    let p = schema.abi.c_prefix.clone();
    let ctx = CommandsCtx {
        pu: p.to_ascii_uppercase(),
        session: schema.protocols[c.session].name.clone(),
        mailbox: schema.protocols[c.mailbox].name.clone(),
        ev: c.event.name.clone(),
        word: c.word_offset,
        word_name: c.event.word_path.clone(),
        request_seq: c.request_seq,
        response_seq: c.response_seq,
        width: c.width,
        header_size: c.header_size,
        rows: schema.abi.structs[s.table.struct_index].fields[s.table.field]
            .ty
            .count(),
        p,
    };
    COMPILED.render(&ctx)
}
