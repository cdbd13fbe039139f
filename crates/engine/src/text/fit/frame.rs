//! Mapping `new_string` from the frame the model wrote it in (the indentation of its
//! `old_string`) into the file's frame, line by line, written in the file's indentation style.
//!
//! Indentation is measured in columns where one level is `unit` columns and a tab is one level;
//! `unit` is the file's space step (or the model's when the file indents with tabs). The shift of
//! each `old_string` line to its matched file line says how the model's frame maps onto the file's;
//! a `new_string` line takes the shift of the `old_string` line it corresponds to (a line diff of the
//! trimmed lines: an equal line, or the line at the same place of a changed block), else of an
//! `old_string` line with the same trimmed text, else the shift of the nearest line above.

pub use crate::lines::{detect_style, IndentStyle};
use crate::text::js::js_trim;

/// The indentation style of about 8 KB of `content` around byte `at` (whole lines, clamped into
/// the file). Local, since a long file can hold text of another style far from an edit (a
/// space-indented script in a string of a tab-indented file).
pub fn style_around(content: &str, at: usize) -> IndentStyle {
    detect_style(around(content, at))
}

/// The text [`style_around`] reads.
fn around(content: &str, at: usize) -> &str {
    const SPAN: usize = 8 * 1024;
    let end = (at.saturating_add(SPAN / 2)).max(SPAN).min(content.len());
    let (mut start, mut end) = (end.saturating_sub(SPAN), end);
    while !content.is_char_boundary(start) {
        start -= 1;
    }
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    if start > 0 {
        start += content[start..end].find('\n').map_or(0, |i| i + 1);
    }
    &content[start..end]
}

fn lead(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Columns of an indentation (tab = `unit` columns).
fn columns(indent: &str, unit: usize) -> usize {
    indent
        .bytes()
        .map(|b| if b == b'\t' { unit } else { 1 })
        .sum()
}

/// `cols` columns written in `style`.
fn write_indent(cols: usize, style: IndentStyle) -> String {
    if style.tabs {
        let mut s = "\t".repeat(cols / style.unit);
        s.push_str(&" ".repeat(cols % style.unit));
        s
    } else {
        " ".repeat(cols)
    }
}

/// `new` moved into the file's frame. `region` is the matched file text, `first_indent` the
/// indentation of the file line the region starts on (the region itself starts after it when it
/// starts mid-line: then `new`'s first line is written without indentation). `None` when the
/// old and region lines give no usable correspondence (nothing non-blank).
///
/// When `old`'s first line starts mid-line (written without indentation) while its later lines
/// carry the file's columns, a `new` not written in that same frame is read relative to its own
/// first line: the whole block takes the first line's shift. Whitespace-only lines of `new` are
/// kept, shifted with the line above ([`blank_line`]).
pub fn into_file_frame(
    region: &str,
    first_indent: &str,
    old: &str,
    new: &str,
    style: IndentStyle,
) -> Option<String> {
    let unit = style.unit;
    let mid_line = !first_indent.is_empty() && !region.starts_with(first_indent);
    let region_lines: Vec<&str> = region.split('\n').collect();
    let old_lines: Vec<&str> = old.split('\n').collect();
    let shifts = line_shifts(&region_lines, &old_lines, first_indent, mid_line, unit);
    let mut shift = shifts.iter().flatten().next().copied()?;
    let new_lines: Vec<&str> = new.split('\n').collect();
    let block_shift = first_line_frame(&old_lines, &shifts, &new_lines, unit);
    let counterpart = counterparts(&old_lines, &new_lines);
    let empty_blanks = blank_lines_all_empty(&region_lines);
    let mut out: Vec<String> = Vec::new();
    for (i, line) in new_lines.iter().enumerate() {
        if js_trim(line).is_empty() {
            out.push(blank_line(line, shift, style, empty_blanks));
            continue;
        }
        let same_text = || {
            let at = old_lines
                .iter()
                .zip(&shifts)
                .position(|(o, s)| s.is_some() && js_trim(o) == js_trim(line));
            at.and_then(|at| shifts[at])
        };
        let own = || counterpart[i].and_then(|o| shifts[o]).or_else(same_text);
        if let Some(s) = block_shift.or_else(own) {
            shift = s;
        }
        out.push(shifted_line(line, shift, style, i == 0 && mid_line));
    }
    Some(out.join("\n"))
}

/// The one shift (file columns - model columns) every non-blank line of `old` has to its matched
/// line of `region`; `None` when the lines' shifts differ or no line has text on both sides.
pub fn uniform_shift(region: &str, first_indent: &str, old: &str, unit: usize) -> Option<isize> {
    let mid_line = !first_indent.is_empty() && !region.starts_with(first_indent);
    let region_lines: Vec<&str> = region.split('\n').collect();
    let old_lines: Vec<&str> = old.split('\n').collect();
    let shifts = line_shifts(&region_lines, &old_lines, first_indent, mid_line, unit);
    let mut known = shifts.into_iter().flatten();
    let first = known.next()?;
    known.all(|s| s == first).then_some(first)
}

/// Shift (file columns - model columns) of each old line, where both it and its file line have
/// text; a region starting mid-line counts its first line at the file line's indentation.
fn line_shifts(
    region_lines: &[&str],
    old_lines: &[&str],
    first_indent: &str,
    mid_line: bool,
    unit: usize,
) -> Vec<Option<isize>> {
    let file_cols = |i: usize, line: &str| match i == 0 && mid_line {
        true => columns(first_indent, unit),
        false => columns(lead(line), unit),
    };
    old_lines
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let r = region_lines.get(i)?;
            let blank = js_trim(o).is_empty() || js_trim(r).is_empty();
            (!blank).then(|| file_cols(i, r) as isize - columns(lead(o), unit) as isize)
        })
        .collect()
}

