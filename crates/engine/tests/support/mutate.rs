//! Small random damage to source text, for checks that must hold on almost-valid code: one or two
//! bracket, quote, slash, `*`, `;`, `<`, `!` or newline characters inserted, or ASCII characters
//! deleted. Included by `#[path]` next to `rng.rs` (the symbol tests and `examples/symbols_equivalence`).

use super::rng::Rng;

const DAMAGE: [&str; 15] = [
    "{", "}", "(", ")", "[", "]", "'", "\"", "`", "/", "*", ";", "\n", "<", "!",
];

/// `src` with one or two random insertions or deletions.
pub fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut text = src.to_string();
    for _ in 0..=rng.below(2) {
        let at = rng.below(text.len());
        if !text.is_char_boundary(at) {
            continue;
        }
        if rng.below(2) == 0 && text[at..].starts_with(|c: char| c.is_ascii()) {
            text.remove(at);
        } else {
            text.insert_str(at, rng.pick(&DAMAGE));
        }
    }
    text
}
