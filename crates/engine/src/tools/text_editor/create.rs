//! `create`: writes a new file with `file_text` (parent directories created). Refuses a path
//! that exists; never overwrites.

use super::Call;
use crate::fs::atomic::{create_parent_dirs, WriteMode};
use crate::fs::FsError;
use crate::tools::errors::describe;
use crate::tools::history::Recorded;
use crate::tools::params::{field, Field};
use serde_json::Value;

pub(super) fn run(call: &Call, params: &Value) -> String {
    let content = match field(params, "file_text") {
        Field::Str(s) => s,
        Field::Absent => return "Error: Parameter `file_text` is required for command: create (the full content of the new file; \"\" for an empty file).".to_string(),
        Field::Other(_) => return "Error: Parameter `file_text` must be a string for command: create.".to_string(),
    };
    let path = match call.resolve_writable() {
        Ok(p) => p,
        Err(message) => return message,
    };
    let display = call.ctx.display(&path);
    if content.len() as u64 > call.ctx.max_file_bytes {
        let e = FsError::TooLarge {
            display,
            size: content.len() as u64,
            max: call.ctx.max_file_bytes,
        };
        return format!("Error: {}", describe(&e));
    }
    if let Err(e) = crate::tools::session::refuse_nul(content.as_bytes(), &display) {
        return format!("Error: {}", describe(&e));
    }
    let _lock = match call.ctx.lock(&path) {
        Ok(lock) => lock,
        Err(e) => return format!("Error: {}", describe(&e)),
    };
    if std::fs::symlink_metadata(&path.real).is_ok() || path.real.exists() {
        return format!("Error: File already exists at: {}. Cannot overwrite files using command `create`. Use str_replace or insert to change it.", call.path);
    }
    let recorded = Recorded {
        previous: None,
        written: content.as_bytes(),
        tool: call.version.tool_name(),
        txn: None,
    };
    let written = create_parent_dirs(&path.real, &display).and_then(|()| {
        call.ctx
            .write_recorded(&path, WriteMode::CreateNew, &recorded)
    });
    match written {
        Ok(note) => format!("File created successfully at: {}{note}", call.path),
        Err(e) => format!("Error: {}", describe(&e)),
    }
}
