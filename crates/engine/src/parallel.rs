//! Ordered parallel processing of many items (files of a search, files of a multi-file patch):
//! the work runs on all cores, the results come back on the calling thread in input order.
//!
//! Contract of [`Pool::for_each_ordered`]:
//! - `produce` runs on its own thread and hands items to `emit` one by one; `work` runs on the
//!   pool's worker threads (each with its own state from `init`), items taken in emit order, so
//!   a slow item never holds up the others; `take` runs on the calling thread and sees every
//!   item with its result in emit order.
//! - Bounded memory: at most `window` items are in flight (emitted and not yet taken); `emit`
//!   blocks while the window is full. Items travel to the workers in small chunks (see
//!   [`MAX_CHUNK`]), so threads wake each other once per chunk, not once per item.
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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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

/// Items handed to a worker at once, at most: few enough to balance the load, enough that the
/// threads seldom wake each other (a handoff per item costs more than searching a small file).
const MAX_CHUNK: usize = 32;

/// Consecutive items handed to one worker: the chunk's number and its items.
type Chunk<I> = (usize, Vec<I>);

/// What the workers and the producer tell the calling thread.
enum Msg<I, R> {
    /// A chunk's items with their results.
    Done(usize, Vec<(I, R)>),
    /// The producer emitted this many chunks in all.
    Produced(usize),
    Panicked(Payload),
}

/// The state one parallel run shares between its threads.
struct Run {
    stop: AtomicBool,
    /// Items taken so far.
    taken: AtomicUsize,
    /// Held while the producer checks for room and waits on `room`, and while `taken` grows.
    gate: Mutex<()>,
    room: Condvar,
    window: usize,
}

impl Run {
    fn new(window: usize) -> Run {
        Run {
            stop: AtomicBool::new(false),
            taken: AtomicUsize::new(0),
            gate: Mutex::new(()),
            room: Condvar::new(),
            window,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _gate = self.gate.lock();
        self.room.notify_all();
    }

    fn fits(&self, index: usize) -> bool {
        index < self.taken.load(Ordering::Acquire) + self.window
    }

    /// Waits until item `index` fits in the window; false once the run stopped.
    fn wait_for_room(&self, index: usize) -> bool {
        let mut gate = self.gate.lock();
        while !self.fits(index) && !self.stopped() {
            self.room.wait(&mut gate);
        }
        !self.stopped()
    }

    fn took(&self, count: usize) {
        let _gate = self.gate.lock();
        self.taken.fetch_add(count, Ordering::Release);
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
        let (chunk_tx, chunk_rx) = mpsc::sync_channel::<Chunk<I>>(self.window);
        let chunk_rx = Mutex::new(chunk_rx);
        let (done_tx, done_rx) = mpsc::channel::<Msg<I, R>>();
        std::thread::scope(|scope| {
            let producer_tx = done_tx.clone();
            scope.spawn(move || self.produce(produce, chunk_tx, producer_tx));
            for _ in 0..threads {
                let (rx, tx) = (&chunk_rx, done_tx.clone());
                scope.spawn(move || self.work(rx, tx, init, work));
            }
            drop(done_tx);
            let panic = self.take_in_order(done_rx, take);
            self.halt();
            panic
        })
    }

    /// Runs `produce`, sending its items in chunks that grow from 1 to [`MAX_CHUNK`] (the first
    /// items start at once); a partial chunk is sent before waiting for room in the window.
    fn produce<I, R>(
        &self,
        produce: impl FnOnce(&mut dyn FnMut(I) -> bool),
        chunks: mpsc::SyncSender<Chunk<I>>,
        done: mpsc::Sender<Msg<I, R>>,
    ) {
        let max_chunk = MAX_CHUNK.min(self.window);
        let (mut count, mut sent, mut target) = (0, 0, 1);
        let mut chunk = Vec::new();
        let flush = |chunk: &mut Vec<I>, sent: &mut usize| {
            if chunk.is_empty() {
                return true;
            }
            *sent += 1;
            chunks.send((*sent - 1, std::mem::take(chunk))).is_ok()
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            produce(&mut |item| {
                // No room: send what is buffered first, so the taker can make room.
                let room =
                    self.fits(count) || (flush(&mut chunk, &mut sent) && self.wait_for_room(count));
                if !room {
                    return false;
                }
                chunk.push(item);
                count += 1;
                if chunk.len() >= target {
                    target = (target * 2).min(max_chunk);
                    return flush(&mut chunk, &mut sent) && !self.stopped();
                }
                !self.stopped()
            });
            if !chunk.is_empty() {
                flush(&mut chunk, &mut sent);
            }
        }));
        let _ = done.send(match outcome {
            Ok(()) => Msg::Produced(sent),
            Err(payload) => Msg::Panicked(payload),
        });
    }

    fn work<I, S, R>(
        &self,
        chunks: &Mutex<mpsc::Receiver<Chunk<I>>>,
        done: mpsc::Sender<Msg<I, R>>,
        init: &impl Fn() -> S,
        work: &impl Fn(&mut S, &I) -> R,
    ) {
        let mut state = None;
        loop {
            let next = chunks.lock().recv();
            let Ok((number, items)) = next else { return };
            if self.stopped() {
                continue;
            }
            let state = state.get_or_insert_with(init);
            let run = || {
                items
                    .into_iter()
                    .map(|item| {
                        let result = work(state, &item);
                        (item, result)
                    })
                    .collect()
            };
            let msg = match catch_unwind(AssertUnwindSafe(run)) {
                Ok(results) => Msg::Done(number, results),
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
        let mut pending: VecDeque<Option<Vec<(I, R)>>> = VecDeque::new();
        let (mut next, mut total) = (0, None);
        while total != Some(next) {
            let Ok(msg) = done.recv() else { return None };
            match msg {
                Msg::Produced(count) => total = Some(count),
                Msg::Panicked(payload) => return Some(payload),
                Msg::Done(number, results) => {
                    let slot = number - next;
                    if pending.len() <= slot {
                        pending.resize_with(slot + 1, || None);
                    }
                    pending[slot] = Some(results);
                }
            }
            while pending.front().is_some_and(Option::is_some) {
                let Some(Some(results)) = pending.pop_front() else {
                    break;
                };
                next += 1;
                let count = results.len();
                for (item, result) in results {
                    if take(item, result).is_break() {
                        return None;
                    }
                }
                self.took(count);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
