//! Text mode: exact match first, then the fuzzy cascade (Probe's three strategies, then ours), then
//! the slips models make around whole lines and fragments; ambiguity, scope and no-op guards;
//! "already applied" when a fuzzy match already holds `new_string`; "did you mean" when nothing
//! matches.

mod slips;

use super::{EditCall, EditParams, Planned, TrackerEffect};
use crate::common_ends::KnownEnds;
use crate::fs::endings::carry_endings;
use crate::fs::textfile::TextFile;
use crate::fs::ResolvedPath;
use crate::specs::HostTools;
use crate::text::fit::style_around;
use crate::text::{closest_region, FitRefusal, Fitted, Region, Strategy};
use crate::text::{lf_view, line_span, locate, Located, Restriction};
use crate::tools::outcome::{ErrorKind, ToolError};
use crate::tools::params::Loose;
use crate::tools::ToolContext;
use std::borrow::Cow;
use std::ops::Range;

const EMPTY_OLD_STRING: &str = "Error editing file: Invalid old_string - it is empty, so there is nothing to find. Copy the exact text to replace from the file, or use start_line with position=\"before\"/\"after\" to insert new lines.";
const NO_CHANGES: &str = "Error editing file: No changes made - the replacement result is identical to the original. Verify that old_string and new_string are actually different. If fuzzy matching was used, the matched text may already equal new_string.";
/// Most candidate regions listed in an ambiguity error.
const LISTED_CANDIDATES: usize = 10;

pub(crate) struct TextRequest<'a> {
    old_string: &'a str,
    replace_all: bool,
    restriction: Restriction,
    /// `expected_replacements`: the exact number of occurrences to replace (all of them).
    expected: Option<usize>,
}

/// Text mode's params, checked without the file: a non-empty `old_string` and a known
/// `match_strategy`; a bad `expected_replacements` is refused after the tracker's guard.
pub(crate) struct TextParams {
    old_string: String,
    replace_all: bool,
    restriction: Restriction,
    expected: Result<Option<usize>, String>,
}

/// Checks `old_string` (a string) and `match_strategy`, and reads the rest.
pub(super) fn params(params: &EditParams, old_string: &str) -> Result<TextParams, ToolError> {
    if old_string.is_empty() {
        return Err(ToolError::bad_param(EMPTY_OLD_STRING));
    }
    let restriction = match &params.match_strategy {
        Loose::Absent => Restriction::Any,
        Loose::Str(name) => {
            Restriction::parse(name).ok_or_else(|| ToolError::bad_param(bad_strategy(name)))?
        }
        other => return Err(ToolError::bad_param(bad_strategy(&other.json_text()))),
    };
    Ok(TextParams {
        old_string: old_string.to_string(),
        replace_all: params.replace_all.flag(false),
        restriction,
        expected: super::expected_count::parse(&params.expected_replacements),
    })
}

/// Validates a text-mode call against the tracker's consecutive-edit guard, then
/// `expected_replacements`.
pub(super) fn request<'a>(
    ctx: &ToolContext,
    path: &ResolvedPath,
    params: &'a TextParams,
) -> Result<TextRequest<'a>, ToolError> {
    if let Some(tracker) = &ctx.tracker {
        let check = tracker.check_text_edit_staleness(&path.lexical);
        if !check.ok {
            let shown = ctx.display(path);
            let message = ctx
                .host_tools
                .edited_unread(check.edit_count.unwrap_or_default());
            let read = ctx.host_tools.read_lead(&shown, &shown, true);
            return Err(ToolError::new(
                ErrorKind::Stale,
                format!("Error editing {shown}: {message}\n\n{read} the file, then retry."),
            ));
        }
    }
    let expected = params.expected.clone().map_err(ToolError::bad_param)?;
    Ok(TextRequest {
        old_string: &params.old_string,
        replace_all: params.replace_all || expected.is_some(),
        restriction: params.restriction,
        expected,
    })
}

fn bad_strategy(name: &str) -> String {
    let known: Vec<&str> = Strategy::ALL.map(|s| s.as_str()).to_vec();
    format!("Error editing file: Invalid match_strategy \"{name}\" - use \"exact\" or one of: {}. Omit it to allow every strategy.", known.join(", "))
}

