//! The ABI schema code generator: `schema.toml` → validated IR → layout → Rust, C, Python
//! and markdown. Every stage is a pure function over values; only [`mod@write`] touches the disk.

pub mod access;
pub mod attach;
pub mod builder;
pub mod diagnostics;
#[cfg(feature = "diff")]
pub mod diff;
pub mod expr;
pub mod init;
#[cfg(feature = "cli")]
pub mod inspect;
pub mod ir;
pub mod language_backend;
pub mod layout;
pub mod lints;
pub mod lower;
pub mod parse;
pub mod plan;
pub mod protocols;
#[cfg(feature = "text")]
pub mod report;
mod schema;
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
pub use schema::{Schema, load_schema};
