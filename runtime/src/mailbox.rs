//! A mailbox of one request at a time between a client and a server (the bridge's command
//! mailbox): the request's text and length, then `request_seq` bumped with release; the
//! answer's status, lengths and text, then `response_seq` = the request answered, stored
//! with release. Each side loads the other's counter with acquire before it reads what was
//! written before it. An answer is matched to its request by number, so a stale answer is
//! never taken for a new one (iceoryx2's lesson). Every length the other side wrote is
//! checked against the capacities before a byte is copied.

use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};

use crate::raw::{Region, Writable};
use crate::spec::Field;
pub use crate::spec::GeometryFrom;

/// Where a mailbox keeps its fields (all `u32`), from the start of its header, and where
/// its areas start: the request area at `area`, the response area right after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailboxSpec {
    /// The client's: bumped after each request.
    pub request_seq: usize,
    /// The request's bytes.
    pub request_len: usize,
    /// The server's: the `request_seq` answered.
    pub response_seq: usize,
    /// The server's status of the answer.
    pub status: usize,
    /// The answer's bytes in the response area.
    pub response_len: usize,
    /// The whole answer's bytes: more than `response_len` when it was cut.
    pub response_total: usize,
    /// The request area's bytes.
    pub request_capacity: Field,
    /// The response area's bytes.
    pub response_capacity: Field,
    /// Where the request area starts, from the header's start.
    pub area: usize,
}

/// What a mailbox's other side wrote that cannot be right, or a call out of turn.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MailboxError {
    /// The areas do not fit the region, or one is empty.
    Capacity {
        /// The request area's capacity.
        request: u64,
        /// The response area's.
        response: u64,
        /// The bytes the region has for both.
        room: u64,
    },
    /// A length past its area (a request's must leave one byte: at most capacity - 1).
    Length {
        /// Which: `request_len`, `response_len`.
        field: &'static str,
        /// The length.
        found: u64,
        /// At most.
        limit: u64,
    },
    /// A request is already waiting for its answer.
    Busy,
    /// The request text does not fit the request area (at most capacity - 1 bytes).
    TooLong {
        /// Its length.
        len: usize,
        /// At most.
        limit: u64,
    },
    /// The counters cannot be right: the answer names a request that was never made.
    Sequence {
        /// `request_seq`.
        request: u32,
        /// `response_seq`.
        response: u32,
    },
    /// A store into a word whose other bytes the peer kept changing gave up
    /// ([`crate::Contended`]): the request or answer was not published.
    Contended {
        /// The compare-exchanges tried.
        tries: u32,
    },
}

impl From<crate::error::Contended> for MailboxError {
    fn from(e: crate::error::Contended) -> Self {
        Self::Contended { tries: e.tries }
    }
}

impl MailboxError {
    /// The error's snake_case name.
    pub fn check(&self) -> &'static str {
        match self {
            Self::Capacity { .. } => "mailbox_capacity",
            Self::Length { .. } => "mailbox_length",
            Self::Busy => "mailbox_busy",
            Self::TooLong { .. } => "mailbox_too_long",
            Self::Sequence { .. } => "mailbox_sequence",
            Self::Contended { .. } => "mailbox_contended",
        }
    }
}

impl core::fmt::Display for MailboxError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Capacity {
                request,
                response,
                room,
            } => write!(
                f,
                "mailbox: capacities {request} and {response}, expected both above 0 within {room} bytes"
            ),
            Self::Length {
                field,
                found,
                limit,
            } => write!(f, "mailbox: {field} is {found}, expected at most {limit}"),
            Self::Busy => write!(f, "mailbox: a request is waiting for its answer"),
            Self::TooLong { len, limit } => {
                write!(f, "mailbox: a {len}-byte request, expected at most {limit}")
            }
            Self::Sequence { request, response } => write!(
                f,
                "mailbox: response_seq {response} answers no request (request_seq {request})"
            ),
            Self::Contended { tries } => {
                write!(f, "mailbox: {}", crate::error::Contended { tries: *tries })
            }
        }
    }
}

impl std::error::Error for MailboxError {}

/// An answer, as the client reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The request it answers.
    pub seq: u32,
    /// The server's status.
    pub status: u32,
    /// The answer's text, as much as the response area held.
    pub text: Vec<u8>,
    /// The whole answer's bytes: more than `text.len()` when it was cut.
    pub total: u64,
}

impl Response {
    /// Whether the answer was cut to the response area.
    pub fn cut(&self) -> bool {
        self.total > self.text.len() as u64
    }
}

