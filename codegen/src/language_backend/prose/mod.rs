//! Protocols in words: the sentences every text target prints (markdown in backticks, the
//! C and Python comments), never a protocol itself: the seqlocks, rings, claims and updates
//! of the access pass (`access`), the region protocols (`regions`) and a host directory's
//! steps (`directory`).

pub mod access;
#[cfg(feature = "text")]
pub(crate) mod directory;
#[cfg(feature = "text")]
pub mod regions;

#[cfg(feature = "text")]
pub use access::{ProtocolProse, Role, describe_protocols};
