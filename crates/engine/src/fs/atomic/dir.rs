//! Directory handles for writes that cannot be redirected: every step after opening the directory
//! (inspect the entry, create the temp file, rename, remove the temp) is relative to the handle,
//! so renaming or replacing a folder of the path afterwards cannot move the write elsewhere.
use crate::fs::temp::claim_name;
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;
use std::ffi::{CStr, CString, OsStr};
use std::fs::File;
use std::io;
use std::path::{Component, Path};

/// An open directory.
pub(super) struct Dir {
    file: File,
}

/// What `lstat` says about a directory entry.
pub(super) struct Entry {
    pub kind: FileType,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub nlink: u64,
}

const DIR_FLAGS: OFlags = OFlags::DIRECTORY.union(OFlags::CLOEXEC);

/// A handle good for `*at` calls only, which needs no read permission on the directory.
#[cfg(any(target_os = "linux", target_os = "android"))]
const PATH_ONLY: OFlags = OFlags::PATH;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const PATH_ONLY: OFlags = OFlags::RDONLY;

/// Mode of a new temp file before the umask (as `tempfile`'s).
const TEMP_MODE: Mode = Mode::from_raw_mode(0o666);

impl Dir {
    /// Opens `dir`, following symlinks on the way.
    pub fn open(dir: &Path) -> io::Result<Dir> {
        let fd = match rustix::fs::open(dir, OFlags::RDONLY | DIR_FLAGS, Mode::empty()) {
            // A directory we may write but not list: a path-only handle is enough.
            Err(Errno::ACCESS) => rustix::fs::open(dir, PATH_ONLY | DIR_FLAGS, Mode::empty())?,
            other => other?,
        };
        Ok(Dir {
            file: File::from(fd),
        })
    }

    /// Opens the absolute, symlink-free path `dir` without following any symlink: fails
    /// (`ELOOP`/`ENOTDIR`) when a component is no longer a real directory. Folders on the way need
    /// only search permission. On Linux the kernel resolves the whole path in one call refusing
    /// every symlink (`openat2` with `RESOLVE_NO_SYMLINKS`); elsewhere, or where the kernel
    /// refuses `openat2`, the path is walked one component at a time.
    pub fn open_nofollow(dir: &Path) -> io::Result<Dir> {
        #[cfg(target_os = "linux")]
        if let Some(opened) = Dir::open_without_symlinks(dir) {
            return opened;
        }
        let mut cur = Dir::open(Path::new(if dir.is_absolute() { "/" } else { "." }))?;
        let names: Vec<&OsStr> = dir
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(Ok(name)),
                Component::ParentDir => Some(Err(())),
                _ => None,
            })
            .collect::<Result<_, _>>()
            .map_err(|()| {
                io::Error::new(io::ErrorKind::InvalidInput, "the path is not normalized")
            })?;
        for (i, name) in names.iter().enumerate() {
            let last = i + 1 == names.len();
            cur = if last {
                match cur.open_child(name, OFlags::RDONLY) {
                    Err(Errno::ACCESS) => cur.open_child(name, PATH_ONLY)?,
                    other => other?,
                }
            } else {
                cur.open_child(name, PATH_ONLY)?
            };
        }
        Ok(cur)
    }

    /// [`Dir::open_nofollow`] in one `openat2` call; `None` when the kernel cannot do it (no
    /// `openat2`, a seccomp filter) or `dir` is not absolute and normalized: the caller walks.
    #[cfg(target_os = "linux")]
    fn open_without_symlinks(dir: &Path) -> Option<io::Result<Dir>> {
        use rustix::fs::ResolveFlags;
        let normalized = dir.is_absolute()
            && dir
                .components()
                .all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
        if !normalized {
            return None;
        }
        let open = |access: OFlags| {
            let flags = access | DIR_FLAGS | OFlags::NOFOLLOW;
            let resolve = ResolveFlags::NO_SYMLINKS;
            rustix::fs::openat2(rustix::fs::CWD, dir, flags, Mode::empty(), resolve)
        };
        let opened = match open(OFlags::RDONLY) {
            Err(Errno::ACCESS) => open(PATH_ONLY),
            other => other,
        };
        match opened {
            Ok(fd) => Some(Ok(Dir {
                file: File::from(fd),
            })),
            Err(Errno::NOSYS | Errno::PERM | Errno::AGAIN | Errno::INVAL) => None,
            Err(e) => Some(Err(e.into())),
        }
    }

    fn open_child(&self, name: &OsStr, access: OFlags) -> rustix::io::Result<Dir> {
        let flags = access | DIR_FLAGS | OFlags::NOFOLLOW;
        let fd = rustix::fs::openat(&self.file, name, flags, Mode::empty())?;
        Ok(Dir {
            file: File::from(fd),
        })
    }

    /// `lstat` of the entry `name` (symlinks not followed); `None` when there is none.
    pub fn entry(&self, name: &OsStr) -> io::Result<Option<Entry>> {
        match rustix::fs::statat(&self.file, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(Entry {
                kind: FileType::from_raw_mode(st.st_mode),
                #[allow(clippy::useless_conversion)]
                mode: u32::from(st.st_mode),
                uid: st.st_uid,
                gid: st.st_gid,
                #[allow(clippy::useless_conversion)]
                nlink: u64::from(st.st_nlink),
            })),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Opens the entry `name` for reading without following a symlink (`ELOOP` when it is one) and
    /// without blocking on a FIFO.
    pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::openat(
            &self.file,
            name,
            flags,
            Mode::empty(),
        )?))
    }

    /// Creates a new, empty temp file `.edit-engine-<random>.tmp` in this directory (mode 0o666
    /// before the umask, like `tempfile`'s).
    fn create_temp(&self) -> io::Result<(CString, File)> {
        let flags =
            OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        claim_name(|name| {
            Ok(File::from(rustix::fs::openat(
                &self.file, name, flags, TEMP_MODE,
            )?))
        })
    }

    /// Renames `from` to `to` in this directory (replacing `to`, or failing with `AlreadyExists`
    /// when `noclobber`). An existing `to` is replaced as a name: a symlink there is not followed.
    pub fn rename(&self, from: &CStr, to: &OsStr, noclobber: bool) -> io::Result<()> {
        let dir = &self.file;
        if !noclobber {
            return Ok(rustix::fs::renameat(dir, from, dir, to)?);
        }
        #[cfg(target_os = "linux")]
        match rustix::fs::renameat_with(dir, from, dir, to, rustix::fs::RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            Err(Errno::INVAL | Errno::NOSYS) => {}
            Err(e) => return Err(e.into()),
        }
        // link + unlink: the link fails with EEXIST when `to` exists.
        rustix::fs::linkat(dir, from, dir, to, AtFlags::empty())?;
        let _ = self.unlink(from);
        Ok(())
    }

    /// Removes the entry `name` (not a directory).
    pub fn unlink(&self, name: &CStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(&self.file, name, AtFlags::empty())?)
    }

    /// Best-effort fsync of the directory (makes a rename durable; a path-only handle of a
    /// directory we may not read cannot be synced).
    pub fn sync(&self) {
        let _ = self.file.sync_all();
    }

    /// The directory's handle (for a background fsync).
    pub fn into_file(self) -> File {
        self.file
    }
}

