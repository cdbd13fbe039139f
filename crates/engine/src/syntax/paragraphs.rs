//! Paragraphs: the pieces of a file the guard parses alone instead of the whole file.
//!
//! A paragraph of a level (an indentation: `""` for the top level, the members' indentation inside a
//! class) starts at a line that begins with exactly that indentation and then a word character or one
//! of `$ @ # / "` (a definition, a decorator, an attribute, a comment), but not a word that continues
//! a statement (`else`, `end`, `except`, ...), right after a blank line or a less indented line (the
//! class's own first line); the text's start is a top-level start too. A paragraph runs to the next
//! start, or to a less indented line (the end of the class). This is a heuristic with no lexing: a
//! multi-line string or an unindented block can hold such a line. The guard therefore trusts a
//! paragraph only when it parses alone without an error; see [`super::scope`].

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::ops::Range;

use super::cause::line_at;
use super::introduced::Window;

/// Words that begin a line continuing the statement above it, never a new one.
const CONTINUATIONS: &[&str] = &[
    "catch", "elif", "else", "elseif", "elsif", "end", "ensure", "except", "finally", "rescue",
    "until", "when",
];

/// The paragraphs of one indentation level of a text.
#[derive(Clone, Copy)]
pub(crate) struct Level<'a> {
    pub text: &'a str,
    pub indent: &'a str,
}

impl<'a> Level<'a> {
    pub fn top(text: &'a str) -> Level<'a> {
        Level { text, indent: "" }
    }

    /// Whether a paragraph starts at `at` (`at` must be a character boundary).
    pub fn starts_at(&self, at: usize) -> bool {
        if at == 0 {
            return self.indent.is_empty();
        }
        let bytes = self.text.as_bytes();
        if at > bytes.len() || bytes[at - 1] != b'\n' {
            return false;
        }
        if self.indent.is_empty() && at >= 2 && ends_in_a_visible_ascii_char(bytes[at - 2]) {
            // The line above is not blank: no top-level paragraph starts here (checked in O(1), so
            // a scan over a long run of unbroken lines costs one look per line).
            return false;
        }
        let Some(rest) = self.text[at..].strip_prefix(self.indent) else {
            return false;
        };
        let opens = rest.bytes().next().is_some_and(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'@' | b'#' | b'/' | b'"')
        });
        let previous = line_at(self.text, at - 1);
        opens
            && !continues(rest)
            && (previous.trim().is_empty() || indentation(previous) < self.indent.len())
    }

    /// Whether the line at `at` ends the level's paragraphs: a non-blank line less indented (never at
    /// the top level).
    fn ends_at(&self, at: usize) -> bool {
        if self.indent.is_empty() {
            return false;
        }
        let line = line_at(self.text, at);
        !line.trim().is_empty() && indentation(line) < self.indent.len()
    }

    /// The last paragraph start at or before `pos`, not before `floor`; `None` when there is none, or
    /// a less indented line lies between (`pos` is not inside a paragraph of this level).
    pub fn start_at_or_before(&self, pos: usize, floor: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut at = line_start(bytes, pos);
        if self.indent.is_empty() && at > 0 && !self.starts_at(at) {
            // Only a line that starts with a visible byte can start a top-level paragraph.
            let starts = memchr::memrchr_iter(b'\n', &bytes[floor..at - 1]).map(|i| floor + i + 1);
            let mut visible = starts.filter(|&at| !bytes[at].is_ascii_whitespace());
            return Some(visible.find(|&at| self.starts_at(at)).unwrap_or(floor));
        }
        loop {
            if self.starts_at(at) {
                return Some(at);
            }
            if at <= floor || (at < pos && self.ends_at(at)) {
                return None;
            }
            at = line_start(bytes, at - 1);
        }
    }

    /// The first paragraph start or end of the level at or after `pos`; the text's length when there
    /// is none.
    pub fn boundary_at_or_after(&self, pos: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut at = if pos == 0 || bytes.get(pos - 1) == Some(&b'\n') {
            pos
        } else {
            next_line(bytes, pos)
        };
        if self.indent.is_empty() && at < bytes.len() && !self.starts_at(at) {
            let starts = memchr::memchr_iter(b'\n', &bytes[at..]).map(|i| at + i + 1);
            let mut visible =
                starts.filter(|&at| at < bytes.len() && !bytes[at].is_ascii_whitespace());
            return visible
                .find(|&at| self.starts_at(at))
                .unwrap_or(bytes.len());
        }
        while at < bytes.len() && !self.starts_at(at) && !self.ends_at(at) {
            at = next_line(bytes, at);
        }
        at.min(bytes.len())
    }

    /// Whether a paragraph of the level starts or the level ends at `at`.
    pub fn is_boundary(&self, at: usize) -> bool {
        self.starts_at(at) || self.ends_at(at)
    }

    /// The first boundary after the line at `at` (see [`Level::boundary_at_or_after`]).
    pub fn boundary_after(&self, at: usize) -> usize {
        self.boundary_at_or_after(next_line(self.text.as_bytes(), at))
    }

    /// The paragraphs of `range` (its start taken as one), as ranges of the text, when the range's
    /// boundaries other than its ends can only lie on lines that start within `changed` (the range is
    /// the paragraphs around an edit, `changed` the edit's window): only those lines are looked at.
    pub fn split(&self, range: Range<usize>, changed: Range<usize>) -> Vec<Range<usize>> {
        let bytes = self.text.as_bytes();
        let mut out = Vec::new();
        let mut from = range.start;
        let first = next_line(bytes, from).max(line_start(bytes, changed.start));
        let last = range.end.min(changed.end + 1).max(first);
        // Line starts from `first` to `last`; at the top level only those with a visible byte.
        let starts = std::iter::once(first)
            .chain(memchr::memchr_iter(b'\n', &bytes[first..last]).map(|i| first + i + 1))
            .filter(|&at| at < last);
        for at in starts {
            let visible = bytes.get(at).is_some_and(|b| !b.is_ascii_whitespace());
            if (visible || !self.indent.is_empty()) && self.is_boundary(at) {
                out.push(from..at);
                from = at;
            }
        }
        if from < range.end {
            out.push(from..range.end);
        }
        out
    }
}

