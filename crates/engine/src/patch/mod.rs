//! Patch formats models are trained on: OpenAI's `apply_patch` envelope ("V4A"), unified diffs and
//! SEARCH/REPLACE blocks. Each parser turns its text into [`FileOp`]s; [`apply::apply_hunks`] places
//! the hunks of one file by their context and computes the new content. Everything here is pure:
//! the tools (`tools::apply_patch`) read, lock and write.

pub mod apply;
pub mod search_replace;
pub mod seek;
pub mod unified;
pub mod v4a;

#[cfg(test)]
mod tests;

/// One line of a hunk: kept context, a line to remove, or a line to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkLine {
    Context(String),
    Remove(String),
    Add(String),
}

/// How a hunk is placed when its old lines occur several times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The first occurrence at or after the end of the previous hunk (V4A, in order); of several,
    /// the one a line hint clearly points to ([`seek::nearest`]).
    InOrder,
    /// The only occurrence; several are told apart by the file order of the hunks, then by the
    /// line hint (an occurrence exactly there, or where the previous hunk's offset puts it, or
    /// clearly nearest to that: [`seek::nearest`]), or refused as ambiguous.
    Unique,
}

/// A change to one region of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hunk {
    /// `@@ text` anchors, outermost first: each is one line sought after the previous one, and
    /// the hunk's old lines are sought after the last.
    pub anchors: Vec<String>,
    pub lines: Vec<HunkLine>,
    /// The old lines must end the file (`*** End of File`).
    pub end_of_file: bool,
    /// 1-based line where the hunk's old lines are expected (a tie-breaker only). For a hunk of
    /// only added lines, the 0-based index they are inserted before.
    pub line_hint: Option<usize>,
}

impl Hunk {
    /// The lines the hunk expects in the file (context and removed lines, in order).
    pub fn old_lines(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(t) | HunkLine::Remove(t) => Some(t.as_str()),
                HunkLine::Add(_) => None,
            })
            .collect()
    }
}

impl Hunk {
    /// A hunk of added lines only that nothing places (no anchor, no usable line hint): its lines
    /// are appended at the end of the file, before a final empty line, wherever the hunk sits.
    pub fn appends_at_end(&self) -> bool {
        self.anchors.is_empty()
            && (self.line_hint.is_none() || self.end_of_file)
            && self.lines.iter().all(|l| matches!(l, HunkLine::Add(_)))
    }
}

/// The line numbers of a hunk header's old side `l,n` (`l` alone means `n` = 1): the 1-based start
/// line (none for 0), and the 0-based index a hunk of only added lines goes before (`l,0` inserts
/// after line `l`).
pub(crate) fn old_side(spec: &str) -> (Option<usize>, Option<usize>) {
    let mut parts = spec.split(',');
    let start = parts.next().and_then(|s| s.parse::<usize>().ok());
    let count = parts
        .next()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1);
    let insert_at = start.map(|s| if count == 0 { s } else { s.saturating_sub(1) });
    (start.filter(|s| *s > 0), insert_at)
}

/// What a patch does to one file. Paths are exactly as the patch names them (unchecked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// Create the file with `content` (which must not exist yet).
    Add { path: String, content: String },
    /// Remove the file.
    Delete { path: String },
    /// Change the file in place (and rename it to `move_to` when given).
    Update {
        path: String,
        move_to: Option<String>,
        hunks: Vec<Hunk>,
        placement: Placement,
    },
}

impl FileOp {
    /// The path the operation reads or removes (for an update, its source).
    pub fn path(&self) -> &str {
        match self {
            FileOp::Add { path, .. } | FileOp::Delete { path } | FileOp::Update { path, .. } => {
                path
            }
        }
    }
}

/// A patch that cannot be parsed or applied; `message` says what to fix and resend.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PatchError {
    pub message: String,
}

impl PatchError {
    pub fn new(message: impl Into<String>) -> Self {
        PatchError {
            message: message.into(),
        }
    }
}

/// Text with CRLF line endings turned into LF (patches arrive in either style).
pub(crate) fn to_lf(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Parses an `apply_diff` input: SEARCH/REPLACE blocks when it has any, else a unified diff.
/// `path` names the file of blocks or hunks that do not name one.
pub fn parse_diff(diff: &str, path: Option<&str>) -> Result<Vec<FileOp>, PatchError> {
    if search_replace::looks_like(diff) {
        search_replace::parse(diff, path)
    } else if unified::looks_like(diff) {
        unified::parse(diff, path)
    } else {
        Err(PatchError::new(
            "Invalid diff: it is neither a unified diff ('--- a/path', '+++ b/path', '@@' hunks) nor SEARCH/REPLACE blocks ('<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE'). Resend it in one of these forms.",
        ))
    }
}

/// Applies every operation of a patch to one in-memory text (paths are not consulted): updates
/// in order, an added file's content replaces the text. Line endings and a BOM are kept.
pub fn apply_to_text(text: &str, ops: &[FileOp]) -> Result<apply::Applied, PatchError> {
    let file = crate::fs::textfile::TextFile::decode(text.as_bytes().to_vec(), "the text")
        .map_err(|e| PatchError::new(e.to_string()))?;
    let mut current = file.text.clone();
    let mut notes = Vec::new();
    for op in ops {
        match op {
            FileOp::Add { content, .. } => current = content.clone(),
            FileOp::Delete { path } => {
                return Err(PatchError::new(format!(
                    "The patch deletes {path}; applying it to a text in memory is not possible. Remove that section."
                )))
            }
            FileOp::Update {
                path,
                hunks,
                placement,
                ..
            } => {
                let applied = apply::apply_hunks(&current, hunks, *placement, path)?;
                current = applied.text;
                notes.extend(applied.notes);
            }
        }
    }
    let bytes = file.encode(&current).into_owned();
    Ok(apply::Applied {
        text: String::from_utf8(bytes).unwrap_or(current),
        notes,
    })
}
