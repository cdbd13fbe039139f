//! Seed 002's `grep`, built on ripgrep's crates: a regex search of a file or a directory tree
//! with context lines, ripgrep's file types, `.gitignore` rules and binary-file skipping.
//!
//! Contract of [`run`]:
//! - The search root (`path`, default the working directory) must lie inside an allowed folder;
//!   the walk never follows symlinks, so it cannot leave the root.
//! - Skipped: hidden files and directories, files matched by `.gitignore` / `.ignore` /
//!   `.git/info/exclude` (honoured with or without a `.git` directory), and binary files (a NUL
//!   byte seen: the whole file is dropped). A root given explicitly is always searched.
//! - Output is ripgrep's: `path:line:text` for matches, `path-line-text` for context lines, `--`
//!   between non-adjacent groups (and between files when context is on). Paths are the `path`
//!   argument joined with the file's path below it (as ripgrep prints them), or relative to the
//!   working directory when `path` is absent. Files come in path order. With `lineHashes`, line
//!   numbers become `N:hh` references that the line-targeted edit modes accept.
//! - No match: a sentence starting `No matches`. Failures start with `Error`.
//! - Every file with a match is recorded in the context's read tracker (with its current
//!   modification time) and marked seen in its `FileTracker`.

pub mod params;
pub mod sink;

use crate::fs::ResolvedPath;
use crate::tools::{errors::describe, ToolContext};
use crate::tracker::read_tracker::mtime_ms;
use grep_matcher::LineTerminator;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, SearcherBuilder};
use ignore::types::{Types, TypesBuilder};
use ignore::WalkBuilder;
use params::GrepRequest;
use serde_json::Value;
use sink::FileSink;
use std::path::{Path, PathBuf};

/// Runs one grep call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    match params::parse(params).and_then(|request| search(ctx, &request)) {
        Ok(output) | Err(output) => output,
    }
}

/// Where the search starts and how its files are named in the output.
struct Root {
    path: ResolvedPath,
    /// The `path` argument as given (None: names are relative to the root).
    prefix: Option<String>,
}

impl Root {
    fn display(&self, rel: &Path) -> String {
        match &self.prefix {
            Some(p) if rel.as_os_str().is_empty() => p.clone(),
            Some(p) => Path::new(p).join(rel).to_string_lossy().into_owned(),
            None => rel.to_string_lossy().into_owned(),
        }
    }
}

/// What the walk has gathered so far.
#[derive(Default)]
struct Collected {
    out: String,
    total: usize,
    limit_hit: bool,
    /// (lexical, real) paths of the files with matches.
    files: Vec<(PathBuf, PathBuf)>,
}

fn search(ctx: &ToolContext, request: &GrepRequest) -> Result<String, String> {
    let matcher = build_matcher(request)?;
    let types = build_types(request.file_type.as_deref())?;
    let root = resolve_root(ctx, request)?;
    let mut found = Collected::default();
    for entry in walker(&root.path.real, types).build() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(&root.path.real)
            .unwrap_or(entry.path());
        search_file(request, &matcher, &root, rel, entry.path(), &mut found);
        if found.limit_hit {
            break;
        }
    }
    record_reads(ctx, &found.files);
    Ok(finish(request, found))
}

fn build_matcher(request: &GrepRequest) -> Result<RegexMatcher, String> {
    RegexMatcherBuilder::new()
        .case_insensitive(request.ignore_case)
        .crlf(true)
        .build(&request.pattern)
        .map_err(|e| {
            format!(
                "Error: invalid regular expression \"{}\": {e}. Fix the pattern (escape special characters such as ( [ {{ . * + ? with a backslash for a literal match).",
                request.pattern
            )
        })
}

