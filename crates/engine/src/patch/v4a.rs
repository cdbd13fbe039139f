//! OpenAI's `apply_patch` envelope ("V4A"):
//!
//! ```text
//! *** Begin Patch
//! *** Add File: path        (+lines: the whole content)
//! *** Delete File: path
//! *** Update File: path
//! *** Move to: new/path     (optional)
//! @@ class Outer            (optional anchors, outermost first)
//! @@     def method():
//! @@ -12,3 +12,4 @@         (optional line numbers: a position hint; text after them is an anchor)
//!  context
//! -removed
//! +added
//! *** End of File           (optional: the hunk ends the file)
//! *** End Patch
//! ```
//!
//! Lenient where models are sloppy: markers may carry surrounding whitespace, a heredoc wrapper
//! (`<<'EOF'` ... `EOF`) is removed, an empty line inside a hunk is an empty context line, and the
//! first hunk of a file needs no `@@`.

use super::{old_side, to_lf, FileOp, Hunk, HunkLine, PatchError, Placement};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const END_OF_FILE: &str = "*** End of File";

/// Parses a V4A patch into its file operations, in order.
pub fn parse(input: &str) -> Result<Vec<FileOp>, PatchError> {
    let text = to_lf(input);
    let all: Vec<&str> = text.trim().lines().collect();
    let body = envelope(&all)?;
    let mut ops = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let line = body[i].trim();
        let number = i + 2;
        if line.is_empty() {
            i += 1;
        } else if let Some(path) = line.strip_prefix(ADD) {
            let path = path_of(path, ADD, number)?;
            let mut content = String::new();
            i += 1;
            while let Some(rest) = body.get(i).and_then(|l| l.strip_prefix('+')) {
                content.push_str(rest);
                content.push('\n');
                i += 1;
            }
            ops.push(FileOp::Add { path, content });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            ops.push(FileOp::Delete {
                path: path_of(path, DELETE, number)?,
            });
            i += 1;
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            let (op, used) = parse_update(&body[i..], path_of(path, UPDATE, number)?, number)?;
            ops.push(op);
            i += used;
        } else {
            return Err(PatchError::new(format!(
                "Invalid patch: line {number} \"{line}\" is not a file header. Each file starts with '{ADD} path', '{DELETE} path' or '{UPDATE} path'; fix the patch and resend it."
            )));
        }
    }
    if ops.is_empty() {
        return Err(PatchError::new(
            "Invalid patch: it changes no file. Put at least one '*** Update File: path' (or Add/Delete) section between the Begin and End lines.",
        ));
    }
    Ok(ops)
}

/// The lines between `*** Begin Patch` and `*** End Patch` (a heredoc wrapper removed first).
fn envelope<'a>(all: &'a [&'a str]) -> Result<&'a [&'a str], PatchError> {
    let lines = match all {
        [first, inner @ .., last]
            if matches!(first.trim(), "<<EOF" | "<<'EOF'" | "<<\"EOF\"")
                && last.trim().ends_with("EOF") =>
        {
            inner
        }
        _ => all,
    };
    if lines.first().map(|l| l.trim()) != Some(BEGIN) {
        return Err(PatchError::new(format!(
            "Invalid patch: the first line must be '{BEGIN}'. Send the whole patch: '{BEGIN}', the file sections, then '{END}'."
        )));
    }
    if lines.len() < 2 || lines.last().map(|l| l.trim()) != Some(END) {
        return Err(PatchError::new(format!(
            "Invalid patch: the last line must be '{END}' (was the patch cut short?). Resend the whole patch ending with '{END}'."
        )));
    }
    Ok(&lines[1..lines.len() - 1])
}

fn path_of(raw: &str, marker: &str, number: usize) -> Result<String, PatchError> {
    let path = raw.trim();
    if path.is_empty() {
        return Err(PatchError::new(format!(
            "Invalid patch: line {number} '{marker}' names no file. Write the path after the colon and resend."
        )));
    }
    Ok(path.to_string())
}

/// Parses one `*** Update File:` section starting at `lines[0]`; returns it and the lines used.
fn parse_update(
    lines: &[&str],
    path: String,
    number: usize,
) -> Result<(FileOp, usize), PatchError> {
    let mut i = 1;
    let mut move_to = None;
    if let Some(dest) = lines.get(1).and_then(|l| l.trim().strip_prefix(MOVE)) {
        move_to = Some(path_of(dest, MOVE, number + 1)?);
        i = 2;
    }
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut current = Collecting::default();
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed == END_OF_FILE {
            current.hunk.end_of_file = true;
            finish(&mut hunks, &mut current);
        } else if line.starts_with("***") || is_section_marker(trimmed) {
            break;
        } else if let Some(anchor) = line.trim_start().strip_prefix("@@") {
            if !current.hunk.lines.is_empty() {
                finish(&mut hunks, &mut current);
            }
            let anchor = match numbered_header(anchor) {
                Some((numbers, rest)) => {
                    current.numbers = Some(numbers);
                    rest
                }
                None => anchor,
            };
            let anchor = anchor.trim();
            if !anchor.is_empty() {
                current.hunk.anchors.push(anchor.to_string());
            }
        } else if trimmed.is_empty() && !line.starts_with(' ') {
            // A bare empty line: an empty context line inside a hunk, a separator before one.
            if !current.hunk.lines.is_empty() {
                current.hunk.lines.push(HunkLine::Context(String::new()));
            }
        } else {
            current.hunk.lines.push(hunk_line(line, &path, number + i)?);
        }
        i += 1;
    }
    finish(&mut hunks, &mut current);
    if hunks.is_empty() && move_to.is_none() {
        return Err(PatchError::new(format!(
            "Invalid patch: '{UPDATE} {path}' has no hunks. Add lines starting with ' ', '-' or '+' (after an optional '@@ anchor'), or remove the section, and resend."
        )));
    }
    let op = FileOp::Update {
        path,
        move_to,
        hunks,
        placement: Placement::InOrder,
    };
    Ok((op, i))
}

