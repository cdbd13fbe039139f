//! Which paragraphs an edit changed ([`paragraphs`]), and how each is parsed alone.
//!
//! The top-level paragraphs around the edit's window come first. When those it changed are large
//! (a file wrapped in one class is one paragraph) and the window lies inside one of them, the members
//! of that paragraph (its least indented code lines) are the unit instead, each parsed inside a small
//! wrapper of the language (`class _ {` ... `}`), where the language has one.

use std::ops::Range;

use super::introduced::Window;
use super::paragraphs::{self, Level};
use crate::symbols::Language;

/// Top-level paragraphs changed by more than this many bytes are split into members.
const MEMBERS_ABOVE: usize = 2 * 1024;

/// The paragraphs around an edit: `before[from..old_to]` became `after[from..new_to]`.
pub(crate) struct Region {
    pub from: usize,
    pub old_to: usize,
    pub new_to: usize,
}

impl Region {
    /// The top-level paragraphs around the window (see [`around`]).
    pub fn around(before: &str, after: &str, w: &Window) -> Region {
        let (from, new_to) =
            around(Level::top(before), Level::top(after), w, 0).unwrap_or((0, after.len()));
        Region {
            from,
            old_to: new_to - w.new_end + w.old_end,
            new_to,
        }
    }
}

/// The bounds `(from, new_to)` in the new text of the paragraphs of a level around the window `w`,
/// both boundaries of the level in the old text and in the new one (an edit that adds or removes a
/// boundary changes the paragraph on its other side too): `from` the last start before the window's
/// first byte, not before `floor`; `new_to` the first boundary at or after the window's end. `None`
/// when no start of the level lies between `floor` and the window.
fn around(old: Level, new: Level, w: &Window, floor: usize) -> Option<(usize, usize)> {
    let mut from = match w.start > floor {
        true => new.start_at_or_before(w.start - 1, floor)?,
        false => floor,
    };
    while from > floor && !old.starts_at(from) {
        from = new.start_at_or_before(from - 1, floor)?;
    }
    let len = new.text.len();
    let mut new_to = new.boundary_at_or_after(w.new_end);
    while new_to < len && !old.is_boundary(new_to - w.new_end + w.old_end) {
        new_to = new.boundary_after(new_to);
    }
    Some((from, new_to.max(from)))
}

/// Text put around a member to parse it alone: before and after it.
pub(crate) type Wrapper = (&'static str, &'static str);

/// The pieces of the new text to parse alone, and the wrapper each needs.
pub(crate) struct Touched {
    pub pieces: Vec<Range<usize>>,
    pub wrapper: Option<Wrapper>,
}

impl Touched {
    pub fn bytes(&self) -> usize {
        self.pieces.iter().map(|p| p.len()).sum()
    }
}

/// The pieces of `after` the edit `before` → `after` (window `w`, top-level `region`) changed.
pub(crate) fn touched(
    lang: Language,
    before: &str,
    after: &str,
    w: &Window,
    region: &Region,
) -> Touched {
    let (old_top, new_top) = (Level::top(before), Level::top(after));
    let pieces = paragraphs::changed(old_top, new_top, w, region.from, region.new_to);
    let top = Touched {
        pieces,
        wrapper: None,
    };
    let one_paragraph = top.pieces.len() == 1 && top.pieces[0] == (region.from..region.new_to);
    if top.bytes() <= MEMBERS_ABOVE || !one_paragraph {
        return top;
    }
    wrapper(lang)
        .and_then(|wrapper| members(before, after, w, region, wrapper))
        .unwrap_or(top)
}

/// The changed members of the single top-level paragraph `region`; `None` when the window does not
/// lie among its members.
fn members(
    before: &str,
    after: &str,
    w: &Window,
    region: &Region,
    wrapper: Wrapper,
) -> Option<Touched> {
    let indent = paragraphs::member_indent(after, region.from..region.new_to)?;
    let new_level = Level {
        text: after,
        indent,
    };
    let old_level = Level {
        text: before,
        indent,
    };
    let (from, new_to) = around(old_level, new_level, w, region.from)?;
    if from <= region.from || new_to >= region.new_to {
        return None;
    }
    let pieces = paragraphs::changed(old_level, new_level, w, from, new_to);
    Some(Touched {
        pieces,
        wrapper: Some(wrapper),
    })
}

