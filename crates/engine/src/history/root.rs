//! The store directory held open: every file operation of the store goes through the directory
//! handles taken when it was opened (`openat`, `renameat`, `unlinkat`), never through its path,
//! so a store moved or replaced after it was opened is never written into; [`Root::verify`]
//! refuses to go on once the path no longer names the held folders.
//!
//! Opening walks the path from `/` one folder at a time without following symlinks (its
//! existing part is resolved first, so a symlinked system folder such as macOS's `/tmp` is
//! fine). Every folder above the store must be owned by this user or root, and one writable by
//! group or others must also be root-owned and sticky (`/tmp`); the store and its `objects/`,
//! `index/`, `txns/` and `previews/` must be real directories owned by this user, not writable by group or
//! others. Missing folders are created mode 0o700.
use super::HistoryError;
use rustix::fs::{AtFlags, Mode, OFlags, Stat, CWD};
use std::ffi::OsStr;
use std::fs::File;
use std::io::Write as _;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

/// A sub-folder of the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sub {
    Objects,
    Index,
    Txns,
    /// Stored previews (see [`super::previews`]).
    Previews,
}

impl Sub {
    const ALL: [Sub; 4] = [Sub::Objects, Sub::Index, Sub::Txns, Sub::Previews];

    pub fn name(self) -> &'static str {
        match self {
            Sub::Objects => "objects",
            Sub::Index => "index",
            Sub::Txns => "txns",
            Sub::Previews => "previews",
        }
    }
}

/// An open store directory and its sub-folders.
#[derive(Debug)]
pub(super) struct Root {
    path: PathBuf,
    fd: OwnedFd,
    subs: [OwnedFd; 4],
    /// `(device, inode)` of `fd` and of each of `subs` (an open folder's never change).
    ids: ((u64, u64), [(u64, u64); 4]),
    /// This process's turn at the store (shared by every `Root` of the same folder).
    turn: TurnRef,
    /// The `.lock` file kept open between store locks (see [`Self::flock`]), with its
    /// `(device, inode)` when opened.
    lock: parking_lot::Mutex<Option<KeptLock>>,
    /// The store folder's times at the last full check that found everything in place, once
    /// they were old enough to be trusted (see [`Self::verify`]).
    settled: parking_lot::Mutex<Option<FolderTimes>>,
}

/// The store's `.lock` kept open, with its `(device, inode)` when opened.
type KeptLock = (std::sync::Arc<File>, (u64, u64));

/// A folder's change and modify times (seconds, nanoseconds): any entry added, removed or
/// renamed in it sets both to the clock's time then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FolderTimes {
    changed: (i64, i64),
    modified: (i64, i64),
}

impl FolderTimes {
    #[allow(clippy::unnecessary_cast)] // the field types differ between platforms
    fn of(st: &Stat) -> FolderTimes {
        FolderTimes {
            changed: (st.st_ctime as i64, st.st_ctime_nsec as i64),
            modified: (st.st_mtime as i64, st.st_mtime_nsec as i64),
        }
    }

    /// True when both times lie at least [`SETTLED_AFTER`] before `now` ([`SETTLED_AFTER_FINE`]
    /// when either has a sub-second part): a change to the folder from now on gets a later time.
    fn settled(&self, now: std::time::SystemTime) -> bool {
        let Ok(now) = now.duration_since(std::time::UNIX_EPOCH) else {
            return false;
        };
        let fine = self.changed.1 != 0 || self.modified.1 != 0;
        let margin = if fine {
            SETTLED_AFTER_FINE
        } else {
            SETTLED_AFTER
        };
        let limit = now.saturating_sub(margin);
        let before = |(s, ns): (i64, i64)| {
            (s, ns) < (limit.as_secs() as i64, i64::from(limit.subsec_nanos()))
        };
        before(self.changed) && before(self.modified)
    }
}

/// How old a folder's times must be before a check trusts that a later change would show in
/// them: longer than the coarsest timestamps in use (2 s on FAT, whose times are whole seconds).
const SETTLED_AFTER: std::time::Duration = std::time::Duration::from_secs(3);

/// [`SETTLED_AFTER`] for times with a sub-second part: they come from a file system whose
/// timestamps step by 10 ms or less.
const SETTLED_AFTER_FINE: std::time::Duration = std::time::Duration::from_secs(1);

/// How many times [`Root::flock`] opens `.lock` afresh when it keeps being replaced.
const LOCK_FILE_TRIES: usize = 4;

