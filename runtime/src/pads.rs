//! Pads a claimed row binds (the bridge's `pad_owner`): one owner byte per pad, the bytes of
//! one aligned word changed only by compare-and-swap of that whole word. A client binds a pad
//! from unbound to its row's index ([`bind`]) and unbinds it back ([`unbind`]), while its claim
//! ([`crate::claim`]) stands; the host's free lets go of what the row bound ([`sweep`]), after
//! it retired the row and before it stores free. Generated code calls these; the C header and
//! the Python module print the same steps with the same orderings.
//!
//! # Why a bind re-checks its claim after its swap
//!
//! The owner byte holds only the row's index: nothing in it says which claim of the row bound
//! it. A bind that loads the standing, then swaps, can be overtaken by the host's whole free
//! between the two (retire, sweep, free): its swap then lands after the sweep, and the row's
//! next client inherits a pad it never bound, for its whole session (a race test saw it
//! 6,366 times in 31.7 million frees against a binding thread). The ABI has no room for a generation beside
//! the byte, and a host that swept again after it stored free could not tell that stale
//! bind from one the row's next client made meanwhile (both are the row's index): it would
//! unbind the newcomer. So the two sides order themselves instead (Dekker's pattern):
//!
//! - the client: swap the byte from unbound to its index (`B`), a `SeqCst` fence, then load
//!   its claim's standing (`K`); when the claim no longer stands, swap its index back to
//!   unbound (the undo);
//! - the host: retire the row (`T`, a read-modify-write of the row's state word), a `SeqCst`
//!   fence, then load each pad's word and swap the row's index back to unbound (`S`).
//!
//! The two fences are ordered in the single total order of `SeqCst` operations. If the
//! client's comes first, `B` is sequenced before it and `S` after the host's, so `S` sees `B`
//! or a later value of the word (C++ [atomics.fences], the fence-fence rule): the host lets
//! the pad go. If the host's comes first, `K` sees `T` or a later value of the row's word:
//! closing, free, or a newer claim's generation, never this claim's again, so the client
//! undoes its bind. Either way, once both are done, no pad is left bound to the freed row by
//! this bind. Release and acquire alone do not give this: both loads could miss the other
//! side's store.
//!
//! # What remains: a stale reset of the row's next session
//!
//! When both fences see the other side, the host lets the pad go and the client undoes it
//! too. The second swap finds the byte unbound and changes nothing, unless, between the
//! host's sweep and the client's undo, the host stored free, the row's next client claimed
//! it and bound the same pad: that byte holds the row's index again, and the undo unbinds it.
//! A stale [`unbind`] preempted between its standing check and its swap does the same. This is
//! the one case the byte cannot tell apart. The newcomer then loses a pad it bound. It is
//! never given one it did not bind. The case needs the stale client preempted for the host's
//! free, a new claim and a bind. Only a generation stored with the owner can close it, and the
//! 0.9 layout has no room for one.
//!
//! Every swap is bounded ([`crate::CAS_TRIES`]): a peer that keeps changing the word's other
//! bytes makes it [`Contended`]. A bind whose undo is contended leaves its byte bound: the
//! caller hears `Contended` and may retry the unbind.

use crate::error::Contended;
use crate::raw::{Region, Writable};
use crate::sync::{Ordering, fence};
use crate::word::Word;

/// Where the owner bytes are: the aligned word of type `W` at `at` (one byte per pad, pad
/// `p` at byte `p`), and the value of a byte nobody owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PadWord {
    /// The word's offset in the region (a multiple of its size).
    pub at: usize,
    /// How many pads the word holds (at most its size).
    pub count: usize,
    /// The owner byte of an unbound pad.
    pub unbound: u8,
}

/// What a [`bind`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bind {
    /// The pad is bound to the row, and the claim stood after the swap.
    Bound,
    /// Another owner held the pad (its byte, which may be a not-a-pad value): nothing stored.
    Held(u8),
    /// The claim did not stand. `undone`: the swap had bound the pad when the re-check found
    /// the claim gone, and the bind was undone; otherwise nothing was stored, or the host's
    /// free had let the pad go first.
    Lost {
        /// Whether the bind swapped the byte and then swapped it back.
        undone: bool,
    },
    /// No such pad (`pad >= count`).
    NoPad,
}

/// What an [`unbind`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unbind {
    /// The pad went back to unbound.
    Unbound,
    /// The row did not hold the pad (the byte found): nothing stored.
    Held(u8),
    /// The claim did not stand: nothing stored.
    Lost,
    /// No such pad.
    NoPad,
}

