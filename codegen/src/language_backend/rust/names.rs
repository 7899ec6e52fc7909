//! The Rust backend's identifiers: a schema name as a Rust identifier (raw for a keyword),
//! as a type or a constant, and a primitive's type.

use proc_macro2::{Ident, Span};
use quote::format_ident;

use crate::ir::Prim;
use crate::ir::names::{camel, upper};

/// Rust keywords that cannot be raw identifiers; a trailing `_` is added instead.
const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// Rust's strict and reserved keywords (2024 edition), which become raw identifiers.
const KEYWORDS: [&str; 51] = [
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try", "union", "raw", "safe",
];

/// A Rust identifier for a schema name: raw (`r#type`) for keywords, `self_` for the few
/// that cannot be raw.
pub fn rust_ident(name: &str) -> Ident {
    if NOT_RAW.contains(&name) {
        format_ident!("{}_", name)
    } else if KEYWORDS.contains(&name) && !matches!(name, "union" | "raw" | "safe") {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

pub(in crate::language_backend::rust) fn type_ident(name: &str) -> Ident {
    rust_ident(&camel(name))
}

pub(in crate::language_backend::rust) fn const_ident(name: &str) -> Ident {
    rust_ident(&upper(name))
}
pub(in crate::language_backend::rust) fn prim_type(p: Prim) -> Ident {
    format_ident!("{}", p.name())
}
