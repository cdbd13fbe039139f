//! The grep call's `GrepArgs` (plus `ignoreCase`, `maxResults`, `lineHashes`) read from JSON params.

use crate::tools::params::{field, flag, non_blank_str, Field};
use serde_json::Value;

/// A validated grep call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrepRequest {
    /// A Rust regex (ripgrep's syntax).
    pub pattern: String,
    /// File or directory to search; `None` searches the working directory.
    pub path: Option<String>,
    /// Directory relative `path`s resolve against (the tool's `cwd` when absent).
    pub working_dir: Option<String>,
    /// Lines shown before each match (`beforeContext`, else `context`).
    pub before: usize,
    /// Lines shown after each match (`afterContext`, else `context`).
    pub after: usize,
    /// A ripgrep type name (`js`, `ts`, `py`, `rust`, ...) or a bare extension.
    pub file_type: Option<String>,
    pub ignore_case: bool,
    /// Stop after this many matching lines in total.
    pub max_results: Option<usize>,
    /// Print `N:hh` line references instead of bare line numbers.
    pub line_hashes: bool,
}

const NO_PATTERN: &str = "Error: pattern is required and must be a non-empty string: a regular expression such as \"fn \\w+\" (escape special characters like \"(\" with a backslash for a literal match).";

/// Reads and checks every parameter; the `Err` is the tool's whole answer.
pub fn parse(params: &Value) -> Result<GrepRequest, String> {
    let pattern = match field(params, "pattern") {
        Field::Str(s) if !s.is_empty() => s.to_string(),
        _ => return Err(NO_PATTERN.to_string()),
    };
    let context = count(params, "context")?;
    let before = count(params, "beforeContext")?.or(context).unwrap_or(0);
    let after = count(params, "afterContext")?.or(context).unwrap_or(0);
    let max_results = count(params, "maxResults")?;
    if max_results == Some(0) {
        return Err("Error: maxResults must be at least 1 (omit it for no limit).".to_string());
    }
    let file_type = match field(params, "fileType") {
        Field::Absent => None,
        Field::Str(s) if s.trim().is_empty() => None,
        Field::Str(s) => Some(s.trim().to_string()),
        Field::Other(_) => {
            return Err(
                "Error: fileType must be a string such as \"ts\", \"py\" or \"rust\".".to_string(),
            )
        }
    };
    if matches!(field(params, "path"), Field::Other(_)) {
        return Err("Error: path must be a string: a file or directory to search (omit it to search the working directory).".to_string());
    }
    Ok(GrepRequest {
        pattern,
        path: non_blank_str(params, "path").map(str::to_string),
        working_dir: crate::tools::params::working_dir(params),
        before,
        after,
        file_type,
        ignore_case: flag(params, "ignoreCase", false),
        max_results,
        line_hashes: flag(params, "lineHashes", false),
    })
}

/// A non-negative integer parameter: a number or a numeric string (as XML tool calls send).
fn count(params: &Value, key: &str) -> Result<Option<usize>, String> {
    let bad = || {
        Err(format!(
            "Error: {key} must be a non-negative whole number (e.g. 3)."
        ))
    };
    match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f >= 0.0 && f.fract() == 0.0 && f.is_finite() => {
                Ok(Some(f.min(usize::MAX as f64) as usize))
            }
            _ => bad(),
        },
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s.trim().parse::<usize>().map(Some).or_else(|_| bad()),
        Some(_) => bad(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn context_defaults_and_overrides() {
        let r = parse(&json!({ "pattern": "x", "context": 2, "afterContext": "5" })).unwrap();
        assert_eq!((r.before, r.after), (2, 5));
        let r = parse(&json!({ "pattern": "x" })).unwrap();
        assert_eq!((r.before, r.after, r.max_results), (0, 0, None));
        assert!(!r.ignore_case && !r.line_hashes);
    }

    #[test]
    fn rejects_bad_values() {
        assert!(parse(&json!({})).unwrap_err().starts_with("Error: pattern"));
        assert!(parse(&json!({ "pattern": "" })).is_err());
        assert!(parse(&json!({ "pattern": "x", "context": -1 }))
            .unwrap_err()
            .contains("context"));
        assert!(parse(&json!({ "pattern": "x", "beforeContext": 1.5 })).is_err());
        assert!(parse(&json!({ "pattern": "x", "maxResults": 0 })).is_err());
        assert!(parse(&json!({ "pattern": "x", "fileType": 3 })).is_err());
        assert!(parse(&json!("not an object")).is_err());
        assert!(parse(&json!({ "pattern": "x", "path": 3 }))
            .unwrap_err()
            .starts_with("Error: path must be a string"));
    }

    #[test]
    fn reads_flags_and_type() {
        let r = parse(&json!({ "pattern": "x", "ignoreCase": "true", "lineHashes": true, "fileType": " ts ", "maxResults": 7, "path": "src" })).unwrap();
        assert!(r.ignore_case && r.line_hashes);
        assert_eq!(r.file_type.as_deref(), Some("ts"));
        assert_eq!(r.max_results, Some(7));
        assert_eq!(r.path.as_deref(), Some("src"));
    }
}
