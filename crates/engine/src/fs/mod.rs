//! The only module that touches the disk: path guard, per-file locks, text decoding with
//! encoding/line-ending fidelity, and atomic durable writes.

pub mod atomic;
pub mod background;
pub mod cleanup;
pub mod confined_dir;
pub mod endings;
pub mod guard;
pub mod locks;
pub mod temp;
pub mod textfile;
pub mod user_dirs;

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
    /// A file with several hard links owned by another user: it may be a link to a file outside
    /// the workspace, so it is not read.
    #[error("{display} has several hard links and belongs to another user (it may be a link to a file outside the workspace); not read")]
    ForeignHardLink { display: String },
    #[error("{display} is {size} bytes, over the {max}-byte limit")]
    TooLarge {
        display: String,
        size: u64,
        max: u64,
    },
    /// A write whose new content is over the size limit (`maxFileBytes`); nothing was written.
    #[error("nothing was written: the new content of {display} would be {size} bytes, over the {max}-byte limit (maxFileBytes, the largest file the tools read or write)")]
    WriteTooLarge {
        display: String,
        size: u64,
        max: u64,
    },
    /// An overwrite of a file whose content could not be read back for the undo history (a write
    /// that could not be undone); nothing was written.
    #[error("nothing was written: {display} could not be read back for the undo history ({reason}), and a write that could not be undone is refused")]
    PreviousUnreadable { display: String, reason: String },
    #[error("{display} is not valid UTF-8 text")]
    NotUtf8 { display: String },
    #[error("{display} contains NUL bytes (binary file)")]
    Binary { display: String },
    /// New content with a NUL byte (it would make the text file binary); nothing was written.
    #[error("the new content for {display} contains a NUL byte, which would turn the text file binary; nothing was written")]
    NulInContent { display: String },
    /// The read-before-edit guard refused the write (the message says what to do).
    #[error("{message}")]
    ReadState { message: String },
    /// The syntax guard (`syntaxCheck: 'refuse'`) refused the write; the message lists the errors.
    #[error("{message}")]
    SyntaxRefused { message: String },
    /// Another call or process held the file's lock for the whole wait; nothing was written.
    #[error("{display} is locked: {reason}. Nothing was written; retry when that edit has finished, or raise the lockTimeoutMs option")]
    Locked { display: String, reason: String },
    /// The cross-process lock could not be had, so the write was refused rather than risk
    /// losing a concurrent write of another process.
    #[error("{display} was not written: {reason}. Without it another process's concurrent edit could be lost; fix that directory (a directory owned by you, mode 700)")]
    LockUnavailable { display: String, reason: String },
    /// The undo history cannot record the write's level, so the write was refused.
    #[error("nothing was written: the undo history at {path} cannot record ({reason}); the host can set history: false")]
    HistoryCannotRecord { path: String, reason: String },
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

impl FsError {
    /// The error of a lock that was not taken for the file shown as `display`.
    pub fn from_lock(error: locks::LockError, display: &str) -> FsError {
        let display = display.to_string();
        let reason = error.to_string();
        match error {
            locks::LockError::TimedOut { .. } => FsError::Locked { display, reason },
            locks::LockError::Unavailable { .. } => FsError::LockUnavailable { display, reason },
            locks::LockError::NoDescriptor(source) => FsError::Io {
                op: "lock",
                display,
                source,
            },
        }
    }
}

pub use crate::sys::user_home;