/// ripgrep's type table with `name` selected; a name it does not know that looks like a file
/// extension selects the files ending in `.name`.
fn build_types(name: Option<&str>) -> Result<Option<Types>, String> {
    let Some(name) = name else { return Ok(None) };
    let mut builder = TypesBuilder::new();
    builder.add_defaults();
    let known = builder.definitions().iter().any(|d| d.name() == name);
    let extension_like = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !known {
        if !extension_like {
            return Err(format!("Error: unknown fileType \"{name}\". Use a type name such as js, ts, py, rust, go, java, c, cpp, md, or a bare file extension."));
        }
        builder
            .add(name, &format!("*.{name}"))
            .map_err(|e| format!("Error: bad fileType \"{name}\": {e}"))?;
    }
    builder.select(name);
    builder
        .build()
        .map(Some)
        .map_err(|e| format!("Error: bad fileType \"{name}\": {e}"))
}

fn resolve_root(ctx: &ToolContext, request: &GrepRequest) -> Result<Root, String> {
    let given = request.path.as_deref().unwrap_or(".");
    let path = ctx
        .policy
        .resolve(given, request.working_dir.as_deref())
        .map_err(|e| format!("Error: {}", describe(&e)))?;
    ctx.policy
        .check_allowed(&path)
        .map_err(|e| format!("Error: {}", describe(&e)))?;
    if !path.real.exists() {
        return Err(format!("Error: path not found - {given}. Check the path, or omit it to search the whole working directory."));
    }
    Ok(Root {
        path,
        prefix: request.path.clone(),
    })
}

/// ripgrep's default walk: hidden entries and ignore files honoured (no `.git` needed), no
/// symlinks followed, entries sorted by name for a stable output.
fn walker(root: &Path, types: Option<Types>) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(true)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    if let Some(types) = types {
        builder.types(types);
    }
    builder
}

fn search_file(
    request: &GrepRequest,
    matcher: &RegexMatcher,
    root: &Root,
    rel: &Path,
    real: &Path,
    found: &mut Collected,
) {
    let display = root.display(rel);
    let remaining = request
        .max_results
        .map(|max| max.saturating_sub(found.total) as u64);
    let mut searcher = SearcherBuilder::new()
        .line_number(true)
        .line_terminator(LineTerminator::crlf())
        .before_context(request.before)
        .after_context(request.after)
        .binary_detection(BinaryDetection::quit(0))
        .max_matches(remaining)
        .build();
    let mut sink = FileSink::new(&display, request.line_hashes);
    let searched = searcher.search_path(matcher, real, &mut sink);
    if searched.is_err() || sink.binary || sink.matches == 0 {
        return;
    }
    if !found.out.is_empty() && (request.before > 0 || request.after > 0) {
        found.out.push_str("--\n");
    }
    found.out.push_str(&sink.out);
    found.total += sink.matches;
    found
        .files
        .push((root.path.lexical.join(rel), real.to_path_buf()));
    found.limit_hit = request.max_results.is_some_and(|max| found.total >= max);
}

/// Files a search returned count as read: read tracker (current mtime) and `FileTracker`.
fn record_reads(ctx: &ToolContext, files: &[(PathBuf, PathBuf)]) {
    for (lexical, real) in files {
        if let Some(reads) = &ctx.read_tracker {
            if let Some(mtime) = mtime_ms(real) {
                reads.record_read(lexical, mtime);
                if real != lexical {
                    reads.record_read(real, mtime);
                }
            }
        }
        if let Some(tracker) = &ctx.tracker {
            tracker.mark_file_seen(lexical);
        }
    }
}

fn finish(request: &GrepRequest, found: Collected) -> String {
    if found.total == 0 {
        let place = request.path.as_deref().unwrap_or("the working directory");
        return format!(
            "No matches found for pattern \"{}\" in {place}.",
            request.pattern
        );
    }
    let mut out = found.out;
    out.truncate(out.trim_end_matches('\n').len());
    if found.limit_hit {
        let max = request.max_results.unwrap_or(found.total);
        out.push_str(&format!("\n\n[grep stopped at maxResults={max} matching lines; there may be more. Narrow the pattern, path or fileType to see the rest.]"));
    }
    out
}

#[cfg(test)]
mod tests;
