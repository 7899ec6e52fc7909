//! The ABI schema code generator: `schema.toml` → validated IR → layout → Rust, C, Python
//! and markdown. Every stage is a pure function over values; only [`mod@write`] touches the disk.

pub mod access;
pub mod attach;
pub mod builder;
pub mod diagnostics;
#[cfg(feature = "diff")]
pub mod diff;
pub mod expr;
#[cfg(feature = "cli")]
pub mod inspect;
pub mod ir;
pub mod language_backend;
pub mod layout;
pub mod lower;
pub mod parse;
#[cfg(feature = "text")]
pub mod report;
#[cfg(feature = "cli")]
pub mod schema_json;
pub mod template_targets;
pub mod write;

#[cfg(feature = "text")]
pub use builder::generated_outputs;
pub use builder::{BuildError, Builder, Generated};
pub use diagnostics::SchemaErrors;
pub use ir::Abi;
pub use layout::Layout;

/// A schema that parsed, lowered and laid out without errors: what every backend reads.
#[derive(Debug, Clone)]
pub struct Schema {
    pub abi: Abi,
    pub layout: Layout,
    /// How the shared memory is accessed: atomic fields, seqlocks, rings, writers.
    pub access: ir::access::Access,
    /// How a reader attaches: version handshakes and layout tables.
    pub attach: ir::attach::Attach,
    /// The user's own targets: `[[template]]` tables.
    pub templates: Vec<ir::template::UserTemplate>,
}

/// Runs parse → lower → layout → access → attach → templates on schema text. On failure, render the errors with
/// [`SchemaErrors::render`] and the same text.
pub fn load_schema(src: &str) -> Result<Schema, SchemaErrors> {
    let raw = parse::parse_schema(src)?;
    let abi = lower::lower_schema(&raw, src)?;
    let layout = layout::compute_layout(&abi)?;
    let access = access::lower_access(&raw, src, &abi, &layout)?;
    let attach = attach::lower_attach(&raw, src, &abi, &layout, &access)?;
    let templates = template_targets::lower_templates(&raw, src, &abi)?;
    Ok(Schema {
        abi,
        layout,
        access,
        attach,
        templates,
    })
}
