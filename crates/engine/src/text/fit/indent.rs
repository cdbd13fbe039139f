//! Carrying the file's indentation into `new_string`: the one framing step every fit ends with.

use super::frame::{
    detect_style, into_file_frame, relative_to_first_line, restyled, uniform_shift,
};
use super::{IndentStyle, Region};
use crate::lines::detect_base_indent;

/// `new` in the file's frame: mapped line by line when written at `old`'s base indent or when
/// `old` was written at one uniform indentation difference ([`in_old_frame`]), else kept at its own
/// levels (moved as one block onto the file line when the region starts mid-line), written in the
/// file's indentation style.
pub(crate) fn carry_indentation(region: &Region, old: &str, new: &str) -> String {
    if new.trim().is_empty() {
        return new.to_string();
    }
    let style = fitted_style(region, old, new);
    if detect_base_indent(new) != detect_base_indent(old) {
        if let Some(out) = in_old_frame(region, old, new, style) {
            return out;
        }
        let mid_line =
            !region.first_indent.is_empty() && !region.text.starts_with(region.first_indent);
        return match mid_line {
            true => relative_to_first_line(new, region.first_indent, style),
            false => restyled(new, style),
        };
    }
    into_file_frame(region.text, region.first_indent, old, new, style)
        .unwrap_or_else(|| new.to_string())
}

/// The file's indentation style with the unit `old` and `new` are read in: in a tab file a level of
/// the model's spaces is the model's own step; in a space file a tab of `old` is as wide as the
/// matched lines say ([`tab_width`]).
fn fitted_style(region: &Region, old: &str, new: &str) -> IndentStyle {
    let mut style = region.style;
    if style.tabs {
        style.unit = detect_style(&format!("{old}\n{new}")).unit;
    } else if let Some(unit) = tab_width(region.text, region.first_indent, old) {
        style.unit = unit;
    }
    style
}

/// The columns one tab of `old` stands for in a space-indented region, read from the matched lines
/// themselves (two lines with different tab counts: the difference of their file columns, less
/// their own spaces, over the difference of tabs; lines with one count of tabs: their columns over
/// that count); `None` without such lines or when they disagree or give no width of 1..=8. The
/// file's detected unit can be off (hanging indents). A region starting mid-line counts its first
/// line at the file line's indentation.
fn tab_width(region_text: &str, first_indent: &str, old: &str) -> Option<usize> {
    let lead = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let mid_line = !first_indent.is_empty() && !region_text.starts_with(first_indent);
    let points: Vec<(isize, isize)> = old
        .split('\n')
        .zip(region_text.split('\n'))
        .enumerate()
        .filter(|(_, (o, r))| !(o.trim().is_empty() || r.trim().is_empty()))
        .map(|(i, (o, r))| match i == 0 && mid_line {
            true => (o, first_indent),
            false => (o, &r[..lead(r)]),
        })
        .filter(|(_, indent)| !indent.contains('\t'))
        .map(|(o, indent)| {
            let tabs = o[..lead(o)].bytes().filter(|&b| b == b'\t').count() as isize;
            (tabs, indent.len() as isize - (lead(o) as isize - tabs))
        })
        .collect();
    let mut width: Option<isize> = None;
    for (a, b) in points.iter().zip(points.iter().skip(1)) {
        if a.0 == b.0 {
            continue;
        }
        let (dc, dt) = (b.1 - a.1, b.0 - a.0);
        if dc % dt != 0 || *width.get_or_insert(dc / dt) != dc / dt {
            return None;
        }
    }
    width
        .or_else(|| one_tab_count_width(&points))
        .filter(|w| (1..=8).contains(w))
        .map(|w| w as usize)
}

/// Lines that all have the same count of tabs at the same file columns (a single matched line, say):
/// the columns those tabs stand for, over their count; `None` without tabs or when not whole.
fn one_tab_count_width(points: &[(isize, isize)]) -> Option<isize> {
    let &(tabs, cols) = points.first()?;
    let same = points.iter().all(|&p| p == (tabs, cols));
    (same && tabs > 0 && cols % tabs == 0).then(|| cols / tabs)
}

/// A `new` at another base indent than `old`, when `old` was written with indentation (its first
/// line indented) that differs from the file's by one shift on every line: `new` was written in
/// `old`'s frame, at its own levels there, and moves by that shift. `None` otherwise (`old`'s
/// first line flush, as when its indentation was left out, or shifts that differ).
fn in_old_frame(region: &Region, old: &str, new: &str, style: IndentStyle) -> Option<String> {
    let first = old.split('\n').find(|l| !l.trim().is_empty())?;
    if !first.starts_with([' ', '\t']) {
        return None;
    }
    uniform_shift(region.text, region.first_indent, old, style.unit)?;
    into_file_frame(region.text, region.first_indent, old, new, style)
}
