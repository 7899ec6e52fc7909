//! The host's service turn: one call a tick serves every row of a session, in the
//! order `codegen/src/plan/service.rs` decides for every language (C
//! `<prefix>_host_service_turn`, Python `HostService`, Rust [`Service`]). The generated code
//! implements [`ServiceHost`] for a session's host type (thin: where each region is, the
//! plan's steps and policy as a [`Plan`]); the logic is here.
//!
//! Per row, in the plan's order: **serve** the mailbox (a malformed request too, answered
//! through [`Callbacks::answer`] with no text), **drain** the queue (at most
//! [`Plan::drain_max`] entries a turn), **take** the exchange's list, then free a row whose
//! client said goodbye (**closing**), one unchanged for the hung time (**hung**), or an
//! active one whose pid the probe says gone or created at another time than the first probe
//! of its claim saw (**dead**; pid 0 is never probed). A step result named in the plan's
//! policy (a hostile `request_seq`: `mailbox_sequence`, `mailbox_capacity`, a broken writer:
//! `exchange_state`) frees the row too ([`Reason::Policy`]). A free is always the plan's
//! [`FreeStep`]s: drain, free, drain, a new reader at once (a reader kept past a free refuses
//! the next claim's writer). Every loop is bounded: rows by [`ServiceHost::rows`], a drain
//! by `drain_max`.

use crate::directory::ProcessProbe;
use crate::hung::HungWatch;

/// One step of a row's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The mailbox, through [`Callbacks::answer`].
    Serve,
    /// The queue, into [`Callbacks::log`].
    Drain,
    /// The exchange's list, through [`Callbacks::draw`].
    Take,
    /// Free a row whose client said goodbye.
    Closing,
    /// Free a row unchanged for the hung time.
    Hung,
    /// Free an active row whose process is gone.
    Dead,
}

/// Why a row was freed: its index in [`Counts::freed`] (0 is none, as C's `_HOST_KEEP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Its client said goodbye.
    Closing = 1,
    /// Unchanged for the hung time.
    Hung = 2,
    /// Its process is gone.
    Dead = 3,
    /// A step's result the broken-client policy frees on.
    Policy = 4,
}

impl Reason {
    /// Every reason, in [`Counts::freed`]'s order.
    pub const ALL: [Reason; 4] = [Reason::Closing, Reason::Hung, Reason::Dead, Reason::Policy];

    /// Its name, as the counts of C and Python name it.
    pub fn name(self) -> &'static str {
        ["closing", "hung", "dead", "policy"][self as usize - 1]
    }
}

/// One step of a free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreeStep {
    /// Drain the row's queue.
    Drain,
    /// Free the row through the host's handle.
    Free,
    /// Make the row's reader new.
    NewReader,
}

/// A session's turn, as the plan printed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// A row's steps, in order.
    pub steps: &'static [Step],
    /// A free's steps, in order.
    pub free_steps: &'static [FreeStep],
    /// The serve's results (`check` names) that free a row.
    pub serve_policy: &'static [&'static str],
    /// The take's results that free a row.
    pub take_policy: &'static [&'static str],
    /// Queue entries drained from one row in one call.
    pub drain_max: u32,
}

/// A step's error: the result's name (`mailbox_sequence`, `exchange_state`, ...) and what it
/// said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepError {
    /// The result's snake_case name.
    pub check: &'static str,
    /// Its message.
    pub message: String,
}

macro_rules! step_error_from {
    ($($ty:ty => $check:expr),* $(,)?) => {$(
        impl From<$ty> for StepError {
            fn from(e: $ty) -> Self {
                let check: fn(&$ty) -> &'static str = $check;
                StepError { check: check(&e), message: e.to_string() }
            }
        }
    )*};
}

step_error_from! {
    crate::mailbox::MailboxError => |e| e.check(),
    crate::byte_queue::QueueError => |e| e.check(),
    crate::triple_buffer::ExchangeError => |e| e.check(),
    crate::AttachError => |e| e.check(),
    crate::Contended => |_| "contended",
    crate::claim::ReloadContended => |_| "contended",
}

