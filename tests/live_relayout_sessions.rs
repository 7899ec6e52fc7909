//! Issue 46, item 1: a claim made on the old image never moves the newcomer's row after a
//! re-layout. `produce` carries every session row's generation past the mapping's (so the
//! newcomer's claim gets a generation no old claim holds), and each client move checks the
//! host's generation before its compare-and-swap (so a producer that does not carry them, an
//! older or hand-written one, is still refused). Both with the same geometry and a new one.
//! And the reload policy: a reload whose free of a row is contended tries every row, then
//! names the rows it freed and the rows it could not.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};

use bridge_abi::ClientState;
use bridge_abi::live::{Bridge, Client, ClientStanding};
use bridge_abi::runtime::SharedBuf;
use bridge_abi::runtime::claim::{Claim, ReloadContended, Standing, row_word};

const GEOMETRY: [(&str, u64); 2] = [
    ("mailbox.request_capacity", 256),
    ("mailbox.response_capacity", 256),
];
const NEW_GEOMETRY: [(&str, u64); 2] = [
    ("mailbox.request_capacity", 512),
    ("mailbox.response_capacity", 128),
];

/// Row `i`'s (state, generation), one load of their word.
fn row(bridge: &Bridge<'_>, i: usize) -> (u32, u32) {
    row_word(bridge.header().clients(i).unwrap().region(), Client::SPEC)
}

/// The mapping, sized for either geometry, with an image of the first at generation 1
/// (written by a producer that carries no row generations unless `carry`).
fn mapping(carry: bool) -> SharedBuf {
    let mut first = Bridge::lay_out(&GEOMETRY, 1).unwrap();
    if !carry {
        first.sessions.clear();
    }
    let second = Bridge::lay_out(&NEW_GEOMETRY, 1).unwrap();
    let buf = SharedBuf::new(first.bytes.len().max(second.bytes.len()));
    Bridge::produce(buf.region(), &first).unwrap();
    buf
}

/// The sequence: B claims row 0 on the first image, the host lays out `geometry`
/// again over the mapping (asking for generation 1 again), A claims row 0 on the new image;
/// B's activate and close must leave A's row as it was, A still connected.
fn stale_moves_leave_the_newcomer_alone(geometry: &[(&str, u64)], carry: bool) {
    let buf = mapping(carry);
    let old = Bridge::attach(buf.region()).unwrap();
    let b = old.claim_client(0).unwrap();
    // B's claim as the runtime holds it: the row and B's generation, no host check.
    let b_raw = Claim::try_claim(old.header().clients(1).unwrap().region(), Client::SPEC).unwrap();
    let mut image = Bridge::lay_out(geometry, 1).unwrap();
    if !carry {
        // A producer that does not carry the rows' generations (an older one).
        image.sessions.clear();
    }
    let new = Bridge::produce(buf.region(), &image).unwrap();
    assert_ne!(new.generation(), old.generation(), "a reload");
    let a = new.claim_client(0).unwrap();
    let a1 = new.claim_client(1).unwrap();
    if carry {
        assert!(
            a.generation() > b.generation() && a1.generation() > b_raw.generation(),
            "the rows' generations went past the old image's: A {} / B {}",
            a.generation(),
            b.generation()
        );
        // Without any host check, B's claim of row 1 cannot move A's.
        assert!(matches!(b_raw.activate(), Standing::Disconnected { .. }));
        assert_eq!(row(&new, 1), (1, a1.generation()), "row 1 still A's claim");
        assert!(matches!(b_raw.close(), Standing::Disconnected { .. }));
        assert_eq!(row(&new, 1), (1, a1.generation()), "row 1 still A's claim");
    } else {
        assert_eq!(a.generation(), b.generation(), "the same generation again");
    }
    let a_row = row(&new, 0);
    assert_eq!(a_row, (1, a.generation()), "A's claim");
    assert_eq!(b.activate(), ClientStanding::Reloaded);
    assert_eq!(row(&new, 0), a_row, "B's activate moved A's row");
    assert_eq!(a.activate(), ClientStanding::Connected);
    let a_row = row(&new, 0);
    assert_eq!(b.close(), ClientStanding::Reloaded);
    assert_eq!(row(&new, 0), a_row, "B's close moved A's row");
    assert_eq!(a.standing(), ClientStanding::Connected);
    assert_eq!(a.close(), ClientStanding::Connected);
}

#[test]
fn a_relayout_carries_row_generations_so_a_stale_claim_never_moves_the_newcomers_row() {
    stale_moves_leave_the_newcomer_alone(&GEOMETRY, true);
    stale_moves_leave_the_newcomer_alone(&NEW_GEOMETRY, true);
}

#[test]
fn a_stale_move_is_refused_on_the_host_generation_before_its_swap() {
    stale_moves_leave_the_newcomer_alone(&GEOMETRY, false);
    stale_moves_leave_the_newcomer_alone(&NEW_GEOMETRY, false);
}

/// The address of the word the peer contends, and how often it did.
static TARGET: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// The peer (`abi_runtime::contention::set_hook`): flips the top bit of the target word
/// whenever a loop is about to exchange it.
fn peer(word: &AtomicU64) {
    if core::ptr::from_ref(word).addr() == TARGET.load(Relaxed) {
        CALLS.fetch_add(1, Relaxed);
        word.fetch_xor(1 << 63, Relaxed);
    }
}

/// The reload policy: rows 0, 1 and 2 in use, a peer writes row 1's word nonstop. The reload
/// bumps the host's generation, frees rows 0 and 2, and after every row was tried says which
/// were freed and which not; a later free of row 1 goes on.
#[test]
fn a_reload_whose_free_is_contended_tries_every_row_then_names_them() {
    let image = Bridge::lay_out(&GEOMETRY, 1).unwrap();
    let buf = SharedBuf::new(image.bytes.len());
    let bridge = Bridge::produce(buf.region(), &image).unwrap();
    let host = bridge.client_host();
    let claims: Vec<Client<'_>> = (0..3)
        .map(|i| {
            let c = bridge.claim_client(i).unwrap();
            assert_eq!(c.activate(), ClientStanding::Connected);
            c
        })
        .collect();
    let before = bridge.header().host_generation();
    let row1 = bridge.header().clients(1).unwrap().region();
    TARGET.store(row1.as_ptr().addr(), Relaxed);
    CALLS.store(0, Relaxed);
    bridge_abi::runtime::contention::set_hook(Some(peer));
    let reloaded = host.reload();
    bridge_abi::runtime::contention::set_hook(None);
    assert_eq!(
        reloaded,
        Err(ReloadContended {
            freed: vec![0, 2],
            contended: vec![1],
        })
    );
    assert_eq!(CALLS.load(Relaxed), bridge_abi::runtime::CAS_TRIES as usize);
    assert_eq!(bridge.header().host_generation(), before + 1);
    let states: Vec<u32> = (0..4).map(|i| row(&bridge, i).0).collect();
    assert_eq!(states, [0, 2, 0, 0], "rows 0 and 2 freed, row 1 as it was");
    assert_eq!(claims[1].standing(), ClientStanding::Reloaded);
    assert_eq!(
        host.free(1).unwrap(),
        Some(ClientState::ACTIVE),
        "a later free"
    );
}
