//! Sleeping until a word of a region changes, and waking who sleeps: the OS
//! objects an `[[event]]` names. On Linux a futex shared between processes on the event's
//! 4-byte word; on Windows (feature `mmap`) a named auto-reset event the host creates and a
//! client opens; elsewhere a bounded poll of the word. Every wait takes a deadline; a wake only
//! means "look again"; a timeout is a result, not an error.
//!
//! The waiting handshake ([`wait_tick`] and [`Setter::after_publish`]) needs a `SeqCst` fence
//! on both sides. The client stores `waiting = 1`, fences (F2), then loads the sequence and
//! sleeps only while it is the one it saw; the host publishes, fences (F1), then loads each
//! row's `waiting` and sets the event of the rows that wait. Without either fence both loads
//! may read the old values (the store-buffering pattern, which release and acquire do not
//! order), and the client sleeps through the tick: `tests/loom/wake.rs` catches it.

use std::time::Instant;

use crate::RegionError;
use crate::raw::{Access, ReadWrite, Region};
use crate::sync::{Ordering, fence};

/// What a wait came back with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// Woken, or the word no longer held what the caller saw: look again.
    Woken,
    /// The deadline passed.
    TimedOut,
}

/// What [`wait_tick`] found: the new sequence, or none by the deadline; and how many times
/// it slept in the OS (a wait that returned at once because the word had moved counts too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickWait {
    /// The sequence when it was no longer `last`; `None` when the deadline passed first.
    pub seq: Option<u64>,
    /// Waits made in the OS (futex or event).
    pub sleeps: u32,
    /// Whether the last wait ran to the deadline. With `seq: Some`, the sequence moved but
    /// no wake came before the deadline: a lost wake-up, which a test counts.
    pub timed_out: bool,
    /// Whether the wait ended because the waiting flag was not stored: the row is no longer
    /// the claim's (freed, claimed again, reloaded), so a stale client never writes the
    /// newcomer's flag. Nothing was written; ask the claim's standing.
    pub claim_lost: bool,
}

/// The waiter's side of an event: the word it sleeps on (and on Windows the event it opened).
#[derive(Debug)]
pub struct Sleeper<'a, A: Access = ReadWrite> {
    region: Region<'a, A>,
    offset: usize,
    #[cfg(all(windows, feature = "mmap"))]
    event: Option<crate::raw::named_event::NamedEvent>,
}

impl<'a, A: Access> Sleeper<'a, A> {
    /// Sleeps on the 4-byte word at `offset` of `region` (a futex on Linux; a poll of it
    /// elsewhere). Checks the word is inside the region.
    pub fn new(region: Region<'a, A>, offset: usize) -> Result<Self, RegionError> {
        let _ = region.slice(offset, 4)?;
        Ok(Sleeper {
            region,
            offset,
            #[cfg(all(windows, feature = "mmap"))]
            event: None,
        })
    }

    /// Sleeps on the named Windows event `name` (`Local\...`, which the host created),
    /// opened with `SYNCHRONIZE | EVENT_MODIFY_STATE`; the word at `offset` is what it
    /// re-checks.
    #[cfg(all(windows, feature = "mmap"))]
    pub fn open_named(region: Region<'a, A>, offset: usize, name: &str) -> std::io::Result<Self> {
        let mut s = Self::new(region, offset)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        s.event = Some(crate::raw::named_event::NamedEvent::open(name)?);
        Ok(s)
    }

    // No load of the word of its own: an event's word may be half of a wider atomic (the
    // bridge's tick event sleeps on `snapshot_seq`'s low half), which the program accesses
    // only at its own size; only the kernel's futex compare reads the 4 bytes.

    /// Sleeps while the word holds `seen`, until woken or `deadline`: returns at once when
    /// the word no longer holds it (Linux) or the event was set since the last wait (Windows).
    pub fn wait(&self, seen: u32, deadline: Instant) -> Waited {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return Waited::TimedOut;
        };
        #[cfg(all(windows, feature = "mmap"))]
        if let Some(event) = &self.event {
            return if event.wait(left) {
                Waited::Woken
            } else {
                Waited::TimedOut
            };
        }
        #[cfg(loom)]
        {
            let _ = left;
            if crate::raw::loom_futex::wait(&self.region, self.offset, seen) {
                Waited::Woken
            } else {
                Waited::TimedOut
            }
        }
        #[cfg(all(target_os = "linux", not(loom)))]
        {
            use crate::raw::futex::{FutexWait, wait};
            match wait(&self.region, self.offset, seen, left) {
                Ok(FutexWait::Woken) | Err(_) => Waited::Woken,
                Ok(FutexWait::TimedOut) => Waited::TimedOut,
            }
        }
        #[cfg(not(any(loom, target_os = "linux")))]
        {
            // No shared futex here: a bounded poll of the word, at most 1 ms asleep.
            let _ = (seen, &self.region, self.offset);
            std::thread::sleep(left.min(std::time::Duration::from_millis(1)));
            Waited::Woken
        }
    }
}

