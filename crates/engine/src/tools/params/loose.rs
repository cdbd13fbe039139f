//! [`Loose`]: one parameter as a JavaScript tool sees it, and the coercions Probe's tools apply.

use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde_json::Value;

/// One parameter: absent (missing, `undefined` or `null`), a string, or any other JSON value.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Loose {
    #[default]
    Absent,
    Str(String),
    /// Present with a non-string value.
    Other(Json),
}

/// A present, non-string, non-null value; read only through the methods of this module.
#[derive(Debug, Clone, PartialEq)]
pub struct Json(Value);

/// A list parameter: an array, or a string holding one as JSON (as XML tool calls send it).
#[derive(Debug, Clone, PartialEq)]
pub enum ListParam {
    Items(Vec<Json>),
    /// A string that is not JSON: serde_json's description of why.
    BadJson(String),
    /// A string holding JSON that is not an array.
    NotList,
    /// Absent, or present as neither an array nor a string.
    Missing,
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Loose::from)
    }
}

impl From<Value> for Loose {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => Loose::Absent,
            Value::String(s) => Loose::Str(s),
            other => Loose::Other(Json(other)),
        }
    }
}

impl Loose {
    pub fn is_absent(&self) -> bool {
        matches!(self, Loose::Absent)
    }

    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Loose::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A string that is not blank after JavaScript's `trim()` (as Probe requires for paths).
    pub fn non_blank(&self) -> Option<&str> {
        self.as_str()
            .filter(|s| !crate::text::js::js_trim(s).is_empty())
    }

    /// Exactly the boolean `true` (JavaScript's `=== true`).
    pub fn is_true(&self) -> bool {
        matches!(self, Loose::Other(Json(Value::Bool(true))))
    }

    /// A boolean flag. `true`/`false`, the strings `"true"`/`"false"` (any case, as XML-parsed
    /// tool calls send them) and numbers (non-zero is true); absent is `default`; any other
    /// present value is true.
    pub fn flag(&self, default: bool) -> bool {
        match self {
            Loose::Absent => default,
            Loose::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" => true,
                "false" | "0" | "no" | "" => false,
                _ => true,
            },
            Loose::Other(Json(Value::Bool(b))) => *b,
            Loose::Other(Json(Value::Number(n))) => n.as_f64().is_some_and(|f| f != 0.0),
            Loose::Other(_) => true,
        }
    }

    /// JavaScript's `String(value)`; `None` when absent.
    pub fn js_string(&self) -> Option<String> {
        match self {
            Loose::Absent => None,
            Loose::Str(s) => Some(s.clone()),
            Loose::Other(Json(v)) => Some(js_string(v)),
        }
    }

    /// The value as JSON text (a string quoted), as messages show what was sent.
    pub fn json_text(&self) -> String {
        match self {
            Loose::Absent => "null".to_string(),
            Loose::Str(s) => Value::String(s.clone()).to_string(),
            Loose::Other(Json(v)) => v.to_string(),
        }
    }

    /// An optional integer: a whole number, or a string holding one. `Ok(None)` when absent;
    /// `Err(json_text)` when present but not such an integer.
    pub fn integer(&self) -> Result<Option<i64>, String> {
        let parsed = match self {
            Loose::Absent => return Ok(None),
            Loose::Str(s) => s.trim().parse::<i64>().ok(),
            Loose::Other(Json(Value::Number(n))) => n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            }),
            Loose::Other(_) => None,
        };
        parsed.map(Some).ok_or_else(|| self.json_text())
    }

    /// The value as a number, if it is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Loose::Other(Json(Value::Number(n))) => n.as_f64(),
            _ => None,
        }
    }

    /// A non-negative integer: a number that fits `u64`, or a string holding one; else `None`.
    pub fn unsigned(&self) -> Option<usize> {
        match self {
            Loose::Absent => None,
            Loose::Str(s) => s.trim().parse::<usize>().ok(),
            Loose::Other(Json(v)) => v.as_u64().map(|n| n as usize),
        }
    }

    /// A pair of integers: an array of two, or a string holding one as JSON; else `None`.
    pub fn integer_pair(&self) -> Option<(i64, i64)> {
        let value = match self {
            Loose::Absent => return None,
            Loose::Str(s) => serde_json::from_str::<Value>(s).ok()?,
            Loose::Other(Json(v)) => v.clone(),
        };
        match value {
            Value::Array(items) if items.len() == 2 => {
                let mut items = items.into_iter().map(Loose::from);
                let first = items.next()?.integer().ok().flatten()?;
                let second = items.next()?.integer().ok().flatten()?;
                Some((first, second))
            }
            _ => None,
        }
    }

    /// The value as a list parameter (see [`ListParam`]).
    pub fn list(&self) -> ListParam {
        let items = match self {
            Loose::Str(raw) => match serde_json::from_str::<Value>(raw) {
                Ok(Value::Array(items)) => items,
                Ok(_) => return ListParam::NotList,
                Err(e) => return ListParam::BadJson(e.to_string()),
            },
            Loose::Other(Json(Value::Array(items))) => items.clone(),
            _ => return ListParam::Missing,
        };
        ListParam::Items(items.into_iter().map(Json).collect())
    }
}

