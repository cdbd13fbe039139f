//! What the profiling examples share: their command line and the median timer. Included by
//! `#[path]` (examples cannot import each other).

use std::time::Instant;

/// `[bytes=4194304] [reps=15]` from the command line: the generated file's size and the runs per
/// median. Panics (an example, not the product) when an argument is not a number.
pub fn bytes_and_reps() -> (usize, usize) {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("number"))
        .collect();
    let bytes = args.first().copied().unwrap_or(4 << 20);
    let reps = args.get(1).copied().unwrap_or(15);
    (bytes, reps)
}

/// The median wall time of `reps` runs of `f`, in ms.
pub fn median(reps: usize, mut f: impl FnMut()) -> f64 {
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
