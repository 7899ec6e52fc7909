//! Runs independent jobs on a fixed number of threads, each thread taking the heaviest job
//! left as it finishes one, and returns the results in the jobs' order. `generate_all`
//! (language_backend/mod.rs) runs the Rust file's parts and the text targets on it, so that
//! they fill the cores without oversubscribing them.

use std::sync::{Condvar, Mutex, PoisonError};

/// At most this many threads run the jobs of one generation.
const MAX_THREADS: usize = 8;

/// The threads worth starting on this machine: one per core, at most `MAX_THREADS` (8).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Runs `job(i)` for every `i` in `0..weights.len()` on up to `threads` threads (the
/// calling thread is one of them) and returns the results in index order. `weights[i]`
/// estimates what job `i` costs: threads take the heaviest job left first, so that no
/// thread is left alone with a long job at the end. A job's panic is resumed on the caller.
pub fn run_jobs<T: Send>(
    weights: &[usize],
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    run_jobs_capped(weights, &vec![false; weights.len()], 1, threads, job)
}

/// Like [`run_jobs`], but at most `cap` (at least 1) of the jobs for which `capped[i]` holds
/// run at once: a thread that finds only capped jobs left while `cap` of them run waits for
/// one to end. The text targets are capped so that two of them do not build their template
/// contexts and texts at the same time, which set the peak memory of a large schema
/// (bench/README.md); the other threads print the Rust file's parts meanwhile.
pub fn run_jobs_capped<T: Send>(
    weights: &[usize],
    capped: &[bool],
    cap: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    assert_eq!(weights.len(), capped.len(), "one capped flag per job");
    let count = weights.len();
    let threads = threads.min(count);
    if threads <= 1 {
        return (0..count).map(job).collect();
    }
    let cap = cap.max(1);
    // The jobs not yet taken, heaviest first, and how many capped ones run.
    let queue = Mutex::new((heaviest_first(weights), 0usize));
    let ended = Condvar::new();
    let lock = || queue.lock().unwrap_or_else(PoisonError::into_inner);
    let take = || {
        let mut q = lock();
        loop {
            let (left, running) = &mut *q;
            if left.is_empty() {
                return None;
            }
            if let Some(at) = left.iter().position(|&i| !capped[i] || *running < cap) {
                let i = left.remove(at);
                *running += usize::from(capped[i]);
                return Some(i);
            }
            q = ended.wait(q).unwrap_or_else(PoisonError::into_inner);
        }
    };
    // Ends a capped job's turn however the job ends, its panic included, so that a thread
    // waiting for a turn is never left waiting.
    struct Turn<'a, F: Fn()>(&'a F);
    impl<F: Fn()> Drop for Turn<'_, F> {
        fn drop(&mut self) {
            (self.0)();
        }
    }
    let end_turn = || {
        lock().1 -= 1;
        ended.notify_all();
    };
    let work = || {
        let mut done = Vec::new();
        while let Some(i) = take() {
            let _turn = capped[i].then(|| Turn(&end_turn));
            done.push((i, job(i)));
        }
        done
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

/// The indices of `weights`, heaviest first; equal weights keep their order.
fn heaviest_first(weights: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weights[i]));
    order
}

#[cfg(test)]
mod tests {
    use super::{heaviest_first, run_jobs, run_jobs_capped};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    #[test]
    fn results_come_back_in_index_order_for_any_number_of_threads_and_weights() {
        let expected: Vec<usize> = (0..50).map(|i| i * i).collect();
        let weights: Vec<usize> = (0..50).map(|i| (i * 37) % 11).collect();
        for threads in [0, 1, 2, 3, 8, 100] {
            let uneven = run_jobs(&weights, threads, |i| i * i);
            assert_eq!(uneven, expected, "{threads} threads");
            let even = run_jobs(&[1; 50], threads, |i| i * i);
            assert_eq!(even, expected, "{threads} threads");
        }
        assert!(run_jobs(&[], 4, |i| i).is_empty());
    }

    #[test]
    fn jobs_are_taken_heaviest_first_and_ties_in_index_order() {
        assert_eq!(heaviest_first(&[1, 5, 3, 9, 2, 5]), [3, 1, 5, 2, 4, 0]);
        assert!(heaviest_first(&[]).is_empty());
    }

    /// Never more than `cap` capped jobs at once, every job run once, results in order; and
    /// the cap is reached: a capped job waits (5 s at most) for `cap` of them to run while
    /// more are left to start, so the most seen at once is the cap, not less, and then
    /// holds its turn 2 ms, so that one more would be seen if the cap let it in.
    #[test]
    fn capped_jobs_never_run_more_than_cap_at_once() {
        for (threads, cap) in [(2, 1), (4, 1), (4, 2), (8, 3)] {
            let capped: Vec<bool> = (0..24).map(|i| i % 3 != 0).collect();
            let total = capped.iter().filter(|&&c| c).count();
            let (running, started, most) = (
                AtomicUsize::new(0),
                AtomicUsize::new(0),
                AtomicUsize::new(0),
            );
            let out = run_jobs_capped(&[1; 24], &capped, cap, threads, |i| {
                if capped[i] {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    started.fetch_add(1, Ordering::SeqCst);
                    most.fetch_max(now, Ordering::SeqCst);
                    let deadline = Instant::now() + Duration::from_secs(5);
                    while running.load(Ordering::SeqCst) < cap
                        && started.load(Ordering::SeqCst) < total
                        && Instant::now() < deadline
                    {
                        std::thread::sleep(Duration::from_micros(100));
                    }
                    // Held a little longer, so that a capped job past the cap would overlap.
                    std::thread::sleep(Duration::from_millis(2));
                    most.fetch_max(running.load(Ordering::SeqCst), Ordering::SeqCst);
                    running.fetch_sub(1, Ordering::SeqCst);
                }
                i * 2
            });
            assert_eq!(out, (0..24).map(|i| i * 2).collect::<Vec<_>>());
            assert_eq!(
                most.load(Ordering::SeqCst),
                cap,
                "{threads} threads, cap {cap}"
            );
        }
    }

    /// A capped job's panic reaches the caller and leaves no thread waiting for its turn.
    #[test]
    #[should_panic(expected = "capped job 1 failed")]
    fn a_capped_job_panic_reaches_the_caller() {
        run_jobs_capped(&[1; 6], &[true; 6], 1, 3, |i| {
            assert!(i != 1, "capped job {i} failed");
        });
    }

    #[test]
    #[should_panic(expected = "job 7 failed")]
    fn a_job_panic_reaches_the_caller() {
        run_jobs(&[1; 10], 3, |i| assert!(i != 7, "job {i} failed"));
    }
}
