//! xorshift64*: a small, seeded generator, good enough to spread test inputs. Shared by the
//! engine's unit tests (`src/text/reference_tests.rs`) and the `fuzz_props` integration tests,
//! which cannot see each other's `cfg(test)` items, by `#[path]`.

/// The generator; the field is the seed (non-zero) and then its state.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One of `items` (which must not be empty).
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}
