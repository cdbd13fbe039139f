//! Criterion benches of the fuzzy match strategies on 1 MB and 4 MB code-like inputs, each with a
//! search crafted so that the strategy matches (one region, near the middle of the file), and the
//! whole cascade (the edit tool's driver, [`locate`]) on a search that matches nowhere. Every strategy of the cascade has a case.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use edit_engine_core::text::{find_fuzzy_match, locate, Restriction, Strategy};

/// A bench case: name, search, and the check that must hold.
type Case<'a> = (&'a str, &'a str, fn(&str, &str) -> bool);

fn strategies(c: &mut Criterion) {
    let mut group = c.benchmark_group("strategy");
    group.sample_size(10);
    for (label, bytes) in [("1MB", 1 << 20), ("4MB", 4 << 20)] {
        let (content, t) = common::source(bytes);
        let lines = common::target_lines(t);
        let common::Searches {
            trimmed,
            drifted,
            anchored,
            unmatched,
        } = common::searches(&lines);
        assert!(!content.contains(&trimmed) && !content.contains(&drifted));
        let [a, b, e] = &lines;
        // Typographic quotes around a string of the config unit after the target.
        let quoted = format!("  batch_{u}_1: \u{2018}merge-{u}-1\u{2019},", u = t + 2);
        // The target lines joined by a literal `\n`, as a model that over-escapes writes them.
        let escaped = format!("{a}\\n{b}\\n{e}");
        // The target lines between blank lines.
        let padded = format!("\n\n{a}\n{b}\n{e}\n\n");
        group.throughput(Throughput::Bytes(content.len() as u64));
        // One search per strategy, in `Strategy::ALL` order; each runs through the tool's driver
        // restricted to that strategy, and must be won by it.
        // The target lines three levels deeper than in the file.
        let shifted: String = lines.iter().map(|l| format!("            {l}\n")).collect();
        let searches: [&str; 8] = [
            &trimmed, &drifted, &trimmed, &shifted, &quoted, &escaped, &padded, &anchored,
        ];
        for (strategy, search) in Strategy::ALL.into_iter().zip(searches) {
            let only = Restriction::Only(strategy);
            let won = |c: &str| locate(c, search, only).map(|l| l.strategy);
            let name = strategy.as_str();
            assert_eq!(won(&content), Some(Some(strategy)), "{name} must match");
            group.bench_with_input(BenchmarkId::new(name, label), &content, |bch, content| {
                bch.iter(|| won(content))
            });
        }
        let cases: [Case; 2] = [
            ("cascade (whitespace-drifted)", &drifted, |c, s| {
                find_fuzzy_match(c, s).is_some()
            }),
            ("cascade (no match)", &unmatched, |c, s| {
                locate(c, s, Restriction::Any).is_none()
            }),
        ];
        for (name, search, f) in cases {
            assert!(f(&content, search), "{name} must match");
            group.bench_with_input(BenchmarkId::new(name, label), &content, |bch, content| {
                bch.iter(|| f(content, search))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, strategies);
criterion_main!(benches);
