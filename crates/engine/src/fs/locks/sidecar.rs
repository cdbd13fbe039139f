//! The cross-process half of [`super::lock_path`]: `flock` on a per-path lock file.
//!
//! The lock directory is per-user and private, and its place does not depend on the
//! environment (`TMPDIR`, `HOME`), so every process of a user locks in the same directory:
//! `/run/user/<uid>/edit-engine-locks` when the system provides that private runtime directory,
//! else `<home from the user database>/.local/state/edit-engine/locks` when that home is a
//! directory owned by the user, else `/tmp/edit-engine-locks-<uid>` (a fixed path, not `TMPDIR`;
//! refused, never shared, if another user created it).
//!
//! The directory is opened and checked once per process and held open ([`LockDir`]); it is
//! chosen again when it was removed, or when the runtime directory appears while another one is
//! held. Lock files are opened relative to it and kept after use, so a lock costs an open, a
//! `flock` and two stats, and a release a close. Lock files nobody holds are removed in the
//! background once their status is [`COLLECT_AFTER`] old ([`LockDir::collect`]). The protocol
//! that keeps the exclusion across those removals: a file is removed only by whoever holds its
//! `flock` and has checked that its name still names it; a locker that gets the `flock` of a
//! file its name no longer names (removed meanwhile) starts over with the file now at the name.
use sha2::{Digest, Sha256};
use std::fs::File;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why the cross-process lock could not be had.
#[derive(Debug)]
pub enum SidecarError {
    /// The lock directory cannot be used (the reason says why).
    Unavailable { dir: PathBuf, reason: String },
    /// Another holder kept it past the deadline.
    TimedOut,
    /// No file descriptor was left to open the lock file (`EMFILE`, `ENFILE`).
    NoDescriptor(std::io::Error),
}

/// Lock files whose status last changed at least this long ago, and that nobody holds, are
/// removed by a collection.
pub const COLLECT_AFTER: Duration = Duration::from_secs(600);
/// A process collects its lock directory at most this often...
const COLLECT_EVERY: Duration = Duration::from_secs(600);
/// ...or after this many locks taken since its last collection.
const COLLECT_EVERY_LOCKS: u64 = 4096;
/// The file in the lock directory whose modification time is that of the last collection by any
/// process (a collection scans every lock file: a process starting soon after another skips it).
const COLLECTED_MARK: &str = ".collected";

const NOT_PRIVATE: &str = "it is not a directory owned by this user with mode 700 (a symlink, another user's, or group/world-writable)";

/// The user's runtime directory, preferred for locks when it exists and is private.
fn runtime_dir() -> PathBuf {
    PathBuf::from(format!("/run/user/{}", crate::sys::effective_uid()))
}

/// The directory holding the lock files of this user (`None`: no usable place).
pub fn lock_dir() -> Option<PathBuf> {
    use crate::fs::user_dirs::{fallback_dir, owned_home};
    let runtime = runtime_dir();
    if private_owned(&runtime) {
        return Some(runtime.join("edit-engine-locks"));
    }
    Some(match owned_home() {
        Some(h) => h.join(".local/state/edit-engine/locks"),
        None => fallback_dir("edit-engine-locks"),
    })
}

/// A lock directory, opened (without following a symlink at its name) and checked private.
#[derive(Debug)]
pub(super) struct LockDir {
    path: PathBuf,
    fd: OwnedFd,
}

