//! The `replace_in_file` planner: no panic; overlapping ranges refused; one-line replacements keep
//! the original numbering and their inverse restores the input; a literal there and back restores.
#![no_main]
use libfuzzer_sys::fuzz_target;

mod common;
#[path = "../../crates/engine/tests/fuzz_props/invariants.rs"]
mod invariants;

use edit_engine_core::batch_plan::{Op, OpKind};

fuzz_target!(|data: &[u8]| {
    // text 0xFF ops: each op is a kind byte, two line bytes and a text up to the next 0xFE.
    let parts = common::parts(data, 3);
    let (text, spec, search) = (&parts[0], parts[1].as_bytes(), &parts[2]);
    let mut ops = Vec::new();
    for (i, chunk) in spec.split(|&b| b == 0xFE).enumerate().take(8) {
        let (kind, rest) = chunk.split_first().unwrap_or((&0, &[]));
        let start = rest.first().copied().unwrap_or(1) as usize;
        let end = start + rest.get(1).copied().unwrap_or(0) as usize % 4;
        let body = String::from_utf8_lossy(rest.get(2..).unwrap_or(&[])).into_owned();
        let kind = match kind % 4 {
            0 => OpKind::Lines { start, end, text: body },
            1 => OpKind::InsertBefore { line: start, text: body },
            2 => OpKind::InsertAfter { line: start, text: body },
            _ => OpKind::Literal { search: body, replace: "z".into() },
        };
        ops.push(Op { index: i + 1, kind });
    }
    let picks: Vec<usize> = spec.iter().take(4).map(|&b| b as usize).collect();
    for check in [
        invariants::check_batch_any(text, &ops),
        invariants::check_batch_line_roundtrip(text, &picks),
        invariants::check_batch_literal_roundtrip(text, search),
    ] {
        if let Err(e) = check {
            panic!("{e}");
        }
    }
});
