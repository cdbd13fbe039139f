//! Symbol mode: replace a definition found by name, or insert next to it (tree-sitter, in process).

use super::{parse_position, EditCall, EditParams, Planned, TrackerEffect};
use crate::common_ends::KnownEnds;
use crate::fs::textfile::TextFile;
use crate::fs::ResolvedPath;
use crate::lines::Position;
use crate::symbols::file_lookup::{find_in, parse_cache};
use crate::symbols::{self, Language, SymbolInfo};
use crate::tools::outcome::{ErrorKind, ToolError};

const INVALID_SYMBOL: &str = "Error editing file: Invalid symbol - must be a non-empty string. Provide the name of a function, class, method, or other named code definition (e.g. \"myFunction\" or \"MyClass.myMethod\"). To edit by text matching instead, use old_string + new_string.";
const INVALID_POSITION: &str = "Error editing file: Invalid position - must be \"before\" or \"after\". Use position=\"before\" to insert code above the symbol, or position=\"after\" to insert code below it. Omit position entirely to replace the symbol with new_string.";
/// Most names suggested when a symbol is not found.
const SUGGESTIONS: usize = 5;

/// `symbol` and `position`, checked without the file.
pub(crate) struct SymbolParams {
    name: String,
    position: Option<Position>,
}

pub(crate) struct SymbolRequest<'a> {
    name: &'a str,
    position: Option<Position>,
    language: Language,
}

/// Validates `symbol` and `position` (Probe's order and messages).
pub(super) fn params(params: &EditParams) -> Result<SymbolParams, String> {
    let name = match params.symbol.as_str() {
        Some(s) if !crate::text::js::js_trim(s).is_empty() => s.to_string(),
        _ => return Err(INVALID_SYMBOL.to_string()),
    };
    let position = parse_position(&params.position).map_err(|_| INVALID_POSITION.to_string())?;
    Ok(SymbolParams { name, position })
}

/// Adds the file's language (symbol mode needs a supported one) to the checked params.
pub(super) fn request<'a>(
    params: &'a SymbolParams,
    path: &ResolvedPath,
) -> Result<SymbolRequest<'a>, String> {
    let language = symbols::language_for_path_checked(&path.real).map_err(|e| {
        format!("Error editing file: {e}. Symbol mode supports JavaScript, TypeScript, Python, Rust, Go, Java, C, C++, Ruby, PHP, Swift, Kotlin, Scala, C#, Lua and Zig; for this file use old_string + new_string (text mode) or start_line (line-targeted mode) instead.")
    })?;
    Ok(SymbolRequest {
        name: &params.name,
        position: params.position,
        language,
    })
}

pub(super) fn plan(
    call: &EditCall,
    request: &SymbolRequest,
    file: &TextFile,
) -> Result<Planned, ToolError> {
    let content = file.text.as_str();
    let request = &SymbolRequest {
        language: symbols::refine_for_content(request.language, &call.path.real, content),
        ..*request
    };
    let found = find_in(&call.path.real, content, request.language, request.name).map_err(|e| {
        ToolError::new(ErrorKind::NotFound, format!("Error editing file: {e} in {}; the symbol could not be located safely. Fix the syntax error first, or use old_string + new_string (text mode) or start_line (line-targeted mode).", call.file_path))
    })?;
    let target = match found.as_slice() {
        [] => {
            return Err(ToolError::new(
                ErrorKind::NotFound,
                not_found(call, content, request),
            ))
        }
        [one] => one,
        many => match request.position {
            None => symbols::pick_by_shape(many, call.new_string).ok_or_else(|| {
                ToolError::new(
                    ErrorKind::Ambiguous,
                    duplicates(call.file_path, request.name, many),
                )
            })?,
            Some(_) => {
                let message = duplicates(call.file_path, request.name, many);
                return Err(ToolError::new(ErrorKind::Ambiguous, message));
            }
        },
    };
    if request.position.is_none() {
        if let Some(given) = symbols::shape_conflict(target, call.new_string) {
            return Err(ToolError::bad_param(kind_mismatch(
                call.file_path,
                request.name,
                target,
                given,
            )));
        }
    }
    check_stale(call, request.name, target).map_err(|m| ToolError::new(ErrorKind::Stale, m))?;
    let new_string = file.to_view(call.new_string);
    let plan = match request.position {
        None => symbols::plan_replace(content, target, &new_string),
        Some(p) => symbols::plan_insert(content, target, &new_string, p == Position::Before),
    };
    let (name, file_path) = (request.name, call.file_path);
    let message = match request.position {
        None => format!("Successfully replaced symbol \"{name}\" in {file_path} (was lines {}-{}, now {} lines)", target.start_line, target.end_line, plan.new_line_count),
        Some(p) => format!("Successfully inserted {} lines {} symbol \"{name}\" in {file_path} (at line {})", plan.new_line_count, p.as_str(), plan.insert_line),
    };
    let updated = call
        .ctx
        .tracker
        .as_ref()
        .and_then(|_| relocate(call, request, &plan.new_source));
    let effect = TrackerEffect::Symbol {
        name: name.to_string(),
        updated,
    };
    Ok(Planned {
        new_text: plan.new_source,
        message,
        effect,
        reparse: Some((request.language, plan.edit)),
        known: KnownEnds::NONE,
    })
}

