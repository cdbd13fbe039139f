//! Invariants shared by the stable-Rust property harness (`tests/fuzz_props/main.rs`) and the
//! `cargo fuzz` targets (`fuzz/fuzz_targets/*.rs`, which include this file by path).
//!
//! Each `check_*` returns `Err(description)` when an invariant is broken; a panic inside the
//! engine propagates (the harness and libFuzzer both report it).
#![allow(dead_code)]

use edit_engine_core::batch_plan::{self, Op, OpKind};
use edit_engine_core::lines::{clean_new_string, parse_line_ref, Position};
use edit_engine_core::text::js::js_trim;
use edit_engine_core::text::{lf_view, locate, Restriction, Strategy};
use edit_engine_core::tools::{ToolContext, ToolOptions};
use serde_json::json;
use std::path::Path;

/// The match driver with every strategy alone, then the whole cascade: no panic; every region is
/// a non-empty, ascending, non-overlapping, char-boundary range of the LF view; identical
/// candidates are reported as such.
pub fn check_cascade(content: &str, search: &str) -> Result<(), String> {
    let (lf, search) = (lf_view(content), lf_view(search));
    let mut runs: Vec<Restriction> = Strategy::ALL.map(Restriction::Only).to_vec();
    runs.push(Restriction::Any);
    for restriction in runs {
        let Some(m) = locate(&lf, &search, restriction) else {
            continue;
        };
        let name = m.strategy.map_or("exact", Strategy::as_str);
        if m.regions.is_empty() {
            return Err(format!("{name}: no regions"));
        }
        let mut prev_end = 0;
        for r in &m.regions {
            if r.start >= r.end || r.end > lf.len() {
                return Err(format!("{name}: region {r:?} out of 0..{}", lf.len()));
            }
            if !lf.is_char_boundary(r.start) || !lf.is_char_boundary(r.end) {
                return Err(format!("{name}: region {r:?} splits a character"));
            }
            if r.start < prev_end {
                return Err(format!("{name}: regions overlap or descend at {r:?}"));
            }
            prev_end = r.end;
        }
        let first = &lf[m.regions[0].clone()];
        if m.identical != m.regions.iter().all(|r| &lf[r.clone()] == first) {
            return Err(format!("{name}: identical flag wrong"));
        }
    }
    Ok(())
}

/// The exact-match invariant: a block of whole, non-blank lines copied from content whose lines
/// are distinct even after a JavaScript `trim` is found by `line-trimmed` at exactly its own place.
/// (The other line strategies normalize white space inside lines; their regions are checked by
/// [`check_cascade`].)
pub fn check_exact_block(lines: &[String], from: usize, len: usize) -> Result<(), String> {
    if lines.is_empty() {
        return Ok(());
    }
    let from = from % lines.len();
    let len = 1 + len % (lines.len() - from);
    let trimmed: Vec<&str> = lines.iter().map(|l| js_trim(l)).collect();
    let distinct = trimmed
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len()
        == lines.len();
    if !distinct || trimmed[from..from + len].iter().any(|t| t.is_empty()) {
        return Ok(());
    }
    let content = lines.join("\n");
    let block = lines[from..from + len].join("\n");
    let start: usize = lines[..from].iter().map(|l| l.len() + 1).sum();
    let expected = start..start + block.len();
    let found = Strategy::LineTrimmed
        .find(&content, &block)
        .map(|m| m.regions);
    if found.as_deref() != Some(&[expected.clone()][..]) {
        return Err(format!(
            "line-trimmed: exact block {block:?} at {expected:?} found as {found:?} in {content:?}"
        ));
    }
    Ok(())
}

