//! Turning engine errors into messages that say what happened and what to do next.

use crate::fs::FsError;
use crate::specs::HostTools;

/// The sentence after the error's own description: how the caller recovers.
fn recovery_hint(error: &FsError) -> &'static str {
    match error {
        FsError::OutsideAllowed { .. } => "Use a file path within the project workspace.",
        FsError::Protected { .. } => {
            "Protected paths can never be written by this tool; choose a file outside them."
        }
        FsError::BadPattern { .. } => "Fix the protectedPaths option of the tool (gitignore-style globs).",
        FsError::BadPath { .. } => "Provide a plain absolute path or a path relative to the working directory.",
        FsError::NotFound { .. } => "Verify the path is correct and the file exists.",
        FsError::NotAFile { .. } => "Give the path of a regular text file, not a directory or device.",
        FsError::Changed { .. } => {
            "The file was not changed. Check what is at that path now, read the file again and retry."
        }
        FsError::HardLinked { .. } => {
            "The file was not changed. Edit the file through its own path after removing the extra hard link."
        }
        FsError::ForeignHardLink { .. } => {
            "Read the file through its own location, or copy it into the workspace."
        }
        FsError::TooLarge { .. } => {
            "The file was not changed. Edit a smaller file, or raise the tool's maxFileBytes option."
        }
        FsError::WriteTooLarge { .. } => {
            "Make a smaller change (fewer or shorter replacements; a pattern that matches empty positions, such as (?m)^, matches once per line), split the content across files, or raise the tool's maxFileBytes option."
        }
        FsError::PreviousUnreadable { .. } => {
            "Raise the tool's maxFileBytes option above the file's size (when that is the reason), or the host can set history: false."
        }
        FsError::NotUtf8 { .. } | FsError::Binary { .. } => {
            "Only UTF-8 text files can be edited; the file was not changed."
        }
        FsError::NulInContent { .. } => {
            "Remove the NUL (\\0) characters from the new text and retry."
        }
        FsError::ReadState { .. } | FsError::SyntaxRefused { .. } => "",
        FsError::Locked { .. } | FsError::LockUnavailable { .. } => "",
        FsError::HistoryCannotRecord { .. } => "",
        FsError::Io { source, .. } if out_of_descriptors(source) => {
            "The file was not changed. The process has run out of file descriptors (too many files open): close files it holds open or raise its limit (ulimit -n), then retry."
        }
        FsError::Io { .. } => {
            "The file was not changed. Check permissions and free disk space, then retry."
        }
    }
}

/// Whether `error` says the process or the system has no file descriptor left.
fn out_of_descriptors(error: &std::io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

/// `"{description}. {hint}"` for an engine error; a missing file's hint goes on to offer the
/// host's search and create tools (`tools`).
pub fn describe(error: &FsError, tools: &HostTools) -> String {
    let pointer = match error {
        FsError::NotFound { .. } => tools.find_or_create(),
        _ => String::new(),
    };
    match recovery_hint(error) {
        "" => error.to_string(),
        hint => format!("{error}. {hint}{pointer}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_carries_a_hint() {
        let e = FsError::OutsideAllowed {
            display: "../x.js".into(),
        };
        assert_eq!(
            describe(&e, &HostTools::default()),
            "Permission denied - ../x.js is outside allowed directories. Use a file path within the project workspace."
        );
        let e = FsError::NotUtf8 {
            display: "a.bin".into(),
        };
        assert!(describe(&e, &HostTools::default()).ends_with("the file was not changed."));
    }

    /// A lock file that cannot be opened for lack of file descriptors is named as such, never
    /// as an unusable lock directory.
    #[test]
    fn descriptor_exhaustion_is_named() {
        let lock = crate::fs::locks::LockError::NoDescriptor(std::io::Error::from_raw_os_error(
            libc::EMFILE,
        ));
        let message = describe(&FsError::from_lock(lock, "a.txt"), &HostTools::default());
        assert!(message.starts_with("could not lock a.txt: "), "{message}");
        assert!(message.contains("run out of file descriptors"), "{message}");
        assert!(!message.contains("cross-process locking is unavailable"));
    }
}
