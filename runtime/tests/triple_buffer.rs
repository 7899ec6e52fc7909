//! The triple-buffer exchange of whole lists: the convention at the start, publish and
//! take, an overwritten list reported, a broken state as an error that changes nothing, and
//! a writer racing a reader that proves it raced (lists overwritten unread greater than 0),
//! never shows the reader a stale or torn list, and always lets it take the newest.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use abi_runtime::SharedBuf;
use abi_runtime::triple_buffer::{ExchangeError, FRESH, INITIAL_STATE, TripleReader, TripleWriter};

/// The state word at 0, then three lists of 64 bytes from 8.
const LIST: usize = 64;

fn buf() -> SharedBuf {
    let b = SharedBuf::new(8 + 3 * LIST);
    b.region()
        .try_store::<u32>(0, INITIAL_STATE, Ordering::Relaxed)
        .unwrap();
    b
}

fn fill(b: &SharedBuf, list: usize, n: u64) {
    b.region().write(8 + list * LIST, &[n; LIST / 8]).unwrap();
}

/// The list's number, or `None` when its words differ (torn).
fn number(b: &SharedBuf, list: usize) -> Option<u64> {
    let words: [u64; LIST / 8] = b.region().read(8 + list * LIST);
    words.iter().all(|&w| w == words[0]).then_some(words[0])
}

#[test]
fn publish_and_take_hand_whole_lists_over() {
    let b = buf();
    let mut w = TripleWriter::new(b.region(), 0);
    let mut r = TripleReader::new(b.region(), 0);
    assert_eq!((w.own(), r.own()), (0, 2), "the convention at the start");
    assert_eq!(r.take(), Ok(None), "nothing published yet");
    fill(&b, w.own(), 1);
    let p = w.publish().unwrap();
    assert_eq!((p.next, p.overwrote), (1, false));
    assert_eq!(b.region().load::<u32>(0, Ordering::Relaxed), FRESH);
    assert_eq!(r.take(), Ok(Some(0)));
    assert_eq!(number(&b, r.own()), Some(1));
    assert_eq!(r.take(), Ok(None), "taken once");
    // Two publications before a take: the first is overwritten, the reader gets the second.
    fill(&b, w.own(), 2);
    assert!(!w.publish().unwrap().overwrote);
    fill(&b, w.own(), 3);
    assert!(w.publish().unwrap().overwrote);
    let list = r.take().unwrap().unwrap();
    assert_eq!(number(&b, list), Some(3));
    // The three indices are always the three buffers.
    let shared = (b.region().load::<u32>(0, Ordering::Relaxed) & 3) as usize;
    let mut all = [w.own(), r.own(), shared];
    all.sort();
    assert_eq!(all, [0, 1, 2]);
}

#[test]
fn a_broken_state_is_an_error_and_changes_nothing() {
    for bad in [3u32, 3 | FRESH, 0x1_0001, 8] {
        let b = buf();
        b.region()
            .try_store::<u32>(0, bad, Ordering::Relaxed)
            .unwrap();
        let mut w = TripleWriter::new(b.region(), 0);
        let mut r = TripleReader::new(b.region(), 0);
        assert_eq!(w.publish(), Err(ExchangeError::State { found: bad }));
        assert_eq!(b.region().load::<u32>(0, Ordering::Relaxed), bad);
        if bad & FRESH != 0 || bad & !7 != 0 || bad & 3 == 3 {
            assert_eq!(r.take(), Err(ExchangeError::State { found: bad }));
        }
        assert_eq!(b.region().load::<u32>(0, Ordering::Relaxed), bad);
        assert_eq!((w.own(), r.own()), (0, 2));
    }
    // A state naming the caller's own buffer as shared: the other side broke the exchange.
    let b = buf();
    b.region()
        .try_store::<u32>(0, 0, Ordering::Relaxed)
        .unwrap();
    assert_eq!(
        TripleWriter::new(b.region(), 0).publish(),
        Err(ExchangeError::State { found: 0 })
    );
}

