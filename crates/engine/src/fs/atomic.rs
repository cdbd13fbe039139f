//! Atomic, durable writes: temp file in the target's directory, fsync, rename, fsync directory
//! (inline, or on the background thread with [`Durability::Standard`], see [`super::background`]).
//!
//! [`write_atomic_confined`] is the tools' writer: it takes a real path the guard has checked and
//! makes sure the write lands exactly there. The directory is opened one component at a time
//! without following symlinks (a folder swapped for a symlink after the check is refused), the
//! target entry is inspected without following a symlink (a symlink swapped in is refused), and
//! the temp file is created and renamed relative to that open directory, so no later swap can move
//! the write elsewhere; a rename replaces a name and never writes through a link.
//! [`write_atomic`] is for the engine's own files: a symlink at the target is resolved first and
//! the write goes to its target.
//!
//! A successful write also queues the removal of stale temp files of crashed writers from the
//! same directory on the background thread (see [`super::cleanup`]). Extended attributes and ACLs
//! are not carried over; mode bits (including setuid/setgid/sticky) are, and so are owner and
//! group where the OS permits.
use super::background::{self, Durability, Job};
use super::FsError;
use std::io::Write;
use std::path::{Path, PathBuf};

mod dir;

/// How to treat an existing file at the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// Replace the existing file, keeping its permissions (and owner when permitted).
    Replace,
    /// Fail with `Io { kind: AlreadyExists }` if the target exists at rename time (no clobber).
    CreateNew,
    /// Replace if present, create otherwise.
    CreateOrReplace,
}

/// Writes `bytes` to `path` atomically: on success the file holds exactly `bytes` and is durable;
/// on any error the previous file (if any) is untouched and no temp file is left behind. A symlink
/// at `path` is resolved first and its target written (never replacing the link itself).
///
/// Refuses a target that is a directory or another non-regular file (`NotAFile`), a regular file
/// with several hard links (`HardLinked`), a missing file in `Replace` mode (`NotFound`) and an
/// existing one in `CreateNew` mode (`Io` with kind `AlreadyExists`). The directory fsync after the
/// rename is best effort: once the rename happened the write is reported as done.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    mode: WriteMode,
    display: &str,
) -> Result<(), FsError> {
    let target = resolve_target(path, display)?;
    write_to(
        &target,
        bytes,
        mode,
        display,
        false,
        Durability::Strict,
        None,
    )
}

/// [`write_atomic`] for a real path the guard has checked (`ResolvedPath::real`, free of
/// symlinks): the bytes land at exactly that path or nowhere. A folder of the path that is no
/// longer a real directory, or a target that is now a symlink, is refused with `Changed` (they were
/// swapped in after the check); a swap after that point cannot redirect the write, which is made
/// relative to the directory opened and checked here. `durability` says whether the directory
/// fsync after the rename is awaited ([`Durability::Strict`]) or left to the background thread.
pub fn write_atomic_confined(
    real_path: &Path,
    bytes: &[u8],
    mode: WriteMode,
    display: &str,
    durability: Durability,
) -> Result<(), FsError> {
    write_to(real_path, bytes, mode, display, true, durability, None)
}

/// [`write_atomic_confined`] that runs `before_sync` once the bytes are in the temp file (their
/// writeback started, see [`crate::sys::start_writeback`]), before its fsync and the
/// rename: work that must precede the rename overlaps with the disk writing the bytes. An error
/// from `before_sync` abandons the write (nothing renamed, the temp file gone) and is returned.
/// With [`Durability::Strict`], every sync queued so far (those of `before_sync` among them) is
/// done before the rename.
pub fn write_atomic_confined_before(
    real_path: &Path,
    bytes: &[u8],
    mode: WriteMode,
    display: &str,
    durability: Durability,
    before_sync: &mut dyn FnMut() -> Result<(), FsError>,
) -> Result<(), FsError> {
    write_to(
        real_path,
        bytes,
        mode,
        display,
        true,
        durability,
        Some(before_sync),
    )
}

