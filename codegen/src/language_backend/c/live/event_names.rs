//! The Windows names of the events in the C header (issue 47), from `c_event_names.h.j2`:
//! `<p>_event_name_<event>(out, cap, mapping, pid, generation, row)`, the schema's
//! `windows_name` pieces (`ir/event.rs`) as a table that one builder reads, so that a C host
//! and bot name each event as the Rust ones do.

use std::sync::LazyLock;

use serde::Serialize;

use crate::ir::event::NamePart;
use crate::language_backend::output::RenderError;
use crate::language_backend::text::{Compiled, Template};
use crate::schema::Schema;

const TEMPLATE: Template = Template {
    name: "c_event_names.h.j2",
    source: include_str!("../../../../templates/c_event_names.h.j2"),
};

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled::new(&TEMPLATE, |_| {}));

#[derive(Serialize)]
struct EventNameCtx {
    name: String,
    pattern: String,
    /// The name's pieces as initializers of the header's piece struct, in order.
    pieces: Vec<String>,
}

#[derive(Serialize)]
struct EventNamesCtx {
    p: String,
    events: Vec<EventNameCtx>,
}

/// A C string literal of `text`: backslashes, quotes and bytes outside printable ASCII
/// escaped (octal, three digits, so that no following digit joins the escape).
fn c_string(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// The name helpers of every event, or an empty string when the schema declares none.
pub(super) fn render_c_event_names(schema: &Schema) -> Result<String, RenderError> {
    if schema.events.is_empty() {
        return Ok(String::new());
    }
    let events = schema
        .events
        .iter()
        .map(|e| EventNameCtx {
            name: e.name.clone(),
            pattern: crate::language_backend::c::comments::escape_comment_line(
                &e.windows_pattern(),
            ),
            // The kinds the header's piece struct names: 0 text, 1 mapping, 2 pid,
            // 3 generation, 4 row.
            pieces: e
                .windows_name
                .iter()
                .map(|part| match part {
                    NamePart::Text(t) => format!("{{0, {}}}", c_string(t)),
                    NamePart::Mapping => "{1, NULL}".to_string(),
                    NamePart::Pid => "{2, NULL}".to_string(),
                    NamePart::Generation => "{3, NULL}".to_string(),
                    NamePart::Row => "{4, NULL}".to_string(),
                })
                .chain(e.windows_name.is_empty().then(|| "{0, \"\"}".to_string()))
                .collect(),
        })
        .collect();
    COMPILED.render(&EventNamesCtx {
        p: schema.abi.c_prefix.clone(),
        events,
    })
}

#[cfg(test)]
mod tests {
    use super::c_string;

    #[test]
    fn a_name_piece_is_one_c_string_whatever_it_holds() {
        assert_eq!(c_string("-tick-"), "\"-tick-\"");
        assert_eq!(c_string("a\\b\"c?d"), "\"a\\\\b\\\"c\\?d\"");
        assert_eq!(c_string("é1"), "\"\\303\\2511\"");
    }
}