/// What a full check of the store found wrong.
enum Misplaced {
    /// The store folder or one of its sub-folders (named) no longer at its path.
    Folder(String),
    /// `.lock` no longer names the lock file held open.
    LockFile,
}

/// The turn of each store folder this process opened, by `(device, inode)`.
static TURNS: parking_lot::Mutex<Option<std::collections::HashMap<(u64, u64), TurnRef>>> =
    parking_lot::Mutex::new(None);

type TurnRef = std::sync::Arc<parking_lot::Mutex<()>>;

/// The turn of the store folder `id` (see [`Root::turn`]).
fn turn_of(id: (u64, u64)) -> TurnRef {
    let mut turns = TURNS.lock();
    turns
        .get_or_insert_with(Default::default)
        .entry(id)
        .or_default()
        .clone()
}

/// `(device, inode)` of a stat: what identifies a folder.
#[allow(clippy::unnecessary_cast)] // the field types differ between platforms
fn id_of(st: &Stat) -> (u64, u64) {
    (st.st_dev as u64, st.st_ino as u64)
}

fn unsafe_dir(path: &Path) -> HistoryError {
    HistoryError::Unsafe {
        path: path.to_string_lossy().into_owned(),
    }
}

fn io_err<'a>(
    op: &'static str,
    path: &'a Path,
) -> impl FnOnce(rustix::io::Errno) -> HistoryError + 'a {
    move |e| HistoryError::Io {
        op,
        path: path.to_string_lossy().into_owned(),
        source: e.into(),
    }
}

/// True for a folder owned by this user, not writable by group or others.
fn private(st: &Stat) -> bool {
    st.st_uid == crate::sys::effective_uid() && st.st_mode & 0o022 == 0
}

/// True for a folder that may lie above a store: owned by this user or root; writable by group
/// or others only when root-owned and sticky.
fn safe_ancestor(st: &Stat) -> bool {
    let uid = st.st_uid;
    let shared = st.st_mode & 0o022 != 0;
    (uid == crate::sys::effective_uid() || uid == 0)
        && (!shared || (uid == 0 && st.st_mode & 0o1000 != 0))
}

/// Flags of a folder passed through on the way to the store: search permission is enough where
/// the system can open a folder for that alone (a home folder of mode 0711).
#[cfg(any(target_os = "linux", target_os = "android"))]
const PASS_THROUGH: OFlags = OFlags::PATH;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const PASS_THROUGH: OFlags = OFlags::RDONLY;

/// Opens the folder `name` of `dir` (creating it mode 0o700 if missing), without following a
/// symlink; readable, or only passed through when `pass` (see [`PASS_THROUGH`]).
fn open_dir_at(dir: &OwnedFd, name: &OsStr, pass: bool) -> rustix::io::Result<OwnedFd> {
    let access = if pass { PASS_THROUGH } else { OFlags::RDONLY };
    let flags = access | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(dir, name, flags, Mode::empty()) {
        Err(rustix::io::Errno::NOENT) => {
            match rustix::fs::mkdirat(dir, name, Mode::from_raw_mode(0o700)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e),
            }
            rustix::fs::openat(dir, name, flags, Mode::empty())
        }
        other => other,
    }
}