/// The symbol's code and lines in the edited text (for chained edits), when it is still unique.
fn relocate(
    call: &EditCall,
    request: &SymbolRequest,
    new_source: &str,
) -> Option<(String, usize, usize)> {
    let found = find_in(&call.path.real, new_source, request.language, request.name).ok()?;
    match found.as_slice() {
        [one] => Some((one.code.clone(), one.start_line, one.end_line)),
        _ => None,
    }
}

fn not_found(call: &EditCall, content: &str, request: &SymbolRequest) -> String {
    let name = request.name;
    let inspect = call.ctx.host_tools.use_search_or_read();
    let mut message = format!("Error editing file: Symbol \"{name}\" not found in {}. Verify the symbol name matches a top-level function, class, method, or other named definition exactly as declared in the source. {inspect} inspect the file and find the correct symbol name. Alternatively, use old_string + new_string for text-based editing instead.", call.file_path);
    let all = parse_cache()
        .list_symbols(&call.path.real, content, request.language)
        .unwrap_or_default();
    let closest = symbols::closest_names(&all, name, SUGGESTIONS);
    if !closest.is_empty() {
        message.push_str(&format!(
            " Closest symbols in this file: {}.",
            closest.join(", ")
        ));
    }
    message
}

fn duplicates(file_path: &str, name: &str, many: &[SymbolInfo]) -> String {
    let list: Vec<String> = many
        .iter()
        .map(|m| {
            format!(
                "  - {} ({}, line {})",
                m.qualified_name, m.node_type, m.start_line
            )
        })
        .collect();
    let first = &many[0].qualified_name;
    if many.iter().all(|m| &m.qualified_name == first) {
        // One qualified name (both branches of an `#if`, overloads): only a line tells them apart.
        return format!(
            "Error editing {file_path}: Found {} symbols named \"{name}\", all with the qualified name \"{first}\" (overloads, or the branches of an #if). Add @LINE with the first line of the one you mean:\n{}\n\nExample: <edit><file_path>{file_path}</file_path><symbol>{first}@{}</symbol><new_string>...</new_string></edit>",
            many.len(),
            list.join("\n"),
            many[0].start_line
        );
    }
    format!(
        "Error editing {file_path}: Found {} symbols named \"{name}\". Use a qualified name to specify which one:\n{}\n\nExample: <edit><file_path>{file_path}</file_path><symbol>{}</symbol><new_string>...</new_string></edit>",
        many.len(),
        list.join("\n"),
        first
    )
}

fn kind_mismatch(file_path: &str, name: &str, target: &SymbolInfo, given: &str) -> String {
    format!(
        "Error editing {file_path}: new_string is {given} definition, but the only definition named \"{name}\" found is {} ({}, lines {}-{}); the one you mean could not be located (its syntax may not parse). Nothing was written. Use old_string + new_string (text mode) or start_line/end_line (line-targeted mode) instead.",
        target.qualified_name, target.node_type, target.start_line, target.end_line
    )
}

/// Probe's symbol staleness check against the tracker's recorded hash.
fn check_stale(call: &EditCall, name: &str, target: &SymbolInfo) -> Result<(), String> {
    let Some(tracker) = &call.ctx.tracker else {
        return Ok(());
    };
    let check = tracker.check_symbol_content(&call.path.lexical, name, &target.code);
    if check.ok || check.reason.as_deref() != Some("stale") {
        return Ok(());
    }
    let file_path = call.file_path;
    let read = (call.ctx.host_tools).read_lead(file_path, &format!("{file_path}#{name}"), true);
    Err(format!("Error editing {file_path}: Symbol \"{name}\" has changed since you last read it. {read} the current content, then retry."))
}
