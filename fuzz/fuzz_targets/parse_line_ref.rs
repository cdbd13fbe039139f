//! `parse_line_ref`: no panic, results are canonical and round-trip.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/engine/tests/fuzz_props/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    if let Err(e) = invariants::check_parse_line_ref(&s) {
        panic!("{e}");
    }
    if data.len() >= 9 {
        let n = usize::from_le_bytes(data[..8].try_into().unwrap());
        let hash = (data[8] & 1 == 1).then_some(data[8]);
        if let Err(e) = invariants::check_line_ref_roundtrip(n, hash) {
            panic!("{e}");
        }
    }
});
