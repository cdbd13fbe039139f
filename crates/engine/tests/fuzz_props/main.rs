//! Stable-Rust property harness: the invariants of the `cargo fuzz` targets (`fuzz/`), run on
//! seeded random inputs in `cargo test`. This is the short fuzz run of CI; `EDIT_ENGINE_LONG=1`
//! runs 100x the cases, `EDIT_ENGINE_SEED=<n>` replays a seed (printed on every run).
//! The long, coverage-guided run is `cargo +nightly fuzz run <target>` (see `fuzz/README.md`).

mod invariants;

use edit_engine_core::batch_plan::{self, Op, OpKind};
use edit_engine_core::lines::Position;

#[path = "../support/rng.rs"]
mod rng;
use rng::Rng;

/// Pieces that exercise the strategies: white space of every kind, line endings, quotes, escapes,
/// multi-byte characters, hashline-looking prefixes, brackets.
const PIECES: &[&str] = &[
    "a", "b", "c", "x", "foo", "bar", "fn", "return", ";", "=", " ", "  ", "    ", "\t", "\n",
    "\n", "\n", "\r\n", "\r", "{", "}", "(", ")", "\"", "'", "`", "\u{201C}", "\u{201D}",
    "\u{2018}", "\u{2019}", "\\n", "\\t", "\\\"", "\\", "é", "ß", "😀", "\u{2028}", "\u{a0}",
    "\u{feff}", "\u{3000}", "1:ab", "12:", "42", "|", " | ", ":", ">", "-", "+", "// x", "# y",
    "...", "\0",
];

fn random_text(rng: &mut Rng, max_pieces: usize) -> String {
    (0..rng.below(max_pieces + 1))
        .map(|_| rng.pick(PIECES))
        .collect()
}

fn random_lines(rng: &mut Rng, max: usize) -> Vec<String> {
    (0..rng.below(max + 1))
        .map(|_| random_text(rng, 6).replace(['\n', '\r'], ""))
        .collect()
}

/// A search derived from the content (a slice, mutated or not) or a fresh random text.
fn derived_search(rng: &mut Rng, content: &str) -> String {
    let chars: Vec<char> = content.chars().collect();
    if chars.is_empty() || rng.below(4) == 0 {
        return random_text(rng, 12);
    }
    let a = rng.below(chars.len());
    let b = a + rng.below(chars.len() - a + 1);
    let mut s: String = chars[a..b].iter().collect();
    match rng.below(5) {
        0 => s = s.replace(' ', ""),
        1 => s = s.replace('\n', "\n  "),
        2 => s = s.replace('"', "\u{201C}"),
        3 => s = format!("\n{s} \n"),
        _ => {}
    }
    s
}

