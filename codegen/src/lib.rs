//! The ABI schema code generator: `schema.toml` → validated IR → layout → Rust, C, Python
//! and markdown. Every stage is a pure function over values; only the `write` module touches
//! the disk.
//!
//! The published API is small: [`Builder`] (a build script's generator), [`load_schema`] and
//! the opaque [`Schema`] it returns, with its views ([`Schema::abi`], [`Schema::layout`],
//! [`Schema::warnings`]), [`SchemaErrors`], `generated_outputs` and the `diff` module. The
//! stages and backends are `pub(crate)`; the command line (`cli`) and the tests (`testing`)
//! reach them through two hidden modules that are no part of the API.

// Without `text` (the build script's generator: Rust alone), the plans and prose that only the
// C, Python and markdown backends read are unused; a build with every feature (clippy's, CI's)
// still reports what no target uses.
#![cfg_attr(not(feature = "text"), allow(dead_code))]

pub(crate) mod access;
pub(crate) mod attach;
pub(crate) mod builder;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
pub(crate) mod diagnostics;
#[cfg(feature = "diff")]
pub mod diff;
pub(crate) mod expr;
pub(crate) mod init;
#[cfg(feature = "cli")]
pub(crate) mod inspect;
pub(crate) mod ir;
pub(crate) mod jobs;
pub(crate) mod language_backend;
pub(crate) mod layout;
pub(crate) mod lints;
pub(crate) mod lower;
pub(crate) mod parse;
pub(crate) mod plan;
pub(crate) mod protocols;
#[cfg(feature = "text")]
pub(crate) mod report;
mod schema;
#[cfg(feature = "cli")]
pub(crate) mod schema_json;
pub(crate) mod template_targets;
#[doc(hidden)]
pub mod testing;
pub(crate) mod write;

#[cfg(feature = "text")]
pub use builder::generated_outputs;
pub use builder::{BuildError, Builder, Generated};
pub use diagnostics::SchemaErrors;
pub use ir::Abi;
pub use layout::Layout;
pub use schema::{Schema, load_schema};
