//! Applying a planned patch as one change ([`ToolContext::apply`]): every changed file
//! atomically (the locks are held by the staged slots), as one undo level; all or nothing.

use super::super::apply::{Change, FileEdit, Recording, Texts};
use super::super::ToolContext;
use super::stage::Staged;
use crate::common_ends::KnownEnds;
use crate::fs::FsError;

/// A slot's bytes before and after the patch (`None`: no file).
type Contents = (Option<Vec<u8>>, Option<Vec<u8>>);

/// Applies every changed slot of `staged`, all or nothing. `Ok` holds the syntax guard's notes.
pub(super) fn commit(ctx: &ToolContext, staged: &Staged, tool: &str) -> Result<String, FsError> {
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
    let files: Vec<FileEdit> = slots
        .iter()
        .zip(&bytes)
        .map(|(slot, (previous, next))| FileEdit {
            path: &slot.path,
            display: &slot.display,
            before: previous.as_deref(),
            after: next.as_deref(),
            texts: slot.current.as_deref().map(|after| Texts {
                before: slot.original.as_ref().map(|f| f.text.as_str()),
                after,
                known: KnownEnds::NONE,
            }),
        })
        .collect();
    ctx.with_plan(|plan| plan.moves.extend(staged.moves()));
    ctx.apply(&Change {
        files,
        recording: Recording::Transaction(tool),
    })
}
