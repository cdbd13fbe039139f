//! Criterion benches of the line helpers: `compute_line_hash`, `annotate_output_with_hashes`
//! (100k lines of extract-style output) and `clean_new_string`.

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use edit_engine_core::lines::{annotate_output_with_hashes, clean_new_string, compute_line_hash};

fn line_hash(c: &mut Criterion) {
    let line = "    const response = await this.client.get(`/records/${id}?v=12`);";
    c.bench_function("compute_line_hash", |b| {
        b.iter(|| compute_line_hash(black_box(line)))
    });
}

fn annotate(c: &mut Criterion) {
    let (code, _) = common::source(100_000 * 40);
    let output: String = code
        .split('\n')
        .take(100_000)
        .enumerate()
        .map(|(n, l)| format!("{:>6} | {l}\n", n + 1))
        .collect();
    let mut group = c.benchmark_group("annotate_output_with_hashes");
    group.sample_size(20);
    group.throughput(Throughput::Elements(100_000));
    group.bench_function("100k lines", |b| {
        b.iter(|| annotate_output_with_hashes(black_box(&output)))
    });
    group.finish();
}

fn clean(c: &mut Criterion) {
    let (code, t) = common::source(100 * 1024);
    let lines: Vec<&str> = code.split('\n').collect();
    let [a, b, e] = common::target_lines(t);
    let start = lines.iter().position(|l| *l == a).unwrap() + 1;
    // Echoed `N:hh | ` prefixes and a shifted base indentation: every correction step runs.
    let new_string = [a.replace('>', ">="), b, e]
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}:{} | {}", start + i, compute_line_hash(l), &l[2..]))
        .collect::<Vec<_>>()
        .join("\n");
    c.bench_function("clean_new_string (3 lines, prefixes + indent)", |bch| {
        bch.iter(|| clean_new_string(black_box(&new_string), &lines, start, start + 2, None))
    });
}

criterion_group!(benches, line_hash, annotate, clean);
criterion_main!(benches);
