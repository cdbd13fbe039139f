//! Calls that may wait for a lock (file locks, the undo store's lock, the task store's lock) run
//! on the addon's own threads, never on libuv's pool: a wait on a stopped lock holder then delays
//! neither Node's own file work (`fs.promises`, DNS, zlib) nor edits of other files, and process
//! exit (which joins libuv's pool) is never held by a pending wait.
//!
//! The pool is elastic: a call finds an idle thread or gets a new one (up to [`MAX_THREADS`];
//! past that, calls queue for the next free thread), and a thread idle for [`IDLE_EXIT`] ends.
//! Each call's promise settles on the JS thread through a deferred; a panic rejects it.

use napi::bindgen_prelude::{AsyncTask, ToNapiValue, TypeName};
use napi::{sys, Env, JsValue, Task};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, LazyLock, Mutex, MutexGuard};
use std::time::Duration;

/// Most threads the pool runs at once (each waits at most its call's lock timeout).
const MAX_THREADS: usize = 128;
/// How long an idle thread stays for the next call.
const IDLE_EXIT: Duration = Duration::from_secs(10);

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    idle: usize,
    threads: usize,
}

static STATE: LazyLock<Mutex<State>> = LazyLock::new(Default::default);
static READY: Condvar = Condvar::new();

/// The pool's state (a panic never happens under this lock, so poisoning is ignored).
fn state() -> MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Queues `job`; it runs on an idle pool thread or a new one. `Err(job)` when no thread exists
/// and none could be started (the caller runs the job elsewhere).
fn submit(job: Job) -> Result<(), Job> {
    let mut state = state();
    state.queue.push_back(job);
    if state.queue.len() <= state.idle {
        READY.notify_one();
        return Ok(());
    }
    if state.threads < MAX_THREADS {
        let spawned = std::thread::Builder::new()
            .name("edit-engine-call".into())
            .spawn(work);
        if spawned.is_ok() {
            state.threads += 1;
        } else if state.threads == 0 {
            return Err(state.queue.pop_back().expect("the job just queued"));
        }
    }
    Ok(())
}

/// A pool thread: runs queued jobs, ends after [`IDLE_EXIT`] without one.
fn work() {
    let mut state = state();
    loop {
        if let Some(job) = state.queue.pop_front() {
            drop(state);
            job();
            state = self::state();
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
