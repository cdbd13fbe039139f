//! Probe's `multi_edit`: up to 50 edit operations in one call, in order; plus `atomic: true`,
//! where every operation is planned in memory first and files are written only if all succeed.

use super::apply::{Change, FileEdit, Recording, Texts};
use super::edit::{self, apply_effect, plan, prepare, EditCall, EditParams, EditRequest, Planned};
use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params::{self, Json, ListParam, Located, Loose};
use super::{diff, ToolContext};
use crate::common_ends::KnownEnds;
use crate::fs::locks::FileLock;
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Most operations one call may carry.
pub const MAX_EDITS: usize = 50;

/// Runs one `multi_edit` call. Never panics on bad input.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    call(ctx, params).text
}

/// The params of a `multi_edit` call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct MultiEditParams {
    edits: Loose,
    atomic: Loose,
}

/// One operation of the batch: its loose edit params (`None` when it is not an object).
type Operation = Option<Located<EditParams>>;

/// Runs one `multi_edit` call: a failure when it was refused, or when any operation of a
/// non-atomic batch failed (kind `partial` when others landed; the message says which).
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    let call = params::read::<MultiEditParams>(params);
    let edits = match parse_edits(&call.params.edits) {
        Ok(e) => e,
        Err(message) => return ToolError::bad_param(message).into(),
    };
    let working_dir = call.working_dir.as_deref();
    let ops: Vec<Operation> = edits.iter().map(|op| op.located_in(working_dir)).collect();
    if call.params.atomic.flag(false) {
        atomic::run(ctx, ops).into()
    } else {
        sequential(ctx, ops)
    }
}

/// `edits` as a JSON string or an array, 1..=50 entries (Probe's checks and messages).
fn parse_edits(edits: &Loose) -> Result<Vec<Json>, String> {
    let items = match edits.list() {
        ListParam::Items(items) => items,
        ListParam::BadJson(e) => return Err(format!("Error: Invalid JSON in edits parameter - {e}. Provide a raw JSON array between <edits> tags.")),
        ListParam::NotList => return Err("Error: edits must be a non-empty JSON array.".to_string()),
        ListParam::Missing => return Err("Error: edits must be a JSON array of edit operations.".to_string()),
    };
    if items.is_empty() {
        return Err("Error: edits must be a non-empty JSON array.".to_string());
    }
    if items.len() > MAX_EDITS {
        return Err(format!(
            "Error: Too many edits ({}). Maximum {MAX_EDITS} per batch.",
            items.len()
        ));
    }
    Ok(items)
}

const NOT_AN_OBJECT: &str = "Invalid edit operation - must be an object";

/// Probe's behaviour: each operation runs as its own edit call; failures do not stop the rest.
fn sequential(ctx: &ToolContext, edits: Vec<Operation>) -> Outcome {
    let mut lines = Vec::with_capacity(edits.len());
    let mut outcome = Outcome::default();
    let mut ok = 0;
    let mut first_error = None;
    let total = edits.len();
    for (i, op) in edits.into_iter().enumerate() {
        let result = match op {
            Some(op) => edit::call_located(ctx, op),
            None => ToolError::bad_param(NOT_AN_OBJECT).into(),
        };
        match result.error {
            Some(kind) => {
                first_error.get_or_insert(kind);
                lines.push(format!("[{}] FAIL: {}", i + 1, result.text));
            }
            None => {
                ok += 1;
                result
                    .changed_files
                    .iter()
                    .for_each(|f| outcome.add_changed(f));
                lines.push(format!("[{}] OK: {}", i + 1, result.text));
            }
        }
    }
    let failed = total - ok;
    let tail = if failed > 0 {
        format!(", {failed} failed")
    } else {
        String::new()
    };
    outcome.text = format!(
        "Multi-edit: {ok}/{} succeeded{tail}\n\n{}",
        total,
        lines.join("\n")
    );
    outcome.error = match (first_error, ok) {
        (None, _) => None,
        (Some(kind), 0) => Some(kind),
        (Some(_), _) => Some(ErrorKind::Partial),
    };
    outcome
}

mod atomic {
    use super::*;

