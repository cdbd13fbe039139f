//! The size limit every write keeps: no file a tool leaves is larger than `maxFileBytes`, the
//! largest file the tools read, so whatever lands can be read back — and undone.

use super::apply::Change;
use crate::fs::FsError;

/// Refuses `change` when a file it leaves would be over `max` bytes; the error names the first
/// such file, its size and the limit. Deleted files count as nothing.
pub(super) fn refuse_oversized(change: &Change, max: u64) -> Result<(), FsError> {
    let over = change
        .files
        .iter()
        .filter_map(|f| Some((f.display, f.after?.len() as u64)))
        .find(|(_, size)| *size > max);
    match over {
        Some((display, size)) => Err(FsError::WriteTooLarge {
            display: display.to_string(),
            size,
            max,
        }),
        None => Ok(()),
    }
}
