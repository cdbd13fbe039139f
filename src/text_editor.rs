//! The text editor's versions and the symbol engine's languages, as the engine knows them: the
//! JS layer derives its tables (tool names, API types, docs checks) from these.

use edit_engine_core::symbols::ALL_LANGUAGES;
use edit_engine_core::tools::text_editor::Version;
use napi_derive::napi;

/// One text editor version: its date, the tool name the model calls, its Messages API tool type,
/// whether it has the `undo_edit` command and whether its definition advertises `max_characters`.
#[napi(object)]
pub struct TextEditorVersion {
    pub version: String,
    pub name: String,
    #[napi(js_name = "type")]
    pub tool_type: String,
    pub has_undo: bool,
    pub max_characters: bool,
}

/// Every text editor version, oldest first.
#[napi]
pub fn text_editor_versions() -> Vec<TextEditorVersion> {
    Version::ALL
        .into_iter()
        .map(|v| TextEditorVersion {
            version: v.as_str().to_string(),
            name: v.tool_name().to_string(),
            tool_type: v.tool_type(),
            has_undo: v.has_undo(),
            max_characters: v.has_max_characters(),
        })
        .collect()
}

/// The version date `name` names (`"20250728"` or `"text_editor_20250728"`; absent: the default
/// version), or null for an unknown name.
#[napi]
pub fn text_editor_version(name: Option<String>) -> Option<String> {
    Version::parse(name.as_deref())
        .ok()
        .map(|v| v.as_str().to_string())
}

/// The languages symbol edits and lookups support, by their written names, in a fixed order.
#[napi]
pub fn symbol_languages() -> Vec<String> {
    ALL_LANGUAGES
        .iter()
        .map(|l| l.display_name().to_string())
        .collect()
}
