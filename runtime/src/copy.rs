//! Bulk copies between a region and ordinary memory, made of relaxed atomic loads and stores
//! chunked by absolute address (the rule is documented on [`Region::read_bytes`]).

use core::sync::atomic::AtomicU64;
use core::sync::atomic::Ordering::Relaxed;

use zerocopy::{FromBytes, Immutable, IntoBytes};

use crate::Region;
use crate::region::access_panic;

impl Region<'_> {
    /// Copies `out.len()` bytes starting at `offset` into `out`, with relaxed atomic loads.
    ///
    /// # Chunking
    ///
    /// The range is split by *absolute address*: at each position a `u64` if the address is a
    /// multiple of 8 and at least 8 bytes remain, else a `u32` if it is a multiple of 4 and at
    /// least 4 remain, else a `u16` if it is even and at least 2 remain, else a `u8`. Reads,
    /// writes and [`zero`](Region::zero) all chunk the same way, so two copies of the *same
    /// range* (or of ranges whose ends are multiples of 8) access each byte with the same size.
    /// That matters: the Rust (C++) memory model forbids racing atomic accesses of different
    /// sizes to overlapping bytes (Miri reports them), so the readers and the writer of one
    /// piece of shared data must copy the same ranges.
    ///
    /// Bytes are copied in native order (`to_ne_bytes`): a copy moves bytes and interprets
    /// nothing. The aligned middle is a loop of `AtomicU64` loads.
    ///
    /// # Panics
    ///
    /// If `offset + out.len()` exceeds the region (a bug in the caller).
    #[track_caller]
    pub fn read_bytes(&self, offset: usize, out: &mut [u8]) {
        let r = self.range(offset, out.len());
        let head = head_len(r.as_ptr().addr(), out.len());
        let words = (out.len() - head) / 8;
        let (head_out, rest) = out.split_at_mut(head);
        let (middle_out, tail_out) = rest.split_at_mut(words * 8);
        read_edge(&r, 0, head_out);
        let atomics = middle(&r, head, words);
        for (atomic, out) in atomics.iter().zip(middle_out.chunks_exact_mut(8)) {
            out.copy_from_slice(&atomic.load(Relaxed).to_ne_bytes());
        }
        read_edge(&r, head + words * 8, tail_out);
    }

    /// Copies `src` to the bytes starting at `offset`, with relaxed atomic stores chunked like
    /// [`read_bytes`](Region::read_bytes).
    ///
    /// # Panics
    ///
    /// If `offset + src.len()` exceeds the region (a bug in the caller).
    #[track_caller]
    pub fn write_bytes(&self, offset: usize, src: &[u8]) {
        let r = self.range(offset, src.len());
        let head = head_len(r.as_ptr().addr(), src.len());
        let words = (src.len() - head) / 8;
        let (head_src, rest) = src.split_at(head);
        let (middle_src, tail_src) = rest.split_at(words * 8);
        write_edge(&r, 0, head_src);
        let atomics = middle(&r, head, words);
        for (atomic, src) in atomics.iter().zip(middle_src.chunks_exact(8)) {
            atomic.store(
                u64::from_ne_bytes(src.try_into().expect("8 bytes")),
                Relaxed,
            );
        }
        write_edge(&r, head + words * 8, tail_src);
    }

    /// Sets `len` bytes starting at `offset` to zero, chunked like
    /// [`write_bytes`](Region::write_bytes).
    ///
    /// # Panics
    ///
    /// If `offset + len` exceeds the region (a bug in the caller).
    #[track_caller]
    pub fn zero(&self, offset: usize, len: usize) {
        let r = self.range(offset, len);
        let head = head_len(r.as_ptr().addr(), len);
        let words = (len - head) / 8;
        write_edge(&r, 0, &[0; 16][..head]);
        let atomics = middle(&r, head, words);
        for atomic in atomics {
            atomic.store(0, Relaxed);
        }
        write_edge(&r, head + words * 8, &[0; 16][..len - head - words * 8]);
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

    /// Copies a value into the region with [`write_bytes`](Region::write_bytes).
    ///
    /// # Panics
    ///
    /// If `offset + size_of_val(value)` exceeds the region (a bug in the caller).
    #[inline]
    #[track_caller]
    pub fn write<T: IntoBytes + Immutable + ?Sized>(&self, offset: usize, value: &T) {
        self.write_bytes(offset, value.as_bytes());
    }

    /// The sub-region a copy covers; panics if it does not fit.
    #[inline]
    #[track_caller]
    fn range(&self, offset: usize, len: usize) -> Region<'_> {
        self.slice(offset, len)
            .unwrap_or_else(|err| access_panic(err, "byte copy"))
    }
}

