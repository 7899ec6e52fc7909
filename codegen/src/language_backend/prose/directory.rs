//! A `[[directory]]` in words for the markdown reference: the steps a registering instance,
//! a reader and a cleaning instance take, with the orderings `abi_runtime::directory`, the
//! C helpers and the Python class follow, and how `process_time` is read on each platform.

use crate::ir::directory::Directory;
use crate::language_backend::prose::{ProtocolProse, Role};
use crate::schema::Schema;

pub fn describe(schema: &Schema, d: &Directory) -> ProtocolProse {
    let header = &schema.abi.structs[d.header];
    let row = &schema.abi.structs[d.row];
    let h = |f: usize| format!("`{}.{}`", header.name, header.fields[f].name);
    let r = |f: usize| format!("`{}.{}`", row.name, row.fields[f].name);
    let [free, claimed, live] = d.value_names.clone().map(|v| format!("`{v}`"));
    let (state, pid, time) = (r(d.state), r(d.pid), r(d.process_time));
    let parties = &schema.access.parties;
    let summary = format!(
        "The running instances in a mapping of their own, `Local\\{0}` on Windows and `/dev/shm/{0}` on Linux: the {1} registers in a row and frees it on exit, the {2} lists the {live} rows newest first, and a starting instance frees the rows of instances that died. {state} and {pid} are the two halves of one 8-byte word, changed only by compare-and-swap of that word.",
        d.mapping,
        d.owner.describe(parties),
        d.reader.describe(parties),
    );
    let open = format!(
        "Open: the first instance creates the mapping (owner-only), lays out {} and {} and then stores {} (release); a later one opens it and checks {} (acquire; 0: not laid out yet, wait a bounded time), then {} (at least the row's size, a multiple of 8) and {} (at least 1, and rows that fit in the mapping) before it uses a row.",
        h(d.entry_count),
        h(d.entry_size),
        h(d.magic),
        h(d.magic),
        h(d.entry_size),
        h(d.entry_count)
    );
    let owner = vec![
        open.clone(),
        "Free the stale rows (the cleanup below).".to_string(),
        format!(
            "Claim: compare-and-swap a {free} row's word to ({claimed}, own pid) (acquire-release); on failure try the next row, and report the directory full after the last."
        ),
        format!(
            "Fill in {time} (the process's creation time), the ABI version and the version string (relaxed atomic stores)."
        ),
        format!(
            "Compare-and-swap the word from ({claimed}, own pid) to ({live}, own pid) (release: the fill is visible to a reader that sees it {live}); if another instance took the row meanwhile, claim another."
        ),
        format!(
            "On exit: compare-and-swap ({live}, own pid) to ({claimed}, own pid), check {time} is still its own (else put the word back), zero the row's other bytes and store ({free}, 0) (release)."
        ),
    ];
    let reader = vec![
        open,
        format!("For each row: load its word (acquire); skip a {free} or {claimed} row, report a state that is none of the three."),
        "Copy the row (relaxed atomic loads), fence (acquire), load the word again: keep the copy only if it did not change, else copy again, a bounded number of times, then report the row as unsettled.".to_string(),
        format!("Sort the copies by {time}, newest first."),
    ];
    let cleaner = vec![
        format!("A {claimed} or {live} row is stale when its process is gone (no such pid, or a zombie), or runs but was created at another time than {time} (its pid was reused); a {claimed} row whose {time} is still 0 only when its process is gone (it may be filling in)."),
        format!("Compare-and-swap a stale row's word to ({claimed}, own pid); load {time} again and put the word back if it changed (another instance took the row meanwhile); else zero the row's other bytes and store ({free}, 0) (release)."),
        "The process's creation time: on Windows the creation FILETIME of `GetProcessTimes` (100 ns intervals since 1601); on Linux field 22 of `/proc/PID/stat` (`starttime`, clock ticks since boot), which never changes while the process lives and orders instances within a boot, all a directory in `/dev/shm` outlives.".to_string(),
    ];
    let who = |p: &crate::ir::access::Parties, what: &str| {
        format!("{what} (the {})", p.describe(parties))
    };
    ProtocolProse {
        kind: "directory",
        name: d.name.clone(),
        summary,
        doc: d.doc.clone(),
        roles: vec![
            Role {
                who: who(&d.owner, "Registering"),
                steps: owner,
            },
            Role {
                who: who(&d.reader, "Listing"),
                steps: reader,
            },
            Role {
                who: who(&d.owner, "Cleaning up after a dead instance"),
                steps: cleaner,
            },
        ],
    }
}