impl LockDir {
    /// Creates `path` (missing levels 0o700), opens it, and checks that the folder opened is a
    /// directory owned by this user and not writable by group or others.
    pub(super) fn open(path: &Path) -> Result<LockDir, SidecarError> {
        use rustix::fs::{Mode, OFlags};
        use std::os::unix::fs::DirBuilderExt;
        let unavailable = |reason: String| SidecarError::Unavailable {
            dir: path.to_path_buf(),
            reason,
        };
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path);
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = match rustix::fs::open(path, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(e @ (rustix::io::Errno::MFILE | rustix::io::Errno::NFILE)) => {
                return Err(SidecarError::NoDescriptor(e.into()))
            }
            Err(_) => return Err(unavailable(NOT_PRIVATE.into())),
        };
        let st = rustix::fs::fstat(&fd).map_err(|e| unavailable(e.to_string()))?;
        if st.st_uid != crate::sys::effective_uid() || st.st_mode & 0o022 != 0 {
            return Err(unavailable(NOT_PRIVATE.into()));
        }
        Ok(LockDir {
            path: path.to_path_buf(),
            fd,
        })
    }

    /// Opens the lock file of `real_path` and waits until `deadline` for an exclusive `flock`
    /// on the file its name names once the `flock` is had.
    pub(super) fn lock(&self, real_path: &Path, deadline: Instant) -> Result<File, SidecarError> {
        let name = sidecar_name(real_path);
        loop {
            let file = self
                .open_file(&name, true)
                .map_err(|e| match e.raw_os_error() {
                    Some(libc::EMFILE | libc::ENFILE) => SidecarError::NoDescriptor(e),
                    _ => self.unavailable(e.to_string()),
                })?;
            let left = deadline.saturating_duration_since(Instant::now());
            match super::flock_within(&file, left) {
                Ok(true) if self.names(&file, &name) => return Ok(file),
                Ok(true) => continue, // removed meanwhile: lock the file now at the name
                Ok(false) => return Err(SidecarError::TimedOut),
                Err(e) => return Err(self.unavailable(format!("flock failed: {e}"))),
            }
        }
    }

    /// Removes the lock files nobody holds whose status changed at least `min_age` ago; returns
    /// how many it removed. Each is removed only under its `flock`, while its name still names
    /// it (see the module doc). Best effort.
    #[allow(clippy::unnecessary_cast)] // `st_ctime`'s type differs between platforms
    pub(super) fn collect(&self, min_age: Duration) -> usize {
        let Ok(mut dir) = rustix::fs::Dir::read_from(&self.fd) else {
            return 0;
        };
        let now = (crate::history::now_ms() / 1000) as i64;
        let mut removed = 0;
        while let Some(Ok(entry)) = dir.read() {
            let Ok(name) = entry.file_name().to_str() else {
                continue;
            };
            let old_enough = self.stat(name).is_some_and(|st| {
                let age = now.saturating_sub(st.st_ctime as i64);
                is_file(&st) && age >= min_age.as_secs() as i64
            });
            if is_sidecar_name(name) && old_enough && self.remove_if_free(name) {
                removed += 1;
            }
        }
        removed
    }

    /// [`LockDir::collect`] unless any process collected this directory less than `every` ago
    /// (the status of its [`COLLECTED_MARK`] file says when); `None` when it was not due. Marks
    /// the collection before running it, so processes starting together scan the folder once.
    pub(super) fn collect_if_due(&self, min_age: Duration, every: Duration) -> Option<usize> {
        use rustix::fs::{Mode, OFlags, Timestamps};
        let now = rustix::fs::Timespec {
            tv_sec: (crate::history::now_ms() / 1000) as _,
            tv_nsec: 0,
        };
        let recent = self.stat(COLLECTED_MARK).is_some_and(|st| {
            is_file(&st) && now.tv_sec.saturating_sub(st.st_mtime as _) < every.as_secs() as _
        });
        if recent {
            return None;
        }
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mark = rustix::fs::openat(&self.fd, COLLECTED_MARK, flags, Mode::from_raw_mode(0o600));
        let times = Timestamps {
            last_access: now,
            last_modification: now,
        };
        let _ = mark.map(|fd| rustix::fs::futimens(&fd, &times));
        Some(self.collect(min_age))
    }

    /// Removes the lock file `name` when its `flock` can be had at once and its name still
    /// names the file locked.
    fn remove_if_free(&self, name: &str) -> bool {
        let Ok(file) = self.open_file(name, false) else {
            return false;
        };
        if file.try_lock().is_err() || !self.names(&file, name) {
            return false;
        }
        rustix::fs::unlinkat(&self.fd, name, rustix::fs::AtFlags::empty()).is_ok()
    }

    /// Opens the lock file `name` read-write (created 0o600 when `create`), never following a
    /// symlink.
    fn open_file(&self, name: &str, create: bool) -> std::io::Result<File> {
        use rustix::fs::{Mode, OFlags};
        let mut flags = OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
        if create {
            flags |= OFlags::CREATE;
        }
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o600))?;
        Ok(File::from(fd))
    }

    fn stat(&self, name: &str) -> Option<rustix::fs::Stat> {
        rustix::fs::statat(&self.fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).ok()
    }

    /// True when `name` still names the file `file` is open on.
    fn names(&self, file: &File, name: &str) -> bool {
        match (rustix::fs::fstat(file), self.stat(name)) {
            (Ok(a), Some(b)) => a.st_dev == b.st_dev && a.st_ino == b.st_ino,
            _ => false,
        }
    }

    /// True when the folder held was removed (its path is then chosen and opened again).
    fn removed(&self) -> bool {
        !rustix::fs::fstat(&self.fd).is_ok_and(|st| st.st_nlink > 0)
    }

    fn unavailable(&self, reason: String) -> SidecarError {
        SidecarError::Unavailable {
            dir: self.path.clone(),
            reason,
        }
    }
}

