//! Searching the walked files in batches: each batch is searched on several threads, then merged
//! in walk order, so the output is the same as a one-thread search and `maxResults` still stops
//! the walk early.

use super::sink::FileSink;
use super::{Collected, GrepRequest, Root};
use crate::fs::atomic::open_confined;
use grep_matcher::LineTerminator;
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, SearcherBuilder};
use std::path::{Path, PathBuf};

/// Files searched together before their results are merged.
pub const BATCH: usize = 256;
/// Most threads one search uses.
const MAX_THREADS: usize = 8;

/// What every file of one grep call is searched with.
pub struct Job<'a> {
    pub request: &'a GrepRequest,
    pub matcher: &'a RegexMatcher,
    pub root: &'a Root,
}

/// One file's lines in the output (only files with a match, not binary, readable).
pub struct FileResult {
    pub out: String,
    pub matches: usize,
}

/// Searches `files` (in walk order) and appends their results to `found` in that order,
/// stopping at `maxResults` or the output cap.
pub fn search_batch(job: &Job, files: &[PathBuf], found: &mut Collected) {
    let max = job.request.max_results;
    let budget = max.map(|m| m.saturating_sub(found.total));
    let results = search_all(job, files, budget);
    for (real, result) in files.iter().zip(results) {
        let Some(mut result) = result else { continue };
        let left = max.map(|m| m.saturating_sub(found.total));
        if let Some(left) = left.filter(|&l| result.matches > l) {
            // Searched with the batch's budget, more than is left now: search again exactly.
            match search_one(job, real, Some(left)) {
                Some(r) => result = r,
                None => continue,
            }
        }
        found.append(job.request, job.root, real, result);
        if found.stopped() {
            break;
        }
    }
}

/// Results of `files`, index for index, computed on up to [`MAX_THREADS`] threads.
fn search_all(job: &Job, files: &[PathBuf], budget: Option<usize>) -> Vec<Option<FileResult>> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(MAX_THREADS)
        .min(files.len() / 8)
        .max(1);
    if threads == 1 {
        return files.iter().map(|f| search_one(job, f, budget)).collect();
    }
    let mut results: Vec<Option<FileResult>> = files.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mine = files.iter().enumerate().skip(t).step_by(threads);
                    mine.map(|(i, f)| (i, search_one(job, f, budget)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            match worker.join() {
                Ok(part) => part.into_iter().for_each(|(i, r)| results[i] = r),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    results
}

/// Searches one file; `None` when it has no match, is binary or cannot be read.
pub(super) fn search_one(job: &Job, real: &Path, budget: Option<usize>) -> Option<FileResult> {
    let request = job.request;
    let rel = real.strip_prefix(&job.root.path.real).unwrap_or(real);
    let display = job.root.display(rel);
    let mut searcher = SearcherBuilder::new()
        .line_number(true)
        .line_terminator(LineTerminator::crlf())
        .before_context(request.before)
        .after_context(request.after)
        .binary_detection(BinaryDetection::quit(0))
        .max_matches(budget.map(|b| b as u64))
        .build();
    let mut sink = FileSink::new(&display, request.line_hashes);
    // Opened without following a symlink swapped in since the walk saw a plain file.
    let file = open_confined(real, &display).ok()?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return None;
    }
    let searched = searcher.search_file(job.matcher, &file, &mut sink);
    if searched.is_err() || sink.binary || sink.matches == 0 {
        return None;
    }
    Some(FileResult {
        out: sink.out,
        matches: sink.matches,
    })
}
