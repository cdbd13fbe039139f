//! The only module that touches the disk: path guard, per-file locks, text decoding with
//! encoding/line-ending fidelity, and atomic durable writes.

pub mod atomic;
pub mod background;
pub mod cleanup;
pub mod confined_dir;
pub mod guard;
pub mod locks;
pub mod textfile;

use std::path::PathBuf;

/// Everything that can go wrong between a path string and bytes on disk.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// The path resolves outside every allowed folder. `display` is Probe's `toRelativePath` form.
    #[error("Permission denied - {display} is outside allowed directories")]
    OutsideAllowed { display: String },
    /// The path matches a `protectedPaths` glob.
    #[error("Permission denied - {display} is a protected path (matches \"{pattern}\")")]
    Protected { display: String, pattern: String },
    /// A `protectedPaths` entry is not a valid glob.
    #[error("invalid protectedPaths pattern \"{pattern}\": {reason}")]
    BadPattern { pattern: String, reason: String },
    /// The path contains a NUL byte or is otherwise unusable.
    #[error("invalid path: {reason}")]
    BadPath { reason: String },
    #[error("File not found - {display}")]
    NotFound { display: String },
    #[error("{display} is not a regular file")]
    NotAFile { display: String },
    /// The path changed between the guard's check and the write (a symlink or another kind of
    /// file was put in its place); nothing was written.
    #[error("{display} changed during the edit ({what})")]
    Changed { display: String, what: &'static str },
    #[error("{display} has several hard links; writing it would break the link (refused)")]
    HardLinked { display: String },
    #[error("{display} is {size} bytes, over the {max}-byte limit")]
    TooLarge {
        display: String,
        size: u64,
        max: u64,
    },
    #[error("{display} is not valid UTF-8 text")]
    NotUtf8 { display: String },
    #[error("{display} contains NUL bytes (binary file)")]
    Binary { display: String },
    #[error("could not {op} {display}: {source}")]
    Io {
        op: &'static str,
        display: String,
        #[source]
        source: std::io::Error,
    },
}

/// A path as the caller named it and as it really is on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// `workingDirectory`/`cwd` joined with the given path, `.`/`..` folded, symlinks kept.
    pub lexical: PathBuf,
    /// The real path: symlinks resolved; for a missing file, the nearest existing ancestor's real
    /// path joined with the remaining components. All reads and writes go here.
    pub real: PathBuf,
}