/// `path` with its longest existing part resolved (symlinks of the system followed once, here),
/// its last component kept as given.
fn resolved(path: &Path) -> Result<PathBuf, HistoryError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(unsafe_dir(path));
    };
    let mut existing = parent.to_path_buf();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.file_name(), existing.parent()) {
            (Some(n), Some(p)) => {
                rest.push(n.to_os_string());
                existing = p.to_path_buf();
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize().map_err(|e| HistoryError::Io {
        op: "resolve",
        path: existing.to_string_lossy().into_owned(),
        source: e,
    })?;
    out.extend(rest.iter().rev());
    out.push(name);
    Ok(out)
}

impl Root {
    /// Opens (creating missing folders) the store at the absolute `path`: see the module doc.
    pub fn open(path: &Path) -> Result<Root, HistoryError> {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(unsafe_dir(path));
        }
        let real = resolved(path)?;
        let flags = PASS_THROUGH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let mut dir: OwnedFd =
            rustix::fs::open("/", flags, Mode::empty()).map_err(io_err("open", Path::new("/")))?;
        let mut walked = PathBuf::from("/");
        let names: Vec<&OsStr> = real
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(name),
                _ => None,
            })
            .collect();
        for (i, name) in names.iter().enumerate() {
            let st = rustix::fs::fstat(&dir).map_err(io_err("inspect", &walked))?;
            if !safe_ancestor(&st) {
                return Err(HistoryError::UnsafeParent {
                    path: path.to_string_lossy().into_owned(),
                    parent: walked.to_string_lossy().into_owned(),
                });
            }
            walked.push(name);
            dir = open_dir_at(&dir, name, i + 1 < names.len()).map_err(|e| match e {
                rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => unsafe_dir(&walked),
                e => io_err("open", &walked)(e),
            })?;
        }
        let st = rustix::fs::fstat(&dir).map_err(io_err("inspect", path))?;
        if !private(&st) {
            return Err(unsafe_dir(path));
        }
        let sub = |s: Sub| -> Result<OwnedFd, HistoryError> {
            let sub_path = path.join(s.name());
            let fd = open_dir_at(&dir, OsStr::new(s.name()), false)
                .map_err(|_| unsafe_dir(&sub_path))?;
            let st = rustix::fs::fstat(&fd).map_err(io_err("inspect", &sub_path))?;
            private(&st)
                .then_some(fd)
                .ok_or_else(|| unsafe_dir(&sub_path))
        };
        let subs = [
            sub(Sub::Objects)?,
            sub(Sub::Index)?,
            sub(Sub::Txns)?,
            sub(Sub::Previews)?,
        ];
        let mut sub_ids = [(0, 0); 4];
        for (id, fd) in sub_ids.iter_mut().zip(&subs) {
            *id = id_of(&rustix::fs::fstat(fd).map_err(io_err("inspect", path))?);
        }
        Ok(Root {
            path: path.to_path_buf(),
            fd: dir,
            subs,
            ids: (id_of(&st), sub_ids),
            turn: turn_of(id_of(&st)),
            lock: parking_lot::Mutex::new(None),
            settled: parking_lot::Mutex::new(None),
        })
    }

    /// The store's path (for messages; never used to reach its files).
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sub(&self, sub: Sub) -> &OwnedFd {
        &self.subs[sub as usize]
    }

    /// Errors with [`HistoryError::Swapped`] unless the store's path and its sub-folders still
    /// name the folders held open (a store moved, replaced or symlinked since it was opened).
    ///
    /// One status call of the path when the store folder's times equal those of the last full
    /// check ([`FolderTimes`]): a sub-folder (or `.lock`) cannot be removed, renamed or replaced
    /// without changing them.
    pub fn verify(&self) -> Result<(), HistoryError> {
        self.check().map_err(|m| self.swapped(m))
    }

    fn swapped(&self, misplaced: Misplaced) -> HistoryError {
        let what = match misplaced {
            Misplaced::Folder(what) => what,
            Misplaced::LockFile => ".lock".to_string(),
        };
        HistoryError::Swapped {
            path: self.path.to_string_lossy().into_owned(),
            what,
        }
    }

    fn io(&self, op: &'static str, source: std::io::Error) -> HistoryError {
        HistoryError::Io {
            op,
            path: self.path.to_string_lossy().into_owned(),
            source,
        }
    }

    fn check(&self) -> Result<(), Misplaced> {
        self.check_at(std::time::SystemTime::now())
    }

    /// [`Self::check`] with the clock reading `now`.
    fn check_at(&self, now: std::time::SystemTime) -> Result<(), Misplaced> {
        let st = match rustix::fs::statat(CWD, &self.path, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) if id_of(&st) == self.ids.0 => st,
            _ => return Err(Misplaced::Folder("the store folder".to_string())),
        };
        let times = FolderTimes::of(&st);
        if *self.settled.lock() == Some(times) {
            return Ok(());
        }
        for s in Sub::ALL {
            match rustix::fs::statat(&self.fd, s.name(), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) if id_of(&st) == self.ids.1[s as usize] => {}
                _ => return Err(Misplaced::Folder(format!("{}/", s.name()))),
            }
        }
        if let Some((_, id)) = self.lock.lock().as_ref() {
            match rustix::fs::statat(&self.fd, ".lock", AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) if id_of(&st) == *id => {}
                _ => return Err(Misplaced::LockFile),
            }
        }
        if times.settled(now) {
            *self.settled.lock() = Some(times);
        }
        Ok(())
    }

    /// True when the held store folder is removed (link count 0, or no longer reachable).
    pub fn gone(&self) -> bool {
        rustix::fs::fstat(&self.fd).map_or(true, |st| st.st_nlink == 0)
    }

    /// This process's turn at the store: held around the store's `flock`, so threads of one
    /// process wait for each other in a queue instead of polling the `flock`.
    pub fn turn(&self) -> &parking_lot::Mutex<()> {
        &self.turn
    }

    /// Takes the exclusive `flock` of the store's `.lock` (created mode 0o600 when missing),
    /// waiting at most `timeout`, then checks the store is in place ([`Self::verify`]);
    /// `Ok(false)` when the wait ran out. The caller holds the turn ([`Self::turn`]) and
    /// releases the lock with [`Self::unflock`]. The file stays open between locks; when `.lock`
    /// no longer names it (removed or replaced), it is opened and locked afresh.
    pub fn flock(&self, timeout: std::time::Duration) -> Result<bool, HistoryError> {
        let deadline = std::time::Instant::now() + timeout;
        for _ in 0..LOCK_FILE_TRIES {
            let file = {
                let mut held = self.lock.lock();
                if held.is_none() {
                    let file = self
                        .open_lock_file()
                        .map_err(|e| self.io("open the lock of", e))?;
                    let id = rustix::fs::fstat(&file).map(|st| id_of(&st));
                    *held = Some((std::sync::Arc::new(file), id.unwrap_or_default()));
                }
                held.as_ref().expect("opened above").0.clone()
            };
            // The wait happens outside the mutex: checks by other threads ([`Self::verify`])
            // never wait for another process's lock.
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match crate::fs::locks::flock_within(&file, left) {
                Ok(true) => {}
                Ok(false) => return Ok(false),
                Err(e) => return Err(self.io("lock", e)),
            }
            match self.check() {
                Ok(()) => return Ok(true),
                // Closing the stale file releases its lock; the next round opens `.lock` anew.
                Err(Misplaced::LockFile) => drop(self.lock.lock().take()),
                Err(m) => {
                    self.unflock();
                    return Err(self.swapped(m));
                }
            }
        }
        Err(self.swapped(Misplaced::LockFile))
    }

    /// Releases the `flock` taken by [`Self::flock`] (the file stays open).
    pub fn unflock(&self) {
        if let Some((file, _)) = self.lock.lock().as_ref() {
            let _ = rustix::fs::flock(file, rustix::fs::FlockOperation::Unlock);
        }
    }

    /// Opens (creating it mode 0o600) the store's `.lock` file.
    fn open_lock_file(&self) -> std::io::Result<File> {
        let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.fd, ".lock", flags, Mode::from_raw_mode(0o600))?;
        Ok(File::from(fd))
    }

    /// Opens the file `name` of `sub` for reading (no symlink followed).
    pub fn open_read(&self, sub: Option<Sub>, name: &str) -> std::io::Result<File> {
        let dir = sub.map_or(&self.fd, |s| self.sub(s));
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
        Ok(File::from(rustix::fs::openat(
            dir,
            name,
            flags,
            Mode::empty(),
        )?))
    }

    /// Opens the existing file `name` of `sub` for reading and appending (no symlink followed).
    pub fn open_read_append(&self, sub: Sub, name: &str) -> std::io::Result<File> {
        let flags = OFlags::RDWR | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let flags = flags | OFlags::NONBLOCK;
        Ok(File::from(rustix::fs::openat(
            self.sub(sub),
            name,
            flags,
            Mode::empty(),
        )?))
    }

    /// Opens the existing file `name` of `sub` for appending (no symlink followed).
    pub fn open_append(&self, sub: Sub, name: &str) -> std::io::Result<File> {
        let flags = OFlags::WRONLY | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::openat(
            self.sub(sub),
            name,
            flags,
            Mode::empty(),
        )?))
    }

    /// The folder `sub` (`None`: the store folder itself).
    fn folder(&self, sub: impl Into<Option<Sub>>) -> &OwnedFd {
        sub.into().map_or(&self.fd, |s| self.sub(s))
    }

    /// The stat of `name` in `sub` (`None`: the store folder; no symlink followed).
    pub fn stat(&self, sub: impl Into<Option<Sub>>, name: &str) -> Option<Stat> {
        rustix::fs::statat(self.folder(sub), name, AtFlags::SYMLINK_NOFOLLOW).ok()
    }

    /// Removes the file `name` of `sub` (`None`: the store folder).
    pub fn remove(&self, sub: impl Into<Option<Sub>>, name: &str) -> std::io::Result<()> {
        Ok(rustix::fs::unlinkat(
            self.folder(sub),
            name,
            AtFlags::empty(),
        )?)
    }

    /// Renames the file `from` of `sub` to `to` in the same folder (replacing any `to`).
    pub fn rename(&self, sub: Sub, from: &str, to: &str) -> std::io::Result<()> {
        let dir = self.sub(sub);
        Ok(rustix::fs::renameat(dir, from, dir, to)?)
    }

    /// Writes `bytes` to a temp file in `sub` (`None`: the store folder) and renames it over
    /// `name`: readers see the old file or the new one, never a part. The file and the folder
    /// are made durable by the background sync lane (see [`sync_later`]).
    pub fn write_whole(&self, sub: Option<Sub>, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let file = self.replace_whole(sub, name, bytes)?;
        sync_later(file);
        if let Ok(dir) = rustix::io::dup(sub.map_or(&self.fd, |s| self.sub(s))) {
            sync_folder_later(File::from(dir));
        }
        Ok(())
    }

    /// [`Self::write_whole`] without making it durable: other processes see all of it or
    /// nothing, but a crash before the kernel writes it back may leave it empty or cut short
    /// (for files whose loss costs only a redo, which check their own bytes when read).
    pub fn write_whole_unsynced(
        &self,
        sub: Option<Sub>,
        name: &str,
        bytes: &[u8],
    ) -> std::io::Result<()> {
        self.replace_whole(sub, name, bytes).map(drop)
    }

    /// Writes `bytes` to a temp file and renames it over `name`; returns the written file.
    fn replace_whole(&self, sub: Option<Sub>, name: &str, bytes: &[u8]) -> std::io::Result<File> {
        let dir = sub.map_or(&self.fd, |s| self.sub(s));
        let (tmp, mut file) = create_temp(dir)?;
        let written = file
            .write_all(bytes)
            .and_then(|()| Ok(rustix::fs::renameat(dir, &tmp, dir, name)?));
        if let Err(e) = written {
            let _ = rustix::fs::unlinkat(dir, &tmp, AtFlags::empty());
            return Err(e);
        }
        Ok(file)
    }

    /// `(device, inode)` of the store folder: the same for every `Root` of one store.
    pub fn id(&self) -> (u64, u64) {
        self.ids.0
    }

    /// Names and stats of the regular files of `sub` (`None`: the store folder; unreadable
    /// entries skipped).
    pub fn list(&self, sub: impl Into<Option<Sub>>) -> Vec<(String, Stat)> {
        self.list_named(sub, |_| true)
    }

    /// [`Self::list`] of the files whose name `wanted` accepts (only those are stat'ed).
    pub fn list_named(
        &self,
        sub: impl Into<Option<Sub>>,
        wanted: impl Fn(&str) -> bool,
    ) -> Vec<(String, Stat)> {
        let sub = sub.into();
        let Ok(mut dir) = rustix::fs::Dir::read_from(self.folder(sub)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        while let Some(Ok(entry)) = dir.read() {
            let Ok(name) = entry.file_name().to_str() else {
                continue;
            };
            if name == "." || name == ".." || !wanted(name) {
                continue;
            }
            if let Some(st) = self.stat(sub, name) {
                if rustix::fs::FileType::from_raw_mode(st.st_mode)
                    == rustix::fs::FileType::RegularFile
                {
                    out.push((name.to_string(), st));
                }
            }
        }
        out
    }
}

/// Queues the fsync of `file` (a store file just written) on the calling thread's background
/// sync lane, which runs that thread's jobs in order: a tool's write queues its own folder's sync
/// after recording its level, so the level is durable no later than the write's rename (see
/// [`crate::fs::background`]; a `strict` write waits for the sync lanes before its rename, and
/// has the file's writeback started at once, see [`crate::fs::background::writeback_first`]).
pub(super) fn sync_later(file: File) {
    crate::fs::background::sync_file_later(file);
}

/// [`sync_later`] of a store folder (makes the renames done in it durable).
fn sync_folder_later(dir: File) {
    use crate::fs::background::{submit_or_run, Job};
    submit_or_run(Job::SyncDir(dir));
}

/// Creates a fresh `.tmp…` file (mode 0o600, exclusive) in `dir`.
fn create_temp(dir: &OwnedFd) -> std::io::Result<(String, File)> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    loop {
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = super::now_ms();
        let name = format!(".tmp{}-{nanos}-{n}", std::process::id());
        match rustix::fs::openat(dir, name.as_str(), flags, Mode::from_raw_mode(0o600)) {
            Ok(fd) => return Ok((name, File::from(fd))),
            Err(rustix::io::Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
#[path = "root_tests.rs"]
mod tests;