/// The paragraphs of `after` from `from` to `new_to` whose text is not among the paragraphs of
/// `before` from `from` to `old_to` (each old paragraph accounts for one equal new one): the only ones
/// the edit `w` can have broken. `from` must be a start and `new_to` a boundary of `after` around the
/// window (see [`Level::split`]).
pub(crate) fn changed(
    before: Level,
    after: Level,
    w: &Window,
    from: usize,
    new_to: usize,
) -> Vec<Range<usize>> {
    let old_to = new_to - w.new_end + w.old_end;
    let mut old = Unchanged::new(before.text);
    for p in before.split(from..old_to, w.start..w.old_end) {
        old.add(p);
    }
    after
        .split(from..new_to, w.start..w.new_end)
        .into_iter()
        .filter(|p| !old.take(&after.text[p.clone()]))
        .collect()
}

/// Paragraphs of the old text, each to be matched once by an equal new paragraph.
struct Unchanged<'a> {
    text: &'a str,
    /// The first paragraph of each key.
    first: HashMap<Key, Range<usize>, BuildKeyHasher>,
    /// Paragraphs whose key the first map already held (equal paragraphs, or a rare collision).
    more: HashMap<Key, Vec<Range<usize>>, BuildKeyHasher>,
}

type Key = (usize, u64);

impl<'a> Unchanged<'a> {
    fn new(text: &'a str) -> Self {
        Unchanged {
            text,
            first: HashMap::default(),
            more: HashMap::default(),
        }
    }