    /// A file of the batch: locked, read once, edited in memory.
    struct Staged<'a> {
        path: ResolvedPath,
        /// The path as the batch's first operation on this file named it.
        named: &'a str,
        original: TextFile,
        current: TextFile,
        display: String,
        _lock: FileLock,
    }

    pub(super) fn run(ctx: &ToolContext, ops: Vec<Operation>) -> Result<Outcome, ToolError> {
        let edits: Vec<Result<EditRequest, ToolError>> = ops
            .into_iter()
            .map(|op| {
                let op = op.ok_or(ToolError::bad_param(NOT_AN_OBJECT))?;
                EditRequest::try_from(op)
            })
            .collect();
        let calls = prepare_all(ctx, &edits).map_err(|(i, e)| abort(edits.len(), i, e))?;
        let mut staged = stage(ctx, &calls).map_err(|(i, e)| abort(edits.len(), i, e))?;
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
                Err(error) => return Err(abort(edits.len(), i, error)),
            }
        }
        let notes = write_all(ctx, &staged)?;
        landed(&calls, &staged, &done);
        let mut outcome = Outcome::default();
        let mut lines = Vec::with_capacity(done.len());
        for (i, planned, message) in done {
            apply_effect(&calls[i], planned.effect);
            lines.push(format!("[{}] OK: {message}", i + 1));
        }
        for file in staged
            .values()
            .filter(|f| f.current.text != f.original.text)
        {
            outcome.add_changed(file.named);
        }
        outcome.text = format!(
            "Multi-edit: {0}/{0} succeeded (atomic)\n\n{1}{notes}",
            calls.len(),
            lines.join("\n")
        );
        Ok(outcome)
    }

    /// Tells the parse cache of each landed operation, in order, each from the text the one
    /// before it on the same file left.
    fn landed(
        calls: &[EditCall],
        staged: &BTreeMap<PathBuf, Staged>,
        done: &[(usize, Planned, String)],
    ) {
        let mut last: BTreeMap<&PathBuf, &str> = BTreeMap::new();
        for (i, planned, _) in done {
            let real = &calls[*i].path.real;
            let before = last
                .get(real)
                .copied()
                .unwrap_or_else(|| staged[real].original.text.as_str());
            planned.landed(&calls[*i], before);
            last.insert(real, &planned.new_text);
        }
    }

    fn prepare_all<'a>(
        ctx: &'a ToolContext,
        edits: &'a [Result<EditRequest, ToolError>],
    ) -> Result<Vec<EditCall<'a>>, (usize, ToolError)> {
        edits
            .iter()
            .enumerate()
            .map(|(i, request)| {
                let request = request.as_ref().map_err(|e| (i, e.clone()))?;
                prepare(ctx, request).map_err(|m| (i, m))
            })
            .collect()
    }

    /// Locks every distinct file in path order (no deadlock between batches) and reads it once.
    fn stage<'a>(
        ctx: &ToolContext,
        calls: &[EditCall<'a>],
    ) -> Result<BTreeMap<PathBuf, Staged<'a>>, (usize, ToolError)> {
        let mut first_use: BTreeMap<PathBuf, usize> = BTreeMap::new();
        for (i, call) in calls.iter().enumerate() {
            first_use.entry(call.path.real.clone()).or_insert(i);
        }
        let mut staged = BTreeMap::new();
        for (real, index) in first_use {
            let path = &calls[index].path;
            let display = ctx.display(path);
            let lock = ctx
                .lock(path)
                .map_err(|e| (index, edit::fs_failure(&e, &ctx.host_tools)))?;
            ctx.check_read_state(path).map_err(|m| {
                let text = format!("Error editing file: {m}");
                (index, ToolError::new(ErrorKind::Stale, text))
            })?;
            let file = read_text_confined(&real, &display, Some(ctx.max_file_bytes))
                .map_err(|e| (index, edit::fs_failure(&e, &ctx.host_tools)))?;
            staged.insert(
                real,
                Staged {
                    path: path.clone(),
                    current: file.clone(),
                    original: file,
                    display,
                    named: calls[index].file_path,
                    _lock: lock,
                },
            );
        }
        Ok(staged)
    }

    /// Applies the batch's changed files as one change: one undo level across them (one
    /// transaction), all or nothing. `Ok` holds the syntax guard's notes.
    fn write_all(
        ctx: &ToolContext,
        staged: &BTreeMap<PathBuf, Staged>,
    ) -> Result<String, ToolError> {
        let changed: Vec<(&Staged, Vec<u8>, Vec<u8>)> = staged
            .values()
            .filter(|f| f.current.text != f.original.text)
            .map(|f| {
                let previous = f.original.encode(&f.original.text).into_owned();
                (f, previous, f.original.encode(&f.current.text).into_owned())
            })
            .collect();
        let files: Vec<FileEdit> = changed
            .iter()
            .map(|(f, previous, next)| FileEdit {
                path: &f.path,
                display: &f.display,
                before: Some(previous),
                after: Some(next),
                texts: Some(Texts {
                    before: Some(&f.original.text),
                    after: &f.current.text,
                    known: KnownEnds::NONE,
                }),
            })
            .collect();
        let change = Change {
            files,
            recording: Recording::Transaction("multi_edit"),
        };
        ctx.apply(&change).map_err(|e| {
            let text = match e {
                FsError::SyntaxRefused { .. } => format!("Error: Multi-edit (atomic) was not written: {e}"),
                _ => format!("Error: Multi-edit (atomic) could not write the batch: {e}. No file was changed."),
            };
            ToolError::new(ErrorKind::of(&e), text)
        })
    }

    /// The batch's answer when operation `index` fails: nothing was written.
    fn abort(total: usize, index: usize, error: ToolError) -> ToolError {
        let message = error.text;
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
        let text = format!(
            "Error: Multi-edit (atomic) failed at operation [{}]; no file was changed. Fix that operation and resend the whole batch.\n\n{}",
            index + 1,
            lines.join("\n")
        );
        ToolError::new(error.kind, text)
    }
}
