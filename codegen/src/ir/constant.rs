//! Constants: a name, an integer value (as written, or computed from an expression of
//! earlier constants) and the integer type the bindings give it.

use crate::diagnostics::Span;
use crate::ir::ty::Prim;
use crate::ir::version::Version;

/// The type a constant has in the bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstType {
    /// It sizes an array, so it is `usize` in Rust and needs no cast there.
    Usize,
    /// Declared by the schema's `type`, or the smallest of `u32`, `u64`, `i64` that holds it.
    Prim(Prim),
}

#[derive(Debug, Clone)]
pub struct Constant {
    pub name: String,
    pub value: i128,
    /// The value as the schema wrote it (`0x10000`), or the decimal value of an expression.
    pub literal: String,
    /// The expression the value was computed from, such as `board_max_dim * board_max_dim`.
    pub expr: Option<String>,
    pub ty: ConstType,
    pub doc: String,
    pub since: Option<Version>,
    pub span: Span,
}
