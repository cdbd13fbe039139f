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

/// [`read`] for a look ahead of a call that must stay cheap: `None`, without copying anything,
/// when the string fields of `params` hold more than `max_bytes` in all.
pub fn read_small<T: DeserializeOwned + Default>(
    params: &Value,
    max_bytes: usize,
) -> Option<Located<T>> {
    let fields = params.as_object().into_iter().flat_map(|o| o.values());
    let bytes: usize = fields.filter_map(Value::as_str).map(str::len).sum();
    (bytes <= max_bytes).then(|| read(params))
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
    fn read_small_reads_only_params_within_the_size() {
        let params = json!({ "name": "abc", "count": 7, "workingDirectory": "/w" });
        let call = read_small::<Sample>(&params, 5).unwrap();
        assert_eq!(call.params.name, Loose::Str("abc".into()));
        assert_eq!(call.working_dir.as_deref(), Some("/w"));
        assert!(read_small::<Sample>(&params, 4).is_none());
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
