//! Enums and flag sets: a fixed-width representation and named values in declaration order.

use crate::diagnostics::Span;
use crate::ir::ty::Prim;
use crate::ir::version::Version;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnumKind {
    /// One of the values (any other number is still readable, as its number).
    Enum,
    /// A set of single-bit values.
    Flags,
}

impl EnumKind {
    pub fn keyword(self) -> &'static str {
        match self {
            EnumKind::Enum => "enum",
            EnumKind::Flags => "flags",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Enum {
    pub name: String,
    pub kind: EnumKind,
    pub repr: Prim,
    /// Declared with `ordered = true`: its values rank lowest first, in declaration order,
    /// so that comparing the numbers compares them (Rust derives `PartialOrd` and `Ord`).
    pub ordered: bool,
    pub doc: String,
    pub since: Option<Version>,
    pub values: Vec<EnumValue>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EnumValue {
    pub name: String,
    pub value: i128,
    /// The value as the schema wrote it (`0x1`), or the decimal value of an expression.
    pub literal: String,
    pub doc: String,
    pub since: Option<Version>,
    pub span: Span,
}

impl Enum {
    /// The OR of every flag bit (flag sets only).
    pub fn all_bits(&self) -> i128 {
        self.values.iter().fold(0, |acc, v| acc | v.value)
    }
}

/// Why `ordered = true` does not fit an enum or flag set of `values`: a flag set has no
/// order, and an ordered enum declares its values lowest first, each above the one before.
pub fn order_error(kind: EnumKind, what: &str, values: &[EnumValue]) -> Option<String> {
    if kind == EnumKind::Flags {
        return Some(format!(
            "{what}: `ordered` is for enums; a flag set has no order"
        ));
    }
    values.windows(2).find(|w| w[1].value <= w[0].value).map(|w| {
        format!(
            "{what} is ordered, so its values rank lowest first: `{}` ({}) is declared after `{}` ({})",
            w[1].name, w[1].literal, w[0].name, w[0].literal
        )
    })
}
