//! The edit tool on disk: text replace old->new then new->old, and line replace then replace
//! back, restore the file; an error never changes it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

mod common;
#[path = "../../crates/engine/tests/fuzz_props/invariants.rs"]
mod invariants;

fn dir() -> &'static std::path::Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

fuzz_target!(|data: &[u8]| {
    let p = common::parts(data, 4);
    let content = p[0].replace('\0', "");
    let new = p[2].replace('\0', "");
    let n = common::number(&p[3]);
    let chars: Vec<char> = content.chars().collect();
    if !chars.is_empty() {
        let a = n % chars.len();
        let b = a + 1 + (n >> 16) % (chars.len() - a);
        let old: String = chars[a..b].iter().collect();
        if content.matches(old.as_str()).count() == 1 {
            if let Err(e) = invariants::check_text_roundtrip(dir(), &content, &old, &new) {
                panic!("{e}");
            }
        }
    }
    let lines: Vec<String> = content.split('\n').map(|l| l.replace('\r', "")).collect();
    if let Err(e) = invariants::check_line_roundtrip(dir(), &lines, n, new.lines().next().unwrap_or("")) {
        panic!("{e}");
    }
});
