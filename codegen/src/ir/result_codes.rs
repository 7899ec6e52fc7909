//! The result codes of the generated helpers and their snake_case names: one list, by family,
//! that lowering reserves (a constant cannot take a code's C macro), the C header prints (its `#define`s and every `*_name` function) and the Python module
//! prints where it has numbers (the process probe's answers). The numbers are distinct across
//! families, so a code means one thing wherever it comes from; 0 is "ok" in every family that
//! has it. The protocol names are abi_runtime's (`QueueError::check()` and the others), the
//! attach checks' are `ir::attach::CHECKS` (abi-codegen's ATTACH.md).

use crate::ir::attach::CHECKS;

/// The families, each the codes of one group of helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The live helpers: seqlock reads, ring reads, compare-and-swap loops.
    Live,
    /// The region protocols: queues, rings, mailboxes, exchanges, sessions.
    Protocol,
    /// The attach checks.
    Attach,
    /// Laying out and producing an image (which also returns the attach checks' codes).
    Produce,
    /// The directory helpers.
    Directory,
    /// What a process probe found.
    Process,
}

/// One code: the macro's name after `<PREFIX>_`, its snake_case name, its number and what it
/// means (`{PREFIX}` in the text stands for the header's macro prefix).
#[derive(Clone, Debug)]
pub struct ResultCode {
    pub macro_suffix: String,
    pub name: String,
    pub value: i64,
    pub doc: &'static str,
}

fn code(macro_suffix: &str, name: &str, value: i64, doc: &'static str) -> ResultCode {
    ResultCode {
        macro_suffix: macro_suffix.to_string(),
        name: name.to_string(),
        value,
        doc,
    }
}

/// The first attach check's number (the checks follow in `CHECKS` order).
const ATTACH_FIRST: i64 = 101;
/// The first produce error's number.
const PRODUCE_FIRST: i64 = 151;
/// The first process probe answer's number.
const PROCESS_FIRST: i64 = 201;

/// The codes of a family, in their order.
pub fn codes(family: Family) -> Vec<ResultCode> {
    match family {
        Family::Live => vec![
            code(
                "OK",
                "ok",
                0,
                "A seqlock read or ring read kept a whole copy.",
            ),
            code(
                "CONTENDED",
                "contended",
                1,
                "Every try found a write in progress (or torn the copy), or a compare-and-swap \
                 loop found the word's other bytes changed before each of {PREFIX}_CAS_TRIES \
                 tries: give up for now, or try again.",
            ),
            code("EMPTY", "empty", 2, "A slots ring has no publication yet."),
            code(
                "TOO_SHORT",
                "too_short",
                3,
                "The len given is shorter than the struct and its trailer, or a payload does \
                 not fit.",
            ),
        ],
        Family::Protocol => protocol_codes(),
        Family::Attach => {
            let mut v = vec![code("ATTACH_OK", "ok", 0, "Attach succeeded.")];
            v.extend(
                CHECKS
                    .iter()
                    .zip(ATTACH_FIRST..)
                    .map(|(name, value)| ResultCode {
                        macro_suffix: format!("ATTACH_{}", name.to_ascii_uppercase()),
                        name: (*name).to_string(),
                        value,
                        doc: "",
                    }),
            );
            v
        }
        Family::Produce => {
            let mut v = vec![code(
                "PRODUCE_OK",
                "ok",
                0,
                "The image was laid out or written.",
            )];
            let errors = [
                (
                    "unknown_geometry",
                    "A value names no geometry field (err.region: the name given).",
                ),
                (
                    "geometry_needed",
                    "No constant sizes a geometry field and no value was given for it \
                     (err.region: its name).",
                ),
                (
                    "too_large",
                    "A number does not fit its field (err.region: where; err.found: the \
                     number; err.expected: the width).",
                ),
                (
                    "block_too_small",
                    "A block's rows do not fit its stride (err.expected: the stride; \
                     err.found: what they need).",
                ),
                (
                    "buffer_too_short",
                    "The buffer or mapping is smaller than the image (err.expected: the \
                     image's size).",
                ),
            ];
            v.extend(
                errors
                    .iter()
                    .zip(PRODUCE_FIRST..)
                    .map(|((name, doc), value)| {
                        code(
                            &format!("PRODUCE_{}", name.to_ascii_uppercase()),
                            name,
                            value,
                            doc,
                        )
                    }),
            );
            v
        }
        Family::Directory => {
            let ok = code("DIRECTORY_OK", "ok", 0, "The directory call succeeded.");
            let errors = [
                ("too_small", "The directory is too small for its header."),
                (
                    "not_ready",
                    "Its magic is 0: its creator has not laid it out yet.",
                ),
                ("bad_magic", "Its magic is not the directory's."),
                (
                    "bad_entry_size",
                    "entry_size is smaller than a row this ABI knows, or not a multiple of 8.",
                ),
                (
                    "bad_entry_count",
                    "entry_count is 0 or its rows run past the mapping.",
                ),
                ("full", "Every row is claimed or live."),
                (
                    "version_too_long",
                    "The host version does not fit its field with its NUL.",
                ),
                (
                    "os_error",
                    "An OS call of an open-or-create failed (C): errno, or GetLastError() on Windows, says which.",
                ),
            ];
            let errors = errors.iter().zip(1..).map(|((name, doc), k)| {
                code(
                    &format!("DIRECTORY_{}", name.to_ascii_uppercase()),
                    &format!("directory_{name}"),
                    -k,
                    doc,
                )
            });
            std::iter::once(ok).chain(errors).collect()
        }
        Family::Process => {
            let answers = [
                ("gone", "No such process (or a zombie)."),
                (
                    "running",
                    "The process runs (and its creation time was read).",
                ),
                ("unknown", "The platform could not tell."),
            ];
            answers
                .iter()
                .zip(PROCESS_FIRST..)
                .map(|((name, doc), value)| {
                    code(
                        &format!("PROCESS_{}", name.to_ascii_uppercase()),
                        &format!("process_{name}"),
                        value,
                        doc,
                    )
                })
                .collect()
        }
    }
}

