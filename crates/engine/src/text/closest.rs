//! "Did you mean": the file region most like an `old_string` that matched nowhere.
//!
//! Candidate regions are found by voting, not by sliding a window: every search line whose trimmed
//! text occurs in the file, and every identifier-like token (3+ word characters) it shares with
//! file lines, votes for the window start that would align the two lines. Only keys that are rare
//! in the file vote (keys are taken rarest first until [`CLOSEST_PAIR_BUDGET`] votes), so the cost
//! is O(content + search) plus the scoring of at most [`CLOSEST_CANDIDATES`] windows.

use super::js::js_trim;
use super::line_table::LineTable;
use std::collections::HashMap;

/// Maximum number of (search line, file line) votes cast.
pub const CLOSEST_PAIR_BUDGET: usize = 50_000;
/// Number of best-voted windows that are scored.
pub const CLOSEST_CANDIDATES: usize = 8;
/// Regions scoring below this are not suggested.
pub const CLOSEST_MIN_SCORE: f64 = 0.5;
/// Maximum number of lines of the returned diff.
pub const CLOSEST_DIFF_LINES: usize = 40;

/// The suggestion: 1-based inclusive line range of the file, its similarity, and a short unified
/// diff from the search (`old_string`) to that region (`file`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClosestRegion {
    pub start_line: usize,
    pub end_line: usize,
    /// Character-level similarity in `[0, 1]` of the trimmed lines (indentation ignored).
    pub score: f64,
    pub diff: String,
}

/// The region of `content` (LF line endings) most similar to `search`, with as many lines as the
/// search has once leading/trailing blank lines are dropped; `None` when no line or token of the
/// search occurs in the file or the best region scores below [`CLOSEST_MIN_SCORE`].
pub fn closest_region(content: &str, search: &str) -> Option<ClosestRegion> {
    let search_table = LineTable::new(search);
    let all: Vec<&str> = search_table.lines.iter().map(|l| l.text).collect();
    let first = all.iter().position(|l| !js_trim(l).is_empty())?;
    let last = all.iter().rposition(|l| !js_trim(l).is_empty())?;
    let search_lines = &all[first..=last];
    let table = LineTable::new(content);
    let file_lines: Vec<&str> = table.lines.iter().map(|l| l.text).collect();
    let votes = vote(&file_lines, search_lines);
    let m = search_lines.len().min(file_lines.len());
    let mut ranked: Vec<(usize, u32)> = votes.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let search_text = trimmed_join(search_lines);
    let (start, score) = ranked
        .iter()
        .take(CLOSEST_CANDIDATES)
        .map(|&(s, _)| {
            let s = s.min(file_lines.len() - m);
            (
                s,
                similarity(&search_text, &trimmed_join(&file_lines[s..s + m])),
            )
        })
        .fold(None, |best: Option<(usize, f64)>, c| match best {
            Some(b) if b.1 >= c.1 => Some(b),
            _ => Some(c),
        })?;
    if score < CLOSEST_MIN_SCORE {
        return None;
    }
    let diff = short_diff(
        &search_lines.join("\n"),
        &file_lines[start..start + m].join("\n"),
    );
    Some(ClosestRegion {
        start_line: start + 1,
        end_line: start + m,
        score,
        diff,
    })
}

