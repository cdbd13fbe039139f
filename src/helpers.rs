//! Probe's pure helper functions, synchronous (they are cheap and do no I/O).

use edit_engine_core::{lines, text, tracker};
use napi_derive::napi;

/// `{ matchedText, strategy, count }` from `findFuzzyMatch`.
#[napi(object)]
pub struct FuzzyMatchResult {
    pub matched_text: String,
    pub strategy: String,
    pub count: u32,
}

/// `{ matchedText, count }` from one strategy.
#[napi(object)]
pub struct StrategyMatchResult {
    pub matched_text: String,
    pub count: u32,
}

#[napi(object)]
pub struct LineRefResult {
    pub line: f64,
    pub hash: Option<String>,
}

#[napi(object)]
pub struct HashValidation {
    pub valid: bool,
    pub actual_hash: String,
    pub actual_content: String,
}

#[napi(object)]
pub struct StripResult {
    pub cleaned: String,
    pub stripped: bool,
}

#[napi(object)]
pub struct CorrectionResult {
    pub result: String,
    pub modifications: Vec<String>,
}

#[napi(object)]
pub struct CleanResult {
    pub cleaned: String,
    pub modifications: Vec<String>,
}

fn strategy_result(
    content: &str,
    found: Option<text::StrategyMatch>,
) -> Option<StrategyMatchResult> {
    let found = found?;
    let first = found.regions.first()?.clone();
    Some(StrategyMatchResult {
        matched_text: content.get(first).unwrap_or_default().to_string(),
        count: found.regions.len() as u32,
    })
}

fn position(p: Option<String>) -> Option<lines::Position> {
    match p.as_deref() {
        Some("before") => Some(lines::Position::Before),
        Some("after") => Some(lines::Position::After),
        _ => None,
    }
}

#[napi]
pub fn compute_content_hash(content: Option<String>) -> String {
    tracker::compute_content_hash(content.as_deref().unwrap_or(""))
}

#[napi]
pub fn find_fuzzy_match(content: String, search_string: String) -> Option<FuzzyMatchResult> {
    text::find_fuzzy_match(&content, &search_string).map(|m| FuzzyMatchResult {
        matched_text: m.matched_text,
        strategy: m.strategy.as_str().to_string(),
        count: m.count as u32,
    })
}

#[napi]
pub fn line_trimmed_match(
    content_lines: Vec<String>,
    search_lines: Vec<String>,
) -> Option<StrategyMatchResult> {
    let (content, search) = (content_lines.join("\n"), search_lines.join("\n"));
    strategy_result(&content, text::line_trimmed_match(&content, &search))
}

#[napi]
pub fn whitespace_normalized_match(content: String, search: String) -> Option<StrategyMatchResult> {
    strategy_result(
        &content,
        text::whitespace_normalized_match(&content, &search),
    )
}

#[napi]
pub fn indent_flexible_match(
    content_lines: Vec<String>,
    search_lines: Vec<String>,
) -> Option<StrategyMatchResult> {
    let (content, search) = (content_lines.join("\n"), search_lines.join("\n"));
    strategy_result(&content, text::indent_flexible_match(&content, &search))
}

#[napi]
pub fn compute_line_hash(line: String) -> String {
    lines::compute_line_hash(&line)
}

#[napi]
pub fn parse_line_ref(reference: String) -> Option<LineRefResult> {
    lines::parse_line_ref(&reference).map(|r| LineRefResult {
        line: r.line as f64,
        hash: r.hash,
    })
}

#[napi]
pub fn validate_line_hash(line_num: i64, hash: String, file_lines: Vec<String>) -> HashValidation {
    let refs: Vec<&str> = file_lines.iter().map(String::as_str).collect();
    let c = lines::validate_line_hash(line_num, &hash, &refs);
    HashValidation {
        valid: c.valid,
        actual_hash: c.actual_hash,
        actual_content: c.actual_content,
    }
}

#[napi]
pub fn annotate_output_with_hashes(output: String) -> String {
    lines::annotate_output_with_hashes(&output)
}

#[napi]
pub fn strip_hashline_prefixes(text: String) -> StripResult {
    let (cleaned, stripped) = lines::strip_hashline_prefixes(&text);
    StripResult { cleaned, stripped }
}

#[napi]
pub fn strip_echoed_boundaries(
    new_str: String,
    file_lines: Vec<String>,
    start_line: u32,
    end_line: u32,
    position_name: Option<String>,
) -> CorrectionResult {
    let refs: Vec<&str> = file_lines.iter().map(String::as_str).collect();
    let c = lines::strip_echoed_boundaries(
        &new_str,
        &refs,
        start_line as usize,
        end_line as usize,
        position(position_name),
    );
    CorrectionResult {
        result: c.text,
        modifications: c.modifications,
    }
}

#[napi]
pub fn restore_indentation(new_str: String, original_lines: Vec<String>) -> CorrectionResult {
    let refs: Vec<&str> = original_lines.iter().map(String::as_str).collect();
    let c = lines::restore_indentation(&new_str, &refs);
    CorrectionResult {
        result: c.text,
        modifications: c.modifications,
    }
}

#[napi]
pub fn clean_new_string(
    new_str: String,
    file_lines: Vec<String>,
    start_line: u32,
    end_line: u32,
    position_name: Option<String>,
) -> CleanResult {
    let refs: Vec<&str> = file_lines.iter().map(String::as_str).collect();
    let c = lines::clean_new_string(
        &new_str,
        &refs,
        start_line as usize,
        end_line as usize,
        position(position_name),
    );
    CleanResult {
        cleaned: c.text,
        modifications: c.modifications,
    }
}

#[napi]
pub fn detect_base_indent(code: String) -> String {
    lines::detect_base_indent(&code).to_string()
}

#[napi]
pub fn reindent(new_content: String, target_indent: String) -> String {
    lines::reindent(&new_content, &target_indent)
}
