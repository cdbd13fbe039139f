//! Timing split of the undo history's part of one edit (profiling aid for `npm run bench`; not
//! part of the product API): the hashes, a blob write, a level recorded, and the `edit` tool with
//! the history on and off. Medians in ms over `reps` runs.
//!
//! Usage: `history_profile [bytes=4194304] [reps=15]`

#[path = "../benches/common/mod.rs"]
mod common;

use edit_engine_core::history::{HistoryStore, Write};
use edit_engine_core::tools::history::HistoryOption;
use edit_engine_core::tools::{edit, ToolContext, ToolOptions};
use std::time::Instant;

fn median(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Median of the `edit` tool's exact edit of `path` (restored before each run) with `history`.
fn edit_median(dir: &std::path::Path, content: &str, old: &str, history: HistoryOption) -> f64 {
    let path = dir.join("src.js");
    let opts = ToolOptions {
        allowed_folders: vec![dir.to_string_lossy().into()],
        history,
        ..Default::default()
    };
    let ctx = ToolContext::new(&opts, None).unwrap();
    let new = old.replace('>', ">=");
    let params = serde_json::json!({ "file_path": path.to_string_lossy(), "old_string": old, "new_string": new });
    let mut times: Vec<f64> = Vec::new();
    for _ in 0..15 {
        std::fs::write(&path, content).unwrap();
        let s = Instant::now();
        let msg = edit::run(&ctx, &params);
        times.push(s.elapsed().as_secs_f64() * 1e3);
        assert!(msg.starts_with("Success"), "{msg}");
    }
    edit_engine_core::fs::background::flush();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("number"))
        .collect();
    let bytes = args.first().copied().unwrap_or(4 << 20);
    let reps = args.get(1).copied().unwrap_or(15);
    let dir = tempfile::tempdir().expect("tempdir");
    let (content, t) = common::source(bytes);
    let target = common::target_lines(t);
    let data = content.as_bytes();
    println!("content: {} bytes; median of {reps} runs, ms", data.len());
    let row = |name: &str, ms: f64| println!("{name:<44} {ms:>8.3}");
    row(
        "blake3",
        median(reps, || {
            std::hint::black_box(blake3::hash(data));
        }),
    );
    row(
        "sha256",
        median(reps, || {
            use sha2::Digest;
            std::hint::black_box(sha2::Sha256::digest(data));
        }),
    );
    let store = HistoryStore::open(dir.path().join("h")).unwrap();
    let file = dir.path().join("f");
    let mut n = 0u32;
    row(
        "record_write (both blobs new)",
        median(reps, || {
            n += 1;
            let mut prev = data.to_vec();
            prev.extend_from_slice(&n.to_le_bytes());
            let mut written = data.to_vec();
            written.extend_from_slice(&(n + 1_000_000).to_le_bytes());
            let w = Write {
                previous: &prev,
                written: Some(&written),
                tool: "edit",
                txn: None,
            };
            store.record_write(&file, &w).unwrap();
        }),
    );
    let mut prev = data.to_vec();
    row(
        "record_write (previous stored: chained)",
        median(reps, || {
            n += 1;
            let mut written = data.to_vec();
            written.extend_from_slice(&n.to_le_bytes());
            let w = Write {
                previous: &prev,
                written: Some(&written),
                tool: "edit",
                txn: None,
            };
            store.record_write(&file, &w).unwrap();
            prev = written;
        }),
    );
    let written = prev.clone();
    row(
        "record_write (both stored: deduplicated)",
        median(reps, || {
            let w = Write {
                previous: data,
                written: Some(&written),
                tool: "edit",
                txn: None,
            };
            store.record_write(&file, &w).unwrap();
        }),
    );
    edit_engine_core::fs::background::flush();
    let edit_dir = tempfile::tempdir().expect("tempdir");
    let hist = edit_dir.path().join("h").to_string_lossy().into_owned();
    let ws = edit_dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    row(
        "edit::run exact, history on",
        edit_median(&ws, &content, &target[0], HistoryOption::Dir(hist)),
    );
    row(
        "edit::run exact, history off",
        edit_median(&ws, &content, &target[0], HistoryOption::Off),
    );
}
