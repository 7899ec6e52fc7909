//! The validated intermediate representation of an ABI: every name checked, every
//! reference resolved. One file per item kind. Backends read this and the layout, never
//! the raw serde types.

pub mod access;
pub mod attach;
mod constant;
mod enumeration;
pub mod file;
pub mod names;
mod structure;
pub mod template;
mod ty;

pub use constant::{ConstType, Constant};
pub use enumeration::{Enum, EnumKind, EnumValue, order_error};
pub use structure::{CountRef, Field, Struct};
pub use ty::{ArrayLen, Elem, Prim, Type};

use std::fmt;

use crate::diagnostics::Span;

/// An ABI version, `MAJOR.MINOR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
}

impl Version {
    pub fn parse(s: &str) -> Option<Version> {
        let (major, minor) = s.split_once('.')?;
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(major) || !digits(minor) || (major.len() > 1 && major.starts_with('0')) {
            return None;
        }
        if minor.len() > 1 && minor.starts_with('0') {
            return None;
        }
        Some(Version {
            major: major.parse().ok()?,
            minor: minor.parse().ok()?,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// `[abi] version_policy`: the version step each class of change needs (codegen/README.md,
/// "The version policy"). Only `abi-codegen diff` reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VersionPolicy {
    /// A breaking change needs a major bump; any other change but a cosmetic one a minor bump.
    #[default]
    Strict,
    /// Cargo's convention: while the major version is 0, a minor bump may break (0.9 → 0.10);
    /// from 1.0 on, as strict.
    Cargo,
}

impl VersionPolicy {
    /// Every policy, as the schema writes it.
    pub const ALL: [VersionPolicy; 2] = [VersionPolicy::Strict, VersionPolicy::Cargo];

    pub fn name(self) -> &'static str {
        match self {
            VersionPolicy::Strict => "strict",
            VersionPolicy::Cargo => "cargo",
        }
    }

    pub fn parse(s: &str) -> Option<VersionPolicy> {
        Self::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// A top-level item, by kind and index, in the order the schema declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemRef {
    Const(usize),
    Enum(usize),
    Struct(usize),
}

/// The whole ABI.
#[derive(Debug, Clone)]
pub struct Abi {
    /// snake_case name; names the output files (`bridge.rs`, `bridge.h`, ...).
    pub name: String,
    pub version: Version,
    /// The `version` string's place in the schema, for reports about the version.
    pub version_span: Span,
    pub version_policy: VersionPolicy,
    /// Lowercase C prefix, such as `ibf`.
    pub c_prefix: String,
    pub title: String,
    pub doc: String,
    pub consts: Vec<Constant>,
    pub enums: Vec<Enum>,
    pub structs: Vec<Struct>,
    /// Every item in declaration order.
    pub order: Vec<ItemRef>,
    pub span: Span,
}

impl Abi {
    pub fn find_const(&self, name: &str) -> Option<usize> {
        self.consts.iter().position(|c| c.name == name)
    }

    /// Whether constant `index` sizes an array somewhere.
    pub fn const_sizes_array(&self, index: usize) -> bool {
        self.consts
            .get(index)
            .is_some_and(|c| c.ty == ConstType::Usize)
    }
}
