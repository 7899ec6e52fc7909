//! Field types: primitives, fixed text, named enums and structs, and arrays of them.

use std::fmt;

use crate::ir::id::StructId;

/// A fixed-width primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Prim {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

impl Prim {
    pub const ALL: [Prim; 10] = [
        Prim::U8,
        Prim::U16,
        Prim::U32,
        Prim::U64,
        Prim::I8,
        Prim::I16,
        Prim::I32,
        Prim::I64,
        Prim::F32,
        Prim::F64,
    ];

    pub fn from_name(name: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The schema's spelling, which is also Rust's.
    pub fn name(self) -> &'static str {
        match self {
            Prim::U8 => "u8",
            Prim::U16 => "u16",
            Prim::U32 => "u32",
            Prim::U64 => "u64",
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
        }
    }

    /// Size in bytes, which is also the natural alignment.
    pub fn size(self) -> u64 {
        match self {
            Prim::U8 | Prim::I8 => 1,
            Prim::U16 | Prim::I16 => 2,
            Prim::U32 | Prim::I32 | Prim::F32 => 4,
            Prim::U64 | Prim::I64 | Prim::F64 => 8,
        }
    }

    pub fn is_integer(self) -> bool {
        !matches!(self, Prim::F32 | Prim::F64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64)
    }

    /// The inclusive range of an integer primitive.
    pub fn range(self) -> (i128, i128) {
        let bits = self.size() * 8;
        if self.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }
}

impl fmt::Display for Prim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The element of a field's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    Prim(Prim),
    /// One byte of NUL-terminated text; only in `char[N]`.
    Char,
    /// An enum or flag set, by index into `Abi::enums`.
    Enum(usize),
    /// A struct of `Abi::structs`.
    Struct(StructId),
}

/// An array length: its value and, when the schema named one, the constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayLen {
    pub count: u64,
    pub constant: Option<usize>,
}

/// A field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    pub elem: Elem,
    pub len: Option<ArrayLen>,
    /// The type as the schema wrote it, such as `char[client_name_len]`.
    pub text: String,
}

impl Type {
    pub fn count(&self) -> u64 {
        self.len.map_or(1, |l| l.count)
    }
}
