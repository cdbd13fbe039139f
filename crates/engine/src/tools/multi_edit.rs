//! Probe's `multi_edit`: up to 50 edit operations in one call, in order; plus `atomic: true`,
//! where every operation is planned in memory first and files are written only if all succeed.

use super::edit::{self, apply_effect, plan, prepare, EditCall, Planned};
use super::params::{flag, non_blank_str};
use super::session::FileChange;
use super::syntax_guard::guard;
use super::{diff, ToolContext};
use crate::fs::locks::FileLock;
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::ResolvedPath;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Most operations one call may carry.
pub const MAX_EDITS: usize = 50;

/// Runs one `multi_edit` call. Never panics on bad input.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    run_result(ctx, params).1
}

/// [`run`] with whether the call succeeded: `false` when it was refused, or when any operation
/// of a non-atomic batch failed (the message says which; the others stand).
pub fn run_result(ctx: &ToolContext, params: &Value) -> (bool, String) {
    let edits = match parse_edits(params) {
        Ok(e) => e,
        Err(message) => return (false, message),
    };
    let working_dir = non_blank_str(params, "workingDirectory");
    let edits: Vec<Value> = edits
        .into_iter()
        .map(|op| inherit_working_dir(op, working_dir))
        .collect();
    if flag(params, "atomic", false) {
        let text = atomic::run(ctx, &edits);
        (!text.starts_with("Error"), text)
    } else {
        sequential(ctx, &edits)
    }
}

/// `edits` as a JSON string or an array, 1..=50 entries (Probe's checks and messages).
fn parse_edits(params: &Value) -> Result<Vec<Value>, String> {
    let edits = match params.get("edits") {
        Some(Value::String(raw)) => serde_json::from_str::<Value>(raw).map_err(|e| {
            format!("Error: Invalid JSON in edits parameter - {e}. Provide a raw JSON array between <edits> tags.")
        })?,
        Some(Value::Array(items)) => Value::Array(items.clone()),
        _ => return Err("Error: edits must be a JSON array of edit operations.".to_string()),
    };
    match edits {
        Value::Array(items) if !items.is_empty() => {
            if items.len() > MAX_EDITS {
                return Err(format!(
                    "Error: Too many edits ({}). Maximum {MAX_EDITS} per batch.",
                    items.len()
                ));
            }
            Ok(items)
        }
        _ => Err("Error: edits must be a non-empty JSON array.".to_string()),
    }
}

/// An operation without its own `workingDirectory` uses the batch's.
fn inherit_working_dir(mut op: Value, working_dir: Option<&str>) -> Value {
    if let (Some(dir), Value::Object(map)) = (working_dir, &mut op) {
        map.entry("workingDirectory")
            .or_insert_with(|| Value::String(dir.to_string()));
    }
    op
}

const NOT_AN_OBJECT: &str = "Invalid edit operation - must be an object";

/// Probe's behaviour: each operation runs as its own edit call; failures do not stop the rest.
fn sequential(ctx: &ToolContext, edits: &[Value]) -> (bool, String) {
    let mut lines = Vec::with_capacity(edits.len());
    let mut ok = 0;
    for (i, op) in edits.iter().enumerate() {
        let result = if op.is_object() {
            edit::run(ctx, op)
        } else {
            format!("Error: {NOT_AN_OBJECT}")
        };
        if result.starts_with("Error") {
            let shown = if op.is_object() {
                result
            } else {
                NOT_AN_OBJECT.to_string()
            };
            lines.push(format!("[{}] FAIL: {shown}", i + 1));
        } else {
            ok += 1;
            lines.push(format!("[{}] OK: {result}", i + 1));
        }
    }
    let failed = edits.len() - ok;
    let tail = if failed > 0 {
        format!(", {failed} failed")
    } else {
        String::new()
    };
    let text = format!(
        "Multi-edit: {ok}/{} succeeded{tail}\n\n{}",
        edits.len(),
        lines.join("\n")
    );
    (failed == 0, text)
}

mod atomic {
    use super::*;

    /// A file of the batch: locked, read once, edited in memory.
    struct Staged {
        path: ResolvedPath,
        original: TextFile,
        current: TextFile,
        display: String,
        _lock: FileLock,
    }

