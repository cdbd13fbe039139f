//! Timing split of one edit (profiling aid for `npm run bench`; not part of the product API).
//!
//! Runs the engine's `edit` tool on a generated code-like file and, separately, each step that
//! tool performs (read + decode, match, count, replace, encode, atomic write), so a slow row of
//! the Node bench can be attributed to a step. Medians in ms over `reps` runs.
//!
//! Usage: `edit_profile [bytes=4194304] [reps=15]`

#[path = "../benches/common/mod.rs"]
mod common;
#[path = "common/profile.rs"]
mod profile;

use edit_engine_core::fs::atomic::{write_atomic, WriteMode};
use edit_engine_core::fs::textfile::{read_text, TextFile};
use edit_engine_core::text::{
    block_anchor_match, closest_region, find_fuzzy_match, indent_flexible_match,
    line_trimmed_match, locate, quote_normalized_match, whitespace_normalized_match, Restriction,
    Strategy,
};
use edit_engine_core::tools::{edit, ToolContext, ToolOptions};
use std::path::Path;
use std::time::Instant;

/// A named profiling step.
type Step<'a> = (&'static str, Box<dyn FnMut() + 'a>);

fn main() {
    let (bytes, reps) = profile::bytes_and_reps();
    let dir = tempfile::tempdir().expect("tempdir");
    let (content, t) = common::source(bytes);
    let target = common::target_lines(t);
    let path = dir.path().join("src.js");
    std::fs::write(&path, &content).unwrap();
    let searches = common::searches(&target);
    let new = target[0].replace('>', ">=");
    println!(
        "file: {} bytes, {} lines; median of {reps} runs, ms",
        content.len(),
        content.lines().count()
    );
    profile_tool_calls(&path, &content, &target, &searches, &new, reps);
    let file = read_text(&path, "src.js", None).unwrap();
    let text = file.text.as_str();
    let a = target[0].as_str();
    let replaced = text.replacen(a, &new, 1);
    let inputs = Inputs {
        path: &path,
        file: &file,
        text,
        a,
        new: &new,
        replaced: &replaced,
        searches: &searches,
    };
    let steps = [
        io_steps(&inputs),
        match_steps(&inputs),
        cascade_steps(&inputs),
        split_steps(&inputs),
    ];
    for (name, mut f) in steps.into_iter().flatten() {
        println!("  {name:<42} {:>9.2}", profile::median(reps, &mut f));
    }
}

/// `edit::run` on the file in each mode (exact, two fuzzy strategies, line hashes), the file
/// restored before each run.
fn profile_tool_calls(
    path: &Path,
    content: &str,
    target: &[String; 3],
    searches: &common::Searches,
    new: &str,
    reps: usize,
) {
    let opts = ToolOptions {
        allowed_folders: vec![path.parent().unwrap().to_string_lossy().into()],
        ..Default::default()
    };
    let ctx = ToolContext::new(&opts, None).unwrap();
    let [a, b, e] = target;
    let params = |old: &str| serde_json::json!({ "file_path": path.to_string_lossy(), "old_string": old, "new_string": new });
    let lines: Vec<&str> = content.split('\n').collect();
    let n = lines.iter().position(|l| l == a).expect("target line") + 1;
    let hash = |i: usize| edit_engine_core::lines::compute_line_hash(lines[i - 1]);
    let line_params = serde_json::json!({
        "file_path": path.to_string_lossy(),
        "start_line": format!("{n}:{}", hash(n)),
        "end_line": format!("{}:{}", n + 2, hash(n + 2)),
        "new_string": ([new, b.as_str(), e.as_str()].join("\n")),
    });
    for (name, p) in [
        ("exact", params(a)),
        ("line-trimmed", params(&searches.trimmed)),
        ("whitespace-normalized", params(&searches.drifted)),
        ("line (hashes)", line_params),
    ] {
        let mut times: Vec<f64> = Vec::new();
        for _ in 0..reps {
            std::fs::write(path, content).unwrap();
            let s = Instant::now();
            let msg = edit::run(&ctx, &p);
            times.push(s.elapsed().as_secs_f64() * 1e3);
            assert!(msg.starts_with("Success"), "{msg}");
        }
        times.sort_by(f64::total_cmp);
        println!("edit::run {name:<24} {:>9.2}", times[reps / 2]);
    }
    std::fs::write(path, content).unwrap();
}

/// What the steps work on: the file as read and the texts searched and written.
struct Inputs<'a> {
    path: &'a Path,
    file: &'a TextFile,
    text: &'a str,
    /// The exact target line.
    a: &'a str,
    new: &'a str,
    /// `text` with `a` replaced by `new`.
    replaced: &'a str,
    searches: &'a common::Searches,
}

