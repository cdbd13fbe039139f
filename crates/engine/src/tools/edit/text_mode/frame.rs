//! Mapping `new_string` from the frame the model wrote it in (the indentation of its
//! `old_string`) into the file's frame, line by line, written in the file's indentation style.
//!
//! Indentation is measured in columns where one level is `unit` columns and a tab is one level;
//! `unit` is the file's space step (or the model's when the file indents with tabs). The shift of
//! each `old_string` line to its matched file line says how the model's frame maps onto the file's;
//! a `new_string` line takes the shift of the `old_string` line it copies (same trimmed text), else
//! the shift of the nearest line above that has one.

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
    // Shift (file columns - model columns) per trimmed old line, in order.
    let mut pairs: Vec<(&str, isize)> = Vec::new();
    for (i, (o, r)) in old.split('\n').zip(region_lines.iter()).enumerate() {
        if js_trim(o).is_empty() || js_trim(r).is_empty() {
            continue;
        }
        let shift = file_cols(i, r) as isize - columns(lead(o), unit) as isize;
        pairs.push((js_trim(o), shift));
    }
    let mut shift = pairs.first()?.1;
    let mut out: Vec<String> = Vec::new();
    for (i, line) in new.split('\n').enumerate() {
        let body = line.trim_start_matches([' ', '\t']);
        if js_trim(line).is_empty() {
            out.push(String::new());
            continue;
        }
        if let Some(&(_, s)) = pairs.iter().find(|(t, _)| *t == js_trim(line)) {
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

    #[test]
    fn mid_line_start_keeps_the_files_prefix() {
        let region = "x = f(1,\n      2)";
        let out = into_file_frame(region, "    ", "x = f(1,\n  2)", "x = f(1,\n  3)", SPACES4);
        assert_eq!(out.unwrap(), "x = f(1,\n      3)");
    }
}
