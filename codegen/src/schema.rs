//! The loaded schema that every backend reads, and the pipeline that makes it from text:
//! parse, lower, layout, access, protocols, directories, attach, events, templates.

use crate::diagnostics::{Diagnostic, SchemaErrors};
use crate::ir::{self, Abi};
use crate::layout::{self, Layout};
use crate::plan::attach::AttachPlan;
use crate::{access, attach, lints, lower, parse, protocols, template_targets};

/// A schema that parsed, lowered and laid out without errors: what every backend reads. Opaque:
/// a tool reads it through its views ([`Schema::abi`], [`Schema::layout`],
/// [`Schema::warnings`]) and hands it to the backends.
#[derive(Debug, Clone)]
pub struct Schema {
    pub(crate) abi: Abi,
    pub(crate) layout: Layout,
    /// How the shared memory is accessed: atomic fields, seqlocks, rings, writers.
    pub(crate) access: ir::access::Access,
    /// How a reader attaches: version handshakes and layout tables.
    pub(crate) attach: ir::attach::Attach,
    /// The protocols over regions' bytes: queues, broadcast rings, mailboxes, exchanges and
    /// sessions.
    pub(crate) protocols: Vec<ir::protocol::Protocol>,
    /// The directories of running instances: `[[directory]]` tables.
    pub(crate) directories: Vec<ir::directory::Directory>,
    /// The events parties sleep on and set: `[[event]]` tables.
    pub(crate) events: Vec<ir::event::Event>,
    /// The user's own targets: `[[template]]` tables.
    pub(crate) templates: Vec<ir::template::UserTemplate>,
    /// What the schema likely did not mean, though it is valid (`lints`): the commands print
    /// them with [`crate::diagnostics::render_warnings`].
    pub(crate) warnings: Vec<Diagnostic>,
    /// Every layout table's and handshake's plan, computed once from the above: the C, Python
    /// and Rust attach code and `inspect` read it here.
    pub(crate) attach_plan: AttachPlan,
}

impl Schema {
    /// The declarations: constants, enums, flag sets and structs.
    pub fn abi(&self) -> &Abi {
        &self.abi
    }

    /// Each struct's computed layout: sizes, alignments and field offsets.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What the schema likely did not mean, though it is valid.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// How the shared memory is accessed (for the tests).
    #[doc(hidden)]
    pub fn access(&self) -> &ir::access::Access {
        &self.access
    }

    /// How a reader attaches (for the tests).
    #[doc(hidden)]
    pub fn attach(&self) -> &ir::attach::Attach {
        &self.attach
    }

    /// The protocols (for the tests).
    #[doc(hidden)]
    pub fn protocols(&self) -> &[ir::protocol::Protocol] {
        &self.protocols
    }

    /// The protocol named `name` (for the tests).
    #[doc(hidden)]
    pub fn protocol_id(&self, name: &str) -> Option<ir::ProtocolId> {
        (self.protocols.iter().position(|p| p.name == name)).map(ir::ProtocolId::new)
    }

    /// The directories (for the tests).
    #[doc(hidden)]
    pub fn directories(&self) -> &[ir::directory::Directory] {
        &self.directories
    }

    /// The events (for the tests).
    #[doc(hidden)]
    pub fn events(&self) -> &[ir::event::Event] {
        &self.events
    }

    /// Every layout table's and handshake's plan (for the tests).
    #[doc(hidden)]
    pub fn attach_plan(&self) -> &AttachPlan {
        &self.attach_plan
    }

    /// The `[[template]]` targets (for the tests).
    #[doc(hidden)]
    pub fn templates(&self) -> &[ir::template::UserTemplate] {
        &self.templates
    }
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
    let attach_plan = AttachPlan::new(&abi, &layout, &attach);
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
        attach_plan,
    })
}