/// The byte index `pad` of the word, or `None` past the pads.
fn lane<W: Word>(word: PadWord, pad: usize) -> Option<usize> {
    (pad < word.count && pad < W::SIZE).then_some(pad)
}

/// The client's bind of `pad` to row `own`, while its claim stands (`stands`: the claim's
/// standing, whose loads must include the row's state word; called before and after the
/// swap):
/// 1. `stands()` (refused with `Lost { undone: false }` when it does not);
/// 2. the byte from `unbound` to `own`, by compare-and-swap of the whole word (acquire-release;
///    `Held` when it is not unbound);
/// 3. a `SeqCst` fence, then `stands()` again: the re-check, which, with the host's fence
///    after its retire ([`sweep`]), makes one side see the other (the module docs);
/// 4. when the claim no longer stands, the byte from `own` back to `unbound` (the undo):
///    `Lost { undone: true }`, or `Lost { undone: false }` when the host's sweep let it go
///    first.
///
/// `Contended` when the word's other bytes kept changing: at step 2 nothing was stored; at
/// step 4 the pad stays bound to the row (the caller may retry with [`unbind`]'s swap).
pub fn bind<W: Word, A: Writable>(
    region: Region<'_, A>,
    word: PadWord,
    pad: usize,
    own: u8,
    mut stands: impl FnMut() -> bool,
) -> Result<Bind, Contended> {
    let Some(lane) = lane::<W>(word, pad) else {
        return Ok(Bind::NoPad);
    };
    if !stands() {
        return Ok(Bind::Lost { undone: false });
    }
    if let Err(held) = region.compare_exchange_byte::<W>(word.at, lane, word.unbound, own)? {
        return Ok(Bind::Held(held));
    }
    // The negative control `pad_bind_recheck` (loom) drops the re-check: the bind then
    // outlives a free that overtook it.
    if crate::sync::mutated("pad_bind_recheck") {
        return Ok(Bind::Bound);
    }
    // B (the swap) before the fence, K (the re-check's loads) after it: with the host's fence
    // between T and S, one side sees the other. The negative control `pad_bind_fence` (loom)
    // drops the fence.
    if !crate::sync::mutated("pad_bind_fence") {
        fence(Ordering::SeqCst);
    }
    if stands() {
        return Ok(Bind::Bound);
    }
    let undone = region
        .compare_exchange_byte::<W>(word.at, lane, own, word.unbound)?
        .is_ok();
    Ok(Bind::Lost { undone })
}

/// The client's unbind of `pad` from row `own`, while its claim stands (`stands`, checked
/// first): the byte from `own` back to `unbound` by compare-and-swap of the whole word.
/// `Held` with the byte found when the row does not hold it. No re-check is needed: an
/// unbind never leaves a pad bound. A stale unbind overtaken by the host's free, the next
/// claim of the row and its bind of the same pad unbinds that bind (the module docs).
/// `Contended` (nothing stored) when the word's other bytes kept changing.
pub fn unbind<W: Word, A: Writable>(
    region: Region<'_, A>,
    word: PadWord,
    pad: usize,
    own: u8,
    stands: impl FnOnce() -> bool,
) -> Result<Unbind, Contended> {
    let Some(lane) = lane::<W>(word, pad) else {
        return Ok(Unbind::NoPad);
    };
    if !stands() {
        return Ok(Unbind::Lost);
    }
    Ok(
        match region.compare_exchange_byte::<W>(word.at, lane, own, word.unbound)? {
            Ok(()) => Unbind::Unbound,
            Err(held) => Unbind::Held(held),
        },
    )
}

/// The host's side of a free, right after its retire ([`crate::claim::retire`]) and before it
/// stores free: a `SeqCst` fence, then each pad the word holds that is bound to row `own` goes
/// back to `unbound` (compare-and-swap of the whole word; a pad another row holds stays). The
/// fence orders the sweep's loads after the retire, against a bind's fence (see [`bind`] and
/// the module docs): a bind this sweep does not see, its client undoes. Returns how many pads
/// it let go. `Contended` when a pad's word kept changing (the pads after it not swept: the
/// row must stay retired until a later free succeeds).
pub fn sweep<W: Word, A: Writable>(
    region: Region<'_, A>,
    word: PadWord,
    own: u8,
) -> Result<usize, Contended> {
    // The negative control `pad_sweep_fence` (loom) drops the fence.
    if !crate::sync::mutated("pad_sweep_fence") {
        fence(Ordering::SeqCst);
    }
    let mut swept = 0;
    for pad in 0..word.count.min(W::SIZE) {
        if region
            .compare_exchange_byte::<W>(word.at, pad, own, word.unbound)?
            .is_ok()
        {
            swept += 1;
        }
    }
    Ok(swept)
}
