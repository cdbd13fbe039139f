//! The I/O a finished write does not have to wait for, done on background threads ([`SYNC_LANES`]
//! for syncs, one for the rest):
//! - the directory fsync that makes a rename durable ([`Durability::Standard`]); jobs queued
//!   together share one fsync per directory (group commit), so many concurrent writes into one
//!   folder pay for one directory sync, not one each;
//! - closing the last handle of a replaced file's old content, which makes the kernel free its
//!   blocks and page cache (about 1 ms for 4 MB) after the call has returned (a standard write's
//!   goes with its directory fsync, [`Job::SyncDirThenRelease`]);
//! - recording the undo level of a finished edit (the task keeps the file's lock until it is
//!   done, so the next edit or undo of that file waits for it; see `tools::write_frame`).
//!
//! The threads run under `SCHED_BATCH` (Linux): a call that wakes one is never preempted by it, so
//! the call's own rename and reply do not wait while the woken thread begins its fsync (1 KB and
//! 100 KB edits of `bench/disk-ratio.mjs` 4-7% sooner than at the normal policy); their share of
//! the CPU is unchanged, so a job holding a file's lock is never starved.
//!
//! Jobs of one kind submitted by one thread run in the order submitted: every thread's syncs go
//! to the same sync lane (threads are shared out among the lanes as they first submit one), so
//! many threads' syncs run in parallel while each call's level is still synced before its folder.
//!
//! Contract: every job submitted before [`flush`] was called has run when it returns. If the
//! thread cannot be started or its queue is full ([`MAX_PENDING_TASKS`], [`MAX_PENDING_SYNCS`]),
//! [`submit`] hands the job back and the caller runs it inline, so no job is ever dropped unrun
//! while the process lives and a burst of writes cannot queue memory without bound. A process
//! that exits with jobs queued leaves its renames to the kernel's own journal commit (seconds
//! later); the written data itself was fsynced before the rename either way.
use parking_lot::{Condvar, Mutex};
use std::fs::File;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::OnceLock;

/// When a write reports success.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Durability {
    /// After the new content is fsynced and renamed over the target; the directory fsync that
    /// makes the rename itself durable follows on the background thread within milliseconds. A
    /// power loss in that window leaves the previous complete file, never a torn or empty one.
    #[default]
    Standard,
    /// After the directory fsync too: the rename is durable when the call returns.
    Strict,
}

impl Durability {
    /// Parses the `durability` option (`"standard"` or `"strict"`).
    pub fn parse(value: &str) -> Option<Durability> {
        match value {
            "standard" => Some(Durability::Standard),
            "strict" => Some(Durability::Strict),
            _ => None,
        }
    }
}

/// Work for the background thread.
pub enum Job {
    /// fsync this directory (makes the renames done in it durable) or store file, then close it.
    SyncDir(File),
    /// Close this handle (the last reference to a replaced file's content).
    Release(File),
    /// [`Job::SyncDir`] of `dir`, then [`Job::Release`] of `release`, on the sync lane: a
    /// standard write's two jobs in one, so the call wakes one thread instead of two, and the
    /// replaced content's blocks are freed once the folder's sync is done rather than beside the
    /// rest of the call (1 KB edits on ext4 2-10% sooner).
    SyncDirThenRelease { dir: File, release: File },
    /// Run this task.
    Task(Box<dyn FnOnce() + Send>),
}

impl Job {
    /// Runs the job on the calling thread.
    pub fn run(self) {
        match self {
            Job::SyncDir(dir) | Job::SyncDirThenRelease { dir, .. } => drop(dir.sync_all()),
            Job::Release(_) => {}
            Job::Task(task) => task(),
        }
    }
}

/// One background thread and its queue.
struct Worker {
    jobs: Sender<Job>,
    /// (jobs submitted, jobs finished).
    counts: Mutex<(u64, u64)>,
    finished: Condvar,
}

/// A kind of job with its own thread (started on first use) and a bound on waiting jobs.
struct Lane {
    worker: OnceLock<Option<Worker>>,
    max_pending: u64,
}

/// Most jobs waiting in the task lane: each may hold a file's previous content (up to the size
/// cap of a file), so a burst of large edits records inline instead of queueing without bound.
pub const MAX_PENDING_TASKS: u64 = 8;
/// Most directory syncs waiting (each holds a directory handle).
pub const MAX_PENDING_SYNCS: u64 = 256;

/// Threads that sync: as many as the native baseline's writers (a disk takes several fsyncs at
/// once; one thread made many concurrent writes wait for each other's undo levels' syncs).
pub const SYNC_LANES: usize = 4;