/// `parse_line_ref`: no panic; a result has line >= 1 and a two-digit lower-case hex hash; the
/// canonical spelling of a result parses to the same result.
pub fn check_parse_line_ref(s: &str) -> Result<(), String> {
    let Some(r) = parse_line_ref(s) else {
        return Ok(());
    };
    if r.line < 1 {
        return Err(format!("{s:?}: line {}", r.line));
    }
    if let Some(h) = &r.hash {
        if h.len() != 2 || !h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(format!("{s:?}: hash {h:?}"));
        }
    }
    if r.line < usize::MAX {
        let canonical = match &r.hash {
            Some(h) => format!("{}:{h}", r.line),
            None => r.line.to_string(),
        };
        if parse_line_ref(&canonical).as_ref() != Some(&r) {
            return Err(format!("{s:?}: canonical {canonical:?} parses differently"));
        }
    }
    Ok(())
}

/// `parse_line_ref` of a number's decimal spelling (with an optional hash) is that number.
pub fn check_line_ref_roundtrip(n: usize, hash: Option<u8>) -> Result<(), String> {
    let s = match hash {
        Some(h) => format!("{n}:{h:02X}"),
        None => n.to_string(),
    };
    let parsed = parse_line_ref(&s);
    let expected = (n >= 1).then(|| (n, hash.map(|h| format!("{h:02x}"))));
    if parsed.map(|r| (r.line, r.hash)) != expected {
        return Err(format!("{s:?} did not parse to {expected:?}"));
    }
    Ok(())
}

/// `clean_new_string`: no panic for any range or position (including 0, past the end and
/// `usize::MAX`); with distinct, trimmed-distinct lines without prefixes, restating the replaced
/// range verbatim is left as it is (replacing lines with themselves is a no-op). "Trimmed" is the
/// engine's JavaScript trim, which also strips U+FEFF (Rust's `trim` keeps it): two lines equal under
/// it are an echo by the engine's rules.
pub fn check_clean_new_string(
    new_str: &str,
    lines: &[String],
    start: usize,
    end: usize,
    position: Option<Position>,
) -> Result<(), String> {
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let _ = clean_new_string(new_str, &refs, start, end, position);
    if lines.is_empty() {
        return Ok(());
    }
    let s = 1 + start % lines.len();
    let e = s + end % (lines.len() - s + 1);
    let distinct = lines
        .iter()
        .map(|l| js_trim(l))
        .collect::<std::collections::HashSet<_>>()
        .len()
        == lines.len();
    let plain = lines.iter().all(|l| {
        !js_trim(l).is_empty()
            && edit_engine_core::lines::hashline_prefix_len(l).is_none()
            && !l.trim_start().starts_with(|c: char| c.is_ascii_digit())
    });
    if distinct && plain && e >= s {
        let same = refs[s - 1..e].join("\n");
        let out = clean_new_string(&same, &refs, s, e, None);
        if out.text != same {
            return Err(format!(
                "restating lines {s}-{e} verbatim was changed to {:?} ({:?})",
                out.text, out.modifications
            ));
        }
    }
    Ok(())
}

fn ctx(root: &Path) -> ToolContext {
    let root = root.to_string_lossy().into_owned();
    let options = ToolOptions {
        allowed_folders: vec![root.clone()],
        cwd: Some(root),
        ..ToolOptions::default()
    };
    ToolContext::new(&options, None).expect("tool context")
}

