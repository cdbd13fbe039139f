//! `grep` (seed 002) on a `NativeToolbox`: the toolbox's path policy confines the search, its
//! trackers learn the files a search returned.

use crate::task::ToolTask;
use crate::toolbox::NativeToolbox;
use edit_engine_core::search;
use napi::bindgen_prelude::AsyncTask;
use napi_derive::napi;
use serde_json::Value;

/// One grep call; resolves to ripgrep-style output, `No matches...`, or a string starting `Error`.
#[napi(
    ts_args_type = "toolbox: NativeToolbox, params: Record<string, unknown>",
    ts_return_type = "Promise<string>"
)]
pub fn toolbox_grep(toolbox: &NativeToolbox, params: Value) -> AsyncTask<ToolTask> {
    toolbox.task(params, search::run, "Error")
}
