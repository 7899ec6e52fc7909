//! Issue 48, item 5: a re-layout in one call keeps the host's own fields, in each language
//! (C `ibf_relayout`, Python `relayout`, Rust `Bridge::relayout`). Each lays out the bridge
//! with 8 ring slots, produces it, sets the fields the plan keeps (`codegen/src/plan/relayout.rs`:
//! `controls`, `run_mode`, `sim_state`, `lockstep_timeout_ms`, and a `pad_not_bot` mark beside
//! a row's claim of another pad), re-lays it out with 16 slots, and reads the new image: the
//! slots changed, every kept field survived, the claim's pad is unbound again.

use crate::common;

use common::c_live_program::STRICT;
use common::tools::{run_ok, scratch};

/// What each language prints after the re-layout.
const EXPECTED: [&str; 4] = [
    "relayout rc=0 ring_slots=16 generation=2",
    "controls move=2 min_press_ticks=3 pause=1024 back=2048",
    "run_mode=1 sim_state=1 lockstep_timeout_ms=1234",
    "pad_owner 254 255 255 255",
];

#[test]
fn c_relayout_keeps_the_hosts_fields() {
    let dir = scratch("relayout_keeps_c");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{root}/generated/bridge.h"), dir.join("bridge.h")).unwrap();
    std::fs::copy(
        format!("{root}/tests/relayout_keeps/keeps.c"),
        dir.join("keeps.c"),
    )
    .unwrap();
    let mut args = vec!["-std=c11"];
    args.extend(STRICT.split(' '));
    args.extend(["keeps.c", "-o", "keeps"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(dir.join("keeps").to_str().unwrap(), &[], &dir);
    assert_eq!(out.lines().collect::<Vec<_>>(), EXPECTED);
}

#[test]
fn python_relayout_keeps_the_hosts_fields() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("python3")
        .args([
            "-B",
            "-W",
            "error",
            &format!("{root}/tests/relayout_keeps/keeps.py"),
        ])
        .env("PYTHONPATH", format!("{root}/generated"))
        .output()
        .unwrap_or_else(|e| panic!("python3 is required for this test but could not be run: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.lines().collect::<Vec<_>>(), EXPECTED);
}

#[test]
fn rust_relayout_keeps_the_hosts_fields() {
    use bridge_abi::live::Bridge;
    use bridge_abi::runtime::SharedBuf;
    use bridge_abi::{ControlStick, Controls, PadButtons, RunMode, SimState};

    let geometry = |slots| {
        [
            ("bridge_header.ring_slots", slots),
            ("mailbox.request_capacity", 256),
            ("mailbox.response_capacity", 256),
        ]
    };
    let one = Bridge::lay_out(&geometry(8), 1).unwrap();
    let mut two = Bridge::lay_out(&geometry(16), 1).unwrap();
    let buf = SharedBuf::new(one.bytes.len().max(two.bytes.len()));
    let host = Bridge::produce(buf.region(), &one).unwrap();
    let h = host.header();
    let controls = Controls {
        r#move: ControlStick::DPAD,
        min_press_ticks: 3,
        pause: PadButtons(0x400),
        back: PadButtons(0x800),
        ..Controls::default()
    };
    h.set_controls(controls).unwrap().unwrap();
    h.set_lockstep_timeout_ms(1234).unwrap().unwrap();
    h.set_run_mode(RunMode::LOCKSTEP).unwrap().unwrap();
    h.set_sim_state(SimState::PAUSED).unwrap().unwrap();
    let (no_pad, not_bot) = (bridge_abi::NO_PAD, bridge_abi::PAD_NOT_BOT);
    h.compare_exchange_pad_owner_at(0, no_pad, not_bot)
        .unwrap()
        .unwrap();
    h.compare_exchange_pad_owner_at(1, no_pad, 3)
        .unwrap()
        .unwrap(); // row 3's claim
    let host = Bridge::relayout(buf.region(), &mut two).unwrap();
    let h = host.header();
    let c = h.controls().unwrap();
    let pads: Vec<String> = h.pad_owner().iter().map(u8::to_string).collect();
    let lines = [
        format!(
            "relayout rc=0 ring_slots={} generation={}",
            h.ring_slots(),
            h.host_generation()
        ),
        format!(
            "controls move={} min_press_ticks={} pause={} back={}",
            c.r#move.0, c.min_press_ticks, c.pause.0, c.back.0
        ),
        format!(
            "run_mode={} sim_state={} lockstep_timeout_ms={}",
            h.run_mode().unwrap().0,
            h.sim_state().unwrap().0,
            h.lockstep_timeout_ms().unwrap()
        ),
        format!("pad_owner {}", pads.join(" ")),
    ];
    assert_eq!(lines, EXPECTED);
}
