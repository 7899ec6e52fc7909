//! Helpers shared by the integration tests. Each test binary uses part of them.
#![allow(dead_code)]

pub mod bindings_crate;
pub mod c_live_program;
pub mod every_backend;
pub mod host_kit;
pub mod image;
pub mod markdown_blocks;
pub mod markdown_doc;
pub mod protocol_clients;
pub mod protocol_host;
pub mod protocol_hostile;
pub mod protocol_peer;
pub mod python_recording;
pub mod random_schema;
pub mod readme;
pub mod recording;
pub mod reference;
pub mod result_codes;
pub mod rng;
pub mod robot_cases;
pub mod rule_cases;
pub mod schema_changes;
pub mod tools;
pub mod verdict;

/// The repository's `schema.toml`, loaded; a schema error panics with its rendering.
pub fn bridge_schema() -> abi_codegen::Schema {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schema.toml");
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    abi_codegen::load_schema(&src).unwrap_or_else(|e| panic!("{}", e.render(path, &src)))
}