impl core::fmt::Display for StepError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.check, self.message)
    }
}

impl std::error::Error for StepError {}

/// The host's answer to a request's text (`None`: malformed): its status and text.
pub type Answer<'f> = dyn FnMut(Option<&[u8]>) -> (u32, Vec<u8>) + 'f;

/// A row's words, as the host loaded them (the state with acquire).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowWords {
    /// Its client said goodbye.
    pub closing: bool,
    /// Its claim is active.
    pub active: bool,
    /// The claim's generation.
    pub generation: u32,
    /// The process id its client wrote (0: none, or the session has no `pid`).
    pub pid: u32,
}

/// A session's host side, as the turn uses it: implemented by the generated host type of a
/// session whose rows own blocks. Each region lookup checks its block; a row past the table
/// is `None` or `Ok(None)`, never a panic.
pub trait ServiceHost {
    /// A row's queue reader (`()` when the rows have no queue).
    type Queue;
    /// An entry it pops.
    type Entry;
    /// A row's exchange reader (`()` when the rows have no exchange).
    type Reader;
    /// A list it takes.
    type List;
    /// The turn, printed from the plan.
    const PLAN: Plan;
    /// The session's rows.
    fn rows(&self) -> usize;
    /// A watch with hung time `hung_ms` (0: the session's).
    fn watch(&self, hung_ms: u64) -> HungWatch;
    /// Serves row `row`'s mailbox when a request waits: `Some(malformed)` once answered.
    fn serve(&self, row: usize, answer: &mut Answer<'_>) -> Result<Option<bool>, StepError>;
    /// Row `row`'s queue reader, `None` when it has none.
    fn queue(&self, row: usize) -> Result<Option<Self::Queue>, StepError>;
    /// The queue's next entry.
    fn pop(queue: &mut Self::Queue) -> Result<Option<Self::Entry>, StepError>;
    /// A new reader of row `row`'s exchange, `None` when it has none.
    fn reader(&self, row: usize) -> Result<Option<Self::Reader>, StepError>;
    /// The reader's next list.
    fn take(reader: &mut Self::Reader) -> Result<Option<Self::List>, StepError>;
    /// Row `row`'s words, `None` for no such row.
    fn row(&self, row: usize) -> Option<RowWords>;
    /// Whether row `row` is hung at the host's monotonic `now_ns`.
    fn is_hung(&self, watch: &mut HungWatch, row: usize, now_ns: u64) -> bool;
    /// Frees row `row` through the host's handle.
    fn free(&self, row: usize) -> Result<(), StepError>;
    /// The host's reload: every row freed.
    fn reload(&self) -> Result<(), StepError>;
}

/// The host's callbacks; each has a default (an answer of status 0 and no text, nothing
/// logged or drawn, every process unknown: no pid is judged).
pub trait Callbacks<H: ServiceHost> {
    /// Row `row`'s request `text` (`None` for a malformed one, its length past its area):
    /// its answer's status and text (cut to the response area).
    fn answer(&mut self, row: usize, text: Option<&[u8]>) -> (u32, Vec<u8>) {
        let _ = (row, text);
        (0, Vec::new())
    }
    /// One entry of row `row`'s queue, in order.
    fn log(&mut self, row: usize, entry: H::Entry) {
        let _ = (row, entry);
    }
    /// One list of row `row`, taken.
    fn draw(&mut self, row: usize, list: H::List) {
        let _ = (row, list);
    }
    /// What is known of process `pid` (`abi_runtime::process_probe` with feature `mmap`).
    fn probe(&mut self, pid: u32) -> ProcessProbe {
        let _ = pid;
        ProcessProbe::Unknown
    }
}

impl<H: ServiceHost> Callbacks<H> for () {}

/// What turns did, added up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Requests answered.
    pub served: u64,
    /// Malformed requests answered.
    pub malformed: u64,
    /// Queue entries drained.
    pub drained: u64,
    /// Lists taken.
    pub taken: u64,
    /// Rows freed, by [`Reason`] as index (0 unused).
    pub freed: [u64; 5],
    /// Other results a step met.
    pub errors: u64,
    /// The last of them.
    pub last_error: Option<StepError>,
}

