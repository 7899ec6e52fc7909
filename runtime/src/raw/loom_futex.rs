//! The futex under loom (`cfg(loom)`, `tests/loom/wake.rs`): a model of the kernel's, a lock
//! (its hash bucket) under which a waiter loads the word and sleeps only while it holds the
//! value it saw, and under which a waker wakes every sleeper. A model's deadline is
//! [`deadline`]: from then on a wait that would sleep times out, and a sleeper wakes timed
//! out. No `unsafe`; in `raw` beside the real futex it stands for.

use loom::sync::{Condvar, Mutex};

use super::{Access, Region};
use crate::sync::Ordering;

/// Wakes so far, and whether the model's deadline passed.
struct State {
    wakes: u64,
    deadline: bool,
}

loom::lazy_static! {
    static ref FUTEX: (Mutex<State>, Condvar) =
        (Mutex::new(State { wakes: 0, deadline: false }), Condvar::new());
}

/// `FUTEX_WAIT`: true when woken or the word moved (look again), false at the deadline.
pub(crate) fn wait<A: Access>(region: &Region<'_, A>, offset: usize, expected: u32) -> bool {
    let (lock, cv) = &*FUTEX;
    let mut s = lock.lock().unwrap();
    if region.load::<u32>(offset, Ordering::Relaxed) != expected {
        return true;
    }
    let seen = s.wakes;
    while s.wakes == seen && !s.deadline {
        s = cv.wait(s).unwrap();
    }
    s.wakes != seen
}

/// `FUTEX_WAKE` of every sleeper.
pub(crate) fn wake() {
    let (lock, cv) = &*FUTEX;
    lock.lock().unwrap().wakes += 1;
    cv.notify_all();
}

/// The model's deadline: every sleeper wakes timed out, and later waits time out at once.
pub fn deadline() {
    let (lock, cv) = &*FUTEX;
    lock.lock().unwrap().deadline = true;
    cv.notify_all();
}
