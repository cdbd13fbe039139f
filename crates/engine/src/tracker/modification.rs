//! The `ExternalModificationDetector`: a cheap snapshot of a file (modification time, size,
//! SHA-256 of the content) and a comparison of the file's current state against it.
//!
//! [`detect`] takes the cheap path first: when neither the modification time nor the size moved,
//! the file is taken as unchanged and its content is not read. A size change proves a content
//! change without hashing. Only a moved time with an unchanged size costs a hash, which tells a
//! touched-but-identical file (`modified: false`, `mtime_changed: true`) from a rewritten one.

use super::read_tracker::system_time_ms;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// A file's state at one moment. `mtime` is Node's `mtimeMs`; `hash` is the lower-case hex
/// SHA-256 of the content (absent only in snapshots built by hand).
#[derive(Debug, Clone, PartialEq)]
pub struct FileSnapshot {
    pub path: String,
    pub mtime: f64,
    pub size: u64,
    pub hash: Option<String>,
}

/// What changed between a snapshot and now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Changes {
    pub mtime_changed: bool,
    pub size_changed: bool,
    pub content_changed: bool,
}

/// The answer of [`detect`]. `modified` means the content differs (or the file is gone);
/// `deleted` means the file no longer exists (then every change flag is true).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Detection {
    pub modified: bool,
    pub deleted: bool,
    pub changes: Changes,
}

/// Takes a snapshot of the regular file at `path` (symlinks followed). Errors when the file is
/// missing, unreadable or not a regular file.
pub fn snapshot(path: &Path) -> std::io::Result<FileSnapshot> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(FileSnapshot {
        path: path.to_string_lossy().into_owned(),
        mtime: system_time_ms(meta.modified()?),
        size: meta.len(),
        hash: Some(hash_file(path)?),
    })
}

/// Compares the file at `path` with `previous`. A missing file reports `deleted` (and
/// `modified`). When the time moved but the size did not, the content is hashed and compared
/// with `previous.hash`; a snapshot without a hash then counts as content changed.
/// Errors only when the file exists but cannot be stat'ed or read.
pub fn detect(path: &Path, previous: &FileSnapshot) -> std::io::Result<Detection> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(deleted()),
        Err(e) => return Err(e),
    };
    let mtime_changed = system_time_ms(meta.modified()?) != previous.mtime;
    let size_changed = meta.len() != previous.size;
    let content_changed = if size_changed {
        true
    } else if mtime_changed {
        match &previous.hash {
            Some(old) => !hash_file(path)?.eq_ignore_ascii_case(old),
            None => true,
        }
    } else {
        false
    };
    let changes = Changes {
        mtime_changed,
        size_changed,
        content_changed,
    };
    Ok(Detection {
        modified: content_changed,
        deleted: false,
        changes,
    })
}

fn deleted() -> Detection {
    let all = Changes {
        mtime_changed: true,
        size_changed: true,
        content_changed: true,
    };
    Detection {
        modified: true,
        deleted: true,
        changes: all,
    }
}

/// Lower-case hex SHA-256 of the file's bytes, read in 64 KiB chunks.
pub fn hash_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::{File, FileTimes};
    use std::time::{Duration, SystemTime};

    fn set_mtime(path: &Path, t: SystemTime) {
        let f = File::options().write(true).open(path).unwrap();
        f.set_times(FileTimes::new().set_modified(t)).unwrap();
    }

    fn when(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn snapshot_hashes_content() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "abc").unwrap();
        let s = snapshot(&p).unwrap();
        assert_eq!(s.size, 3);
        assert_eq!(
            s.hash.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert!(snapshot(&dir.path().join("nope")).is_err());
        assert!(snapshot(dir.path()).is_err());
    }

    #[test]
    fn touch_only_is_not_a_modification() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "abc").unwrap();
        set_mtime(&p, when(1_000_000));
        let s = snapshot(&p).unwrap();
        assert_eq!(detect(&p, &s).unwrap(), Detection::default());
        set_mtime(&p, when(2_000_000));
        let d = detect(&p, &s).unwrap();
        assert!(!d.modified && d.changes.mtime_changed && !d.changes.content_changed);
    }

    #[test]
    fn content_and_size_changes_are_modifications() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "abc").unwrap();
        set_mtime(&p, when(1_000_000));
        let s = snapshot(&p).unwrap();
        std::fs::write(&p, "abd").unwrap();
        let d = detect(&p, &s).unwrap();
        assert!(d.modified && d.changes.content_changed && !d.changes.size_changed);
        std::fs::write(&p, "abcd").unwrap();
        let d = detect(&p, &s).unwrap();
        assert!(d.modified && d.changes.size_changed);
    }

    #[test]
    fn cheap_path_skips_hashing() {
        // Same size, time put back: the content is not read, so the change goes unseen.
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "abc").unwrap();
        set_mtime(&p, when(1_000_000));
        let mut s = snapshot(&p).unwrap();
        s.hash = Some("not a real hash".into());
        assert!(!detect(&p, &s).unwrap().modified);
        s.hash = None;
        set_mtime(&p, when(1_000_001));
        assert!(
            detect(&p, &s).unwrap().modified,
            "no hash to compare: counted as changed"
        );
    }

    #[test]
    fn missing_file_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "abc").unwrap();
        let s = snapshot(&p).unwrap();
        std::fs::remove_file(&p).unwrap();
        let d = detect(&p, &s).unwrap();
        assert!(d.modified && d.deleted && d.changes.content_changed);
    }
}
