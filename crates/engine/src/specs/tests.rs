use super::*;
use serde_json::Value;

fn table() -> Vec<Value> {
    match serde_json::from_str(&to_json()).unwrap() {
        Value::Array(specs) => specs,
        other => panic!("not an array: {other}"),
    }
}

#[test]
fn names_are_unique_and_found() {
    for spec in ALL {
        assert_eq!(
            ALL.iter().filter(|s| s.name == spec.name).count(),
            1,
            "{}",
            spec.name
        );
        assert_eq!(find(spec.name).map(|s| s.factory), Some(spec.factory));
    }
    assert!(find("no_such_tool").is_none());
}

#[test]
fn input_schema_lists_the_model_params_in_order_and_no_host_param() {
    let edit = &table()[2];
    assert_eq!(edit["name"], "edit");
    let properties = edit["inputSchema"]["properties"].as_object().unwrap();
    assert_eq!(properties.len(), 10);
    assert!(!properties.contains_key("workingDirectory"));
    let json = to_json();
    assert!(json.contains(r#""inputSchema":{"type":"object","properties":{"file_path":{"type":"string","description":"#));
    assert_eq!(
        edit["inputSchema"]["required"],
        serde_json::json!(["file_path", "new_string"])
    );
    assert_eq!(edit["inputSchema"]["additionalProperties"], false);
    let params = edit["params"].as_array().unwrap();
    assert_eq!(params.last().unwrap()["givenBy"], "host");
}

#[test]
fn key_order_is_kept() {
    let json = to_json();
    let view = &json[json.find("\"view_range\":{").unwrap()..];
    assert!(view.starts_with(r#""view_range":{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2,"description":"#));
    let replacements = &json[json.find("\"replacements\":{").unwrap()..];
    assert!(replacements.starts_with(r#""replacements":{"type":"array","description":"#));
}

#[test]
fn every_param_is_described_and_every_spec_has_texts() {
    for spec in ALL {
        assert!(
            !spec.summary.is_empty() && spec.description.starts_with(spec.summary),
            "{}",
            spec.name
        );
        for p in spec.params {
            assert!(!p.description.is_empty(), "{}.{}", spec.name, p.name);
        }
    }
}