impl Json {
    /// The item read as `T`'s loose params with its own `workingDirectory`, when it is an
    /// object; `None` otherwise.
    pub fn located<T: DeserializeOwned + Default>(&self) -> Option<super::Located<T>> {
        self.0.is_object().then(|| super::read(&self.0))
    }

    /// The item read as `T` (a struct of [`Loose`] fields), when it is an object.
    pub fn object<T: DeserializeOwned>(&self) -> Option<T> {
        object(&self.0)
    }

    /// As [`Json::located`], for an item of a batch whose own `workingDirectory` is `outer`: an
    /// item without the key takes `outer` (an item that sends it, even blank, keeps its own).
    pub fn located_in<T: DeserializeOwned + Default>(
        &self,
        outer: Option<&str>,
    ) -> Option<super::Located<T>> {
        let mut located = self.located::<T>()?;
        if self.0.get(super::WORKING_DIRECTORY).is_none() {
            located.working_dir = outer.map(str::to_string);
        }
        Some(located)
    }
}

/// `T` read from an object; `None` for any other value.
pub(super) fn object<T: DeserializeOwned>(params: &Value) -> Option<T> {
    if params.is_object() {
        T::deserialize(params).ok()
    } else {
        None
    }
}

/// The parameter `key` of `params` (absent when `params` is not an object).
pub(super) fn at(params: &Value, key: &str) -> Loose {
    params.get(key).cloned().map_or(Loose::Absent, Loose::from)
}

/// JavaScript's `String(value)` for the scalar values a line reference can arrive as.
fn js_string(value: &Value) -> String {
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

    fn loose(v: Value) -> Loose {
        Loose::from(v)
    }

    #[test]
    fn absent_covers_missing_and_null() {
        let p = json!({ "a": null, "b": "x", "c": 3 });
        assert!(at(&p, "a").is_absent());
        assert!(at(&p, "zz").is_absent());
        assert_eq!(at(&p, "b").as_str(), Some("x"));
        assert!(matches!(at(&p, "c"), Loose::Other(_)));
        assert!(at(&json!("not an object"), "b").is_absent());
    }

    #[test]
    fn non_blank_rejects_javascript_white_space_only() {
        assert_eq!(loose(json!("  \t\u{feff}")).non_blank(), None);
        assert_eq!(loose(json!(" x ")).non_blank(), Some(" x "));
        assert_eq!(loose(json!(3)).non_blank(), None);
    }

    #[test]
    fn flags_accept_xml_strings() {
        assert!(loose(json!("true")).flag(false));
        assert!(!loose(json!("False")).flag(true));
        assert!(!loose(json!(0)).flag(true));
        assert!(loose(json!(1)).flag(false));
        assert!(loose(json!(true)).flag(false));
        assert!(loose(json!([])).flag(false));
        assert!(Loose::Absent.flag(true));
    }

    #[test]
    fn js_string_formats_numbers_like_javascript() {
        let s = |v: Value| loose(v).js_string().unwrap();
        assert_eq!(s(json!(42)), "42");
        assert_eq!(s(json!(42.0)), "42");
        assert_eq!(s(json!(4.5)), "4.5");
        assert_eq!(s(json!(-3)), "-3");
        assert_eq!(s(json!(true)), "true");
        assert_eq!(Loose::Absent.js_string(), None);
    }

    #[test]
    fn integers_accept_numbers_and_numeric_strings() {
        assert_eq!(loose(json!(3)).integer(), Ok(Some(3)));
        assert_eq!(loose(json!("4")).integer(), Ok(Some(4)));
        assert_eq!(loose(json!(2.0)).integer(), Ok(Some(2)));
        assert_eq!(loose(json!("x")).integer(), Err("\"x\"".to_string()));
        assert_eq!(loose(json!(1.5)).integer(), Err("1.5".to_string()));
        assert_eq!(loose(json!(null)).integer(), Ok(None));
    }

    #[test]
    fn lists_come_as_arrays_or_json_strings() {
        assert!(matches!(loose(json!([1])).list(), ListParam::Items(v) if v.len() == 1));
        assert!(matches!(loose(json!("[1, 2]")).list(), ListParam::Items(v) if v.len() == 2));
        assert_eq!(loose(json!("{}")).list(), ListParam::NotList);
        assert!(matches!(loose(json!("[")).list(), ListParam::BadJson(_)));
        assert_eq!(loose(json!(3)).list(), ListParam::Missing);
        assert_eq!(Loose::Absent.list(), ListParam::Missing);
    }

    #[test]
    fn pairs_and_unsigned_counts() {
        assert_eq!(loose(json!([1, "-1"])).integer_pair(), Some((1, -1)));
        assert_eq!(loose(json!("[2, 5]")).integer_pair(), Some((2, 5)));
        assert_eq!(loose(json!([1, null])).integer_pair(), None);
        assert_eq!(loose(json!([1, 2, 3])).integer_pair(), None);
        assert_eq!(loose(json!(" 7 ")).unsigned(), Some(7));
        assert_eq!(loose(json!(-1)).unsigned(), None);
        assert_eq!(loose(json!(true)).unsigned(), None);
    }

    #[test]
    fn json_text_quotes_strings() {
        assert_eq!(loose(json!("a\"b")).json_text(), "\"a\\\"b\"");
        assert_eq!(loose(json!({"k": 1})).json_text(), "{\"k\":1}");
        assert_eq!(loose(json!([1, 2])).js_string().as_deref(), Some("1,2"));
    }
}