impl Counts {
    /// Rows freed for `reason`.
    pub fn freed(&self, reason: Reason) -> u64 {
        self.freed[reason as usize]
    }

    /// One line, as the tests of every language print it: `served=.. malformed=.. drained=..
    /// taken=.. closing=.. hung=.. dead=.. policy=.. errors=..`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "served={} malformed={} drained={} taken={}",
            self.served, self.malformed, self.drained, self.taken
        );
        for r in Reason::ALL {
            s += &format!(" {}={}", r.name(), self.freed(r));
        }
        s + &format!(" errors={}", self.errors)
    }
}

/// The host's per-tick state: the hung watch, each row's reader and the claim its probe
/// last saw, and the counts. Host-local.
pub struct Service<H: ServiceHost> {
    watch: HungWatch,
    readers: Vec<Option<H::Reader>>,
    probed: Vec<Option<(u32, u32, u64)>>,
    /// What its turns did.
    pub counts: Counts,
}

impl<H: ServiceHost> Service<H> {
    /// A service of `host`'s rows with hung time `hung_ms` (0: the session's).
    pub fn new(host: &H, hung_ms: u64) -> Self {
        let rows = host.rows();
        Service {
            watch: host.watch(hung_ms),
            readers: (0..rows).map(|_| None).collect(),
            probed: vec![None; rows],
            counts: Counts::default(),
        }
    }

    fn error(&mut self, e: StepError) {
        self.counts.errors += 1;
        self.counts.last_error = Some(e);
    }

    /// `Some(Policy)` when `e` is named in `policy`, else `None` (the error counted).
    fn refused(&mut self, e: StepError, policy: &[&str]) -> Option<Reason> {
        if policy.contains(&e.check) {
            return Some(Reason::Policy);
        }
        self.error(e);
        None
    }

    /// Serves row `row`'s mailbox: `Some(Policy)` when the row must be freed.
    pub fn serve_row(
        &mut self,
        host: &H,
        cb: &mut impl Callbacks<H>,
        row: usize,
    ) -> Option<Reason> {
        match host.serve(row, &mut |text| cb.answer(row, text)) {
            Ok(Some(true)) => self.counts.malformed += 1,
            Ok(Some(false)) => self.counts.served += 1,
            Ok(None) => {}
            Err(e) => return self.refused(e, H::PLAN.serve_policy),
        }
        None
    }

    /// Drains row `row`'s queue into [`Callbacks::log`], at most [`Plan::drain_max`] entries.
    pub fn drain_row(&mut self, host: &H, cb: &mut impl Callbacks<H>, row: usize) {
        let mut queue = match host.queue(row) {
            Ok(Some(q)) => q,
            Ok(None) => return,
            Err(e) => return self.error(e),
        };
        for _ in 0..H::PLAN.drain_max {
            match H::pop(&mut queue) {
                Ok(Some(entry)) => {
                    self.counts.drained += 1;
                    cb.log(row, entry);
                }
                Ok(None) => return,
                Err(e) => return self.error(e),
            }
        }
    }

    /// Takes row `row`'s list through [`Callbacks::draw`]: `Some(Policy)` when the row must
    /// be freed.
    pub fn take_row(&mut self, host: &H, cb: &mut impl Callbacks<H>, row: usize) -> Option<Reason> {
        let slot = self.readers.get_mut(row)?;
        if slot.is_none() {
            match host.reader(row) {
                Ok(r) => *slot = r,
                Err(e) => return self.refused(e, H::PLAN.take_policy),
            }
        }
        let reader = slot.as_mut()?;
        match H::take(reader) {
            Ok(Some(list)) => {
                self.counts.taken += 1;
                cb.draw(row, list);
                None
            }
            Ok(None) => None,
            Err(e) => self.refused(e, H::PLAN.take_policy),
        }
    }

