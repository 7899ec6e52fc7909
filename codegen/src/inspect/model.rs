//! What an inspection finds: issues at byte offsets with their levels, and the tree of
//! decoded values; with the small text helpers every part writes them with.

use crate::ir::Prim;
use crate::ir::StructId;

/// How bad an issue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
        }
    }
}

/// Something worth flagging at a byte offset of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub level: Level,
    pub offset: u64,
    pub path: String,
    pub message: String,
}

/// A decoded value with its absolute offset in the input.
#[derive(Debug, Clone)]
pub struct Node {
    pub offset: u64,
    pub kind: NodeKind,
}

#[derive(Debug, Clone)]
pub enum NodeKind {
    Int(Prim, i128),
    /// An integer field that should hold a constant (index into `Abi::consts`).
    Expected(Prim, i128, usize),
    Float(Prim, f64),
    Enum(usize, i128),
    Flags(usize, i128),
    Text(Vec<u8>),
    /// Declared padding; only its bytes are kept, to flag non-zero ones.
    Padding(Vec<u8>),
    Struct(StructId, Vec<(String, Node)>),
    /// The elements in use: all of them, or as many as the array's count field says.
    Array {
        elem_type: String,
        elems: Vec<Node>,
        capacity: u64,
        /// The count field that bounds the array, when the schema names one.
        counter: Option<String>,
    },
}

/// One record with its decoded data, as `inspect --tick` hands it out.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// `ticks[1][2]`, and the copy whose stream holds it: `chunks[1]`.
    pub path: String,
    pub stream: String,
    /// In the inflated stream.
    pub offset: u64,
    /// The record's struct (by index into `Abi::structs`) and its bytes.
    pub struct_index: StructId,
    pub head: Vec<u8>,
    /// The record's key (`seek.key`).
    pub key: u64,
    /// How its data was encoded: `keyframe`, `delta` (the kind's name), or `data` without
    /// an encoding.
    pub kind: String,
    /// The decoded struct (by index into `Abi::structs`), when the data holds one whole.
    pub decoded_struct: Option<StructId>,
    /// The decoded data: the struct, then the extras.
    pub data: Vec<u8>,
    /// Where the extras start in `data` (its length when there are none).
    pub extras_at: usize,
}

/// [`Inspection::exit_code`](super::Inspection::exit_code) of any list of issues.
pub(super) fn exit_code(issues: &[Issue], strict: bool) -> u8 {
    let has = |level| issues.iter().any(|i: &Issue| i.level == level);
    if strict && (has(Level::Error) || has(Level::Warn)) {
        2
    } else if has(Level::Error) {
        1
    } else {
        0
    }
}

pub(super) fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

pub(super) fn hex_bytes(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes.iter().take(16).map(|b| format!("{b:02x}")).collect();
    let more = if bytes.len() > 16 { " …" } else { "" };
    format!("{}{more}", shown.join(" "))
}

/// A number in the radix of the literal it is compared with.
pub(super) fn show_like(v: i128, literal: &str) -> String {
    if literal.starts_with("0x") && v >= 0 {
        format!("{v:#x}")
    } else {
        v.to_string()
    }
}
