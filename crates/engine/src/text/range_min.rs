//! Minimum over a sliding range whose both ends only move forward (monotonic deque, amortized O(1)).

use std::collections::VecDeque;

/// Answers `min(vals[lo..hi])` for a sequence of queries whose `lo` and `hi` never decrease.
pub struct SlidingMin {
    vals: Vec<u32>,
    queue: VecDeque<usize>,
    pushed: usize,
}

impl SlidingMin {
    pub fn new(vals: Vec<u32>) -> Self {
        SlidingMin {
            vals,
            queue: VecDeque::new(),
            pushed: 0,
        }
    }

    /// `min(vals[lo..hi])`, or `u32::MAX` for an empty range. `lo`/`hi` must not decrease between
    /// calls (a decreasing bound gives an unspecified but non-panicking answer); `hi` is clamped.
    pub fn min(&mut self, lo: usize, hi: usize) -> u32 {
        let hi = hi.min(self.vals.len());
        while self.pushed < hi {
            let v = self.vals[self.pushed];
            while self.queue.back().is_some_and(|&b| self.vals[b] >= v) {
                self.queue.pop_back();
            }
            self.queue.push_back(self.pushed);
            self.pushed += 1;
        }
        while self.queue.front().is_some_and(|&f| f < lo) {
            self.queue.pop_front();
        }
        match self.queue.front() {
            Some(&f) if f < hi => self.vals[f],
            _ => u32::MAX,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliding_windows() {
        let v = [5, 3, 8, 1, 9, 2];
        let mut m = SlidingMin::new(v.to_vec());
        assert_eq!(m.min(0, 2), 3);
        assert_eq!(m.min(1, 3), 3);
        assert_eq!(m.min(2, 3), 8);
        assert_eq!(m.min(2, 5), 1);
        assert_eq!(m.min(4, 6), 2);
        assert_eq!(m.min(6, 6), u32::MAX);
    }

    #[test]
    fn empty_range_is_max() {
        let v = [1];
        let mut m = SlidingMin::new(v.to_vec());
        assert_eq!(m.min(0, 0), u32::MAX);
        assert_eq!(m.min(0, 1), 1);
    }
}