/// The lock directory this process holds open (chosen and opened at first use).
static HELD: parking_lot::Mutex<Option<Arc<LockDir>>> = parking_lot::Mutex::new(None);

/// The held lock directory, opened afresh when `refresh`, when none is held yet, or when the
/// runtime directory now exists but another one is held (every process then agrees again).
fn held_dir(refresh: bool) -> Result<Arc<LockDir>, SidecarError> {
    let mut held = HELD.lock();
    if let Some(dir) = held.as_ref().filter(|_| !refresh) {
        let runtime = runtime_dir();
        if dir.path.starts_with(&runtime) || !private_owned(&runtime) {
            return Ok(dir.clone());
        }
    }
    let path = lock_dir().ok_or_else(|| SidecarError::Unavailable {
        dir: PathBuf::from("~/.local/state/edit-engine/locks"),
        reason: "this user has no home directory in the user database".into(),
    })?;
    let dir = Arc::new(LockDir::open(&path)?);
    *held = Some(dir.clone());
    Ok(dir)
}

/// Waits until `deadline` for the cross-process lock of `real_path` in this user's lock
/// directory (see the module doc).
pub(super) fn lock(real_path: &Path, deadline: Instant) -> Result<File, SidecarError> {
    let dir = held_dir(false)?;
    match dir.lock(real_path, deadline) {
        Err(SidecarError::Unavailable { .. }) if dir.removed() => {
            held_dir(true)?.lock(real_path, deadline)
        }
        other => other,
    }
}

/// Locks taken since this process's last collection, and when the next one is due.
static SINCE_COLLECTION: AtomicU64 = AtomicU64::new(0);
static NEXT_COLLECTION: parking_lot::Mutex<Option<Instant>> = parking_lot::Mutex::new(None);

/// Called after a lock is released: queues a collection of the lock directory on the background
/// thread when one is due (at most every [`COLLECT_EVERY`] in this process and, by
/// [`COLLECTED_MARK`], in any process; or after [`COLLECT_EVERY_LOCKS`] locks of this process).
/// Never runs it on the calling thread.
pub(super) fn note_release() {
    let count = SINCE_COLLECTION.fetch_add(1, Ordering::Relaxed) + 1;
    let now = Instant::now();
    {
        let mut next = NEXT_COLLECTION.lock();
        let due = count >= COLLECT_EVERY_LOCKS || next.is_none_or(|at| now >= at);
        if !due {
            return;
        }
        *next = Some(now + COLLECT_EVERY);
    }
    SINCE_COLLECTION.store(0, Ordering::Relaxed);
    let many = count >= COLLECT_EVERY_LOCKS;
    let job = move || {
        let held = HELD.lock().clone();
        match held {
            Some(dir) if many => drop(dir.collect(COLLECT_AFTER)),
            Some(dir) => drop(dir.collect_if_due(COLLECT_AFTER, COLLECT_EVERY)),
            None => {}
        }
    };
    use crate::fs::background::{submit, Job};
    // A full queue drops this collection; a later release queues the next one.
    let _ = submit(Job::Task(Box::new(job)));
}

/// The lock file whose `flock` is the cross-process lock of `real_path` (`None`: no lock
/// directory).
pub fn sidecar_path(real_path: &Path) -> Option<PathBuf> {
    Some(lock_dir()?.join(sidecar_name(real_path)))
}

/// The lock file's name: 40 hex digits of the SHA-256 of the real path's bytes, then `.lock`.
fn sidecar_name(real_path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let digest = Sha256::digest(real_path.as_os_str().as_bytes());
    let name: String = digest.iter().take(20).map(|b| format!("{b:02x}")).collect();
    format!("{name}.lock")
}

/// True for a name [`sidecar_name`] makes (a collection touches nothing else).
fn is_sidecar_name(name: &str) -> bool {
    name.strip_suffix(".lock").is_some_and(|hex| {
        hex.len() == 40 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

fn is_file(st: &rustix::fs::Stat) -> bool {
    rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::RegularFile
}

/// Opens (creating it 0o600 if missing) the lock file at `path`, read-write, never following a
/// symlink.
pub(crate) fn open_sidecar(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// True for a real directory (not a symlink) owned by the effective user, not writable by
/// group or others.
fn private_owned(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(dir).is_ok_and(|m| {
        m.is_dir() && m.uid() == crate::sys::effective_uid() && m.mode() & 0o022 == 0
    })
}