/// Text mode through the `edit` tool on disk: replacing `old` (a unique substring of `content`)
/// by `new` and then `new` by `old` (when `new` is unique in the result) restores the bytes; an
/// error leaves the file unchanged. The caller keeps the file's line-ending style fixed across
/// both edits (an edit that removes a file's last lone LF turns it into a CRLF file, and the
/// inverse edit is then written with CRLF, by design). Pairs where a non-empty side lacks a
/// boundary line break the other has are skipped: the boundary rule keeps that line break, so the
/// first edit is by design not inverted by the swapped strings.
pub fn check_text_roundtrip(
    root: &Path,
    content: &str,
    old: &str,
    new: &str,
) -> Result<(), String> {
    let file = root.join("t.txt");
    std::fs::write(&file, content).map_err(|e| e.to_string())?;
    let ctx = ctx(root);
    let run = |o: &str, n: &str| {
        edit_engine_core::tools::edit::run(
            &ctx,
            &json!({ "file_path": "t.txt", "old_string": o, "new_string": n, "match_strategy": "exact" }),
        )
    };
    let edge = |f: fn(&str, char) -> bool| {
        !old.is_empty() && !new.is_empty() && f(old, '\n') != f(new, '\n')
    };
    if edge(|s, c| s.starts_with(c)) || edge(|s, c| s.ends_with(c)) {
        return Ok(());
    }
    let r1 = run(old, new);
    let after = std::fs::read(&file).map_err(|e| e.to_string())?;
    if r1.starts_with("Error") {
        return if after == content.as_bytes() {
            Ok(())
        } else {
            Err(format!("error changed the file: {r1}"))
        };
    }
    let after = String::from_utf8(after).map_err(|_| "not UTF-8 after edit".to_string())?;
    if after.matches(new).count() != 1 || old == new {
        return Ok(());
    }
    let r2 = run(new, old);
    let back = std::fs::read(&file).map_err(|e| e.to_string())?;
    if r2.starts_with("Error") || back != content.as_bytes() {
        return Err(format!(
            "old->new->old did not restore: {r1} / {r2}; content {content:?} old {old:?} new {new:?} back {:?}",
            String::from_utf8_lossy(&back)
        ));
    }
    Ok(())
}

/// Line mode through the `edit` tool on disk: replacing line `k` by `new` (one line, no newline)
/// and then that line back by the original restores the bytes.
pub fn check_line_roundtrip(
    root: &Path,
    lines: &[String],
    k: usize,
    new: &str,
) -> Result<(), String> {
    if lines.is_empty() || new.contains('\n') || new.contains('\r') {
        return Ok(());
    }
    let content = lines.join("\n") + "\n";
    let k = 1 + k % lines.len();
    // An empty `new_string` deletes the line (by design), so an empty line has no inverse edit;
    // a line equal to a neighbour is taken for an echoed boundary line and stripped (Probe's
    // auto-correction), so it has none either.
    let orig = js_trim(&lines[k - 1]);
    let neighbours = [k.checked_sub(2).map(|i| &lines[i]), lines.get(k)];
    if lines[k - 1].is_empty() || neighbours.iter().flatten().any(|n| js_trim(n) == orig) {
        return Ok(());
    }
    let file = root.join("l.txt");
    std::fs::write(&file, &content).map_err(|e| e.to_string())?;
    let ctx = ctx(root);
    let run = |n: &str| {
        edit_engine_core::tools::edit::run(
            &ctx,
            &json!({ "file_path": "l.txt", "start_line": k.to_string(), "new_string": n }),
        )
    };
    let r1 = run(new);
    if r1.starts_with("Error") {
        let now = std::fs::read(&file).map_err(|e| e.to_string())?;
        return if now == content.as_bytes() {
            Ok(())
        } else {
            Err(format!("error changed the file: {r1}"))
        };
    }
    let after = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    // Auto-corrections (indentation, echoed lines) may legitimately rewrite `new`; the inverse is
    // only defined when the line landed as given.
    if after.split('\n').nth(k - 1) != Some(new)
        || after.split('\n').count() != content.split('\n').count()
    {
        return Ok(());
    }
    let r2 = run(&lines[k - 1]);
    let back = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    if back.split('\n').nth(k - 1) == Some(lines[k - 1].as_str()) && back != content {
        return Err(format!(
            "line {k}: replace and replace back did not restore ({r1} / {r2})"
        ));
    }
    Ok(())
}

