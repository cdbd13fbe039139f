//! Tool parameters, read once at the boundary with the JavaScript semantics Probe's tools rely on
//! (`undefined`/`null` mean absent, strings are checked with `typeof`, flags by truthiness,
//! line references by `String(value)`).
//!
//! A tool's entry point calls [`read`] once: the JSON params become the tool's loose params
//! struct (every field a [`Loose`]) plus the call's `workingDirectory`; the tool then converts
//! that struct with `TryFrom` into the typed request it runs on. This module (with
//! `search/params.rs` for grep) is the only code that reads a `serde_json::Value`.

mod loose;

pub use loose::{Json, ListParam, Loose};

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A tool's loose params and the call's `workingDirectory` (the directory relative paths resolve
/// against; `None` when absent or blank, and the tool's `cwd` applies).
#[derive(Debug, Clone, Default)]
pub struct Located<T> {
    pub params: T,
    pub working_dir: Option<String>,
}

/// Reads `params` into `T` (a struct of [`Loose`] fields with `#[serde(default)]`) and the
/// call's `workingDirectory`. A non-object `params` has no fields: every field is absent.
pub fn read<T: DeserializeOwned + Default>(params: &Value) -> Located<T> {
    Located {
        params: loose::object(params).unwrap_or_default(),
        working_dir: working_dir(params),
    }
}

/// The param naming the directory relative paths resolve against.
const WORKING_DIRECTORY: &str = "workingDirectory";

/// The call's `workingDirectory`: the one place every tool reads it.
pub fn working_dir(params: &Value) -> Option<String> {
    loose::at(params, WORKING_DIRECTORY)
        .non_blank()
        .map(str::to_string)
}

/// A parameter as the tool sees it.
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    /// Not present, `undefined` or `null`.
    Absent,
    Str(&'a str),
    /// Present with a non-string value.
    Other(&'a Value),
}

impl<'a> Field<'a> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }

    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Looks `key` up in `params` (a non-object `params` has no fields).
pub fn field<'a>(params: &'a Value, key: &str) -> Field<'a> {
    match params.get(key) {
        None | Some(Value::Null) => Field::Absent,
        Some(Value::String(s)) => Field::Str(s),
        Some(other) => Field::Other(other),
    }
}

/// A non-empty string parameter (after trimming), as Probe requires for paths.
pub fn non_blank_str<'a>(params: &'a Value, key: &str) -> Option<&'a str> {
    field(params, key)
        .as_str()
        .filter(|s| !crate::text::js::js_trim(s).is_empty())
}

/// A boolean flag (see [`Loose::flag`]).
pub fn flag(params: &Value, key: &str, default: bool) -> bool {
    loose::at(params, key).flag(default)
}

/// JavaScript's `String(value)` for the scalar values a line reference can arrive as.
pub fn js_string(value: &Value) -> String {
    loose::js_string(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_covers_missing_and_null() {
        let p = json!({ "a": null, "b": "x", "c": 3 });
        assert!(field(&p, "a").is_absent());
        assert!(field(&p, "zz").is_absent());
        assert_eq!(field(&p, "b").as_str(), Some("x"));
        assert!(matches!(field(&p, "c"), Field::Other(_)));
        assert!(field(&json!("not an object"), "b").is_absent());
    }

    #[test]
    fn non_blank_rejects_whitespace_only() {
        let p = json!({ "a": "  \t", "b": " x " });
        assert_eq!(non_blank_str(&p, "a"), None);
        assert_eq!(non_blank_str(&p, "b"), Some(" x "));
    }

    #[test]
    fn flags_accept_xml_strings() {
        let p = json!({ "t": "true", "f": "False", "n": 0, "one": 1, "b": true });
        assert!(flag(&p, "t", false));
        assert!(!flag(&p, "f", true));
        assert!(!flag(&p, "n", true));
        assert!(flag(&p, "one", false));
        assert!(flag(&p, "b", false));
        assert!(flag(&p, "missing", true));
    }

    #[test]
    fn js_string_formats_numbers_like_javascript() {
        assert_eq!(js_string(&json!(42)), "42");
        assert_eq!(js_string(&json!(42.0)), "42");
        assert_eq!(js_string(&json!(4.5)), "4.5");
        assert_eq!(js_string(&json!(-3)), "-3");
        assert_eq!(js_string(&json!(true)), "true");
    }

    #[derive(serde::Deserialize, Default, Debug)]
    #[serde(default)]
    struct Sample {
        name: Loose,
        count: Loose,
    }

    #[test]
    fn read_takes_fields_and_the_working_directory_once() {
        let call =
            read::<Sample>(&json!({ "name": "a", "count": null, "workingDirectory": " /w " }));
        assert_eq!(call.params.name, Loose::Str("a".into()));
        assert_eq!(call.params.count, Loose::Absent);
        assert_eq!(call.working_dir.as_deref(), Some(" /w "));
        let blank = read::<Sample>(&json!({ "workingDirectory": "  " }));
        assert_eq!(blank.working_dir, None);
        let not_object = read::<Sample>(&json!([1, 2]));
        assert_eq!(not_object.params.name, Loose::Absent);
    }
}
