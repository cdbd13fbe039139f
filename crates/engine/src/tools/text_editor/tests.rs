use super::*;

#[test]
fn versions_parse_with_or_without_prefix() {
    assert_eq!(Version::parse(None).unwrap(), Version::V20250124);
    assert_eq!(
        Version::parse(Some("text_editor_20250728")).unwrap(),
        Version::V20250728
    );
    assert_eq!(
        Version::parse(Some("20250429")).unwrap().tool_name(),
        "str_replace_based_edit_tool"
    );
    assert_eq!(Version::V20250124.tool_name(), "str_replace_editor");
    assert!(Version::parse(Some("2024"))
        .unwrap_err()
        .starts_with("Error: Unknown text editor version"));
    assert!(Version::V20250124.has_undo() && !Version::V20250728.has_undo());
}

#[test]
fn integers_accept_numbers_and_numeric_strings() {
    let p = serde_json::json!({ "a": 3, "b": "4", "c": 2.0, "d": "x", "e": 1.5, "f": null });
    assert_eq!(integer(&p, "a"), Ok(Some(3)));
    assert_eq!(integer(&p, "b"), Ok(Some(4)));
    assert_eq!(integer(&p, "c"), Ok(Some(2)));
    assert_eq!(integer(&p, "d"), Err("\"x\"".to_string()));
    assert!(integer(&p, "e").is_err());
    assert_eq!(integer(&p, "f"), Ok(None));
    assert_eq!(integer(&p, "zz"), Ok(None));
}
