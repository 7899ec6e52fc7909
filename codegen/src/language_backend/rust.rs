//! The Rust backend (placeholder until the Rust bindings land).

use crate::Schema;

pub fn expand_rust(schema: &Schema, source: &str) -> String {
    let _ = schema;
    format!("// {}\n", super::generated_line(source))
}