pub(super) fn plan(
    call: &EditCall,
    request: &TextRequest,
    file: &TextFile,
) -> Result<Planned, ToolError> {
    let content = file.text.as_str();
    let old = file.to_view(request.old_string);
    // The content is an LF view: new_string's line endings become the file's on write.
    let new = lf_view(call.new_string);
    let (located, old, new) = match locate(content, &old, request.restriction) {
        Some(located) => (located, old, new),
        None => match slips::without_blank_edges(content, &old, &new, request.restriction) {
            Some((located, core, new)) => (located, Cow::Owned(core), Cow::Owned(new)),
            None => {
                return slips::unmatched(call.file_path, content, &old, &new).unwrap_or_else(|| {
                    Err(ToolError::new(
                        ErrorKind::NotFound,
                        not_found(call.file_path, content, &old, &call.ctx.host_tools),
                    ))
                })
            }
        },
    };
    if let Some(n) = request.expected.filter(|n| *n != located.regions.len()) {
        let lines: Vec<usize> = located
            .regions
            .iter()
            .map(|r| line_span(content, r).0)
            .collect();
        let message = super::expected_count::mismatch(call.file_path, n, &lines);
        return Err(ToolError::new(ErrorKind::Ambiguous, message));
    }
    if !request.replace_all && located.regions.len() > 1 {
        return Err(ToolError::new(
            ErrorKind::Ambiguous,
            ambiguity(call.file_path, content, &located),
        ));
    }
    let chosen = if request.replace_all {
        &located.regions[..]
    } else {
        &located.regions[..1]
    };
    check_scope(content.get(chosen[0].clone()).unwrap_or(""), &new)
        .map_err(ToolError::bad_param)?;
    let fitted = fit_each(content, chosen, located.strategy, &old, &new)
        .map_err(|(region, refusal)| fit_refused(call.file_path, content, region, refusal))?;
    let new_text = splice(content, chosen, &fitted);
    if new_text == content {
        let last = chosen[chosen.len() - 1].end;
        let meant = &fitted[0].meant;
        return match located.strategy.is_some() && slips::changes_text(&old, meant) {
            true => Ok(slips::already_applied(
                call.file_path,
                content,
                &(chosen[0].start..last),
            )),
            false => Err(ToolError::bad_param(NO_CHANGES)),
        };
    }
    let count = chosen.len();
    let plural = if count != 1 { "s" } else { "" };
    let via = located
        .strategy
        .map(|s| format!(", matched via {}", s.as_str()))
        .unwrap_or_default();
    let message = format!(
        "Successfully edited {} ({count} replacement{plural}{via})",
        call.file_path
    );
    let replaced = chosen[0].start..chosen[chosen.len() - 1].end;
    Ok(Planned {
        new_text,
        message,
        effect: TrackerEffect::TextEdit,
        reparse: None,
        known: KnownEnds::around(content.len(), replaced),
    })
}

/// Each region's replacement: `new` as given after an exact match (`strategy: None`), else
/// fitted by the strategy that matched ([`Strategy::fit`]) in the indentation style read around
/// the first region. A refusal comes with the region it concerns.
fn fit_each<'r, 'n>(
    content: &str,
    regions: &'r [Range<usize>],
    strategy: Option<Strategy>,
    old: &str,
    new: &'n str,
) -> Result<Vec<Fitted<'n>>, (&'r Range<usize>, FitRefusal)> {
    let Some(strategy) = strategy else {
        let as_given = || Fitted {
            text: new.to_string(),
            meant: Cow::Borrowed(new),
        };
        return Ok(regions.iter().map(|_| as_given()).collect());
    };
    let style = style_around(content, regions.first().map_or(0, |r| r.start));
    regions
        .iter()
        .map(|r| {
            let region = Region::at(content, r.clone(), style);
            strategy
                .fit(&region, old, new)
                .map_err(|refusal| (r, refusal))
        })
        .collect()
}

