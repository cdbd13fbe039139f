//! `create`: writes a new file with `file_text` (parent directories created). Refuses a path
//! that exists; never overwrites.

use super::Call;
use crate::fs::FsError;
use crate::tools::apply::{Change, FileEdit, Recording};
use crate::tools::outcome::{ErrorKind, Outcome, ToolError};

pub(super) fn run(call: &Call, content: &str) -> Result<Outcome, ToolError> {
    let path = call.resolve_writable()?;
    let failure = |e: FsError| ToolError::fs("Error: ", &e, &call.ctx.host_tools);
    let display = call.ctx.display(&path);
    crate::tools::write_frame::refuse_nul(content.as_bytes(), &display).map_err(failure)?;
    let _lock = call.ctx.lock(&path).map_err(failure)?;
    if std::fs::symlink_metadata(&path.real).is_ok() || path.real.exists() {
        return Err(ToolError::new(ErrorKind::Exists, format!("Error: File already exists at: {}. Cannot overwrite files using command `create`. Use str_replace or insert to change it.", call.path)));
    }
    let file = FileEdit {
        path: &path,
        display: &display,
        before: None,
        after: Some(content.as_bytes()),
        texts: None,
    };
    let change = Change {
        files: vec![file],
        recording: Recording::Level(call.version.tool_name()),
    };
    let note = call.ctx.apply(&change).map_err(failure)?;
    call.ctx
        .after_write(&path, crate::tools::write_frame::TrackerEffect::Write);
    let text = format!("File created successfully at: {}{note}", call.path);
    Ok(Outcome::wrote(text, call.path))
}
