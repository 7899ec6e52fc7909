//! ABI versions: a `MAJOR.MINOR` version, and the version policy `abi-codegen diff` checks
//! a change against.

use std::fmt;

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