/// Syncs get their own threads, so an undo record (which holds a file's lock) never waits behind
/// a slow fsync.
static SYNCS: [Lane; SYNC_LANES] = [const {
    Lane {
        worker: OnceLock::new(),
        max_pending: MAX_PENDING_SYNCS,
    }
}; SYNC_LANES];
/// Undo records, releases of old contents, stale-temp scans.
static TASKS: Lane = Lane {
    worker: OnceLock::new(),
    max_pending: MAX_PENDING_TASKS,
};

fn lane(job: &Job) -> &'static Lane {
    match job {
        Job::SyncDir(_) | Job::SyncDirThenRelease { .. } => &SYNCS[sync_lane_of_this_thread()],
        Job::Release(_) | Job::Task(_) => &TASKS,
    }
}

/// The sync lane of the calling thread: the same for all its jobs, assigned round-robin.
fn sync_lane_of_this_thread() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static LANE: usize = NEXT.fetch_add(1, Ordering::Relaxed) % SYNC_LANES;
    }
    LANE.with(|lane| *lane)
}

impl Lane {
    /// The lane's worker, started on first use; `None` when its thread cannot be started.
    fn started(&'static self) -> Option<&'static Worker> {
        self.worker
            .get_or_init(|| {
                let (jobs, queue) = channel();
                std::thread::Builder::new()
                    .name("edit-engine-io".into())
                    .spawn(move || {
                        crate::sys::lower_thread_policy(crate::sys::LowPolicy::NoWakePreemption);
                        run(queue, self)
                    })
                    .ok()?;
                Some(Worker {
                    jobs,
                    counts: Mutex::new((0, 0)),
                    finished: Condvar::new(),
                })
            })
            .as_ref()
    }

    /// The worker, if it was ever started.
    fn running(&self) -> Option<&Worker> {
        self.worker.get().and_then(Option::as_ref)
    }
}

/// Queues `job`; hands it back when there is no background thread or its lane is full (run it
/// inline then: the caller waits, which is the backpressure).
pub fn submit(job: Job) -> Result<(), Job> {
    let lane = lane(&job);
    let Some(w) = lane.started() else {
        return Err(job);
    };
    let mut counts = w.counts.lock();
    if counts.0 - counts.1 >= lane.max_pending {
        return Err(job);
    }
    match w.jobs.send(job) {
        Ok(()) => {
            counts.0 += 1;
            Ok(())
        }
        Err(returned) => Err(returned.0),
    }
}

thread_local! {
    /// Whether [`sync_file_later`] starts a file's writeback before queueing its sync.
    static WRITEBACK_FIRST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Until the returned guard drops, [`sync_file_later`] on this thread also starts the file's
/// writeback at once. A strict write waits for its undo level's syncs before its rename: started
/// at once, the level's bytes go to the disk while the write's own fsync runs, and the level's
/// fsync finds little left (1 KB strict edits 4-5% sooner on an ext4 without a journal). A
/// standard write does not wait for those syncs; writing back inline would only lengthen it.
pub fn writeback_first() -> WritebackFirst {
    WritebackFirst {
        outer: WRITEBACK_FIRST
            .try_with(|w| w.replace(true))
            .unwrap_or(false),
    }
}

/// The guard of [`writeback_first`].
pub struct WritebackFirst {
    outer: bool,
}

impl Drop for WritebackFirst {
    fn drop(&mut self) {
        let _ = WRITEBACK_FIRST.try_with(|w| w.set(self.outer));
    }
}

/// Whether a [`writeback_first`] guard of this thread lives.
pub(crate) fn writing_back_first() -> bool {
    WRITEBACK_FIRST
        .try_with(std::cell::Cell::get)
        .unwrap_or(false)
}

/// Queues the fsync of the regular file `file` on this thread's sync lane (see
/// [`submit_or_run`]), starting its writeback first under [`writeback_first`].
pub fn sync_file_later(file: File) {
    if writing_back_first() {
        crate::sys::start_writeback(&file);
    }
    submit_or_run(Job::SyncDir(file));
}

/// Test-only: while this lives, the task lane is busy with a task that waits for it to drop
/// (the jobs queued behind that task wait too).
#[cfg(test)]
pub(crate) struct TaskLaneBlocked(#[allow(dead_code)] std::sync::mpsc::Sender<()>);

/// Test-only: queues the task of a [`TaskLaneBlocked`], waiting for room in the lane (other
/// tests share it).
#[cfg(test)]
pub(crate) fn block_task_lane() -> TaskLaneBlocked {
    let (unblock, blocked) = channel::<()>();
    let mut job = Job::Task(Box::new(move || {
        let _ = blocked.recv();
    }));
    while let Err(returned) = submit(job) {
        job = returned;
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    TaskLaneBlocked(unblock)
}

thread_local! {
    /// Jobs this thread holds back while a [`Held`] guard lives (`None`: none is held).
    static HELD: std::cell::RefCell<Option<Vec<Job>>> = const { std::cell::RefCell::new(None) };
}

/// Holds back this thread's [`submit_or_run`] jobs until the returned guard drops, then queues
/// them in the order submitted (guards nest: an inner guard hands its jobs to the outer one).
///
/// A write holds its undo level's syncs while its own fsync runs: queued at once, the level's
/// fsync raced the file's and the disk committed its journal twice; queued after it, the file's
/// commit has carried the level's metadata and the level's fsync finds little left. Nothing waits
/// for a held job (no code under a guard flushes), and the sync that makes the write's rename
/// durable is still queued behind them.
pub fn hold() -> Held {
    Held {
        outer: HELD
            .try_with(|h| h.borrow_mut().replace(Vec::new()))
            .ok()
            .flatten(),
    }
}

/// The guard of [`hold`].
pub struct Held {
    outer: Option<Vec<Job>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let outer = self.outer.take();
        let jobs = HELD
            .try_with(|h| std::mem::replace(&mut *h.borrow_mut(), outer))
            .ok()
            .flatten();
        for job in jobs.into_iter().flatten() {
            submit_or_run(job);
        }
    }
}

/// Queues `job`, or runs it now when it cannot be queued; while a [`Held`] guard of this thread
/// lives, keeps it until the guard drops (a thread whose locals are already gone holds nothing).
pub fn submit_or_run(job: Job) {
    let mut job = Some(job);
    let _ = HELD.try_with(|h| {
        if let Some(held) = h.borrow_mut().as_mut() {
            held.extend(job.take());
        }
    });
    if let Some(Err(job)) = job.map(submit) {
        job.run();
    }
}

/// Waits until every job submitted before this call has run.
pub fn flush() {
    flush_within(None);
}

/// Waits until every sync submitted before this call, by any thread, has run (the task lane is
/// not waited for): a level's syncs may come from a helper thread of its write (a store opened
/// beside a large write), not only from the writer's own lane.
pub fn flush_syncs() {
    for lane in &SYNCS {
        let Some(w) = lane.running() else {
            continue;
        };
        let mut counts = w.counts.lock();
        let target = counts.0;
        while counts.1 < target {
            w.finished.wait(&mut counts);
        }
    }
}

/// [`flush`] that gives up at `timeout` (`None`: no limit); true when every job had run. Jobs
/// never wait without bound themselves (every lock wait has a timeout), so neither does this.
pub fn flush_within(timeout: Option<std::time::Duration>) -> bool {
    let deadline = timeout.map(|t| std::time::Instant::now() + t);
    for lane in std::iter::once(&TASKS).chain(&SYNCS) {
        let Some(w) = lane.running() else {
            continue;
        };
        let mut counts = w.counts.lock();
        let target = counts.0;
        while counts.1 < target {
            match deadline {
                None => w.finished.wait(&mut counts),
                Some(d) => {
                    if w.finished.wait_until(&mut counts, d).timed_out() {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// A lane's thread: takes every queued job at once and runs them in order; a directory already
/// synced in the batch is not synced again (its renames all happened before the batch was taken).
fn run(queue: Receiver<Job>, lane: &'static Lane) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter());
        let done = batch.len() as u64;
        let mut synced: Vec<(u64, u64)> = Vec::new();
        for job in batch {
            match job {
                Job::SyncDir(dir) => sync_once(&dir, &mut synced),
                Job::SyncDirThenRelease { dir, release } => {
                    sync_once(&dir, &mut synced);
                    drop(release);
                }
                // A panicking task must not take the thread (and every later job) with it.
                other => drop(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                    || other.run(),
                ))),
            }
        }
        if let Some(w) = lane.running() {
            w.counts.lock().1 += done;
            w.finished.notify_all();
        }
    }
}

/// fsyncs `dir` unless a handle of the same directory is in `synced` (then its renames were
/// already made durable by that sync); adds it to `synced`.
fn sync_once(dir: &File, synced: &mut Vec<(u64, u64)>) {
    match identity(dir) {
        Some(id) if synced.contains(&id) => {}
        id => {
            let _ = dir.sync_all();
            synced.extend(id);
        }
    }
}

/// (device, inode) of an open file: two handles of one directory share it.
fn identity(file: &File) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    file.metadata().ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durability_option_values() {
        assert_eq!(Durability::parse("standard"), Some(Durability::Standard));
        assert_eq!(Durability::parse("strict"), Some(Durability::Strict));
        assert_eq!(Durability::parse("fast"), None);
        assert_eq!(Durability::default(), Durability::Standard);
    }

    /// Under [`writeback_first`] a file queued for its sync is handed to the disk at once: none
    /// of its pages is left dirty although its sync is still held back; queued plainly, it waits
    /// for its sync. Guards nest.
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    #[test]
    fn a_file_queued_under_writeback_first_is_handed_to_the_disk_at_once() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let written = |name: &str| {
            let mut file = File::create(dir.path().join(name)).unwrap();
            file.write_all(&[7; 16 << 10]).unwrap();
            let check = file.try_clone().unwrap();
            (file, check)
        };
        let held = hold();
        let (plain, plain_check) = written("plain");
        sync_file_later(plain);
        let (first, first_check) = written("first");
        {
            let _outer = writeback_first();
            drop(writeback_first());
            assert!(
                writing_back_first(),
                "an inner guard restores the outer one"
            );
            sync_file_later(first);
        }
        assert!(!writing_back_first());
        let dirty = |f: &File| crate::sys::dirty_pages(f).expect("cachestat (Linux 6.5+)");
        let (plain_dirty, first_dirty) = (dirty(&plain_check), dirty(&first_check));
        drop(held);
        flush();
        assert!(
            plain_dirty > 0,
            "a plainly queued file stays dirty until its sync"
        );
        assert_eq!(first_dirty, 0, "written back at once");
        assert_eq!(dirty(&plain_check), 0, "its sync has run");
    }

    /// A full task lane hands jobs back (the caller runs them), so at most MAX_PENDING_TASKS wait.
    #[test]
    fn a_full_lane_hands_the_job_back() {
        let gate = std::sync::Arc::new(parking_lot::Mutex::new(()));
        let held = gate.lock();
        let mut queued = 0;
        let mut returned = 0;
        for _ in 0..(MAX_PENDING_TASKS + 5) {
            let g = std::sync::Arc::clone(&gate);
            match submit(Job::Task(Box::new(move || drop(g.lock())))) {
                Ok(()) => queued += 1,
                Err(job) => {
                    returned += 1;
                    drop(job);
                }
            }
        }
        drop(held);
        flush();
        assert!(queued <= MAX_PENDING_TASKS, "{queued} queued");
        assert!(returned >= 5, "{returned} handed back");
    }

    /// Jobs submitted under a guard wait for it to drop, then run in order; an inner guard hands
    /// its jobs to the outer one.
    #[test]
    fn held_jobs_are_queued_in_order_when_the_guard_drops() {
        let ran = std::sync::Arc::new(Mutex::new(Vec::new()));
        let job = |n: u32| {
            let ran = std::sync::Arc::clone(&ran);
            Job::Task(Box::new(move || ran.lock().push(n)))
        };
        let outer = hold();
        submit_or_run(job(1));
        let inner = hold();
        submit_or_run(job(2));
        drop(inner);
        submit_or_run(job(3));
        flush();
        assert!(ran.lock().is_empty(), "ran while held: {:?}", ran.lock());
        drop(outer);
        submit_or_run(job(4));
        flush();
        assert_eq!(*ran.lock(), vec![1, 2, 3, 4]);
    }

    /// Every lane's thread runs under `SCHED_BATCH` (policy 3: field 41 of its
    /// `/proc/self/task/<tid>/stat`).
    #[cfg(target_os = "linux")]
    #[test]
    fn lane_threads_do_not_preempt_their_callers() {
        let dir = tempfile::tempdir().unwrap();
        submit_or_run(Job::Task(Box::new(|| {})));
        submit_or_run(Job::SyncDir(File::open(dir.path()).unwrap()));
        flush();
        let lanes: Vec<String> = std::fs::read_dir("/proc/self/task")
            .unwrap()
            .flatten()
            .filter(|t| {
                std::fs::read_to_string(t.path().join("comm"))
                    .is_ok_and(|name| name.trim_end() == "edit-engine-io")
            })
            .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
            .map(|stat| {
                let after_name = &stat[stat.rfind(')').unwrap() + 1..];
                after_name.split_whitespace().nth(38).unwrap().to_string()
            })
            .collect();
        assert!(lanes.len() >= 2, "a task lane and a sync lane: {lanes:?}");
        assert!(
            lanes.iter().all(|p| p == "3"),
            "the lanes' policies: {lanes:?}"
        );
    }

    /// After `flush`, every job submitted before it has run: the released handles are closed.
    #[cfg(target_os = "linux")]
    #[test]
    fn flush_waits_for_every_submitted_job() {
        let dir = tempfile::tempdir().unwrap();
        let held = |name: &str| {
            std::fs::read_dir("/proc/self/fd")
                .unwrap()
                .flatten()
                .filter_map(|e| std::fs::read_link(e.path()).ok())
                .any(|target| target == dir.path().join(name))
        };
        for i in 0..50 {
            let path = dir.path().join(format!("f{i}"));
            std::fs::write(&path, b"x").unwrap();
            submit_or_run(Job::Release(File::open(&path).unwrap()));
            submit_or_run(Job::SyncDir(File::open(dir.path()).unwrap()));
        }
        flush();
        assert!(
            (0..50).all(|i| !held(&format!("f{i}"))),
            "a handle is still open"
        );
    }
}