    /// Whether row `row` is done by one of `step` (closing, hung, dead), at `now_ns`.
    fn done_by(
        &mut self,
        host: &H,
        cb: &mut impl Callbacks<H>,
        row: usize,
        step: Step,
        now_ns: u64,
    ) -> Option<Reason> {
        let words = host.row(row)?;
        match step {
            Step::Closing => words.closing.then_some(Reason::Closing),
            Step::Hung => host
                .is_hung(&mut self.watch, row, now_ns)
                .then_some(Reason::Hung),
            Step::Dead if words.active && words.pid != 0 => {
                let seen = self.probed.get_mut(row)?;
                match cb.probe(words.pid) {
                    ProcessProbe::Gone => Some(Reason::Dead),
                    ProcessProbe::Running(created) => {
                        let claim = (words.generation, words.pid);
                        if seen.is_some_and(|(g, p, c)| (g, p) == claim && c != created) {
                            return Some(Reason::Dead);
                        }
                        *seen = Some((claim.0, claim.1, created));
                        None
                    }
                    ProcessProbe::Unknown => None,
                }
            }
            _ => None,
        }
    }

    /// Whether row `row` is done, by the plan's closing, hung and dead steps in order.
    pub fn row_done(
        &mut self,
        host: &H,
        cb: &mut impl Callbacks<H>,
        row: usize,
        now_ns: u64,
    ) -> Option<Reason> {
        (H::PLAN.steps.iter()).find_map(|&step| self.done_by(host, cb, row, step, now_ns))
    }

    /// Frees row `row` for `reason`: the plan's free steps (drain, free, drain, new reader),
    /// counted in [`Counts::freed`]. The free's error (a later free goes on) stops it.
    pub fn free_row(
        &mut self,
        host: &H,
        cb: &mut impl Callbacks<H>,
        row: usize,
        reason: Reason,
    ) -> Result<(), StepError> {
        if row >= self.readers.len() {
            return Err(StepError {
                check: "session_row",
                message: format!("row {row} of {}", self.readers.len()),
            });
        }
        for step in H::PLAN.free_steps {
            match step {
                FreeStep::Drain => self.drain_row(host, cb, row),
                FreeStep::Free => host.free(row).inspect_err(|e| self.error(e.clone()))?,
                FreeStep::NewReader => {
                    self.readers[row] = None;
                    self.probed[row] = None;
                }
            }
        }
        self.counts.freed[reason as usize] += 1;
        Ok(())
    }

    /// One turn over every row at the host's monotonic `now_ns`: per row the plan's steps,
    /// the row freed by the first that says so. The counts, added to.
    pub fn turn(&mut self, host: &H, cb: &mut impl Callbacks<H>, now_ns: u64) -> &Counts {
        for row in 0..self.readers.len() {
            let mut reason = None;
            for &step in H::PLAN.steps {
                if reason.is_some() {
                    break;
                }
                reason = match step {
                    Step::Serve => self.serve_row(host, cb, row),
                    Step::Drain => {
                        self.drain_row(host, cb, row);
                        None
                    }
                    Step::Take => self.take_row(host, cb, row),
                    done => self.done_by(host, cb, row, done, now_ns),
                };
            }
            if let Some(reason) = reason {
                // Counted in errors by free_row; the next turn frees it again.
                let _ = self.free_row(host, cb, row, reason);
            }
        }
        &self.counts
    }

    /// The host's reload, then a new reader for every row (each was freed).
    pub fn reload(&mut self, host: &H) -> Result<(), StepError> {
        let done = host.reload();
        self.readers.iter_mut().for_each(|r| *r = None);
        self.probed.iter_mut().for_each(|p| *p = None);
        done
    }
}
