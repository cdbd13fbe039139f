//! Blob names of recently recorded contents, kept in memory (process-wide, bounded) so a content
//! recorded again is named by a byte comparison instead of a hash: a chained edit's previous
//! content is the last edit's written one, and a content written back (an edit undone by hand, a
//! file restored) is one seen before. A name is reused only for exactly the same bytes.
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;

/// Most bytes of contents kept.
const MAX_BYTES: usize = 32 << 20;
/// Most contents kept.
const MAX_ENTRIES: usize = 8;

/// Recent contents and their names, newest first.
struct Recent {
    entries: VecDeque<(Arc<[u8]>, String)>,
    bytes: usize,
}

static RECENT: Mutex<Recent> = Mutex::new(Recent {
    entries: VecDeque::new(),
    bytes: 0,
});

/// The blob name of `bytes` (see [`super::hash_hex`]): from memory when the same bytes were
/// named recently, else hashed (and kept when small enough).
pub(super) fn name_of(bytes: &[u8]) -> String {
    if let Some(name) = lookup(bytes) {
        return name;
    }
    let name = super::hash_hex(bytes);
    if bytes.len() <= MAX_BYTES / 4 {
        keep(bytes, &name);
    }
    name
}

/// The name of the kept content equal to `bytes`; the comparisons run outside the lock, so
/// threads naming contents at once do not wait for each other's.
fn lookup(bytes: &[u8]) -> Option<String> {
    let candidates: Vec<(Arc<[u8]>, String)> = RECENT
        .lock()
        .entries
        .iter()
        .filter(|(kept, _)| kept.len() == bytes.len())
        .cloned()
        .collect();
    candidates
        .into_iter()
        .find(|(kept, _)| std::ptr::eq(kept.as_ptr(), bytes.as_ptr()) || **kept == *bytes)
        .map(|(_, name)| name)
}

/// Whether a content of `len` bytes is kept (the next naming of one such content is likely a
/// comparison rather than a hash).
pub(super) fn has_length(len: usize) -> bool {
    RECENT
        .lock()
        .entries
        .iter()
        .any(|(kept, _)| kept.len() == len)
}

/// The kept content named `name` (its bytes hash to that name), when it is still kept: a
/// content just named can be handed on without another copy.
pub(super) fn kept(name: &str) -> Option<Arc<[u8]>> {
    let recent = RECENT.lock();
    let found = recent.entries.iter().find(|(_, named)| named == name);
    found.map(|(bytes, _)| bytes.clone())
}

fn keep(bytes: &[u8], name: &str) {
    let kept: Arc<[u8]> = Arc::from(bytes);
    let mut recent = RECENT.lock();
    recent.bytes += kept.len();
    recent.entries.push_front((kept, name.to_string()));
    while recent.entries.len() > MAX_ENTRIES || recent.bytes > MAX_BYTES {
        let Some((old, _)) = recent.entries.pop_back() else {
            break;
        };
        recent.bytes -= old.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are exactly the hashes, whether remembered or not; a different content of the same
    /// length is never given a remembered name.
    #[test]
    fn remembered_names_are_the_hashes_of_exactly_those_bytes() {
        let a = b"remembered content one".to_vec();
        let b = b"remembered content two".to_vec();
        assert_eq!(name_of(&a), super::super::hash_hex(&a));
        assert_eq!(name_of(&a), super::super::hash_hex(&a));
        assert_eq!(name_of(&b), super::super::hash_hex(&b));
        let big = vec![7u8; MAX_BYTES / 4 + 1];
        assert_eq!(name_of(&big), super::super::hash_hex(&big));
        assert!(lookup(&big).is_none(), "too large to keep");
        for i in 0..MAX_ENTRIES as u8 {
            name_of(&[i; 3]);
        }
        assert!(lookup(&a).is_none(), "the oldest are dropped");
    }
}
