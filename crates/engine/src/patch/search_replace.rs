//! SEARCH/REPLACE blocks as aider, Cline and Roo Code write them:
//!
//! ```text
//! path/to/file.py          (optional: aider names the file on the line before the block)
//! <<<<<<< SEARCH
//! :start_line:12           (optional, Roo: where the search text is expected)
//! -------                  (optional, Roo)
//! old lines
//! =======
//! new lines
//! >>>>>>> REPLACE
//! ```
//!
//! Each block is its own operation, applied in order on the file as the previous blocks left it
//! (as aider does); a block without a filename line is for the previous block's file. An empty
//! SEARCH creates the file.

use super::{to_lf, FileOp, Hunk, HunkLine, PatchError, Placement};

/// True when `text` holds a SEARCH/REPLACE block.
pub fn looks_like(text: &str) -> bool {
    text.lines().any(is_search)
}

fn is_search(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("<<<<<<<") && t.trim_start_matches('<').trim() == "SEARCH"
}

fn is_divider(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 7 && t.chars().all(|c| c == '=')
}

fn is_replace(line: &str) -> bool {
    let t = line.trim();
    t.starts_with(">>>>>>>") && t.trim_start_matches('>').trim() == "REPLACE"
}

/// Parses the blocks of `input`. `default_path` names the file of blocks with no filename line.
pub fn parse(input: &str, default_path: Option<&str>) -> Result<Vec<FileOp>, PatchError> {
    let text = to_lf(input);
    let lines: Vec<&str> = text.lines().collect();
    let mut ops = Vec::new();
    let mut named: Option<String> = None;
    let mut previous: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        if !is_search(lines[i]) {
            let t = lines[i].trim();
            if !t.is_empty() && !t.starts_with("```") {
                previous = Some(t);
            }
            i += 1;
            continue;
        }
        if let Some(path) = previous.take().and_then(filename_line) {
            named = Some(path);
        }
        let block = ops.len() + 1;
        let path = match (&named, default_path) {
            (Some(p), _) => p.clone(),
            (None, Some(p)) => p.to_string(),
            (None, None) => return Err(PatchError::new(format!("Invalid diff: SEARCH/REPLACE block {block} names no file. Put the file path on the line before '<<<<<<< SEARCH', or pass it in the path parameter."))),
        };
        let (op, used) = parse_block(&lines[i..], path, block)?;
        ops.push(op);
        i += used;
    }
    if ops.is_empty() {
        return Err(PatchError::new(
            "Invalid diff: no '<<<<<<< SEARCH' block found.",
        ));
    }
    Ok(ops)
}

/// A line that names a file (aider's filename line), possibly in backticks or bold. A line of
/// punctuation only (the `...` models write between blocks) names none: the block goes on in the
/// previous block's file.
fn filename_line(line: &str) -> Option<String> {
    let t = line
        .trim()
        .trim_matches(|c| c == '`' || c == '*')
        .trim()
        .trim_end_matches(':');
    let plausible = t.chars().any(char::is_alphanumeric)
        && !t.contains(char::is_whitespace)
        && (t.contains('.') || t.contains('/'))
        && !t.starts_with("```")
        && !t.starts_with(":");
    plausible.then(|| t.to_string())
}

/// One block from its SEARCH line; returns the operation and the number of lines used.
fn parse_block(lines: &[&str], path: String, block: usize) -> Result<(FileOp, usize), PatchError> {
    let mut i = 1;
    let mut hint = None;
    while let Some(line) = lines.get(i) {
        let t = line.trim();
        if let Some(n) = t.strip_prefix(":start_line:") {
            hint = n.trim().parse::<usize>().ok().filter(|n| *n > 0);
        } else if !(t.len() >= 3 && t.chars().all(|c| c == '-')) {
            break;
        }
        i += 1;
    }
    let search_start = i;
    let divider = (search_start..lines.len()).find(|&k| is_divider(lines[k]));
    let end = divider.and_then(|d| (d + 1..lines.len()).find(|&k| is_replace(lines[k])));
    let (Some(divider), Some(end)) = (divider, end) else {
        return Err(PatchError::new(format!("Invalid diff: SEARCH/REPLACE block {block} for {path} is not closed. Each block is '<<<<<<< SEARCH', the old lines, '=======', the new lines, '>>>>>>> REPLACE'; resend it whole.")));
    };
    let old = &lines[search_start..divider];
    let new = &lines[divider + 1..end];
    let op = if old.iter().all(|l| l.trim().is_empty()) {
        let mut content = new.join("\n");
        content.push('\n');
        FileOp::Add { path, content }
    } else {
        let mut body: Vec<HunkLine> = old
            .iter()
            .map(|l| HunkLine::Remove(l.to_string()))
            .collect();
        body.extend(new.iter().map(|l| HunkLine::Add(l.to_string())));
        FileOp::Update {
            path,
            move_to: None,
            hunks: vec![Hunk {
                anchors: Vec::new(),
                lines: body,
                end_of_file: false,
                line_hint: hint,
            }],
            placement: Placement::Unique,
        }
    };
    Ok((op, end + 1))
}