/// The wrapper a member of a class (or module, or impl block) of `lang` parses in; `None` for
/// languages whose members are not wrapped (C, Go, Lua and Zig have no classes to speak of; PHP is
/// never split).
fn wrapper(lang: Language) -> Option<Wrapper> {
    match lang {
        Language::Java
        | Language::CSharp
        | Language::Kotlin
        | Language::Scala
        | Language::Swift
        | Language::JavaScript
        | Language::TypeScript
        | Language::Tsx => Some(("class Guard__ {\n", "\n}\n")),
        Language::Cpp => Some(("struct Guard__ {\n", "\n};\n")),
        Language::Rust => Some(("mod guard__ {\n", "\n}\n")),
        Language::Python => Some(("class Guard__:\n", "\n")),
        Language::Ruby => Some(("class Guard__\n", "\nend\n")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::worker::all_parse;

    /// A class of `lang` (its opening line, a member with `{i}` for its number, the closing line),
    /// with enough members to be split into them.
    fn class(open: &str, member: &str, close: &str) -> String {
        let members: Vec<String> = (0..80)
            .map(|i| member.replace("{i}", &i.to_string()))
            .collect();
        format!("{open}\n{}{close}\n", members.join("\n"))
    }

    const CLASSES: &[(Language, &str, &str, &str)] = &[
        (Language::Java, "public class S {", "    int f{i}(int x) {\n        int limit = x * 2;\n        return limit;\n    }\n", "}"),
        (Language::CSharp, "namespace N {\npublic class S {", "    public int F{i}(int x) {\n        var limit = x * 2;\n        return limit;\n    }\n", "}\n}"),
        (Language::Kotlin, "class S {", "    fun f{i}(x: Int): Int {\n        val limit = x * 2\n        return limit\n    }\n", "}"),
        (Language::Swift, "class S {", "    func f{i}(x: Int) -> Int {\n        let limit = x * 2\n        return limit\n    }\n", "}"),
        (Language::Scala, "class S {", "  def f{i}(x: Int): Int = {\n    val limit = x * 2\n    limit\n  }\n", "}"),
        (Language::TypeScript, "export class S {", "  f{i}(x: number): number {\n    const limit = x * 2;\n    return limit;\n  }\n", "}"),
        (Language::Cpp, "class S {\npublic:", "    int f{i}(int x) {\n        int limit = x * 2;\n        return limit;\n    }\n", "};"),
        (Language::Rust, "impl S {", "    fn f{i}(&self, x: i32) -> i32 {\n        let limit = x * 2;\n        limit\n    }\n", "}"),
        (Language::Python, "class S:", "    def f{i}(self, x):\n        limit = x * 2\n        return limit\n", ""),
        (Language::Ruby, "class S", "  def f{i}(x)\n    limit = x * 2\n    limit\n  end\n", "end"),
    ];

    #[test]
    fn an_edit_inside_a_large_class_parses_only_its_member_wrapped() {
        for &(lang, open, member, close) in CLASSES {
            let before = class(open, member, close);
            let middle = before.len() / 2;
            let at = middle + before[middle..].find("limit = x * 2").unwrap();
            let after = format!("{}limit = x * 3{}", &before[..at], &before[at + 13..]);
            let w = Window::between(&before, &after);
            let region = Region::around(&before, &after, &w);
            let t = touched(lang, &before, &after, &w, &region);
            assert!(t.wrapper.is_some(), "{lang:?}: not split into members");
            assert_eq!(t.pieces.len(), 1, "{lang:?}");
            let piece = &after[t.pieces[0].clone()];
            assert!(
                piece.contains("limit = x * 3") && piece.len() < 200,
                "{lang:?}: {piece}"
            );
            let texts = t.pieces.iter().map(|r| &after[r.clone()]);
            assert_eq!(
                all_parse(lang, texts, t.wrapper),
                Some(true),
                "{lang:?}: {piece}"
            );
        }
    }

    #[test]
    fn a_small_paragraph_is_parsed_whole_and_unwrapped() {
        let before = "fn a() {\n    1\n}\n\nfn b() {\n    2\n}\n";
        let after = before.replace("2", "3");
        let w = Window::between(before, &after);
        let t = touched(
            Language::Rust,
            before,
            &after,
            &w,
            &Region::around(before, &after, &w),
        );
        assert!(t.wrapper.is_none());
        assert_eq!(t.pieces, vec![before.find("fn b").unwrap()..after.len()]);
    }
}