/// The region protocols' codes: the outcomes 10 to 16, then abi_runtime's errors from 20.
fn protocol_codes() -> Vec<ResultCode> {
    let outcomes = [
        (
            "dropped",
            "The entry did not fit: dropped, and counted. Or a draw list's item did not fit.",
        ),
        (
            "lapped",
            "A ring reader was overtaken: *missed entries were lost; the next read goes on.",
        ),
        (
            "pending",
            "A mailbox has no answer yet (client), or no request waits (server).",
        ),
        (
            "disconnected",
            "The row was freed by the host, or another client claimed it since.",
        ),
        (
            "reloaded",
            "The host reloaded (its generation changed): every row was freed.",
        ),
        ("host_exiting", "The host is going away."),
        ("not_free", "The row (or the pad) is not free."),
    ];
    let errors = [
        (
            "queue_capacity",
            "The capacity is 0, not a multiple of 8, or past the region.",
        ),
        (
            "queue_positions",
            "write_pos and read_pos are not in order within the capacity.",
        ),
        (
            "queue_entry_size",
            "An entry's size (or its parts' lengths) cannot be right.",
        ),
        ("queue_bad_entry", "The entry given is not a whole entry."),
        (
            "ring_capacity",
            "The capacity is 0, not a multiple of 8, or past the region.",
        ),
        (
            "ring_positions",
            "tail_pos and write_pos are not in order (or a writer keeps them so).",
        ),
        ("ring_entry_size", "An entry's size cannot be right."),
        ("ring_bad_entry", "The entry given is not a whole entry."),
        (
            "mailbox_capacity",
            "The areas do not fit the region, or one is empty.",
        ),
        ("mailbox_length", "A length past its area."),
        ("mailbox_busy", "A request is waiting for its answer."),
        (
            "mailbox_too_long",
            "The request does not fit the request area (capacity - 1 bytes).",
        ),
        ("mailbox_sequence", "The counters cannot be right."),
        (
            "exchange_geometry",
            "The lists' count, size or capacities do not fit the region.",
        ),
        (
            "exchange_state",
            "A state word the other side cannot have left; nothing was changed.",
        ),
        (
            "exchange_list_length",
            "A list's count or payload length past its capacity (or an index or a range a \
             reader asks for past them).",
        ),
        (
            "session_row",
            "The row (or pad) is past the table, or the region does not hold it.",
        ),
        (
            "exchange_contended",
            "The state word changed under each of {PREFIX}_EXCHANGE_TRIES compare-and-swaps \
             (a peer that rewrites it nonstop); nothing was changed.",
        ),
        (
            "entry_part_too_long",
            "A part of an entry (its source, its text) past its bound.",
        ),
        (
            "entry_part_past_entry",
            "An entry's parts end past its size.",
        ),
    ];
    let outcome = outcomes.iter().zip(10..);
    let error = errors.iter().zip(20..);
    outcome
        .chain(error)
        .map(|((name, doc), value)| {
            let suffix = name.to_ascii_uppercase();
            // A session's refusals keep Python's names (ProtocolError session_reloaded, ...).
            let session = ["disconnected", "reloaded", "host_exiting"].contains(name);
            let name = if session {
                format!("session_{name}")
            } else {
                (*name).to_string()
            };
            code(&suffix, &name, value, doc)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const ALL: [Family; 6] = [
        Family::Live,
        Family::Protocol,
        Family::Attach,
        Family::Produce,
        Family::Directory,
        Family::Process,
    ];

    #[test]
    fn a_number_and_a_name_mean_one_thing_across_families() {
        let mut by_value: HashMap<i64, String> = HashMap::new();
        let mut by_name: HashMap<String, i64> = HashMap::new();
        for f in ALL {
            for c in codes(f) {
                let name = by_value.entry(c.value).or_insert_with(|| c.name.clone());
                assert_eq!(*name, c.name, "{f:?} {} shares {}", c.macro_suffix, c.value);
                let value = by_name.entry(c.name.clone()).or_insert(c.value);
                assert_eq!(*value, c.value, "{f:?} {} shares its name", c.macro_suffix);
                assert!(
                    c.macro_suffix.to_ascii_lowercase().ends_with(&c.name)
                        || c.name.ends_with(&c.macro_suffix.to_ascii_lowercase()),
                    "{} is not named after {}",
                    c.macro_suffix,
                    c.name
                );
            }
        }
    }
}
