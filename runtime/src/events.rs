//! Event rings in a copied value: a total counter and an array that holds entry `i` at
//! `i % capacity`. Safe code over a copy; the copy itself is the seqlock's job.

/// The entries from number `since` to `total`, oldest first, as `(number, entry)`.
/// Entries the ring has already overwritten are skipped and counted by [`lost`].
///
/// [`lost`]: EventsSince::lost
#[derive(Clone, Debug)]
pub struct EventsSince<'a, T> {
    entries: &'a [T],
    next: u64,
    total: u64,
    lost: u64,
}

impl<'a, T> EventsSince<'a, T> {
    /// The entries of the ring `entries` (its capacity is its length) whose counter says
    /// `total` entries were ever written, from number `since` on. A `since` past `total`
    /// (the producer restarted, or the count came from elsewhere) yields nothing.
    pub fn new(entries: &'a [T], total: u64, since: u64) -> Self {
        let capacity = entries.len() as u64;
        let oldest = total.saturating_sub(capacity);
        let next = since.max(oldest).min(total);
        let lost = oldest.saturating_sub(since);
        EventsSince {
            entries,
            next,
            total,
            lost,
        }
    }

    /// Entries between `since` and the oldest one still in the ring: overwritten before
    /// they were read.
    pub fn lost(&self) -> u64 {
        self.lost
    }

    /// The count to pass as `since` next time: the total this copy saw.
    pub fn total(&self) -> u64 {
        self.total
    }
}

impl<'a, T> Iterator for EventsSince<'a, T> {
    type Item = (u64, &'a T);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.total || self.entries.is_empty() {
            return None;
        }
        let number = self.next;
        self.next += 1;
        let index = (number % self.entries.len() as u64) as usize;
        Some((number, &self.entries[index]))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = if self.entries.is_empty() {
            0
        } else {
            (self.total - self.next) as usize
        };
        (left, Some(left))
    }
}

impl<T> ExactSizeIterator for EventsSince<'_, T> {}

#[cfg(test)]
mod tests {
    use super::EventsSince;

    /// Entry `i` holds `i`, as a producer that wrote `total` entries into 4 slots left it.
    fn ring(total: u64) -> [u64; 4] {
        let mut r = [u64::MAX; 4];
        for i in total.saturating_sub(4)..total {
            r[(i % 4) as usize] = i;
        }
        r
    }

    fn numbers(total: u64, since: u64) -> (Vec<u64>, u64) {
        let r = ring(total);
        let it = EventsSince::new(&r, total, since);
        let lost = it.lost();
        let got: Vec<u64> = it
            .map(|(n, v)| {
                assert_eq!(n, *v, "entry {n} holds another entry");
                n
            })
            .collect();
        (got, lost)
    }

    #[test]
    fn within_capacity_every_entry_since_the_count() {
        assert_eq!(numbers(3, 0), (vec![0, 1, 2], 0));
        assert_eq!(numbers(3, 2), (vec![2], 0));
        assert_eq!(numbers(3, 3), (vec![], 0));
        assert_eq!(numbers(0, 0), (vec![], 0));
    }

    #[test]
    fn lapped_readers_lose_the_overwritten_entries() {
        assert_eq!(numbers(10, 0), (vec![6, 7, 8, 9], 6));
        assert_eq!(numbers(10, 5), (vec![6, 7, 8, 9], 1));
        assert_eq!(numbers(10, 7), (vec![7, 8, 9], 0));
    }

    #[test]
    fn a_count_past_the_total_yields_nothing() {
        assert_eq!(numbers(5, 9), (vec![], 0));
        let r: [u64; 0] = [];
        assert_eq!(EventsSince::new(&r, 5, 0).count(), 0);
    }
}
