//! `tests/c_sessions/relayout.c` through the generated bridge.h (issue 46, item 1 and the
//! reload policy): a stale claim's activate and close leave the newcomer's row alone after a
//! re-layout with the same and with a new geometry, by the generations `ibf_produce` carries
//! and, for a producer that carries none, by the host-generation check before each move; a
//! reload whose free of row 1 a peer contends (`IBF_CAS_HOOK`) frees rows 0 and 2, then
//! returns `IBF_CONTENDED` with row 1 flagged. Built with gcc, every warning an error.

use crate::common;

use common::c_live_program::STRICT;
use common::tools::{run_ok, scratch};

#[test]
fn c_stale_claims_leave_the_newcomer_alone_and_a_contended_reload_tries_every_row() {
    let dir = scratch("c_sessions_relayout");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{root}/generated/bridge.h"), dir.join("bridge.h")).unwrap();
    std::fs::copy(
        format!("{root}/tests/c_sessions/relayout.c"),
        dir.join("relayout.c"),
    )
    .unwrap();
    let mut args = vec!["-std=c11"];
    args.extend(STRICT.split(' '));
    args.extend(["relayout.c", "-o", "relayout"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(dir.join("relayout").to_str().unwrap(), &[], &dir);
    // IBF_CONTENDED is 1. The first image's rows start at 0 (a new mapping): B's claim is
    // generation 1; a carrying re-layout writes row 0 at 2, so A's claim is 3.
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "stale carry=1 a=3 b=1",
            "stale carry=1 a=3 b=1",
            "stale carry=0 a=1 b=1",
            "stale carry=0 a=1 b=1",
            "contended reload rc=1 rows=0100",
        ]
    );
}
