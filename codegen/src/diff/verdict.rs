//! The version step a diff needs and takes: a bump, how a step reads, and the version
//! policy's verdict.

use serde::Serialize;

use crate::ir::{Version, VersionPolicy};

/// A version step, from the old version to the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bump {
    None,
    Minor,
    Major,
}

impl Bump {
    pub fn label(self) -> &'static str {
        match self {
            Bump::None => "no bump",
            Bump::Minor => "a minor bump",
            Bump::Major => "a major bump",
        }
    }
}

/// The version policy's judgement of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The schema's `[abi] version_policy`.
    pub policy: VersionPolicy,
    /// What the changes need, under the policy.
    pub required: Bump,
    /// The version the advice asks for: the new version when its step is enough, else the
    /// next version with the step needed. A new item's `since` must be this version.
    pub target: Version,
    /// What the versions do; `None` when the version goes backwards.
    pub actual: Option<Bump>,
    /// Each way the change breaks the policy: what bump was needed, and why.
    pub problems: Vec<String>,
}

impl Verdict {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The exit code of `abi-codegen diff`: 0 when the policy holds, 1 when it does not.
    pub fn exit_code(&self) -> u8 {
        if self.ok() { 0 } else { 1 }
    }
}

/// "0.8 → 0.9 is a minor bump", "the version stays 0.9", "the version goes backwards, ...".
pub(super) fn step_phrase(old: Version, new: Version, actual: Option<Bump>) -> String {
    match actual {
        None => format!("the version goes backwards, {old} → {new}"),
        Some(Bump::None) => format!("the version stays {new}"),
        Some(b) => format!("{old} → {new} is {}", b.label()),
    }
}
