//! Every match strategy and the cascade: no panic, valid char-boundary regions; blocks of whole
//! lines are found in place (the exact-match invariant).
#![no_main]
use libfuzzer_sys::fuzz_target;

mod common;
#[path = "../../crates/engine/tests/fuzz_props/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    let p = common::parts(data, 3);
    if let Err(e) = invariants::check_cascade(&p[0], &p[1]) {
        panic!("{e}");
    }
    let lines: Vec<String> = p[0].split('\n').map(str::to_string).collect();
    let n = common::number(&p[2]);
    if let Err(e) = invariants::check_exact_block(&lines, n & 0xFF, n >> 8) {
        panic!("{e}");
    }
});
