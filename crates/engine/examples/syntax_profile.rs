//! Timing of the syntax guard's check (profiling aid for `npm run bench`; not part of the product API).
//!
//! Reads the files given on the command line, makes one edit near the middle of each (the first line
//! after it assigning `limit_` gets ` + 1` appended, before its `;` where it has one: the bench's edit)
//! and times [`check`] on it (the edit's paragraphs parsed on this thread) against a parse of the
//! whole file. Medians in ms.
//!
//! Usage: `syntax_profile FILE...`

#[path = "common/profile.rs"]
#[allow(dead_code)]
mod profile;

use edit_engine_core::symbols::{language_for_path, parse};
use edit_engine_core::syntax::{check, DEFAULT_MAX_BYTES};
use std::path::Path;

fn main() {
    for name in std::env::args().skip(1) {
        let path = Path::new(&name);
        let before = std::fs::read_to_string(path).expect("readable UTF-8 file");
        let middle = before.len() / 2;
        let start = before[middle..]
            .match_indices('\n')
            .map(|(i, _)| middle + i + 1)
            .find(|&i| {
                let line = before[i..].trim_start_matches(' ');
                ["limit_", "const limit_", "int limit_"]
                    .iter()
                    .any(|p| line.starts_with(p))
            })
            .expect("a `limit_` line");
        let end = start + before[start..].find('\n').unwrap_or(before.len() - start);
        let line = &before[start..end];
        let edited = match line.strip_suffix(';') {
            Some(body) => format!("{body} + 1;"),
            None => format!("{line} + 1"),
        };
        let after = format!("{}{edited}{}", &before[..start], &before[end..]);
        let lang = language_for_path(path).expect("a parsed language");
        let reps = if before.len() > 1 << 20 { 9 } else { 41 };
        let checked = profile::median(reps, || {
            check(path, Some(&before), &after, DEFAULT_MAX_BYTES, None);
        });
        let whole = profile::median(reps, || {
            std::hint::black_box(parse(&before, lang).ok());
        });
        let verdict = check(path, Some(&before), &after, DEFAULT_MAX_BYTES, None);
        println!(
            "{name}: {} bytes, check {checked:.3} ms, whole parse {whole:.3} ms, verdict {verdict:?}",
            before.len()
        );
    }
}
