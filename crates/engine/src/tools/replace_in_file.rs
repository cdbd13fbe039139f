//! The `replace_in_file` tool: a batch of line replacements, insertions and string/regex
//! replacements on one file, planned in memory ([`crate::batch_plan`]) and written once, atomically.
//!
//! All-or-nothing: params, path, line numbers, overlaps and matches are all checked before the
//! single write; on any error the file is unchanged. Line numbers refer to the file as read.

mod parse;

use super::errors::describe;
use super::outcome::{ErrorKind, Outcome, ToolError};
use super::params;
use super::{diff, ToolContext};
use crate::batch_plan::{self, Applied, BatchError, Effect, Op, OpKind};
use crate::fs::textfile::TextFile;
use crate::fs::FsError;
use serde_json::Value;

const PREFIX: &str = "Error performing replacements";
const NOTHING_WRITTEN: &str =
    "No changes were made; fix that operation and resend the whole batch.";

/// Runs one `replace_in_file` call: on success its message and the number of changes made (the
/// count the message states, `changes`); on failure the message, which starts with `Error`.
/// Never panics on bad input.
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    run_call(ctx, params).into()
}

fn run_call(ctx: &ToolContext, params: &Value) -> Result<Outcome, ToolError> {
    let fail_as =
        |kind: ErrorKind| move |reason: String| ToolError::new(kind, format!("{PREFIX}: {reason}"));
    let fail = fail_as(ErrorKind::BadParam);
    let fs_fail = |e: FsError| {
        ToolError::new(
            ErrorKind::of(&e),
            format!("{PREFIX}: {}", describe(&e, &ctx.host_tools)),
        )
    };
    let request = parse::ReplaceRequest::try_from(params::read::<parse::ReplaceParams>(params))
        .map_err(fail)?;
    let (file_path, ops) = (request.file_path.as_str(), request.ops);
    ctx.debug_log("replace_in_file", || {
        format!("{file_path}: {} replacement(s)", ops.len())
    });
    let path = ctx
        .resolve_writable(file_path, request.working_dir.as_deref())
        .map_err(fs_fail)?;
    if !path.real.exists() {
        return Err(fail_as(ErrorKind::NotFound)(format!("File not found - {file_path}. Check the path (relative to the working directory); use a create tool for new files.")));
    }
    let frame = ctx
        .open_for_tool(&path, "replace_in_file")
        .map_err(fs_fail)?;
    let ops: Vec<Op> = ops.into_iter().map(|op| to_view(op, &frame.file)).collect();
    let applied = batch_plan::apply(&frame.file.text, &ops)
        .map_err(|e| fail_as(batch_kind(&e))(format!("{e}. {NOTHING_WRITTEN}")))?;
    let unchanged = applied.new_text == frame.file.text;
    let mut note = String::new();
    if !unchanged {
        note = frame.commit(&applied.new_text).map_err(fs_fail)?;
        ctx.after_write(&path, crate::tools::write_frame::TrackerEffect::Write);
    }
    let changes = applied.effects.iter().map(|(_, e)| e.changes()).sum();
    let message = summary(file_path, &ops, &applied, changes, unchanged) + &note;
    let text = diff::append(
        message,
        ctx.return_diff,
        &frame.file.text,
        &applied.new_text,
        &frame.display,
    );
    let mut outcome = match unchanged {
        true => Outcome::read(text),
        false => Outcome::wrote(text, file_path),
    };
    outcome.changes = Some(changes);
    Ok(outcome)
}

/// The kind of a batch that cannot be applied.
fn batch_kind(error: &BatchError) -> ErrorKind {
    match error {
        BatchError::OutOfRange { .. } | BatchError::NoMatch { .. } => ErrorKind::NotFound,
        _ => ErrorKind::BadParam,
    }
}

/// Brings an operation's texts into the file's LF view (CRLF files).
fn to_view(op: Op, file: &TextFile) -> Op {
    let view = |s: String| file.to_view(&s).into_owned();
    let kind = match op.kind {
        OpKind::Lines { start, end, text } => OpKind::Lines {
            start,
            end,
            text: view(text),
        },
        OpKind::InsertBefore { line, text } => OpKind::InsertBefore {
            line,
            text: view(text),
        },
        OpKind::InsertAfter { line, text } => OpKind::InsertAfter {
            line,
            text: view(text),
        },
        OpKind::Literal { search, replace } => OpKind::Literal {
            search: view(search),
            replace: view(replace),
        },
        OpKind::Regex { regex, replace } => OpKind::Regex {
            regex,
            replace: view(replace),
        },
    };
    Op {
        index: op.index,
        kind,
    }
}

/// `Successfully applied N replacement(s) to <file> (M changes):` and one line per operation.
fn summary(
    file_path: &str,
    ops: &[Op],
    applied: &Applied,
    total: usize,
    unchanged: bool,
) -> String {
    let mut out = format!(
        "Successfully applied {} replacement(s) to {file_path} ({total} change{}):",
        ops.len(),
        if total == 1 { "" } else { "s" }
    );
    for (index, effect) in &applied.effects {
        let label = ops
            .iter()
            .find(|op| op.index == *index)
            .map(batch_plan::label)
            .unwrap_or_default();
        out.push_str(&format!("\n- {label}: {}", describe_effect(effect)));
    }
    if unchanged {
        out.push_str("\nThe content is unchanged (the replacements reproduce the original text); nothing was written.");
    }
    out
}

fn describe_effect(effect: &Effect) -> String {
    let lines = |n: usize| format!("{n} line{}", if n == 1 { "" } else { "s" });
    match *effect {
        Effect::Lines { removed, added: 0 } => format!("deleted {}", lines(removed)),
        Effect::Lines { removed, added } => {
            format!("replaced {} with {}", lines(removed), lines(added))
        }
        Effect::Inserted { lines: n } => format!("inserted {}", lines(n)),
        Effect::Replaced { count } => format!(
            "{count} occurrence{} replaced",
            if count == 1 { "" } else { "s" }
        ),
    }
}
