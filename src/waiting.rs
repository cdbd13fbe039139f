//! Calls that may wait for a lock (file locks, the undo store's lock, the task store's lock) run
//! on the addon's own threads, never on libuv's pool: a wait on a stopped lock holder then delays
//! neither Node's own file work (`fs.promises`, DNS, zlib) nor edits of other files, and process
//! exit (which joins libuv's pool) is never held by a pending wait.
//!
//! The pool grows in two ways. Up to [`eager_threads`] threads (one per core, at least 4: as many
//! writers as keep a disk busy) start as soon as calls queue. Past that, a queued call gets a new
//! thread only when no call has started or ended for [`STALL`] (the running ones are waiting on
//! locks), one more each time, up to [`MAX_THREADS`]. So a burst of a thousand calls runs on a few
//! threads instead of a hundred fighting for two cores and the undo store's lock, while calls
//! stuck behind a stopped lock holder still leave room for the others. A thread idle for
//! [`IDLE_EXIT`] ends. Each call's promise settles on the JS thread through a deferred; a panic
//! rejects it.

use napi::bindgen_prelude::{AsyncTask, ToNapiValue, TypeName};
use napi::{sys, Env, JsValue, Task};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Most threads the pool runs at once (each waits at most its call's lock timeout).
const MAX_THREADS: usize = 128;
/// How long an idle thread stays for the next call.
const IDLE_EXIT: Duration = Duration::from_secs(10);
/// With calls queued and every thread busy, how long without a call starting or ending before
/// another thread is started.
const STALL: Duration = Duration::from_millis(20);

/// Threads started without waiting for a stall: one per core, at least 4.
fn eager_threads() -> usize {
    static EAGER: LazyLock<usize> =
        LazyLock::new(|| std::thread::available_parallelism().map_or(4, |n| n.get().max(4)));
    *EAGER
}

type Job = Box<dyn FnOnce() + Send>;

struct State {
    queue: VecDeque<Job>,
    idle: usize,
    threads: usize,
    /// When a call last started or ended.
    progress: Instant,
    /// A watcher thread is running (see [`watch`]).
    watching: bool,
}

static STATE: LazyLock<Mutex<State>> = LazyLock::new(|| {
    Mutex::new(State {
        queue: VecDeque::new(),
        idle: 0,
        threads: 0,
        progress: Instant::now(),
        watching: false,
    })
});
static READY: Condvar = Condvar::new();

/// The pool's state (a panic never happens under this lock, so poisoning is ignored).
fn state() -> MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts a pool thread; false when it cannot be started.
fn start_thread(state: &mut State) -> bool {
    let spawned = std::thread::Builder::new()
        .name("edit-engine-call".into())
        .spawn(work)
        .is_ok();
    state.threads += usize::from(spawned);
    spawned
}

/// Queues `job`; it runs on an idle pool thread, a new one, or the next one free. `Err(job)` when
/// no thread exists and none could be started (the caller runs the job elsewhere).
fn submit(job: Job) -> Result<(), Job> {
    let mut state = state();
    state.queue.push_back(job);
    if state.queue.len() <= state.idle {
        READY.notify_one();
        return Ok(());
    }
    if state.threads < eager_threads() {
        if !start_thread(&mut state) && state.threads == 0 {
            return Err(state.queue.pop_back().expect("the job just queued"));
        }
        return Ok(());
    }
    if !state.watching {
        state.watching = std::thread::Builder::new()
            .name("edit-engine-watch".into())
            .spawn(watch)
            .is_ok();
    }
    Ok(())
}

/// While calls are queued: starts another thread whenever none has started or ended for
/// [`STALL`]; ends when the queue is empty.
fn watch() {
    let mut state = state();
    loop {
        if state.queue.is_empty() {
            state.watching = false;
            return;
        }
        let quiet = state.progress.elapsed();
        let wait = if quiet >= STALL && state.threads < MAX_THREADS && start_thread(&mut state) {
            state.progress = Instant::now();
            STALL
        } else {
            STALL.saturating_sub(quiet).max(Duration::from_millis(1))
        };
        drop(state);
        std::thread::sleep(wait);
        state = self::state();
    }
}

/// A pool thread: runs queued jobs, ends after [`IDLE_EXIT`] without one.
fn work() {
    let mut state = state();
    loop {
        if let Some(job) = state.queue.pop_front() {
            state.progress = Instant::now();
            drop(state);
            job();
            state = self::state();
            state.progress = Instant::now();
            continue;
        }
        state.idle += 1;
        let (guard, wait) = READY
            .wait_timeout(state, IDLE_EXIT)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state = guard;
        state.idle -= 1;
        let timed_out = wait.timed_out();
        if timed_out && state.queue.is_empty() {
            state.threads -= 1;
            return;
        }
    }
}

/// A napi [`Task`] whose `compute` runs on the addon's own threads (see the module doc); returned
/// from a binding, it becomes a Promise like napi's `AsyncTask`.
pub struct OwnThreadTask<T: Task + 'static>(pub T);

impl<T: Task + 'static> TypeName for OwnThreadTask<T> {
    fn type_name() -> &'static str {
        "OwnThreadTask"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::Object
    }
}