/// The refusal of a fit, as the model reads it.
fn fit_refused(
    file_path: &str,
    content: &str,
    region: &Range<usize>,
    refusal: FitRefusal,
) -> ToolError {
    let FitRefusal::LinesDiffer { shown } = refusal;
    let first_line = line_span(content, region).0;
    let last_line = first_line + content[region.clone()].split('\n').count() - 1;
    let message = format!("Error editing file: Lines differ - old_string matched lines {first_line}-{last_line} of {file_path} only by its first and last lines, and the lines between differ from the file where your edit changes them (or they do not line up), so it is unclear what to change; nothing was changed. Your old_string's lines (-) against the file's (+):\n```diff\n{shown}```\nCopy these lines from the file into old_string exactly (read lines {first_line}-{last_line} again), write new_string from them, then retry.");
    ToolError::new(ErrorKind::NotFound, message)
}

/// The content with each region replaced by its fitted text, kept off the lines around it
/// ([`keep_boundaries`]), its line breaks given the endings of the lines it replaces
/// ([`carry_endings`]).
fn splice(content: &str, regions: &[Range<usize>], fitted: &[Fitted]) -> String {
    let added: usize = fitted.iter().map(|f| f.text.len()).sum();
    let mut out = String::with_capacity(content.len() + added);
    let mut at = 0;
    for (region, fitted) in regions.iter().zip(fitted) {
        out.push_str(&content[at..region.start]);
        let kept = keep_boundaries(content, region, &fitted.text);
        out.push_str(&carry_endings(content, region.clone(), &kept));
        at = region.end;
    }
    out.push_str(&content[at..]);
    out
}

/// The boundary rule: a line break that opens (or closes) the replaced text is kept when a
/// non-empty `new` does not have one there and dropping it would join the text before (after) the
/// region, on the same line, to `new`; lines the caller did not touch are never joined. An empty
/// `new` removes the text with its line breaks (whole lines are deleted).
fn keep_boundaries(content: &str, region: &Range<usize>, new: &str) -> String {
    let region_text = &content[region.clone()];
    if new.is_empty() {
        return String::new();
    }
    let bytes = content.as_bytes();
    let text_before = region.start > 0 && bytes[region.start - 1] != b'\n';
    let text_after = region.end < bytes.len() && bytes[region.end] != b'\n';
    let lead = text_before && region_text.starts_with('\n') && !new.starts_with('\n');
    let trail = text_after && region_text.ends_with('\n') && !new.ends_with('\n');
    let mut out = String::with_capacity(new.len() + 2);
    if lead {
        out.push('\n');
    }
    out.push_str(new);
    if trail {
        out.push('\n');
    }
    out
}

/// Probe's not-found message (pointing to the host's `tools`), plus the closest region of the
/// file when one is similar enough.
fn not_found(file_path: &str, content: &str, old: &str, tools: &HostTools) -> String {
    let read = tools.use_search_or_read();
    let mut message = format!("Error editing file: String not found - the specified old_string was not found in {file_path}. The text may have changed or differ from what you expected. Try: (1) {read} read the current file content and copy the exact text. (2) Use the symbol parameter to edit by function/class name instead. (3) Verify the file_path is correct.");
    if let Some(close) = closest_region(content, old) {
        let lines = match (close.start_line, close.end_line) {
            (a, b) if a == b => format!("line {a}"),
            (a, b) => format!("lines {a}-{b}"),
        };
        message.push_str(&format!(
            "\n\nDid you mean {lines} (similarity {:.2})? Diff from your old_string to the file:\n```diff\n{}```",
            close.score,
            ensure_newline(&close.diff)
        ));
    }
    message
}

fn ensure_newline(s: &str) -> String {
    if s.ends_with('\n') {
        s.to_string()
    } else {
        format!("{s}\n")
    }
}

/// Probe's multiple-occurrences error for identical candidates; for candidates that differ
/// (e.g. other indentation), an error listing where each one is.
fn ambiguity(file_path: &str, content: &str, located: &Located) -> String {
    let n = located.regions.len();
    if located.identical {
        return format!("Error editing file: Multiple occurrences found - the old_string appears {n} times in {file_path}. To fix: (1) Set replace_all=true to replace all occurrences, or (2) Include more surrounding lines in old_string to make the match unique (add the full line or adjacent lines for context).");
    }
    let strategy = located.strategy.map(|s| s.as_str()).unwrap_or("exact");
    let spans: Vec<String> = located
        .regions
        .iter()
        .take(LISTED_CANDIDATES)
        .map(|r| match line_span(content, r) {
            (a, b) if a == b => format!("line {a}"),
            (a, b) => format!("lines {a}-{b}"),
        })
        .collect();
    let more = if n > LISTED_CANDIDATES {
        format!(" and {} more", n - LISTED_CANDIDATES)
    } else {
        String::new()
    };
    format!("Error editing file: Ambiguous match - the old_string matches {n} different places in {file_path} via {strategy} ({}{more}); nothing was changed. To fix: (1) Include more surrounding lines or the exact indentation in old_string so only one place matches, or (2) set replace_all=true to replace every one of them.", spans.join(", "))
}

