//! Directory handles for writes that cannot be redirected: every step after opening the directory
//! (inspect the entry, create the temp file, rename, remove the temp) is relative to the handle,
//! so renaming or replacing a folder of the path afterwards cannot move the write elsewhere.
use crate::fs::temp::claim_name;
use std::ffi::{CStr, CString, OsStr};
use std::fs::File;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::{AsRawFd, FromRawFd, RawFd};
use std::path::{Component, Path};

/// An open directory.
pub(super) struct Dir {
    file: File,
}

/// What `lstat` says about a directory entry.
pub(super) struct Entry {
    pub kind: libc::mode_t,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub nlink: u64,
}

const DIR_FLAGS: libc::c_int = libc::O_DIRECTORY | libc::O_CLOEXEC;

/// A handle good for `*at` calls only, which needs no read permission on the directory.
#[cfg(any(target_os = "linux", target_os = "android"))]
const PATH_ONLY: libc::c_int = libc::O_PATH;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const PATH_ONLY: libc::c_int = libc::O_RDONLY;

fn is_eacces(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EACCES)
}

fn cstr(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path contains a NUL byte"))
}

fn cvt(rc: libc::c_int) -> io::Result<libc::c_int> {
    if rc < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

impl Dir {
    /// Opens `dir`, following symlinks on the way.
    pub fn open(dir: &Path) -> io::Result<Dir> {
        let c = cstr(dir.as_os_str())?;
        // SAFETY: `c` is a valid NUL-terminated string.
        let rc = unsafe { libc::open(c.as_ptr(), libc::O_RDONLY | DIR_FLAGS) };
        let fd = match cvt(rc) {
            // A directory we may write but not list: a path-only handle is enough.
            // SAFETY: as above.
            Err(e) if is_eacces(&e) => {
                cvt(unsafe { libc::open(c.as_ptr(), PATH_ONLY | DIR_FLAGS) })?
            }
            other => other?,
        };
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        Ok(Dir {
            file: unsafe { File::from_raw_fd(fd) },
        })
    }

    /// Opens the absolute, symlink-free path `dir` one component at a time without following any
    /// symlink: fails (`ELOOP`/`ENOTDIR`) when a component is no longer a real directory. Folders
    /// on the way need only search permission (they are opened as path-only handles).
    pub fn open_nofollow(dir: &Path) -> io::Result<Dir> {
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
                match cur.open_child(name, libc::O_RDONLY) {
                    Err(e) if is_eacces(&e) => cur.open_child(name, PATH_ONLY)?,
                    other => other?,
                }
            } else {
                cur.open_child(name, PATH_ONLY)?
            };
        }
        Ok(cur)
    }

    fn open_child(&self, name: &OsStr, access: libc::c_int) -> io::Result<Dir> {
        let c = cstr(name)?;
        // SAFETY: valid descriptor and NUL-terminated name; the descriptor is owned below.
        let fd = cvt(unsafe {
            libc::openat(self.fd(), c.as_ptr(), access | DIR_FLAGS | libc::O_NOFOLLOW)
        })?;
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        Ok(Dir {
            file: unsafe { File::from_raw_fd(fd) },
        })
    }

    fn fd(&self) -> RawFd {
        self.file.as_raw_fd()
    }

    /// `lstat` of the entry `name` (symlinks not followed); `None` when there is none.
    pub fn entry(&self, name: &OsStr) -> io::Result<Option<Entry>> {
        let c = cstr(name)?;
        // SAFETY: an all-zero `stat` is a valid value; fstatat fills it.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: valid descriptor, NUL-terminated name, `st` is writable.
        let rc =
            unsafe { libc::fstatat(self.fd(), c.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
        match cvt(rc) {
            Ok(_) => Ok(Some(Entry {
                kind: st.st_mode & libc::S_IFMT,
                mode: st.st_mode as u32,
                uid: st.st_uid,
                gid: st.st_gid,
                #[allow(clippy::useless_conversion)]
                nlink: u64::from(st.st_nlink),
            })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Opens the entry `name` for reading without following a symlink (`ELOOP` when it is one) and
    /// without blocking on a FIFO.
    pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let c = cstr(name)?;
        // SAFETY: valid descriptor and NUL-terminated name; the descriptor is owned below.
        let fd = cvt(unsafe {
            libc::openat(
                self.fd(),
                c.as_ptr(),
                libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        })?;
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    /// Creates a new, empty temp file `.edit-engine-<random>.tmp` in this directory (mode 0o666
    /// before the umask, like `tempfile`'s).
    fn create_temp(&self) -> io::Result<(CString, File)> {
        claim_name(|name| {
            // SAFETY: valid descriptor and NUL-terminated name; the descriptor is owned below.
            let fd = cvt(unsafe {
                libc::openat(
                    self.fd(),
                    name.as_ptr(),
                    libc::O_RDWR
                        | libc::O_CREAT
                        | libc::O_EXCL
                        | libc::O_NOFOLLOW
                        | libc::O_CLOEXEC,
                    0o666 as libc::c_uint,
                )
            })?;
            // SAFETY: `fd` is a fresh descriptor that nothing else owns.
            Ok(unsafe { File::from_raw_fd(fd) })
        })
    }

    /// Renames `from` to `to` in this directory (replacing `to`, or failing with `AlreadyExists`
    /// when `noclobber`). An existing `to` is replaced as a name: a symlink there is not followed.
    pub fn rename(&self, from: &CStr, to: &OsStr, noclobber: bool) -> io::Result<()> {
        let to = cstr(to)?;
        if !noclobber {
            // SAFETY: valid descriptors and NUL-terminated names.
            return cvt(unsafe {
                libc::renameat(self.fd(), from.as_ptr(), self.fd(), to.as_ptr())
            })
            .map(|_| ());
        }
        #[cfg(target_os = "linux")]
        {
            // SAFETY: valid descriptors and NUL-terminated names.
            let rc = unsafe {
                libc::renameat2(
                    self.fd(),
                    from.as_ptr(),
                    self.fd(),
                    to.as_ptr(),
                    libc::RENAME_NOREPLACE,
                )
            };
            match cvt(rc) {
                Ok(_) => return Ok(()),
                Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {}
                Err(e) => return Err(e),
            }
        }
        // link + unlink: the link fails with EEXIST when `to` exists.
        // SAFETY: valid descriptors and NUL-terminated names.
        cvt(unsafe { libc::linkat(self.fd(), from.as_ptr(), self.fd(), to.as_ptr(), 0) })?;
        let _ = self.unlink(from);
        Ok(())
    }

    /// Removes the entry `name` (not a directory).
    pub fn unlink(&self, name: &CStr) -> io::Result<()> {
        // SAFETY: valid descriptor and NUL-terminated name.
        cvt(unsafe { libc::unlinkat(self.fd(), name.as_ptr(), 0) }).map(|_| ())
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
        // SAFETY: valid descriptor and NUL-terminated name; the descriptor is owned below.
        let rc = unsafe {
            libc::openat(
                self.fd(),
                c".".as_ptr(),
                libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC,
                0o666 as libc::c_uint,
            )
        };
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        cvt(rc).ok().map(|fd| unsafe { File::from_raw_fd(fd) })
    }

    /// Links the unnamed `file` into this directory under a fresh temp name.
    #[cfg(target_os = "linux")]
    fn link_anonymous(&self, file: &File) -> io::Result<CString> {
        let source = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .expect("no NUL in a generated path");
        let (name, ()) = claim_name(|name| {
            // SAFETY: valid descriptor and NUL-terminated paths.
            cvt(unsafe {
                libc::linkat(
                    libc::AT_FDCWD,
                    source.as_ptr(),
                    self.fd(),
                    name.as_ptr(),
                    libc::AT_SYMLINK_FOLLOW,
                )
            })
            .map(drop)
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
