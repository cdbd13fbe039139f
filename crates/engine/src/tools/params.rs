//! Reading tool parameters from a JSON object with the JavaScript semantics Probe's tools rely on
//! (`undefined`/`null` mean absent, strings are checked with `typeof`, flags by truthiness).

use serde_json::Value;

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

/// A boolean flag. `true`/`false`, the strings `"true"`/`"false"` (any case, as XML-parsed tool
/// calls send them) and numbers (non-zero is true); anything else absent or falsy is `default`.
pub fn flag(params: &Value, key: &str, default: bool) -> bool {
    match params.get(key) {
        None | Some(Value::Null) => default,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => true,
            "false" | "0" | "no" | "" => false,
            _ => true,
        },
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(_) => true,
    }
}

/// JavaScript's `String(value)` for the scalar values a line reference can arrive as.
pub fn js_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => js_number_string(n),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_string(),
    }
}

fn js_number_string(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e21 => format!("{f:.0}"),
        Some(f) => f.to_string(),
        None => n.to_string(),
    }
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
}