    fn add(&mut self, p: Range<usize>) {
        let key = key(&self.text[p.clone()]);
        match self.first.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(p);
            }
            Entry::Occupied(_) => self.more.entry(key).or_default().push(p),
        }
    }

    /// Whether an old paragraph equal to `text` was left, taking it.
    fn take(&mut self, text: &str) -> bool {
        let key = key(text);
        let Some(first) = self.first.get(&key) else {
            return false;
        };
        let more = self.more.get_mut(&key);
        if &self.text[first.clone()] == text {
            match more.and_then(|m| m.pop()) {
                Some(next) => self.first.insert(key, next),
                None => self.first.remove(&key),
            };
            return true;
        }
        let Some(more) = more else {
            return false;
        };
        match more.iter().position(|q| &self.text[q.clone()] == text) {
            Some(i) => {
                more.swap_remove(i);
                true
            }
            None => false,
        }
    }
}

/// Hashes a [`Key`], whose second half is already a hash.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type BuildKeyHasher = std::hash::BuildHasherDefault<KeyHasher>;

/// A paragraph's length and a hash of its two ends (at most 64 bytes each): equal paragraphs have
/// equal keys, and a large paragraph costs no more to key than a small one.
fn key(text: &str) -> (usize, u64) {
    let bytes = text.as_bytes();
    let end = 64.min(bytes.len());
    let ends = bytes[..end]
        .chunks(8)
        .chain(bytes[bytes.len() - end..].chunks(8));
    // A multiply-rotate hash over 8-byte words: the key only sorts paragraphs into buckets, and
    // equality is always checked on the text.
    let hash = ends.fold(0u64, |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x517c_c1b7_2722_0a95)
    });
    (bytes.len(), hash)
}

/// The indentation of the members of the top-level paragraph `range`: that of its first indented
/// line that starts with a word character or `@` (so a comment's ` * ` lines do not count; the first
/// line of a block sets the block's indentation); `None` when no line is.
pub(crate) fn member_indent(text: &str, range: Range<usize>) -> Option<&str> {
    let piece = &text[range];
    let bytes = piece.as_bytes();
    // Only a line that starts with a space or a tab is indented: the others are passed over with
    // one look each (a file of unindented lines is many of them).
    let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
    let indented = starts.filter(|&at| matches!(bytes.get(at), Some(b' ' | b'\t')));
    indented.map(|at| line_at(piece, at)).find_map(|line| {
        let code = line.trim_start_matches([' ', '\t']);
        let word = code
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'@');
        (word && code.len() < line.len()).then(|| &line[..line.len() - code.len()])
    })
}

/// True when `last`, the last byte of a line, shows the line is not blank: an ASCII character that
/// is not white space (the same rule as `str::trim`; a non-ASCII byte may end a white-space
/// character, so it proves nothing).
fn ends_in_a_visible_ascii_char(last: u8) -> bool {
    last.is_ascii() && !(last as char).is_whitespace()
}

fn continues(line: &str) -> bool {
    let word_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(line.len());
    CONTINUATIONS.contains(&&line[..word_end])
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// The start of the line holding `pos`.
fn line_start(bytes: &[u8], pos: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |i| i + 1)
}

