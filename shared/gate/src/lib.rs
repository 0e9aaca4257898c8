//! Bounded concurrency for expensive work (drawing a board picture, hashing a password):
//! a [`Gate`] has so many threads of its own doing the work and lets so many more pieces
//! wait for one; beyond that, work is refused at once with [`Busy`], so a burst of requests
//! costs at most the memory of the work let in, and its callers learn that they may try
//! again soon.
//!
//! The work runs on the gate's own threads, not the caller's: an allocator keeps some of
//! what a thread freed for that thread's next allocations, so work spread over the many
//! threads of a blocking pool would leave its memory behind on each of them, and the
//! process would grow with the number of callers, not with the work let in at once.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};

use thiserror::Error;

/// Seconds a caller refused with [`Busy`] is told to wait before trying again.
pub const RETRY_AFTER: u64 = 1;

/// Work was refused: the gate's threads were all at work and as many pieces as it lets
/// wait were waiting. Nothing was done; the same request may succeed in [`RETRY_AFTER`]
/// seconds.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("the server is too busy to {what} now: try again in {RETRY_AFTER} s")]
pub struct Busy {
    /// What was refused (`draw a board`), to finish the sentence "too busy to ...".
    pub what: &'static str,
}

/// A piece of work for a gate's thread.
type Job = Box<dyn FnOnce() + Send>;

/// What became of a piece of work: its value, or its panic.
type Outcome<T> = Result<T, Box<dyn Any + Send>>;

/// The value of `outcome`, its panic going on in the caller.
fn unwound<T>(outcome: Outcome<T>) -> T {
    match outcome {
        Ok(value) => value,
        Err(panic) => resume_unwind(panic),
    }
}

/// A gate: `threads` threads of its own doing the work, at most `queue` pieces waiting for
/// one. The threads start at the first piece of work.
#[derive(Debug)]
pub struct Gate {
    what: &'static str,
    threads: usize,
    queue: usize,
    jobs: OnceLock<SyncSender<Job>>,
}

impl Gate {
    /// A gate for work described by `what` (see [`Busy::what`]) with `threads` threads
    /// (at least one) and `queue` more pieces waiting; usable as a `static`.
    pub const fn new(what: &'static str, threads: usize, queue: usize) -> Gate {
        Gate {
            what,
            threads,
            queue,
            jobs: OnceLock::new(),
        }
    }

    /// `work` done on one of the gate's threads, the caller waiting for it (call it off
    /// async threads): at once if a thread is free, else after the pieces before it, if
    /// fewer than the queue's length wait; [`Busy`] at once otherwise. A panic of `work`
    /// goes on in the caller.
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Busy> {
        let (done, outcome) = sync_channel(1);
        self.submit(work, move |result| {
            let _ = done.send(result);
        })?;
        Ok(unwound(
            outcome.recv().expect("a gate's thread answers every job"),
        ))
    }

    /// [`Gate::run`] for async callers: the task waits for `work` without holding a thread.
    pub async fn run_async<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Busy> {
        let (done, outcome) = tokio::sync::oneshot::channel();
        self.submit(work, move |result| {
            let _ = done.send(result);
        })?;
        Ok(unwound(
            outcome.await.expect("a gate's thread answers every job"),
        ))
    }

    /// Hands `work` to the gate's threads, its outcome (or its panic) to `deliver`;
    /// [`Busy`] when the queue is full.
    fn submit<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
        deliver: impl FnOnce(Outcome<T>) + Send + 'static,
    ) -> Result<(), Busy> {
        let job: Job = Box::new(move || deliver(catch_unwind(AssertUnwindSafe(work))));
        match self.jobs().try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(Busy { what: self.what }),
            Err(TrySendError::Disconnected(_)) => unreachable!("the gate's threads never stop"),
        }
    }

    /// Where jobs are sent, the threads started the first time.
    fn jobs(&self) -> &SyncSender<Job> {
        self.jobs.get_or_init(|| {
            let (jobs, queued) = sync_channel::<Job>(self.queue);
            let queued = Arc::new(Mutex::new(queued));
            for number in 0..self.threads.max(1) {
                let queued = Arc::clone(&queued);
                std::thread::Builder::new()
                    .name(format!("gate-{}-{number}", self.what.replace(' ', "-")))
                    .spawn(move || work_through(&queued))
                    .expect("a gate's thread starts");
            }
            jobs
        })
    }
}

/// A gate's thread: takes the jobs one by one, for ever.
fn work_through(queued: &Mutex<Receiver<Job>>) {
    loop {
        let job = queued
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .recv();
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Barrier;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// `work` run through `gate` as soon as the gate takes it.
    fn taken<T: Send + 'static>(gate: &Gate, work: impl Fn() -> T + Send + Clone + 'static) -> T {
        loop {
            if let Ok(value) = gate.run(work.clone()) {
                return value;
            }
            std::thread::yield_now();
        }
    }

    #[test]
    fn work_beyond_the_threads_and_the_queue_is_refused_until_a_thread_is_free() {
        static GATE: Gate = Gate::new("test", 1, 0);
        let (started, release) = (Arc::new(Barrier::new(2)), Arc::new(Barrier::new(2)));
        let holder = std::thread::spawn({
            let (started, release) = (Arc::clone(&started), Arc::clone(&release));
            move || {
                taken(&GATE, move || {
                    started.wait();
                    release.wait();
                })
            }
        });
        started.wait();
        assert_eq!(GATE.run(|| ()).unwrap_err(), Busy { what: "test" });
        assert_eq!(
            Busy { what: "test" }.to_string(),
            "the server is too busy to test now: try again in 1 s"
        );
        release.wait();
        holder.join().unwrap();
        assert_eq!(taken(&GATE, || 7), 7);
    }

    #[test]
    fn work_within_threads_and_queue_all_runs_never_more_at_once_than_the_threads() {
        static GATE: Gate = Gate::new("test", 2, 10);
        static INSIDE: AtomicUsize = AtomicUsize::new(0);
        static MOST: AtomicUsize = AtomicUsize::new(0);
        let callers: Vec<_> = (0..10)
            .map(|_| {
                std::thread::spawn(|| {
                    GATE.run(|| {
                        let now = INSIDE.fetch_add(1, Ordering::SeqCst) + 1;
                        MOST.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        INSIDE.fetch_sub(1, Ordering::SeqCst);
                    })
                })
            })
            .collect();
        for caller in callers {
            assert!(caller.join().unwrap().is_ok(), "10 waiting fit");
        }
        assert!(MOST.load(Ordering::SeqCst) <= 2);
    }

    #[test]
    fn a_panic_of_the_work_goes_on_in_the_caller_and_the_gate_still_works() {
        static GATE: Gate = Gate::new("test", 1, 1);
        let caught = catch_unwind(|| GATE.run(|| panic!("the work failed")));
        assert!(caught.is_err());
        assert_eq!(GATE.run(|| 1), Ok(1));
    }
}
