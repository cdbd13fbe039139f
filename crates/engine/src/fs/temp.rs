//! The temp files of the atomic write: the one place that names them
//! (`.edit-engine-<pid>-<16 hex digits>.tmp`), recognises them and marks one as held by a live
//! writer. [`super::atomic`] creates them through [`claim_name`]; [`super::cleanup`] removes the
//! ones a dead writer left behind.
use std::ffi::{CStr, CString};
use std::hash::{BuildHasher, Hasher};
use std::io;

/// Prefix of every temp file name (with suffix [`TEMP_SUFFIX`]).
pub const TEMP_PREFIX: &str = ".edit-engine-";
/// Suffix of every temp file name.
pub const TEMP_SUFFIX: &str = ".tmp";

/// Runs `create` (which must fail with `AlreadyExists` when the name is taken) on fresh temp names
/// until one is free; the name and what `create` made.
pub(crate) fn claim_name<T>(
    mut create: impl FnMut(&CStr) -> io::Result<T>,
) -> io::Result<(CString, T)> {
    for attempt in 0u32..100 {
        let pid = std::process::id();
        let name = CString::new(format!(
            "{TEMP_PREFIX}{pid}-{}{TEMP_SUFFIX}",
            random_tag(attempt)
        ))
        .expect("no NUL in a generated name");
        match create(&name) {
            Ok(made) => return Ok((name, made)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "could not find a free temporary file name",
    ))
}

/// 16 hex digits that differ between processes, threads, calls and attempts.
fn random_tag(attempt: u32) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(attempt);
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{:016x}", h.finish())
}

/// True for a name this module makes (prefix, something, suffix).
pub fn is_temp_name(name: &str) -> bool {
    name.len() > TEMP_PREFIX.len() + TEMP_SUFFIX.len()
        && name.starts_with(TEMP_PREFIX)
        && name.ends_with(TEMP_SUFFIX)
}

/// The id of the process that made the temp file `name` (`None`: not one of our names).
pub fn writer_pid(name: &str) -> Option<i32> {
    name.strip_prefix(TEMP_PREFIX)
        .and_then(|rest| rest.split_once('-'))
        .and_then(|(pid, _)| pid.parse::<i32>().ok())
        .filter(|pid| *pid > 0)
}

/// Marks `file` (a freshly created temp file) as held by a live writer until it is closed.
pub(crate) fn hold(file: &std::fs::File) {
    // A fresh file nobody else has opened: the lock is free (a failure only makes the temp look
    // unheld, which the age and owner checks of the cleanup still cover).
    let _ = file.try_lock();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claimed_names_are_recognised_and_carry_this_process() {
        let (name, ()) = claim_name(|_| Ok(())).unwrap();
        let name = name.to_str().unwrap();
        assert!(is_temp_name(name), "{name}");
        assert_eq!(writer_pid(name), Some(std::process::id() as i32));
        assert!(!is_temp_name(".edit-engine-.tmp"));
        assert!(!is_temp_name("notes.tmp"));
        assert_eq!(writer_pid(".edit-engine-x-1.tmp"), None);
        assert_eq!(writer_pid(".edit-engine-0-1.tmp"), None);
    }

    #[test]
    fn a_taken_name_is_skipped() {
        let mut seen = Vec::new();
        let (name, ()) = claim_name(|n| {
            seen.push(n.to_owned());
            if seen.len() < 3 {
                Err(io::Error::from(io::ErrorKind::AlreadyExists))
            } else {
                Ok(())
            }
        })
        .unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[2], name);
        assert_ne!(seen[0], seen[1]);
    }
}
