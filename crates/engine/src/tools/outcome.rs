//! What every tool call answers, as data: an [`Outcome`] (success or failure, the message for the
//! model, the files written, a count) whose failures carry an [`ErrorKind`] from a closed list.
//! Success is decided where the tool knows it, never read back from the message's text.

use crate::fs::FsError;

/// Why a call failed: a closed list, the `kind` of JS `executeResult` (its `as_str` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A parameter (or tool option) is missing, of the wrong type, out of range, or asks for no change.
    BadParam,
    /// The file, or the text, lines or symbol the call targets, is not there (nothing to undo either).
    NotFound,
    /// The target matches several places, or not the number of places the call expects.
    Ambiguous,
    /// The file changed since it was read, was not read first, or no longer holds what undo expects.
    Stale,
    /// The file already exists (create without overwrite).
    Exists,
    /// `syntaxCheck: 'refuse'` refused a write that introduces syntax errors.
    SyntaxRefused,
    /// The path is outside the allowed folders, or a protected path.
    Protected,
    /// Another call or process held the file's lock for the whole wait.
    Locked,
    /// Reading or writing failed: I/O, not a regular file, too large, not UTF-8 text, NUL bytes.
    Fs,
    /// A batch applied some operations and failed others (non-atomic multi_edit).
    Partial,
    /// A bug in the engine (a panic was caught); the message asks to report it.
    Internal,
}

impl ErrorKind {
    /// Every kind, in documentation order.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::BadParam,
        ErrorKind::NotFound,
        ErrorKind::Ambiguous,
        ErrorKind::Stale,
        ErrorKind::Exists,
        ErrorKind::SyntaxRefused,
        ErrorKind::Protected,
        ErrorKind::Locked,
        ErrorKind::Fs,
        ErrorKind::Partial,
        ErrorKind::Internal,
    ];

    /// The kind's name in JS (`"bad_param"`, `"not_found"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::BadParam => "bad_param",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::Stale => "stale",
            ErrorKind::Exists => "exists",
            ErrorKind::SyntaxRefused => "syntax_refused",
            ErrorKind::Protected => "protected",
            ErrorKind::Locked => "locked",
            ErrorKind::Fs => "fs",
            ErrorKind::Partial => "partial",
            ErrorKind::Internal => "internal",
        }
    }

    /// The kind of an engine error.
    pub fn of(error: &FsError) -> ErrorKind {
        match error {
            FsError::OutsideAllowed { .. } | FsError::Protected { .. } => ErrorKind::Protected,
            FsError::BadPattern { .. } | FsError::BadPath { .. } => ErrorKind::BadParam,
            FsError::NotFound { .. } => ErrorKind::NotFound,
            FsError::ReadState { .. } | FsError::Changed { .. } => ErrorKind::Stale,
            FsError::SyntaxRefused { .. } => ErrorKind::SyntaxRefused,
            FsError::Locked { .. } | FsError::LockUnavailable { .. } => ErrorKind::Locked,
            FsError::NulInContent { .. } => ErrorKind::BadParam,
            FsError::NotAFile { .. }
            | FsError::HardLinked { .. }
            | FsError::ForeignHardLink { .. }
            | FsError::TooLarge { .. }
            | FsError::WriteTooLarge { .. }
            | FsError::PreviousUnreadable { .. }
            | FsError::NotUtf8 { .. }
            | FsError::Binary { .. }
            | FsError::HistoryCannotRecord { .. }
            | FsError::Io { .. } => ErrorKind::Fs,
        }
    }
}

/// A failed call: its kind and the message for the model (how to recover included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub kind: ErrorKind,
    pub text: String,
}

impl ToolError {
    pub fn new(kind: ErrorKind, text: impl Into<String>) -> Self {
        ToolError {
            kind,
            text: text.into(),
        }
    }

    /// A bad-parameter failure.
    pub fn bad_param(text: impl Into<String>) -> Self {
        ToolError::new(ErrorKind::BadParam, text)
    }

    /// An engine error's failure: `lead` + [`super::errors::describe`] (naming the host's
    /// `tools`), of the error's kind.
    pub fn fs(lead: &str, error: &FsError, tools: &crate::specs::HostTools) -> Self {
        let text = format!("{lead}{}", super::errors::describe(error, tools));
        ToolError::new(ErrorKind::of(error), text)
    }

    /// The same failure with its message rewritten (the kind kept).
    pub fn map_text(self, f: impl FnOnce(String) -> String) -> Self {
        ToolError::new(self.kind, f(self.text))
    }
}

/// The answer of one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    /// `None` on success; the failure's kind otherwise.
    pub error: Option<ErrorKind>,
    /// The message `execute` resolves to.
    pub text: String,
    /// The files the call wrote, by the paths the call named them with, each once, in order.
    pub changed_files: Vec<String>,
    /// The number of changes made, for tools that state one (`replace_in_file`).
    pub changes: Option<usize>,
}

impl Outcome {
    /// A success that wrote nothing.
    pub fn read(text: impl Into<String>) -> Self {
        Outcome {
            text: text.into(),
            ..Outcome::default()
        }
    }

    /// A success that wrote `file` (named as the call named it).
    pub fn wrote(text: impl Into<String>, file: &str) -> Self {
        Outcome {
            changed_files: vec![file.to_string()],
            ..Outcome::read(text)
        }
    }

    /// Whether the call succeeded.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// Adds `file` to the changed files unless it is there already.
    pub fn add_changed(&mut self, file: &str) {
        if !self.changed_files.iter().any(|f| f == file) {
            self.changed_files.push(file.to_string());
        }
    }
}

impl From<ToolError> for Outcome {
    fn from(error: ToolError) -> Self {
        Outcome {
            error: Some(error.kind),
            ..Outcome::read(error.text)
        }
    }
}

impl From<Result<Outcome, ToolError>> for Outcome {
    fn from(result: Result<Outcome, ToolError>) -> Self {
        result.unwrap_or_else(Outcome::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_distinct_snake_case() {
        let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(names
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
    }

    #[test]
    fn a_failure_is_not_ok_and_wrote_nothing() {
        let outcome = Outcome::from(ToolError::bad_param("Error: x"));
        assert!(!outcome.ok());
        assert_eq!(outcome.error, Some(ErrorKind::BadParam));
        assert!(outcome.changed_files.is_empty());
        let mut done = Outcome::wrote("Replaced 1 occurrence", "a.txt");
        done.add_changed("a.txt");
        done.add_changed("b.txt");
        assert!(done.ok());
        assert_eq!(done.changed_files, ["a.txt", "b.txt"]);
    }
}
