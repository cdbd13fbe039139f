//! The guard's words: problems described, the note a reply ends with, the refusal.

use super::cause::{likely_cause, line_at, shorten, Change};
use super::problems::Kind;
use super::scope::Errors;
use super::{Problem, Verdict};
use crate::symbols::Language;

/// Longest snippet shown, in characters.
const SNIPPET_CHARS: usize = 80;

/// The first `max` introduced errors of `found` as [`Problem`]s, one per line.
pub(crate) fn describe_all(
    lang: Language,
    before: &str,
    after: &str,
    found: &Errors,
    max: usize,
) -> Vec<Problem> {
    let change = Change::of(before, after, &found.window);
    let mut problems: Vec<Problem> = Vec::new();
    // An indentation rule, where broken, is the cause of whatever else goes wrong on its line.
    let (indent, other): (Vec<_>, Vec<_>) = found
        .introduced
        .iter()
        .partition(|p| matches!(p.kind, Kind::Indent(_)));
    for p in indent.into_iter().chain(other) {
        // An ERROR that wraps the edit from an earlier line is shown where the edit is.
        let w = &found.window;
        let at = if p.start < w.start && p.end > w.start {
            w.start
        } else {
            p.start
        };
        let at = at.min(after.len());
        let line = 1 + memchr::memchr_iter(b'\n', &after.as_bytes()[..at]).count();
        if problems.iter().any(|q| q.line == line) {
            continue;
        }
        if problems.len() == max {
            break;
        }
        problems.push(Problem {
            line,
            snippet: shorten(line_at(after, at).trim(), SNIPPET_CHARS),
            cause: likely_cause(lang, after, p, &change),
        });
    }
    problems.sort_by_key(|p| p.line);
    problems
}

fn listing(problems: &[Problem], total: usize) -> String {
    let mut out = String::new();
    for p in problems {
        out.push_str(&format!(
            "\n- line {}: {} — `{}`",
            p.line, p.cause, p.snippet
        ));
    }
    if total > problems.len() {
        out.push_str(&format!("\n- ... and {} more", total - problems.len()));
    }
    out
}

fn errors(total: usize) -> String {
    format!("{total} syntax error{}", if total == 1 { "" } else { "s" })
}

/// The text a successful write's reply ends with: introduced errors, or that the check was skipped.
pub(crate) fn note(verdict: &Verdict, display: &str) -> String {
    match verdict {
        Verdict::Introduced {
            language,
            problems,
            total,
        } => format!(
            "\n\nSyntax check: this edit introduced {} in {display} ({}); fix {} in your next call:{}",
            errors(*total),
            language.name(),
            if *total == 1 { "it" } else { "them" },
            listing(problems, *total)
        ),
        Verdict::Skipped { bytes, max_bytes } => format!(
            "\n\nSyntax check skipped: {display} is {} KB, above syntaxCheckMaxBytes ({} KB).",
            bytes.div_ceil(1024),
            max_bytes / 1024
        ),
        Verdict::Unchecked | Verdict::Clean => String::new(),
    }
}

/// The refusal of a write whose verdict lists introduced errors (`None` otherwise).
pub(crate) fn refusal(verdict: &Verdict, display: &str) -> Option<String> {
    let Verdict::Introduced {
        language,
        problems,
        total,
    } = verdict
    else {
        return None;
    };
    Some(format!(
        "the edit was not applied: it would introduce {} in {display} ({}):{}\nThe file is unchanged. Fix the new text so that the code parses and send the call again; if the text is meant to be so (a partial file, syntax the {} parser does not know), the tool's syntaxCheck option can be set to 'warn' or 'off'",
        errors(*total),
        language.name(),
        listing(problems, *total),
        language.name()
    ))
}
