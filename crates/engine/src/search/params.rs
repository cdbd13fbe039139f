//! The grep call's `GrepArgs` (plus `ignoreCase`, `maxResults`, `lineHashes`) read from JSON params.

use crate::tools::params::{self, Located, Loose};
use serde_json::Value;

/// The params of a grep call as sent.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GrepParams {
    pattern: Loose,
    path: Loose,
    context: Loose,
    before_context: Loose,
    after_context: Loose,
    file_type: Loose,
    ignore_case: Loose,
    max_results: Loose,
    line_hashes: Loose,
}

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
    GrepRequest::try_from(params::read::<GrepParams>(params))
}

impl TryFrom<Located<GrepParams>> for GrepRequest {
    type Error = String;

    fn try_from(call: Located<GrepParams>) -> Result<Self, String> {
        let p = call.params;
        let pattern = match p.pattern.as_str() {
            Some(s) if !s.is_empty() => s.to_string(),
            _ => return Err(NO_PATTERN.to_string()),
        };
        let context = count(&p.context, "context")?;
        let before = count(&p.before_context, "beforeContext")?.or(context);
        let after = count(&p.after_context, "afterContext")?.or(context);
        let max_results = count(&p.max_results, "maxResults")?;
        if max_results == Some(0) {
            return Err("Error: maxResults must be at least 1 (omit it for no limit).".to_string());
        }
        let file_type = match &p.file_type {
            Loose::Absent => None,
            Loose::Str(s) if s.trim().is_empty() => None,
            Loose::Str(s) => Some(s.trim().to_string()),
            Loose::Other(_) => {
                return Err(
                    "Error: fileType must be a string such as \"ts\", \"py\" or \"rust\"."
                        .to_string(),
                )
            }
        };
        if matches!(p.path, Loose::Other(_)) {
            return Err("Error: path must be a string: a file or directory to search (omit it to search the working directory).".to_string());
        }
        Ok(GrepRequest {
            pattern,
            path: p.path.non_blank().map(str::to_string),
            working_dir: call.working_dir,
            before: before.unwrap_or(0),
            after: after.unwrap_or(0),
            file_type,
            ignore_case: p.ignore_case.flag(false),
            max_results,
            line_hashes: p.line_hashes.flag(false),
        })
    }
}

/// A non-negative integer parameter: a number or a numeric string (as XML tool calls send).
fn count(param: &Loose, key: &str) -> Result<Option<usize>, String> {
    let bad = || {
        Err(format!(
            "Error: {key} must be a non-negative whole number (e.g. 3)."
        ))
    };
    match param {
        Loose::Absent => Ok(None),
        Loose::Str(s) if s.trim().is_empty() => Ok(None),
        Loose::Str(s) => s.trim().parse::<usize>().map(Some).or_else(|_| bad()),
        Loose::Other(_) => match param.number() {
            Some(f) if f >= 0.0 && f.fract() == 0.0 && f.is_finite() => {
                Ok(Some(f.min(usize::MAX as f64) as usize))
            }
            _ => bad(),
        },
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
