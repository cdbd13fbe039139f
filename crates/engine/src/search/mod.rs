//! The `grep` search, built on ripgrep's crates: a regex search of a file or a directory tree
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
//!   working directory when `path` is absent. Files come in path order (the same order and lines
//!   as `rg -n --sort path`), though they are searched in parallel on all cores. With
//!   `lineHashes`, line numbers become `N:hh` references that the line-targeted edit modes accept.
//! - Each file is opened confined (no symlink followed anywhere below the root) and read once,
//!   front to back; a file changed meanwhile shows one state of it.
//! - No match: a sentence starting `No matches`. Failures start with `Error`. `maxResults` (and
//!   a 16 MiB output cap) stop the walk early, with a closing note in brackets.
//! - Every file with a match is recorded in the context's read tracker (with the modification
//!   time of the state that was read) and marked seen in its `FileTracker`.

mod file;
pub mod params;
pub mod sink;

use crate::fs::ResolvedPath;
use crate::parallel::Pool;
use crate::tools::outcome::{ErrorKind, Outcome, ToolError};
use crate::tools::ToolContext;
use file::{FileResult, Job};
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use ignore::types::{Types, TypesBuilder};
use ignore::WalkBuilder;
use params::GrepRequest;
use serde_json::Value;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Output size past which the search stops (after the file that crossed it), whatever
/// `maxResults` says: a guard against searches that would print most of a large tree.
pub const MAX_OUTPUT_BYTES: usize = 16 << 20;

/// Runs one grep call. Never panics on bad input; failures start with `Error`.
pub fn run(ctx: &ToolContext, params: &Value) -> String {
    call(ctx, params).text
}

/// One grep call's outcome: a successful output may itself start with `Error` (a file named
/// `Error...`); its `error` tells the two apart.
pub fn call(ctx: &ToolContext, params: &Value) -> Outcome {
    params::parse(params)
        .map_err(ToolError::bad_param)
        .and_then(|request| search(ctx, &request))
        .map(Outcome::read)
        .into()
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
    /// Files with matches in the output.
    files: Vec<Shown>,
}

/// A file whose lines are in the output.
struct Shown {
    lexical: PathBuf,
    real: PathBuf,
    /// Modification time of the state that was searched.
    mtime: Option<f64>,
}

fn search(ctx: &ToolContext, request: &GrepRequest) -> Result<String, ToolError> {
    let matcher = build_matcher(request).map_err(ToolError::bad_param)?;
    let types = build_types(request.file_type.as_deref()).map_err(ToolError::bad_param)?;
    let root = resolve_root(ctx, request)?;
    let job = Job::new(ctx, request, &matcher, &root);
    let pool = if root.path.real.is_dir() {
        Pool::all_cores()
    } else {
        Pool::with_threads(1)
    };
    let mut found = Collected::default();
    pool.for_each_ordered(
        |emit| walk(&root.path.real, types, emit),
        || job.searcher(),
        |searcher, real| job.search(searcher, real),
        |real, result| {
            if let Some(result) = result {
                found.append(request, &root, real, result);
                job.taken.store(found.total, Ordering::Relaxed);
            }
            match found.stopped() {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        },
    );
    record_reads(ctx, &found.files);
    Ok(finish(request, found))
}

/// Emits the files below `root` (or `root` itself) in path order until `emit` says stop.
fn walk(root: &Path, types: Option<Types>, emit: &mut dyn FnMut(PathBuf) -> bool) {
    for entry in walker(root, types).build() {
        let Ok(entry) = entry else { continue };
        if entry.file_type().is_some_and(|t| t.is_file()) && !emit(entry.into_path()) {
            return;
        }
    }
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

fn resolve_root(ctx: &ToolContext, request: &GrepRequest) -> Result<Root, ToolError> {
    let given = request.path.as_deref().unwrap_or(".");
    let failure = |e: crate::fs::FsError| ToolError::fs("Error: ", &e, &ctx.host_tools);
    let path = ctx
        .policy
        .resolve(given, request.working_dir.as_deref())
        .map_err(failure)?;
    ctx.policy.check_writable(&path).map_err(failure)?;
    if !path.real.exists() {
        return Err(ToolError::new(ErrorKind::NotFound, format!("Error: path not found - {given}. Check the path, or omit it to search the whole working directory.")));
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

    /// Appends one file's lines (`--` first when context is on and output precedes), cut to
    /// what is left of `maxResults`.
    fn append(&mut self, request: &GrepRequest, root: &Root, real: PathBuf, result: FileResult) {
        let mut lines = result.lines;
        if let Some(left) = request.max_results.map(|m| m.saturating_sub(self.total)) {
            lines.truncate(left);
        }
        if !self.out.is_empty() && (request.before > 0 || request.after > 0) {
            self.out.push_str("--\n");
        }
        self.out.push_str(&lines.out);
        self.total += lines.matches;
        let rel = real.strip_prefix(&root.path.real).unwrap_or(&real);
        let lexical = root.path.lexical.join(rel);
        self.files.push(Shown {
            lexical,
            real,
            mtime: result.mtime,
        });
        self.limit_hit = request.max_results.is_some_and(|max| self.total >= max);
        self.output_full = self.out.len() >= MAX_OUTPUT_BYTES;
    }
}

/// Files a search returned count as read: read tracker (mtime of the state searched) and
/// `FileTracker`.
fn record_reads(ctx: &ToolContext, files: &[Shown]) {
    for file in files {
        if let (Some(reads), Some(mtime)) = (&ctx.read_tracker, file.mtime) {
            reads.record_read(&file.lexical, mtime);
            if file.real != file.lexical {
                reads.record_read(&file.real, mtime);
            }
        }
        if let Some(tracker) = &ctx.tracker {
            tracker.mark_file_seen(&file.lexical);
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
