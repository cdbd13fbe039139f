//! Writing a planned patch through the write frame's multi-file commit
//! ([`ToolContext::commit_files`]): every changed file atomically (the locks are held by the
//! staged slots), as one undo level; all or nothing.

use super::super::outcome::{ErrorKind, ToolError};
use super::super::session::FileChange;
use super::super::ToolContext;
use super::stage::Staged;

/// A slot's bytes before and after the patch (`None`: no file).
type Contents = (Option<Vec<u8>>, Option<Vec<u8>>);

/// Writes every changed slot of `staged`, all or nothing.
pub(super) fn commit(ctx: &ToolContext, staged: &Staged, tool: &str) -> Result<(), ToolError> {
    let slots: Vec<_> = staged.slots.values().filter(|s| s.changed()).collect();
    let bytes: Vec<Contents> = slots
        .iter()
        .map(|slot| {
            let previous = slot
                .original
                .as_ref()
                .map(|f| f.encode(&f.text).into_owned());
            let next = slot
                .current
                .as_ref()
                .map(|t| slot.style.encode(t).into_owned());
            (previous, next)
        })
        .collect();
    let changes: Vec<FileChange> = slots
        .iter()
        .zip(&bytes)
        .map(|(slot, (previous, next))| FileChange {
            path: &slot.path,
            display: &slot.display,
            previous: previous.as_deref(),
            next: next.as_deref(),
        })
        .collect();
    ctx.commit_files(&changes, tool)
        .map_err(|e| ToolError::new(ErrorKind::of(&e), e.to_string()))
}
