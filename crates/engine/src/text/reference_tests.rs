//! Differential tests: the zoned strategies against direct, window-by-window implementations of
//! their contracts (Probe's sliding windows), on seeded random code-like inputs.

use std::ops::Range;

use super::block_anchor::block_anchor_in;
use super::js::js_trim;
use super::line_table::{indent_diff_too_large, indent_limit_exceeded, LineInfo, LineTable};
use super::quotes::{normalize_quotes, straight_quote};
use super::whitespace::collapse_blanks;
use super::*;

#[path = "../../tests/support/rng.rs"]
mod rng;
use rng::Rng;

const INDENTS: &[&str] = &[
    "", "", "  ", "    ", "      ", "\t", "\t\t", " \t", "\u{a0}", "\u{3000}",
];
const WORDS: &[&str] = &[
    "a",
    "b",
    "x",
    "foo",
    "}",
    "{",
    "if (a) {",
    "} else {",
    "say(\"hi\");",
    "say(\u{201C}hi\u{201D});",
    "it's",
    "it\u{2019}s",
    "x  =  1;",
    "x = 1;",
    "é",
    "😀",
    "a\tb",
    " ",
    "'",
    "\"",
];

fn random_content(rng: &mut Rng) -> String {
    let lines: Vec<String> = (0..rng.below(14))
        .map(|_| match rng.below(6) {
            0 => rng.pick(INDENTS).to_string(),
            _ => {
                let words: Vec<&str> = (0..1 + rng.below(3)).map(|_| rng.pick(WORDS)).collect();
                let tail = if rng.below(5) == 0 {
                    rng.pick(&[" ", "\t", "\u{a0}", "\r"])
                } else {
                    ""
                };
                format!(
                    "{}{}{tail}",
                    rng.pick(INDENTS),
                    words.join(rng.pick(&[" ", "  ", ""]))
                )
            }
        })
        .collect();
    lines.join("\n")
}

/// Lines of `content`, re-indented, re-spaced, re-quoted or padded at random.
fn derived_search(rng: &mut Rng, content: &str) -> String {
    let lines: Vec<&str> = content.split('\n').collect();
    let a = rng.below(lines.len());
    let b = (a + 1 + rng.below(4)).min(lines.len());
    let mut out: Vec<String> = lines[a..b]
        .iter()
        .map(|l| match rng.below(5) {
            0 => js_trim(l).to_string(),
            1 => format!("{}{}", rng.pick(INDENTS), l),
            2 => l.replace("  ", " ").replace('\t', " "),
            3 => normalize_quotes(l),
            _ => l.to_string(),
        })
        .collect();
    if rng.below(6) == 0 {
        out.insert(0, String::new());
    }
    if rng.below(6) == 0 {
        out.push(rng.pick(INDENTS).to_string());
    }
    let s = out.join("\n");
    match rng.below(8) {
        0 => s[..s.len() - s.chars().last().map_or(0, char::len_utf8)].to_string(),
        1 => format!(" {s}"),
        _ => s,
    }
}

fn lines(s: &str) -> LineTable<'_> {
    LineTable::new(s)
}

fn window_min(t: &LineTable<'_>, i: usize, m: usize) -> u32 {
    t.lines[i..i + m]
        .iter()
        .filter(|l| !l.blank)
        .map(|l| l.lead)
        .min()
        .unwrap_or(0)
}

fn line_trimmed_direct(content: &str, search: &str) -> Vec<Range<usize>> {
    let (c, s) = (lines(content), lines(search));
    let Some(first) = s.first_non_blank() else {
        return vec![];
    };
    let m = s.len();
    (0..(c.len() + 1).saturating_sub(m))
        .filter(|&i| (0..m).all(|j| js_trim(c.lines[i + j].text) == js_trim(s.lines[j].text)))
        .filter(|&i| {
            let diff = window_min(&c, i, m).abs_diff(s.min_indent());
            !indent_diff_too_large(c.lines[i + first].text, s.lines[first].text, diff)
        })
        .map(|i| c.window_range(i, m))
        .collect()
}

