//! Ordered parallel processing of many items (files of a search, files of a multi-file patch):
//! the work runs on all cores, the results come back on the calling thread in input order.
//!
//! Contract of [`Pool::for_each_ordered`]:
//! - `produce` runs on its own thread and hands items to `emit` one by one; `work` runs on the
//!   pool's worker threads (each with its own state from `init`), items taken in emit order, so
//!   a slow item never holds up the others; `take` runs on the calling thread and sees every
//!   item with its result in emit order.
//! - Bounded memory: at most `window` items are in flight (emitted and not yet taken); `emit`
//!   blocks while the window is full.
//! - `take` returning [`ControlFlow::Break`] ends the run early: `emit` returns `false` from then
//!   on (the producer should stop), queued items are dropped without running `work`, and no
//!   further item reaches `take`.
//! - A panic in `produce` or `work` ends the run and is resumed on the calling thread once every
//!   thread has stopped (no thread is left behind, nothing hangs).
//! - With one thread everything runs inline on the calling thread, in the same order.

use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Items in flight by default, per worker thread.
const WINDOW_PER_THREAD: usize = 256;

/// How many threads a run uses and how far ahead of `take` the workers may get.
#[derive(Debug, Clone, Copy)]
pub struct Pool {
    threads: usize,
    window: usize,
}

impl Pool {
    /// One worker per available core.
    pub fn all_cores() -> Pool {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Pool::with_threads(cores)
    }

    /// `threads` workers (at least one); one means inline on the calling thread.
    pub fn with_threads(threads: usize) -> Pool {
        let threads = threads.max(1);
        Pool {
            threads,
            window: threads * WINDOW_PER_THREAD,
        }
    }

