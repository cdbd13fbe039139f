//! The `string` and `regex` operations of a batch, applied to the whole text after the line
//! operations. Each replaces every occurrence; one that matches nothing fails the batch.

use super::{label, BatchError, Effect, Op, OpKind};
use crate::fs::endings::splice_carrying_endings;
use std::borrow::Cow;
use std::ops::Range;

/// Applies `op` to `text` when it is a string or regex operation (`Ok(None)` for line
/// operations). Linear in the text size (the `regex` crate guarantees linear-time matching). In a
/// file of mixed endings each new line takes the ending of the line it replaces.
pub(super) fn apply(text: &str, op: &Op) -> Result<Option<(String, Effect)>, BatchError> {
    let regions: Vec<(Range<usize>, Cow<str>)> = match &op.kind {
        OpKind::Literal { search, .. } if search.is_empty() => Vec::new(),
        OpKind::Literal { search, replace } => text
            .match_indices(search.as_str())
            .map(|(at, _)| (at..at + search.len(), Cow::Borrowed(replace.as_str())))
            .collect(),
        OpKind::Regex { regex, replace } => regex
            .captures_iter(text)
            .map(|caps| {
                let mut expanded = String::new();
                caps.expand(replace, &mut expanded);
                (
                    caps.get(0).map_or(0..0, |m| m.range()),
                    Cow::Owned(expanded),
                )
            })
            .collect(),
        _ => return Ok(None),
    };
    if regions.is_empty() {
        return Err(BatchError::NoMatch { op: label(op) });
    }
    let count = regions.len();
    let next = splice_carrying_endings(text, regions);
    Ok(Some((next, Effect::Replaced { count })))
}
