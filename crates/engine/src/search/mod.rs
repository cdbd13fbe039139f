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
//! - No match: a sentence starting `No matches`. Failures start with `Error`. `maxResults` (and
//!   a 16 MiB output cap) stop the walk early, with a closing note in brackets.
//! - Every file with a match is recorded in the context's read tracker (with its current
//!   modification time) and marked seen in its `FileTracker`.

mod batch;
pub mod params;
pub mod sink;

use crate::fs::ResolvedPath;
use crate::tools::{errors::describe, ToolContext};
use crate::tracker::read_tracker::mtime_ms;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use ignore::types::{Types, TypesBuilder};
use ignore::WalkBuilder;
use params::GrepRequest;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Output size past which the search stops (after the file that crossed it), whatever
/// `maxResults` says: a guard against searches that would print most of a large tree.
pub const MAX_OUTPUT_BYTES: usize = 16 << 20;

/// Runs one grep call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    match run_result(ctx, params) {
        Ok(output) | Err(output) => output,
    }
}

/// One grep call as `Ok(output)` or `Err(message)`: a successful output may itself start with
/// `Error` (a file named `Error...`), so callers that must tell the two apart use this.
pub fn run_result(ctx: &ToolContext, params: &Value) -> Result<String, String> {
    params::parse(params).and_then(|request| search(ctx, &request))
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
    /// The output passed [`MAX_OUTPUT_BYTES`]; the walk stopped after that file.
    output_full: bool,
    /// (lexical, real) paths of the files with matches.
    files: Vec<(PathBuf, PathBuf)>,
}

fn search(ctx: &ToolContext, request: &GrepRequest) -> Result<String, String> {
    let matcher = build_matcher(request)?;
    let types = build_types(request.file_type.as_deref())?;
    let root = resolve_root(ctx, request)?;
    let job = batch::Job {
        request,
        matcher: &matcher,
        root: &root,
    };
    let mut found = Collected::default();
    let mut files = Vec::with_capacity(batch::BATCH);
    for entry in walker(&root.path.real, types).build() {
        let Ok(entry) = entry else { continue };
        if entry.file_type().is_some_and(|t| t.is_file()) && !is_protected(ctx, entry.path()) {
            files.push(entry.into_path());
        }
        if files.len() == batch::BATCH {
            batch::search_batch(&job, &std::mem::take(&mut files), &mut found);
            if found.stopped() {
                break;
            }
        }
    }
    if !found.stopped() {
        batch::search_batch(&job, &files, &mut found);
    }
    record_reads(ctx, &found.files);
    Ok(finish(request, found))
}

/// Whether a walked file (a real path: the walk follows no symlink) is under `protectedPaths`.
fn is_protected(ctx: &ToolContext, real: &Path) -> bool {
    let path = ResolvedPath {
        lexical: real.to_path_buf(),
        real: real.to_path_buf(),
    };
    ctx.policy.protected_pattern(&path).is_some()
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
        .check_writable(&path)
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

impl Collected {
    /// True once `maxResults` or the output cap ended the search.
    fn stopped(&self) -> bool {
        self.limit_hit || self.output_full
    }

    /// Appends one file's lines (`--` first when context is on and output precedes).
    fn append(
        &mut self,
        request: &GrepRequest,
        root: &Root,
        real: &Path,
        result: batch::FileResult,
    ) {
        if !self.out.is_empty() && (request.before > 0 || request.after > 0) {
            self.out.push_str("--\n");
        }
        self.out.push_str(&result.out);
        self.total += result.matches;
        let rel = real.strip_prefix(&root.path.real).unwrap_or(real);
        self.files
            .push((root.path.lexical.join(rel), real.to_path_buf()));
        self.limit_hit = request.max_results.is_some_and(|max| self.total >= max);
        self.output_full = self.out.len() >= MAX_OUTPUT_BYTES;
    }
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
    if found.output_full && !found.limit_hit {
        out.push_str(&format!("\n\n[grep stopped after {} matching lines: the output reached {} MiB. Narrow the pattern, path or fileType, or set maxResults.]", found.total, MAX_OUTPUT_BYTES >> 20));
    } else if found.limit_hit {
        let max = request.max_results.unwrap_or(found.total);
        out.push_str(&format!("\n\n[grep stopped at maxResults={max} matching lines; there may be more. Narrow the pattern, path or fileType to see the rest.]"));
    }
    out
}

#[cfg(test)]
mod tests;
