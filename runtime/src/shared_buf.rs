//! `SharedBuf`: owned, zeroed, 8-aligned memory that is sound to share between threads, for
//! tests and in-process use of the region API.

use crate::sync::AtomicU64;
use core::fmt;

use crate::raw::Region;

/// Zeroed heap memory, 8-aligned, accessed only through [`Region`]s.
///
/// Underneath it is a `Box<[AtomicU64]>`: interior-mutable, so `&SharedBuf` can be shared by
/// threads that all read and write through [`region`](SharedBuf::region).
pub struct SharedBuf {
    words: Box<[AtomicU64]>,
    len: usize,
}

impl SharedBuf {
    /// `len` zero bytes.
    pub fn new(len: usize) -> Self {
        let words = (0..len.div_ceil(8)).map(|_| AtomicU64::new(0)).collect();
        SharedBuf { words, len }
    }

    /// A copy of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        // Whole words made here, before anyone else can see them: no partial-word store.
        let words = bytes
            .chunks(8)
            .map(|chunk| {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                AtomicU64::new(u64::from_ne_bytes(word))
            })
            .collect();
        SharedBuf {
            words,
            len: bytes.len(),
        }
    }

    /// The region over all `len()` bytes.
    pub fn region(&self) -> Region<'_> {
        Region::from_words(&self.words, self.len)
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if the buffer has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A copy of the bytes (relaxed atomic loads, see [`Region::read_bytes`]).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = vec![0; self.len];
        self.region().read_bytes(0, &mut out);
        out
    }
}

impl fmt::Debug for SharedBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedBuf")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}
