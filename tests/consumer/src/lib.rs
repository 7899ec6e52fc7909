//! The telemetry ABI's bindings, generated at build time from `schema.toml`.

include!(concat!(env!("OUT_DIR"), "/telemetry.rs"));