/// A mailbox at the start of a region, its capacities checked.
#[derive(Debug, Clone, Copy)]
pub struct Mailbox<'a, A: Writable> {
    region: Region<'a, A>,
    spec: MailboxSpec,
    request_capacity: u64,
    response_capacity: u64,
}

impl<'a, A: Writable> Mailbox<'a, A> {
    /// The mailbox whose header starts `region`: both capacities are read and checked now.
    pub fn new(region: Region<'a, A>, spec: MailboxSpec) -> Result<Self, MailboxError> {
        Self::with_geometry(region, spec, GeometryFrom::Mapping)
    }

    /// [`Self::new`] with the capacities read from `from`: the host's side gives the header
    /// as it laid it out, so a client's write to the capacities never reaches it.
    pub fn with_geometry(
        region: Region<'a, A>,
        spec: MailboxSpec,
        from: GeometryFrom<'_>,
    ) -> Result<Self, MailboxError> {
        let request = from.load(region, spec.request_capacity);
        let response = from.load(region, spec.response_capacity);
        let room = region.len().saturating_sub(spec.area) as u64;
        if request == 0 || response == 0 || request.saturating_add(response) > room {
            return Err(MailboxError::Capacity {
                request,
                response,
                room,
            });
        }
        Ok(Mailbox {
            region,
            spec,
            request_capacity: request,
            response_capacity: response,
        })
    }

    fn load(&self, at: usize) -> u32 {
        self.region.load::<u32>(at, Acquire)
    }

    /// The client's side: writes `text`, its terminating NUL (a host may read the area as a C
    /// string; `request_capacity` counts the NUL) and its length, then bumps `request_seq`
    /// (release). Returns the request's number, which its answer will carry. `Busy` while the
    /// previous request has no answer.
    pub fn request(&self, text: &[u8]) -> Result<u32, MailboxError> {
        let s = self.spec;
        let seq = self.region.load::<u32>(s.request_seq, Relaxed);
        if self.load(s.response_seq) != seq {
            return Err(MailboxError::Busy);
        }
        let limit = self.request_capacity - 1;
        if text.len() as u64 > limit {
            return Err(MailboxError::TooLong {
                len: text.len(),
                limit,
            });
        }
        self.region.write_bytes(s.area, text)?;
        self.region.write_bytes(s.area + text.len(), &[0])?;
        let next = seq.wrapping_add(1);
        // The length, then the number (release), which publishes it: one store of their
        // word where they fill one (the client alone writes both).
        store_pair(
            self.region,
            (s.request_len, text.len() as u32),
            (s.request_seq, next),
            Release,
        )?;
        Ok(next)
    }

    /// The client's side: the answer to request `seq`, or `None` while it has none.
    pub fn poll_response(&self, seq: u32) -> Result<Option<Response>, MailboxError> {
        let s = self.spec;
        let answered = self.load(s.response_seq);
        if answered != seq {
            return Ok(None);
        }
        let len = u64::from(self.load(s.response_len));
        if len > self.response_capacity {
            return Err(MailboxError::Length {
                field: "response_len",
                found: len,
                limit: self.response_capacity,
            });
        }
        let mut text = vec![0u8; len as usize];
        self.region
            .read_bytes(s.area + self.request_capacity as usize, &mut text);
        let total = u64::from(self.load(s.response_total)).max(len);
        Ok(Some(Response {
            seq,
            status: self.load(s.status),
            text,
            total,
        }))
    }

    /// The server's side: when a request waits, copies it, answers it with `answer(text)`
    /// (a status and the whole answer's text, cut to the response area), and stores
    /// `response_seq` = its number (release). Returns the number answered, or `None`.
    pub fn serve(
        &self,
        answer: impl FnOnce(&[u8]) -> (u32, Vec<u8>),
    ) -> Result<Option<u32>, MailboxError> {
        Ok(self
            .serve_inner(false, |text| answer(text.unwrap_or_default()))?
            .map(|(seq, _)| seq))
    }

    /// [`Self::serve`] that answers a malformed request too (its `request_len` past its
    /// area, which [`Self::serve`] refuses with `mailbox_length`): `answer(None)` gives its
    /// status and text, and it is answered like any other, so its client is not left
    /// waiting. Returns the number answered and whether it was malformed, or `None`.
    pub fn serve_or_malformed(
        &self,
        answer: impl FnOnce(Option<&[u8]>) -> (u32, Vec<u8>),
    ) -> Result<Option<(u32, bool)>, MailboxError> {
        self.serve_inner(true, answer)
    }

