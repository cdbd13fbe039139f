//! Timing split of the undo history's part of one edit (profiling aid for `npm run bench`; not
//! part of the product API): the hashes, a blob write, a level recorded, and the `edit` tool with
//! the history on and off. Medians in ms over `reps` runs.
//!
//! Usage: `history_profile [bytes=4194304] [reps=15]`

#[path = "../benches/common/mod.rs"]
mod common;
#[path = "common/profile.rs"]
mod profile;

use edit_engine_core::history::recording::HistoryOption;
use edit_engine_core::history::{HistoryStore, Write};
use edit_engine_core::tools::{edit, ToolContext, ToolOptions};
use std::time::Instant;

/// Medians of the `edit` tool's exact edit of `src.js` in `dir` (restored before each run) with
/// the history in `hist` and without history, the two runs interleaved so load hits both alike.
fn edit_medians(
    dir: &std::path::Path,
    hist: &str,
    content: &str,
    old: &str,
    reps: usize,
) -> (f64, f64) {
    let path = dir.join("src.js");
    let ctx = |history| {
        let opts = ToolOptions {
            allowed_folders: vec![dir.to_string_lossy().into()],
            history,
            ..Default::default()
        };
        ToolContext::new(&opts, None).unwrap()
    };
    let contexts = [
        ctx(HistoryOption::Dir(hist.into())),
        ctx(HistoryOption::Off),
    ];
    let new = old.replace('>', ">=");
    let params = serde_json::json!({ "file_path": path.to_string_lossy(), "old_string": old, "new_string": new });
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..reps {
        for (ctx, times) in contexts.iter().zip(times.iter_mut()) {
            std::fs::write(&path, content).unwrap();
            let s = Instant::now();
            let msg = edit::run(ctx, &params);
            times.push(s.elapsed().as_secs_f64() * 1e3);
            assert!(msg.starts_with("Success"), "{msg}");
            edit_engine_core::fs::background::flush();
        }
    }
    let [mut on, mut off] = times;
    on.sort_by(f64::total_cmp);
    off.sort_by(f64::total_cmp);
    (on[reps / 2], off[reps / 2])
}

fn row(name: &str, ms: f64) {
    println!("{name:<44} {ms:>8.3}");
}

fn main() {
    let (bytes, reps) = profile::bytes_and_reps();
    let dir = tempfile::tempdir().expect("tempdir");
    let (content, t) = common::source(bytes);
    let target = common::target_lines(t);
    let data = content.as_bytes();
    println!("content: {} bytes; median of {reps} runs, ms", data.len());
    hash_rows(data, reps);
    let store = HistoryStore::open(dir.path().join("h")).unwrap();
    record_rows(&store, &dir.path().join("f"), data, reps);
    edit_engine_core::fs::background::flush();
    let edit_dir = tempfile::tempdir().expect("tempdir");
    let hist = edit_dir.path().join("h").to_string_lossy().into_owned();
    let ws = edit_dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    let (on, off) = edit_medians(&ws, &hist, &content, &target[0], reps);
    row("edit::run exact, history on", on);
    row("edit::run exact, history off", off);
    row("edit::run exact, on - off", on - off);
}

/// The two content hashes the store could name blobs by.
fn hash_rows(data: &[u8], reps: usize) {
    row(
        "blake3",
        profile::median(reps, || {
            std::hint::black_box(blake3::hash(data));
        }),
    );
    row(
        "sha256",
        profile::median(reps, || {
            use sha2::Digest;
            std::hint::black_box(sha2::Sha256::digest(data));
        }),
    );
}

/// A level recorded with both blobs new, in a chain of edits, and with both already stored.
fn record_rows(store: &HistoryStore, file: &std::path::Path, data: &[u8], reps: usize) {
    let mut n = 0u32;
    row(
        "record_write (both blobs new)",
        profile::median(reps, || {
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
            store.record_write(file, &w).unwrap();
        }),
    );
    let (ms, written) = chained_median(store, file, data, reps, n);
    row("record_write (chained, synchronous part)", ms);
    row(
        "record_write (both stored: deduplicated)",
        profile::median(reps, || {
            let w = Write {
                previous: data,
                written: Some(&written),
                tool: "edit",
                txn: None,
            };
            store.record_write(file, &w).unwrap();
        }),
    );
}

/// Chained writes, as an agent's edits come: each level's previous content is the last one's
/// written content. Timed: the synchronous part (`record_write`); the written blob is then stored
/// untimed, as the background lane does. Returns the median and the last written content.
fn chained_median(
    store: &HistoryStore,
    file: &std::path::Path,
    data: &[u8],
    reps: usize,
    mut n: u32,
) -> (f64, Vec<u8>) {
    let mut prev = data.to_vec();
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        n += 1;
        let mut written = data.to_vec();
        written.extend_from_slice(&n.to_le_bytes());
        let w = Write {
            previous: &prev,
            written: Some(&written),
            tool: "edit",
            txn: None,
        };
        let s = Instant::now();
        let pending = store.record_write(file, &w).unwrap();
        times.push(s.elapsed().as_secs_f64() * 1e3);
        if let Some(name) = pending {
            store.store_blob(&name, &written).unwrap();
        }
        prev = written;
    }
    times.sort_by(f64::total_cmp);
    (times[reps / 2], prev)
}
