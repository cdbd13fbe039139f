//! Where the time of one `grep` goes (profiling aid for `npm run bench`; not part of the product
//! API). On a directory tree, timed separately: the ordered walk alone; the walk plus a confined
//! open and `fstat` of every file (one `openat2` per file, and the older one-`openat`-per-folder
//! path); the walk plus reading every file; the whole search without and with the read tracker.
//! Medians over `reps` runs, the steps interleaved: wall ms, and CPU ms (user + system, all
//! threads; steadier than wall time on a loaded machine).
//!
//! Usage: `grep_profile <dir> <pattern> [reps=7]`

use edit_engine_core::fs::atomic::open_confined;
use edit_engine_core::fs::confined_dir::ConfinedDir;
use edit_engine_core::parallel::Pool;
use edit_engine_core::search;
use edit_engine_core::tools::{ToolContext, ToolOptions};
use edit_engine_core::tracker::FileReadTracker;
use ignore::WalkBuilder;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The search's walk: sorted, ignore files honoured without `.git`, no symlinks followed.
fn walk(root: &Path, emit: &mut dyn FnMut(PathBuf) -> bool) {
    let mut builder = WalkBuilder::new(root);
    builder
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    for entry in builder.build().flatten() {
        if entry.file_type().is_some_and(|t| t.is_file()) && !emit(entry.into_path()) {
            return;
        }
    }
}

/// Walks on the producer thread and runs `per_file` on every file on all cores.
fn over_files(root: &Path, per_file: &(dyn Fn(&Path) -> usize + Sync)) -> usize {
    let mut total = 0;
    Pool::all_cores().for_each_ordered(
        |emit| walk(root, emit),
        || (),
        |(), path| per_file(path),
        |_, n| {
            total += n;
            ControlFlow::Continue(())
        },
    );
    total
}

/// 1 when the file opened and `fstat` answered.
fn opened(file: Option<std::fs::File>) -> usize {
    usize::from(file.is_some_and(|f| f.metadata().is_ok()))
}

fn context(root: &Path, tracked: bool) -> ToolContext {
    let options = ToolOptions {
        cwd: Some(root.to_string_lossy().into_owned()),
        ..ToolOptions::default()
    };
    let ctx = ToolContext::new(&options, None).expect("a readable directory");
    let reads = tracked.then(|| Arc::new(FileReadTracker::new()));
    ctx.with_read_tracker(reads)
}

/// User + system CPU time of this process so far, in ms.
fn cpu_ms() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

fn med(t: &mut [f64]) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

type Step<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(pattern)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: grep_profile <dir> <pattern> [reps=7]");
        std::process::exit(2);
    };
    let reps: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(7);
    let root = std::fs::canonicalize(dir).expect("an existing directory");
    let confined = ConfinedDir::new(&root);
    let params = serde_json::json!({ "pattern": pattern });
    let (plain, tracked) = (context(&root, false), context(&root, true));
    let steps: Vec<Step> = vec![
        (
            "walk only (one thread, sorted)",
            Box::new(|| {
                let mut n = 0;
                walk(&root, &mut |_| {
                    n += 1;
                    true
                });
                n
            }),
        ),
        (
            "walk + open_confined per folder + fstat",
            Box::new(|| over_files(&root, &|p| opened(open_confined(p, "f").ok()))),
        ),
        (
            "walk + openat2 beneath root + fstat",
            Box::new(|| over_files(&root, &|p| opened(confined.open_file(p, "f").ok()))),
        ),
        (
            "walk + openat2 beneath root, no fstat",
            Box::new(|| over_files(&root, &|p| usize::from(confined.open_file(p, "f").is_ok()))),
        ),
        (
            "walk + openat2 + read whole file",
            Box::new(|| {
                over_files(&root, &|p| {
                    let mut buf = Vec::new();
                    confined
                        .open_file(p, "f")
                        .map_or(0, |mut f| f.read_to_end(&mut buf).unwrap_or(0))
                })
            }),
        ),
        (
            "search, no read tracker",
            Box::new(|| search::run(&plain, &params).len()),
        ),
        (
            "search + read tracker",
            Box::new(|| search::run(&tracked, &params).len()),
        ),
    ];
    report(&steps, reps);
}

/// Runs the steps `reps` times round-robin and prints each one's median wall and CPU time.
fn report(steps: &[Step], reps: usize) {
    let mut wall: Vec<Vec<f64>> = vec![Vec::new(); steps.len()];
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); steps.len()];
    let mut sizes = vec![0; steps.len()];
    for _ in 0..reps {
        for (i, (_, step)) in steps.iter().enumerate() {
            let (t, c) = (Instant::now(), cpu_ms());
            sizes[i] = step();
            wall[i].push(t.elapsed().as_secs_f64() * 1e3);
            cpu[i].push(cpu_ms() - c);
        }
    }
    for (i, (name, _)) in steps.iter().enumerate() {
        let (w, c) = (med(&mut wall[i]), med(&mut cpu[i]));
        println!(
            "{name:<42} wall {w:>7.1} ms  cpu {c:>7.1} ms  ({})",
            sizes[i]
        );
    }
}
