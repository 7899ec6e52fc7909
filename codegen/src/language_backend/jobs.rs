//! Runs independent jobs on a fixed number of threads, each thread taking the next job as
//! it finishes one, and returns the results in the jobs' order. The backends share it so
//! that the Rust file's parts and the text targets fill the cores without oversubscribing
//! them.

use std::sync::atomic::{AtomicUsize, Ordering};

/// At most this many threads run the jobs of one generation.
const MAX_THREADS: usize = 8;

/// The threads worth starting on this machine: one per core, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Runs `job(0)`, ..., `job(count - 1)` on up to `threads` threads (the calling thread is
/// one of them) and returns their results in that order. Jobs are taken in index order,
/// so the longest ones should come first. A job's panic is resumed on the caller.
pub fn run_jobs<T: Send>(count: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = threads.min(count);
    if threads <= 1 {
        return (0..count).map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= count {
                return done;
            }
            done.push((i, job(i)));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut done = work();
        for handle in others {
            match handle.join() {
                Ok(theirs) => done.extend(theirs),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::run_jobs;

    #[test]
    fn results_come_back_in_job_order_for_any_number_of_threads() {
        let expected: Vec<usize> = (0..50).map(|i| i * i).collect();
        for threads in [0, 1, 2, 3, 8, 100] {
            assert_eq!(
                run_jobs(50, threads, |i| i * i),
                expected,
                "{threads} threads"
            );
        }
        assert!(run_jobs(0, 4, |i| i).is_empty());
    }

    #[test]
    #[should_panic(expected = "job 7 failed")]
    fn a_job_panic_reaches_the_caller() {
        run_jobs(10, 3, |i| assert!(i != 7, "job {i} failed"));
    }
}
