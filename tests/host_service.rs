//! The host's service turn (issue 48, item 1), in C (`tests/c_service/turn.c` through the
//! generated bridge.h), Python (`tests/python_service/turn.py` under `python3 -W error`) and
//! Rust (`abi_runtime::service::Service` over the generated `ClientHost`, below),
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

mod rust {
    //! The same scenarios through the Rust turn (`abi_runtime::service::Service` over the
    //! generated `ClientHost`), printing the same lines as C and Python.

    use bridge_abi::live::{Bridge, Client, ClientHost, DrawList, LogQueueEntry};
    use bridge_abi::runtime::SharedBuf;
    use bridge_abi::runtime::directory::ProcessProbe;
    use bridge_abi::runtime::process_probe;
    use bridge_abi::runtime::service::{Callbacks, Counts, Reason, Service};
    use bridge_abi::{ClientState, DrawListHeader};

    const GEOMETRY: [(&str, u64); 2] = [
        ("mailbox.request_capacity", 256),
        ("mailbox.response_capacity", 256),
    ];

    /// What the callbacks saw.
    #[derive(Default)]
    struct Seen {
        logs: u64,
        lists: u64,
        last_list_seq: u64,
    }

    impl<'a> Callbacks<ClientHost<'a>> for Seen {
        fn answer(&mut self, _row: usize, text: Option<&[u8]>) -> (u32, Vec<u8>) {
            match text {
                None => (7, b"malformed".to_vec()),
                Some(t) => (1, [b"ans ".as_slice(), t].concat()),
            }
        }
        fn log(&mut self, _row: usize, _entry: LogQueueEntry) {
            self.logs += 1;
        }
        fn draw(&mut self, _row: usize, list: DrawList) {
            self.lists += 1;
            self.last_list_seq = u64::from(list.head.seq);
        }
        fn probe(&mut self, pid: u32) -> ProcessProbe {
            process_probe(pid)
        }
    }

    fn state(bridge: &Bridge<'_>, row: usize) -> ClientState {
        bridge.header().clients(row).unwrap().state()
    }

