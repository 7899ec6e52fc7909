//! The host's service turn (issue 48, item 1), in C (`tests/c_service/turn.c` through the
//! generated bridge.h) and Python (`tests/python_service/turn.py` under `python3 -W error`),
//! the same scenarios giving the same lines: one turn a tick serves, drains and takes a good client's row and frees it
//! after its goodbye, and the new claim's first list is taken (the turn made the row's draw
//! reader new at the free); the broken-client policy frees a row whose request_seq is hostile
//! (`ibf_mailbox_serve_begin` gives that seq; the free answers it) and one whose draw state is
//! broken; a hung row and an active row whose pid is gone are freed, a live pid's row stays;
//! a malformed request gets the host's callback's status. The test's own clock: nothing
//! sleeps. The C built with gcc, every warning an error.

use crate::common;

use common::c_live_program::STRICT;
use common::tools::{run_ok, scratch};

/// One line per scenario: what the turns of it counted.
const EXPECTED: [&str; 5] = [
    "good served=1 malformed=0 drained=2 taken=2 closing=1 hung=0 dead=0 policy=0 errors=0",
    "hostile_seq served=0 malformed=0 drained=0 taken=0 closing=0 hung=0 dead=0 policy=1 errors=0",
    "bad_draw served=0 malformed=0 drained=0 taken=0 closing=0 hung=0 dead=0 policy=1 errors=0",
    "hung_dead_malformed served=0 malformed=1 drained=0 taken=0 closing=0 hung=1 dead=1 policy=0 \
     errors=0",
    "alone served=1 malformed=0 drained=1 taken=1 closing=1 hung=0 dead=0 policy=0 errors=0",
];

#[test]
fn c_service_turn_serves_and_frees_by_the_policy_in_order() {
    let dir = scratch("c_service_turn");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{root}/generated/bridge.h"), dir.join("bridge.h")).unwrap();
    std::fs::copy(format!("{root}/tests/c_service/turn.c"), dir.join("turn.c")).unwrap();
    let mut args = vec!["-std=c11"];
    args.extend(STRICT.split(' '));
    args.extend(["turn.c", "-o", "turn"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(dir.join("turn").to_str().unwrap(), &[], &dir);
    assert_eq!(out.lines().collect::<Vec<_>>(), EXPECTED);
}

#[test]
fn python_host_service_turn_serves_and_frees_by_the_policy_in_order() {
    let dir = scratch("python_service_turn");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{root}/generated/bridge.py"), dir.join("bridge.py")).unwrap();
    std::fs::copy(
        format!("{root}/tests/python_service/turn.py"),
        dir.join("turn.py"),
    )
    .unwrap();
    let out = run_ok("python3", &["-W", "error", "turn.py"], &dir);
    assert_eq!(out.lines().collect::<Vec<_>>(), EXPECTED);
}
