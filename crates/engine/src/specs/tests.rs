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

fn host(read: Option<&str>, search: Option<&str>, create: Option<&str>) -> HostTools {
    HostTools {
        read: read.map(String::from),
        search: search.map(String::from),
        create: create.map(String::from),
    }
}

#[test]
fn probe_tools_keep_probe_sentences() {
    let probe = HostTools::default();
    assert_eq!(
        probe.read_lead("a.js", "a.js#f", true),
        "Use the extract tool with targets=\"a.js#f\" to re-read"
    );
    assert_eq!(probe.use_search_or_read(), "Use 'search' or 'extract' to");
    assert_eq!(probe.line_source(), "extract/search output");
    assert_eq!(
        probe.find_or_create(),
        " Use 'search' to find files by name, or 'create' to make a new file."
    );
}

#[test]
fn host_tools_are_named_and_missing_ones_left_out() {
    let view_grep = host(Some("view"), Some("grep"), None);
    assert_eq!(
        view_grep.read_lead("a#b.js", "a#b.js", false),
        "Use the view tool with path=\"a#b.js\" to read"
    );
    assert_eq!(view_grep.use_search_or_read(), "Use 'grep' or 'view' to");
    assert_eq!(view_grep.line_source(), "view/grep output");
    assert_eq!(view_grep.find_or_create(), " Use 'grep' to find files.");
    let none = host(None, None, None);
    assert_eq!(none.read_lead("a.js", "a.js", true), "Re-read");
    assert_eq!(none.use_read(), "Re-read the file to");
    assert_eq!(none.line_source(), "the file");
    assert_eq!(none.find_or_create(), "");
    assert!(none
        .edited_unread(3)
        .contains("Re-read the file to re-read the current file content"));
}
