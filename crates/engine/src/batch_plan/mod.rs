//! Planning of `replace_in_file` batches: pure functions from (file text, operations) to the new
//! text, with no I/O.
//!
//! Contracts:
//! - Every line number refers to the file **as read**: operations never shift each other's lines
//!   (the text is rebuilt in one pass over the original lines, chunk by chunk).
//! - Line operations (`lines`, `insert_before`, `insert_after`) are applied first, then the
//!   `string` and `regex` operations, in request order, each on the result of the previous one.
//! - Errors (any of [`BatchError`]) are detected before any result is produced: a batch either
//!   yields a complete new text or nothing.
//! - Replacement and insertion texts are whole lines: one trailing `\n` ends the last line rather
//!   than adding an empty one (`"x\n"` and `"x"` are both the single line `x`; `"\n"` is one empty
//!   line; `""` is no line at all, so `lines` with `""` deletes the range).
//! - Two insertions at the same point (e.g. `insert_after 4` and `insert_before 5`) are both kept,
//!   in request order. An insertion strictly inside a replaced range is an error, as are
//!   overlapping `lines` ranges; an insertion at a range's edge (`insert_before start`,
//!   `insert_after end`) lands just outside the replacement.
//! - The file's final-newline state is kept; an empty file gains a final newline when lines are
//!   inserted into it.
//! - Linear in the file size plus O(r log r) in the number of operations.

mod lines;
mod patterns;

pub use lines::{lines_and_final_newline, text_lines};

use regex::Regex;

/// Longest excerpt of a search text shown in a label.
const LABEL_EXCERPT: usize = 60;

/// One operation of a batch. `index` is its 1-based position in the request (used in messages).
#[derive(Debug, Clone)]
pub struct Op {
    pub index: usize,
    pub kind: OpKind,
}

/// What an operation does. Line numbers are 1-based and refer to the file as read.
#[derive(Debug, Clone)]
pub enum OpKind {
    /// Replace lines `start..=end` with `text` (whole lines; `""` deletes them).
    Lines {
        start: usize,
        end: usize,
        text: String,
    },
    /// Insert `text` (whole lines) before line `line`.
    InsertBefore { line: usize, text: String },
    /// Insert `text` (whole lines) after line `line`.
    InsertAfter { line: usize, text: String },
    /// Replace every occurrence of the literal `search` (non-empty) with `replace`.
    Literal { search: String, replace: String },
    /// Replace every match of `regex` with `replace` (`$1`, `${name}` expand to captures).
    Regex { regex: Regex, replace: String },
}

/// What an applied operation changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// `removed` original lines replaced by `added` lines.
    Lines { removed: usize, added: usize },
    /// `lines` lines inserted.
    Inserted { lines: usize },
    /// `count` occurrences (or matches) replaced.
    Replaced { count: usize },
}

impl Effect {
    /// How many changes the operation counts for: one per line operation, one per occurrence.
    pub fn changes(&self) -> usize {
        match self {
            Effect::Lines { .. } | Effect::Inserted { .. } => 1,
            Effect::Replaced { count } => *count,
        }
    }
}

/// The planned result of a batch.
#[derive(Debug, Clone)]
pub struct Applied {
    pub new_text: String,
    /// `(op index, effect)` in request order.
    pub effects: Vec<(usize, Effect)>,
}

/// Why a batch cannot be applied. Labels look like `[2] lines 3-5`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    #[error("{op}: endLine ({end}) is before startLine ({start}); give an inclusive range with startLine <= endLine")]
    ReversedRange {
        op: String,
        start: usize,
        end: usize,
    },
    #[error("{op}: line numbers start at 1 (the first line of the file is line 1)")]
    ZeroLine { op: String },
    #[error("{op}: line {line} is beyond the end of the file ({total} line{s}); line numbers refer to the file as read", s = plural(*total))]
    OutOfRange {
        op: String,
        line: usize,
        total: usize,
    },
    #[error("{second} overlaps {first}; line ranges must not overlap - merge them into one \"lines\" operation")]
    Overlap { first: String, second: String },
    #[error("{insert} falls inside the range replaced by {range}; put the inserted text into that operation's replaceWith instead")]
    InsertInsideRange { insert: String, range: String },
    #[error("{op} matched nothing in the file (after the line operations were applied); check the exact text, including white space, or drop this operation")]
    NoMatch { op: String },
}

/// Applies a batch to `text` (an LF-view string). See the module contract.
pub fn apply(text: &str, ops: &[Op]) -> Result<Applied, BatchError> {
    let (mut new_text, mut effects) = lines::apply(text, ops)?;
    for op in ops {
        if let Some((next, effect)) = patterns::apply(&new_text, op)? {
            new_text = next;
            effects.push((op.index, effect));
        }
    }
    effects.sort_by_key(|(index, _)| *index);
    Ok(Applied { new_text, effects })
}

/// A short label for messages: `[2] lines 3-5`, `[4] insert_after 7`, `[5] string "foo"`.
pub fn label(op: &Op) -> String {
    let what = match &op.kind {
        OpKind::Lines { start, end, .. } if start == end => format!("lines {start}"),
        OpKind::Lines { start, end, .. } => format!("lines {start}-{end}"),
        OpKind::InsertBefore { line, .. } => format!("insert_before {line}"),
        OpKind::InsertAfter { line, .. } => format!("insert_after {line}"),
        OpKind::Literal { search, .. } => format!("string {}", quoted(search)),
        OpKind::Regex { regex, .. } => format!("regex /{}/", excerpt(regex.as_str())),
    };
    format!("[{}] {what}", op.index)
}

/// `"text"` with long texts shortened and control characters escaped.
fn quoted(s: &str) -> String {
    format!("\"{}\"", excerpt(s))
}

/// The first characters of `s`, line breaks and other control characters escaped (`\n`).
fn excerpt(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().take(LABEL_EXCERPT) {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    if s.chars().count() > LABEL_EXCERPT {
        out.push_str("...");
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests;