/// Sleeps while every word of `words` (a region, the word's offset, the value the caller saw
/// there) holds what the caller saw, until one is woken or `deadline`: the host's wait on an
/// event per row of which any may be set (the commands' event). Linux: one `futex_waitv`
/// (shared, Linux 5.16 or later) on them all, at once when one has moved; an older kernel,
/// and every other platform (no shared futex, or on Windows no named events opened here):
/// the first word's wait, or a poll, for at most 1 ms. A wake only means "look again";
/// no words is a sleep to the deadline (a host with no row to ask sleeps through its tick).
pub fn wait_any<A: Access>(words: &[(Region<'_, A>, usize, u32)], deadline: Instant) -> Waited {
    let Some(&(region, offset, seen)) = words.first() else {
        if let Some(left) = deadline.checked_duration_since(Instant::now()) {
            std::thread::sleep(left);
        }
        return Waited::TimedOut;
    };
    #[cfg(all(target_os = "linux", not(loom)))]
    {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return Waited::TimedOut;
        };
        match crate::raw::futex::waitv(words, left) {
            Ok(Some(crate::raw::futex::FutexWait::Woken)) | Err(_) => return Waited::Woken,
            Ok(Some(crate::raw::futex::FutexWait::TimedOut)) => return Waited::TimedOut,
            Ok(None) => {}
        }
    }
    let short = deadline.min(Instant::now() + std::time::Duration::from_millis(1));
    match Sleeper::new(region, offset) {
        Ok(sleeper) => match sleeper.wait(seen, short) {
            Waited::TimedOut if short < deadline => Waited::Woken,
            waited => waited,
        },
        Err(_) => Waited::Woken,
    }
}

/// The setter's side of an event: the word it changes (every row's, when the rows share
/// it) and on Windows one created event per row.
#[derive(Debug)]
pub struct Setter<'a> {
    region: Region<'a>,
    offset: usize,
    #[cfg(all(windows, feature = "mmap"))]
    events: Vec<crate::raw::named_event::NamedEvent>,
}

/// What [`Setter::after_publish`] did: the rows it set the event of, and the OS calls it made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Woke {
    /// Rows whose event was set.
    pub rows: usize,
    /// OS calls made: a futex wake for them all on Linux, a `SetEvent` per row on Windows.
    pub calls: usize,
}

impl<'a> Setter<'a> {
    /// Sets the event of the word at `offset` of `region`, which every row shares (a futex
    /// wake on Linux).
    pub fn new(region: Region<'a>, offset: usize) -> Result<Self, RegionError> {
        let _ = region.slice(offset, 4)?;
        Ok(Setter {
            region,
            offset,
            #[cfg(all(windows, feature = "mmap"))]
            events: Vec::new(),
        })
    }

    /// Creates one named auto-reset event per row (`names`, each `Local\...`), initially
    /// unset: the host does it before it marks the bridge running.
    #[cfg(all(windows, feature = "mmap"))]
    pub fn create_named(
        region: Region<'a>,
        offset: usize,
        names: &[String],
    ) -> std::io::Result<Self> {
        let mut s = Self::new(region, offset)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        for name in names {
            s.events
                .push(crate::raw::named_event::NamedEvent::create(name)?);
        }
        Ok(s)
    }

    /// After a publication (the word and what it guards already stored, release): the
    /// fence F1, then, for each of `rows` rows, `wants(row)` (a load of its `waiting`, or its
    /// `ticks` cap) and the event set for the rows that want it. No OS call for a row that
    /// does not want it; on Linux one futex wake for all of them.
    pub fn after_publish(&self, rows: usize, wants: impl Fn(usize) -> bool) -> Woke {
        if !crate::sync::mutated("wake_publish_fence") {
            fence(Ordering::SeqCst);
        }
        let mut woke = Woke::default();
        for row in 0..rows {
            if !wants(row) {
                continue;
            }
            woke.rows += 1;
            #[cfg(all(windows, feature = "mmap"))]
            if let Some(event) = self.events.get(row) {
                event.set();
                woke.calls += 1;
            }
        }
        #[cfg(all(target_os = "linux", not(loom)))]
        if woke.rows > 0 {
            let _ = crate::raw::futex::wake(&self.region, self.offset);
            woke.calls += 1;
        }
        #[cfg(loom)]
        if woke.rows > 0 {
            crate::raw::loom_futex::wake();
            woke.calls += 1;
        }
        let _ = (&self.region, self.offset);
        woke
    }
}

/// The waiter's handshake: sleeps until the sequence `load_seq` gives is no longer `last`, or
/// until `deadline`. Each round stores `waiting = 1` (`set_waiting(true)`), the fence F2,
/// loads the sequence: a new one ends the wait; else it sleeps on the event while its word
/// holds `last`'s low half, then stores `waiting = 0`. A wake only means "look again": each
/// round loads the sequence again, and the rounds end at the deadline. `set_waiting` says
/// whether it stored the flag: `false` (the row is no longer the claim's) ends the wait at
/// once with `claim_lost`, having slept no more.
pub fn wait_tick<A: Access, E>(
    sleeper: &Sleeper<'_, A>,
    last: u64,
    deadline: Instant,
    set_waiting: impl Fn(bool) -> Result<bool, E>,
    load_seq: impl Fn() -> u64,
) -> Result<TickWait, E> {
    let mut sleeps = 0;
    let lost = |sleeps| TickWait {
        seq: None,
        sleeps,
        timed_out: false,
        claim_lost: true,
    };
    loop {
        if !set_waiting(true)? {
            return Ok(lost(sleeps));
        }
        if !crate::sync::mutated("wake_wait_fence") {
            fence(Ordering::SeqCst);
        }
        let seq = load_seq();
        if seq != last {
            set_waiting(false)?;
            return Ok(TickWait {
                seq: Some(seq),
                sleeps,
                timed_out: false,
                claim_lost: false,
            });
        }
        sleeps += 1;
        let waited = sleeper.wait(last as u32, deadline);
        if !set_waiting(false)? {
            return Ok(lost(sleeps));
        }
        if waited == Waited::TimedOut {
            let seq = load_seq();
            return Ok(TickWait {
                seq: (seq != last).then_some(seq),
                sleeps,
                timed_out: true,
                claim_lost: false,
            });
        }
    }
}

/// The loom model's deadline (`tests/loom/wake.rs`): every sleeper wakes timed out.
#[cfg(loom)]
pub use crate::raw::loom_futex::deadline;
