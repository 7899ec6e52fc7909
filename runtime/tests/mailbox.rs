//! The one-request-at-a-time mailbox: a round trip, a cut answer, a busy client, a request
//! too long, a broken peer's capacities, lengths and counters as named errors, and a client
//! racing a server (threads) that proves it raced (polls that found no answer yet greater
//! than 0) and matches every answer to its request.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::thread;

use abi_runtime::SharedBuf;
use abi_runtime::mailbox::{Mailbox, MailboxError, MailboxSpec};

use crate::bridge_specs;

/// The bridge's `mailbox_header` (64 bytes), then the areas.
const SPEC: MailboxSpec = bridge_specs::MAILBOX;

fn mailbox_buf(request: u32, response: u32) -> SharedBuf {
    let buf = SharedBuf::new(64 + (request + response) as usize);
    buf.region()
        .try_store::<u32>(24, request, std::sync::atomic::Ordering::Relaxed)
        .unwrap();
    buf.region()
        .try_store::<u32>(28, response, std::sync::atomic::Ordering::Relaxed)
        .unwrap();
    buf
}

#[test]
fn a_round_trip_a_cut_answer_and_a_busy_client() {
    let buf = mailbox_buf(32, 16);
    let m = Mailbox::new(buf.region(), SPEC).unwrap();
    assert_eq!(m.serve(|_| unreachable!()), Ok(None), "no request yet");
    let seq = m.request(b"sim.pause").unwrap();
    assert_eq!(seq, 1);
    assert_eq!(m.request(b"again"), Err(MailboxError::Busy));
    assert_eq!(m.poll_response(seq), Ok(None));
    let served = m.serve(|text| {
        assert_eq!(text, b"sim.pause");
        (0, b"paused".to_vec())
    });
    assert_eq!(served, Ok(Some(1)));
    let r = m.poll_response(seq).unwrap().unwrap();
    assert_eq!(
        (r.status, r.text.as_slice(), r.cut()),
        (0, &b"paused"[..], false)
    );
    // An answer longer than the response area is cut, and says so.
    let seq = m.request(b"list").unwrap();
    m.serve(|_| (7, vec![b'x'; 40])).unwrap();
    let r = m.poll_response(seq).unwrap().unwrap();
    assert_eq!(
        (r.status, r.text.len(), r.total, r.cut()),
        (7, 16, 40, true)
    );
    // A request must leave one byte of its area.
    assert_eq!(
        m.request(&[b'a'; 32]),
        Err(MailboxError::TooLong { len: 32, limit: 31 })
    );
    assert!(m.request(&[b'a'; 31]).is_ok());
}

#[test]
fn a_broken_peer_is_a_named_error() {
    for (request, response, len) in [(0u32, 16u32, 64usize), (32, 0, 64), (32, 64, 64)] {
        let buf = SharedBuf::new(64 + len);
        buf.region()
            .try_store::<u32>(24, request, std::sync::atomic::Ordering::Relaxed)
            .unwrap();
        buf.region()
            .try_store::<u32>(28, response, std::sync::atomic::Ordering::Relaxed)
            .unwrap();
        let err = Mailbox::new(buf.region(), SPEC).unwrap_err();
        assert_eq!(err.check(), "mailbox_capacity", "{request} {response}");
    }
    let buf = mailbox_buf(32, 16);
    let r = buf.region();
    let m = Mailbox::new(r, SPEC).unwrap();
    use std::sync::atomic::Ordering::Relaxed;
    // The server sees a request length past its area, and a counter that jumped.
    r.try_store::<u32>(0, 1, Relaxed).unwrap();
    r.try_store::<u32>(4, 32, Relaxed).unwrap();
    assert_eq!(
        m.serve(|_| unreachable!()),
        Err(MailboxError::Length {
            field: "request_len",
            found: 32,
            limit: 31
        })
    );
    r.try_store::<u32>(0, 5, Relaxed).unwrap();
    assert_eq!(
        m.serve(|_| unreachable!()).unwrap_err().check(),
        "mailbox_sequence"
    );
    // The client sees a response length past its area.
    r.try_store::<u32>(8, 5, Relaxed).unwrap();
    r.try_store::<u32>(16, 17, Relaxed).unwrap();
    assert_eq!(m.poll_response(5).unwrap_err().check(), "mailbox_length");
}

/// Sets its flag when dropped, a panic's unwinding included: the side that waits for its
/// peer stops waiting when the peer is gone, so a peer's panic fails the test instead of
/// hanging it.
struct GoneOnDrop<'a>(&'a AtomicBool);

impl Drop for GoneOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Release);
    }
}

#[test]
fn a_client_racing_a_server_gets_each_answer_to_its_own_request() {
    let requests: u32 = if cfg!(miri) { 30 } else { 20_000 };
    let buf = mailbox_buf(64, 64);
    let (server_gone, client_gone) = (AtomicBool::new(false), AtomicBool::new(false));
    let (answered, wrong, waits) = thread::scope(|s| {
        s.spawn(|| {
            let _gone = GoneOnDrop(&server_gone);
            let m = Mailbox::new(buf.region(), SPEC).unwrap();
            let mut served = 0;
            while served < requests {
                assert!(!client_gone.load(Relaxed), "the client is gone");
                match m.serve(|text| {
                    let n: u32 = std::str::from_utf8(text).unwrap()[4..].parse().unwrap();
                    (n, format!("answer {n}").into_bytes())
                }) {
                    Ok(Some(_)) => served += 1,
                    Ok(None) => thread::yield_now(),
                    Err(e) => panic!("{e}"),
                }
            }
        });
        let _gone = GoneOnDrop(&client_gone);
        let m = Mailbox::new(buf.region(), SPEC).unwrap();
        let (mut answered, mut wrong, mut waits) = (0u32, 0u32, 0u64);
        for n in 0..requests {
            let seq = m.request(format!("req {n}").as_bytes()).unwrap();
            let r = loop {
                match m.poll_response(seq).unwrap() {
                    Some(r) => break r,
                    None => {
                        // A server that ended had answered first (its flag is stored after):
                        // one more poll sees that answer, or the server is gone unanswered.
                        if server_gone.load(Acquire) {
                            match m.poll_response(seq).unwrap() {
                                Some(r) => break r,
                                None => panic!("the server is gone, request {seq} unanswered"),
                            }
                        }
                        waits += 1;
                        thread::yield_now();
                    }
                }
            };
            answered += 1;
            if r.seq != seq || r.status != n || r.text != format!("answer {n}").into_bytes() {
                wrong += 1;
            }
        }
        (answered, wrong, waits)
    });
    eprintln!(
        "mailbox race: {requests} requests, {answered} answered, {wrong} wrong answers, {waits} polls waited"
    );
    assert_eq!((answered, wrong), (requests, 0));
    assert!(waits > 0, "the client must have waited for the server");
}