/// How many bytes the chunking takes, in words smaller than `u64`, before the first 8-aligned
/// address (all `len` bytes if the copy never reaches one with 8 bytes left).
#[inline]
fn head_len(address: usize, len: usize) -> usize {
    let to_aligned = address.wrapping_neg() % 8;
    if len >= to_aligned + 8 {
        to_aligned
    } else {
        len
    }
}

/// The `words` u64 atomics at `offset` of `r`: none if `words` is 0 (then the offset need not be
/// 8-aligned), else `offset` is the end of the head, which is 8-aligned.
#[inline]
fn middle<'a>(r: &Region<'a>, offset: usize, words: usize) -> &'a [AtomicU64] {
    if words == 0 {
        return &[];
    }
    r.atomics::<u64>(offset, words)
        .expect("8-aligned words inside the range")
}

/// The size of the chunk at `address` with `remaining` bytes left (at most 8; the rule of
/// `Region::read_bytes`). Only the edges of a copy call it; the middle is all `u64`.
#[inline]
fn chunk_len(address: usize, remaining: usize) -> usize {
    [8, 4, 2]
        .into_iter()
        .find(|&size| address % size == 0 && remaining >= size)
        .unwrap_or(1)
}

/// Reads the edge `r[offset..offset + out.len()]` (fewer than 16 bytes) chunk by chunk.
fn read_edge(r: &Region<'_>, mut offset: usize, out: &mut [u8]) {
    let mut done = 0;
    while done < out.len() {
        let size = chunk_len(r.as_ptr().addr() + offset, out.len() - done);
        let dst = &mut out[done..done + size];
        match size {
            8 => dst.copy_from_slice(&r.load::<u64>(offset, Relaxed).to_ne_bytes()),
            4 => dst.copy_from_slice(&r.load::<u32>(offset, Relaxed).to_ne_bytes()),
            2 => dst.copy_from_slice(&r.load::<u16>(offset, Relaxed).to_ne_bytes()),
            _ => dst[0] = r.load::<u8>(offset, Relaxed),
        }
        done += size;
        offset += size;
    }
}

/// Writes `src` to the edge starting at `r[offset]` chunk by chunk.
fn write_edge(r: &Region<'_>, mut offset: usize, src: &[u8]) {
    let mut done = 0;
    while done < src.len() {
        let size = chunk_len(r.as_ptr().addr() + offset, src.len() - done);
        let bytes = &src[done..done + size];
        match size {
            8 => r.store(
                offset,
                u64::from_ne_bytes(bytes.try_into().expect("8")),
                Relaxed,
            ),
            4 => r.store(
                offset,
                u32::from_ne_bytes(bytes.try_into().expect("4")),
                Relaxed,
            ),
            2 => r.store(
                offset,
                u16::from_ne_bytes(bytes.try_into().expect("2")),
                Relaxed,
            ),
            _ => r.store(offset, bytes[0], Relaxed),
        }
        done += size;
        offset += size;
    }
}

#[cfg(test)]
mod tests {
    use super::{chunk_len, head_len};

    /// The chunk sizes of a copy of `len` bytes at `address`, by the rule of `read_bytes`.
    fn chunks(address: usize, len: usize) -> Vec<usize> {
        let (mut at, mut out) = (0, Vec::new());
        while at < len {
            let size = chunk_len(address + at, len - at);
            out.push(size);
            at += size;
        }
        out
    }

    #[test]
    fn chunking_follows_the_absolute_address() {
        assert_eq!(chunks(0x1000, 16), [8, 8]);
        assert_eq!(chunks(0x1001, 16), [1, 2, 4, 8, 1]);
        assert_eq!(chunks(0x1004, 7), [4, 2, 1]);
        assert_eq!(chunks(0x1006, 2), [2]);
        assert_eq!(chunks(0x1003, 3), [1, 2]);
    }

    #[test]
    fn head_stops_at_the_first_aligned_word() {
        // The head is exactly the chunks before the first u64 of the rule.
        for address in 0x1000..0x1010 {
            for len in 0..40 {
                let chunks = chunks(address, len);
                let first_word = chunks.iter().position(|&s| s == 8).unwrap_or(chunks.len());
                let expected: usize = chunks[..first_word].iter().sum();
                assert_eq!(
                    head_len(address, len),
                    expected,
                    "address {address:#x} len {len}"
                );
            }
        }
    }
}