/// The `replace_in_file` planner on any batch: no panic; an accepted batch never holds two line
/// ranges that overlap (a valid pair of overlapping ranges must be refused).
pub fn check_batch_any(text: &str, ops: &[Op]) -> Result<(), String> {
    let Ok(applied) = batch_plan::apply(text, ops) else {
        return Ok(());
    };
    let ranges: Vec<(usize, usize)> = ops
        .iter()
        .filter_map(|op| match op.kind {
            OpKind::Lines { start, end, .. } => Some((start, end)),
            _ => None,
        })
        .collect();
    for (i, a) in ranges.iter().enumerate() {
        for b in &ranges[i + 1..] {
            if a.0 <= b.1 && b.0 <= a.1 {
                return Err(format!("overlapping ranges {a:?} and {b:?} accepted"));
            }
        }
    }
    if applied.effects.len() > ops.len() {
        return Err(format!(
            "{} effects for {} operations",
            applied.effects.len(),
            ops.len()
        ));
    }
    Ok(())
}

/// Original numbering and inverse: replacing the distinct lines `picks` (1-based, of the file as
/// read) each by one marker line changes exactly those lines, whatever the order of the ops; the
/// inverse batch (the same lines back to their old text) restores the input byte for byte.
pub fn check_batch_line_roundtrip(text: &str, picks: &[usize]) -> Result<(), String> {
    let (lines, trailing) = batch_plan::lines_and_final_newline(text);
    let mut seen = std::collections::HashSet::new();
    let picks: Vec<usize> = picks
        .iter()
        .copied()
        .filter(|&k| k >= 1 && k <= lines.len() && seen.insert(k))
        .collect();
    if picks.is_empty() {
        return Ok(());
    }
    let replace = |k: usize, text: String| Op {
        index: k,
        kind: OpKind::Lines {
            start: k,
            end: k,
            text,
        },
    };
    let forward: Vec<Op> = picks
        .iter()
        .map(|&k| replace(k, format!("<{k}>")))
        .collect();
    let applied = batch_plan::apply(text, &forward).map_err(|e| format!("forward refused: {e}"))?;
    let (new_lines, new_trailing) = batch_plan::lines_and_final_newline(&applied.new_text);
    let expected: Vec<String> = (1..=lines.len())
        .map(|k| {
            if picks.contains(&k) {
                format!("<{k}>")
            } else {
                lines[k - 1].to_string()
            }
        })
        .collect();
    if new_lines != expected || new_trailing != trailing {
        return Err(format!(
            "picks {picks:?}: got {:?}, expected {expected:?}",
            applied.new_text
        ));
    }
    let inverse: Vec<Op> = picks
        .iter()
        .map(|&k| replace(k, format!("{}\n", lines[k - 1])))
        .collect();
    let restored = batch_plan::apply(&applied.new_text, &inverse)
        .map_err(|e| format!("inverse refused: {e}"))?;
    if restored.new_text != text {
        return Err(format!(
            "inverse of {picks:?} gave {:?}, expected {text:?}",
            restored.new_text
        ));
    }
    Ok(())
}

/// A literal replaced by a marker the text does not contain, then the marker replaced back,
/// restores the input; the occurrence counts of both directions agree.
pub fn check_batch_literal_roundtrip(text: &str, search: &str) -> Result<(), String> {
    const MARKER: &str = "\u{E000}";
    if search.is_empty() || text.contains(MARKER) || !text.contains(search) {
        return Ok(());
    }
    let literal = |search: &str, replace: &str| {
        [Op {
            index: 1,
            kind: OpKind::Literal {
                search: search.to_string(),
                replace: replace.to_string(),
            },
        }]
    };
    let there = batch_plan::apply(text, &literal(search, MARKER)).map_err(|e| format!("{e}"))?;
    let back =
        batch_plan::apply(&there.new_text, &literal(MARKER, search)).map_err(|e| format!("{e}"))?;
    if back.new_text != text {
        return Err(format!(
            "{search:?} there and back gave {:?}",
            back.new_text
        ));
    }
    if there.effects != back.effects {
        return Err(format!(
            "counts differ: {:?} vs {:?}",
            there.effects, back.effects
        ));
    }
    Ok(())
}