/// A temp file being written for one write. Where the kernel and file system allow (Linux
/// `O_TMPFILE`), it has no name until [`Staged::name`] links it in, after its fsync: that fsync
/// then has no new directory entry to make durable (ext4 syncs the parent of a new entry inside
/// `fsync`), and a crash before the link leaves nothing behind. Elsewhere it is a named temp from
/// the start. A name it has is removed on drop unless [`Staged::keep`] was called.
pub(super) struct Staged<'d> {
    dir: &'d Dir,
    pub file: File,
    name: Option<CString>,
}

impl Dir {
    /// A new, empty temp file in this directory (mode 0o666 before the umask).
    pub fn stage(&self) -> io::Result<Staged<'_>> {
        #[cfg(test)]
        if super::NAMED_TEMPS.with(|n| n.get()) {
            return self.stage_named();
        }
        #[cfg(target_os = "linux")]
        if let Some(file) = self.create_anonymous() {
            return Ok(Staged {
                dir: self,
                file,
                name: None,
            });
        }
        self.stage_named()
    }

    /// A temp file named `.edit-engine-<random>.tmp` from the start (the fallback of [`Dir::stage`]).
    pub fn stage_named(&self) -> io::Result<Staged<'_>> {
        let (name, file) = self.create_temp()?;
        Ok(Staged {
            dir: self,
            file,
            name: Some(name),
        })
    }

    /// An unnamed file in this directory; `None` where `O_TMPFILE` is not supported (by the file
    /// system, or because `/proc/self/fd`, through which it is linked, is missing).
    #[cfg(target_os = "linux")]
    fn create_anonymous(&self) -> Option<File> {
        static LINKABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        if !*LINKABLE.get_or_init(|| Path::new("/proc/self/fd").is_dir()) {
            return None;
        }
        let flags = OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.file, c".", flags, TEMP_MODE).ok()?;
        Some(File::from(fd))
    }

    /// Links the unnamed `file` into this directory under a fresh temp name.
    #[cfg(target_os = "linux")]
    fn link_anonymous(&self, file: &File) -> io::Result<CString> {
        use std::os::unix::io::AsRawFd;
        let source = format!("/proc/self/fd/{}", file.as_raw_fd());
        let (name, ()) = claim_name(|name| {
            let follow = AtFlags::SYMLINK_FOLLOW;
            Ok(rustix::fs::linkat(
                rustix::fs::CWD,
                &source,
                &self.file,
                name,
                follow,
            )?)
        })?;
        Ok(name)
    }
}

impl Staged<'_> {
    /// The temp file's name in the directory, linking an unnamed one in first. Call after the
    /// content is synced: from here on a crash can leave the temp behind (stale-temp cleanup
    /// removes it).
    pub fn name(&mut self) -> io::Result<CString> {
        if let Some(name) = &self.name {
            return Ok(name.clone());
        }
        #[cfg(target_os = "linux")]
        {
            let name = self.dir.link_anonymous(&self.file)?;
            self.name = Some(name.clone());
            Ok(name)
        }
        #[cfg(not(target_os = "linux"))]
        unreachable!("only Linux stages unnamed temp files")
    }

    /// The temp file was renamed into place: nothing to remove on drop.
    pub fn keep(&mut self) {
        self.name = None;
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Some(name) = self.name.take() {
            let _ = self.dir.unlink(&name);
        }
    }
}