/// Opens the checked real path `real_path` for reading the way [`write_atomic_confined`] writes
/// it: folders opened one by one without following symlinks, the file opened without following a
/// symlink. A symlink swapped in for the file or a folder is refused with `Changed`.
pub fn open_confined(real_path: &Path, display: &str) -> Result<std::fs::File, FsError> {
    let Some(name) = real_path.file_name() else {
        return Err(FsError::NotAFile {
            display: display.to_string(),
        });
    };
    let dir = dir::Dir::open_nofollow(&parent_dir(real_path))
        .map_err(|e| dir_error(e, WriteMode::Replace, display))?;
    dir.open_file(name).map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP) => FsError::Changed {
            display: display.to_string(),
            what: "it is now a symbolic link",
        },
        Some(libc::ENOENT) => FsError::NotFound {
            display: display.to_string(),
        },
        _ => FsError::Io {
            op: "open",
            display: display.to_string(),
            source: e,
        },
    })
}

/// Removes the regular file at the checked real path `real_path`, relative to its folder opened
/// the way [`open_confined`] opens it (no symlink followed on the way). A file or folder already
/// gone is not an error; a symlink or anything else that is not a regular file is refused with
/// `NotAFile` and left in place.
pub fn remove_file_confined(real_path: &Path, display: &str) -> Result<(), FsError> {
    use std::os::unix::ffi::OsStrExt;
    let not_a_file = || FsError::NotAFile {
        display: display.to_string(),
    };
    let io = |source: std::io::Error| FsError::Io {
        op: "remove",
        display: display.to_string(),
        source,
    };
    let Some(name) = real_path.file_name() else {
        return Err(not_a_file());
    };
    let dir = match dir::Dir::open_nofollow(&parent_dir(real_path)) {
        Ok(dir) => dir,
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(()),
        Err(e) => return Err(dir_error(e, WriteMode::Replace, display)),
    };
    match dir.entry(name).map_err(io)? {
        None => Ok(()),
        Some(entry) if entry.kind != rustix::fs::FileType::RegularFile => Err(not_a_file()),
        Some(_) => {
            let c_name = std::ffi::CString::new(name.as_bytes()).map_err(|_| not_a_file())?;
            dir.unlink(&c_name).map_err(io)?;
            dir.sync();
            Ok(())
        }
    }
}