/// Reading, exact search and replace, encoding and the atomic write.
fn io_steps<'a>(i: &Inputs<'a>) -> Vec<Step<'a>> {
    let &Inputs {
        path,
        file,
        text,
        a,
        new,
        replaced,
        ..
    } = i;
    vec![
        (
            "read_text (read + decode)",
            Box::new(move || drop(read_text(path, "src.js", None).unwrap())),
        ),
        (
            "contains (exact search)",
            Box::new(move || assert!(text.contains(a))),
        ),
        (
            "matches().count()",
            Box::new(move || assert_eq!(text.matches(a).count(), 1)),
        ),
        ("replacen", Box::new(move || drop(text.replacen(a, new, 1)))),
        (
            "new_text != text",
            Box::new(move || assert!(replaced != text)),
        ),
        (
            "encode (LF: copy)",
            Box::new(move || drop(file.encode(replaced))),
        ),
        (
            "write_atomic (tmp+fsync+rename+dir fsync)",
            Box::new(move || {
                write_atomic(path, replaced.as_bytes(), WriteMode::Replace, "src.js").unwrap()
            }),
        ),
    ]
}

/// The fuzzy strategies, the cascade and the closest-region search.
fn match_steps<'a>(i: &Inputs<'a>) -> Vec<Step<'a>> {
    let &Inputs { text, a, .. } = i;
    let common::Searches {
        trimmed,
        drifted,
        anchored,
        ..
    } = i.searches;
    vec![
        (
            "line_trimmed_match",
            Box::new(move || assert!(line_trimmed_match(text, trimmed).is_some())),
        ),
        (
            "whitespace_normalized_match",
            Box::new(move || assert!(whitespace_normalized_match(text, drifted).is_some())),
        ),
        (
            "find_fuzzy_match (line-trimmed)",
            Box::new(move || assert!(find_fuzzy_match(text, trimmed).is_some())),
        ),
        (
            "find_fuzzy_match (ws-drifted)",
            Box::new(move || assert!(find_fuzzy_match(text, drifted).is_some())),
        ),
        (
            "line_trimmed_match (44k matches)",
            Box::new(move || assert!(line_trimmed_match(text, "return total;\n}").is_some())),
        ),
        (
            "whitespace_normalized_match (44k matches)",
            Box::new(move || {
                assert!(whitespace_normalized_match(text, "return  total;\n}").is_some())
            }),
        ),
        (
            "indent_flexible_match",
            Box::new(move || assert!(indent_flexible_match(text, trimmed).is_some())),
        ),
        (
            "quote_normalized_match (exact text)",
            Box::new(move || assert!(quote_normalized_match(text, a).is_some())),
        ),
        (
            "block_anchor_match",
            Box::new(move || assert!(block_anchor_match(text, anchored).is_some())),
        ),
    ]
}

/// The cascade where only block-anchor matches, and the closest-region search where nothing does.
fn cascade_steps<'a>(i: &Inputs<'a>) -> Vec<Step<'a>> {
    let text = i.text;
    let common::Searches {
        anchored,
        unmatched,
        ..
    } = i.searches;
    vec![
        (
            "locate (block-anchor wins)",
            Box::new(move || {
                let m = locate(text, anchored, Restriction::Any).unwrap();
                assert_eq!(m.strategy, Some(Strategy::BlockAnchor));
            }),
        ),
        (
            "locate (no match)",
            Box::new(move || assert!(locate(text, unmatched, Restriction::Any).is_none())),
        ),
        (
            "closest_region (no match)",
            Box::new(move || assert!(closest_region(text, unmatched).is_some())),
        ),
    ]
}

/// Ways of cutting the text into lines (and joining them back).
fn split_steps<'a>(i: &Inputs<'a>) -> Vec<Step<'a>> {
    let text = i.text;
    vec![
        (
            "split into Vec<&str>",
            Box::new(move || drop(text.split('\n').collect::<Vec<&str>>())),
        ),
        (
            "lines::split_on_newline (line mode's split)",
            Box::new(move || drop(edit_engine_core::lines::split_on_newline(text))),
        ),
        (
            "lines as Vec<String> + join",
            Box::new(move || {
                drop(
                    text.split('\n')
                        .map(str::to_string)
                        .collect::<Vec<String>>()
                        .join("\n"),
                )
            }),
        ),
        (
            "lines as Vec<&str> + join",
            Box::new(move || drop(text.split('\n').collect::<Vec<&str>>().join("\n"))),
        ),
    ]
}
