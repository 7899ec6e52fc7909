//! Bulk copies between a region and ordinary memory, made of relaxed atomic loads and stores
//! of the whole 8-aligned `u64` words that hold the bytes (the rule is documented on
//! [`Region::read_bytes`]).

use crate::error::{CAS_TRIES, Contended};
use crate::sync::AtomicU64;
use crate::sync::Ordering::Relaxed;

use zerocopy::{FromBytes, Immutable, IntoBytes};

use crate::raw::Region;
use crate::raw::{Access, Writable};
use crate::region::{access_panic, contention_hook, load_word};

impl<A: Access> Region<'_, A> {
    /// Copies `out.len()` bytes starting at `offset` into `out`, with relaxed atomic loads.
    ///
    /// # Words
    ///
    /// A copy loads the whole 8-aligned `u64` words that hold the range (the first and last
    /// may hold bytes outside it, which are loaded and left out), like every other access of
    /// this crate. So a copy of any range, by a reader or a writer, accesses each byte with the
    /// same size as every other access in this process: the Rust (C++) memory model forbids
    /// racing atomic accesses of different sizes to overlapping bytes, and here they cannot
    /// happen, whatever ranges the two sides choose.
    ///
    /// Bytes are copied in native order (`to_ne_bytes`): a copy moves bytes and interprets
    /// nothing.
    ///
    /// # Panics
    ///
    /// If `offset + out.len()` exceeds the region (a bug in the caller).
    #[track_caller]
    pub fn read_bytes(&self, offset: usize, out: &mut [u8]) {
        let (words, lane) = self
            .words(offset, out.len())
            .unwrap_or_else(|err| access_panic(err, "byte copy"));
        let Some((first, rest)) = words.split_first() else {
            return;
        };
        // The first word's bytes from `lane`, then whole words, then the last word's first
        // bytes. Each word is loaded once. The whole words are copied as fixed 8-byte arrays:
        // a copy of a variable length per word compiled to a memcpy call per word (4.7 us for
        // 12,104 bytes against 0.3 us this way; bench/README.md, the live layer).
        let head = (8 - lane).min(out.len());
        let bytes = load_word::<A>(first, Relaxed).to_ne_bytes();
        out[..head].copy_from_slice(&bytes[lane..lane + head]);
        let mut chunks = out[head..].chunks_exact_mut(8);
        let mut rest = rest.iter();
        for (chunk, word) in (&mut chunks).zip(&mut rest) {
            chunk.copy_from_slice(&load_word::<A>(word, Relaxed).to_ne_bytes());
        }
        let tail = chunks.into_remainder();
        if let Some(word) = rest.next() {
            let n = tail.len();
            tail.copy_from_slice(&load_word::<A>(word, Relaxed).to_ne_bytes()[..n]);
        }
    }

    /// Copies a value out of the region: `T::new_zeroed()`, then
    /// [`read_bytes`](Region::read_bytes) into its bytes. `T` may be at any alignment.
    ///
    /// # Panics
    ///
    /// If `offset + size_of::<T>()` exceeds the region (a bug in the caller).
    #[inline]
    #[track_caller]
    pub fn read<T: FromBytes + IntoBytes>(&self, offset: usize) -> T {
        let mut value = T::new_zeroed();
        self.read_bytes(offset, value.as_mut_bytes());
        value
    }
}

impl<A: Writable> Region<'_, A> {
    /// Copies `src` to the bytes starting at `offset`, with relaxed atomic stores of the words
    /// that hold them (see [`read_bytes`](Region::read_bytes)): a word the range covers whole
    /// is stored, a word it covers in part (at either end) is changed by a compare-exchange
    /// loop that keeps its other bytes, bounded: [`Contended`] when a peer changed that word's
    /// other bytes before each of [`CAS_TRIES`] exchanges (the words before it are stored).
    ///
    /// # Panics
    ///
    /// If `offset + src.len()` exceeds the region (a bug in the caller).
    #[track_caller]
    pub fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<(), Contended> {
        self.fill(offset, src.len(), |at, out| {
            out.copy_from_slice(&src[at..at + out.len()])
        })
    }

    /// Sets `len` bytes starting at `offset` to zero, with the words of
    /// [`write_bytes`](Region::write_bytes).
    ///
    /// # Panics
    ///
    /// If `offset + len` exceeds the region (a bug in the caller).
    #[track_caller]
    pub fn zero(&self, offset: usize, len: usize) -> Result<(), Contended> {
        self.fill(offset, len, |_, out| out.fill(0))
    }

    /// Copies a value into the region with [`write_bytes`](Region::write_bytes).
    ///
    /// # Panics
    ///
    /// If `offset + size_of_val(value)` exceeds the region (a bug in the caller).
    #[inline]
    #[track_caller]
    pub fn write<T: IntoBytes + Immutable + ?Sized>(
        &self,
        offset: usize,
        value: &T,
    ) -> Result<(), Contended> {
        self.write_bytes(offset, value.as_bytes())
    }

    /// Stores `len` bytes at `offset`, word by word: `bytes(at, out)` fills `out` with the
    /// bytes `at..at + out.len()` of the source.
    #[track_caller]
    fn fill(
        &self,
        offset: usize,
        len: usize,
        mut bytes: impl FnMut(usize, &mut [u8]),
    ) -> Result<(), Contended> {
        let (words, lane) = self
            .words(offset, len)
            .unwrap_or_else(|err| access_panic(err, "byte copy"));
        let mut done = 0;
        for (i, word) in words.iter().enumerate() {
            let from = if i == 0 { lane } else { 0 };
            let take = (8 - from).min(len - done);
            if take == 8 {
                let mut value = [0u8; 8];
                bytes(done, &mut value);
                word.store(u64::from_ne_bytes(value), Relaxed);
            } else {
                store_part(word, from, take, |out| bytes(done, out))?;
            }
            done += take;
        }
        Ok(())
    }
}

/// Stores bytes `from..from + take` of `word` (a part of it), keeping the others: a relaxed
/// compare-exchange loop, retried while other bytes of the word change, at most
/// [`CAS_TRIES`] times ([`Contended`], and the word unchanged).
fn store_part(
    word: &AtomicU64,
    from: usize,
    take: usize,
    mut bytes: impl FnMut(&mut [u8]),
) -> Result<(), Contended> {
    let mut current = word.load(Relaxed);
    for _ in 0..CAS_TRIES {
        let mut value = current.to_ne_bytes();
        bytes(&mut value[from..from + take]);
        contention_hook::between_load_and_exchange(word);
        // Strong: a failed try is a peer's change, never a spurious failure (see region.rs).
        match word.compare_exchange(current, u64::from_ne_bytes(value), Relaxed, Relaxed) {
            Ok(_) => return Ok(()),
            Err(found) => current = found,
        }
    }
    Err(Contended { tries: CAS_TRIES })
}
