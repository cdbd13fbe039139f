//! Searching one walked file: confined open (no symlink followed), one read, ripgrep's binary
//! detection, the lines formatted by [`FileSink`]. Runs on the search's worker threads.

use super::sink::{FileSink, Lines, Name};
use super::{GrepRequest, Root, MAX_OUTPUT_BYTES};
use crate::fs::confined_dir::ConfinedDir;
use crate::fs::textfile::is_foreign_hard_link;
use crate::fs::ResolvedPath;
use crate::tools::ToolContext;
use crate::tracker::read_tracker::system_time_ms;
use grep_matcher::LineTerminator;
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What every file of one grep call is searched with.
pub struct Job<'a> {
    pub ctx: &'a ToolContext,
    pub request: &'a GrepRequest,
    pub matcher: &'a RegexMatcher,
    pub root: &'a Root,
    pub dir: ConfinedDir,
    /// Matching lines already in the output: what is left of `maxResults` bounds each file.
    pub taken: AtomicUsize,
}

/// One file's lines in the output (only files with a match, not binary, readable).
pub struct FileResult {
    pub lines: Lines,
    /// Modification time of the file as it was read (ms since the epoch).
    pub mtime: Option<f64>,
}

impl<'a> Job<'a> {
    pub fn new(
        ctx: &'a ToolContext,
        request: &'a GrepRequest,
        matcher: &'a RegexMatcher,
        root: &'a Root,
    ) -> Job<'a> {
        Job {
            ctx,
            request,
            matcher,
            root,
            dir: ConfinedDir::new(&root.path.real),
            taken: AtomicUsize::new(0),
        }
    }

    /// A worker's searcher (its buffers are reused from file to file).
    pub fn searcher(&self) -> Searcher {
        SearcherBuilder::new()
            .line_number(true)
            .line_terminator(LineTerminator::crlf())
            .before_context(self.request.before)
            .after_context(self.request.after)
            .binary_detection(BinaryDetection::quit(0))
            .build()
    }

    /// Searches the walked file `real`; `None` when it is protected, a hard link to another
    /// user's file ([`is_foreign_hard_link`]), has no match, is binary or cannot be read. The file is opened once and read once, front to back.
    pub fn search(&self, searcher: &mut Searcher, real: &Path) -> Option<FileResult> {
        if is_protected(self.ctx, real) {
            return None;
        }
        let rel = real.strip_prefix(&self.root.path.real).unwrap_or(real);
        let display = || self.root.display(rel);
        // Opened without following a symlink swapped in since the walk saw a plain file.
        let file = self.dir.open_file(real, &display()).ok()?;
        let meta = file.metadata().ok().filter(|m| m.is_file())?;
        if is_foreign_hard_link(&meta) {
            return None; // may be a link to a file outside the workspace: never shown
        }
        let max = self.request.max_results;
        let budget = max.map(|m| m.saturating_sub(self.taken.load(Ordering::Relaxed)).max(1));
        let name: &dyn Fn() -> String = &display;
        let mut sink = FileSink::named(Name::Later(name), self.request.line_hashes)
            .cap(MAX_OUTPUT_BYTES)
            .limit(budget, self.request.after);
        let searched = searcher.search_file(self.matcher, &file, &mut sink);
        if searched.is_err() || sink.binary || sink.lines.matches == 0 {
            return None;
        }
        Some(FileResult {
            lines: sink.lines,
            mtime: meta.modified().ok().map(system_time_ms),
        })
    }
}

/// Whether a walked file (a real path: the walk follows no symlink) is under `protectedPaths`.
fn is_protected(ctx: &ToolContext, real: &Path) -> bool {
    let path = ResolvedPath {
        lexical: real.to_path_buf(),
        real: real.to_path_buf(),
    };
    ctx.policy.protected_pattern(&path).is_some()
}
