//! Tool parameters, read once at the boundary with the JavaScript semantics Probe's tools rely on
//! (`undefined`/`null` mean absent, strings are checked with `typeof`, flags by truthiness,
//! line references by `String(value)`).
//!
//! A tool's entry point calls [`read`] once: the JSON params become the tool's loose params
//! struct (every field a [`Loose`]) plus the call's `workingDirectory`; the tool then converts
//! that struct with `TryFrom` into the typed request it runs on. This module is the only tool
//! code that reads a `serde_json::Value`.

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
