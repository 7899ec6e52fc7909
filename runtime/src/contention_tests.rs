//! Every bounded compare-exchange loop against a peer that changes the word's other bytes
//! between each load and exchange (the test hook of `region::contention_hook`): each gives
//! up after `CAS_TRIES` tries with its named error and changes nothing, and a peer that
//! pauses before the bound lets it through. Deterministic: the "peer" is the hook.

use core::cell::Cell;
use core::sync::atomic::AtomicU64;
use core::sync::atomic::Ordering::{Relaxed, Release};

use crate::attach::Field;
use crate::claim::{self, ClaimSpec};
use crate::mailbox::{Mailbox, MailboxError, MailboxSpec};
use crate::region::contention_hook::HOOK;
use crate::{CAS_TRIES, Contended, SeqLock, SharedBuf};

std::thread_local! {
    /// Hook calls so far, and how many of them change the word (`u32::MAX`: all).
    static CALLS: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
}

/// The peer: flips the word's highest byte (bytes 7) on each of the first `limit` calls.
fn peer(word: &AtomicU64) {
    let (calls, limit) = CALLS.get();
    CALLS.set((calls + 1, limit));
    if calls < limit {
        word.fetch_xor(0xff << 56, Relaxed);
    }
}

/// Runs `f` with a peer that changes the word `limit` times; returns `f`'s result and the
/// exchanges tried (hook calls).
fn with_peer<R>(limit: u32, f: impl FnOnce() -> R) -> (R, u32) {
    CALLS.set((0, limit));
    HOOK.set(Some(peer));
    let result = f();
    HOOK.set(None);
    (result, CALLS.get().0)
}

const GIVE_UP: Contended = Contended { tries: CAS_TRIES };

