//! The `string` and `regex` operations of a batch, applied to the whole text after the line
//! operations. Each replaces every occurrence; one that matches nothing fails the batch.

use super::{label, BatchError, Effect, Op, OpKind};

/// Applies `op` to `text` when it is a string or regex operation (`Ok(None)` for line
/// operations). Linear in the text size (the `regex` crate guarantees linear-time matching).
pub(super) fn apply(text: &str, op: &Op) -> Result<Option<(String, Effect)>, BatchError> {
    let (count, next) = match &op.kind {
        OpKind::Literal { search, replace } => {
            let count = if search.is_empty() {
                0
            } else {
                text.matches(search.as_str()).count()
            };
            (
                count,
                (count > 0).then(|| text.replace(search.as_str(), replace)),
            )
        }
        OpKind::Regex { regex, replace } => {
            let count = regex.find_iter(text).count();
            (
                count,
                (count > 0).then(|| regex.replace_all(text, replace.as_str()).into_owned()),
            )
        }
        _ => return Ok(None),
    };
    match next {
        Some(next) => Ok(Some((next, Effect::Replaced { count }))),
        None => Err(BatchError::NoMatch { op: label(op) }),
    }
}
