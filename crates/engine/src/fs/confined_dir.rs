//! Confined reads of many files below one folder (a search, a multi-file patch): the same
//! guarantee as [`open_confined`] — no symlink followed anywhere on the way, a symlink swapped in
//! is refused with `Changed` — at the cost of one system call per file instead of one per folder
//! of its path.
//!
//! On Linux the folder is opened once (`openat2` with `RESOLVE_NO_SYMLINKS` from `/`) and every
//! file relative to it with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`. Elsewhere, or where the
//! kernel refuses `openat2`, each file goes through [`open_confined`].

use super::atomic::open_confined;
use super::FsError;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A folder whose files are opened without following symlinks. Shareable between threads.
pub struct ConfinedDir {
    root: PathBuf,
    #[cfg(target_os = "linux")]
    handle: Option<File>,
}

impl ConfinedDir {
    /// Prepares confined opens below the absolute, symlink-free path `root`. Never fails: when
    /// the folder cannot be held open, [`ConfinedDir::open_file`] opens each file by its path.
    pub fn new(root: &Path) -> ConfinedDir {
        ConfinedDir {
            root: root.to_path_buf(),
            #[cfg(target_os = "linux")]
            handle: linux::open_root(root).ok(),
        }
    }

    /// Opens `real_path` (a path below the root) for reading: no symlink is followed, FIFOs do
    /// not block. Errors as [`open_confined`]'s (`display` names the file in them).
    pub fn open_file(&self, real_path: &Path, display: &str) -> Result<File, FsError> {
        #[cfg(target_os = "linux")]
        if let (Some(handle), Ok(rel)) = (&self.handle, real_path.strip_prefix(&self.root)) {
            if let Some(result) = linux::open_beneath(handle, rel, display) {
                return result;
            }
        }
        open_confined(real_path, display)
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::FsError;
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    use std::fs::File;
    use std::io;
    use std::path::Path;

    fn openat2(dir: &File, path: &Path, flags: OFlags, resolve: ResolveFlags) -> io::Result<File> {
        let flags = flags | OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::openat2(
            dir,
            path,
            flags,
            Mode::empty(),
            resolve,
        )?))
    }

    /// The root folder as a path-only handle, reached without following any symlink.
    pub fn open_root(root: &Path) -> io::Result<File> {
        let rel = root
            .strip_prefix("/")
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "not an absolute path"))?;
        let slash = File::open("/")?;
        let rel = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        openat2(
            &slash,
            rel,
            OFlags::PATH | OFlags::DIRECTORY,
            ResolveFlags::NO_SYMLINKS,
        )
    }

    /// The file at `rel` below `root`; `None` when the kernel cannot do it (the caller falls back).
    pub fn open_beneath(root: &File, rel: &Path, display: &str) -> Option<Result<File, FsError>> {
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW;
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS;
        let err = match openat2(root, rel, flags, resolve) {
            Ok(file) => return Some(Ok(file)),
            Err(e) => e,
        };
        let display = display.to_string();
        Some(Err(match err.raw_os_error() {
            // No openat2 (old kernel, seccomp), or a rename raced the lookup: the slow path.
            Some(libc::ENOSYS | libc::EPERM | libc::EAGAIN | libc::EINVAL) => return None,
            Some(libc::ELOOP | libc::EXDEV) => FsError::Changed {
                display,
                what: "it is now a symbolic link",
            },
            Some(libc::ENOENT | libc::ENOTDIR) => FsError::NotFound { display },
            _ => FsError::Io {
                op: "open",
                display,
                source: err,
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_files_below_and_refuses_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let root = crate::fs::guard::safe_realpath(dir.path());
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/b/f.txt"), "inside").unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("f.txt"), "outside").unwrap();
        let confined = ConfinedDir::new(&root);
        let read = |rel: &str| {
            let mut s = String::new();
            confined
                .open_file(&root.join(rel), rel)
                .map(|mut f| std::io::Read::read_to_string(&mut f, &mut s).map(|_| s))
        };
        assert_eq!(read("a/b/f.txt").unwrap().unwrap(), "inside");
        assert!(matches!(
            read("a/b/none.txt"),
            Err(FsError::NotFound { .. })
        ));
        std::os::unix::fs::symlink(outside.path(), root.join("a/link")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("f.txt"), root.join("a/f.txt")).unwrap();
        for rel in ["a/link/f.txt", "a/f.txt"] {
            assert!(
                matches!(read(rel), Err(FsError::Changed { .. })),
                "{rel} followed a symlink"
            );
        }
    }

    #[test]
    fn a_root_that_is_a_symlink_falls_back_to_the_path_and_still_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let real = crate::fs::guard::safe_realpath(dir.path());
        std::fs::create_dir_all(real.join("d")).unwrap();
        std::fs::write(real.join("d/f.txt"), "x").unwrap();
        std::os::unix::fs::symlink(real.join("d"), real.join("link")).unwrap();
        let confined = ConfinedDir::new(&real.join("link"));
        let opened = confined.open_file(&real.join("link/f.txt"), "link/f.txt");
        assert!(opened.is_err(), "a symlinked root is not followed");
    }
}
