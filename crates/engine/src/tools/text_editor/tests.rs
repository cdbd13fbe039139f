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
fn each_version_round_trips_through_its_date_and_its_tool_type() {
    for v in Version::ALL {
        assert_eq!(Version::from_name(v.as_str()), Some(v));
        assert_eq!(Version::from_name(&v.tool_type()), Some(v));
    }
    assert_eq!(Version::V20250728.tool_type(), "text_editor_20250728");
    assert_eq!(Version::from_name("text_editor_2024"), None);
    assert_eq!(Version::from_name("editor_20250124"), None);
}

/// A context over `root` with `protected` as `protectedPaths`.
fn listing_context(root: &std::path::Path, protected: &[&str]) -> crate::tools::ToolContext {
    let root_s = root.to_string_lossy().into_owned();
    let options = crate::tools::ToolOptions {
        allowed_folders: vec![root_s.clone()],
        cwd: Some(root_s),
        protected_paths: protected.iter().map(|p| p.to_string()).collect(),
        history: crate::history::recording::HistoryOption::Off,
        ..Default::default()
    };
    crate::tools::ToolContext::new(&options, None).unwrap()
}

/// Listings leave out names under `protectedPaths`, and show names that are not UTF-8 escaped
/// (two such names never look alike, and neither is shown as another file's name).
#[test]
fn listings_hide_protected_names_and_escape_non_utf8_names() {
    use std::os::unix::ffi::OsStrExt;
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("secret.env"), "k").unwrap();
    std::fs::create_dir(ws.path().join("sub")).unwrap();
    std::fs::write(ws.path().join("sub/key.env"), "k").unwrap();
    std::fs::write(ws.path().join("open.txt"), "o").unwrap();
    for raw in [&b"x\xfe"[..], &b"x\xff"[..]] {
        std::fs::write(ws.path().join(std::ffi::OsStr::from_bytes(raw)), "n").unwrap();
    }
    let ctx = listing_context(ws.path(), &["*.env"]);
    let out = run(
        &ctx,
        &TextEditorOptions::default(),
        &serde_json::json!({ "command": "view", "path": "." }),
    );
    assert!(out.contains("open.txt"), "{out}");
    assert!(
        !out.contains("secret.env") && !out.contains("key.env"),
        "{out}"
    );
    assert!(out.contains("x\\xFE") && out.contains("x\\xFF"), "{out}");
    assert!(!out.contains('\u{FFFD}'), "{out}");
}

/// A hard link in the workspace to another user's file is not read; the user's own linked
/// files (package stores) are.
#[test]
fn a_hard_link_to_another_users_file_is_not_read() {
    let ws = tempfile::tempdir().unwrap();
    let links = crate::fs::textfile::hard_links_to_foreign_and_own(
        ws.path(),
        "someone else's secret\n",
        "mine\n",
    );
    let Some(_outside) = links else {
        return; // giving a file to another user needs root
    };
    let ctx = listing_context(ws.path(), &[]);
    let out = run(
        &ctx,
        &TextEditorOptions::default(),
        &serde_json::json!({ "command": "view", "path": "link.txt" }),
    );
    assert!(out.starts_with("Error") && !out.contains("secret"), "{out}");
    let out = run(
        &ctx,
        &TextEditorOptions::default(),
        &serde_json::json!({ "command": "view", "path": "own.txt" }),
    );
    assert!(out.contains("mine"), "{out}");
}

/// A view of `a.txt` holding `content`, with `options` and the extra `params`.
fn view_of(content: &str, options: &TextEditorOptions, params: serde_json::Value) -> String {
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("a.txt"), content).unwrap();
    let ctx = listing_context(ws.path(), &[]);
    let mut call = serde_json::json!({ "command": "view", "path": "a.txt" });
    if let (Some(call), serde_json::Value::Object(extra)) = (call.as_object_mut(), params) {
        call.extend(extra);
    }
    run(&ctx, options, &call)
}

fn limit(max: u64) -> TextEditorOptions {
    TextEditorOptions {
        max_characters: Some(max),
        ..TextEditorOptions::default()
    }
}

/// Every version cuts a view at a line end within the limit (numbering included) and says
/// where, with the `view_range` of the rest.
#[test]
fn views_are_cut_at_a_line_end_within_max_characters() {
    let ten = "abcdefghij\n".repeat(10);
    // Each numbered line is 6 + 1 + 10 + 1 = 18 characters: 40 leaves room for two.
    let out = view_of(&ten, &limit(40), serde_json::json!({}));
    assert_eq!(out, "Here's the result of running `cat -n` on a.txt:\n     1\tabcdefghij\n     2\tabcdefghij\n[truncated at line 2 of 10; view_range [3, -1] shows more]");
    let out = view_of(
        &ten,
        &limit(36),
        serde_json::json!({ "view_range": [3, 8] }),
    );
    assert!(
        out.ends_with("     3\tabcdefghij\n     4\tabcdefghij\n[truncated at line 4 of 10; view_range [5, 8] shows more]"),
        "{out}"
    );
    assert!(!view_of(&ten, &limit(180), serde_json::json!({})).contains("truncated"));
    for version in ["20250124", "20250429", "20250728"] {
        let options = TextEditorOptions {
            version: Some(version.into()),
            max_characters: Some(20),
        };
        let out = view_of(&ten, &options, serde_json::json!({}));
        assert!(
            out.ends_with("[truncated at line 1 of 10; view_range [2, -1] shows more]"),
            "{version}: {out}"
        );
    }
}

/// The call's `max_characters` wins over the tool's; without either the limit is 100,000.
#[test]
fn the_calls_max_characters_wins_and_the_default_is_a_hundred_thousand() {
    let ten = "abcdefghij\n".repeat(10);
    let out = view_of(
        &ten,
        &limit(40),
        serde_json::json!({ "max_characters": 60 }),
    );
    assert!(
        out.ends_with("[truncated at line 3 of 10; view_range [4, -1] shows more]"),
        "{out}"
    );
    let many = "abcdefghij\n".repeat(20_000);
    let out = view_of(&many, &TextEditorOptions::default(), serde_json::json!({}));
    // 100,000 / 18 = 5555 whole lines.
    assert!(out.ends_with("\n  5555\tabcdefghij\n[truncated at line 5555 of 20000; view_range [5556, -1] shows more]"), "{}", &out[out.len() - 200..]);
    assert_eq!(DEFAULT_MAX_CHARACTERS, 100_000);
}

/// A first line longer than the limit is not cut inside: the note says how to see it.
#[test]
fn a_line_longer_than_the_limit_is_named_not_cut() {
    let out = view_of(
        &format!("{}\nshort\n", "w".repeat(500)),
        &limit(100),
        serde_json::json!({}),
    );
    assert_eq!(out, "Here's the result of running `cat -n` on a.txt:\n\n[truncated before line 1 of 2: that line alone is 500 characters, over the 100-character limit; view it with a larger max_characters]");
}