/// Temp file in `target`'s directory (opened without following symlinks when `confined`), fsync,
/// rename over the name `target`, fsync of the directory (now, or queued with
/// [`Durability::Standard`]), stale-temp cleanup; `before_sync` runs before the fsync (see
/// [`write_atomic_confined_before`]). The replaced file is held open across the rename
/// and released on the background thread, so freeing its inode and blocks is not part of the call
/// (on ext4 that made the rename of a 1 KB file cost about 0.25 ms; held, it takes 0.02-0.08 ms).
fn write_to(
    target: &Path,
    bytes: &[u8],
    mode: WriteMode,
    display: &str,
    confined: bool,
    durability: Durability,
    before_sync: Option<&mut dyn FnMut() -> Result<(), FsError>>,
) -> Result<(), FsError> {
    let Some(name) = target.file_name() else {
        return Err(FsError::NotAFile {
            display: display.to_string(),
        });
    };
    let dir_path = parent_dir(target);
    let opened = if confined {
        dir::Dir::open_nofollow(&dir_path)
    } else {
        dir::Dir::open(&dir_path)
    };
    let dir = opened.map_err(|e| dir_error(e, mode, display))?;
    let existing = inspect_entry(&dir, name, mode, display)?;
    // On any error below, dropping `tmp` removes the temp file (an unnamed one vanishes by itself).
    let mut tmp = dir
        .stage()
        .map_err(io_err("create a temporary file next to", display))?;
    super::temp::hold(&tmp.file);
    failpoint("write")?;
    tmp.file
        .write_all(bytes)
        .map_err(io_err("write", display))?;
    if let Some(entry) = &existing {
        copy_owner_and_mode(&tmp.file, entry.uid, entry.gid, entry.mode)
            .map_err(io_err("set the permissions of", display))?;
    }
    // The data's writeback runs while `before_sync` records the undo level (1 KB edits on ext4
    // return ~7% sooner than with the fsync starting it).
    crate::sys::start_writeback(&tmp.file);
    // What `before_sync` queues (an undo level's syncs) follows this file's own fsync; a strict
    // write waits for those syncs before its rename, so they run beside its fsync instead, and
    // the level's files are written back at once (see `background::writeback_first`).
    let held = (durability == Durability::Standard).then(background::hold);
    if let Some(work) = before_sync {
        let _first = (durability == Durability::Strict).then(background::writeback_first);
        work()?;
    }
    failpoint("sync")?;
    tmp.file.sync_all().map_err(io_err("sync", display))?;
    drop(held);
    if durability == Durability::Strict {
        // What `before_sync` queued (an undo level's syncs) is durable before the rename.
        background::flush_syncs();
    }
    let tmp_name = tmp
        .name()
        .map_err(io_err("create a temporary file next to", display))?;
    let old_content = existing.as_ref().and_then(|_| dir.open_file(name).ok());
    failpoint("rename")?;
    dir.rename(&tmp_name, name, mode == WriteMode::CreateNew)
        .map_err(|source| FsError::Io {
            op: "replace",
            display: display.to_string(),
            source,
        })?;
    tmp.keep();
    drop(tmp);
    let dir = dir.into_file();
    match (durability, old_content) {
        (Durability::Standard, Some(release)) => {
            background::submit_or_run(Job::SyncDirThenRelease { dir, release });
        }
        (Durability::Standard, None) => background::submit_or_run(Job::SyncDir(dir)),
        // The replaced content is released before the folder's sync, so its close runs beside
        // the sync (released after it, the close ran beside the rest of the call: 1 KB strict
        // edits took 6-10% longer).
        (Durability::Strict, old) => {
            if let Some(old) = old {
                background::submit_or_run(Job::Release(old));
            }
            let _ = dir.sync_all();
        }
    }
    super::cleanup::remove_stale_temps_in_background(dir_path);
    Ok(())
}

/// Opening the target's directory failed: a folder replaced by a symlink or a file (confined
/// mode), a missing folder, or an I/O error.
fn dir_error(e: std::io::Error, mode: WriteMode, display: &str) -> FsError {
    match e.raw_os_error() {
        Some(libc::ELOOP | libc::ENOTDIR) => FsError::Changed {
            display: display.to_string(),
            what: "a folder on its path is no longer a plain directory",
        },
        Some(libc::ENOENT) if mode == WriteMode::Replace => FsError::NotFound {
            display: display.to_string(),
        },
        _ => FsError::Io {
            op: "open the folder of",
            display: display.to_string(),
            source: e,
        },
    }
}

/// The existing target entry (None when absent), after the mode and file-type checks; a symlink
/// is never followed (and refused).
fn inspect_entry(
    dir: &dir::Dir,
    name: &std::ffi::OsStr,
    mode: WriteMode,
    display: &str,
) -> Result<Option<dir::Entry>, FsError> {
    let entry = dir.entry(name).map_err(|source| FsError::Io {
        op: "inspect",
        display: display.to_string(),
        source,
    })?;
    let Some(entry) = entry else {
        return match mode {
            WriteMode::Replace => Err(FsError::NotFound {
                display: display.to_string(),
            }),
            _ => Ok(None),
        };
    };
    if entry.kind == rustix::fs::FileType::Symlink {
        return Err(FsError::Changed {
            display: display.to_string(),
            what: "it is now a symbolic link",
        });
    }
    if entry.kind != rustix::fs::FileType::RegularFile {
        return Err(FsError::NotAFile {
            display: display.to_string(),
        });
    }
    if mode == WriteMode::CreateNew {
        let source = std::io::Error::new(std::io::ErrorKind::AlreadyExists, "file exists");
        return Err(FsError::Io {
            op: "create",
            display: display.to_string(),
            source,
        });
    }
    if entry.nlink > 1 {
        return Err(FsError::HardLinked {
            display: display.to_string(),
        });
    }
    Ok(Some(entry))
}

