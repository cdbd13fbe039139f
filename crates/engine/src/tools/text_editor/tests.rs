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
        history: crate::tools::history::HistoryOption::Off,
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
