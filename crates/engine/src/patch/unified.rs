//! Unified diffs (`diff -u`, `git diff`): one or several files, `--- a/x` / `+++ b/x` headers,
//! `@@ -l,n +l,n @@` or bare `@@` hunk headers. Hunks are placed by their context; the old start
//! line is only a hint that picks between several equal places (one clearly nearest to it, see
//! [`super::seek::nearest`]), so a diff whose line numbers are off or missing still applies when
//! its context is unique. Hunk counts are not trusted:
//! a hunk ends at the next `@@`, file header or `diff` line.

use super::{old_side, to_lf, FileOp, Hunk, HunkLine, PatchError, Placement};

/// True when `text` looks like a unified diff (a `@@` line or a `---`/`+++` header pair).
pub fn looks_like(text: &str) -> bool {
    let mut prev = "";
    for line in text.lines() {
        if line.starts_with("@@") || (prev.starts_with("--- ") && line.starts_with("+++ ")) {
            return true;
        }
        prev = line;
    }
    false
}

/// A file section being collected.
struct Section {
    old: Option<String>,
    new: Option<String>,
    hunks: Vec<Hunk>,
}

/// Parses a unified diff. `default_path` names the file of hunks that come without headers.
pub fn parse(input: &str, default_path: Option<&str>) -> Result<Vec<FileOp>, PatchError> {
    let text = to_lf(input);
    let lines: Vec<&str> = text.lines().collect();
    let mut sections: Vec<Section> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if is_header(&lines, i) {
            sections.push(Section {
                old: header_path(&lines[i][4..], "a/"),
                new: header_path(&lines[i + 1][4..], "b/"),
                hunks: Vec::new(),
            });
            i += 2;
        } else if line.starts_with("@@") {
            if sections.is_empty() {
                let Some(path) = default_path else {
                    return Err(PatchError::new("Invalid diff: its hunks name no file. Start the diff with '--- a/path' and '+++ b/path' lines, or pass the file in the path parameter."));
                };
                sections.push(Section {
                    old: Some(path.to_string()),
                    new: Some(path.to_string()),
                    hunks: Vec::new(),
                });
            }
            let (hunk, used) = parse_hunk(&lines[i..]);
            if let Some(section) = sections.last_mut() {
                section.hunks.push(hunk);
            }
            i += used;
        } else {
            i += 1;
        }
    }
    if sections.is_empty() {
        return Err(PatchError::new("Invalid diff: no '@@' hunk found. Send a unified diff ('--- a/path', '+++ b/path', then '@@' hunks of ' ', '-', '+' lines)."));
    }
    sections.into_iter().map(into_op).collect()
}

fn is_header(lines: &[&str], i: usize) -> bool {
    lines[i].starts_with("--- ") && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ "))
}

/// The path of a header, without its `a/`/`b/` prefix and timestamp; `None` for `/dev/null`.
fn header_path(raw: &str, prefix: &str) -> Option<String> {
    let path = raw.split('\t').next().unwrap_or(raw).trim();
    if path == "/dev/null" {
        return None;
    }
    Some(path.strip_prefix(prefix).unwrap_or(path).to_string())
}

/// One hunk from its `@@` line; returns it and the number of lines used.
fn parse_hunk(lines: &[&str]) -> (Hunk, usize) {
    let (hint, pure_insert_hint) = old_start(lines[0]);
    let mut body = Vec::new();
    let mut i = 1;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("@@") || line.starts_with("diff ") || is_header(lines, i) {
            break;
        }
        match line.chars().next() {
            Some(' ') => body.push(HunkLine::Context(line[1..].to_string())),
            Some('-') => body.push(HunkLine::Remove(line[1..].to_string())),
            Some('+') => body.push(HunkLine::Add(line[1..].to_string())),
            Some('\\') => {}
            None => body.push(HunkLine::Context(String::new())),
            Some(_) => break,
        }
        i += 1;
    }
    while body.last() == Some(&HunkLine::Context(String::new())) {
        body.pop();
    }
    let only_adds = body.iter().all(|l| matches!(l, HunkLine::Add(_)));
    let hunk = Hunk {
        anchors: Vec::new(),
        lines: body,
        end_of_file: false,
        line_hint: if only_adds { pure_insert_hint } else { hint },
    };
    (hunk, i)
}

/// From `@@ -l,n ...`: the old side's numbers ([`old_side`]).
fn old_start(header: &str) -> (Option<usize>, Option<usize>) {
    match header.split_whitespace().find(|w| w.starts_with('-')) {
        Some(spec) => old_side(&spec[1..]),
        None => (None, None),
    }
}

fn into_op(section: Section) -> Result<FileOp, PatchError> {
    match (section.old, section.new) {
        (None, None) => Err(PatchError::new(
            "Invalid diff: a file section has /dev/null on both sides. Name the file in its '---' or '+++' line.",
        )),
        (None, Some(path)) => {
            let mut content = String::new();
            for line in section.hunks.iter().flat_map(|h| &h.lines) {
                if let HunkLine::Add(t) | HunkLine::Context(t) = line {
                    content.push_str(t);
                    content.push('\n');
                }
            }
            Ok(FileOp::Add { path, content })
        }
        (Some(path), None) => Ok(FileOp::Delete { path }),
        (Some(old), Some(new)) => {
            if section.hunks.is_empty() && old == new {
                return Err(PatchError::new(format!(
                    "Invalid diff: the section for {old} has no '@@' hunk. Add its hunks or remove the section."
                )));
            }
            Ok(FileOp::Update {
                move_to: (old != new).then(|| new.clone()),
                path: old,
                hunks: section.hunks,
                placement: Placement::Unique,
            })
        }
    }
}