type Resolver<T> = Box<dyn FnOnce(Env) -> napi::Result<<T as Task>::JsValue>>;

impl<T: Task + 'static> ToNapiValue for OwnThreadTask<T> {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        let js_env = Env::from_raw(env);
        let (deferred, promise) = js_env.create_deferred::<T::JsValue, Resolver<T>>()?;
        let raw_promise = promise.raw();
        let mut task = val.0;
        let job: Job = Box::new(
            move || match catch_unwind(AssertUnwindSafe(|| task.compute())) {
                Ok(Ok(output)) => deferred.resolve(Box::new(move |env| task.resolve(env, output))),
                Ok(Err(error)) => deferred.reject(error),
                Err(panic) => deferred.reject(napi::Error::from_reason(format!(
                    "internal error in edit-engine ({})",
                    crate::tool_call::panic_text(&panic)
                ))),
            },
        );
        if let Err(job) = submit(job) {
            // No thread can be started: run the call where napi would (libuv's pool).
            let fallback = AsyncTask::new(JobTask(Some(job)));
            let _ = ToNapiValue::to_napi_value(env, fallback)?;
        }
        Ok(raw_promise)
    }
}

/// A queued job run as a plain libuv task (the pool's fallback when it has no thread).
struct JobTask(Option<Job>);

impl Task for JobTask {
    type Output = ();
    type JsValue = ();

    fn compute(&mut self) -> napi::Result<()> {
        if let Some(job) = self.0.take() {
            job();
        }
        Ok(())
    }

    fn resolve(&mut self, _env: Env, _output: ()) -> napi::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{mpsc, Arc};

    /// The pool is the process's: its tests take turns.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    /// A burst of short calls runs on the eager threads: no call waits long enough for the watcher
    /// to add one (a few may come from a loaded machine's pauses, never one per call).
    #[test]
    fn a_burst_of_short_calls_runs_on_a_few_threads() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (done, finished) = mpsc::channel();
        for _ in 0..300 {
            let (running, most, done) = (running.clone(), most.clone(), done.clone());
            let job: Job = Box::new(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_micros(500));
                running.fetch_sub(1, Ordering::SeqCst);
                done.send(()).unwrap();
            });
            assert!(submit(job).is_ok());
        }
        for _ in 0..300 {
            finished.recv_timeout(Duration::from_secs(60)).unwrap();
        }
        let most = most.load(Ordering::SeqCst);
        assert!(most <= eager_threads() + 8, "{most} calls ran at once");
    }

    /// Calls stuck on a wait (as on a lock a stopped process holds) never keep a later call from
    /// running: with every thread stuck, the watcher starts another.
    #[test]
    fn calls_behind_stuck_ones_still_run() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let (release, stuck) = mpsc::channel::<()>();
        let stuck = Arc::new(Mutex::new(stuck));
        for _ in 0..eager_threads() + 3 {
            let stuck = stuck.clone();
            let job: Job = Box::new(move || {
                let _ = stuck.lock().unwrap().recv_timeout(Duration::from_secs(60));
            });
            assert!(submit(job).is_ok());
        }
        let (done, finished) = mpsc::channel();
        assert!(submit(Box::new(move || done.send(()).unwrap())).is_ok());
        let ran = finished.recv_timeout(Duration::from_secs(30));
        for _ in 0..eager_threads() + 3 {
            let _ = release.send(());
        }
        assert!(ran.is_ok(), "the call behind the stuck ones never ran");
    }
}
