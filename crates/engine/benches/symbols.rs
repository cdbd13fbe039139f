//! Symbol replace vs plain read + write on generated 6 KB and 328 KB JavaScript files.
//!
//! `cargo bench -p edit-engine-core --bench symbols` prints the median of each case. Cases:
//! - `read+write`: read the file and write it back (the floor any edit pays);
//! - `symbol replace (whole parse)`: read, parse the whole file, find, plan, write;
//! - `symbol replace (cache)`: the same through a [`ParseCache`] kept across edits, as the tools do (in these
//!   files the cache's chunked lookup parses only the pieces naming the symbol);
//! - `find (chunked)`: [`find_all_symbols_chunked`] alone; `find (cache)`: the lookup through the cache;
//! - per language: a cold lookup of a method by qualified name (`Store{n}.put{n}`) in a 32 KB source of
//!   every supported language (whole-file parse; JavaScript and TypeScript also chunked).

use std::path::Path;
use std::time::{Duration, Instant};

#[path = "common/languages.rs"]
mod languages;

use edit_engine_core::symbols::{
    find_all_symbols, find_all_symbols_chunked, plan_replace, Language, ParseCache, ALL_LANGUAGES,
};

const LANG: Language = Language::JavaScript;

/// A JavaScript file of at least `bytes` bytes: documented exported functions and small classes.
fn generate(bytes: usize) -> String {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&format!(
            "/**\n * Function number {i}.\n */\nexport function fn{i}(a, b) {{\n  const x = a + b * {i};\n  if (x > 10) {{\n    return [x, a, b].map((v) => v * 2).filter(Boolean);\n  }}\n  return {{ value: x, name: \"fn{i}\", list: [1, 2, 3] }};\n}}\n\nclass Service{i} {{\n  constructor(opts) {{\n    this.opts = opts;\n  }}\n\n  run(input) {{\n    return fn{i}(input, this.opts.factor);\n  }}\n}}\n\n"
        ));
        i += 1;
    }
    out
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time<F: FnMut(usize)>(iterations: usize, mut f: F) -> Duration {
    let samples = (0..iterations)
        .map(|i| {
            let t = Instant::now();
            f(i);
            t.elapsed()
        })
        .collect();
    median(samples)
}

/// The body written by the i-th edit (alternating so every write changes the file).
fn new_body(i: usize) -> String {
    format!("function fn7(a, b) {{\n  return a - b + {};\n}}", i % 2)
}

fn replace_whole_parse(path: &Path, i: usize) {
    let src = std::fs::read_to_string(path).expect("read");
    let found = find_all_symbols(&src, LANG, "fn7").expect("find");
    let plan = plan_replace(&src, &found[0], &new_body(i));
    std::fs::write(path, plan.new_source).expect("write");
}

fn replace_cached(cache: &ParseCache, path: &Path, i: usize) {
    let src = std::fs::read_to_string(path).expect("read");
    let found = cache
        .find_all_symbols(path, &src, LANG, "fn7")
        .expect("find");
    let plan = plan_replace(&src, &found[0], &new_body(i));
    std::fs::write(path, &plan.new_source).expect("write");
    cache.record_edit(path, LANG, &src, &plan.new_source, plan.edit);
}

fn bench_size(label: &str, bytes: usize, iterations: usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bench.js");
    std::fs::write(&path, generate(bytes)).expect("write");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "{label} ({} KB, {iterations} iterations, median):",
        size / 1024
    );

    let rw = time(iterations, |_| {
        let s = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, s).expect("write");
    });
    println!("  read+write               {rw:>12.2?}");

    let cold = time(iterations, |i| replace_whole_parse(&path, i));
    println!("  symbol replace (whole parse) {cold:>12.2?}");

    let cache = ParseCache::default();
    replace_cached(&cache, &path, 0);
    let warm = time(iterations, |i| replace_cached(&cache, &path, i + 1));
    println!("  symbol replace (cache)   {warm:>12.2?}");

    let src = std::fs::read_to_string(&path).expect("read");
    let chunked = time(iterations, |_| {
        find_all_symbols_chunked(&src, LANG, "Service7.run")
            .expect("splits")
            .expect("find");
    });
    println!("  find Service7.run (chunked) {chunked:>9.2?}");
    let find = time(iterations, |_| {
        cache
            .find_all_symbols(&path, &src, LANG, "Service7.run")
            .expect("find");
    });
    println!("  find Service7.run (cache) {find:>11.2?}");
}

/// A cold lookup of the method of the unit nearest the middle, in a 32 KB source per language.
fn per_language(iterations: usize) {
    println!("symbol lookup per language (32 KB, cold: whole-file parse; {iterations} iterations, median):");
    for lang in ALL_LANGUAGES {
        let (src, mid) = languages::source(lang, 32 * 1024);
        let name = languages::target(lang, mid);
        let found = find_all_symbols(&src, lang, &name).expect("parse");
        assert_eq!(
            found.len(),
            1,
            "{lang:?}: {name} found {} times",
            found.len()
        );
        let whole = time(iterations, |_| {
            find_all_symbols(&src, lang, &name).expect("find");
        });
        let chunked = match find_all_symbols_chunked(&src, lang, &name) {
            Some(result) => {
                assert_eq!(
                    result.expect("find"),
                    found,
                    "{lang:?}: chunked lookup differs"
                );
                let t = time(iterations, |_| {
                    find_all_symbols_chunked(&src, lang, &name);
                });
                format!("  chunked {t:>10.2?}")
            }
            None => String::new(),
        };
        println!("  {:<12} whole {whole:>10.2?}{chunked}", lang.name());
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is accepted and ignored.
    bench_size("6 KB JavaScript", 6 * 1024, 200);
    bench_size("328 KB JavaScript", 328 * 1024, 40);
    per_language(30);
}
