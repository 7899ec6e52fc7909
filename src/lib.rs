//! Rust bindings of the bridge ABI, generated from `schema.toml` by the build script.