    fn serve_inner(
        &self,
        malformed: bool,
        answer: impl FnOnce(Option<&[u8]>) -> (u32, Vec<u8>),
    ) -> Result<Option<(u32, bool)>, MailboxError> {
        let s = self.spec;
        let request = self.load(s.request_seq);
        let response = self.region.load::<u32>(s.response_seq, Relaxed);
        if request == response {
            return Ok(None);
        }
        if request != response.wrapping_add(1) {
            return Err(MailboxError::Sequence { request, response });
        }
        let len = u64::from(self.region.load::<u32>(s.request_len, Relaxed));
        let bad = len >= self.request_capacity;
        if bad && !malformed {
            return Err(MailboxError::Length {
                field: "request_len",
                found: len,
                limit: self.request_capacity - 1,
            });
        }
        let (status, whole) = if bad {
            answer(None)
        } else {
            let mut text = vec![0u8; len as usize];
            self.region.read_bytes(s.area, &mut text);
            answer(Some(&text))
        };
        let kept = whole.len().min(self.response_capacity as usize);
        self.region
            .write_bytes(s.area + self.request_capacity as usize, &whole[..kept])?;
        let total = u32::try_from(whole.len()).unwrap_or(u32::MAX);
        answer_fields(self.region, s, (status, kept as u32, total), request)?;
        Ok(Some((request, bad)))
    }
}

/// Stores the server's answer fields (status, length, total; relaxed), then `response_seq` =
/// `request` (release), which publishes them: [`Mailbox::serve`] and a host's restore.
pub(crate) fn answer_fields<A: Writable>(
    region: Region<'_, A>,
    s: MailboxSpec,
    (status, len, total): (u32, u32, u32),
    request: u32,
) -> Result<(), crate::error::Contended> {
    if let Some(word) = whole_word(region, s.response_len, s.response_total) {
        region.store::<u64>(word, pair_word(word, s.response_len, len, total), Relaxed);
    } else {
        region.try_store::<u32>(s.response_len, len, Relaxed)?;
        region.try_store::<u32>(s.response_total, total, Relaxed)?;
    }
    // Release publishes the answer (relaxed under the loom negative control
    // `mailbox_response_relaxed`, which loom must catch).
    let publish = if crate::sync::mutated("mailbox_response_relaxed") {
        Relaxed
    } else {
        Release
    };
    store_pair(
        region,
        (s.status, status),
        (s.response_seq, request),
        publish,
    )
}

/// Stores the `u32` `first` and then the `u32` `last` (with `order`; `first` relaxed). Where
/// the two fill one 8-aligned `u64` between them, that is one plain store of the `u64`
/// (`order`): the writer owns every byte of it, so nothing else is there to keep, and a
/// plain store cannot meet contention. Otherwise two bounded compare-exchange loops
/// ([`Region::try_store`]), as the word's other bytes may be the peer's.
fn store_pair<A: Writable>(
    region: Region<'_, A>,
    (first_at, first): (usize, u32),
    (last_at, last): (usize, u32),
    order: core::sync::atomic::Ordering,
) -> Result<(), crate::error::Contended> {
    match whole_word(region, first_at, last_at) {
        Some(word) => {
            let bits = pair_word(word, first_at, first, last);
            region.store::<u64>(word, bits, order);
            Ok(())
        }
        None => {
            region.try_store::<u32>(first_at, first, Relaxed)?;
            region.try_store::<u32>(last_at, last, order)
        }
    }
}

/// The offset in `region` of the 8-aligned `u64` that the `u32`s at offsets `a` and `b` fill
/// together, if they do.
fn whole_word<A: Writable>(region: Region<'_, A>, a: usize, b: usize) -> Option<usize> {
    let base = region.as_ptr().addr();
    let (low, high) = (a.min(b), a.max(b));
    let aligned = base.checked_add(low).is_some_and(|at| at % 8 == 0);
    (aligned && high.checked_sub(low) == Some(4)).then_some(low)
}

/// The `u64` at offset `word` whose `u32` at offset `a_at` is `a` and whose other `u32` is
/// `b`, in memory order (native endianness, as [`Region::load`] reads it back).
fn pair_word(word: usize, a_at: usize, a: u32, b: u32) -> u64 {
    let (low, high) = if a_at == word { (a, b) } else { (b, a) };
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&low.to_ne_bytes());
    bytes[4..].copy_from_slice(&high.to_ne_bytes());
    u64::from_ne_bytes(bytes)
}