    /// A client on `row` with process id `pid`: claimed, filled, active.
    fn join<'a>(bridge: &Bridge<'a>, row: usize, pid: u32) -> Client<'a> {
        let c = bridge.claim_client(row).unwrap();
        c.row().set_pid(pid).unwrap();
        c.activate();
        c
    }

    /// One draw list numbered `seq` on `row`, by a writer new to the claim.
    fn publish(bridge: &Bridge<'_>, row: usize, seq: u32) {
        let block = bridge.bot_blocks(row).unwrap().unwrap();
        let mut w = block.draw_writer_unscoped().unwrap().unwrap();
        assert!(w.push(&Default::default(), &[]));
        let head = DrawListHeader {
            seq,
            ..Default::default()
        };
        w.publish(&head).unwrap();
    }

    fn line(what: &str, c: &Counts) -> String {
        format!("{what} {}", c.line())
    }

    fn request<'a>(
        bridge: &Bridge<'a>,
        row: usize,
        text: &[u8],
    ) -> bridge_abi::live::MailboxClient<'a> {
        let block = bridge.client_blocks(row).unwrap().unwrap();
        let mut m = block.mailbox_client_unscoped().unwrap().unwrap();
        m.request(text).unwrap();
        m
    }

    fn push_log(bridge: &Bridge<'_>, row: usize) {
        let block = bridge.client_blocks(row).unwrap().unwrap();
        let q = block.log_queue_writer_unscoped().unwrap().unwrap();
        assert!(
            !q.push(&Default::default(), b"t", b"line").unwrap(),
            "not dropped"
        );
    }

    #[test]
    fn rust_service_turn_serves_and_frees_by_the_policy_in_order() {
        let image = Bridge::lay_out(&GEOMETRY, 1).unwrap();
        let buf = SharedBuf::new(image.bytes.len());
        let bridge = Bridge::produce(buf.region(), &image).unwrap();
        let host = bridge.client_host();
        let mut service = Service::new(&host, 0);
        let mut cb = Seen::default();
        let me = std::process::id();
        let mut lines = Vec::new();

        // good: served, drained, taken; the goodbye frees the row; a new claim's first list
        // is taken at once.
        let a = join(&bridge, 0, me);
        let mut m = request(&bridge, 0, b"hi");
        push_log(&bridge, 0);
        push_log(&bridge, 0);
        publish(&bridge, 0, 1);
        service.turn(&host, &mut cb, 1000);
        let r = m.poll_response().unwrap().expect("answered");
        assert_eq!((r.status.0, r.text.as_slice()), (1, b"ans hi".as_slice()));
        assert_eq!((cb.logs, cb.lists, cb.last_list_seq), (2, 1, 1));
        a.close();
        service.turn(&host, &mut cb, 1000);
        assert_eq!(state(&bridge, 0), ClientState::FREE);
        let b = join(&bridge, 0, me);
        publish(&bridge, 0, 9);
        service.turn(&host, &mut cb, 1000);
        assert_eq!((cb.lists, cb.last_list_seq), (2, 9));
        lines.push(line("good", &service.counts));
        b.close();
        service.turn(&host, &mut cb, 1000);

        // hostile_seq: request_seq 5 past the answered one frees the row by the policy.
        service.counts = Counts::default();
        let _c = join(&bridge, 1, me);
        let block = bridge.client_blocks(1).unwrap().unwrap();
        let box1 = block.mailbox().unwrap();
        let answered = box1.response_seq();
        box1.set_request_seq(answered + 5).unwrap();
        service.turn(&host, &mut cb, 2000);
        assert_eq!(state(&bridge, 1), ClientState::FREE);
        assert_eq!(box1.response_seq(), answered + 5, "the free answered it");
        lines.push(line("hostile_seq", &service.counts));

        // bad_draw: row 2's draw state word is not a state.
        service.counts = Counts::default();
        let _d = join(&bridge, 2, me);
        let draw = bridge.bot_blocks(2).unwrap().unwrap().draw().unwrap();
        draw.set_state(0xff).unwrap();
        service.turn(&host, &mut cb, 3000);
        assert_eq!(state(&bridge, 2), ClientState::FREE);
        lines.push(line("bad_draw", &service.counts));

        // hung_dead_malformed: row 3 never heartbeats (pid 0), row 4's process is gone, row
        // 5's runs and heartbeats, and sends a request whose length is past its area.
        service.counts = Counts::default();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let _e = join(&bridge, 3, 0);
        let _f = join(&bridge, 4, gone);
        let live = join(&bridge, 5, me);
        let block = bridge.client_blocks(5).unwrap().unwrap();
        let box5 = block.mailbox().unwrap();
        let asked = box5.request_seq() + 1;
        box5.set_request_len(100_000).unwrap();
        box5.set_request_seq(asked).unwrap();
        service.turn(&host, &mut cb, 4000);
        assert_eq!(state(&bridge, 4), ClientState::FREE);
        assert_eq!(state(&bridge, 3), ClientState::ACTIVE);
        assert_eq!((box5.response_seq(), box5.status().0), (asked, 7));
        live.heartbeat(4000 + 2_000_000_000).unwrap();
        service.turn(&host, &mut cb, 4000 + 2_000_000_000);
        assert_eq!(state(&bridge, 3), ClientState::FREE);
        assert_eq!(state(&bridge, 5), ClientState::ACTIVE);
        lines.push(line("hung_dead_malformed", &service.counts));

        // alone: each step alone, in the turn's order, on row 6; then the reload frees rows
        // 5 and 6 and makes their readers new.
        service.counts = Counts::default();
        let g = join(&bridge, 6, me);
        let _m6 = request(&bridge, 6, b"x");
        push_log(&bridge, 6);
        publish(&bridge, 6, 1);
        assert_eq!(service.serve_row(&host, &mut cb, 6), None);
        service.drain_row(&host, &mut cb, 6);
        assert_eq!(service.take_row(&host, &mut cb, 6), None);
        assert_eq!(service.row_done(&host, &mut cb, 6, 5000), None);
        g.close();
        let done = service.row_done(&host, &mut cb, 6, 5000);
        assert_eq!(done, Some(Reason::Closing));
        service
            .free_row(&host, &mut cb, 6, Reason::Closing)
            .unwrap();
        let _h = join(&bridge, 6, me);
        service.reload(&host).unwrap();
        assert_eq!(state(&bridge, 5), ClientState::FREE);
        assert_eq!(state(&bridge, 6), ClientState::FREE);
        lines.push(line("alone", &service.counts));

        assert_eq!(lines, super::EXPECTED);
    }
}