/// Creates the missing parent directories of `path` (the caller has already checked that the
/// nearest existing ancestor lies inside an allowed folder). New directories are made durable
/// (best effort) by syncing their parents.
pub fn create_parent_dirs(path: &Path, display: &str) -> Result<(), FsError> {
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    let mut missing: Vec<PathBuf> = Vec::new();
    let mut cur = parent;
    while std::fs::symlink_metadata(cur).is_err() {
        missing.push(cur.to_path_buf());
        match cur.parent() {
            Some(p) if !p.as_os_str().is_empty() => cur = p,
            _ => break,
        }
    }
    if missing.is_empty() {
        return match std::fs::metadata(parent) {
            Ok(m) if m.is_dir() => Ok(()),
            _ => Err(FsError::NotAFile {
                display: parent.to_string_lossy().into_owned(),
            }),
        };
    }
    std::fs::create_dir_all(parent).map_err(io_err("create the parent directories of", display))?;
    for dir in missing.iter().rev() {
        if let Some(p) = dir.parent() {
            sync_dir(p);
        }
    }
    Ok(())
}

fn io_err<'a>(op: &'static str, display: &'a str) -> impl FnOnce(std::io::Error) -> FsError + 'a {
    move |source| FsError::Io {
        op,
        display: display.to_string(),
        source,
    }
}

/// The path to write: `path` itself, or a symlink's resolved target.
fn resolve_target(path: &Path, display: &str) -> Result<PathBuf, FsError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Ok(super::guard::safe_realpath(path)),
        Ok(_) => Ok(path.to_path_buf()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(FsError::Io {
            op: "inspect",
            display: display.to_string(),
            source: e,
        }),
    }
}

fn parent_dir(target: &Path) -> PathBuf {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Gives the temp file the original's owner/group (best effort: EPERM is ignored, and the group
/// alone is tried when the owner cannot be changed) and then its exact mode bits (after chown,
/// which may clear setuid/setgid; a temp file already of the right owner and mode is left as is).
fn copy_owner_and_mode(file: &std::fs::File, uid: u32, gid: u32, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::{fchown, MetadataExt, PermissionsExt};
    let mine = file.metadata()?;
    let same_owner = mine.uid() == uid && mine.gid() == gid;
    if same_owner && mine.mode() & 0o7777 == mode & 0o7777 {
        return Ok(());
    }
    if !same_owner {
        let changed = fchown(file, Some(uid), Some(gid));
        if changed.is_err() && mine.gid() != gid {
            let _ = fchown(file, None, Some(gid));
        }
    }
    file.set_permissions(std::fs::Permissions::from_mode(mode & 0o7777))
}

/// Best-effort fsync of a directory (makes a rename or a new entry durable).
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
thread_local! {
    /// Test-only: the write stage ("write", "sync", "rename") that fails with an injected error.
    pub(crate) static FAIL_AT: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
    /// Test-only: stage named temp files, as on file systems without `O_TMPFILE`.
    pub(crate) static NAMED_TEMPS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn failpoint(stage: &'static str) -> Result<(), FsError> {
    if FAIL_AT.with(|f| f.get()) == Some(stage) {
        let source = std::io::Error::other(format!("injected failure at {stage}"));
        return Err(FsError::Io {
            op: "test",
            display: stage.to_string(),
            source,
        });
    }
    Ok(())
}

#[cfg(not(test))]
#[inline(always)]
fn failpoint(_stage: &'static str) -> Result<(), FsError> {
    Ok(())
}

#[cfg(test)]
mod tests;
