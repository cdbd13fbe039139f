//! Splitting fuzzer bytes into the pieces a target needs (shared by the targets).
#![allow(dead_code)]

/// Splits `data` at the first `n - 1` occurrences of the byte 0xFF into `n` parts (missing parts
/// are empty); each part is read as UTF-8 lossily (fuzzing the matchers, not the decoder).
pub fn parts(data: &[u8], n: usize) -> Vec<String> {
    let mut out: Vec<String> = data
        .splitn(n, |&b| b == 0xFF)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    out.resize(n, String::new());
    out
}

/// A little-endian number from the first bytes of `s` (0 when empty).
pub fn number(s: &str) -> usize {
    s.bytes().take(8).fold(0usize, |acc, b| acc.wrapping_mul(256).wrapping_add(b as usize))
}
