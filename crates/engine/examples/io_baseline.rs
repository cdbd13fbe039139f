//! Native I/O baseline for `npm run bench` (not part of the product API).
//!
//! For each file given, measures what the disk costs for the same bytes, with nothing else in the way:
//! - `inplace`: read the file, rewrite it in place (truncate + write) and `fsync` it;
//! - `atomic`: read the file, write a temp file next to it, `fsync`, rename it over the file and
//!   `fsync` the directory (the same durable protocol the engine's `fs::atomic` uses).
//!
//! With `--concurrent <threads>`, one measurement is a round of `atomic` over every regular file
//! of a folder, the files shared out among `threads` threads (what a host's many concurrent edits
//! cost the disk).
//!
//! The file's content is left unchanged. Output: one JSON object per file (or folder) on stdout.
//!
//! With `--serve`, it measures one operation per command read from stdin, so a caller can take
//! turns with its own calls (`bench/native.mjs`): `atomic <file>`, `write <file>` (`atomic`'s
//! write alone: the file is read before the timer starts), `inplace <file>` or
//! `concurrent <threads> <folder>`, one per line (a path is the rest of the line); each is
//! answered with one line, the nanoseconds the operation took (timed here, so the pipe is not
//! counted), or `error: <why>`.
//!
//! Usage: `io_baseline <min_reps> <max_reps> <budget_ms> <file>...`,
//! `io_baseline --concurrent <threads> <min_reps> <max_reps> <budget_ms> <folder>`, or
//! `io_baseline --serve`

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn inplace(path: &Path) -> std::io::Result<()> {
    let bytes = fs::read(path)?;
    let mut f = OpenOptions::new().write(true).truncate(true).open(path)?;
    f.write_all(&bytes)?;
    f.sync_all()
}

fn atomic(path: &Path) -> std::io::Result<()> {
    write_atomic(path, &fs::read(path)?)
}

/// The durable atomic write of `bytes` over `path` (temp file, fsync, rename, folder fsync).
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".io-baseline-{}-{name}.tmp", std::process::id()));
    let mut f = File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    fs::rename(&tmp, path)?;
    File::open(dir)?.sync_all()
}

/// `atomic` of each of `files`, shared out among `threads` threads (each takes the next file).
fn atomic_all(files: &[PathBuf], threads: usize) -> std::io::Result<()> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    match files.get(i) {
                        Some(file) => atomic(file)?,
                        None => return Ok(()),
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a worker panicked"))
    })
}

struct Stats {
    median: f64,
    p10: f64,
    p90: f64,
    n: usize,
}

/// Runs `op` once to warm up, then at least `min` and at most `max` times, stopping once `budget`
/// has been spent. Times are in milliseconds.
fn measure(
    op: impl Fn() -> std::io::Result<()>,
    min: usize,
    max: usize,
    budget: Duration,
) -> std::io::Result<Stats> {
    op()?;
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < min || (times.len() < max && start.elapsed() < budget) {
        let t = Instant::now();
        op()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    Ok(Stats {
        median: q(0.5),
        p10: q(0.1),
        p90: q(0.9),
        n: times.len(),
    })
}

fn json(s: &Stats) -> String {
    format!(
        "{{\"median\":{:.4},\"p10\":{:.4},\"p90\":{:.4},\"n\":{}}}",
        s.median, s.p10, s.p90, s.n
    )
}

/// The `--concurrent` mode: rounds of [`atomic_all`] over the regular files of `args[4]`.
fn concurrent(args: &[String]) -> std::io::Result<()> {
    let threads: usize = args[0].parse().expect("threads");
    let (min, max, budget) = reps(&args[1..4]);
    let dir = Path::new(&args[4]);
    let files = files_of(dir)?;
    let bytes: u64 = files
        .iter()
        .map(|f| fs::metadata(f).map_or(0, |m| m.len()))
        .sum();
    let a = measure(|| atomic_all(&files, threads), min, max, budget)?;
    println!(
        "{{\"dir\":{:?},\"files\":{},\"bytes\":{},\"threads\":{},\"atomic\":{}}}",
        args[4],
        files.len(),
        bytes,
        threads,
        json(&a)
    );
    Ok(())
}

/// The regular files of `dir`, sorted.
fn files_of(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// One `--serve` command run and timed: the nanoseconds its operation took.
fn serve_one(line: &str) -> Result<u128, String> {
    let (command, rest) = line.trim_end().split_once(' ').unwrap_or((line, ""));
    let timed = |op: &dyn Fn() -> std::io::Result<()>| {
        let t = Instant::now();
        op().map(|()| t.elapsed().as_nanos())
    };
    let result = match (command, rest) {
        ("atomic", file) if !file.is_empty() => timed(&|| atomic(Path::new(file))),
        ("inplace", file) if !file.is_empty() => timed(&|| inplace(Path::new(file))),
        ("write", file) if !file.is_empty() => {
            let bytes = fs::read(file).map_err(|e| format!("{file}: {e}"))?;
            timed(&|| write_atomic(Path::new(file), &bytes))
        }
        ("concurrent", rest) if rest.contains(' ') => {
            let (threads, dir) = rest.split_once(' ').unwrap_or_default();
            let threads: usize = threads.parse().map_err(|_| "threads: not a number")?;
            let files = files_of(Path::new(dir)).map_err(|e| format!("{dir}: {e}"))?;
            timed(&|| atomic_all(&files, threads.max(1)))
        }
        _ => return Err(format!("unknown command {line:?} (atomic <file>, write <file>, inplace <file>, concurrent <threads> <folder>)")),
    };
    result.map_err(|e| e.to_string())
}

/// The `--serve` mode: one command per stdin line, one answer per stdout line, until stdin ends.
fn serve() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        match serve_one(&line?) {
            Ok(ns) => writeln!(out, "{ns}")?,
            Err(why) => writeln!(out, "error: {}", why.replace('\n', " "))?,
        }
        out.flush()?;
    }
    Ok(())
}

/// `<min_reps> <max_reps> <budget_ms>` parsed.
fn reps(args: &[String]) -> (usize, usize, Duration) {
    let min: usize = args[0].parse().expect("min_reps");
    let max: usize = args[1].parse().expect("max_reps");
    let budget = Duration::from_millis(args[2].parse().expect("budget_ms"));
    (min, max, budget)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--serve") {
        return serve();
    }
    if args.first().map(String::as_str) == Some("--concurrent") && args.len() == 6 {
        return concurrent(&args[1..]);
    }
    if args.len() < 4 || args[0].starts_with("--") {
        eprintln!("usage: io_baseline <min_reps> <max_reps> <budget_ms> <file>...");
        eprintln!(
            "       io_baseline --concurrent <threads> <min_reps> <max_reps> <budget_ms> <folder>"
        );
        eprintln!("       io_baseline --serve");
        std::process::exit(2);
    }
    let (min, max, budget) = reps(&args[..3]);
    for file in &args[3..] {
        let path = Path::new(file);
        let bytes = fs::metadata(path)?.len();
        let a = measure(|| inplace(path), min, max, budget)?;
        let b = measure(|| atomic(path), min, max, budget)?;
        println!(
            "{{\"file\":{:?},\"bytes\":{},\"inplace\":{},\"atomic\":{}}}",
            file,
            bytes,
            json(&a),
            json(&b)
        );
    }
    Ok(())
}