#[test]
fn a_writer_racing_a_reader_never_shows_a_stale_or_torn_list() {
    let total: u64 = if cfg!(miri) { 200 } else { 500_000 };
    let b = buf();
    let done = AtomicBool::new(false);
    let (overwrote, taken, bad, last) = thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut w = TripleWriter::new(b.region(), 0);
            let mut overwrote = 0u64;
            for n in 1..=total {
                fill(&b, w.own(), n);
                overwrote += u64::from(w.publish().unwrap().overwrote);
            }
            done.store(true, Ordering::Release);
            overwrote
        });
        let mut r = TripleReader::new(b.region(), 0);
        let (mut taken, mut bad, mut last) = (0u64, 0u64, 0u64);
        loop {
            let finished = done.load(Ordering::Acquire);
            match r.take().unwrap() {
                Some(list) => {
                    taken += 1;
                    match number(&b, list) {
                        Some(n) if n > last => last = n,
                        _ => bad += 1,
                    }
                }
                None if finished => break,
                None => thread::yield_now(),
            }
        }
        (writer.join().unwrap(), taken, bad, last)
    });
    eprintln!(
        "draw race: {total} published, {taken} taken, {bad} stale or torn, {overwrote} overwritten unread"
    );
    assert_eq!(bad, 0);
    assert_eq!(last, total, "the newest list is taken");
    assert_eq!(
        taken + overwrote,
        total,
        "each list taken or reported overwritten"
    );
    assert!(
        cfg!(miri) || overwrote > 0,
        "the writer must have lapped the reader"
    );
}

#[test]
fn each_initial_state_gives_each_side_a_buffer_of_its_own() {
    use abi_runtime::triple_buffer::starting_buffers;
    assert_eq!(starting_buffers(0), Ok((1, 2)));
    assert_eq!(starting_buffers(1), Ok((0, 2)));
    assert_eq!(starting_buffers(2), Ok((0, 1)));
    for bad in [3, FRESH, 1 | FRESH, 8] {
        assert_eq!(
            starting_buffers(bad),
            Err(ExchangeError::State { found: bad })
        );
    }
    for initial in 0..3u32 {
        let b = buf();
        b.region()
            .try_store::<u32>(0, initial, Ordering::Relaxed)
            .unwrap();
        let mut w = TripleWriter::starting_from(b.region(), 0, initial).unwrap();
        let mut r = TripleReader::starting_from(b.region(), 0, initial).unwrap();
        let mut all = [w.own(), r.own(), initial as usize];
        all.sort();
        assert_eq!(all, [0, 1, 2], "initial state {initial}");
        fill(&b, w.own(), 7);
        let p = w.publish().unwrap();
        assert_eq!(p.next, initial as usize);
        let list = r.take().unwrap().unwrap();
        assert_eq!(number(&b, list), Some(7));
    }
}

#[test]
fn a_peer_rewriting_the_state_nonstop_never_keeps_a_side_spinning() {
    // The peer flips the word between shared list 1 fresh and not fresh (naming neither
    // side's buffer: writer 0, reader 2): every compare-exchange can lose, and each call must still end,
    // with a list or a named error, never a spin without end.
    let calls: u32 = if cfg!(miri) { 20 } else { 2_000 };
    let b = buf();
    let stop = AtomicBool::new(false);
    let (contended, done) = thread::scope(|s| {
        s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                b.region()
                    .try_store::<u32>(0, 1 | FRESH, Ordering::Relaxed)
                    .unwrap();
                b.region()
                    .try_store::<u32>(0, 1, Ordering::Relaxed)
                    .unwrap();
            }
        });
        let (mut contended, mut done) = (0u32, 0u32);
        for _ in 0..calls {
            let mut r = TripleReader::new(b.region(), 0);
            let mut w = TripleWriter::new(b.region(), 0);
            for result in [r.take().map(|_| ()), w.publish().map(|_| ())] {
                match result {
                    Ok(()) => done += 1,
                    Err(e @ ExchangeError::Contended { .. }) => {
                        assert_eq!(e.check(), "exchange_contended");
                        contended += 1;
                    }
                    Err(e) => assert_eq!(e.check(), "exchange_state"),
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        (contended, done)
    });
    eprintln!("state rewritten nonstop: {done} calls ended with a list, {contended} contended");
    assert!(done > 0);
}
