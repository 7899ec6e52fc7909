//! A bot's wake statistics: publish-to-wake over its last ticks, on the host's
//! clock, and the tick counts the reference's `stats_header` holds (`ticks`: snapshots it
//! waited for and got; `skipped`: publications it missed, latest wins; `wake_p50_us`,
//! `wake_p99_us`: the median and 99th percentile of publish-to-wake over its last ticks).
//!
//! The host's clock is the monotonic clock of the machine (`CLOCK_MONOTONIC` on Linux,
//! `QueryPerformanceCounter` in ns on Windows, as [`crate::identity`] says), which a bot on the
//! same machine reads itself (`host_clock_ns`, feature `mmap`); the publication time is the host's (a ring
//! slot's `publish_ns`). A fixed ring of the last [`WAKE_SAMPLES`] samples: no allocation per
//! tick. Safe code; the caller stores the figures in its stats header.

/// How many of the last ticks the percentiles cover.
pub const WAKE_SAMPLES: usize = 128;

/// The host's clock now, in ns: the monotonic clock `publish_ns` and the clock pair use
/// (feature `mmap`, which reads the OS clock).
#[cfg(feature = "mmap")]
pub fn host_clock_ns() -> u64 {
    crate::raw::os_clock::monotonic_ns()
}

/// The figures of the ticks a bot waited for.
#[derive(Debug, Clone)]
pub struct WakeStats {
    samples: [u64; WAKE_SAMPLES],
    /// Samples ever recorded; the newest is at `(recorded - 1) % WAKE_SAMPLES`.
    recorded: u64,
    ticks: u64,
    skipped: u64,
}

impl Default for WakeStats {
    fn default() -> Self {
        WakeStats::new()
    }
}

impl WakeStats {
    /// No tick yet.
    pub const fn new() -> WakeStats {
        WakeStats {
            samples: [0; WAKE_SAMPLES],
            recorded: 0,
            ticks: 0,
            skipped: 0,
        }
    }

    /// A tick got: the sequence went from `last` to `seq`, published at `publish_ns` and seen
    /// at `wake_ns` (both on the host's clock). Counts the tick and the publications between
    /// (`seq - last - 1`; none when the sequence went back, as after a host's reload), and
    /// records `wake_ns - publish_ns` (0 when the wake reads earlier: never negative). A `seq`
    /// equal to `last` is no tick and changes nothing.
    pub fn record(&mut self, last: u64, seq: u64, publish_ns: u64, wake_ns: u64) {
        if seq == last {
            return;
        }
        self.ticks += 1;
        if seq > last {
            self.skipped += seq - last - 1;
        }
        self.samples[(self.recorded % WAKE_SAMPLES as u64) as usize] =
            wake_ns.saturating_sub(publish_ns);
        self.recorded += 1;
    }

    /// Ticks got (`stats_header.ticks`).
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Publications missed between them (`stats_header.skipped`).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// The median and the 99th percentile of publish-to-wake over the last ticks (at most
    /// [`WAKE_SAMPLES`]), in microseconds: the sample of rank `(n - 1) * q / 100` in
    /// ascending order. `(0.0, 0.0)` before the first tick.
    pub fn percentiles_us(&self) -> (f32, f32) {
        let n = self.recorded.min(WAKE_SAMPLES as u64) as usize;
        if n == 0 {
            return (0.0, 0.0);
        }
        let mut sorted = self.samples;
        let sorted = &mut sorted[..n];
        sorted.sort_unstable();
        let us = |q: usize| (sorted[(n - 1) * q / 100] as f64 / 1000.0) as f32;
        (us(50), us(99))
    }
}

#[cfg(test)]
mod tests {
    use super::{WAKE_SAMPLES, WakeStats};

    #[test]
    fn no_tick_reports_zeros_and_an_unchanged_sequence_is_no_tick() {
        let mut w = WakeStats::new();
        assert_eq!(w.percentiles_us(), (0.0, 0.0));
        w.record(5, 5, 100, 9_000_000);
        assert_eq!(
            (w.ticks(), w.skipped(), w.percentiles_us()),
            (0, 0, (0.0, 0.0))
        );
    }

    #[test]
    fn ticks_skips_and_percentiles_follow_the_waits() {
        let mut w = WakeStats::new();
        // Ticks 1..=100, each woken i us after its publication; tick 50 skipped two.
        let mut last = 0;
        for i in 1..=100u64 {
            let seq = if i >= 50 { i + 2 } else { i };
            w.record(last, seq, 1_000_000 * i, 1_000_000 * i + 1000 * i);
            last = seq;
        }
        assert_eq!((w.ticks(), w.skipped()), (100, 2));
        // Ranks 49 and 98 of 1..=100 us.
        assert_eq!(w.percentiles_us(), (50.0, 99.0));
    }

    #[test]
    fn only_the_last_samples_count_and_a_wake_before_the_publication_is_zero() {
        let mut w = WakeStats::new();
        // 1000 slow ticks, then WAKE_SAMPLES fast ones: the slow ones are gone.
        for i in 0..1000u64 {
            w.record(i, i + 1, 0, 5_000_000);
        }
        for i in 1000..1000 + WAKE_SAMPLES as u64 {
            w.record(i, i + 1, 10_000, 12_000);
        }
        assert_eq!(w.percentiles_us(), (2.0, 2.0));
        // A sequence that went back (a reload) skips nothing; a clock that reads earlier is 0.
        w.record(5000, 1, 9_000, 8_000);
        assert_eq!(w.skipped(), 0);
        assert_eq!(w.ticks(), 1001 + WAKE_SAMPLES as u64);
        let (p50, _) = w.percentiles_us();
        assert_eq!(p50, 2.0);
    }
}
