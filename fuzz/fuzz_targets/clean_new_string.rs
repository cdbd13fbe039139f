//! The line-edit auto-corrections (`clean_new_string`): no panic for any range or position;
//! restating the replaced lines verbatim is a no-op.
#![no_main]
use edit_engine_core::lines::Position;
use libfuzzer_sys::fuzz_target;

mod common;
#[path = "../../crates/engine/tests/fuzz_props/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    let p = common::parts(data, 4);
    let lines: Vec<String> = p[1].split('\n').map(str::to_string).collect();
    let n = common::number(&p[2]);
    let m = common::number(&p[3]);
    let position = [None, Some(Position::Before), Some(Position::After)][m % 3];
    if let Err(e) = invariants::check_clean_new_string(&p[0], &lines, n, m / 3, position) {
        panic!("{e}");
    }
});
