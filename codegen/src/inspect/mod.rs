//! `abi-codegen inspect`: decodes records of one struct (a shared-memory dump, a recording, a test
//! blob) through the schema's layout into a tree of typed values, flags every suspicious
//! value, and renders the tree as one line per leaf (`--dump`) or as JSON. A pure function
//! over bytes: the command line reads only the bytes of the records a [`Plan`] asks for.
//!
//! The issues and the value tree are in `model.rs`, the plan and the decode of a struct's
//! records in `records.rs`, whole `[[file]]`s in `file.rs` (zlib streams in `zlib.rs`),
//! whole `[[layout]]` images in `image.rs` (a queue's or log ring's entries in `entries.rs`), and the dumps and JSON in `render*.rs`. A
//! record `encoding` is decoded in `chain.rs`, and `--tick` seeks in `seek.rs`.

mod chain;
mod decode;
mod entries;
mod file;
mod image;
mod model;
mod records;
mod render;
mod render_file;
mod render_records;
mod seek;
mod specs;
mod zlib;

pub use file::{FileInspection, ReadAt, find_file, inspect_file};
pub use image::{find_layout, inspect_image};
pub use model::{Decoded, Issue, Level};
pub use records::{
    Extent, Inspection, Plan, decode, find_struct, inspect, inspect_bytes, parse_offset,
};
pub use render::{issues_json, render_dump, render_issues, render_json};
pub use render_file::{render_file_dump, render_file_issues, render_file_json};
pub use render_records::{render_decoded_dump, render_decoded_json};
pub use seek::{SeekInspection, parse_keys, seek_records};
pub use specs::AttachSpecs;