    pub(super) fn run(ctx: &ToolContext, edits: &[Value]) -> String {
        let calls = match prepare_all(ctx, edits) {
            Ok(calls) => calls,
            Err((index, message)) => return abort(edits.len(), index, &message),
        };
        let mut staged = match stage(ctx, &calls) {
            Ok(s) => s,
            Err((index, message)) => return abort(edits.len(), index, &message),
        };
        let mut done: Vec<(usize, Planned, String)> = Vec::with_capacity(calls.len());
        for (i, call) in calls.iter().enumerate() {
            let file = staged
                .get_mut(&call.path.real)
                .expect("every call's file was staged");
            match plan(call, &file.current) {
                Ok(planned) => {
                    let message = diff::append(
                        planned.message.clone(),
                        ctx.return_diff,
                        &file.current.text,
                        &planned.new_text,
                        &file.display,
                    );
                    file.current.text = planned.new_text.clone();
                    done.push((i, planned, message));
                }
                Err(message) => return abort(edits.len(), i, &message),
            }
        }
        let notes = match guard_all(ctx, &staged) {
            Ok(notes) => notes,
            Err(message) => {
                return format!("Error: Multi-edit (atomic) was not written: {message}")
            }
        };
        if let Err(message) = write_all(ctx, &staged) {
            return format!("Error: Multi-edit (atomic) could not write the batch: {message}. No file was changed.");
        }
        let mut lines = Vec::with_capacity(done.len());
        for (i, planned, message) in done {
            apply_effect(&calls[i], planned.effect);
            lines.push(format!("[{}] OK: {message}", i + 1));
        }
        format!(
            "Multi-edit: {0}/{0} succeeded (atomic)\n\n{1}{notes}",
            calls.len(),
            lines.join("\n")
        )
    }

    /// The syntax guard on each changed file of the batch (its whole planned change): the notes to
    /// append, or the first refusal.
    fn guard_all(ctx: &ToolContext, staged: &BTreeMap<PathBuf, Staged>) -> Result<String, String> {
        let mut notes = String::new();
        for (path, file) in staged {
            if file.current.text != file.original.text {
                let before = Some(file.original.text.as_str());
                notes += &guard(&ctx.syntax, path, &file.display, before, &file.current.text)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(notes)
    }

    fn prepare_all<'a>(
        ctx: &'a ToolContext,
        edits: &'a [Value],
    ) -> Result<Vec<EditCall<'a>>, (usize, String)> {
        edits
            .iter()
            .enumerate()
            .map(|(i, op)| {
                if !op.is_object() {
                    return Err((i, NOT_AN_OBJECT.to_string()));
                }
                prepare(ctx, op).map_err(|m| (i, m))
            })
            .collect()
    }

    /// Locks every distinct file in path order (no deadlock between batches) and reads it once.
    fn stage(
        ctx: &ToolContext,
        calls: &[EditCall],
    ) -> Result<BTreeMap<PathBuf, Staged>, (usize, String)> {
        let mut first_use: BTreeMap<PathBuf, usize> = BTreeMap::new();
        for (i, call) in calls.iter().enumerate() {
            first_use.entry(call.path.real.clone()).or_insert(i);
        }
        let mut staged = BTreeMap::new();
        for (real, index) in first_use {
            let path = &calls[index].path;
            let display = ctx.display(path);
            let lock = ctx.lock(path).map_err(|e| (index, edit::fs_failure(&e)))?;
            ctx.check_read_state(path)
                .map_err(|m| (index, format!("Error editing file: {m}")))?;
            let file = read_text_confined(&real, &display, Some(ctx.max_file_bytes))
                .map_err(|e| (index, edit::fs_failure(&e)))?;
            staged.insert(
                real,
                Staged {
                    path: path.clone(),
                    current: file.clone(),
                    original: file,
                    display,
                    _lock: lock,
                },
            );
        }
        Ok(staged)
    }

    /// Writes every changed file through the write frame's multi-file commit: one undo level
    /// across the batch's files, all or nothing.
    fn write_all(ctx: &ToolContext, staged: &BTreeMap<PathBuf, Staged>) -> Result<(), String> {
        let changed: Vec<(&Staged, Vec<u8>, Vec<u8>)> = staged
            .values()
            .filter(|f| f.current.text != f.original.text)
            .map(|f| {
                let previous = f.original.encode(&f.original.text).into_owned();
                (f, previous, f.original.encode(&f.current.text).into_owned())
            })
            .collect();
        let changes: Vec<FileChange> = changed
            .iter()
            .map(|(f, previous, next)| FileChange {
                path: &f.path,
                display: &f.display,
                previous: Some(previous),
                next: Some(next),
            })
            .collect();
        ctx.commit_files(&changes, "multi_edit")
            .map_err(|e| e.to_string())
    }

    /// The batch's answer when operation `index` fails: nothing was written.
    fn abort(total: usize, index: usize, message: &str) -> String {
        let mut lines = Vec::with_capacity(total);
        for i in 0..total {
            lines.push(match i.cmp(&index) {
                std::cmp::Ordering::Less => {
                    format!("[{}] ROLLED BACK: planned, not written", i + 1)
                }
                std::cmp::Ordering::Equal => format!("[{}] FAIL: {message}", i + 1),
                std::cmp::Ordering::Greater => format!("[{}] SKIPPED: not run", i + 1),
            });
        }
        format!(
            "Error: Multi-edit (atomic) failed at operation [{}]; no file was changed. Fix that operation and resend the whole batch.\n\n{}",
            index + 1,
            lines.join("\n")
        )
    }
}