fn strip<'a>(l: &LineInfo<'a>, n: u32) -> Option<&'a str> {
    match l.blank {
        true => Some(""),
        false => l.text.get(n as usize..),
    }
}

fn indent_flexible_direct(content: &str, search: &str) -> Vec<Range<usize>> {
    let (c, s) = (lines(content), lines(search));
    let Some(first) = s.first_non_blank() else {
        return vec![];
    };
    let (m, smin) = (s.len(), s.min_indent());
    (0..(c.len() + 1).saturating_sub(m))
        .filter(|&i| {
            let wmin = window_min(&c, i, m);
            (0..m).all(|j| strip(&c.lines[i + j], wmin) == strip(&s.lines[j], smin))
                && !indent_diff_too_large(
                    c.lines[i + first].text,
                    s.lines[first].text,
                    wmin.abs_diff(smin),
                )
        })
        .map(|i| c.window_range(i, m))
        .collect()
}

fn whitespace_direct(content: &str, search: &str) -> Vec<Range<usize>> {
    if js_trim(search).is_empty() {
        return vec![];
    }
    let (nc, map) = collapse_blanks(content);
    let (ns, _) = collapse_blanks(search);
    let s = lines(search);
    let first_tab = |t: &LineTable<'_>| {
        t.first_non_blank()
            .is_some_and(|i| t.lines[i].text.starts_with('\t'))
    };
    (0..(nc.len() + 1).saturating_sub(ns.len()))
        .filter(|&i| nc[i..].starts_with(&ns))
        .map(|i| map[i]..map[i + ns.len() - 1] + 1)
        .filter(|r| {
            let region = lines(&content[r.clone()]);
            let tabs = first_tab(&region) || first_tab(&s);
            let min = region.min_indent();
            !indent_limit_exceeded(tabs, min.abs_diff(s.min_indent()))
        })
        .collect()
}

fn quote_direct(content: &str, search: &str) -> Vec<Range<usize>> {
    if search.is_empty() {
        return vec![];
    }
    let (mut norm, mut map) = (String::new(), Vec::new());
    for (i, c) in content.char_indices() {
        let n = straight_quote(c);
        norm.push(n);
        map.extend(std::iter::repeat_n(i, n.len_utf8()));
    }
    map.push(content.len());
    let needle = normalize_quotes(search);
    memchr::memmem::find_iter(norm.as_bytes(), needle.as_bytes())
        .map(|i| map[i]..map[i + needle.len()])
        .collect()
}

fn regions(m: Option<StrategyMatch>) -> Vec<Range<usize>> {
    m.map(|m| m.regions).unwrap_or_default()
}

#[test]
fn zoned_strategies_equal_direct_windows() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut matched = [0usize; 5];
    for case in 0..20_000 {
        let content = random_content(&mut rng);
        let search = match rng.below(5) {
            0 => random_content(&mut rng),
            _ => derived_search(&mut rng, &content),
        };
        let ctx = || format!("case {case}: content {content:?} search {search:?}");
        let got = [
            regions(line_trimmed_match(&content, &search)),
            regions(whitespace_normalized_match(&content, &search)),
            regions(indent_flexible_match(&content, &search)),
            regions(quote_normalized_match(&content, &search)),
            regions(block_anchor_match(&content, &search)),
        ];
        let want = [
            line_trimmed_direct(&content, &search),
            whitespace_direct(&content, &search),
            indent_flexible_direct(&content, &search),
            quote_direct(&content, &search),
            regions(block_anchor_in(&content, &search, false)),
        ];
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "strategy {k}, {}", ctx());
            matched[k] += usize::from(!g.is_empty());
        }
    }
    // The generator must exercise every strategy.
    assert!(matched.iter().all(|&n| n > 100), "{matched:?}");
}
