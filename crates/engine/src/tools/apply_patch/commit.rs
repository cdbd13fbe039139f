//! Writing a planned patch: every changed file atomically (the locks are held by the staged
//! slots); if one write fails, the files already written are put back as they were. Once all
//! landed, each file's previous content is recorded in the undo history and the trackers learn
//! of the writes.

use super::super::ToolContext;
use super::stage::{Slot, Staged};
use crate::fs::atomic::{create_parent_dirs, remove_file_confined, WriteMode};
use crate::fs::FsError;

/// Writes every changed slot of `staged`, all or nothing.
pub(super) fn commit(ctx: &ToolContext, staged: &Staged, tool: &str) -> Result<(), String> {
    let mut written: Vec<&Slot> = Vec::new();
    for slot in staged.slots.values().filter(|s| s.changed()) {
        if let Err(e) = write_slot(ctx, slot) {
            for done in written.iter().rev() {
                restore(ctx, done);
            }
            return Err(e.to_string());
        }
        written.push(slot);
    }
    for slot in written {
        let previous = slot
            .original
            .as_ref()
            .map(|f| f.encode(&f.text).into_owned());
        ctx.record_write(&slot.path.real, previous.as_deref(), tool);
        if slot.current.is_some() {
            ctx.tracker_after_write(&slot.path);
            ctx.read_tracker_after_write(&slot.path);
        }
    }
    Ok(())
}

/// Puts one slot's planned state on disk.
fn write_slot(ctx: &ToolContext, slot: &Slot) -> Result<(), FsError> {
    match (&slot.original, &slot.current) {
        (_, None) => remove_file_confined(&slot.path.real, &slot.display),
        (Some(_), Some(text)) => {
            let bytes = slot.style.encode(text);
            ctx.write_file(&slot.path.real, &bytes, WriteMode::Replace, &slot.display)
        }
        (None, Some(text)) => {
            create_parent_dirs(&slot.path.real, &slot.display)?;
            let bytes = slot.style.encode(text);
            ctx.write_file(&slot.path.real, &bytes, WriteMode::CreateNew, &slot.display)
        }
    }
}

/// Best-effort rollback of one written slot to its state before the patch.
fn restore(ctx: &ToolContext, slot: &Slot) {
    let _ = match &slot.original {
        Some(file) => {
            let bytes = file.encode(&file.text);
            ctx.write_file(
                &slot.path.real,
                &bytes,
                WriteMode::CreateOrReplace,
                &slot.display,
            )
        }
        None => remove_file_confined(&slot.path.real, &slot.display),
    };
}