/// Probe's over-scope guard: 20+ matched lines replaced by fewer than half as many.
fn check_scope(matched: &str, new: &str) -> Result<(), String> {
    let old_lines = matched.split('\n').count();
    let new_lines = new.split('\n').count();
    if old_lines >= 20 && (new_lines as f64) < old_lines as f64 * 0.5 {
        return Err(format!("Error editing file: Edit scope too large — replacing {old_lines} lines with {new_lines} lines risks accidental content deletion. To fix: (1) Use line-targeted editing (start_line/end_line) instead to constrain scope, or (2) Split into smaller, focused edits that each target only the lines you intend to change."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{fit_each, fit_refused, keep_boundaries};
    use crate::text::{FitRefusal, Strategy};

    fn replace(content: &str, old: &str, new: &str) -> String {
        let start = content.find(old).unwrap();
        let kept = keep_boundaries(content, &(start..start + old.len()), new);
        format!(
            "{}{kept}{}",
            &content[..start],
            &content[start + old.len()..]
        )
    }

    #[test]
    fn boundary_line_breaks_never_join_untouched_lines() {
        assert_eq!(replace("a;\nfoo\nc;\n", "\nfoo\n", "bar"), "a;\nbar\nc;\n");
        assert_eq!(replace("a;\nfoo\nc;\n", "foo\n", "bar"), "a;\nbar\nc;\n");
        assert_eq!(replace("a;\nfoo\nc;\n", "foo\n", ""), "a;\nc;\n");
        assert_eq!(replace("a;\nfoo\nc;\n", "\nfoo", ""), "a;\nc;\n");
        // A blank line the caller replaced goes: nothing is joined without it.
        assert_eq!(replace("a;\n\nfoo\nc;\n", "\nfoo", "bar"), "a;\nbar\nc;\n");
    }

    #[test]
    fn exact_matches_are_never_fitted() {
        let (inner, whole) = (4..8, 0..8);
        let fitted = fit_each(
            "    a();",
            std::slice::from_ref(&inner),
            None,
            "a();",
            "b();",
        )
        .unwrap();
        assert_eq!(fitted[0].text, "b();");
        let trimmed = Some(Strategy::LineTrimmed);
        let fitted = fit_each(
            "    a();",
            std::slice::from_ref(&whole),
            trimmed,
            "a();",
            "b();",
        );
        assert_eq!(fitted.unwrap()[0].text, "    b();");
    }

    /// A block-anchor refusal names the region's lines and shows the lines that differ.
    #[test]
    fn a_fit_refusal_names_the_regions_lines() {
        let content = "x\ny\n  def handle(msg) do\n    # send(\"a\")\n    x = 1\n  end\n";
        let old = "def handle(msg) do\n  # send(\"b\")\n  x = 1\nend";
        let new = "def handle(msg) do\n  send(\"c\")\n  x = 1\nend";
        let region = 4..content.len() - 1;
        let regions = std::slice::from_ref(&region);
        let anchored = Some(Strategy::BlockAnchor);
        let (at, refusal) = fit_each(content, regions, anchored, old, new).unwrap_err();
        let shown = "-  # send(\"b\")\n+    # send(\"a\")\n".to_string();
        assert_eq!(
            refusal,
            FitRefusal::LinesDiffer {
                shown: shown.clone()
            }
        );
        let message = fit_refused("f.ex", content, at, refusal).text;
        assert!(
            message.contains("old_string matched lines 3-6 of f.ex only"),
            "{message}"
        );
        assert!(
            message.contains(&format!("```diff\n{shown}```")),
            "{message}"
        );
    }
}