    /// The same pool with at most `window` items in flight (at least one).
    pub fn window(self, window: usize) -> Pool {
        Pool {
            window: window.max(1),
            ..self
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `work` on every item `produce` emits and hands the results to `take` in emit order
    /// (see the module's contract).
    pub fn for_each_ordered<I, S, R>(
        &self,
        produce: impl FnOnce(&mut dyn FnMut(I) -> bool) + Send,
        init: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, &I) -> R + Sync,
        mut take: impl FnMut(I, R) -> ControlFlow<()>,
    ) where
        I: Send,
        R: Send,
    {
        if self.threads == 1 {
            let mut state = init();
            produce(&mut |item| {
                let result = work(&mut state, &item);
                take(item, result).is_continue()
            });
            return;
        }
        let run = Run::new(self.window);
        let panic = run.go(self.threads, produce, &init, &work, &mut take);
        if let Some(payload) = panic {
            resume_unwind(payload);
        }
    }

    /// `work` applied to every item, on all the pool's threads; results in input order.
    pub fn map_ordered<I, R>(&self, items: Vec<I>, work: impl Fn(&I) -> R + Sync) -> Vec<R>
    where
        I: Send,
        R: Send,
    {
        let mut results = Vec::with_capacity(items.len());
        self.for_each_ordered(
            |emit| {
                for item in items {
                    if !emit(item) {
                        break;
                    }
                }
            },
            || (),
            |(), item| work(item),
            |_, result| {
                results.push(result);
                ControlFlow::Continue(())
            },
        );
        results
    }
}

type Payload = Box<dyn std::any::Any + Send>;

/// What the workers and the producer tell the calling thread.
enum Msg<I, R> {
    Done(usize, I, R),
    /// The producer emitted this many items in all.
    Produced(usize),
    Panicked(Payload),
}

/// The state one parallel run shares between its threads.
struct Run {
    stop: AtomicBool,
    /// Items taken so far; the producer waits on `room` while the window is full.
    taken: Mutex<usize>,
    room: Condvar,
    window: usize,
}

impl Run {
    fn new(window: usize) -> Run {
        Run {
            stop: AtomicBool::new(false),
            taken: Mutex::new(0),
            room: Condvar::new(),
            window,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _guard = self.taken.lock();
        self.room.notify_all();
    }

    /// Waits until item `index` fits in the window; false once the run stopped.
    fn wait_for_room(&self, index: usize) -> bool {
        let mut taken = self.taken.lock();
        while index >= *taken + self.window && !self.stopped() {
            self.room.wait(&mut taken);
        }
        !self.stopped()
    }

    fn took_one(&self) {
        let mut taken = self.taken.lock();
        *taken += 1;
        self.room.notify_one();
    }

    /// Spawns the producer and the workers, takes results in order; returns a caught panic.
    fn go<I: Send, S, R: Send>(
        &self,
        threads: usize,
        produce: impl FnOnce(&mut dyn FnMut(I) -> bool) + Send,
        init: &(impl Fn() -> S + Sync),
        work: &(impl Fn(&mut S, &I) -> R + Sync),
        take: &mut impl FnMut(I, R) -> ControlFlow<()>,
    ) -> Option<Payload> {
        let (item_tx, item_rx) = mpsc::sync_channel::<(usize, I)>(self.window);
        let item_rx = Mutex::new(item_rx);
        let (done_tx, done_rx) = mpsc::channel::<Msg<I, R>>();
        std::thread::scope(|scope| {
            let producer_tx = done_tx.clone();
            scope.spawn(move || self.produce(produce, item_tx, producer_tx));
            for _ in 0..threads {
                let (rx, tx) = (&item_rx, done_tx.clone());
                scope.spawn(move || self.work(rx, tx, init, work));
            }
            drop(done_tx);
            let panic = self.take_in_order(done_rx, take);
            self.halt();
            panic
        })
    }

    fn produce<I, R>(
        &self,
        produce: impl FnOnce(&mut dyn FnMut(I) -> bool),
        items: mpsc::SyncSender<(usize, I)>,
        done: mpsc::Sender<Msg<I, R>>,
    ) {
        let mut count = 0;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            produce(&mut |item| {
                if !self.wait_for_room(count) || items.send((count, item)).is_err() {
                    return false;
                }
                count += 1;
                true
            })
        }));
        let _ = done.send(match outcome {
            Ok(()) => Msg::Produced(count),
            Err(payload) => Msg::Panicked(payload),
        });
    }

    fn work<I, S, R>(
        &self,
        items: &Mutex<mpsc::Receiver<(usize, I)>>,
        done: mpsc::Sender<Msg<I, R>>,
        init: &impl Fn() -> S,
        work: &impl Fn(&mut S, &I) -> R,
    ) {
        let mut state = None;
        loop {
            let next = items.lock().recv();
            let Ok((index, item)) = next else { return };
            if self.stopped() {
                continue;
            }
            let state = state.get_or_insert_with(init);
            let msg = match catch_unwind(AssertUnwindSafe(|| work(state, &item))) {
                Ok(result) => Msg::Done(index, item, result),
                Err(payload) => Msg::Panicked(payload),
            };
            // A closed channel means the taker stopped: keep draining so the producer can finish.
            let _ = done.send(msg);
        }
    }

    /// Hands results to `take` in emit order until all are taken, `take` breaks or a thread
    /// panicked (returned).
    fn take_in_order<I, R>(
        &self,
        done: mpsc::Receiver<Msg<I, R>>,
        take: &mut impl FnMut(I, R) -> ControlFlow<()>,
    ) -> Option<Payload> {
        let mut pending: VecDeque<Option<(I, R)>> = VecDeque::new();
        let (mut next, mut total) = (0, None);
        while total != Some(next) {
            let Ok(msg) = done.recv() else { return None };
            match msg {
                Msg::Produced(count) => total = Some(count),
                Msg::Panicked(payload) => return Some(payload),
                Msg::Done(index, item, result) => {
                    let slot = index - next;
                    if pending.len() <= slot {
                        pending.resize_with(slot + 1, || None);
                    }
                    pending[slot] = Some((item, result));
                }
            }
            while pending.front().is_some_and(Option::is_some) {
                let Some(Some((item, result))) = pending.pop_front() else {
                    break;
                };
                next += 1;
                if take(item, result).is_break() {
                    return None;
                }
                self.took_one();
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