/// The one shift for every line of `new` when `old`'s first line was written without its
/// indentation (shifted right) while every later line of `old` sits at the file's columns, and
/// `new`'s later lines do not stand to its first line as `old`'s do (`new` was written relative to
/// its own first line). `None` otherwise: each line takes its own old line's shift.
fn first_line_frame(
    old_lines: &[&str],
    shifts: &[Option<isize>],
    new_lines: &[&str],
    unit: usize,
) -> Option<isize> {
    let first = *shifts.first()?.as_ref()?;
    let later: Vec<isize> = shifts.iter().skip(1).flatten().copied().collect();
    let old_flush = lead(old_lines[0]).is_empty();
    if first <= 0 || !old_flush || later.is_empty() || later.iter().any(|&s| s != 0) {
        return None;
    }
    let relative = |lines: &[&str]| -> Option<isize> {
        let first = lines.first().filter(|l| !js_trim(l).is_empty())?;
        let least = lines[1..]
            .iter()
            .filter(|l| !js_trim(l).is_empty())
            .map(|l| columns(lead(l), unit))
            .min()?;
        Some(least as isize - columns(lead(first), unit) as isize)
    };
    let (old_rel, new_rel) = (relative(old_lines)?, relative(new_lines)?);
    (old_rel != new_rel).then_some(first)
}

/// Whether the region has blank lines and every one of them is empty.
fn blank_lines_all_empty(region_lines: &[&str]) -> bool {
    let mut blanks = region_lines.iter().filter(|l| js_trim(l).is_empty());
    let Some(first) = blanks.next() else {
        return false;
    };
    first.is_empty() && blanks.all(|l| l.is_empty())
}

/// A whitespace-only line of `new`: written as given, moved by `shift` with its block; empty when
/// the file's blank lines there are all empty (`empty_blanks`) or it is empty itself.
fn blank_line(line: &str, shift: isize, style: IndentStyle, empty_blanks: bool) -> String {
    match line.is_empty() || empty_blanks {
        true => String::new(),
        false => shifted_line(line, shift, style, false),
    }
}

/// `line` with its indentation moved by `shift` columns and written in `style`; without any
/// indentation when `first_of_mid_line` (the file line's own indentation precedes it).
fn shifted_line(line: &str, shift: isize, style: IndentStyle, first_of_mid_line: bool) -> String {
    let ind = lead(line);
    let body = &line[ind.len()..];
    if first_of_mid_line {
        return body.to_string();
    }
    let cols = (columns(ind, style.unit) as isize + shift).max(0) as usize;
    format!("{}{body}", write_indent(cols, style))
}

/// `new` moved as one block so that its first line lands at `first_indent`'s columns: every later
/// line keeps its indentation relative to the first line, written in `style`. The first line is
/// written without indentation (the region starts after the file line's indentation).
pub fn relative_to_first_line(new: &str, first_indent: &str, style: IndentStyle) -> String {
    let lines: Vec<&str> = new.split('\n').collect();
    let first_cols = columns(lead(lines[0]), style.unit) as isize;
    let shift = columns(first_indent, style.unit) as isize - first_cols;
    let out: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| match js_trim(line).is_empty() {
            true => blank_line(line, shift, style, false),
            false => shifted_line(line, shift, style, i == 0),
        })
        .collect();
    out.join("\n")
}

/// For each line of `new`, the line of `old` it corresponds to in a diff of their trimmed lines: an
/// equal line, or the line at the same place of a block of changed lines; `None` for added lines.
fn counterparts(old: &[&str], new: &[&str]) -> Vec<Option<usize>> {
    let trim =
        |lines: &[&str]| -> Vec<String> { lines.iter().map(|l| js_trim(l).to_string()).collect() };
    let (old_t, new_t) = (trim(old), trim(new));
    let mut out = vec![None; new.len()];
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old_t, &new_t) {
        let (old_at, old_len, new_at, new_len) = match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => (old_index, len, new_index, len),
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (old_index, old_len, new_index, new_len),
            _ => continue,
        };
        for k in 0..new_len.min(old_len) {
            out[new_at + k] = Some(old_at + k);
        }
    }
    out
}

