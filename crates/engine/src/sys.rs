//! What the operating system says about users and processes: the effective user, whether a
//! process exists, the user's home directory. The file system calls go through `rustix` and
//! `std`; this is the one module of the crate with `unsafe`, for the user database lookup
//! (`getpwuid_r`), starting a file's writeback (`sync_file_range`) and a thread's scheduling
//! policy (`sched_setscheduler`), which neither wraps.
use rustix::io::Errno;
use rustix::process::Pid;
use std::path::PathBuf;

/// Starts writing `file`'s dirty pages to disk without waiting for them (Linux's
/// `sync_file_range` with `SYNC_FILE_RANGE_WRITE`), so a later fsync has less left to wait for;
/// best effort, and nothing on other systems.
pub fn start_writeback(file: &std::fs::File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: a plain system call on a descriptor `file` keeps open for the call; no memory
        // is passed. Its result is ignored: the fsync that follows writes whatever is left.
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

/// A scheduling policy below the normal one, for the engine's background threads (Linux).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowPolicy {
    /// `SCHED_BATCH`: the thread's share of the CPU is unchanged, but its wake-up never preempts
    /// the thread that woke it.
    NoWakePreemption,
    /// `SCHED_IDLE`: the thread runs only on a core no other thread wants (and its wake-up never
    /// preempts either).
    OnlyWhenIdle,
}

/// Puts the calling thread (not the process) under `policy`; false when refused, and on other
/// systems.
pub fn lower_thread_policy(policy: LowPolicy) -> bool {
    #[cfg(target_os = "linux")]
    {
        let raw = match policy {
            LowPolicy::NoWakePreemption => libc::SCHED_BATCH,
            LowPolicy::OnlyWhenIdle => libc::SCHED_IDLE,
        };
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` lives for the call, which only reads it; pid 0 is the calling thread.
        unsafe { libc::sched_setscheduler(0, raw, &param) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = policy;
        false
    }
}

/// The effective user id of this process.
pub fn effective_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// `kill(pid, 0)` semantics: alive unless the process does not exist (`ESRCH`); ids below 1 are
/// never alive.
pub fn process_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    Pid::from_raw(pid)
        .is_some_and(|pid| !matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH)))
}

/// The effective user's home directory from the user database (not `$HOME`), if any.
pub fn user_home() -> Option<PathBuf> {
    use std::ffi::CStr;
    use std::os::unix::ffi::OsStrExt;
    let mut buf = vec![0u8; 16 * 1024];
    // SAFETY: an all-zero `passwd` (null pointers, zero ids) is a valid value for an
    // out-parameter; getpwuid_r only writes into it.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut out: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: `pwd`, `out` and `buf` are valid for writes for the whole call and `buf.len()` is
    // the size of `buf`; the strings it fills in point into `buf`, which outlives every use.
    let rc = unsafe {
        libc::getpwuid_r(
            effective_uid(),
            &mut pwd,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut out,
        )
    };
    if rc != 0 || out.is_null() || pwd.pw_dir.is_null() {
        return None;
    }
    // SAFETY: on success `pw_dir` (checked non-null above) points to a NUL-terminated string
    // inside `buf`, which is still alive and unchanged.
    let dir = unsafe { CStr::from_ptr(pwd.pw_dir) };
    let dir = PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes()));
    dir.is_absolute().then_some(dir)
}

/// Test-only: how many of `file`'s cached pages are dirty, not yet handed to the disk (Linux's
/// `cachestat`, from 6.5 on); `None` where the call is missing.
#[cfg(all(
    test,
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub fn dirty_pages(file: &std::fs::File) -> Option<u64> {
    use std::os::fd::AsRawFd;
    #[repr(C)]
    struct Range {
        off: u64,
        len: u64,
    }
    #[repr(C)]
    #[derive(Default)]
    struct Stat {
        cache: u64,
        dirty: u64,
        writeback: u64,
        evicted: u64,
        recently_evicted: u64,
    }
    const SYS_CACHESTAT: libc::c_long = 451;
    let range = Range { off: 0, len: 0 }; // to the end of the file
    let mut stat = Stat::default();
    // SAFETY: both structs have the kernel's layout and outlive the call; the kernel reads
    // `range` and writes `stat` only.
    let done = unsafe { libc::syscall(SYS_CACHESTAT, file.as_raw_fd(), &range, &mut stat, 0u32) };
    (done == 0).then_some(stat.dirty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_bad_ids_are_not() {
        assert!(process_alive(std::process::id() as i32));
        assert!(!process_alive(0) && !process_alive(-1));
    }

    #[test]
    fn effective_uid_owns_the_files_this_process_creates() {
        use std::os::unix::fs::MetadataExt;
        let file = tempfile::NamedTempFile::new().unwrap();
        assert_eq!(file.as_file().metadata().unwrap().uid(), effective_uid());
    }

    #[test]
    fn the_home_directory_is_absolute_when_known() {
        if let Some(home) = user_home() {
            assert!(home.is_absolute(), "{}", home.display());
        }
    }
}
