//! Syntax notes a preview finds while it stores itself. A preview has no write for its syntax
//! guard's parse to run beside, so [`super::preview::preview`] lets the parse run beside the
//! storing instead: a small change's guard under way is kept here and its reply carries a mark
//! where the note goes; the preview is stored with every note taken as empty (a clean check,
//! the usual case), then the notes are waited for and put in place of their marks, and a preview
//! whose notes are not all empty is stored again with them (a temp file renamed over it, so a
//! reader sees one whole record or the other). A fresh token is known to nobody before `preview`
//! returns it; a tool call's token is, to a second preview of that same call made at that very
//! moment, which may show the first record, without its notes.

use crate::syntax::write_guard::Guard;

/// Largest texts (before and after together) whose guard is kept here: the guard holds its own
/// copy of them, which for larger ones costs more than the overlap saves.
pub const DEFER_UP_TO: usize = 32 << 10;

/// The notes of a preview under way.
#[derive(Default)]
pub struct PendingNotes {
    /// Set by the preview that stores its plan (other users of preview mode take every note at
    /// once).
    deferring: bool,
    guards: Vec<Guard<'static>>,
}

impl std::fmt::Debug for PendingNotes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingNotes")
            .field("deferring", &self.deferring)
            .field("pending", &self.guards.len())
            .finish()
    }
}

/// The mark a reply carries in place of the note of the `index`th pending guard. A NUL never
/// appears in a reply otherwise: the contents it quotes are text files, which hold none.
fn mark(index: usize) -> String {
    format!("\0syntax note {index}\0")
}

impl PendingNotes {
    /// Notes that keep small guards under way until [`Self::resolve`].
    pub fn deferring() -> Self {
        PendingNotes {
            deferring: true,
            guards: Vec::new(),
        }
    }

    /// Whether `guard`'s note is kept pending: when deferring, for a small check still under way.
    pub fn defers(&self, guard: &Guard<'_>) -> bool {
        let held = guard.held_bytes();
        self.deferring && held > 0 && held <= DEFER_UP_TO
    }

    /// Keeps `guard` pending; the mark the reply carries in place of its note.
    pub fn keep(&mut self, guard: Guard<'static>) -> String {
        self.guards.push(guard);
        mark(self.guards.len() - 1)
    }

    /// True when no note is pending.
    pub fn is_empty(&self) -> bool {
        self.guards.is_empty()
    }

    /// `text` with every pending note taken as empty.
    pub fn assumed_clean(&self, text: &str) -> String {
        (0..self.guards.len()).fold(text.to_string(), |t, i| t.replacen(&mark(i), "", 1))
    }

    /// `text` with each pending note, waited for, in place of its mark.
    pub fn resolve(self, text: String) -> String {
        let notes = self.guards.into_iter().map(Guard::note).enumerate();
        notes.fold(text, |t, (i, note)| t.replacen(&mark(i), &note, 1))
    }
}