/// `new` at its own levels, every indentation written in `style` when it is in the other style
/// (tabs in a space file, a level or more of spaces in a tab file); other lines are kept as written.
pub fn restyled(new: &str, style: IndentStyle) -> String {
    let foreign = |ind: &str| match style.tabs {
        true => ind.starts_with(&" ".repeat(style.unit)),
        false => ind.contains('\t'),
    };
    let lines: Vec<String> = new
        .split('\n')
        .map(|line| {
            let ind = lead(line);
            match foreign(ind) {
                true => format!(
                    "{}{}",
                    write_indent(columns(ind, style.unit), style),
                    &line[ind.len()..]
                ),
                false => line.to_string(),
            }
        })
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPACES4: IndentStyle = IndentStyle {
        tabs: false,
        unit: 4,
    };

    #[test]
    fn detects_tabs_and_space_units() {
        assert_eq!(
            detect_style("a\n\tb\n\t\tc\n"),
            IndentStyle {
                tabs: true,
                unit: 4
            }
        );
        assert_eq!(
            detect_style("a\n  b\n    c\n"),
            IndentStyle {
                tabs: false,
                unit: 2
            }
        );
        assert_eq!(detect_style("a\n"), SPACES4);
    }

    /// A hunk that starts deeper than it ends, copied one level too shallow: every line moves.
    #[test]
    fn every_line_moves_by_its_old_lines_shift() {
        let region = "        x();\n    }\n}";
        let out = into_file_frame(
            region,
            "        ",
            "    x();\n}\n",
            "    y();\n}\n",
            SPACES4,
        );
        assert_eq!(out.unwrap(), "        y();\n    }\n");
        let out = into_file_frame(region, "        ", "    x();\n}", "    y();\n}", SPACES4);
        assert_eq!(out.unwrap(), "        y();\n    }");
    }

    #[test]
    fn tabs_become_the_files_spaces_at_every_level() {
        let region = "    if a:\n        b()";
        let out = into_file_frame(
            region,
            "    ",
            "\tif a:\n\t\tb()",
            "\tif a:\n\t\tc()\n\t\td()",
            SPACES4,
        );
        assert_eq!(out.unwrap(), "    if a:\n        c()\n        d()");
    }

    /// A `new_string` written at another base indent than `old_string`, in tabs for a space file.
    #[test]
    fn kept_levels_take_the_files_style() {
        assert_eq!(restyled("\t\t});\n\t  x", SPACES4), "        });\n      x");
        let tabs = IndentStyle {
            tabs: true,
            unit: 2,
        };
        assert_eq!(restyled("    a\n\t b\n c", tabs), "\t\ta\n\t b\n c");
    }

    /// A changed line takes the shift of the line at its place in `old_string`, not of the one above.
    #[test]
    fn a_changed_line_takes_the_shift_of_its_counterpart() {
        let region = "x = f(1,\n          2)";
        let out = into_file_frame(region, "    ", "x = f(1,\n  2)", "x = f(1,\n  3)", SPACES4);
        assert_eq!(out.unwrap(), "x = f(1,\n          3)");
        let region = "    if a:\n            b(1,\n              2)";
        let old = "if a:\n    b(1,\n      2)";
        let new = "if a:\n    b(1,\n      3)\n    c()";
        let out = into_file_frame(region, "    ", old, new, SPACES4);
        assert_eq!(
            out.unwrap(),
            "    if a:\n            b(1,\n              3)\n            c()"
        );
    }

    /// Whitespace-only lines are kept and move with their block, unless the region's blank
    /// lines are all empty.
    #[test]
    fn whitespace_only_lines_move_with_their_block() {
        let out = into_file_frame("    a\n    b", "    ", "a\nb", "a\n  \n\nb", SPACES4);
        assert_eq!(out.unwrap(), "    a\n      \n\n    b");
        let out = into_file_frame("    a\n\n    b", "    ", "a\n\nb", "a\n  \nb", SPACES4);
        assert_eq!(out.unwrap(), "    a\n\n    b");
    }

    /// `old`'s first line without its indentation, its later lines at the file's columns: a `new`
    /// written relative to its first line moves as one block; one in `old`'s frame line by line.
    #[test]
    fn a_new_relative_to_its_first_line_moves_as_one_block() {
        let region = "f() {\n    x;\n  }";
        let old = "f() {\n    x;\n  }";
        let out = into_file_frame(region, "  ", old, "g() {\n  y;\n}", SPACES4);
        assert_eq!(out.unwrap(), "g() {\n    y;\n  }");
        let out = into_file_frame(region, "  ", old, "g() {\n    y;\n  }", SPACES4);
        assert_eq!(out.unwrap(), "g() {\n    y;\n  }");
        assert_eq!(
            relative_to_first_line("  a\n    b\n\n  c", "        ", SPACES4),
            "a\n          b\n\n        c"
        );
    }

    #[test]
    fn mid_line_start_keeps_the_files_prefix() {
        let region = "x = f(1,\n      2)";
        let out = into_file_frame(region, "    ", "x = f(1,\n  2)", "x = f(1,\n  3)", SPACES4);
        assert_eq!(out.unwrap(), "x = f(1,\n      3)");
    }
}
