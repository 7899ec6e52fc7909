//! loom models of a pad bind racing the host's free (`abi_runtime::pads`, issue 46 item 2),
//! with and without the row's next claim; the negative controls `pad_bind_recheck`,
//! `pad_bind_fence` and `pad_sweep_fence` each leave a bind on the freed row, which both
//! models catch.

use std::sync::atomic::Ordering::Acquire;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed as StdRelaxed};

use abi_runtime::SharedBuf;
use abi_runtime::claim::{self, Claim, Standing};
use abi_runtime::pads::{self, Bind, PadWord};
use loom::sync::Arc;
use loom::thread;

use super::{CLAIM, SPINS, model};

/// Executions of the pad model in which the client's re-check undid its bind (its swap
/// landed after the host's sweep: the race of issue 46), and in which the host's sweep let
/// the bind go (the swap came first).
static UNDONE: AtomicUsize = AtomicUsize::new(0);
static SWEPT: AtomicUsize = AtomicUsize::new(0);

/// The pads' owner word of the pad model: four owner bytes at 8, unbound 255.
const PADS: PadWord = PadWord {
    at: 8,
    count: 4,
    unbound: 255,
};

/// A pad bind racing the host's free (`abi_runtime::pads`): the client claims row 0 and binds
/// pad 1 (its claim's standing checked before the swap, and after it behind a SeqCst fence);
/// the host waits until the row is claimed, then retires it, sweeps its pads (behind its own
/// fence) and frees it. After both, the pad is never bound to the freed row: the sweep saw
/// the bind, or the client's re-check saw the retire and undid it. Both paths must be reached
/// (counted), so the model cannot pass without the race. The negative controls
/// `pad_bind_recheck` (no re-check), `pad_bind_fence` and `pad_sweep_fence` (one fence
/// dropped) leave a bind on the freed row in some execution.
#[test]
fn pad_bind_against_the_hosts_free() {
    model("pad bind against free", || {
        let mut bytes = [0u8; 16];
        bytes[8..12].copy_from_slice(&[255; 4]);
        let buf = Arc::new(SharedBuf::from_bytes(&bytes));
        let client = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let claim = Claim::try_claim(r.sub(0, 8, 8).unwrap(), CLAIM)?;
                let stands = || claim.standing() == Standing::Connected;
                Some(pads::bind::<u32, _>(r, PADS, 1, 0, stands).unwrap())
            })
        };
        // The host on a spawned thread too: neither side has seen the other's word yet.
        let host = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let row = r.sub(0, 8, 8).unwrap();
                for _ in 0..SPINS {
                    if claim::row_word(row, CLAIM).0 == CLAIM.claimed {
                        claim::retire(row, CLAIM).unwrap();
                        let swept = pads::sweep::<u32, _>(r, PADS, 0).unwrap();
                        claim::free(row, CLAIM).unwrap();
                        return Some(swept);
                    }
                    thread::yield_now();
                }
                None
            })
        };
        let freed = host.join().unwrap();
        let r = buf.region();
        let bound = client.join().unwrap();
        let owner = r.load::<u32>(8, Acquire).to_ne_bytes()[1];
        if let Some(swept) = freed {
            assert_ne!(
                owner, 0,
                "pad 1 is bound to the freed row 0 (bind {bound:?}, sweep let {swept} go)"
            );
            if swept > 0 {
                SWEPT.fetch_add(1, StdRelaxed);
            }
            if bound == Some(Bind::Lost { undone: true }) {
                UNDONE.fetch_add(1, StdRelaxed);
            }
        }
    });
    assert!(
        UNDONE.load(StdRelaxed) > 0 && SWEPT.load(StdRelaxed) > 0,
        "the race was not reached: {} undone binds, {} sweeps that let the bind go",
        UNDONE.load(StdRelaxed),
        SWEPT.load(StdRelaxed)
    );
}

/// Executions of the newcomer model in which the row's next client claimed the row.
static NEWCOMER: AtomicUsize = AtomicUsize::new(0);

/// The pad model with the row's next client: a stale client binds pad 1 of row 0 while the
/// host frees the row, and a newcomer claims row 0 as soon as it is free again and binds
/// nothing. Once all three are done, the pad is not bound to row 0: the newcomer never
/// inherits a pad it did not bind, whichever side (the stale client's undo or the host's
/// sweep) let the stale bind go. (The case this byte cannot tell apart, a newcomer that binds
/// the same pad before a stale undo lands, is in `abi_runtime::pads`'s docs.)
#[test]
fn pad_bind_against_a_free_and_the_rows_next_claim() {
    model("pad bind against free and a new claim", || {
        let mut bytes = [0u8; 16];
        bytes[8..12].copy_from_slice(&[255; 4]);
        let buf = Arc::new(SharedBuf::from_bytes(&bytes));
        let stale = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let claim = Claim::try_claim(r.sub(0, 8, 8).unwrap(), CLAIM)?;
                let stands = || claim.standing() == Standing::Connected;
                Some(pads::bind::<u32, _>(r, PADS, 1, 0, stands).unwrap())
            })
        };
        let host = {
            let buf = buf.clone();
            thread::spawn(move || {
                let r = buf.region();
                let row = r.sub(0, 8, 8).unwrap();
                for _ in 0..SPINS {
                    if claim::row_word(row, CLAIM).0 == CLAIM.claimed {
                        claim::retire(row, CLAIM).unwrap();
                        pads::sweep::<u32, _>(r, PADS, 0).unwrap();
                        claim::free(row, CLAIM).unwrap();
                        return true;
                    }
                    thread::yield_now();
                }
                false
            })
        };
        let newcomer = {
            let buf = buf.clone();
            thread::spawn(move || {
                let row = buf.region().sub(0, 8, 8).unwrap();
                for _ in 0..SPINS {
                    if claim::row_word(row, CLAIM) == (CLAIM.free, 1) {
                        return Claim::try_claim(row, CLAIM).map(|c| c.generation());
                    }
                    thread::yield_now();
                }
                None
            })
        };
        let bound = stale.join().unwrap();
        let freed = host.join().unwrap();
        let next = newcomer.join().unwrap();
        let owner = buf.region().load::<u32>(8, Acquire).to_ne_bytes()[1];
        if freed {
            assert_ne!(
                owner, 0,
                "pad 1 is bound to row 0, which its newcomer ({next:?}) did not bind (stale bind {bound:?})"
            );
            if next == Some(2) {
                NEWCOMER.fetch_add(1, StdRelaxed);
            }
        }
    });
    assert!(
        NEWCOMER.load(StdRelaxed) > 0,
        "no execution reached the newcomer's claim: the model checks nothing"
    );
}
