//! Checks the chunked symbol lookup against the whole-file lookup on real JavaScript/TypeScript trees
//! (a verification aid for `symbols::find_all_symbols_chunked`; not part of the product API).
//!
//! For every `.js .mjs .cjs .ts .mts .cts` file under the given folders (`node_modules` included, files
//! over 300 KB skipped), it asks for each defined name (bare, qualified, `::`-anchored; at most 60 per
//! file) and compares. With `--mutate`, each file is also mutated 12 times (a bracket, quote, slash or
//! newline inserted or deleted); mutants that still parse cleanly must agree too, and those with a
//! syntax error are only counted (there the chunked lookup may find a symbol that the whole-file error
//! recovery swallows). Exits 1 on any disagreement.
//!
//! Usage: `cargo run --release -p edit-engine-core --example symbols_equivalence -- [--mutate] <dir>...`

use std::collections::BTreeSet;
use std::path::Path;

use edit_engine_core::symbols::{
    find_all_symbols, find_all_symbols_chunked, list_symbols, parse, Language,
};

#[path = "../tests/support/mutate.rs"]
mod mutate;
#[path = "../tests/support/rng.rs"]
mod rng;
use mutate::mutate;
use rng::Rng;

#[derive(Default)]
struct Counts {
    files: usize,
    lookups: usize,
    chunked: usize,
    mutants: usize,
    differ_with_errors: usize,
    disagreements: usize,
}

fn language(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "js" | "mjs" | "cjs" => Some(Language::JavaScript),
        "ts" | "mts" | "cts" => Some(Language::TypeScript),
        _ => None,
    }
}

/// Compares every name on `src`; a difference counts as a disagreement only when `src` parses cleanly.
fn compare(src: &str, lang: Language, names: &[String], what: &str, counts: &mut Counts) {
    let mut clean: Option<bool> = None;
    for name in names {
        counts.lookups += 1;
        let Some(chunked) = find_all_symbols_chunked(src, lang, name) else {
            continue;
        };
        counts.chunked += 1;
        if chunked == find_all_symbols(src, lang, name) {
            continue;
        }
        let is_clean = *clean
            .get_or_insert_with(|| parse(src, lang).is_ok_and(|t| !t.root_node().has_error()));
        if is_clean {
            counts.disagreements += 1;
            println!("DISAGREE {what}: `{name}`");
        } else {
            counts.differ_with_errors += 1;
        }
    }
}

/// Compares the lookups of the names defined in one file (and, with `mutating`, in 12 mutants).
fn check_file(
    raw: &str,
    lang: Language,
    what: &str,
    mutating: bool,
    rng: &mut Rng,
    counts: &mut Counts,
) {
    let src = raw.replace("\r\n", "\n");
    let src = src.strip_prefix('\u{feff}').unwrap_or(&src);
    let Ok(symbols) = list_symbols(src, lang) else {
        return;
    };
    counts.files += 1;
    let names: Vec<String> = symbols
        .iter()
        .flat_map(|s| {
            [
                s.name().to_string(),
                s.qualified_name.clone(),
                format!("::{}", s.name()),
            ]
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .take(60)
        .collect();
    compare(src, lang, &names, what, counts);
    if mutating && !names.is_empty() && src.len() <= 60_000 {
        for _ in 0..12 {
            let mutant = mutate(src, rng);
            counts.mutants += 1;
            let picked: Vec<String> = (0..3)
                .map(|_| names[rng.below(names.len())].clone())
                .collect();
            compare(&mutant, lang, &picked, &format!("mutant of {what}"), counts);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mutating = args.iter().any(|a| a == "--mutate");
    let mut rng = Rng(0x00c0_ffee);
    let mut counts = Counts::default();
    for dir in args.iter().filter(|a| !a.starts_with("--")) {
        let walk = ignore::WalkBuilder::new(dir)
            .standard_filters(false)
            .build();
        for entry in walk.flatten() {
            let path = entry.path();
            let Some(lang) = language(path) else { continue };
            if entry
                .metadata()
                .map_or(true, |m| !m.is_file() || m.len() > 300_000)
            {
                continue;
            }
            let Ok(raw) = std::fs::read_to_string(path) else {
                continue;
            };
            check_file(
                &raw,
                lang,
                &path.display().to_string(),
                mutating,
                &mut rng,
                &mut counts,
            );
        }
    }
    let Counts {
        files,
        lookups,
        chunked,
        mutants,
        differ_with_errors,
        disagreements,
    } = counts;
    println!("files {files}, lookups {lookups}, chunked {chunked}, mutants {mutants}, differ only where the source has a syntax error {differ_with_errors}, disagreements {disagreements}");
    if disagreements > 0 {
        std::process::exit(1);
    }
}