fn trimmed_join(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| js_trim(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Longest pair (in bytes, both texts together) compared character by character.
const CHAR_DIFF_BYTES: usize = 4 * 1024;
/// Longest pair compared word by word; longer pairs are compared line by line.
const WORD_DIFF_BYTES: usize = 32 * 1024;

/// Diff ratio of `a` and `b` (`similar`, Myers): by characters for short texts, by words, then by
/// lines for longer ones, so the cost is bounded by the input and the score depends only on it
/// (never on how busy the machine is).
fn similarity(a: &str, b: &str) -> f64 {
    let mut config = similar::TextDiffConfig::default();
    config.algorithm(similar::Algorithm::Myers);
    let total = a.len() + b.len();
    let ratio = if total <= CHAR_DIFF_BYTES {
        config.diff_chars(a, b).ratio()
    } else if total <= WORD_DIFF_BYTES {
        config.diff_words(a, b).ratio()
    } else {
        config.diff_lines(a, b).ratio()
    };
    f64::from(ratio)
}

/// Unified diff `old_string` -> `file`, cut to [`CLOSEST_DIFF_LINES`] lines.
fn short_diff(old: &str, region: &str) -> String {
    let (old, region) = (format!("{old}\n"), format!("{region}\n"));
    let text = similar::TextDiff::from_lines(&old, &region)
        .unified_diff()
        .context_radius(2)
        .header("old_string", "file")
        .to_string();
    let mut lines: Vec<&str> = text.lines().collect();
    if lines.len() > CLOSEST_DIFF_LINES {
        lines.truncate(CLOSEST_DIFF_LINES);
        lines.push("...");
    }
    lines.join("\n")
}

/// Votes per window start (0-based line). Whole trimmed lines weigh 4, shared tokens 1.
fn vote(file_lines: &[&str], search_lines: &[&str]) -> HashMap<usize, u32> {
    let mut keys: HashMap<String, Vec<(usize, u32)>> = HashMap::new();
    for (j, line) in search_lines.iter().enumerate() {
        let t = js_trim(line);
        if !t.is_empty() {
            keys.entry(format!("L{t}")).or_default().push((j, 4));
        }
        for tok in tokens(line) {
            keys.entry(format!("T{tok}")).or_default().push((j, 1));
        }
    }
    let mut hits: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut scratch = String::new();
    for (k, line) in file_lines.iter().enumerate() {
        let mut add = |prefix: char, s: &str| {
            scratch.clear();
            scratch.push(prefix);
            scratch.push_str(s);
            if let Some((key, _)) = keys.get_key_value(scratch.as_str()) {
                hits.entry(key.as_str()).or_default().push(k);
            }
        };
        add('L', js_trim(line));
        tokens(line).for_each(|tok| add('T', tok));
    }
    let mut order: Vec<(&str, Vec<usize>)> = hits.into_iter().collect();
    order.sort_by_key(|(key, lines)| (lines.len() * keys[*key].len(), *key));
    let mut votes: HashMap<usize, u32> = HashMap::new();
    let mut spent = 0usize;
    for (n, (key, lines)) in order.iter().enumerate() {
        let aligned = &keys[*key];
        spent += lines.len() * aligned.len();
        // Over budget: stop, except that the rarest key still votes with its first occurrences.
        let take = match (spent > CLOSEST_PAIR_BUDGET, n) {
            (false, _) => lines.len(),
            (true, 0) => CLOSEST_PAIR_BUDGET / aligned.len(),
            (true, _) => break,
        };
        for &k in &lines[..take.min(lines.len())] {
            for &(j, w) in aligned {
                *votes.entry(k.saturating_sub(j)).or_default() += w;
            }
        }
    }
    votes
}

/// Identifier-like tokens of at least 3 characters (letters, digits, `_`).
fn tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| t.chars().count() >= 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "use std::io;\n\nfn parse(input: &str) -> Result<u32, Error> {\n    let trimmed = input.trim();\n    trimmed.parse().map_err(Error::from)\n}\n\nfn main() {\n    println!(\"{}\", parse(\"42\").unwrap());\n}\n";

    #[test]
    fn finds_the_region_a_search_was_meant_for() {
        let search = "fn parse(input: &str) -> Result<u32, Error> {\n    let trimmed = input.trim_end();\n    trimmed.parse().map_err(Error::from)\n}";
        let r = closest_region(FILE, search).unwrap();
        assert_eq!((r.start_line, r.end_line), (3, 6));
        assert!(r.score > 0.9 && r.score < 1.0, "{}", r.score);
        assert!(r.diff.contains("--- old_string"), "{}", r.diff);
        assert!(
            r.diff.contains("-    let trimmed = input.trim_end();"),
            "{}",
            r.diff
        );
        assert!(
            r.diff.contains("+    let trimmed = input.trim();"),
            "{}",
            r.diff
        );
    }

    #[test]
    fn token_votes_find_a_line_with_no_exact_twin() {
        let r = closest_region(FILE, "println!(\"{}\", parse(\"43\").unwrap())").unwrap();
        assert_eq!((r.start_line, r.end_line), (9, 9));
    }

    #[test]
    fn nothing_in_common_is_none() {
        assert_eq!(closest_region(FILE, "zzz qqq xxx"), None);
        assert_eq!(closest_region(FILE, "  \n"), None);
        assert_eq!(closest_region("", "abc def"), None);
    }

    #[test]
    fn low_similarity_is_not_suggested() {
        assert_eq!(closest_region(FILE, "fn main() {\n    completely.different(code, here, and, more, words);\n    x();\n    y();\n}"), None);
    }

    #[test]
    fn long_diffs_are_cut() {
        let content: String = (0..200)
            .map(|i| format!("line_{i} = value_{i};\n"))
            .collect();
        let search: String = (0..100)
            .map(|i| format!("line_{i} = value_{}x;\n", i))
            .collect();
        let r = closest_region(&content, &search).unwrap();
        assert_eq!(r.start_line, 1);
        assert!(r.diff.lines().count() <= CLOSEST_DIFF_LINES + 1);
        assert!(r.diff.ends_with("..."));
    }

    #[test]
    fn the_score_of_a_long_search_depends_only_on_the_texts() {
        let content: String = (0..400)
            .map(|i| format!("let item_{i} = compute_{i}(alpha, beta);\n"))
            .collect();
        let search: String = (100..300)
            .map(|i| format!("let item_{i} = compute_{i}(alpha, gamma);\n"))
            .collect();
        let first = closest_region(&content, &search).unwrap();
        assert_eq!((first.start_line, first.end_line), (101, 300));
        for _ in 0..3 {
            assert_eq!(closest_region(&content, &search).unwrap(), first);
        }
    }

    #[test]
    fn repetitive_file_stays_bounded() {
        let content = "x = 1;\n".repeat(200_000);
        let r = closest_region(&content, "x = 1;\nx = 2;\nx = 1;").unwrap();
        assert_eq!(r.end_line - r.start_line, 2);
    }
}
