//! The raw schema's `[[directory]]`: a table of running instances in a mapping of its own
//! (the bridge's host directory), naming the header's and the row's fields, as written.
//! Meaning is checked in `protocols/directory.rs`.

use serde::Deserialize;
use toml::Spanned;

use super::value::RawParties;

/// `[[directory]]`: rows that instances claim by compare-and-swap, fill in and mark live,
/// and that readers list; a row whose process is gone is freed by the next instance.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDirectory {
    pub name: Spanned<String>,
    /// The mapping's name: `Local\NAME` on Windows, `/dev/shm/NAME` on Linux.
    pub mapping: Spanned<String>,
    /// The header struct, and its fields: the magic (a field with `expect`), the row count
    /// and size, and the array of rows.
    pub header: Spanned<String>,
    pub magic: Spanned<String>,
    pub entry_count: Spanned<String>,
    pub entry_size: Spanned<String>,
    pub entries: Spanned<String>,
    /// The row's compare-and-swap `u32` enum field, and its values.
    pub state: Spanned<String>,
    pub free: Spanned<String>,
    pub claimed: Spanned<String>,
    pub live: Spanned<String>,
    /// The row's `u32` process id: with the state, the two halves of one 8-aligned word.
    pub pid: Spanned<String>,
    /// The row's `u64` process creation time.
    pub process_time: Spanned<String>,
    /// The row's `u16` ABI version.
    pub abi_major: Spanned<String>,
    pub abi_minor: Spanned<String>,
    /// The row's `char[N]` version string of the instance.
    pub version: Spanned<String>,
    /// Who registers, and who lists.
    pub owner: Spanned<RawParties>,
    pub reader: Spanned<RawParties>,
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}
