//! The churn part of the protocol torture (issue 36): sessions that are killed, freed,
//! reloaded and laid out again, and new sessions on the freed rows, with Rust, C and Python
//! clients (the contract: `tests/torture/PROTOCOLS.md`, "Churn"). `host` runs it and counts;
//! `client` is the Rust client. What both sides share is here: the session tag and the clock.

pub mod client;
pub mod host;

/// The tag a session writes into everything it writes (log text, draw list `for_tick`,
/// mailbox request) and into its harness word when ready: its claim's host generation in the
/// high half, its row generation in the low half. Unique per row across frees, reloads and
/// re-layouts, since the host generation only goes up.
pub fn tag(host_generation: u32, row_generation: u32) -> u64 {
    (u64::from(host_generation) << 32) | u64::from(row_generation)
}

/// CLOCK_MONOTONIC in nanoseconds, the clock the C (`clock_gettime`) and Python
/// (`time.monotonic_ns`) clients stamp their reports with.
pub fn mono_ns() -> u64 {
    bridge_abi::runtime::identity::Identity::now("").mono_ns
}

/// The environment variable that breaks one rule on purpose, to prove the torture catches
/// it: `draw-reset` (the host's free leaves the draw exchange as it was), `pad-release` (it
/// keeps the row's pads), `mailbox-restore` (it leaves a waiting request), `unscoped` (the
/// stalled clients write without checking their standing), `standing` (the stalled clients'
/// standing looks at the host's generation only).
pub const BREAK: &str = "TORTURE_CHURN_BREAK";

/// The rule broken on purpose, if any (the empty string for none).
pub fn broken() -> String {
    std::env::var(BREAK).unwrap_or_default()
}
