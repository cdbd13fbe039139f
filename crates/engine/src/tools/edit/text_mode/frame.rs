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
    let file_cols = |i: usize, line: &str| {
        if i == 0 && mid_line {
            columns(first_indent, unit)
        } else {
            columns(lead(line), unit)
        }
    };
    // Shift (file columns - model columns) of each old line, where both it and its file line have text.
    let old_lines: Vec<&str> = old.split('\n').collect();
    let shifts: Vec<Option<isize>> = old_lines
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let r = region_lines.get(i)?;
            let blank = js_trim(o).is_empty() || js_trim(r).is_empty();
            (!blank).then(|| file_cols(i, r) as isize - columns(lead(o), unit) as isize)
        })
        .collect();
    let mut shift = shifts.iter().flatten().next().copied()?;
    let new_lines: Vec<&str> = new.split('\n').collect();
    let counterpart = counterparts(&old_lines, &new_lines);
    let mut out: Vec<String> = Vec::new();
    for (i, line) in new_lines.iter().enumerate() {
        let body = line.trim_start_matches([' ', '\t']);
        if js_trim(line).is_empty() {
            out.push(String::new());
            continue;
        }
        let same_text = || {
            let at = old_lines
                .iter()
                .zip(&shifts)
                .position(|(o, s)| s.is_some() && js_trim(o) == js_trim(line));
            at.and_then(|at| shifts[at])
        };
        if let Some(s) = counterpart[i].and_then(|o| shifts[o]).or_else(same_text) {
            shift = s;
        }
        let cols = (columns(lead(line), unit) as isize + shift).max(0) as usize;
        if i == 0 && mid_line {
            out.push(body.to_string());
        } else {
            out.push(format!("{}{body}", write_indent(cols, style)));
        }
    }
    Some(out.join("\n"))
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

    #[test]
    fn mid_line_start_keeps_the_files_prefix() {
        let region = "x = f(1,\n      2)";
        let out = into_file_frame(region, "    ", "x = f(1,\n  2)", "x = f(1,\n  3)", SPACES4);
        assert_eq!(out.unwrap(), "x = f(1,\n      3)");
    }
}
