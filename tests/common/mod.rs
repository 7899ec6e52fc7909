//! Helpers shared by the integration tests. Each test binary uses part of them.
#![allow(dead_code)]

pub mod image;
pub mod markdown_table;
pub mod random_schema;
pub mod readme;
pub mod reference;
pub mod tools;
