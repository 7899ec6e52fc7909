//! How many tries a seqlock read makes when its caller names none, decided once for every
//! target. A reader retries while the counter is odd or changes, so a writer that died
//! mid-write (its counter left odd until the next write stores the whole record) costs each
//! read all its tries. A client waits for its host, and the default bound
//! (`DEFAULT_TRIES`, 10000: the first 16 spin, the rest yield the thread) lets it ride out a
//! host preempted mid-publication. A host must not wait for its clients: it serves every
//! row once a tick, and one dead bot's odd pad record at 10000 tries cost a 60 Hz host
//! 9.7 ms, 58% of its tick (issue 48). So a host's read of a record its client writes makes
//! [`HOST_TRIES`] tries: a live client's write takes well under a try's spin, and a dead
//! one's record reads as contended at once (the host then treats the pad as neutral, as it
//! does a record that stays unchanged). `bench/host_tries.sh` measures the cost.

use crate::ir::access::{Parties, Seqlock};
use crate::ir::protocol::ProtocolKind;
use crate::schema::Schema;

/// Tries of a host's read of a record its client writes, when it names none.
pub const HOST_TRIES: u32 = 8;

/// Tries of every other read that names none: `abi_runtime::DEFAULT_TRIES`, which
/// tests/host_tries.rs holds equal (this crate's library does not link the runtime).
pub const DEFAULT_TRIES: u32 = 10_000;

/// Whether seqlock `lock` is a host's read of a record its client writes: some session's
/// host reads it, and only that session's client parties write it.
pub fn host_reads_client(schema: &Schema, lock: &Seqlock) -> bool {
    let within = |a: &Parties, b: &Parties| !a.is_empty() && a.0.iter().all(|p| b.0.contains(p));
    let meets = |a: &Parties, b: &Parties| a.0.iter().any(|p| b.0.contains(p));
    schema.protocols.iter().any(|p| match &p.kind {
        ProtocolKind::Session(s) => {
            meets(&lock.readers, &s.host)
                && within(&lock.writers, &s.client)
                && !meets(&lock.writers, &s.host)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bridges_client_written_records_are_the_hosts_bounded_reads() {
        let schema = crate::plan::bridge_for_tests();
        let host: Vec<&str> = (schema.access.seqlocks.iter())
            .filter(|l| host_reads_client(&schema, l))
            .map(|l| l.name.as_str())
            .collect();
        assert_eq!(host, ["pad_input", "param_defs", "stats"]);
    }
}
