//! Writing a planned patch: every changed file atomically (the locks are held by the staged
//! slots), each with its undo level written ahead under one transaction id; if one write fails,
//! the files already written are put back as they were and their levels retracted. Once all
//! landed, the trackers learn of the writes.

use super::super::history::Recorded;
use super::super::ToolContext;
use super::stage::{Slot, Staged};
use crate::fs::atomic::{create_parent_dirs, remove_file_confined, WriteMode};
use crate::fs::FsError;

/// Writes every changed slot of `staged`, all or nothing.
pub(super) fn commit(ctx: &ToolContext, staged: &Staged, tool: &str) -> Result<(), String> {
    let txn = format!("{tool}-{}-{}", std::process::id(), crate::history::now_ms());
    let mut written: Vec<(&Slot, Option<Vec<u8>>)> = Vec::new();
    for slot in staged.slots.values().filter(|s| s.changed()) {
        let bytes = slot
            .current
            .as_ref()
            .map(|text| slot.style.encode(text).into_owned());
        record_ahead(ctx, slot, bytes.as_deref(), tool, &txn);
        if let Err(e) = write_slot(ctx, slot, bytes.as_deref()) {
            if let Some(bytes) = &bytes {
                ctx.history.retract(&slot.path.real, bytes);
            }
            for (done, done_bytes) in written.iter().rev() {
                restore(ctx, done);
                if let Some(done_bytes) = done_bytes {
                    ctx.history.retract(&done.path.real, done_bytes);
                }
            }
            return Err(e.to_string());
        }
        written.push((slot, bytes));
    }
    for (slot, _) in written {
        if slot.current.is_some() {
            ctx.tracker_after_write(&slot.path);
            ctx.read_tracker_after_write(&slot.path);
        }
    }
    Ok(())
}

/// Records the undo level of one slot's write before it happens. A deletion leaves no content
/// an undo could check against, so the file's levels are forgotten instead (an undo then finds
/// none rather than one that would skip the deletion).
fn record_ahead(ctx: &ToolContext, slot: &Slot, bytes: Option<&[u8]>, tool: &str, txn: &str) {
    let Some(written) = bytes else {
        ctx.history.forget(&slot.path.real);
        return;
    };
    let previous = slot
        .original
        .as_ref()
        .map(|f| f.encode(&f.text).into_owned());
    let recorded = Recorded {
        previous: previous.as_deref(),
        written,
        tool,
        txn: Some(txn),
    };
    if let Some(warning) = ctx.history.record(&slot.path.real, &recorded) {
        ctx.debug_log(tool, || warning);
    }
}

/// Puts one slot's planned state (`bytes`, encoded; `None` deletes) on disk.
fn write_slot(ctx: &ToolContext, slot: &Slot, bytes: Option<&[u8]>) -> Result<(), FsError> {
    let Some(bytes) = bytes else {
        return remove_file_confined(&slot.path.real, &slot.display);
    };
    crate::tools::session::refuse_nul(bytes, &slot.display)?;
    if slot.original.is_some() {
        return ctx.write_file(&slot.path.real, bytes, WriteMode::Replace, &slot.display);
    }
    create_parent_dirs(&slot.path.real, &slot.display)?;
    ctx.write_file(&slot.path.real, bytes, WriteMode::CreateNew, &slot.display)
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
