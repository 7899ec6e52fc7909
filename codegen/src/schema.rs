//! The loaded schema that every backend reads, and the pipeline that makes it from text:
//! parse, lower, layout, access, protocols, directories, attach, events, templates.

use crate::diagnostics::{Diagnostic, SchemaErrors};
use crate::ir::{self, Abi};
use crate::layout::{self, Layout};
use crate::{access, attach, lints, lower, parse, protocols, template_targets};

/// A schema that parsed, lowered and laid out without errors: what every backend reads.
#[derive(Debug, Clone)]
pub struct Schema {
    pub abi: Abi,
    pub layout: Layout,
    /// How the shared memory is accessed: atomic fields, seqlocks, rings, writers.
    pub access: ir::access::Access,
    /// How a reader attaches: version handshakes and layout tables.
    pub attach: ir::attach::Attach,
    /// The protocols over regions' bytes: queues, broadcast rings, mailboxes, exchanges and
    /// sessions.
    pub protocols: Vec<ir::protocol::Protocol>,
    /// The directories of running instances: `[[directory]]` tables.
    pub directories: Vec<ir::directory::Directory>,
    /// The events parties sleep on and set: `[[event]]` tables.
    pub events: Vec<ir::event::Event>,
    /// The user's own targets: `[[template]]` tables.
    pub templates: Vec<ir::template::UserTemplate>,
    /// What the schema likely did not mean, though it is valid (`lints`): the commands print
    /// them with [`crate::diagnostics::render_warnings`].
    pub warnings: Vec<Diagnostic>,
}

/// Runs parse → lower → layout → access → protocols → directories → attach → events →
/// templates on
/// schema text. On failure, render the errors with
/// [`SchemaErrors::render`] and the same text.
pub fn load_schema(src: &str) -> Result<Schema, SchemaErrors> {
    let raw = parse::parse_schema(src)?;
    let abi = lower::lower_schema(&raw, src)?;
    let layout = layout::compute_layout(&abi)?;
    let access = access::lower_access(&raw, src, &abi, &layout)?;
    let protocols = protocols::lower_protocols(&raw, src, &abi, &layout, &access)?;
    let directories = protocols::lower_directories(&raw, src, &abi, &layout, &access)?;
    let attach = attach::lower_attach(&raw, src, &abi, &layout, &access, &protocols)?;
    let events = protocols::lower_events(&raw, src, &abi, &layout, &access, &attach)?;
    let templates = template_targets::lower_templates(&raw, src, &abi)?;
    let warnings = lints::lint(&raw, &abi, &access, &protocols, &attach);
    Ok(Schema {
        abi,
        layout,
        access,
        attach,
        protocols,
        directories,
        events,
        templates,
        warnings,
    })
}