fn cases(default: usize) -> usize {
    let n = if std::env::var("EDIT_ENGINE_LONG").as_deref() == Ok("1") {
        default * 100
    } else {
        default
    };
    std::env::var("EDIT_ENGINE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

fn seed(salt: u64) -> u64 {
    let base = std::env::var("EDIT_ENGINE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        });
    let s = base ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    eprintln!("[fuzz_props] seed={base} (replay with EDIT_ENGINE_SEED={base})");
    s | 1
}

/// Runs `cases` cases; reports the counts and every failure (with the seed to replay).
fn run(name: &str, salt: u64, n: usize, mut case: impl FnMut(&mut Rng) -> Result<(), String>) {
    let mut rng = Rng(seed(salt));
    let mut failures = Vec::new();
    for i in 0..n {
        if let Err(e) = case(&mut rng) {
            failures.push(format!("case {i}: {e}"));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    eprintln!("[fuzz_props] {name}: cases={n} failures={}", failures.len());
    assert!(failures.is_empty(), "{name}: {failures:#?}");
}

#[test]
fn match_strategies_regions_are_valid() {
    run("match_strategies", 1, cases(400), |rng| {
        let content = random_text(rng, 60);
        let search = derived_search(rng, &content);
        invariants::check_cascade(&content, &search)
    });
}

#[test]
fn exact_blocks_are_found_in_place() {
    run("exact_block", 2, cases(400), |rng| {
        let lines = random_lines(rng, 12);
        let (from, len) = (rng.below(64), rng.below(64));
        invariants::check_exact_block(&lines, from, len)
    });
}

#[test]
fn line_refs_parse_consistently() {
    run("parse_line_ref", 3, cases(2000), |rng| {
        let s = match rng.below(4) {
            0 => random_text(rng, 4),
            1 => format!(
                "{}{}",
                rng.pick(&[" ", "", "\t", "0", "-", "+"]),
                rng.next() >> rng.below(64)
            ),
            2 => format!(
                "{}:{}",
                rng.below(10_000),
                rng.pick(&["ab", "AB", "g0", "1", "abc", "", "0f", " 0f"])
            ),
            _ => "9".repeat(rng.below(400)),
        };
        invariants::check_parse_line_ref(&s)?;
        let n = match rng.below(3) {
            0 => rng.below(100),
            1 => (rng.next() >> rng.below(64)) as usize,
            _ => usize::MAX - rng.below(3),
        };
        let hash = (rng.below(2) == 0).then(|| rng.next() as u8);
        invariants::check_line_ref_roundtrip(n, hash)
    });
}

#[test]
fn line_edit_corrections_hold() {
    run("clean_new_string", 4, cases(600), |rng| {
        let lines = random_lines(rng, 10);
        let new = random_text(rng, 20);
        let pick = |rng: &mut Rng| match rng.below(5) {
            0 => 0,
            1 => usize::MAX,
            2 => usize::MAX - 1,
            _ => rng.below(14),
        };
        let (start, end) = (pick(rng), pick(rng));
        let position = [None, Some(Position::Before), Some(Position::After)][rng.below(3)];
        invariants::check_clean_new_string(&new, &lines, start, end, position)
    });
}

#[test]
fn text_edit_then_inverse_restores() {
    let dir = tempfile::tempdir().unwrap();
    run("text_roundtrip", 5, cases(150), |rng| {
        // An LF or a CRLF file (lines without CR), edited through its LF view.
        let lf_text = random_lines(rng, 6).join("\n").replace('\0', "");
        let crlf = rng.below(2) == 0;
        let chars: Vec<char> = lf_text.chars().collect();
        if chars.is_empty() {
            return Ok(());
        }
        let a = rng.below(chars.len());
        let b = a + 1 + rng.below(chars.len() - a);
        let old: String = chars[a..b].iter().collect();
        if lf_text.matches(old.as_str()).count() != 1 {
            return Ok(());
        }
        let new = format!("<{}>", random_text(rng, 6).replace(['\0', '\r'], ""));
        if crlf && !lf_text.replacen(old.as_str(), &new, 1).contains('\n') {
            return Ok(()); // the edit would turn the CRLF file into one without line endings
        }
        let content = if crlf {
            lf_text.replace('\n', "\r\n")
        } else {
            lf_text
        };
        invariants::check_text_roundtrip(dir.path(), &content, &old, &new)
    });
}

#[test]
fn line_edit_then_inverse_restores() {
    let dir = tempfile::tempdir().unwrap();
    run("line_roundtrip", 6, cases(150), |rng| {
        let lines: Vec<String> = random_lines(rng, 8)
            .into_iter()
            .map(|l| l.replace('\0', ""))
            .collect();
        let k = rng.below(16);
        let new = random_text(rng, 5).replace(['\n', '\r', '\0'], "");
        invariants::check_line_roundtrip(dir.path(), &lines, k, &new)
    });
}

/// Regexes for random batches: valid ones of every kind, plus captures in the replacement.
const PATTERNS: &[&str] = &[
    "a",
    "b+",
    "^",
    "$",
    "(?m)^",
    "\\s+",
    "(fo+)",
    ".",
    "x|y",
    "(?<n>ba)r",
];

fn random_op(rng: &mut Rng, index: usize, lines: usize) -> Op {
    let line = |rng: &mut Rng| match rng.below(6) {
        0 => 0,
        1 => usize::MAX,
        2 => lines + 1,
        _ => 1 + rng.below(lines.max(1)),
    };
    let text = |rng: &mut Rng| random_text(rng, 6).replace('\r', "");
    let kind = match rng.below(5) {
        0 => {
            let start = line(rng);
            let end = if rng.below(4) == 0 {
                line(rng)
            } else {
                start.saturating_add(rng.below(3))
            };
            OpKind::Lines {
                start,
                end,
                text: text(rng),
            }
        }
        1 => OpKind::InsertBefore {
            line: line(rng),
            text: text(rng),
        },
        2 => OpKind::InsertAfter {
            line: line(rng),
            text: text(rng),
        },
        3 => OpKind::Literal {
            search: random_text(rng, 3),
            replace: text(rng),
        },
        _ => OpKind::Regex {
            regex: regex::Regex::new(rng.pick(PATTERNS)).expect("valid pattern"),
            replace: rng.pick(&["", "$1", "${n}", "$$", "<$0>", "z"]).to_string(),
        },
    };
    Op { index, kind }
}

#[test]
fn batch_plans_hold() {
    run("batch_plan", 7, cases(600), |rng| {
        let text = random_lines(rng, 10).join("\n") + rng.pick(&["", "\n"]);
        let n = batch_plan::lines_and_final_newline(&text).0.len();
        let ops: Vec<Op> = (1..=1 + rng.below(5))
            .map(|i| random_op(rng, i, n))
            .collect();
        invariants::check_batch_any(&text, &ops)?;
        let picks: Vec<usize> = (0..1 + rng.below(4)).map(|_| rng.below(n + 2)).collect();
        invariants::check_batch_line_roundtrip(&text, &picks)?;
        let search = derived_search(rng, &text);
        invariants::check_batch_literal_roundtrip(&text, &search)
    });
}