/// The start of the line after the one holding `pos`; the length when it is the last.
fn next_line(bytes: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', &bytes[pos.min(bytes.len())..]).map_or(bytes.len(), |i| pos + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "import a\n\ndef f():\n    x = 1\n\n    return x\n\n@d\ndef g():\n    pass\nelse\n\nelse:\n    pass\n";

    fn first_lines<'a>(text: &'a str, ranges: &[Range<usize>]) -> Vec<&'a str> {
        ranges
            .iter()
            .map(|r| text[r.clone()].lines().next().unwrap_or(""))
            .collect()
    }

    #[test]
    fn paragraphs_start_at_column_zero_after_a_blank_line() {
        let top = Level::top(SRC);
        let paragraphs = top.split(0..SRC.len(), 0..SRC.len());
        assert_eq!(
            first_lines(SRC, &paragraphs),
            ["import a", "def f():", "@d"]
        );
    }

    #[test]
    fn a_position_finds_the_paragraph_around_it() {
        let top = Level::top(SRC);
        let inside = SRC.find("return").unwrap();
        assert_eq!(top.start_at_or_before(inside, 0), SRC.find("def f"));
        assert_eq!(top.boundary_at_or_after(inside), SRC.find("@d").unwrap());
        let at_start = SRC.find("@d").unwrap();
        assert_eq!(top.start_at_or_before(at_start, 0), Some(at_start));
        assert_eq!(top.boundary_at_or_after(at_start), at_start);
        assert_eq!(top.boundary_at_or_after(at_start + 1), SRC.len());
    }

    const CLASS: &str = "/** A service.\n * @since 1\n */\npublic class S {\n    int a;\n\n    void f() {\n        a = 1;\n\n        a = 2;\n    }\n\n    @Override\n    void g() {}\n}\n\nclass T {}\n";

    #[test]
    fn members_are_the_paragraphs_of_the_least_indented_code_lines() {
        let indent = member_indent(CLASS, 0..CLASS.len()).unwrap();
        assert_eq!(indent, "    ");
        let members = Level {
            text: CLASS,
            indent,
        };
        let inside = CLASS.find("a = 2").unwrap();
        let from = members.start_at_or_before(inside, 0).unwrap();
        assert_eq!(&CLASS[from..from + 12], "    void f()");
        let body = CLASS.find("    int a").unwrap();
        let end = CLASS.find("}\n\nclass T").unwrap();
        assert_eq!(
            members.boundary_at_or_after(inside),
            CLASS.find("    @Override").unwrap()
        );
        assert_eq!(
            first_lines(CLASS, &members.split(body..end, body..end)),
            ["    int a;", "    void f() {", "    @Override"]
        );
        assert_eq!(
            members.boundary_at_or_after(CLASS.find("void g").unwrap()),
            end
        );
        let outside = CLASS.find("class T").unwrap();
        assert_eq!(members.start_at_or_before(outside, 0), None);
    }

    /// A top-level paragraph starts only after a blank line, white space of any kind counting as
    /// blank (a no-break space, a vertical tab); a long run of unbroken lines holds no start.
    #[test]
    fn top_level_starts_follow_blank_lines_of_any_white_space() {
        for blank in ["", "  ", "\t", "\r", "\u{a0}", "\u{b}", "\u{3000}"] {
            let text = format!("a = 1;\nb = 2;\n{blank}\nc = 3;\nd = 4;\n");
            let top = Level::top(&text);
            let c = text.find("c = 3").unwrap();
            assert_eq!(
                top.start_at_or_before(text.len() - 1, 0),
                Some(c),
                "{blank:?}"
            );
            assert_eq!(top.boundary_at_or_after(1), c, "{blank:?}");
        }
        let dense: String = (0..5000).map(|i| format!("v{i} = {i};\n")).collect();
        let top = Level::top(&dense);
        assert_eq!(top.start_at_or_before(dense.len() / 2, 0), Some(0));
        assert_eq!(top.boundary_at_or_after(dense.len() / 2), dense.len());
    }

    /// The members' indentation is that of the first indented line starting with a word (or
    /// `@`), wherever it lies after any number of unindented lines; none when no line is.
    #[test]
    fn member_indent_is_the_first_indented_word_line() {
        let unindented: String = (0..3000).map(|i| format!("v{i} = {i};\n")).collect();
        assert_eq!(member_indent(&unindented, 0..unindented.len()), None);
        let text = format!("{unindented}  * note\n\t\n\tint a;\n    int b;\n");
        assert_eq!(member_indent(&text, 0..text.len()), Some("\t"));
        let first = "  @Deco\nx\n";
        assert_eq!(member_indent(first, 0..first.len()), Some("  "));
        let cut = "x\n    y\n";
        assert_eq!(member_indent(cut, 2..cut.len()), Some("    "));
    }

    #[test]
    fn only_paragraphs_not_found_before_are_changed() {
        let before = "a\n\nb\n\nc\n";
        let after = "a\n\nc\n\nb2\n\nc\n";
        let w = Window::between(before, after);
        let new_to = Level::top(after).boundary_at_or_after(w.new_end);
        let changed = changed(Level::top(before), Level::top(after), &w, 0, new_to);
        let texts: Vec<&str> = changed.into_iter().map(|r| &after[r]).collect();
        assert_eq!(texts, ["c\n\n", "b2\n\n"]);
    }
}