#[test]
fn each_sub_word_operation_gives_up_after_the_bound_and_changes_nothing() {
    let buf = SharedBuf::from_bytes(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let r = buf.region();
    let lanes = |r: crate::Region<'_>| r.load::<u32>(0, Relaxed);
    let before = lanes(r);
    let (stored, tries) = with_peer(u32::MAX, || r.try_store::<u32>(0, 9, Release));
    assert_eq!((stored, tries), (Err(GIVE_UP), CAS_TRIES));
    assert_eq!(
        with_peer(u32::MAX, || r.try_swap::<u16>(2, 9, Release)).0,
        Err(GIVE_UP)
    );
    assert_eq!(
        with_peer(u32::MAX, || r.try_fetch_add::<u8>(1, 9, Release)).0,
        Err(GIVE_UP)
    );
    let cas = with_peer(u32::MAX, || r.try_compare_exchange::<u32>(0, before, 0)).0;
    assert_eq!(cas, Err(GIVE_UP));
    let byte = with_peer(u32::MAX, || r.compare_exchange_byte::<u32>(0, 0, 1, 0)).0;
    assert_eq!(byte, Err(GIVE_UP));
    let copy = with_peer(u32::MAX, || r.write_bytes(1, &[0, 0])).0;
    assert_eq!(copy, Err(GIVE_UP));
    assert_eq!(with_peer(u32::MAX, || r.zero(0, 3)).0, Err(GIVE_UP));
    assert_eq!(lanes(r), before, "the loops' own bytes are unchanged");
}

#[test]
fn a_peer_that_pauses_before_the_bound_lets_each_operation_through() {
    let buf = SharedBuf::new(8);
    let r = buf.region();
    let (stored, tries) = with_peer(CAS_TRIES - 1, || r.try_store::<u32>(0, 9, Release));
    assert_eq!((stored, tries), (Ok(()), CAS_TRIES));
    assert_eq!(r.load::<u32>(0, Relaxed), 9);
    let (copy, tries) = with_peer(5, || r.write_bytes(1, &[7, 7]));
    assert_eq!((copy, tries), (Ok(()), 6));
    assert_eq!(r.load::<u32>(0, Relaxed).to_ne_bytes(), [9, 7, 7, 0]);
}

#[test]
fn a_whole_word_store_makes_no_exchange() {
    let buf = SharedBuf::new(16);
    let r = buf.region();
    let ((), tries) = with_peer(u32::MAX, || r.try_store::<u64>(8, 5, Release).unwrap());
    assert_eq!(tries, 0);
    let (copy, tries) = with_peer(u32::MAX, || r.write_bytes(0, &[1; 16]));
    assert_eq!(
        (copy, tries),
        (Ok(()), 0),
        "a copy of whole words stores them"
    );
}

#[test]
fn a_seqlock_write_on_a_contended_counter_gives_up_without_running_its_closure() {
    let buf = SharedBuf::new(8);
    let lock = SeqLock::<u32>::new(buf.region(), 0);
    let mut ran = false;
    let (written, _) = with_peer(u32::MAX, || lock.write(|| ran = true));
    assert_eq!(written, Err(GIVE_UP));
    assert!(!ran, "the closure runs only once the counter is odd");
    assert_eq!(lock.load(), 0);
}

#[test]
fn the_hosts_retire_and_free_of_a_row_give_up_on_a_client_that_keeps_writing() {
    let buf = SharedBuf::new(8);
    let spec = ClaimSpec {
        state: 0,
        generation: 4,
        free: 0,
        claimed: 1,
        active: 2,
        closing: 3,
        word: None,
    };
    let row = buf.region();
    assert_eq!(
        with_peer(u32::MAX, || claim::retire(row, spec)).0,
        Err(GIVE_UP)
    );
    assert_eq!(
        with_peer(u32::MAX, || claim::free(row, spec)).0,
        Err(GIVE_UP)
    );
    assert_eq!(row.load::<u32>(0, Relaxed), 0, "state unchanged");
}

/// A mailbox whose fields are each alone in their word's half with another side's field:
/// each store is a bounded loop.
fn mailbox_spec(paired: bool) -> MailboxSpec {
    let (request_len, response_len) = if paired { (4, 16) } else { (12, 4) };
    MailboxSpec {
        request_seq: 0,
        request_len,
        response_seq: 8,
        status: if paired { 12 } else { 20 },
        response_len,
        response_total: if paired { 20 } else { 16 },
        request_capacity: Field {
            offset: 24,
            width: 4,
        },
        response_capacity: Field {
            offset: 28,
            width: 4,
        },
        area: 32,
    }
}

#[test]
fn a_mailbox_whose_fields_share_words_across_sides_gives_up_by_name() {
    let buf = SharedBuf::new(64);
    buf.region().try_store::<u32>(24, 16, Relaxed).unwrap();
    buf.region().try_store::<u32>(28, 16, Relaxed).unwrap();
    let mailbox = Mailbox::new(buf.region(), mailbox_spec(false)).unwrap();
    let (sent, _) = with_peer(u32::MAX, || mailbox.request(b"hi"));
    assert_eq!(sent, Err(MailboxError::Contended { tries: CAS_TRIES }));
}

#[test]
fn a_mailbox_whose_sides_own_whole_words_stores_them_without_an_exchange() {
    let buf = SharedBuf::new(64);
    buf.region().try_store::<u32>(24, 16, Relaxed).unwrap();
    buf.region().try_store::<u32>(28, 16, Relaxed).unwrap();
    let mailbox = Mailbox::new(buf.region(), mailbox_spec(true)).unwrap();
    // The request text (2 bytes and a NUL) is a partial word: its copy exchanges once.
    let (sent, tries) = with_peer(0, || mailbox.request(b"hi"));
    assert_eq!(
        (sent, tries),
        (Ok(1), 2),
        "the text and its NUL; not the fields"
    );
    let (served, tries) = with_peer(0, || mailbox.serve(|_| (7, b"12345678".to_vec())));
    assert_eq!((served, tries), (Ok(Some(1)), 0), "whole words only");
    let answer = mailbox.poll_response(1).unwrap().unwrap();
    assert_eq!(
        (answer.status, answer.text, answer.total),
        (7, b"12345678".to_vec(), 8)
    );
}
