//! The changed window of an edit and the matching of errors before and after it (see the module docs of
//! [`super`] for the rules).

use super::problems::{Kind, RawProblem};
use crate::common_ends::KnownEnds;

/// The bytes an edit changed: `before[start..old_end]` became `after[start..new_end]`; what precedes and
/// follows is equal in both texts. Bounds lie on character boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl Window {
    /// The window between the common prefix and the common suffix of `before` and `after`.
    pub fn between(before: &str, after: &str) -> Window {
        Window::between_known(before, after, KnownEnds::NONE)
    }

    /// [`Window::between`], the common ends found from what is `known` of them.
    pub fn between_known(before: &str, after: &str, known: KnownEnds) -> Window {
        let (b, a) = (before.as_bytes(), after.as_bytes());
        let mut start = known.prefix(b, a);
        while !before.is_char_boundary(start) {
            start -= 1;
        }
        let mut suffix = known.suffix_after(b, a, start);
        while !before.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        Window {
            start,
            old_end: b.len() - suffix,
            new_end: a.len() - suffix,
        }
    }

    /// Where a position of the old text is in the new one; `None` inside the window.
    fn map(&self, pos: usize) -> Option<usize> {
        if pos < self.start {
            Some(pos)
        } else if pos >= self.old_end && (pos > self.start || self.old_end == self.start) {
            Some(pos + self.new_end - self.old_end)
        } else {
            None
        }
    }

    /// Whether a position of the new text lies in the window (its end included).
    fn holds_new(&self, pos: usize) -> bool {
        (self.start..=self.new_end).contains(&pos)
    }
}

/// The errors of `after` that `before` does not account for. `pieces` are the top-level ranges of the new
/// text (ascending) for the third rule. Last, an error in or right after a call-shaped construct is
/// dropped when the old text had an error of the same kind at a construct of the same name: the grammar
/// fails on that macro (`TEST_CASE("x") { ... }` in C++), and new uses of it are not mistakes.
pub(crate) fn introduced(
    before: &[RawProblem],
    after: &[RawProblem],
    window: &Window,
    pieces: &[(usize, usize)],
) -> Vec<RawProblem> {
    let mapped: Vec<Option<usize>> = before.iter().map(|p| window.map(p.start)).collect();
    let mut used = vec![false; before.len()];
    let claim = |used: &mut Vec<bool>, wanted: &dyn Fn(usize) -> bool| {
        let i = (0..before.len()).find(|&i| !used[i] && wanted(i))?;
        used[i] = true;
        Some(i)
    };
    let mut left: Vec<RawProblem> = Vec::new();
    for a in after {
        let same_place = |i: usize| before[i].kind == a.kind && mapped[i] == Some(a.start);
        if claim(&mut used, &same_place).is_none() {
            left.push(a.clone());
        }
    }
    left.retain(|a| {
        let in_window = |i: usize| before[i].kind == a.kind && mapped[i].is_none();
        !(window.holds_new(a.start) && claim(&mut used, &in_window).is_some())
    });
    left.retain(|a| {
        let Some(piece) = piece_of(pieces, a.start) else {
            return true;
        };
        let same_piece = |i: usize| {
            let at = mapped[i].unwrap_or(window.start);
            piece.0 <= at && at < piece.1.max(piece.0 + 1)
        };
        claim(&mut used, &same_piece).is_none()
    });
    left.retain(|a| {
        !before
            .iter()
            .any(|b| a.call.is_some() && b.call == a.call && b.kind == a.kind)
    });
    left
}

/// The top-level range holding `pos`.
fn piece_of(pieces: &[(usize, usize)], pos: usize) -> Option<(usize, usize)> {
    let i = pieces.partition_point(|p| p.0 <= pos).checked_sub(1)?;
    let piece = pieces[i];
    (pos <= piece.1).then_some(piece)
}

/// Whether `kind` is a MISSING closing bracket.
pub(crate) fn missing_closer(kind: &Kind) -> Option<&str> {
    match kind {
        Kind::Missing(k) if matches!(k.as_str(), "}" | ")" | "]") => Some(k),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(start: usize) -> RawProblem {
        RawProblem {
            kind: Kind::Error,
            start,
            end: start + 1,
            call: None,
        }
    }

    #[test]
    fn a_new_use_of_a_macro_the_grammar_fails_on_is_not_introduced() {
        let w = Window::between("0123456789", "0123456789abcdef");
        let at = |start: usize, call: &str| RawProblem {
            call: Some(call.to_string()),
            ..err(start)
        };
        assert!(introduced(
            &[at(2, "TEST_CASE")],
            &[at(2, "TEST_CASE"), at(12, "TEST_CASE")],
            &w,
            &[]
        )
        .is_empty());
        assert_eq!(
            introduced(
                &[at(2, "TEST_CASE")],
                &[at(2, "TEST_CASE"), at(12, "f")],
                &w,
                &[]
            )
            .len(),
            1
        );
    }

    #[test]
    fn the_window_lies_between_prefix_and_suffix() {
        let w = Window::between("abcXdef", "abcYYdef");
        assert_eq!((w.start, w.old_end, w.new_end), (3, 4, 5));
        let w = Window::between("aaa", "aaaa");
        assert_eq!((w.start, w.old_end, w.new_end), (3, 3, 4));
        let w = Window::between("x é y", "x è y");
        assert!("x é y".is_char_boundary(w.start) && w.start == 2);
    }

    #[test]
    fn an_error_moved_by_the_edit_is_not_introduced() {
        let w = Window::between("0123456789", "01xx23456789");
        let left = introduced(&[err(1), err(8)], &[err(1), err(10)], &w, &[]);
        assert!(left.is_empty());
        let left = introduced(&[err(8)], &[err(8), err(10)], &w, &[]);
        assert_eq!(left, vec![err(8)]);
    }

    #[test]
    fn errors_inside_the_window_are_compared_by_count() {
        let w = Window::between("aaBBBcc", "aaDDDDcc");
        assert!(introduced(&[err(3)], &[err(4)], &w, &[]).is_empty());
        assert_eq!(introduced(&[err(3)], &[err(2), err(4)], &w, &[]).len(), 1);
    }

    #[test]
    fn an_error_that_moved_within_its_piece_is_not_introduced() {
        let w = Window::between("0123456789abcdef", "0123x456789abcdef");
        let pieces = [(0, 3), (3, 17)];
        assert!(introduced(&[err(12)], &[err(9)], &w, &pieces).is_empty());
        assert_eq!(introduced(&[err(1)], &[err(9)], &w, &pieces), vec![err(9)]);
    }
}
