//! One `edit` call on a file of a fresh workspace (history off), shared by the integration tests
//! that check what an edit leaves (`edit_fit.rs`, `symbols/`), by `#[path]`.

use edit_engine_core::history::recording::HistoryOption;
use edit_engine_core::tools::{edit, ToolContext, ToolOptions};
use serde_json::{json, Value};

/// Writes `name` holding `content` in a fresh workspace, runs one `edit` call with `params` (its
/// `file_path` set to `name`) and returns the reply and the file's text after the call.
pub fn edit_in(name: &str, content: &str, mut params: Value) -> (String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().to_string_lossy().into_owned();
    let options = ToolOptions {
        allowed_folders: vec![root.clone()],
        cwd: Some(root),
        history: HistoryOption::Off,
        ..ToolOptions::default()
    };
    let ctx = ToolContext::new(&options, None).expect("tool context");
    let path = dir.path().join(name);
    std::fs::write(&path, content).expect("write");
    params["file_path"] = json!(name);
    let reply = edit::run(&ctx, &params);
    (reply, std::fs::read_to_string(&path).expect("read"))
}
