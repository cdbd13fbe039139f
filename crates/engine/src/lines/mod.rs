//! Line hashes, line references, indentation helpers and the line-edit auto-corrections (pure).

/// Where new text goes relative to an anchor (symbol or line). `None` at call sites means "replace".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    Before,
    After,
}

impl Position {
    pub fn as_str(self) -> &'static str {
        match self {
            Position::Before => "before",
            Position::After => "after",
        }
    }
}

/// A parsed `"42"` or `"42:ab"` reference. `line` is 1-based; `hash` is lower-case hex when present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRef {
    pub line: usize,
    pub hash: Option<String>,
}

/// Result of checking a line's hash against the file (Probe's `validateLineHash`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashCheck {
    pub valid: bool,
    pub actual_hash: String,
    pub actual_content: String,
}

/// A text after an auto-correction step, and the human-readable notes of what was changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrected {
    pub text: String,
    pub modifications: Vec<String>,
}

/// Probe's `computeLineHash`: DJB2 over the UTF-16 code units of the line with all JS white space
/// removed, mod 256, as two lower-case hex digits.
pub fn compute_line_hash(line: &str) -> String {
    let _ = line;
    todo!("lines::compute_line_hash")
}

/// Probe's `parseLineRef` for a string (numbers are stringified by the caller). `None` when invalid.
pub fn parse_line_ref(s: &str) -> Option<LineRef> {
    let _ = s;
    todo!("lines::parse_line_ref")
}

/// Probe's `validateLineHash(lineNum, hash, fileLines)`.
pub fn validate_line_hash(line_num: i64, hash: &str, file_lines: &[&str]) -> HashCheck {
    let _ = (line_num, hash, file_lines);
    todo!("lines::validate_line_hash")
}

/// Probe's `annotateOutputWithHashes`: `  42 | code` -> `  42:ab | code` on every such line.
pub fn annotate_output_with_hashes(output: &str) -> String {
    let _ = output;
    todo!("lines::annotate_output_with_hashes")
}

/// Probe's `stripHashlinePrefixes`: returns `(cleaned, stripped)`.
pub fn strip_hashline_prefixes(text: &str) -> (String, bool) {
    let _ = text;
    todo!("lines::strip_hashline_prefixes")
}

/// Probe's `stripEchoedBoundaries(newStr, fileLines, startLine, endLine, position)`.
pub fn strip_echoed_boundaries(
    new_str: &str,
    file_lines: &[&str],
    start_line: usize,
    end_line: usize,
    position: Option<Position>,
) -> Corrected {
    let _ = (new_str, file_lines, start_line, end_line, position);
    todo!("lines::strip_echoed_boundaries")
}

/// Probe's `restoreIndentation(newStr, originalLines)`.
pub fn restore_indentation(new_str: &str, original_lines: &[&str]) -> Corrected {
    let _ = (new_str, original_lines);
    todo!("lines::restore_indentation")
}

/// Probe's `cleanNewString`: prefixes -> echoed boundaries -> indentation (replace mode only).
pub fn clean_new_string(
    new_str: &str,
    file_lines: &[&str],
    start_line: usize,
    end_line: usize,
    position: Option<Position>,
) -> Corrected {
    let _ = (new_str, file_lines, start_line, end_line, position);
    todo!("lines::clean_new_string")
}

/// Probe's `detectBaseIndent`: leading white space of the first non-blank line ("" when none).
pub fn detect_base_indent(code: &str) -> &str {
    let _ = code;
    todo!("lines::detect_base_indent")
}

/// Probe's `reindent(newContent, targetIndent)`.
pub fn reindent(new_content: &str, target_indent: &str) -> String {
    let _ = (new_content, target_indent);
    todo!("lines::reindent")
}
