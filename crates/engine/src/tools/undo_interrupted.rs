//! Settling a multi-file change a crash cut short before any of its files was written, so that
//! the undo of an earlier change sharing files with it is not refused.
//!
//! A multi-file write records its levels (one per member, naming its transaction) ahead of its
//! writes, under one store lock; its undo marks the record undone before removing the levels.
//! So a transaction whose record is not undone but some member lacks its level was stopped while
//! recording: nothing of it was written. One whose record is undone was restored already. In both
//! cases its remaining levels sit over files that hold the content from before the change, and
//! are removed here (then the record), under every member's lock, only after each such member is
//! checked to hold exactly that content. Anything else (a member written, or changed since) is
//! left for the undo to refuse as before.

use super::super::ToolContext;
use super::{read_current, step_of, Step, UndoError};
use crate::fs::locks::FileLock;
use crate::fs::{FsError, ResolvedPath};
use crate::history::{HistoryStore, TxnRecord};

/// Settles (see the module doc) every transaction other than `current` whose level is the
/// newest of one of `paths`. Takes and releases the locks of its members.
pub(super) fn settle_interrupted(
    ctx: &ToolContext,
    store: &HistoryStore,
    paths: &[ResolvedPath],
    current: Option<&str>,
) -> Result<(), UndoError> {
    let store_err = |e: crate::history::HistoryError| UndoError::Store(e.to_string());
    let mut seen: Vec<String> = Vec::new();
    for path in paths {
        let newest = store.levels(&path.real).map_err(store_err)?.pop();
        let Some(id) = newest.and_then(|e| e.txn) else {
            continue;
        };
        if Some(id.as_str()) == current || seen.contains(&id) {
            continue;
        }
        if let Some(record) = store.txn_record(&id).map_err(store_err)? {
            settle(ctx, store, &id, &record)?;
        }
        seen.push(id);
    }
    Ok(())
}

/// Removes the levels and record of transaction `id` when nothing of it is on disk.
fn settle(
    ctx: &ToolContext,
    store: &HistoryStore,
    id: &str,
    record: &TxnRecord,
) -> Result<(), UndoError> {
    let store_err = |e: crate::history::HistoryError| UndoError::Store(e.to_string());
    let Some(mut members) = resolve(ctx, record) else {
        return Ok(());
    };
    members.sort_by(|a, b| a.real.cmp(&b.real));
    let _locks = members
        .iter()
        .map(|p| ctx.lock(p))
        .collect::<Result<Vec<FileLock>, FsError>>()
        .map_err(UndoError::Write)?;
    let mut levels = Vec::new();
    let mut gap = false;
    for member in &members {
        match store.newest(&member.real).map_err(store_err)? {
            Some(level) if level.entry.txn.as_deref() == Some(id) => levels.push((member, level)),
            _ => gap = true,
        }
    }
    if !(gap || record.undone) {
        return Ok(());
    }
    for (member, level) in &levels {
        let current = read_current(ctx, member, &ctx.display(member))?;
        if step_of(level, current.as_deref()) != Ok(Step::Done) {
            return Ok(());
        }
    }
    store.mark_txn_undone(id).map_err(store_err)?;
    for (member, level) in &levels {
        store
            .drop_newest(&member.real, &level.entry)
            .map_err(store_err)?;
    }
    store.forget_txn(id).map_err(store_err)
}

/// The members of `record`, resolved and guarded like a tool's path; `None` when one no longer
/// resolves to the file the record names (nothing is settled then).
fn resolve(ctx: &ToolContext, record: &TxnRecord) -> Option<Vec<ResolvedPath>> {
    let one = |(real, _): &(std::path::PathBuf, Option<String>)| {
        let resolved = ctx.resolve_writable(real.to_str()?, None).ok()?;
        (resolved.real == *real).then_some(resolved)
    };
    record.members.iter().map(one).collect()
}