/// A file header or the end marker, possibly indented (hunk content never starts with `***`
/// once its one-character prefix is taken into account).
fn is_section_marker(trimmed: &str) -> bool {
    [ADD, DELETE, UPDATE, END]
        .iter()
        .any(|m| trimmed.starts_with(m))
}

/// The old side's numbers of a V4A `@@` line that starts like a unified hunk header
/// (` -a,b +c,d @@` after the first `@@`, see [`old_side`]) and the text after the second `@@`
/// (an anchor when not blank). `None` for any other text (an anchor as a whole).
fn numbered_header(after_at: &str) -> Option<(OldSide, &str)> {
    let rest = after_at.strip_prefix(" -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, rest) = rest.split_once(" @@")?;
    let numbers = |spec: &str| {
        let (line, count) = spec.split_once(',').unwrap_or((spec, "1"));
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        digits(line) && digits(count)
    };
    (numbers(old) && numbers(new)).then(|| (old_side(old), rest))
}

/// A header's old side: the 1-based start line and the insertion index of an added-only hunk.
type OldSide = (Option<usize>, Option<usize>);

/// The hunk being collected, with its header's numbers until its lines tell which one is its hint.
#[derive(Default)]
struct Collecting {
    hunk: Hunk,
    numbers: Option<OldSide>,
}

/// Ends the current hunk; anchors and line numbers not yet followed by lines carry over to the
/// next one.
fn finish(hunks: &mut Vec<Hunk>, current: &mut Collecting) {
    let Collecting { mut hunk, numbers } = std::mem::take(current);
    if !hunk.lines.is_empty() {
        hunk.line_hint = numbers.and_then(|(start, insert_at)| {
            if hunk.old_lines().is_empty() {
                insert_at
            } else {
                start
            }
        });
        hunks.push(hunk);
    } else if !hunk.anchors.is_empty() || numbers.is_some() {
        current.hunk.anchors = hunk.anchors;
        current.numbers = numbers;
    }
}

fn hunk_line(line: &str, path: &str, number: usize) -> Result<HunkLine, PatchError> {
    let mut chars = line.chars();
    let rest = || line[1..].to_string();
    match chars.next() {
        Some(' ') => Ok(HunkLine::Context(rest())),
        Some('-') => Ok(HunkLine::Remove(rest())),
        Some('+') => Ok(HunkLine::Add(rest())),
        _ => Err(PatchError::new(format!(
            "Invalid patch: line {number} \"{line}\" in the update of {path} does not start with ' ' (context), '-' (remove), '+' (add) or '@@'. Prefix every hunk line and resend."
        ))),
    }
}
