//! Native I/O baseline for `npm run bench` (not part of the product API).
//!
//! For each file given, measures what the disk costs for the same bytes, with nothing else in the way:
//! - `inplace`: read the file, rewrite it in place (truncate + write) and `fsync` it;
//! - `atomic`: read the file, write a temp file next to it, `fsync`, rename it over the file and
//!   `fsync` the directory (the same durable protocol the engine's `fs::atomic` uses).
//!
//! The file's content is left unchanged. Output: one JSON object per file on stdout.
//!
//! Usage: `io_baseline <min_reps> <max_reps> <budget_ms> <file>...`

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

fn inplace(path: &Path) -> std::io::Result<()> {
    let bytes = fs::read(path)?;
    let mut f = OpenOptions::new().write(true).truncate(true).open(path)?;
    f.write_all(&bytes)?;
    f.sync_all()
}

fn atomic(path: &Path) -> std::io::Result<()> {
    let bytes = fs::read(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".io-baseline-{}.tmp", std::process::id()));
    let mut f = File::create(&tmp)?;
    f.write_all(&bytes)?;
    f.sync_all()?;
    drop(f);
    fs::rename(&tmp, path)?;
    File::open(dir)?.sync_all()
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

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: io_baseline <min_reps> <max_reps> <budget_ms> <file>...");
        std::process::exit(2);
    }
    let min: usize = args[0].parse().expect("min_reps");
    let max: usize = args[1].parse().expect("max_reps");
    let budget = Duration::from_millis(args[2].parse().expect("budget_ms"));
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
