//! Runs independent jobs on a fixed number of threads, each thread taking the heaviest job
//! left as it finishes one, and returns the results in the jobs' order. The backends share it so
//! that the Rust file's parts and the text targets fill the cores without oversubscribing
//! them.

use std::sync::atomic::{AtomicUsize, Ordering};

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
    let count = weights.len();
    let threads = threads.min(count);
    if threads <= 1 {
        return (0..count).map(job).collect();
    }
    let order = heaviest_first(weights);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
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
    use super::{heaviest_first, run_jobs};

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

    #[test]
    #[should_panic(expected = "job 7 failed")]
    fn a_job_panic_reaches_the_caller() {
        run_jobs(&[1; 10], 3, |i| assert!(i != 7, "job {i} failed"));
    }
}
